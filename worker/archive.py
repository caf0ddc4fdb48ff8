"""Which games are at rest, and the periodic sweep that archives them.

A game is at rest when it ended and nothing happened in it for ``ARCHIVE_AFTER_DAYS``
(talk or a vote after the end pushes that back), or when nothing happened in it for
``ARCHIVE_IDLE_DAYS``, ended or not.  A game restored in the last ``ARCHIVE_AFTER_DAYS``
(someone looked at it) is left alone, so reading an old game does not make it go back
and forth.  Times are the events' own ``at`` against the runtime's clock.

The sweep (:func:`sweep`, from :func:`worker.jobs.sweep` at most every
``SWEEP_SECONDS``) walks the index of games from where the last one stopped, a page at a
time, and archives at most ``BATCH`` games: an archived game costs it one empty XREVRANGE
in a pipeline.  The writing itself, and what makes it safe, is :mod:`events.archive`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from events.archive import Archived, ArchiveError, archive_game
from events.store import key

log = logging.getLogger(__name__)

SWEEP_LEASE = "rp:archive:lease"  # exists while an archive sweep is recent
SWEEP_SECONDS = 600
CURSOR = "rp:archive:cursor"  # where in the index of games the next sweep starts
PAGE = 500  # games looked at per pipelined round trip
PAGES = 4  # pages per sweep
BATCH = 50  # games archived per sweep at most (the next sweep goes on)


@dataclass
class AtRest:
    """A game found at rest: why (``ended`` or ``idle``) and its last event's time."""

    game_id: str
    why: str
    last: datetime


def days(rt: Any, name: str, default: float) -> timedelta:
    """A setting in days (a number, or its text from the environment)."""
    value = rt.config.get(name)
    return timedelta(days=default if value in (None, "") else float(value))


def at_rest(last_at: str, summary_raw: str | None, restored: bool, now: datetime,
            after: timedelta, idle: timedelta) -> str | None:
    """``"ended"``, ``"idle"`` or None: whether a game whose last event is at
    ``last_at`` (ISO) and whose lobby summary is ``summary_raw`` is at rest ``now``."""
    if restored or not last_at:
        return None
    last = datetime.fromisoformat(last_at)
    ended = bool(summary_raw) and bool(json.loads(summary_raw).get("ended"))
    if ended and now - last >= after:
        return "ended"
    if now - last >= idle:
        return "idle"
    return None


def _page(rt: Any, game_ids: list[str], now: datetime) -> list[AtRest]:
    """The games of ``game_ids`` that are at rest (one round trip)."""
    pipe = rt.redis.pipeline(transaction=False)
    for game_id in game_ids:
        pipe.xrevrange(key(game_id, "log"), count=1)
        pipe.get(key(game_id, "summary"))
        pipe.exists(key(game_id, "restored"))
    replies = pipe.execute()
    after, idle = days(rt, "ARCHIVE_AFTER_DAYS", 7), days(rt, "ARCHIVE_IDLE_DAYS", 60)
    found = []
    for i, game_id in enumerate(game_ids):
        last, summary, restored = replies[3 * i:3 * i + 3]
        if not last:
            continue  # archived already (or never written)
        at = last[0][1].get("at", "")
        why = at_rest(at, summary, bool(restored), now, after, idle)
        if why:
            found.append(AtRest(game_id, why, datetime.fromisoformat(at)))
    return found


def walk(rt: Any, start: int = 0, pages: int | None = None) -> Iterator[tuple[int, list[AtRest]]]:
    """``(offset after the page, games at rest in it)`` for each page of the index of
    games from ``start`` (oldest first), ``pages`` of them at most (None: to the end)."""
    now, offset, done = rt.now(), start, 0
    while pages is None or done < pages:
        ids = rt.store.game_ids(offset, PAGE, newest_first=False)
        offset += len(ids)
        yield (offset if len(ids) == PAGE else 0), _page(rt, ids, now) if ids else []
        done += 1
        if len(ids) < PAGE:
            return


def archive_one(rt: Any, game_id: str) -> Archived | None:
    """Archive one game now (whatever the policy says); None if it moved meanwhile."""
    return archive_game(rt.store, rt.archives, game_id,
                        rt.now().strftime("%Y-%m-%dT%H:%M:%S.%fZ"))


def enabled(rt: Any) -> bool:
    """Whether the sweep archives: not in an app under test that names no ARCHIVE_URL
    (its files would land in the working directory's ./var)."""
    return bool(rt.config.get("ARCHIVE_URL")) or not rt.config.get("TESTING")


def sweep(rt: Any, batch: int = BATCH) -> list[Archived]:
    """At most every ``SWEEP_SECONDS``: archive up to ``batch`` games at rest, from where
    the last sweep's walk of the index stopped."""
    if not enabled(rt) or not rt.redis.set(SWEEP_LEASE, "1", nx=True, ex=SWEEP_SECONDS):
        return []
    cursor = int(rt.redis.get(CURSOR) or 0)
    done: list[Archived] = []
    for after, found in walk(rt, cursor, PAGES):
        for candidate in found:
            if len(done) >= batch:
                break  # this page again next time: its later games were not looked at
            try:
                archived = archive_one(rt, candidate.game_id)
            except ArchiveError:
                log.exception("archive: %s not archived", candidate.game_id)
                continue
            if archived is not None:
                log.info("archived %s (%s since %s): %d bytes", candidate.game_id,
                         candidate.why, candidate.last.isoformat(), archived.file_bytes)
                done.append(archived)
        if len(done) >= batch:
            break
        cursor = after
    rt.redis.set(CURSOR, cursor)
    return done
