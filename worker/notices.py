"""Notices: the emails a projection decided on, pending until they went out.

A projection (:mod:`worker.projection`) records each notice in the game's ``pending``
hash, and the game in the ``PENDING_GAMES`` index, *before* their email jobs are
enqueued; the send path forgets a notice once its email went out or was not needed
(:func:`notice_done`: :mod:`worker.notify`, :mod:`worker.held`), and the sweep enqueues
the email job again for every notice still pending (:func:`pending_notices`).  A notice
pending longer than ``NOTICE_MAX_PENDING`` is given up, which bounds how long the markers
guarding its email need to live (:mod:`worker.sending`, :mod:`worker.channels`).
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from events import shards
from events.store import key
from worker.runtime import Runtime

log = logging.getLogger(__name__)

# A notice whose email still has not gone out after this long (the provider refusing it
# as "try later" for a week) is given up, logged, and left to the game page: keeping it
# would keep every marker guarding it alive for ever.
NOTICE_MAX_PENDING = timedelta(days=7)
# set of game ids with notices not yet confirmed sent, split into buckets on a cluster
# (see events/shards.py)
PENDING_GAMES = "rp:pending"


@dataclass(frozen=True)
class Notice:
    """One email to send: a turn (or invitation) for ``seat`` that began at ``version``."""

    kind: str  # "turn", "undo", "vote", "timeout" or "ended"
    version: int
    seat: int
    deadline: str | None = None
    since: float | None = None  # when projection recorded it (unix time)

    @property
    def ident(self) -> str:
        return f"{self.kind}:{self.version}:{self.seat}"


def notice_done(rt: Runtime, game_id: str, ident: str) -> None:
    """Forget a notice whose email went out (or was not needed)."""
    rt.redis.hdel(key(game_id, "pending"), ident)


def pending_notices(rt: Runtime) -> list[tuple[str, Notice]]:
    """Notices recorded by a projection whose email has not been confirmed yet.

    A notice pending longer than ``NOTICE_MAX_PENDING`` is given up here (logged).
    """
    out = []
    oldest = time.time() - NOTICE_MAX_PENDING.total_seconds()
    for game_id in shards.smembers(rt.redis, PENDING_GAMES):
        members = rt.redis.hvals(key(game_id, "pending"))
        if not members:
            index = shards.bucket_key(rt.redis, PENDING_GAMES, game_id)
            rt.redis.srem(index, game_id)
            # a projection that wrote notices meanwhile has put the game in already:
            # looking again after the removal puts it back
            if rt.redis.hlen(key(game_id, "pending")):
                rt.redis.sadd(index, game_id)
        for member in members:
            notice = Notice(**json.loads(member))
            if notice.since is not None and notice.since < oldest:
                log.error("gave up the %s email of game %s: still not sent after %s",
                          notice.ident, game_id, NOTICE_MAX_PENDING)
                notice_done(rt, game_id, notice.ident)
                continue
            out.append((game_id, notice))
    return out
