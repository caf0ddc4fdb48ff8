"""Enqueueing jobs with deterministic ids, on RQ or (tests, bots) inline.

A job is a function, or its dotted name (``"worker.jobs.notify"``), as RQ itself allows
(it records a job by that name either way): a module below :mod:`worker.jobs` enqueues
the jobs there by name, without importing it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from worker.current import set_runtime

log = logging.getLogger(__name__)

JobRef = Callable[..., Any] | str  # a job function, or its dotted name

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
RECORDED_JOBS = 4096  # pairs of job ids whose RQ commands a process keeps (coalesced_command)
_TIMES = ("created_at", "enqueued_at")  # the job's fields that say when it was enqueued
# enqueue_coalesced's decision, made by the server right after the caller's write.
# KEYS: the job's hash, the busy job's hash.  ARGV: the commands that put the job, then
# those that put the busy job; each set is how many commands, then each one's length
# and words.  Replies: 'put' (one of them was put), 'waits' (one waits: nothing to do),
# 'running' (both run: the caller puts a job of a third id).
_COALESCED_PUT = """
local function waiting(status)
  return status == 'queued' or status == 'scheduled' or status == 'deferred'
end
local function run(at)
  local count = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, count do
    local n = tonumber(ARGV[at])
    redis.call(unpack(ARGV, at + 1, at + n))
    at = at + n + 1
  end
end
local function after(at)
  local count = tonumber(ARGV[at])
  at = at + 1
  for _ = 1, count do at = at + tonumber(ARGV[at]) + 1 end
  return at
end
local status = redis.call('HGET', KEYS[1], 'status')
if waiting(status) then return 'waits' end
if status ~= 'started' then
  run(1)
  return 'put'
end
local busy = redis.call('HGET', KEYS[2], 'status')
if waiting(busy) then return 'waits' end
if busy == 'started' then return 'running' end
run(after(1))
return 'put'
"""


class Enqueuer:
    """Puts jobs on the RQ queue, or runs them at once when there is no RQ connection."""

    def __init__(self, rq_redis=None, inline_runtime=None, game_redis=None) -> None:
        self._rq_redis = rq_redis
        self._inline = inline_runtime
        self._queues: dict[str, Any] = {}
        # (job id, busy id, queue) -> coalesced_command's words, and where the times go
        self._recorded: dict[tuple[str, str, str], tuple[tuple[Any, ...], tuple[int, ...]]] = {}
        self._lock = threading.Lock()
        # Job statuses may be read in the game Redis's own round trips (the append's
        # pipeline) only when RQ's keys live on that very server and database.
        self.shares_game_redis = (rq_redis is not None and game_redis is not None
                                  and same_database(rq_redis, game_redis))

    def coalesced_command(self, func: JobRef, *args: Any, job_id: str,
                          busy_id: str, queue: str = QUEUE_NAME) -> tuple[Any, ...] | None:
        """One command for the game Redis's pipeline, after a write there, that makes
        :meth:`enqueue_coalesced`'s decision and puts the job it calls for (as RQ's
        enqueue would), so that the write and its job share one round trip (and one
        fsync under ``appendfsync always``); its reply goes to :meth:`enqueue_coalesced`.
        None when the queue is not on the game Redis (or jobs run inline).

        The commands are RQ's own, recorded from its enqueue into a pipeline once per
        job id and process, with the job's times set anew each time."""
        if not self.shares_game_redis:
            return None
        from rq.utils import now, utcformat
        job_id, busy_id = job_id.replace(":", "-"), busy_id.replace(":", "-")
        made = self._recorded.get((job_id, busy_id, queue)) or \
            self._record(func, args, job_id, busy_id, queue)
        words = list(made[0])
        stamp = utcformat(now())
        for at in made[1]:
            words[at] = stamp
        return tuple(words)

    def _record(self, func: JobRef, args: tuple, job_id: str, busy_id: str,
                queue: str) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        """:meth:`coalesced_command`'s words for these ids, and the places of the jobs'
        times among them: for each job, how many commands, then each one's length and
        words (RQ's enqueue into a pipeline), as :data:`_COALESCED_PUT` reads them."""
        from rq.job import Job
        words: list[Any] = ["EVAL", _COALESCED_PUT, 2, Job.key_for(job_id),
                            Job.key_for(busy_id)]
        for one in (job_id, busy_id):
            pipe = self._rq_redis.pipeline()
            self.queue_named(queue).enqueue(func, *args, **self._options(one, pipe))
            commands = [command for command, _options in pipe.command_stack]
            pipe.reset()
            words.append(len(commands))
            for command in commands:
                words.append(len(command))
                words += command
        times = tuple(at for at in range(1, len(words)) if words[at - 1] in _TIMES)
        with self._lock:
            self._recorded[(job_id, busy_id, queue)] = made = (tuple(words), times)
            while len(self._recorded) > RECORDED_JOBS:
                self._recorded.pop(next(iter(self._recorded)))
        return made

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

    def enqueue(self, func: JobRef, *args: Any, job_id: str,
                delay: timedelta | None = None, queue: str = QUEUE_NAME) -> None:
        """Enqueue ``func(*args)`` under ``job_id`` on ``queue``; a job id already
        waiting is kept.

        Ids are written ``notify:<game>:<version>:<seat>``; RQ allows only letters,
        digits, ``_`` and ``-``, so the colons become dashes here (game ids are alphanumeric).
        """
        job_id = job_id.replace(":", "-")
        if self.queue is None:
            if delay is None:  # inline mode runs what is due now; timers are not simulated
                set_runtime(self._inline)
                job_function(func)(*args)
            return
        if self.status(job_id) in WAITING:
            return  # the same work is already waiting
        self._put(func, args, job_id, delay, queue)

    def enqueue_coalesced(self, func: JobRef, *args: Any, job_id: str,
                          busy_id: str, decided: Any = None, queue: str = QUEUE_NAME,
                          last_id: str | None = None) -> None:
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

        ``decided``: the reply of :meth:`coalesced_command` for the same ids, sent
        *after* the caller's write in its round trip (a job that waits then will see
        the write): whatever it did is not done again here.
        """
        if self.queue is None:
            self.enqueue(func, *args, job_id=job_id)
            return
        job_id, busy_id = job_id.replace(":", "-"), busy_id.replace(":", "-")
        decided = _text(decided) if not isinstance(decided, Exception) else None
        if decided in ("put", "waits"):
            return
        if decided == "running":
            busy = "started"
        else:  # decided here: two reads
            status = self.status(job_id)
            if status in WAITING:
                return
            if status != "started":
                self._put(func, args, job_id, None, queue)
                return
            busy = self.status(busy_id)
            if busy in WAITING:
                return
        if busy == "started" and last_id is not None:
            self._put(func, args, last_id.replace(":", "-"), None, queue)
        else:
            self._put(func, args, busy_id, None, queue)

    def status(self, job_id: str) -> str | None:
        """The RQ status of job ``job_id`` (None: never enqueued, or done and deleted)."""
        from rq.job import Job
        return _text(self._rq_redis.hget(Job.key_for(job_id), "status"))

    def _put(self, func: JobRef, args: tuple, job_id: str,
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


def job_function(func: JobRef) -> Callable[..., Any]:
    """The function a job runs: ``func``, or the function its dotted name names (as an
    RQ worker finds it)."""
    if isinstance(func, str):
        from rq.utils import import_attribute
        return import_attribute(func)
    return func


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
