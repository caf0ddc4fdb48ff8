"""A move is a cheap request (issue 12, item 2): Redis round trips of one POST move,
counted on a real server with RQ (no worker runs: the jobs only wait)."""

from __future__ import annotations

import pytest
from redis.connection import Connection

from tests.support import ADMIN, PLAYERS, admin_headers, bearer


@pytest.fixture
def rq_app(real_redis, real_redis_url):
    from service import create_app
    return create_app({"REDIS_URL": real_redis_url, "SECRET_KEY": "test-secret",
                       "ADMIN_TOKEN": ADMIN, "BASE_URL": "http://localhost",
                       "CHECK_REDIS": False, "TESTING": True})


@pytest.fixture
def round_trips(monkeypatch):
    """Counts what is sent to Redis: one command, or one whole pipeline, is one trip."""
    sent: list[bytes] = []
    real = Connection.send_packed_command

    def counting(self, command, check_health=True):
        sent.append(command)
        return real(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counting)
    return sent


def post_move(client, gid, tokens, seat=0):
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[seat])).json
    return view, lambda: client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]),
                                      json={"move": view["legal_moves"][0],
                                            "expected_version": view["version"]})


def new_game(client, options=None):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS, "options": options or {"target": 40}})
    return reply.json["id"], [s["token"] for s in reply.json["seats"]]


def test_a_move_while_the_projection_job_waits_takes_five_round_trips(rq_app, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)  # its projection job waits: no worker runs here
    _, post = post_move(client, gid, tokens)
    round_trips.clear()
    assert post().status_code == 201
    # token check, load, secret (once per process), mark + append, projection job status;
    # the append chains to the hash the load read, without reading the log's end again
    assert len(round_trips) <= 5
    sent = [b"".join(c) if isinstance(c, list | tuple) else bytes(c) for c in round_trips]
    assert not any(b"XREVRANGE" in command for command in sent)


def test_a_move_that_must_enqueue_its_projection_takes_one_more(rq_app, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    rt.rq_redis.delete(f"rq:job:project-{gid}", "rq:queue:ravenpost")  # as if it had run
    _, post = post_move(client, gid, tokens)
    round_trips.clear()
    assert post().status_code == 201
    assert len(round_trips) <= 6
    assert rt.enqueuer.status(f"project-{gid}") == "queued"


def test_the_201_answers_the_version_after_the_move_and_any_end_it_led_to(rq_app):
    client = rq_app.test_client()
    gid, tokens = new_game(client, {"target": 5})
    rt = rq_app.extensions["ravenpost"]
    for _ in range(50):  # bounded: a target of 5 ends within a few moves
        table = rt.games.load(gid)
        if table.ended:
            break
        seat = min(table.to_act())
        reply = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]), json={
            "move": table.game.legal_moves(table.state, seat)[0],
            "expected_version": table.version})
        assert reply.status_code == 201
        assert reply.json["version"] == rt.store.version(gid)
    assert rt.games.load(gid).ended


def test_the_process_reads_a_games_secret_once(rq_app, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    assert post_move(client, gid, tokens, 0)[1]().status_code == 201
    _, post = post_move(client, gid, tokens, 1)
    round_trips.clear()
    assert post().status_code == 201
    assert not any(b"secrets" in command for command in round_trips)
    assert len(round_trips) <= 5
