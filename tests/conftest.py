"""Shared fixtures: a fakeredis store for unit tests, a real Redis for integration tests."""

from __future__ import annotations

import os

import fakeredis
import pytest
import redis

from events.gameplay import GameService
from events.store import EventStore
from games import registry

registry.KINDS.setdefault("test-race", "tests.platform_game:GAME")

INTEGRATION_DB = 9  # a database of its own on the shared server, flushed per test


@pytest.fixture
def fake_redis():
    return fakeredis.FakeRedis(decode_responses=True)


@pytest.fixture
def store(fake_redis) -> EventStore:
    return EventStore(fake_redis)


@pytest.fixture
def service(store) -> GameService:
    return GameService(store)


@pytest.fixture(scope="session")
def real_redis_url(tmp_path_factory) -> str:
    """REDIS_URL, else the server at 127.0.0.1:6379, else an embedded redis-server."""
    if os.environ.get("REDIS_URL"):
        return os.environ["REDIS_URL"]
    local = f"redis://127.0.0.1:6379/{INTEGRATION_DB}"
    try:
        redis.Redis.from_url(local, socket_connect_timeout=2).ping()
        return local
    except redis.ConnectionError:
        from service.redis_setup import EmbeddedRedis
        server = EmbeddedRedis(tmp_path_factory.mktemp("redis")).start()
        _embedded.append(server)
        return server.url


_embedded: list = []


def pytest_sessionfinish(session, exitstatus):
    for server in _embedded:
        server.stop()


@pytest.fixture
def real_redis(real_redis_url):
    """A client of a real Redis server, its database flushed before and after."""
    client = redis.Redis.from_url(real_redis_url, decode_responses=True)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def app(fake_redis):
    """An app on fakeredis with the worker's jobs run inline."""
    from service import create_app
    from tests.support import ADMIN
    return create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True, "TESTING": True,
                       "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                       "BASE_URL": "http://localhost"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def rt(app):
    return app.extensions["ravenpost"]


@pytest.fixture
def new_game(client):
    """Create a test-race game through the API; returns (id, [token per seat])."""
    from tests.support import PLAYERS, admin_headers

    def make(players=PLAYERS, options=None):
        reply = client.post("/api/v1/games", headers=admin_headers(), json={
            "game": "test-race", "players": players, "options": options or {"target": 40}})
        assert reply.status_code == 201, reply.json
        return reply.json["id"], [s["token"] for s in reply.json["seats"]]
    return make
