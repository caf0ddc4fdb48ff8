"""Shared fixtures: a fakeredis store for unit tests, a real Redis for integration tests."""

from __future__ import annotations

import os
import time
from urllib.parse import urlsplit, urlunsplit

import fakeredis
import pytest
import redis

from events.gameplay import GameService
from events.store import EventStore
from games import registry

registry.KINDS.setdefault("test-race", "tests.platform_game:GAME")



@pytest.fixture
def fake_redis():
    return fakeredis.FakeRedis(decode_responses=True)


@pytest.fixture
def store(fake_redis) -> EventStore:
    return EventStore(fake_redis)


@pytest.fixture
def service(store) -> GameService:
    return GameService(store)


CLAIM = "ravenpost:test-run"  # marks a database as taken by one test run
CLAIM_SECONDS = 3600  # a run killed mid-way frees its database within the hour


def _claim_empty_database(url: str) -> str | None:
    """The URL of a database on ``url``'s server that was empty and is now ours.

    Tests never delete data they did not create: a run takes a database only if it
    holds no key at all, marks it with a claim key that expires, and afterwards deletes
    only what is in that database.  Parallel runs on one server each get their own.
    """
    base = redis.Redis.from_url(url, socket_connect_timeout=2)
    base.ping()
    databases = int(base.config_get("databases").get("databases", 16))
    token = f"{os.getpid()}-{time.time()}"
    for db in range(databases - 1, 0, -1):  # from the top: people use the low ones
        client = redis.Redis.from_url(_db_url(url, db), socket_connect_timeout=2)
        if client.dbsize() or not client.set(CLAIM, token, nx=True, ex=CLAIM_SECONDS):
            continue
        if client.dbsize() == 1:
            _claimed.append((_db_url(url, db), token))
            return _db_url(url, db)
        client.delete(CLAIM)  # someone else wrote here at the same moment
    return None


_claimed: list = []


def _db_url(url: str, db: int) -> str:
    """``url`` pointed at database ``db`` (a path or a ``?db=`` decides it in redis-py)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return urlunsplit((parts.scheme, parts.netloc, parts.path, f"db={db}", ""))
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))


@pytest.fixture(scope="session")
def real_redis_url(tmp_path_factory) -> str:
    """An empty database of its own on REDIS_URL's server, else on 127.0.0.1:6379,
    else an embedded redis-server started for this run."""
    for url in filter(None, [os.environ.get("REDIS_URL"), "redis://127.0.0.1:6379/0"]):
        try:
            found = _claim_empty_database(url)
        except redis.RedisError:
            continue
        if found:
            return found
    from service.redis_setup import EmbeddedRedis
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis")).start()
    _embedded.append(server)
    return server.url


_embedded: list = []


def _empty_but_claim(client: redis.Redis) -> None:
    """Delete every key of our claimed database except the claim itself."""
    keys = [k for k in client.scan_iter(count=1000) if k not in (CLAIM, CLAIM.encode())]
    for i in range(0, len(keys), 500):
        client.delete(*keys[i:i + 500])


def pytest_sessionfinish(session, exitstatus):
    for url, token in _claimed:
        try:
            client = redis.Redis.from_url(url, decode_responses=True)
            if client.get(CLAIM) == token:
                _empty_but_claim(client)
                client.delete(CLAIM)
        except redis.RedisError:
            pass
    for server in _embedded:
        server.stop()


@pytest.fixture
def real_redis(real_redis_url):
    """A client of a real Redis server: a database of this run's, emptied before and
    after each test (it held nothing of anyone else's when the run claimed it)."""
    client = redis.Redis.from_url(real_redis_url, decode_responses=True)
    claimed = bool(_claimed)
    if claimed:
        client.set(CLAIM, _claimed[0][1], ex=CLAIM_SECONDS)
        _empty_but_claim(client)
    else:
        client.flushdb()  # the embedded server this run started
    yield client
    if claimed:
        _empty_but_claim(client)
    else:
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
