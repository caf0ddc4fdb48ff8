"""Shared set-up for the benchmarks: a real Redis and the platform's test game."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402

registry.KINDS.setdefault("test-race", "tests.platform_game:GAME")


@contextmanager
def real_redis() -> Iterator[tuple[redis.Redis, str]]:
    """A flushed database on a real Redis server: (client, url); cleaned up after."""
    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/10"
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
        embedded = None
    except redis.ConnectionError:
        from service.redis_setup import EmbeddedRedis
        embedded = EmbeddedRedis(tempfile.mkdtemp(prefix="ravenpost-bench-")).start()
        url = embedded.url
    client = redis.Redis.from_url(url, decode_responses=True)
    client.flushdb()
    try:
        yield client, url
    finally:
        client.flushdb()
        if embedded:
            embedded.stop()
