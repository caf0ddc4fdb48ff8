"""A write whose reply is lost may run twice: the cluster client sends it again by
itself, and on one server the job or the player tries again (see tests/lost_replies.py).
Each write that claims, appends or counts must come out of that as if it ran once: the
email stored once, the move in the log once, the link or token still good."""

from __future__ import annotations

import json

import pytest
import redis

from service import create_app
from tests.lost_replies import LostReplies
from tests.service.test_play import csrf
from tests.support import ADMIN, PLAYERS, admin_headers, bearer
from worker import links, players
from worker.lease import lease
from worker.mail import Email, OutboxBackend

RESENT = [pytest.param(True, id="resent-by-the-client"),
          pytest.param(False, id="tried-again-by-the-caller")]


@pytest.fixture
def lossy(real_redis, real_redis_url) -> LostReplies:
    return LostReplies(real_redis_url)


@pytest.fixture(params=RESENT)
def resend(request) -> bool:
    return request.param


@pytest.fixture
def lossy_app(lossy, resend):
    return create_app({"REDIS_CLIENT": lossy.client(resend), "RUN_JOBS_INLINE": True,
                       "TESTING": True, "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                       "BASE_URL": "http://localhost"})


def a_game(client) -> tuple[str, list[str]]:
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS, "options": {"target": 40}})
    assert reply.status_code == 201, reply.json
    return reply.json["id"], [s["token"] for s in reply.json["seats"]]


def test_an_email_whose_store_reply_was_lost_is_stored_once(lossy, real_redis, resend):
    outbox = OutboxBackend(lossy.client(resend))
    lossy.arm(lambda c: "rp:outbox:key:turn:g:2:1" in c)
    email = Email(to="ada@example.com", subject="Your move", text="t", html="<p>h</p>",
                  key="turn:g:2:1")
    try:
        outbox.send(email)
    except redis.ConnectionError:
        assert not resend
        outbox.send(email)  # the job, retried
    assert lossy.lost, "no reply was lost: the test tested nothing"
    outbox.send(email)  # and once more: still once
    assert [m["key"] for m in OutboxBackend(real_redis).list()] == ["turn:g:2:1"]


@pytest.mark.parametrize("path", ["cached", "loaded"])
def test_a_move_whose_append_reply_was_lost_is_in_the_log_once(lossy, lossy_app, resend,
                                                                path):
    client = lossy_app.test_client()
    gid, tokens = a_game(client)
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    if path == "loaded":  # another process's cache: the move takes the usual path
        lossy_app.extensions["ravenpost"].games.replayer._cache.clear()
    lossy.arm(lambda c: "MovePlayed" in c)
    move = {"move": view["legal_moves"][0], "expected_version": view["version"]}
    reply = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]), json=move)
    assert lossy.lost, "the append's reply was never lost"
    if resend:  # the client found its own entry: acknowledged
        assert reply.status_code == 201, reply.json
        assert reply.json["version"] == view["version"] + 1
    else:  # the player is told to look, and finds the move made
        assert reply.status_code == 503, reply.json
        assert "whether your last action was recorded" in reply.json["message"]
        again = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]),
                            json=move)
        assert again.status_code == 409
    now = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    assert now["version"] == view["version"] + 1
    store = lossy_app.extensions["ravenpost"].store
    assert [e.type for e in store.read(gid)] == ["GameCreated", "MovePlayed"]
    assert store.read(gid)[1].data["move"] == move["move"]
    assert store.verify(gid) == (True, 2, "")


@pytest.mark.parametrize("path", ["cached", "loaded"])
def test_a_keyed_move_whose_append_reply_was_lost_is_answered_201_when_sent_again(
        lossy, lossy_app, resend, path):
    client = lossy_app.test_client()
    gid, tokens = a_game(client)
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    if path == "loaded":
        lossy_app.extensions["ravenpost"].games.replayer._cache.clear()
    lossy.arm(lambda c: "MovePlayed" in c)
    move = {"move": view["legal_moves"][0], "expected_version": view["version"]}
    headers = {**bearer(tokens[0]), "Idempotency-Key": "move-1"}
    reply = client.post(f"/api/v1/games/{gid}/moves", headers=headers, json=move)
    assert lossy.lost, "the append's reply was never lost"
    if not resend:
        assert reply.status_code == 503, reply.json
        reply = client.post(f"/api/v1/games/{gid}/moves", headers=headers, json=move)
        assert reply.headers["Idempotent-Replayed"] == "true"
    assert reply.status_code == 201, reply.json
    assert reply.json["version"] == view["version"] + 1
    store = lossy_app.extensions["ravenpost"].store
    assert [e.type for e in store.read(gid)] == ["GameCreated", "MovePlayed"]
    assert store.verify(gid) == (True, 2, "")


def test_a_move_refused_for_a_taken_version_is_still_a_conflict(lossy_app):
    client = lossy_app.test_client()
    gid, tokens = a_game(client)
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    move = {"move": view["legal_moves"][0], "expected_version": view["version"]}
    assert client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]),
                       json=move).status_code == 201
    other = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[1])).json
    again = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[1]), json={
        "move": other["legal_moves"][0], "expected_version": view["version"]})
    assert again.status_code == 409


def click(client, url: str, move: dict, token: str):
    return client.post(url, data={"move": json.dumps(move), "expected_version": 1,
                                  "csrf_token": token})


def test_an_emailed_move_link_whose_burn_reply_was_lost_plays_the_move_once(
        lossy, lossy_app, resend):
    client = lossy_app.test_client()
    gid, _ = a_game(client)
    rt = lossy_app.extensions["ravenpost"]
    url = "/m/" + rt.links.make(gid, 0, "act", 1)
    move = {"type": "ante", "amount": 2}
    token = csrf(client, url)  # from the confirm page, which burns nothing
    lossy.arm(lambda c: c.startswith(f"SET rp:{{g:{gid}}}:used:"))
    first = click(client, url, move, token)
    assert lossy.lost, "the burn's reply was never lost"
    if resend:  # the burn recognised its own mark: the move is made
        assert first.status_code == 303, first.get_data(as_text=True)
    else:  # the click failed, and gave the link back: the next click makes the move
        assert first.status_code == 503
        assert click(client, url, move, token).status_code == 303
    again = click(client, url, move, token)
    assert again.status_code == 409 and "already used" in again.get_data(as_text=True)
    assert [e.type for e in rt.store.read(gid)] == ["GameCreated", "MovePlayed"]


def test_a_token_revocation_whose_reply_was_lost_revokes_once(lossy, lossy_app, resend):
    client = lossy_app.test_client()
    gid, tokens = a_game(client)
    lossy.arm(lambda c: "api-gen" in c and not c.startswith("HGET"))
    reply = client.post(f"/api/v1/games/{gid}/token", headers=bearer(tokens[0]))
    assert lossy.lost, "the revocation's reply was never lost"
    old = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0]))
    assert old.status_code == 401 and old.json["error"] == "revoked"
    rt = lossy_app.extensions["ravenpost"]
    assert links.api_generation(rt.redis, gid, 0) == 1  # revoked once
    if resend:  # the token it answered is of that generation
        assert reply.status_code == 201
        assert client.get(f"/api/v1/games/{gid}",
                          headers=bearer(reply.json["token"])).status_code == 200
    else:  # the answer was lost with the reply; the game page issues the current token
        assert reply.status_code == 503
        assert client.get(f"/api/v1/games/{gid}", headers=bearer(
            links.api_token(rt.redis, rt.links, gid, 0))).status_code == 200


def test_a_my_games_revocation_whose_reply_was_lost_revokes_once(lossy, lossy_app,
                                                                 resend):
    rt = lossy_app.extensions["ravenpost"]
    pid = players.player_id(rt.redis, "ada@example.com")
    old = players.me_token(rt.redis, rt.links, pid)
    lossy.arm(lambda c: "me-gen" in c and not c.startswith("GET"))
    try:
        new = players.revoke_me(rt.redis, rt.links, pid)
    except redis.ConnectionError:
        assert not resend
        new = players.me_token(rt.redis, rt.links, pid)
    assert lossy.lost, "the revocation's reply was never lost"
    assert players.me_generation(rt.redis, pid) == 1  # revoked once
    assert players.check_me(rt.redis, rt.links, new) == pid
    with pytest.raises(links.LinkError):
        players.check_me(rt.redis, rt.links, old)


def test_a_generation_never_goes_back(real_redis):
    assert links.raise_generation(real_redis, "rp:{g:x}:api-gen", "0", 3) == 3
    assert links.raise_generation(real_redis, "rp:{g:x}:api-gen", "0", 2) == 3
    assert links.raise_generation(real_redis, "rp:{g:x}:api-gen", "0", 3) == 3
    assert links.raise_generation(real_redis, "rp:player:{p:y}:me-gen", "", 1) == 1
    assert real_redis.get("rp:player:{p:y}:me-gen") == "1"


def test_a_lease_whose_taking_reply_was_lost_is_held_and_let_go(lossy, real_redis):
    client = lossy.client(resend=True)
    lossy.arm(lambda c: c.startswith("SET rp:test:lease "))
    with lease(client, "rp:test:lease", 15) as held:
        assert lossy.lost, "the lease's reply was never lost"
        assert held  # its own token was in the way: taken, not someone else's
        with lease(real_redis, "rp:test:lease", 15) as other:
            assert not other
    assert real_redis.exists("rp:test:lease") == 0  # let go at the end


def test_a_lease_held_by_another_is_still_refused(real_redis):
    with lease(real_redis, "rp:test:lease", 15) as first, \
            lease(real_redis, "rp:test:lease", 15) as second:
        assert first and not second
