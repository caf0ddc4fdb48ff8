"""Shared set-up for the benchmarks: a real Redis and the platform's test game."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from tests.redis_claim import claim_on_known_servers, release  # noqa: E402

registry.KINDS.setdefault("test-race", "tests.platform_game:GAME")


@contextmanager
def real_redis() -> Iterator[tuple[redis.Redis, str]]:
    """An empty database of its own on a real Redis server: (client, url).

    REDIS_URL's server, else 127.0.0.1:6379, else an embedded redis-server; on a shared
    server only a database that held nothing is used, and only its keys are deleted."""
    embedded, claim = None, claim_on_known_servers()
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


def timed(fn: Callable[[], object], repeat: int) -> float:
    """The median of ``repeat`` timed calls of ``fn``, after one untimed warm-up call."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)
