"""RQ jobs: plain functions with plain arguments; each reloads what it needs.

Job ids are deterministic (``project:<game>``, ``notify:<game>:<version>:<seat>``...),
and every job is idempotent, so a crash, a retry or a duplicate enqueue never sends a
second email or corrupts a read model.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from events import envelope as ev
from events.store import ConflictError, key
from worker import notify as mail
from worker.projection import enqueue_notice, lagging_games, pending_notices, project_game
from worker.runtime import runtime

log = logging.getLogger(__name__)

SWEEP_EVERY = timedelta(seconds=30)


def project(game_id: str) -> int:
    """Fold new events of one game into its read models and enqueue its emails."""
    return len(project_game(runtime(), game_id))


def notify(game_id: str, version: int, seat: int) -> bool:
    """Email ``seat`` about the turn that began at ``version`` (once)."""
    return mail.send_turn(runtime(), game_id, version, seat)


def notify_undo(game_id: str, version: int, seat: int) -> bool:
    """Ask ``seat`` to allow or refuse the take-back requested at ``version`` (once)."""
    return mail.send_undo(runtime(), game_id, version, seat)


def notify_end(game_id: str, seat: int) -> bool:
    """Email ``seat`` the result of a finished game (once)."""
    return mail.send_ended(runtime(), game_id, seat)


def _still_waiting(rt, game_id: str, version: int, seat: int) -> bool:
    raw = rt.redis.hget(key(game_id, "awaiting"), str(seat))
    return raw is not None and json.loads(raw)["version"] == version


def remind(game_id: str, version: int, seat: int) -> bool:
    """Before the deadline: if the seat still has not moved, record and send a reminder."""
    rt = runtime()
    if not _still_waiting(rt, game_id, version, seat):
        return False
    sent = mail.send_turn(rt, game_id, version, seat, reminder=True)
    if sent:
        try:
            rt.games.record(game_id, ev.REMINDER_SENT, {"seat": seat, "turn": version})
        except ConflictError:
            log.info("reminder for %s seat %s not recorded: the game moved on", game_id, seat)
    return sent


def time_out(game_id: str, version: int, seat: int) -> bool:
    """At the deadline: record TimedOut and tell every player; the game waits on (no rules
    here say what a missed turn does, so the players or the admin decide)."""
    rt = runtime()
    if not _still_waiting(rt, game_id, version, seat):
        return False
    marker = key(game_id, f"timedout:{version}:{seat}")
    if rt.redis.set(marker, "1", nx=True):
        try:
            rt.games.record(game_id, ev.TIMED_OUT, {"seat": seat, "turn": version})
        except ConflictError:
            rt.redis.delete(marker)
            raise  # retried by RQ; the next try sees the new version
    for other in range(len(rt.games.seats(game_id))):
        mail.send_timed_out(rt, game_id, version, seat, other)
    return True


def sweep() -> int:
    """Catch up every game whose projection lags its stream; then schedule the next sweep."""
    rt = runtime()
    games = lagging_games(rt)
    for game_id in games:
        project_game(rt, game_id)
    for game_id, notice in pending_notices(rt):
        enqueue_notice(rt, game_id, notice)  # their jobs may have been lost with a worker
    if rt.redis.set("rp:sweep:lease", "1", nx=True, ex=int(SWEEP_EVERY.total_seconds()) - 1):
        rt.enqueuer.enqueue(sweep, job_id="sweep", delay=SWEEP_EVERY)
    return len(games)
