"""The due-time index: a sorted set game id -> the Unix time its clocks next need the
worker (a reminder, a time-out, a time-out's follow-up).

It is how a lost scheduled job never loses a time-out: the sweep fires every game whose
time has come, whatever happened to RQ's scheduled jobs.  The projection writes it after
each fold, and the time-out check after each firing.  It is a cache of the logs (rebuilt
by projecting a game again).  Every access to it is here; on a Redis Cluster it is split
into buckets by game (events/shards.py), so no single key takes every fold.
"""

from __future__ import annotations

import redis

from events import shards

DUE = "rp:due"


def set_due(client: redis.Redis, game_id: str, when: float | None) -> None:
    """Record when ``game_id`` is next due (None: never, as things stand)."""
    bucket = shards.bucket_key(client, DUE, game_id)
    if when is None:
        client.zrem(bucket, game_id)
    else:
        client.zadd(bucket, {game_id: when})


def due_games(client: redis.Redis, now: float, limit: int = 500) -> list[str]:
    """Games due at ``now`` or before, most overdue first."""
    return [game_id for game_id, _ in shards.zrangebyscore(client, DUE, "-inf", now, limit)]


def due_at(client: redis.Redis, game_id: str) -> float | None:
    """When ``game_id`` is next due, if it is in the index."""
    return client.zscore(shards.bucket_key(client, DUE, game_id), game_id)
