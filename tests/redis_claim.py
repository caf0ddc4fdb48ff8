"""Claiming a Redis database for a test or benchmark run without touching anyone's data.

Tests never delete data they did not create: a run takes a database only if it holds no
key at all, marks it with a claim key that expires, and afterwards deletes only what is
in that database.  Parallel runs on one server each get their own.
"""

from __future__ import annotations

import os
import time
from urllib.parse import urlsplit, urlunsplit

import redis

CLAIM = "ravenpost:test-run"  # marks a database as taken by one test run
CLAIM_SECONDS = 3600  # a run killed mid-way frees its database within the hour


def claim_empty_database(url: str) -> tuple[str, str] | None:
    """``(url, token)`` of a database on ``url``'s server that was empty and is now
    ours; None if every database holds something."""
    base = redis.Redis.from_url(url, socket_connect_timeout=2)
    base.ping()
    databases = int(base.config_get("databases").get("databases", 16))
    token = f"{os.getpid()}-{time.time()}"
    for db in range(databases - 1, 0, -1):  # from the top: people use the low ones
        client = redis.Redis.from_url(_db_url(url, db), socket_connect_timeout=2)
        if client.dbsize() or not client.set(CLAIM, token, nx=True, ex=CLAIM_SECONDS):
            continue
        if client.dbsize() == 1:
            return _db_url(url, db), token
        client.delete(CLAIM)  # someone else wrote here at the same moment
    return None


def _db_url(url: str, db: int) -> str:
    """``url`` pointed at database ``db`` (a path or a ``?db=`` decides it in redis-py)."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return urlunsplit((parts.scheme, parts.netloc, parts.path, f"db={db}", ""))
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))


def claim_on_known_servers() -> tuple[str, str] | None:
    """A claim on REDIS_URL's server if set, else on 127.0.0.1:6379; None if neither
    answers or has a free database."""
    for url in filter(None, [os.environ.get("REDIS_URL"), "redis://127.0.0.1:6379/0"]):
        try:
            found = claim_empty_database(url)
        except redis.RedisError:
            continue
        if found:
            return found
    return None


def empty_but_claim(client: redis.Redis) -> None:
    """Delete every key of a claimed database except the claim itself."""
    keys = [k for k in client.scan_iter(count=1000) if k not in (CLAIM, CLAIM.encode())]
    for i in range(0, len(keys), 500):
        client.delete(*keys[i:i + 500])


def release(url: str, token: str) -> None:
    """Empty a database this run claimed and give it back (if the claim is still ours)."""
    try:
        client = redis.Redis.from_url(url, decode_responses=True)
        if client.get(CLAIM) == token:
            empty_but_claim(client)
            client.delete(CLAIM)
    except redis.RedisError:
        pass
