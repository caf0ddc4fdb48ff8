"""Enqueueing jobs with deterministic ids, on RQ or (tests, bots) inline."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

log = logging.getLogger(__name__)

QUEUE_NAME = "ravenpost"
# Emails wait on a queue of their own, which a worker takes from only when the main
# queue (projections, clocks, sweeps) is empty: rendering an email's picture costs ten
# projections, and a busy evening must not let emails hold up the read models.  An email
# that waits may find its turn played meanwhile; it is then settled without a picture.
MAIL_QUEUE_NAME = "ravenpost-mail"
QUEUES = (QUEUE_NAME, MAIL_QUEUE_NAME)  # in a worker's order of priority
# Nothing reads a job's return value, and the read models are the record of what was
# done: a finished job leaves nothing behind.  A failed one is kept a week for whoever
# looks into it (``rq info``, the failed-job registry), then goes.
RESULT_TTL = 0
FAILURE_TTL = 7 * 24 * 3600
WAITING = ("queued", "scheduled", "deferred")  # RQ statuses of a job that has not started
PUT = "put"  # the reply of put_unless_busy_command when it enqueued the job
RECORDED_JOBS = 4096  # job ids whose RQ commands a process keeps (see put_unless_busy_command)
_TIMES = ("created_at", "enqueued_at")  # the job's fields that say when it was enqueued
# KEYS: the job's hash.  ARGV: how many commands, then each one's length and words.
_PUT_UNLESS_BUSY = """
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'queued' or status == 'scheduled' or status == 'deferred'
    or status == 'started' then
  return status
end
local at = 2
for _ = 1, tonumber(ARGV[1]) do
  local n = tonumber(ARGV[at])
  redis.call(unpack(ARGV, at + 1, at + n))
  at = at + n + 1
end
return 'put'
"""


class Enqueuer:
    """Puts jobs on the RQ queue, or runs them at once when there is no RQ connection."""

    def __init__(self, rq_redis=None, inline_runtime=None, game_redis=None) -> None:
        self._rq_redis = rq_redis
        self._inline = inline_runtime
        self._queues: dict[str, Any] = {}
        self._recorded: dict[tuple[str, str], tuple[list[Any], list[int]]] = {}
        self._lock = threading.Lock()
        # Job statuses may be read in the game Redis's own round trips (the append's
        # pipeline) only when RQ's keys live on that very server and database.
        self.shares_game_redis = (rq_redis is not None and game_redis is not None
                                  and same_database(rq_redis, game_redis))

    def put_unless_busy_command(self, func: Callable[..., Any], *args: Any, job_id: str,
                                queue: str = QUEUE_NAME) -> tuple[Any, ...] | None:
        """One command for the game Redis's pipeline that enqueues ``func(*args)`` under
        ``job_id`` (as :meth:`enqueue` would) unless a job of that id is waiting or
        running.  Its reply is the job's status if it was (nothing done), else
        :data:`PUT`.  None when that cannot be done (see :meth:`status_commands`).

        So a write and the job that will process it share one round trip (and one
        fsync under ``appendfsync always``).  The commands are RQ's own, recorded from
        its enqueue into a pipeline once per job id and process, with the job's times
        set anew each time."""
        if not self.shares_game_redis:
            return None
        job_id = job_id.replace(":", "-")
        recorded = self._recorded.get((job_id, queue))
        if recorded is None:
            recorded = self._record(func, args, job_id, queue)
        from rq.utils import now, utcformat
        words, times = recorded
        words = list(words)
        stamp = utcformat(now())
        for at in times:
            words[at] = stamp
        return tuple(words)

    def _record(self, func: Callable[..., Any], args: tuple, job_id: str, queue: str
                ) -> tuple[list[Any], list[int]]:
        """The EVAL of :meth:`put_unless_busy_command` for ``job_id``, and the places of
        the job's times in it."""
        from rq.job import Job
        pipe = self._rq_redis.pipeline()
        self.queue_named(queue).enqueue(func, *args, **self._options(job_id, pipe))
        commands = [command for command, _options in pipe.command_stack]
        pipe.reset()
        words: list[Any] = ["EVAL", _PUT_UNLESS_BUSY, 1, Job.key_for(job_id), len(commands)]
        for command in commands:
            words.append(len(command))
            words += command
        times = [at for at in range(1, len(words)) if words[at - 1] in _TIMES]
        with self._lock:
            self._recorded[(job_id, queue)] = (words, times)
            while len(self._recorded) > RECORDED_JOBS:
                self._recorded.pop(next(iter(self._recorded)))
        return words, times

    def status_commands(self, *job_ids: str) -> list[tuple[str, str, str]] | None:
        """Commands reading the RQ status of ``job_ids`` (ids as given to :meth:`enqueue`),
        to send in a pipeline on the game Redis; None when that cannot be done (jobs run
        inline, or the queue lives on another server)."""
        if not self.shares_game_redis:
            return None
        from rq.job import Job
        return [("HGET", Job.key_for(job_id.replace(":", "-")), "status")
                for job_id in job_ids]

    @property
    def queue(self):
        return self.queue_named(QUEUE_NAME)

    def queue_named(self, name: str):
        """The RQ queue ``name`` (None: jobs run inline)."""
        if self._rq_redis is None:
            return None
        if name not in self._queues:
            from rq import Queue
            self._queues[name] = Queue(name, connection=self._rq_redis)
        return self._queues[name]

    def enqueue(self, func: Callable[..., Any], *args: Any, job_id: str,
                delay: timedelta | None = None, queue: str = QUEUE_NAME) -> None:
        """Enqueue ``func(*args)`` under ``job_id`` on ``queue``; a job id already
        waiting is kept.

        Ids are written ``notify:<game>:<version>:<seat>``; RQ allows only letters,
        digits, ``_`` and ``-``, so the colons become dashes here (game ids are alphanumeric).
        """
        job_id = job_id.replace(":", "-")
        if self.queue is None:
            if delay is None:  # inline mode runs what is due now; timers are not simulated
                from worker.runtime import set_runtime
                set_runtime(self._inline)
                func(*args)
            return
        if self.status(job_id) in WAITING:
            return  # the same work is already waiting
        self._put(func, args, job_id, delay, queue)

    def enqueue_coalesced(self, func: Callable[..., Any], *args: Any, job_id: str,
                          busy_id: str, statuses: Sequence[Any] | None = None,
                          queue: str = QUEUE_NAME, last_id: str | None = None) -> None:
        """Enqueue ``func(*args)`` under ``job_id`` unless that job is already waiting.

        For jobs that do everything outstanding when they run (a projection folds every
        new event): a waiting one will see what the caller just wrote, so nothing is
        added.  While ``job_id`` runs, it may already have looked, and RQ deletes a
        finished job's record, taking with it any new job of the same id enqueued
        meanwhile; so the work goes under ``busy_id`` then (a distinct id, e.g. with the
        version, so that no finishing job can take it with it).

        With ``last_id``, ``busy_id`` may be a fixed id (``<job>:next``): while both it
        and ``job_id`` are waiting or running, a busy game gets one job, not one per
        write; only while both run (two workers on one game) does the work go under
        ``last_id`` (distinct per write, as ``busy_id`` is without it).

        ``statuses``: the replies of :meth:`status_commands` for ``(job_id, busy_id)``,
        read *after* the caller's write (in the same pipeline, after it): the caller
        then saves the round trip that reads them here; the first may be the reply of
        :meth:`put_unless_busy_command` for ``job_id`` instead (:data:`PUT`: done).
        """
        if self.queue is None:
            self.enqueue(func, *args, job_id=job_id)
            return
        job_id = job_id.replace(":", "-")
        if statuses is not None and not any(isinstance(s, Exception) for s in statuses):
            status, busy = (_text(s) for s in statuses)
        else:
            status, busy = self.status(job_id), None
        if status in WAITING or status == PUT:
            return
        if status == "started":
            if statuses is None:
                busy = self.status(busy_id.replace(":", "-"))
            if busy in WAITING:
                return
            if busy == "started" and last_id is not None:
                self._put(func, args, last_id.replace(":", "-"), None, queue)
            else:
                self._put(func, args, busy_id.replace(":", "-"), None, queue)
            return
        self._put(func, args, job_id, None, queue)

    def status(self, job_id: str) -> str | None:
        """The RQ status of job ``job_id`` (None: never enqueued, or done and deleted)."""
        from rq.job import Job
        return _text(self._rq_redis.hget(Job.key_for(job_id), "status"))

    def _put(self, func: Callable[..., Any], args: tuple, job_id: str,
             delay: timedelta | None, queue: str = QUEUE_NAME) -> None:
        # one round trip: RQ writes the job and queues it through our pipeline
        pipe = self._rq_redis.pipeline()
        options = self._options(job_id, pipe)
        target = self.queue_named(queue)
        if delay is None:
            target.enqueue(func, *args, **options)
        else:
            target.enqueue_in(delay, func, *args, **options)
        pipe.execute()


    @staticmethod
    def _options(job_id: str, pipe: Any) -> dict[str, Any]:
        return {"job_id": job_id, "result_ttl": RESULT_TTL, "failure_ttl": FAILURE_TTL,
                "pipeline": pipe}


def _text(status: Any) -> str | None:
    return status.decode() if isinstance(status, bytes) else status


def same_database(a, b) -> bool:
    """Whether two redis-py clients talk to the same server and database (host and
    port, or unix socket path, and db), so that keys of one are keys of the other."""
    try:
        ka, kb = (c.connection_pool.connection_kwargs for c in (a, b))
    except AttributeError:  # a cluster client, or something else: say no
        return False
    where = ("host", "port", "path", "db")
    return all(ka.get(name) == kb.get(name) for name in where) \
        and (ka.get("host") is not None or ka.get("path") is not None)
