"""The ``ravenpost worker`` process: RQ's worker and scheduler, tuned to come back fast.

RQ (3.0) as it ships recovers slowly from crashes:

- its scheduler lock (``rq:scheduler-lock:<queue>``) lives ``interval + 60`` s after the
  scheduler's last beat, and a worker that did not get it at start tries again only at
  its maintenance tick, every 10 minutes by default, while an idle worker blocks in
  ``BLPOP`` for ``worker_ttl - 15`` = 405 s between ticks;
- a scheduler process whose worker was killed (kill -9 of the main process) lives on as
  an orphan and keeps the lock;
- the worker quits on any Redis error outside its dequeue loop (a heartbeat while a job
  runs, say), and the scheduler process dies on one.

So :class:`RavenpostWorker` ticks every ``TICK_SECONDS`` (RQ's ``maintenance_interval``,
with a short ``worker_ttl`` so that an idle worker wakes up for it), and on each tick
frees a scheduler lock whose holder has not renewed it for ``STALE_LOCK_SECONDS`` (the
holder renews it every second), restarts its own scheduler process if it is not running,
and enqueues the sweep when it is due (:func:`worker.jobs.sweep_due`).  Its scheduler
quits when its worker is gone, and waits for Redis rather than die without it.
:func:`run` restarts the worker, after waiting for Redis with capped backoff, whenever
it stops for any reason but SIGTERM/SIGINT.

After a crash of a whole worker (every process, kill -9) the sweep is back within
``SWEEP_EVERY + TICK_SECONDS`` and the scheduler (reminders, time-outs) within
``STALE_LOCK_SECONDS + TICK_SECONDS`` of the restart.

Jobs run in the worker process itself (RQ's :class:`~rq.SimpleWorker`), not in a fork
per job: a fork cost ~11 ms and threw away what a job leaves warm for the next one (the
Redis connections, the compiled email templates, the Replayer's cache of the last
tables).  That is safe here because jobs keep no state of their own: each one reloads
what it needs through the process's :class:`~worker.runtime.Runtime`, whose caches are
bounded (the Replayer's LRU of JSON tables, Jinja's template cache), and nothing a job
gets is shared mutable state (cached tables are kept as JSON and decoded per load).  A
job that hangs still times out: RQ's death penalty is SIGALRM in this same process.
``RAVENPOST_WORKER_CLASS=forking`` brings back RQ's forking worker (the benchmark's
reference, and a way out should a job ever leak).
"""

from __future__ import annotations

import logging
import os
import signal
import time
import uuid

import redis
from rq import Queue, SimpleWorker, Worker
from rq.defaults import DEFAULT_LOGGING_DATE_FORMAT, DEFAULT_LOGGING_FORMAT
from rq.scheduler import RQScheduler
from rq.scripts import release_lock
from rq.utils import now

from worker.queue import QUEUE_NAME, QUEUES

log = logging.getLogger(__name__)

TICK_SECONDS = 5
CLEAN_SECONDS = 60  # RQ's registry clean-up (10 minutes by default)
WORKER_TTL = 20  # RQ blocks for worker_ttl - 15 s waiting for a job: one tick
STALE_LOCK_SECONDS = 10
MAX_RECONNECT_WAIT = 4.0
# The email queue comes after the projection queue, but not for ever: a worker that has
# taken no email job for this long takes the next one first (if any waits), so a
# saturated evening delays emails by seconds rather than starving them.
MAIL_AT_LEAST_EVERY = 2.0


class RavenpostScheduler(RQScheduler):
    """RQ's scheduler, which quits (releasing its lock) once its worker is gone."""

    _parent_pid: int | None = None

    def start(self):
        self._parent_pid = os.getpid()
        return super().start()

    def heartbeat(self):
        if self._parent_pid is not None and os.getppid() != self._parent_pid:
            self.log.warning("Scheduler: its worker is gone; stopping")
            self.request_stop()
        super().heartbeat()

    def work(self):
        # RQ's scheduler process dies at the first Redis error; wait for Redis instead.
        wait = 0.5
        while True:
            try:
                return super().work()
            except (redis.ConnectionError, redis.TimeoutError) as exc:
                if self._stop_requested:
                    return None
                self.log.warning("Scheduler: Redis unreachable (%s); retrying", exc)
                time.sleep(wait)
                wait = min(wait * 2, MAX_RECONNECT_WAIT)


class _Recovering:
    """A short maintenance tick and scheduler recovery, for either of RQ's worker
    classes (see the module docstring)."""

    # Documented class attributes: reconnect to Redis with backoff capped at a few
    # seconds (RQ's default cap is a minute) while waiting for jobs.
    max_connection_wait_time = MAX_RECONNECT_WAIT

    def __init__(self, queues, *args, tick=None, scheduler_name: str | None = None,
                 **kwargs) -> None:
        kwargs.setdefault("maintenance_interval", TICK_SECONDS)
        kwargs.setdefault("worker_ttl", WORKER_TTL)
        super().__init__(queues, *args, **kwargs)
        self._tick = tick
        # One name for the scheduler of every worker this process runs in turn: after a
        # Redis restart the new one renews the lock the last one held instead of waiting.
        self._scheduler_name = scheduler_name
        self._cleaned_at: float | None = None
        self._later_queue_at = time.monotonic()

    def reorder_queues(self, reference_queue) -> None:
        """After each dequeue: the queues in their order of priority, except that the
        later ones (emails) go first once none was taken for ``MAIL_AT_LEAST_EVERY``."""
        if len(self.queues) < 2:
            return
        now = time.monotonic()
        if reference_queue.name != self.queues[0].name:
            self._later_queue_at = now
            self._ordered_queues = list(self.queues)
        elif now - self._later_queue_at > MAIL_AT_LEAST_EVERY:
            self._ordered_queues = [*self.queues[1:], self.queues[0]]

    def _start_scheduler(self, burst: bool = False, logging_level: str | None = "INFO",
                         date_format: str = DEFAULT_LOGGING_DATE_FORMAT,
                         log_format: str = DEFAULT_LOGGING_FORMAT) -> None:
        # RQ 3.0's own, with our scheduler class and a stale lock freed first.
        self.scheduler = RavenpostScheduler(
            self.queues, connection=self.connection,
            logging_level=logging_level if logging_level is not None else self.log.level,
            date_format=date_format, log_format=log_format, serializer=self.serializer,
            name=self._scheduler_name)
        for queue in self.queues:
            free_stale_scheduler_lock(self.connection, queue.name)
        self.scheduler.acquire_locks()
        if not self.scheduler.acquired_locks:
            return  # another scheduler runs; the tick takes over if it dies
        if burst:
            try:
                self.scheduler.register_birth()
                self.scheduler.enqueue_scheduled_jobs()
            finally:
                self.scheduler.release_locks()
                self.scheduler.register_death()
        else:
            self.scheduler.start()

    def run_maintenance_tasks(self) -> None:
        self._keep_scheduler()
        if self._tick is not None:
            self._tick()
        if self._cleaned_at is None or time.monotonic() - self._cleaned_at >= CLEAN_SECONDS:
            super().run_maintenance_tasks()  # RQ's registry clean-up, at its own pace
            self._cleaned_at = time.monotonic()
        else:
            self.last_cleaned_at = now()  # the next tick is due in TICK_SECONDS

    def _keep_scheduler(self) -> None:
        """Free a dead scheduler's lock, and run ours if it is not running."""
        scheduler = self.scheduler
        if scheduler is None:
            return
        for queue in self.queues:
            free_stale_scheduler_lock(self.connection, queue.name, scheduler.name)
        if scheduler._process is None or not scheduler._process.is_alive():
            scheduler.acquire_locks(auto_start=True)


class RavenpostWorker(_Recovering, SimpleWorker):
    """Runs each job in this process (no fork), recovering as the module says."""


class ForkingRavenpostWorker(_Recovering, Worker):
    """RQ's forking worker (a fork per job), recovering the same way."""


WORKER_CLASSES = {"simple": RavenpostWorker, "forking": ForkingRavenpostWorker}


def worker_class() -> type:
    """The worker class ``RAVENPOST_WORKER_CLASS`` names (default ``simple``)."""
    name = os.environ.get("RAVENPOST_WORKER_CLASS") or "simple"
    try:
        return WORKER_CLASSES[name]
    except KeyError:
        raise ValueError(f"RAVENPOST_WORKER_CLASS must be one of {sorted(WORKER_CLASSES)}, "
                         f"not {name!r}") from None


# RQ logs three or four lines at INFO for every job it runs; at hundreds of jobs a second
# that is most of a log and a measurable part of a job's cost.  Failures are still logged.
_ROUTINE = frozenset({
    "Worker %s: %s: %s", "Worker %s: %s: %s (%s)", "Worker %s: job %s result discarded immediately",
    "Successfully completed job %s in %ss on worker %s",
    "Successfully completed %s job in %ss on worker %s",
})


def _not_routine(record: logging.LogRecord) -> bool:
    return not (record.levelno <= logging.INFO and record.msg in _ROUTINE)


def free_stale_scheduler_lock(connection: redis.Redis, queue_name: str,
                              own_name: str | None = None) -> bool:
    """Delete the scheduler lock of ``queue_name`` if its holder stopped renewing it.

    The holder renews it to ``interval + 60`` s (interval = 1 s) every second, so the
    remaining TTL tells how long ago it last did.  Returns whether the lock was freed.
    """
    lock_key = RQScheduler.get_locking_key(queue_name)
    holder = connection.get(lock_key)
    if holder is None:
        return False
    holder = holder.decode() if isinstance(holder, bytes) else holder
    if holder == own_name:
        return False
    ttl = connection.ttl(lock_key)
    if ttl < 0 or 61 - ttl < STALE_LOCK_SECONDS:
        return False
    if release_lock(connection, lock_key, holder):
        log.warning("freed the scheduler lock of %s: its holder %s stopped %d s ago",
                    queue_name, holder, 61 - ttl)
        return True
    return False


def make_worker(rq_redis: redis.Redis, queue_name: str, tick=None,
                scheduler_name: str | None = None) -> RavenpostWorker:
    """A worker on ``queue_name``; ``tick()`` runs at every maintenance tick."""
    rq_log = logging.getLogger("rq.worker")
    if _not_routine not in rq_log.filters:
        rq_log.addFilter(_not_routine)
    # the main queue's worker also takes the emails, but only when the main queue is empty
    names = QUEUES if queue_name == QUEUE_NAME else (queue_name,)
    return worker_class()([Queue(name, connection=rq_redis) for name in names],
                          connection=rq_redis,
                          tick=tick, scheduler_name=scheduler_name,
                          log_job_description=False)


def run(rq_redis: redis.Redis, queue_name: str, tick=None, burst: bool = False) -> None:
    """Work until SIGTERM/SIGINT (or, with ``burst``, until the queue is empty),
    starting the worker again, after Redis answers, whenever it stops on an error."""
    stop: list[int] = []
    wait = 0.5
    scheduler_name = uuid.uuid4().hex
    while True:
        worker = None
        started = time.monotonic()
        try:
            worker = make_worker(rq_redis, queue_name, _guarded(tick), scheduler_name)
            worker.work(with_scheduler=True, burst=burst)
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            log.error("worker stopped: Redis unreachable (%s)", exc)
        finally:
            if worker is not None:
                _forget(worker)
        # An idle RQ 3 worker's warm shutdown only dates the request (StopRequested ends
        # work()); a busy one sets _stop_requested.  Either way SIGTERM means stop.
        if worker is not None and (worker._stop_requested or worker._shutdown_requested_date
                                   or (burst and _redis_answers(rq_redis))):
            return
        _on_signals(stop)
        if time.monotonic() - started > 60:
            wait = 0.5  # it ran a good while: this is a new outage
        while True:  # at least one pause: never a hot loop of restarts
            _sleep(wait, stop)
            wait = min(wait * 2, MAX_RECONNECT_WAIT)
            if stop or _redis_answers(rq_redis):
                break
            log.warning("waiting for Redis")
        if stop:
            log.info("stopping on signal %s", stop[0])
            return
        log.warning("starting the worker again")


def _guarded(tick):
    """``tick`` with its errors logged, Redis errors aside (RQ's loop retries those)."""
    if tick is None:
        return None

    def guarded() -> None:
        try:
            tick()
        except (redis.ConnectionError, redis.TimeoutError):
            raise
        except Exception:
            log.exception("maintenance tick failed")
    return guarded


def _redis_answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
        return False


def _on_signals(stop: list[int]) -> None:
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda number, _frame: stop.append(number))


def _sleep(seconds: float, stop: list[int]) -> None:
    end = time.monotonic() + seconds
    while not stop and time.monotonic() < end:
        time.sleep(0.1)


def _forget(worker: RavenpostWorker) -> None:
    """Stop what a worker that died on a Redis error left running (its pubsub thread,
    its scheduler process): RQ's teardown gives up at the first failed Redis call."""
    thread = worker.pubsub_thread
    if thread is not None and thread.is_alive():
        thread.stop()
    scheduler = worker.scheduler
    if scheduler is not None and scheduler._process is not None \
            and scheduler._process.is_alive():
        try:
            os.kill(scheduler._process.pid, signal.SIGTERM)
        except OSError:
            pass
        scheduler._process.join(10)
        if scheduler._process.is_alive():
            scheduler._process.kill()
