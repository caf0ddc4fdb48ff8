"""Emails people want: no reminder for a player who just looked, none at night, and no
single turn emails for a player who takes the daily digest.

:func:`intercept` is the one call the send path makes (``worker.notify.send_turn``),
before anything is sent.  It answers True when the email is not to go now:

* a *reminder* for a seat whose player opened the game (act link, personal page, API
  ``GET`` with their token) in the last ``SEEN_SECONDS`` (:mod:`worker.seen`): skipped;
* a *turn* email (not the invitation) for a player who chose the daily digest: skipped,
  the digest lists the game (:mod:`worker.digest`);
* a turn, reminder or time-out email that would arrive in the player's quiet hours
  (:mod:`worker.hours`): *held*, and sent when the quiet hours end.  (A time-out email is
  named by its TimedOut event's version, a turn or reminder email by its turn's.)

A skipped email is settled with the email's own once-marker (value ``skipped``) and its
notice is done, so nothing retries it.  A held email keeps its marker unset (it has not
gone) and is recorded in the sorted set ``HELD`` (member ``game|version|seat|kind``,
score: when the quiet hours end) and as an RQ scheduled job with a deterministic id
(``held:<game>:<version>:<seat>:<kind>``); its notice is done, so the sweep does not
resend it every minute of the night.  The job (``worker.quiet.release``, enqueued here by
that name, as it sends through the send path, which calls this module) sends through
that same path (same marker: still once) and then drops the member; the sweep
(:func:`sweep`) enqueues the job again for a member whose time has come, should the
scheduled job be lost.

Times come from :func:`worker.current.now`, which tests replace (a controllable clock,
never sleeps).
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta

from events import shards
from events.store import key
from worker import current, players
from worker.hours import player_quiet, quiet_until, read_prefs
from worker.notices import notice_done
from worker.runtime import Runtime
from worker.seen import seen_recently
from worker.sending import MARKER_SECONDS

log = logging.getLogger(__name__)

# sorted set: "game|version|seat|kind" -> unix time it may be sent; in buckets by game on
# a cluster (events/shards.py)
HELD = "rp:held"
HELD_MAX_AGE = timedelta(days=7)  # a held email older than this is given up (logged)
SWEEP_GRACE = 60  # seconds the scheduled job has to run before the sweep enqueues it too
SKIPPED = "skipped"  # once-marker value of an email that was not needed
SWEEP_BATCH = 500  # held emails one sweep looks at, longest held first (the next goes on)
RELEASE = "worker.quiet.release"  # the RQ job that sends a held email when its time comes


def intercept(rt: Runtime, game_id: str, version: int, seat: int, kind: str,
              marker: str) -> bool:
    """Whether the ``kind`` email ("turn" or "remind") of ``seat``'s turn begun at
    ``version`` (or "timeout": the TimedOut event at ``version``) is *not* to be sent now:
    skipped or held (see the module docstring).
    False leaves everything to the usual send (which also covers a mail sent already)."""
    pipe = rt.redis.pipeline(transaction=False)
    pipe.get(marker)
    pipe.get(key(game_id, "seats"))
    pipe.get(key(game_id, f"seen:{seat}"))
    done, seats_raw, seen_raw = pipe.execute()
    if done is not None:
        return False  # sent or settled: the send path says so
    seats = json.loads(seats_raw) if seats_raw else []
    info = seats[seat] if seat < len(seats) else {}
    if not info.get("email") or info.get("muted"):
        return False
    at = current.now()
    if kind == "remind" and seen_recently(seen_raw, at):
        _settle(rt, game_id, version, seat, kind, marker)
        return True
    prefs = read_prefs(rt.redis, players.seat_player(rt.redis, info))
    if kind == "turn" and version != 1 and prefs["digest"] is not None:
        _settle(rt, game_id, version, seat, kind, marker)  # the daily digest lists it
        return True
    until = quiet_until(at, prefs["tz"] or info.get("tz"),
                        player_quiet(prefs, rt.config, info))
    if until is None:
        return False
    hold(rt, game_id, version, seat, kind, until, at)
    return True


def _settle(rt: Runtime, game_id: str, version: int, seat: int, kind: str,
            marker: str) -> None:
    rt.redis.set(marker, SKIPPED, ex=MARKER_SECONDS, nx=True)
    if kind == "turn":
        notice_done(rt, game_id, f"turn:{version}:{seat}")


def member(game_id: str, version: int, seat: int, kind: str) -> str:
    """The ``HELD`` member of one held email."""
    return f"{game_id}|{version}|{seat}|{kind}"


def hold(rt: Runtime, game_id: str, version: int, seat: int, kind: str, until: datetime,
         at: datetime) -> None:
    """Keep the email for when the quiet hours end: recorded, then scheduled."""
    rt.redis.zadd(shards.bucket_key(rt.redis, HELD, game_id),
                  {member(game_id, version, seat, kind): until.timestamp()})
    rt.enqueuer.enqueue(RELEASE, game_id, version, seat, kind,
                        job_id=f"held:{game_id}:{version}:{seat}:{kind}",
                        delay=max(until - at, timedelta(seconds=1)))
    if kind in ("turn", "timeout"):  # recorded in HELD now: the sweep need not resend
        notice_done(rt, game_id, f"{kind}:{version}:{seat}")  # it all night
    log.info("held the %s email of game %s seat %s until %s", kind, game_id, seat, until)


def sweep(rt: Runtime) -> int:
    """Enqueue the held emails whose time has come (their scheduled job may be lost);
    give up those held longer than ``HELD_MAX_AGE``.  Returns how many were enqueued."""
    at = current.now().timestamp()
    stale = at - HELD_MAX_AGE.total_seconds()
    count = 0
    for held, due in shards.zrangebyscore(rt.redis, HELD, "-inf", at - SWEEP_GRACE,
                                          limit=SWEEP_BATCH):
        game_id, version, seat, kind = held.split("|")
        if due < stale:
            log.error("gave up the held email %s: still not sent after %s", held,
                      HELD_MAX_AGE)
            rt.redis.zrem(shards.bucket_key(rt.redis, HELD, game_id), held)
            continue
        rt.enqueuer.enqueue(RELEASE, game_id, int(version), int(seat), kind,
                            job_id=f"held:{game_id}:{version}:{seat}:{kind}")
        count += 1
    return count
