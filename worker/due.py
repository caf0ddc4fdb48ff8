"""The due-time index: a sorted set game id -> the Unix time its clocks next need the
worker (a reminder, a time-out, a time-out's follow-up).

It is how a lost scheduled job never loses a time-out: the sweep fires every game whose
time has come, whatever happened to RQ's scheduled jobs.  The projection writes it after
each fold, and the time-out check after each firing.  It is a cache of the logs (rebuilt
by projecting a game again).  Every access to it is here; on a Redis Cluster it is split
into buckets by game (events/shards.py), so no single key takes every fold.
"""

from __future__ import annotations

from collections.abc import Callable

import redis

from events import shards

DUE = "rp:due"
# How far the catch-up (:func:`catch_up`) went through the games index: an offset while
# it runs, "done" after; either expires, so the catch-up runs again a day later.
CATCH_UP = "rp:due:catch-up"
CATCH_UP_BATCH = 500  # games looked at per sweep (one pipelined check of them)
CATCH_UP_PAUSE = 86400


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


def catch_up(client: redis.Redis, game_ids: Callable[[int, int], list[str]],
             index: Callable[[list[str]], int], batch: int = CATCH_UP_BATCH) -> int:
    """One bounded step of putting every game into the index, oldest first: ``index``
    the next ``batch`` games of ``game_ids(offset, limit)``; it skips the games the
    projection indexed already and answers how many of them, in order, it got through
    (fewer when it spent its budget of whole folds: the next step goes on from there).
    Games waiting since before the index existed thus join it at the sweeps rather than
    at their next move.  Returns how many games this step got through."""
    raw = client.get(CATCH_UP)
    if raw == "done":
        return 0
    offset = int(raw or 0)
    ids = game_ids(offset, batch)
    done = index(ids) if ids else 0
    finished = done == len(ids) and len(ids) < batch
    client.set(CATCH_UP, "done" if finished else str(offset + done), ex=CATCH_UP_PAUSE)
    return done
