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
from tests.redis_claim import claim_empty_database, release  # noqa: E402

registry.KINDS.setdefault("test-race", "tests.platform_game:GAME")


@contextmanager
def real_redis() -> Iterator[tuple[redis.Redis, str]]:
    """An empty database of its own on a real Redis server: (client, url).

    REDIS_URL's server, else 127.0.0.1:6379, else an embedded redis-server; on a shared
    server only a database that held nothing is used, and only its keys are deleted."""
    embedded, claim = None, None
    for url in filter(None, [os.environ.get("REDIS_URL"), "redis://127.0.0.1:6379/0"]):
        try:
            claim = claim_empty_database(url)
        except redis.RedisError:
            continue
        if claim:
            break
    if claim:
        url = claim[0]
    else:
        from service.redis_setup import EmbeddedRedis
        embedded = EmbeddedRedis(tempfile.mkdtemp(prefix="ravenpost-bench-")).start()
        url = embedded.url
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        yield client, url
    finally:
        if claim:
            release(*claim)
        if embedded:
            embedded.stop()
