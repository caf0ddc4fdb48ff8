"""RQ jobs: plain functions with plain arguments; each reloads what it needs.

Job ids are deterministic (``project:<game>``, ``mail:<game>`` on the email queue,
``notify:<game>:<version>:<seat>``, ``channels:<game>:<kind>:<version>:<seat>``,
``sweep:<time>``...), and every job is idempotent, so a crash, a retry or a duplicate enqueue
never sends a second email or corrupts a read model.

Channels (:mod:`worker.channels`): a turn or game-over notice whose seat's player has
notification URLs gets a job of its own (:func:`notify_channels`, on the email queue),
recorded as owed (:func:`worker.channels.record`) *before* the email is sent, hence
before the notice is marked done; the sweep enqueues it again until it has settled.  A
player without channels costs one HGET per notice (their ``channels`` setting), read in
one round trip for all of a game's notices, beside the seats record read with them.

Projection is coalesced: one ``project:<game>`` job folds everything new in the game's
log, so however many moves land while it waits, a game has at most one waiting
projection job (see :func:`worker.projection.request_projection`, whose name is also
here).  The modules below this one enqueue its jobs by name (``"worker.jobs.notify"``, see
:mod:`worker.queue`): they do not import it.

The sweep is not a chain of jobs each scheduling the next (one lost link would end it):
every worker, on each of its maintenance ticks (:mod:`worker.process`), calls
:func:`sweep_due`, which enqueues a sweep if none was enqueued in the last
``SWEEP_EVERY`` by any worker.  A worker killed at any point therefore delays the sweep by
at most one period.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import timedelta

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events.store import key
from worker import archive, channels, digest, due, held, inbox, timeouts
from worker import notify as mail
from worker.notices import Notice, notice_done, pending_notices
from worker.projection import (
    count_superseded,
    enqueue_notice,
    lagging_games,
    project_game,
    schedule_deadline,
    superseded,
)
from worker.projection import projection_command as projection_command
from worker.projection import request_projection as request_projection
from worker.queue import MAIL_QUEUE_NAME
from worker.runtime import runtime

log = logging.getLogger(__name__)

SWEEP_EVERY = timedelta(seconds=20)
SWEEP_LEASE = "rp:sweep:lease"  # exists while a sweep enqueued by some worker is recent
SWEEP_RUNS = "rp:sweep:runs"  # how many sweeps ran (for operators and tests)
SWEEP_LAST = "rp:sweep:last"  # unix time the last sweep ended


def project(game_id: str) -> int:
    """Fold new events of one game into its read models and ask for the emails they
    call for (each is pending before: one whose job is lost is left to the sweep)."""
    asked: set[float | None] = set()

    def deliver(rt, game_id: str, notice: Notice) -> None:
        schedule_deadline(rt, game_id, notice)
        if notice.since not in asked:  # one email job per fold round (same ``since``)
            asked.add(notice.since)
            request_mail(rt, game_id, notice.version)

    return len(project_game(runtime(), game_id, deliver=deliver))


def request_mail(rt, game_id: str, version: int) -> None:
    """Leave the game's pending emails to its coalesced email job (:func:`send_pending`)
    on the email queue, which a worker takes only when no projection waits: an email
    (its picture rendered) costs ten projections.  Its notices are pending already, so a
    lost job costs a sweep's delay, never the email."""
    rt.enqueuer.enqueue_coalesced(send_pending, game_id, job_id=f"mail:{game_id}",
                                  busy_id=f"mail:{game_id}:next", queue=MAIL_QUEUE_NAME,
                                  last_id=f"mail:{game_id}:{version}")


def send_pending(game_id: str) -> int:
    """Send the pending emails of one game, oldest first; a turn notice whose turn has
    passed meanwhile is settled without building anything (no lease, no picture), in
    one round trip for all of them.  Returns how many notices it settled or sent."""
    rt = runtime()
    pipe = rt.redis.pipeline(transaction=False)
    pipe.hvals(key(game_id, "pending"))
    pipe.hgetall(key(game_id, "awaiting"))
    pipe.get(key(game_id, "seats"))  # whose channels to look at: see request_channels
    raw, awaiting_raw, seats_raw = pipe.execute()
    notices = sorted((Notice(**json.loads(m)) for m in raw),
                     key=lambda n: (n.version, n.kind, n.seat))
    awaiting = {int(s): json.loads(v) for s, v in awaiting_raw.items()}
    passed = [n for n in notices if superseded(n, awaiting)]
    if passed:
        # what send_turn would find (its turn is over: nothing to say), without its lease
        rt.redis.hdel(key(game_id, "pending"), *(n.ident for n in passed))
        count_superseded(rt, game_id, len(passed))
    live = [n for n in notices if n not in passed]
    wanted = channels.seats_with_channels(
        rt.redis, seats_raw, {n.seat for n in live if n.kind in channels.KINDS})
    for notice in live:
        request_channels(rt, game_id, notice, has_channels=notice.seat in wanted)
        send_notice(rt, game_id, notice)
    return len(notices)


def channel_version(notice: Notice) -> int:
    """The version a channel notice is named by: its turn's; 0 for the game over, which
    its email sends once per game as well (``mailed:ended:<seat>``)."""
    return 0 if notice.kind == "ended" else notice.version


def request_channels(rt, game_id: str, notice: Notice,
                     has_channels: bool | None = None) -> bool:
    """Owe ``notice`` to the channels of its seat's player and enqueue their job: call
    it before the notice's email, which marks the notice done.  ``has_channels``: what
    :func:`worker.channels.seats_with_channels` said of the seat (None: find out here,
    one GET and one HGET).  Whether the notice is owed to channels."""
    if notice.kind not in channels.KINDS:
        return False
    if has_channels is None:
        has_channels = notice.seat in channels.seats_with_channels(
            rt.redis, rt.redis.get(key(game_id, "seats")), {notice.seat})
    if not has_channels:
        return False
    version = channel_version(notice)
    channels.record(rt, game_id, notice.kind, version, notice.seat)
    enqueue_channels(rt, game_id, notice.kind, version, notice.seat)
    return True


CHANNELS_OVERDUE = 30  # seconds a channel notice may stay owed before it looks lost


def enqueue_channels(rt, game_id: str, kind: str, version: int, seat: int,
                     since: float | None = None) -> None:
    """The channel job of one notice, by deterministic id, on the email queue.

    ``since``: when the notice was owed (the sweep's call).  A job that RQ still calls
    ``queued`` ``CHANNELS_OVERDUE`` after that is most likely lost, not waiting: a
    worker listening on two queues takes a job off its queue (LPOP) before it marks it
    started, and killed in between it leaves the id ``queued`` in no queue, for ever,
    so enqueueing the same id again would do nothing.  Then a second job goes under an
    id of its own for this minute (a run too many is harmless: the markers)."""
    job_id = f"channels:{game_id}:{kind}:{version}:{seat}"
    rt.enqueuer.enqueue(notify_channels, game_id, kind, version, seat, job_id=job_id,
                        queue=MAIL_QUEUE_NAME)
    if since is None or rt.rq_redis is None or time.time() - since < CHANNELS_OVERDUE:
        return
    if rt.enqueuer.status(job_id.replace(":", "-")) == "queued":
        log.warning("channel job %s still queued after %.0f s: presumed lost; enqueued "
                    "again", job_id, time.time() - since)
        rt.enqueuer.enqueue(notify_channels, game_id, kind, version, seat,
                            job_id=f"{job_id}:late-{int(time.time() // 60)}",
                            queue=MAIL_QUEUE_NAME)


def notify_channels(game_id: str, kind: str, version: int, seat: int) -> int:
    """Send notice ``kind`` of ``seat`` to each channel of its player, once each (see
    :mod:`worker.channels`); a failure of a channel never fails the job (it is counted,
    and the sweep tries again while tries are left)."""
    return channels.send_notice(runtime(), game_id, kind, version, seat)


def send_notice(rt, game_id: str, notice: Notice) -> None:
    """Send a notice's email here rather than in a job of its own.

    The same send, under the same lease and marker, as the email job's
    (:mod:`worker.notify`), so the rules of "once" hold unchanged; what it saves is a
    whole RQ job per notice (about 30 Redis round trips of RQ's own bookkeeping).  A
    send that fails leaves its notice pending, and the sweep enqueues its email job.
    """
    try:
        if notice.kind == "turn":
            mail.send_turn(rt, game_id, notice.version, notice.seat)
        elif notice.kind == "undo":
            mail.send_undo(rt, game_id, notice.version, notice.seat)
        elif notice.kind == "vote":
            mail.send_vote(rt, game_id, notice.version, notice.seat)
        elif notice.kind == "vote-refused":
            mail.send_vote_refused(rt, game_id, notice.version, notice.seat)
        elif notice.kind == "timeout":
            send_timeout_notice(rt, game_id, notice.version, notice.seat)
        else:
            mail.send_ended(rt, game_id, notice.seat)
    except (RedisConnectionError, RedisTimeoutError):
        raise
    except Exception:  # a failed email must not fail the projection: the sweep retries
        log.warning("the %s email of game %s failed; the sweep will retry it",
                    notice.ident, game_id, exc_info=True)


def notify(game_id: str, version: int, seat: int) -> bool:
    """Email ``seat`` about the turn that began at ``version`` (once), and owe the
    notice to the seat's channels first (the sweep's path to a notice still pending)."""
    rt = runtime()
    request_channels(rt, game_id, Notice("turn", version, seat))
    return mail.send_turn(rt, game_id, version, seat)


def notify_undo(game_id: str, version: int, seat: int) -> bool:
    """Ask ``seat`` to allow or refuse the take-back requested at ``version`` (once)."""
    return mail.send_undo(runtime(), game_id, version, seat)


def notify_vote(game_id: str, version: int, seat: int) -> bool:
    """Ask ``seat`` to answer the vote called at ``version`` (once)."""
    return mail.send_vote(runtime(), game_id, version, seat)


def notify_vote_refused(game_id: str, version: int, seat: int) -> bool:
    """Tell ``seat`` that the vote it called was refused at ``version`` (once)."""
    return mail.send_vote_refused(runtime(), game_id, version, seat)


def notify_timeout(game_id: str, version: int, seat: int) -> bool:
    """Tell ``seat`` about the TimedOut at ``version`` (once)."""
    return send_timeout_notice(runtime(), game_id, version, seat)


def send_timeout_notice(rt, game_id: str, version: int, seat: int) -> bool:
    """The email of the TimedOut event at ``version`` to ``seat``; the notice is done
    once the mail went out (or had gone out already: the mail marker says so)."""
    (event,) = rt.store.read(game_id, version, version)
    marker = mail.timed_out_marker(game_id, event.data["turn"], event.data["seat"], seat)
    if held.intercept(rt, game_id, version, seat, "timeout", marker):
        return False  # the seat's quiet hours: held (and no longer pending) until they end
    sent = mail.send_timed_out(rt, game_id, event.data["turn"], event.data["seat"], seat)
    notice_done(rt, game_id, f"timeout:{version}:{seat}")
    return sent


def notify_end(game_id: str, seat: int) -> bool:
    """Email ``seat`` the result of a finished game (once), its channels owed it first."""
    rt = runtime()
    request_channels(rt, game_id, Notice("ended", 0, seat))
    return mail.send_ended(rt, game_id, seat)


def remind(game_id: str, version: int, seat: int) -> list[str]:
    """A reminder's scheduled time: do what the game's clocks call for now (the reminder
    if it is still due; nothing if the seat moved).  See :mod:`worker.timeouts`."""
    return timeouts.check_game(runtime(), game_id)


def time_out(game_id: str, version: int, seat: int) -> list[str]:
    """A deadline's scheduled time: record the TimedOut of ``seat``'s turn begun at
    ``version`` if it is still due, and apply the game's policy; a second run (or the
    sweep) finds it recorded and does nothing.  See :mod:`worker.timeouts`."""
    return timeouts.check_game(runtime(), game_id)


def send_held_reminder(game_id: str, version: int, seat: int) -> bool:
    """A reminder held for the quiet hours (worker.held), sent when they end (by
    worker.quiet.release): it was decided and recorded (ReminderSent, ``outcome="held"``)
    at its time; this sends it, once (its own mail marker), unless the player moved
    meanwhile."""
    return mail.send_turn(runtime(), game_id, version, seat, reminder=True)


def check_clocks(game_id: str) -> list[str]:
    """Whatever the game's clocks call for now (a time-out's follow-up, a bot's move)."""
    return timeouts.check_game(runtime(), game_id)


def fire_due(rt) -> int:
    """The sweep's half of "no time-out lost": check every game the due-time index says
    is due, whether or not its scheduled job survived (a worker killed, Redis restarted
    with the queue lost).  Firing is idempotent, so a job that also runs does no harm."""
    games = due.due_games(rt.redis, rt.now().timestamp())
    for game_id in games:
        try:
            timeouts.check_game(rt, game_id)
        except (RedisConnectionError, RedisTimeoutError):
            raise
        except Exception:  # one broken game must not hold up the others' time-outs
            log.exception("sweep: the clocks of %s failed", game_id)
    return len(games)


def sweep() -> int:
    """Catch up every game whose projection lags its stream, re-enqueue the emails
    still pending, and fire the clocks that are due (their jobs may have been lost with
    a worker or a Redis restart)."""
    rt = runtime()
    games = lagging_games(rt)
    for game_id in games:
        try:
            project_game(rt, game_id)
        except (RedisConnectionError, RedisTimeoutError):
            raise
        except Exception:  # one broken game must not hold up every other game's sweep
            log.exception("sweep: projecting %s failed", game_id)
    for game_id, notice in pending_notices(rt):
        enqueue_notice(rt, game_id, notice)
    for owed in channels.pending(rt):  # cut off, lost, or tries left
        enqueue_channels(rt, owed.game_id, owed.kind, owed.version, owed.seat, owed.since)
    fire_due(rt)  # clocks due, whether or not their scheduled jobs survived
    timeouts.catch_up(rt)  # games waiting since before the due-time index, a few a sweep
    held.sweep(rt)  # held emails whose quiet hours are over
    digest.sweep(rt)  # daily digests due (every few minutes)
    inbox.sweep(rt)  # inbound mail whose job was lost or failed, once a minute each
    try:
        archive.sweep(rt)  # games at rest out of Redis, every ten minutes
    except (RedisConnectionError, RedisTimeoutError):
        raise
    except Exception:  # a full disk or an unreachable bucket must not stop the sweep
        log.exception("sweep: archiving failed")
    pipe = rt.redis.pipeline(transaction=False)
    pipe.incr(SWEEP_RUNS)
    pipe.set(SWEEP_LAST, str(time.time()))
    pipe.execute()
    return len(games)


def sweep_due(rt) -> bool:
    """Enqueue a sweep unless one was enqueued less than ``SWEEP_EVERY`` ago; every
    worker calls this often, so the sweep outlives any one of them."""
    if not rt.redis.set(SWEEP_LEASE, str(time.time()), nx=True,
                        ex=int(SWEEP_EVERY.total_seconds())):
        return False
    # An id of its own per period: a sweep left "started" by a worker killed mid-sweep
    # keeps its record until RQ's clean-up, which must not touch the next one.
    rt.enqueuer.enqueue(sweep, job_id=f"sweep:{int(time.time())}")
    return True
