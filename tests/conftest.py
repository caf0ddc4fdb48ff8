"""Shared fixtures: a fakeredis store for unit tests, a real Redis for integration tests."""

from __future__ import annotations

import os

import fakeredis
import pytest
import redis

from events.gameplay import GameService
from events.store import EventStore
from games import registry
from tests.redis_claim import CLAIM, CLAIM_SECONDS, claim_on_known_servers, empty_but_claim, release

registry.KINDS.setdefault("test-race", "tests.platform_game:GAME")
# Tests that do not test quiet hours must not depend on the hour they run at (the default
# holds emails from 22:00 to 08:00); set here so that processes the tests start inherit it.
os.environ.setdefault("QUIET_HOURS", "off")



@pytest.fixture
def fake_redis():
    return fakeredis.FakeRedis(decode_responses=True)


@pytest.fixture
def store(fake_redis) -> EventStore:
    return EventStore(fake_redis)


@pytest.fixture
def service(store) -> GameService:
    return GameService(store)


_claimed: list = []  # (url, token) of the database this run claimed


@pytest.fixture(scope="session")
def real_redis_url(tmp_path_factory) -> str:
    """An empty database of its own on REDIS_URL's server, else on 127.0.0.1:6379,
    else an embedded redis-server started for this run."""
    found = claim_on_known_servers()
    if found:
        _claimed.append(found)
        return found[0]
    from service.redis_setup import EmbeddedRedis
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis")).start()
    _embedded.append(server)
    return server.url


_embedded: list = []


def pytest_sessionfinish(session, exitstatus):
    for url, token in _claimed:
        release(url, token)
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
        empty_but_claim(client)
    else:
        client.flushdb()  # the embedded server this run started
    yield client
    if claimed:
        empty_but_claim(client)
    else:
        client.flushdb()


@pytest.fixture
def app(fake_redis):
    """An app on fakeredis with the worker's jobs run inline."""
    from service import create_app
    from tests.support import ADMIN
    # Tests of other rules are not held up by the invitation limit of new addresses
    # (worker.consent); tests of consent set it back (tests/service/test_players.py).
    return create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True, "TESTING": True,
                       "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                       "BASE_URL": "http://localhost", "INVITES_PER_DAY": 10_000,
                       "INVITES_PER_MONTH": 10_000})


@pytest.fixture
def make_app(fake_redis):
    """Apps on the shared fakeredis with the service's own defaults (the invitation
    limits too), and ``settings`` on top."""
    from service import create_app
    from tests.support import ADMIN

    def make(**settings):
        return create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True,
                           "TESTING": True, "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                           "BASE_URL": "http://localhost", **settings})
    return make


@pytest.fixture
def client(app):
    """A browser signed in as the organiser (ORGANISER): lobby forms start games at once."""
    from tests.support import ORGANISER, sign_in
    browser = app.test_client()
    sign_in(browser, ORGANISER)
    return browser


@pytest.fixture
def anon_client(app):
    """A browser nobody signed in on."""
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
