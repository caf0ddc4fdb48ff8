"""Held emails sent when the quiet hours end: the RQ job :func:`release`.

The job sends through the usual send path (:mod:`worker.jobs`, :mod:`worker.notify`),
which asks :mod:`worker.held` whether an email is to go now; so this module sits above
them all, and they enqueue the job by its name, ``worker.quiet.release`` (also the name
that jobs already waiting in Redis carry).

What an email waits for, and when it is skipped: :mod:`worker.held` (the send path's
gate and the held emails), :mod:`worker.hours` (quiet hours), :mod:`worker.seen` (last
seen).  Their names are also here, where callers of old find them.  Times come from
:func:`worker.current.now`, which tests replace (a controllable clock, never sleeps).
"""

from __future__ import annotations

from events import shards
from worker import current, jobs
from worker.clocks import read_model
from worker.current import now
from worker.held import (
    HELD,
    HELD_MAX_AGE,
    SKIPPED,
    SWEEP_BATCH,
    SWEEP_GRACE,
    hold,
    intercept,
    member,
    sweep,
)
from worker.hours import default_quiet, player_quiet, quiet_until, read_prefs, zone
from worker.runtime import Runtime, runtime
from worker.seen import SEEN_REFRESH, SEEN_SECONDS, SeenNotes, seen, seen_entry, seen_recently

__all__ = ["HELD", "HELD_MAX_AGE", "SEEN_REFRESH", "SEEN_SECONDS", "SKIPPED", "SWEEP_BATCH",
           "SWEEP_GRACE", "SeenNotes", "default_quiet", "hold", "intercept", "now",
           "player_quiet", "quiet_until", "read_prefs", "release", "seen", "seen_entry",
           "seen_recently", "sweep", "zone"]


def release(game_id: str, version: int, seat: int, kind: str) -> bool:
    """RQ job: send a held email (through the usual path, so still once)."""
    rt = runtime()
    send = {"remind": jobs.send_held_reminder, "timeout": jobs.notify_timeout}.get(
        kind, jobs.notify)
    # a reminder of a turn whose time ran out during the night is moot: the time-out
    # email (held as well) says more
    sent = False if kind == "remind" and _timed_out(rt, game_id, version, seat) else \
        send(game_id, version, seat)
    held = member(game_id, version, seat, kind)
    bucket = shards.bucket_key(rt.redis, HELD, game_id)
    due = rt.redis.zscore(bucket, held)
    if due is not None and due <= current.now().timestamp():  # not held again for later
        rt.redis.zrem(bucket, held)
    return bool(sent)


def _timed_out(rt: Runtime, game_id: str, turn: int, seat: int) -> bool:
    """Whether the clocks read model has ``seat``'s turn begun at ``turn`` timed out."""
    clocks = read_model(rt, game_id)
    seats = clocks.s["seats"] if clocks is not None else []
    return seat < len(seats) and seats[seat]["timed_out"] == turn \
        and seats[seat]["turn"] == turn
