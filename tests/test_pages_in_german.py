"""Every page in the reader's language (issue 31): German pages say no English sentence
of the service's catalog, a seat's language decides its game page, the API takes it."""

from __future__ import annotations

import html
import re

import pytest
from babel.messages.pofile import read_po

from tests.support import PLAYERS, admin_headers, csrf
from worker.catalogs import DOMAINS

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


def create(client, players, game="test-race", options=None):
    return client.post("/api/v1/games", headers=admin_headers(), json={
        "game": game, "players": players,
        "options": {"target": 30} if options is None else options})


def play_url(rt, game_id: str, seat: int) -> str:
    return "/play/" + rt.links.make(game_id, seat, "play")


# -- the seat's language -----------------------------------------------------------------
def test_the_api_takes_a_language_per_seat_and_keeps_it_on_the_seat(client, rt):
    reply = create(client, [{**PLAYERS[0], "language": "de"}, PLAYERS[1]])
    assert reply.status_code == 201, reply.json
    seats = rt.store.get_json(reply.json["id"], "seats")
    assert seats[0]["language"] == "de" and "language" not in seats[1]
    assert [s.language for s in rt.games.seats(reply.json["id"])] == ["de", ""]


@pytest.mark.parametrize("language", ["fr", "DE", "", 7, None])
def test_the_api_refuses_a_language_it_does_not_have(client, rt, language):
    reply = create(client, [{**PLAYERS[0], "language": language}, PLAYERS[1]])
    assert reply.status_code == 400
    assert "language" in reply.json["fields"]["players"]["0"]
    assert rt.store.game_ids(0, 10) == []


def test_the_openapi_document_names_the_languages(client):
    doc = client.get("/api/openapi.json").get_json()
    assert doc["components"]["schemas"]["PlayerIn"]["properties"]["language"]["enum"] == \
        ["en", "de"]


def test_a_seats_language_decides_its_game_page_over_the_browser(client, rt):
    game = create(client, [{**PLAYERS[0], "language": "de"},
                           {**PLAYERS[1], "language": "en"}]).json["id"]
    ada = client.get(play_url(rt, game, 0), headers=ENGLISH).get_data(as_text=True)
    bo = client.get(play_url(rt, game, 1), headers=GERMAN).get_data(as_text=True)
    assert '<html lang="de">' in ada and "Deine Einstellungen" in ada
    assert "Your settings" not in ada
    assert '<html lang="en">' in bo and "Your settings" in bo


def test_without_a_seat_language_the_browser_decides(client, rt):
    game = create(client, PLAYERS).json["id"]
    url = play_url(rt, game, 0)
    assert "Deine Einstellungen" in client.get(url, headers=GERMAN).get_data(as_text=True)
    assert "Your settings" in client.get(url, headers=ENGLISH).get_data(as_text=True)


def test_the_players_own_setting_beats_the_seats_language(client, rt):
    from worker import players
    game = create(client, [{**PLAYERS[0], "language": "de"}, PLAYERS[1]]).json["id"]
    pid = players.player_id(rt.redis, PLAYERS[0]["email"])
    players.save_prefs(rt.redis, pid, language="en")
    page = client.get(play_url(rt, game, 0), headers=GERMAN).get_data(as_text=True)
    assert '<html lang="en">' in page and "Your settings" in page


def test_the_lobby_form_gives_each_seat_its_language(client, rt):
    page = client.get("/", headers=GERMAN).get_data(as_text=True)
    assert 'name="language0"' in page and ">Deutsch</option>" in page
    reply = client.post("/games", headers=GERMAN, data={
        "csrf_token": csrf(client, "/"), "game": "test-race", "name0": "Ada",
        "email0": "ada@example.com", "language0": "xx", "creator_email": "org@example.com"})
    assert reply.status_code == 400
    said = reply.get_data(as_text=True)
    assert 'id="err-language0"' in said and "muss eine der aufgeführten Sprachen sein" in said


# -- the rules page ----------------------------------------------------------------------
RULES_HEADINGS = {"kings-guild": ("The King's Guild — short rules",
                                  "The King's Guild — Kurzregeln"),
                  "architects": ("Architects of the West Kingdom — how to play here",
                                 "Architekten des Westfrankenreichs — so spielt man hier"),
                  "feudum-guilds": ("Feudum: the guild economy — rules summary",
                                    "Feudum: die Gildenwirtschaft — Regelübersicht")}


def first_heading(page: str) -> str:
    return html.unescape(re.search(r"<h1>(.*?)</h1>", page, re.S).group(1))


@pytest.mark.parametrize("kind", sorted(RULES_HEADINGS))
def test_the_rules_page_is_the_games_rules_file_in_the_readers_language(client, kind):
    english, german = RULES_HEADINGS[kind]
    assert first_heading(client.get(f"/rules/{kind}", headers=ENGLISH).get_data(
        as_text=True)) == english
    page = client.get(f"/rules/{kind}", headers=GERMAN).get_data(as_text=True)
    assert first_heading(page) == german and '<html lang="de">' in page
    assert "<h2>" in page and "<li>" in page  # Markdown made HTML, not shown as text
    # the game page's link names its reader's language, whatever the browser says
    linked = client.get(f"/rules/{kind}?lang=de", headers=ENGLISH).get_data(as_text=True)
    assert first_heading(linked) == german


def test_a_rules_file_is_markdown_with_no_raw_html(client, monkeypatch, tmp_path):
    from service import rules
    source = tmp_path / "RULES.md"
    source.write_text("# Rules\n\n<script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    monkeypatch.setattr(rules, "rules_file", lambda kind, language: (source, "en"))
    page = client.get("/rules/kings-guild", headers=GERMAN).get_data(as_text=True)
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<table>" in page and "<td>2</td>" in page
    assert 'id="rules-untranslated"' in page  # German asked, English given: said so


def test_a_game_without_rules_has_no_rules_page(client):
    assert client.get("/rules/test-race", headers=GERMAN).status_code == 404
    assert client.get("/rules/no-such-game").status_code == 404


def test_the_lobby_and_the_game_page_link_to_the_rules(client, rt):
    lobby = client.get("/", headers=GERMAN).get_data(as_text=True)
    for kind in RULES_HEADINGS:
        assert f'href="/rules/{kind}"' in lobby
    game = create(client, [{**PLAYERS[0], "language": "de"}, PLAYERS[1]], game="kings-guild",
                  options={}).json["id"]
    page = client.get(play_url(rt, game, 0), headers=ENGLISH).get_data(as_text=True)
    assert 'href="/rules/kings-guild?lang=de"' in page


# -- no English sentence on a German page --------------------------------------------------
def _fragments(text: str) -> list[str]:
    """The parts of a message id between its placeholders and tags that are sentences of
    three words or more (what a reader would recognise as untranslated English)."""
    found = []
    for part in re.split(r"%\(\w+\)[sd]|<[^>]+>", text):
        part = " ".join(part.split()).strip(" .,:;()–—-·\"'")
        if len(re.findall(r"[A-Za-z]{2,}", part)) >= 3:
            found.append(part)
    return found


def english_sentences() -> set[str]:
    """Every English sentence of the service's catalog that its German says differently."""
    with open(DOMAINS[0].po("de"), "rb") as f:
        german = read_po(f)
    said_in_german = " ".join(" ".join(m.string) if isinstance(m.string, tuple) else m.string
                              for m in german if m.id)
    sentences = set()
    for message in german:
        for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
            sentences |= {f for f in _fragments(msgid or "") if f not in said_in_german}
    return sentences


def visible_text(page: str) -> str:
    """What a reader sees of a page (and hears: labels, placeholders, titles)."""
    shown = re.sub(r"<(style|script)\b.*?</\1>", " ", page, flags=re.S)
    attributes = " ".join(re.findall(r'(?:aria-label|placeholder|title|alt)="([^"]*)"', shown))
    shown = re.sub(r"<svg\b.*?</svg>", " ", shown, flags=re.S)  # the games' pictures
    text = html.unescape(re.sub(r"<[^>]+>", " ", shown) + " " + attributes)
    return " ".join(text.split())


def english_on(page: str) -> list[str]:
    text = visible_text(page)
    return sorted(s for s in english_sentences() if s in text)


def test_the_checker_finds_english_on_an_english_page(client):
    """The German checks below would pass on an empty page: this one shows they look."""
    page = client.get("/", headers=ENGLISH).get_data(as_text=True)
    assert "Start the game and email the players" in english_on(page)
    assert len(english_sentences()) > 200


def _german_table(client, rt, kind: str, n: int = 3):
    players = [{"name": name, "email": f"{name.lower()}@example.com", "language": "de",
                "tz": "Europe/Berlin"} for name in ("Ada", "Bo", "Cy", "Di")[:n]]
    reply = create(client, players, game=kind, options={} if kind != "test-race" else None)
    assert reply.status_code == 201, reply.json
    return reply.json["id"], [s["token"] for s in reply.json["seats"]]


GAMES = ("kings-guild", "architects", "feudum-guilds", "test-race")


@pytest.mark.parametrize("kind", GAMES)
def test_a_game_page_in_german_says_no_english_sentence_of_the_catalog(client, rt, kind):
    game, _ = _german_table(client, rt, kind)
    for seat in range(3):  # the one to act, the ones waiting
        url = play_url(rt, game, seat)
        page = client.get(url, headers=ENGLISH).get_data(as_text=True)  # the seat's German
        assert '<html lang="de">' in page and "Deine persönliche Seite" in page
        assert english_on(page) == [], (kind, seat)
    act = client.get("/m/" + rt.links.make(game, 0, "act", rt.store.version(game)),
                     headers=ENGLISH)
    assert act.status_code == 200 and english_on(act.get_data(as_text=True)) == []
    history = client.get(play_url(rt, game, 0) + "/at/1", headers=ENGLISH)
    assert history.status_code == 200 and "Zug 1" in history.get_data(as_text=True)
    assert english_on(history.get_data(as_text=True)) == []


def test_a_finished_game_and_a_vote_in_german_say_no_english_sentence(client, rt):
    from tests.support import bearer
    game, tokens = _german_table(client, rt, "test-race")
    vote = client.post(f"/api/v1/games/{game}/votes", headers=bearer(tokens[1]),
                       json={"kind": "end", "accept": True})
    assert vote.status_code == 201, vote.json
    page = client.get(play_url(rt, game, 0), headers=ENGLISH).get_data(as_text=True)
    assert 'id="vote-open"' in page and english_on(page) == []
    assert client.post(f"/api/v1/games/{game}/resign", headers=bearer(tokens[0])) \
        .status_code == 201
    page = client.get(play_url(rt, game, 1), headers=ENGLISH).get_data(as_text=True)
    assert "Spielende" in page and english_on(page) == []


def test_the_other_pages_in_german_say_no_english_sentence(client, anon_client, rt):
    from worker import players
    game, _ = _german_table(client, rt, "test-race")
    pid = players.player_id(rt.redis, "ada@example.com")
    pages = {
        "lobby": client.get("/", headers=GERMAN),
        "sign-in": anon_client.get("/sign-in", headers=GERMAN),
        "lobby, not signed in": anon_client.get("/", headers=GERMAN),
        "check your email": anon_client.post("/sign-in", headers=GERMAN, data={
            "csrf_token": csrf(anon_client, "/sign-in"), "email": "ada@example.com"}),
        "created": client.get(f"/games/{game}", headers=GERMAN),
        "my games": client.get("/me/" + players.me_token(rt.redis, rt.links, pid),
                               headers=ENGLISH),  # Ada's own setting below: German
        "mute": client.get("/mute/" + rt.links.make(game, 0, "mute"), headers=ENGLISH),
        "unsubscribe": client.get("/unsubscribe/" + rt.links.make_player(
            "unsubscribe", pid, what="game", g=game, s=0), headers=GERMAN),
        "block": client.get("/block/" + rt.links.make_player("block", pid, by="x"),
                            headers=GERMAN),
        "not found": client.get("/rules/no-such-game", headers=GERMAN),
        "rules": client.get("/rules/architects", headers=GERMAN),
    }
    players.save_prefs(rt.redis, pid, language="de")
    pages["my games"] = client.get("/me/" + players.me_token(rt.redis, rt.links, pid),
                                   headers=ENGLISH)
    for name, reply in pages.items():
        page = reply.get_data(as_text=True)
        assert '<html lang="de">' in page, name
        assert english_on(page) == [], name


def test_the_lobbys_form_errors_in_german_say_no_english_sentence(client):
    reply = client.post("/games", headers=GERMAN, data={
        "csrf_token": csrf(client, "/"), "game": "test-race", "name0": "Ada",
        "email0": "not-an-address", "name1": "ada", "email1": "bo@example.com",
        "tz1": "Mars/Olympus", "quiet1": "25-3", "tc_kind": "per_move", "tc_hours": "-2",
        "bot_after": "99", "remind_fractions": "2"})
    assert reply.status_code == 400
    page = reply.get_data(as_text=True)
    assert "Bitte prüfe das Formular" in page
    assert english_on(page) == []
    for english in ("must be", "not a valid", "player 2", "already the name"):
        assert english not in visible_text(page)


def test_the_countdown_and_the_scripts_words_are_in_the_seats_language(client, rt):
    import json
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "options": {"target": 30, "time_control": {
            "kind": "per_move", "hours": 50}},
        "players": [{**PLAYERS[0], "language": "de"}, {**PLAYERS[1], "language": "en"}]})
    game = reply.json["id"]
    german = client.get(play_url(rt, game, 0), headers=ENGLISH).get_data(as_text=True)
    english = client.get(play_url(rt, game, 1), headers=GERMAN).get_data(as_text=True)
    countdown = r'id="countdown"[^>]*>(.*?)</span>'
    assert re.search(countdown, german)[1] == "noch 2 Tage 1 Std."
    assert re.search(countdown, english)[1] == "2 days 1 h left"
    assert re.search(r'id="deadline">Dein Zug ist fällig bis \w+, \d+\. \w+ 20\d\d', german)

    def words(page: str) -> dict:
        return json.loads(html.unescape(
            re.search(r'id="page-words"[^>]*>(.*?)</script>', page, re.S)[1]))
    assert words(german)["Show the whole board"] == "Den ganzen Plan zeigen"
    assert words(german)["%(n)s day %(hours)s h left"] == [
        "noch %(n)s Tag %(hours)s Std.", "noch %(n)s Tage %(hours)s Std."]
    assert all(k == (v if isinstance(v, str) else v[0]) for k, v in words(english).items())


def test_a_signed_in_players_own_language_decides_the_lobby_and_the_rules(client, rt):
    from tests.support import ORGANISER
    from worker import players
    assert '<html lang="en">' in client.get("/", headers=ENGLISH).get_data(as_text=True)
    players.save_prefs(rt.redis, players.player_id(rt.redis, ORGANISER), language="de")
    lobby = client.get("/", headers=ENGLISH).get_data(as_text=True)
    assert '<html lang="de">' in lobby and "Ein Spiel starten" in lobby
    rules = client.get("/rules/kings-guild", headers=ENGLISH).get_data(as_text=True)
    assert first_heading(rules) == RULES_HEADINGS["kings-guild"][1]


def test_my_games_says_a_turns_deadline_in_the_readers_language(client, rt):
    from worker import jobs, players
    ada = {"name": "Ada", "email": "ada@example.com", "tz": "Europe/Berlin"}
    gid = rt.games.create("test-race", [ada], {"target": 40}, platform={
        "time_control": {"kind": "per_move", "hours": 56}}).game_id
    jobs.project(gid)
    pid = players.player_id(rt.redis, "ada@example.com")
    me = "/me/" + players.me_token(rt.redis, rt.links, pid)
    english = client.get(me, headers=ENGLISH).get_data(as_text=True)
    players.save_prefs(rt.redis, pid, language="de")
    german = client.get(me, headers=ENGLISH).get_data(as_text=True)
    weekdays = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag",
                "Sonntag")
    assert any(f"{day}," in german for day in weekdays), german
    assert not any(f"{day}," in english for day in weekdays)
    assert re.search(r"(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d\d ",
                     english)
