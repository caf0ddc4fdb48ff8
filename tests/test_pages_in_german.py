"""Every page in the reader's language (issue 31): German pages say no English sentence
of the service's catalog, a seat's language decides its game page, the API takes it."""

from __future__ import annotations

import html
import re

import pytest

from tests.support import PLAYERS, admin_headers, csrf

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
