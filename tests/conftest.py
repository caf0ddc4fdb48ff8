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


def real_redis_url() -> str:
    return os.environ.get("REDIS_URL") or f"redis://127.0.0.1:6379/{INTEGRATION_DB}"


@pytest.fixture
def real_redis():
    """A real Redis server (REDIS_URL, else the local one); skip loudly if none answers."""
    client = redis.Redis.from_url(real_redis_url(), decode_responses=True)
    try:
        client.ping()
    except redis.ConnectionError as exc:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"no Redis server at {real_redis_url()}: {exc}")
    client.flushdb()
    yield client
    client.flushdb()
