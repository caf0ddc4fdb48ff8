"""An API request sent with an Idempotency-Key may be sent again: a retry of a move that
landed answers 201 (the game as it stands now) and the move is in the log once; a retry
of a game's creation answers that game, and nobody is invited twice."""

from __future__ import annotations

import json

import pytest

from events.store import keyed_writer_token, writer_token
from tests.support import admin_headers, bearer


def keyed(token: str, key: str) -> dict:
    return {**bearer(token), "Idempotency-Key": key}


def a_move(client, gid: str, token: str) -> dict:
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(token)).json
    return {"move": view["legal_moves"][0], "expected_version": view["version"]}


def moves_in_log(rt, gid: str) -> int:
    return sum(1 for e in rt.store.read(gid) if e.type == "MovePlayed")


@pytest.mark.parametrize("cache", ["kept", "cleared"], ids=["same-process", "other-process"])
def test_a_move_sent_again_with_its_key_is_answered_201_and_played_once(client, new_game,
                                                                         rt, cache):
    gid, tokens = new_game()
    move = a_move(client, gid, tokens[0])
    first = client.post(f"/api/v1/games/{gid}/moves", json=move, headers=keyed(tokens[0], "k1"))
    assert first.status_code == 201 and "Idempotent-Replayed" not in first.headers
    if cache == "cleared":
        rt.games.replayer._cache.clear()
    again = client.post(f"/api/v1/games/{gid}/moves", json=move, headers=keyed(tokens[0], "k1"))
    assert again.status_code == 201, again.json
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["version"] == first.json["version"]
    assert again.json["view"] == first.json["view"]
    assert moves_in_log(rt, gid) == 1


def test_the_retry_answers_the_game_as_it_stands_after_others_moved(client, new_game, rt):
    gid, tokens = new_game()
    move = a_move(client, gid, tokens[0])
    client.post(f"/api/v1/games/{gid}/moves", json=move, headers=keyed(tokens[0], "k1"))
    bo = a_move(client, gid, tokens[1])
    assert client.post(f"/api/v1/games/{gid}/moves", json=bo,
                       headers=bearer(tokens[1])).status_code == 201
    again = client.post(f"/api/v1/games/{gid}/moves", json=move, headers=keyed(tokens[0], "k1"))
    assert again.status_code == 201
    assert again.json["version"] == bo["expected_version"] + 1
    assert moves_in_log(rt, gid) == 2


def test_without_a_key_a_move_sent_again_is_a_conflict(client, new_game, rt):
    gid, tokens = new_game()
    move = a_move(client, gid, tokens[0])
    assert client.post(f"/api/v1/games/{gid}/moves", json=move,
                       headers=bearer(tokens[0])).status_code == 201
    again = client.post(f"/api/v1/games/{gid}/moves", json=move, headers=bearer(tokens[0]))
    assert again.status_code == 409
    assert moves_in_log(rt, gid) == 1


def test_another_key_is_another_request_and_meets_the_conflict(client, new_game, rt):
    gid, tokens = new_game()
    move = a_move(client, gid, tokens[0])
    client.post(f"/api/v1/games/{gid}/moves", json=move, headers=keyed(tokens[0], "k1"))
    again = client.post(f"/api/v1/games/{gid}/moves", json=move, headers=keyed(tokens[0], "k2"))
    assert again.status_code == 409
    assert moves_in_log(rt, gid) == 1


def test_the_same_key_with_another_move_is_a_conflict(client, new_game, rt):
    gid, tokens = new_game()
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    first, other = view["legal_moves"][:2]
    client.post(f"/api/v1/games/{gid}/moves", headers=keyed(tokens[0], "k1"),
                json={"move": first, "expected_version": view["version"]})
    again = client.post(f"/api/v1/games/{gid}/moves", headers=keyed(tokens[0], "k1"),
                        json={"move": other, "expected_version": view["version"]})
    assert again.status_code == 409
    assert moves_in_log(rt, gid) == 1


def test_another_seats_move_with_the_same_key_is_not_yours(client, new_game, rt):
    gid, tokens = new_game()
    ada = a_move(client, gid, tokens[0])  # both ante at once: a simultaneous step
    bo = a_move(client, gid, tokens[1])
    assert client.post(f"/api/v1/games/{gid}/moves", json=bo,
                       headers=keyed(tokens[1], "same")).status_code == 201
    # Ada's move on the version before Bo's is a conflict: Bo's move is not hers
    stale = client.post(f"/api/v1/games/{gid}/moves", json=ada, headers=keyed(tokens[0], "same"))
    assert stale.status_code == 409
    assert moves_in_log(rt, gid) == 1
    fresh = client.post(f"/api/v1/games/{gid}/moves", json=a_move(client, gid, tokens[0]),
                        headers=keyed(tokens[0], "same"))
    assert fresh.status_code == 201 and "Idempotent-Replayed" not in fresh.headers
    assert moves_in_log(rt, gid) == 2


@pytest.mark.parametrize("key", ["", "has space", "x" * 256, "caf\u00e9"],
                         ids=["empty", "space", "too-long", "not-ascii"])
def test_a_malformed_key_is_refused_and_plays_nothing(client, new_game, rt, key):
    gid, tokens = new_game()
    move = a_move(client, gid, tokens[0])
    reply = client.post(f"/api/v1/games/{gid}/moves", json=move,
                        headers={**bearer(tokens[0]), "Idempotency-Key": key})
    assert reply.status_code == 400
    assert "Idempotency-Key" in reply.json["message"]
    assert moves_in_log(rt, gid) == 0


def test_a_keyed_token_is_the_same_for_every_retry_and_never_a_random_one():
    assert keyed_writer_token("seat:0", "k") == keyed_writer_token("seat:0", "k")
    assert keyed_writer_token("seat:0", "k") != keyed_writer_token("seat:1", "k")
    assert keyed_writer_token("seat:0", "k") != keyed_writer_token("seat:0", "l")
    assert all(int(keyed_writer_token("seat:0", str(i))) < 0 for i in range(1000))
    assert all(int(writer_token()) >= 0 for _ in range(1000))


# -- starting a game -------------------------------------------------------------------
GAME = {"game": "test-race", "players": [{"name": "Ada", "email": "ada@example.com"},
                                         {"name": "Bo", "email": "bo@example.com"}]}


def test_a_game_created_again_with_its_key_is_the_same_game_and_invites_once(client, rt):
    headers = {**admin_headers(), "Idempotency-Key": "new-game-1"}
    first = client.post("/api/v1/games", json=GAME, headers=headers)
    again = client.post("/api/v1/games", json=GAME, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json["id"] == first.json["id"]
    assert all("token" in seat for seat in again.json["seats"])  # the admin's answer
    assert rt.store.game_ids() == [first.json["id"]]
    assert sorted(m["to"] for m in rt.mail.list()) == ["ada@example.com", "bo@example.com"]


def test_the_same_key_from_another_caller_is_another_game(client, rt, new_game):
    _, tokens = new_game()
    mine = client.post("/api/v1/games", json=GAME,
                       headers={**bearer(tokens[0]), "Idempotency-Key": "k"})
    admins = client.post("/api/v1/games", json=GAME,
                         headers={**admin_headers(), "Idempotency-Key": "k"})
    assert mine.status_code == admins.status_code == 201
    assert mine.json["id"] != admins.json["id"]
    assert "token" not in mine.json["seats"][0]


def test_a_game_still_being_started_by_its_first_copy_is_a_conflict(client, rt, monkeypatch):
    from service import once
    taken = []
    monkeypatch.setattr(once, "started", lambda c, key, *_: taken.append(key))
    headers = {**admin_headers(), "Idempotency-Key": "slow"}
    assert client.post("/api/v1/games", json=GAME, headers=headers).status_code == 201
    # the first copy has not recorded its game yet (it stops short of that here)
    again = client.post("/api/v1/games", json=GAME, headers=headers)
    assert again.status_code == 409 and "still starting" in again.json["message"]
    assert len(rt.store.game_ids()) == 1


def test_a_refused_creation_leaves_its_key_free(client, rt):
    headers = {**admin_headers(), "Idempotency-Key": "fix-and-retry"}
    wrong = client.post("/api/v1/games", headers=headers,
                        json={**GAME, "options": {"target": "x"}})
    assert wrong.status_code == 422
    assert rt.store.game_ids() == []
    assert client.post("/api/v1/games", json=GAME, headers=headers).status_code == 201
    assert len(rt.store.game_ids()) == 1


def test_the_same_key_with_another_game_is_refused_and_starts_nothing(client, rt):
    headers = {**admin_headers(), "Idempotency-Key": "one-game"}
    first = client.post("/api/v1/games", json=GAME, headers=headers)
    other = {**GAME, "players": [*GAME["players"], {"name": "Cy", "email": "cy@example.com"}]}
    reused = client.post("/api/v1/games", json=other, headers=headers)
    assert first.status_code == 201
    assert reused.status_code == 422 and reused.json["error"] == "key_reused"
    assert "Idempotent-Replayed" not in reused.headers
    assert rt.store.game_ids() == [first.json["id"]]
    assert "cy@example.com" not in {m["to"] for m in rt.mail.list()}
    # the first request's retry is still answered, in any key order
    reordered = json.dumps({"players": GAME["players"], "game": GAME["game"]})
    assert reordered != json.dumps(GAME)
    again = client.post("/api/v1/games", data=reordered,
                        headers={**headers, "Content-Type": "application/json"})
    assert again.status_code == 201 and again.json["id"] == first.json["id"]


def test_the_lobby_claim_names_no_request_and_meets_any(fake_redis):
    from service import once
    assert once.take(fake_redis, "k", "a1") is None
    once.started(fake_redis, "k", "g1", "a1")
    assert once.take(fake_redis, "k", "a1") == "g1"
    assert once.take(fake_redis, "k") == "g1"  # no fingerprint: the lobby form's copies
    with pytest.raises(once.OtherRequest):
        once.take(fake_redis, "k", "b2")
