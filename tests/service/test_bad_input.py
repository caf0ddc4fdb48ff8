"""Bad input is a clean 4xx that changes nothing; names and header values are normalised."""

from __future__ import annotations

import json
import re
import unicodedata

import pytest

from tests.support import ADMIN, PLAYERS, admin_headers, bearer

DEEP = 1000  # levels of nesting at which Python's recursion gave up (issue 8, point 8)


def deep_list(levels: int) -> str:
    return "[" * levels + "]" * levels


def csrf(client, url: str = "/") -> str:
    page = client.get(url).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def state(rt, gid) -> tuple:
    """What a refused request must leave as it was: the log, the mail, the games."""
    return rt.store.version(gid), len(rt.mail.list()), rt.redis.zcard("rp:lobby")


def create(client, players, **extra):
    return client.post("/api/v1/games", headers=admin_headers(),
                       json={"game": "test-race", "players": players, **extra})


# -- tokens ------------------------------------------------------------------------------

NON_ASCII = ["é", "Bearer-ü", "\u202e", "🂡" * 10, "\x00", "ÿþ"]


def test_non_ascii_bearer_tokens_are_refused_cleanly(client, new_game, rt):
    gid, _ = new_game()
    before = state(rt, gid)
    for token in NON_ASCII:
        headers = {"Authorization": f"Bearer {token}"}
        for method, path in [("GET", f"/api/v1/games/{gid}"),
                             ("POST", f"/api/v1/games/{gid}/undo"),
                             ("POST", "/api/v1/games"),
                             ("GET", f"/api/v1/admin/games/{gid}/verify")]:
            reply = client.open(path, method=method, headers=headers, json={})
            assert reply.status_code in (401, 403, 429), (token, path, reply.status_code)
    assert state(rt, gid) == before


def test_non_ascii_csrf_tokens_are_refused_cleanly(client, rt):
    csrf(client)  # the session now has a token, which the forged one must not match
    for token in NON_ASCII:
        reply = client.post("/games", data={"csrf_token": token, "game": "test-race",
                                            "name0": "Ada", "email0": "ada@example.com"})
        assert reply.status_code == 400, token
    assert rt.redis.zcard("rp:lobby") == 0


def test_non_ascii_admin_sign_in_tokens_are_refused_cleanly(client):
    for token in NON_ASCII + [ADMIN + "é"]:
        reply = client.post("/admin/sign-in", data={"csrf_token": csrf(client, "/admin/sign-in"),
                                                    "token": token})
        assert 400 <= reply.status_code < 500, token
        assert client.get("/admin/").status_code in (302, 401, 403)


# -- JSON --------------------------------------------------------------------------------

def test_json_nested_a_thousand_levels_deep_is_a_400_everywhere(client, new_game, rt):
    gid, tokens = new_game()
    before = state(rt, gid)
    bodies = {
        "/api/v1/games": lambda d: {"game": "test-race", "players": PLAYERS, "options": d},
        f"/api/v1/games/{gid}/moves": lambda d: {"move": {"type": "ante", "x": d},
                                                 "expected_version": 1},
        f"/api/v1/games/{gid}/undo/answer": lambda d: {"accept": d},
        f"/api/v1/admin/games/{gid}/rewind": lambda d: {"to": 1, "reason": d},
        f"/api/v1/admin/games/{gid}/fork": lambda d: {"at": d},
    }
    for path, make in bodies.items():
        headers = admin_headers() if "/admin/" in path or path == "/api/v1/games" \
            else bearer(tokens[0])
        for levels in (40, DEEP, 20_000):  # 20,000 levels: 40 KB, within the size limit
            raw = json.dumps(make("@")).replace('"@"', deep_list(levels))
            reply = client.post(path, data=raw, content_type="application/json",
                                headers=headers)
            assert reply.status_code == 400, (path, levels)
            assert "nested too deeply" in reply.json["message"]
        whole = deep_list(DEEP)
        assert client.post(path, data=whole, content_type="application/json",
                           headers=headers).status_code == 400
    assert state(rt, gid) == before


def test_a_move_form_nested_a_thousand_levels_deep_is_a_400(client, new_game, rt):
    gid, _ = new_game()
    url = "/play/" + rt.links.make(gid, 0, "play")
    move = '{"type": "ante", "amount": ' + deep_list(DEEP) + "}"
    reply = client.post(url, data={"move": move, "expected_version": "1",
                                   "csrf_token": csrf(client, url)})
    assert 400 <= reply.status_code < 500
    assert rt.store.version(gid) == 1


@pytest.mark.parametrize("raw, why", [
    ('{"move": {"type": "ante\\ud800"}, "expected_version": 1}', "not valid Unicode"),
    ('{"move": {"type": "ante", "amount": 1e400}, "expected_version": 1}', "out of range"),
    ('{"move": {"type": "ante", "amount": NaN}, "expected_version": 1}', "not a JSON number"),
    ('{"move": {"type": "ante", "amount": -Infinity}, "expected_version": 1}',
     "not a JSON number"),
    ('{"move": {"type": "ante", "amount": 2}, "expected_version": ' + "9" * 5000 + "}",
     "out of range"),
    ('{"move": {"type": "ante", "amount": 2}, "expected_version": 9007199254740993}',
     "out of range"),
    ('{"move": {"type": "ante", "amount": 2}, "expected_version": 1', "not valid JSON"),
    ("", "not valid JSON"),
])
def test_unrepresentable_json_is_a_400_that_says_why(client, new_game, rt, raw, why):
    gid, tokens = new_game()
    reply = client.post(f"/api/v1/games/{gid}/moves", data=raw.encode("utf-8"),
                        content_type="application/json", headers=bearer(tokens[0]))
    assert reply.status_code == 400 and why in reply.json["message"]
    assert rt.store.version(gid) == 1


def test_bytes_that_are_not_utf8_are_a_400(client, new_game, rt):
    gid, tokens = new_game()
    for raw in [b'{"move": {"type": "\xff"}, "expected_version": 1}', b"\xfe\xff\x00{",
                b"\x00" * 16]:
        reply = client.post(f"/api/v1/games/{gid}/moves", data=raw,
                            content_type="application/json", headers=bearer(tokens[0]))
        assert reply.status_code == 400
    assert rt.store.version(gid) == 1


# -- names and everything else that can reach an email header ----------------------------

REFUSED_NAMES = {
    "carriage return": "Ada\rBcc: all@example.com",
    "line feed": "Ada\nBcc: all@example.com",
    "NUL": "Ada\x00",
    "tab": "Ada\tLovelace",
    "right-to-left override": "Ada\u202egpj.exe",
    "left-to-right isolate": "\u2066Ada\u2069",
    "right-to-left mark": "Ada\u200f",
    "Arabic letter mark": "Ada\u061c",
    "zero width space": "Ada\u200b",
    "line separator": "Ada\u2028Bo",
    "only spaces": "   \u3000 ",
    "empty": "",
    "41 characters": "A" * 41,
}


@pytest.mark.parametrize("why", REFUSED_NAMES)
def test_player_names_are_refused_with_a_400_naming_the_field(client, rt, why):
    players = [PLAYERS[0], {"name": REFUSED_NAMES[why], "email": "bo@example.com"}]
    reply = create(client, players)
    assert reply.status_code == 400, why
    assert "name" in reply.json["fields"]["players"]["1"], reply.json
    assert "players.1.name" in reply.json["message"]
    assert rt.mail.list() == [] and rt.redis.zcard("rp:lobby") == 0


def test_names_are_normalised_to_nfc_and_stripped(client, rt):
    decomposed = "  Ame\u0301lie  Zoe\u0308 "
    reply = create(client, [{"name": decomposed, "email": " ada@example.com "},
                            {"name": "Bo", "email": "bo@example.com", "tz": " Europe/Paris "}])
    assert reply.status_code == 201
    names = rt.games.load(reply.json["id"]).names
    assert names[0] == "Amélie  Zoë" and unicodedata.is_normalized("NFC", names[0])
    assert sorted(m["to"] for m in rt.mail.list()) == ["ada@example.com", "bo@example.com"]


def test_forty_characters_are_accepted_and_joiners_that_scripts_need_too(client, rt):
    reply = create(client, [{"name": "A" * 40, "email": "ada@example.com"},
                            {"name": "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
                             "email": "bo@example.com"}])  # Persian uses U+200C
    assert reply.status_code == 201


@pytest.mark.parametrize("field, value", [
    ("email", "ada@example.com\r\nBcc: all@example.com"),
    ("email", "ada@example.com\n"),
    ("email", "\u202eada@example.com"),
    ("email", "ada@exa\x00mple.com"),
    ("tz", "Europe/Paris\r\nX: y"),
    ("tz", "Europe/\u202eParis"),
    ("tz", "../../etc/passwd"),
])
def test_emails_and_time_zones_with_controls_are_refused(client, rt, field, value):
    player = {"name": "Ada", "email": "ada@example.com", field: value}
    reply = create(client, [player])
    assert reply.status_code == 400
    assert field in reply.json["fields"]["players"]["0"]
    assert rt.mail.list() == []


def test_a_game_kind_with_controls_is_refused(client):
    reply = client.post("/api/v1/games", headers=admin_headers(),
                        json={"game": "test-race\r\nX: y", "players": PLAYERS})
    assert reply.status_code == 400 and "game" in reply.json["fields"]


def test_the_lobby_form_refuses_the_same_names_and_says_which(client, rt):
    reply = client.post("/games", data={
        "csrf_token": csrf(client), "game": "test-race", "name0": "Ada",
        "email0": "ada@example.com", "name1": "Bo\u202e", "email1": "bo@example.com"})
    assert reply.status_code == 400
    page = reply.get_data(as_text=True)
    assert "player 2&#39;s name" in page and "U+202E" in page
    assert rt.mail.list() == [] and rt.redis.zcard("rp:lobby") == 0


def test_the_lobby_form_normalises_names(client, rt):
    reply = client.post("/games", data={
        "csrf_token": csrf(client), "game": "test-race", "name0": "Ame\u0301lie",
        "email0": "ada@example.com"})
    assert reply.status_code == 302
    gid = reply.headers["Location"].rsplit("/", 1)[1]
    assert rt.games.load(gid).names == ["Amélie"]


def test_a_redis_that_does_not_answer_is_a_503_with_retry_after(app, client, monkeypatch):
    import redis

    def down(*args, **kwargs):
        raise redis.ConnectionError("Connection refused")

    monkeypatch.setattr(app.extensions["ravenpost"].redis, "zrevrange", down)
    reply = client.get("/")
    assert reply.status_code == 503 and reply.headers["Retry-After"] == "2"
    assert "did not answer" in reply.get_data(as_text=True)


@pytest.mark.parametrize("same", ["Ada", "ada", "  ADA "])
def test_two_players_with_the_same_name_are_refused_with_a_400_naming_the_field(client, rt,
                                                                                same):
    reply = create(client, [PLAYERS[0], {"name": same, "email": "bo@example.com"}])
    assert reply.status_code == 400, reply.json
    (said,) = reply.json["fields"]["players"]["1"]["name"]
    assert "already the name of player 1: give each player a different name" in said
    assert "players.1.name" in reply.json["message"]
    assert rt.mail.list() == [] and rt.store.game_ids(0, 10) == []
