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
