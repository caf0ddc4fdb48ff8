"""The last English on German pages (issue 31): link errors, the history's picture, the
deadline in the picture, a Text inside an email's ``{% trans %}``."""

from __future__ import annotations

import pytest

from games.text import T
from tests.support import PLAYERS, admin_headers
from worker import players
from worker.i18n import translate
from worker.links import SEAT_REVOKED

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def create(client, seats, game="test-race", options=None):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": game, "players": seats,
        "options": {"target": 30} if options is None else options})
    assert reply.status_code == 201, reply.json
    return reply.json["id"]


# -- link errors ------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["tampered", "expired", "revoked"])
def test_a_bad_link_says_why_in_the_readers_language(client, rt, monkeypatch, how):
    game = create(client, PLAYERS)
    token = rt.links.make(game, 0, "play")
    if how == "tampered":
        token = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
        english = "This link is not valid (it may have been cut or altered)."
    elif how == "expired":
        monkeypatch.setitem(rt.links.max_age, "play", -1)
        english = ("This link has expired. A fresh one comes with your next turn email, "
                   "or ask the game's organiser.")
    else:
        players.sign_out_everywhere(rt.redis, rt.links,
                                    players.player_id(rt.redis, PLAYERS[0]["email"]))
        english = str(SEAT_REVOKED)
    reply = client.get(f"/play/{token}", headers=GERMAN)
    page = reply.get_data(as_text=True)
    german = translate(T(english), "de")
    assert reply.status_code == 403
    assert german != english and german in page.replace("&#39;", "'")
    assert english not in page
    assert english in client.get(f"/play/{token}").get_data(as_text=True).replace("&#39;", "'")


def test_a_revoked_my_games_link_says_so_in_german_and_the_api_stays_english(client, rt):
    pid = players.player_id(rt.redis, PLAYERS[0]["email"])
    game = create(client, PLAYERS)
    token = players.me_token(rt.redis, rt.links, pid)
    players.sign_out_everywhere(rt.redis, rt.links, pid)
    page = client.get(f"/me/{token}", headers=GERMAN).get_data(as_text=True)
    assert translate(players.REVOKED, "de") in page
    assert "Du hast dich überall abgemeldet" in page and str(players.REVOKED) not in page
    api = client.get(f"/api/v1/games/{game}",
                     headers={**GERMAN, "Authorization": "Bearer nonsense"})
    assert api.status_code == 403 and api.json["message"] == \
        "This link is not valid (it may have been cut or altered)."


# -- a Text inside an email's {% trans %} ----------------------------------------------
def test_an_emails_trans_block_says_a_text_value_in_the_readers_language():
    from worker.i18n import email_env
    what = T("end the game early")
    german = translate(what, "de")
    assert german != str(what)
    block = "{% trans what=what %}Ada proposes to {{ what }}.{% endtrans %}"
    assert email_env("de").from_string(block).render(what=what) == \
        f"Ada proposes to {german}."  # the sentence is no message: English around it
    assert email_env("en").from_string(block).render(what=what) == \
        "Ada proposes to end the game early."
    said = "{% trans who=what %}{{ who }} resigned.{% endtrans %}"  # a message: German
    assert email_env("de").from_string(said).render(what=what) == f"{german} hat aufgegeben."
    page = email_env("de").get_template("email/vote.html").render(
        player={"name": "Bo"}, proposer="Ada", what=what, game={"name": "Race"},
        game_id="g1", kind="early_end", names=["Ada", "Bo"], needed=2, expires="morgen",
        play_url="#", mute_url="#", my_games_url=None)
    assert german in page and "end the game early" not in page


def test_the_pages_and_the_emails_share_one_helper_for_texts_in_gettext():
    import service.i18n
    import worker.i18n
    assert not hasattr(service.i18n, "_saying_texts")
    assert service.i18n.saying_texts is worker.i18n.saying_texts


# -- the history's picture, and the deadline in the picture ------------------------------
GERMAN_SEATS = [{"name": n, "email": f"{n.lower()}@example.com", "language": "de",
                 "tz": "Europe/Berlin"} for n in ("Ada", "Bo", "Cy")]
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def svgs(page: str) -> str:
    import re
    return "".join(re.findall(r"<svg\b.*?</svg>", page, re.S))


def _drawn(rt, game: str, seat, version: int, language: str) -> str:
    from events.picture import picture_of
    table = rt.games.load(game, at=version)
    latest = version == rt.store.version(game)
    if language == "en":
        return picture_of(rt.games, table, seat, latest=latest)
    return picture_of(rt.games, table, seat, latest=latest, language=language,
                      say=lambda text: translate(text, language))


def test_a_german_seats_history_page_draws_the_picture_in_german(client, rt):
    game = create(client, GERMAN_SEATS, game="kings-guild", options={})
    token = rt.links.make(game, 0, "play")
    german, english = _drawn(rt, game, 0, 1, "de"), _drawn(rt, game, 0, 1, "en")
    assert german != english  # the game says words in its picture
    page = client.get(f"/play/{token}/at/1").get_data(as_text=True)
    assert german in page and english not in page


def test_the_admin_replay_draws_the_picture_in_the_readers_language(client, rt):
    game = create(client, GERMAN_SEATS, game="kings-guild", options={})
    german, english = _drawn(rt, game, None, 1, "de"), _drawn(rt, game, None, 1, "en")
    assert german != english
    from tests.service.test_admin_pages import sign_in
    sign_in(client)
    page = client.get(f"/admin/games/{game}?at=1", headers=GERMAN)
    assert page.status_code == 200
    assert german in page.get_data(as_text=True)
    english_page = client.get(f"/admin/games/{game}?at=1")
    assert english in english_page.get_data(as_text=True)


def test_the_deadline_in_the_picture_is_written_in_the_readers_language(client, rt):
    import re
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "kings-guild", "players": GERMAN_SEATS, "options": {}, "deadline_hours": 24})
    assert reply.status_code == 201, reply.json
    game = reply.json["id"]
    seat = rt.games.load(game).to_act().pop()  # the seat whose turn it is sees a deadline
    page = client.get("/play/" + rt.links.make(game, seat, "play")).get_data(as_text=True)
    drawn = svgs(page)
    assert re.search(r"(Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag), "
                     r"\d+\. \w+\.? 20\d\d, \d\d:\d\d ME?S?Z", drawn), drawn[-2000:]
    assert not any(day in drawn for day in WEEKDAYS)


def test_local_time_is_one_function_for_pictures_and_emails():
    from events.picture import local_time
    from worker import i18n
    at = "2026-12-07T11:49:00+00:00"
    assert local_time(at, "UTC") == "Monday 07 December 2026, 11:49 UTC"  # as it was
    assert local_time(at, "Europe/Berlin", "de") == "Montag, 7. Dez. 2026, 12:49 MEZ"
    assert i18n.local_time(at, "Europe/Berlin", "de-AT") == local_time(at, "Europe/Berlin", "de")
    assert local_time(at, "Nowhere/Else", "fr") == "Monday 07 December 2026, 11:49 UTC"
    assert local_time(None, "UTC", "de") is None
