"""Time-outs on a real `ravenpost worker` with real clocks of a few seconds: a kill -9
of the worker between scheduling and firing, or a queue lost with its scheduled jobs,
still gives exactly one TimedOut.  Waits poll with a generous deadline; nothing asserts
on how long anything took."""

from __future__ import annotations

import time

import redis
from rq.registry import ScheduledJobRegistry

from events.store import key
from tests.integration.test_worker_crash import WAIT, kill_all, sweeps, wait_for, workers
from tests.support import PLAYERS, TEST_DEFAULTS
from worker import jobs
from worker.queue import QUEUE_NAME
from worker.runtime import Runtime

__all__ = ["workers"]  # the fixture, shared with the worker crash tests

SECONDS = 6  # the per-move clock: long enough to kill the worker before it runs out


def _runtime(real_redis, real_redis_url) -> Runtime:
    config = {**TEST_DEFAULTS, "SECRET_KEY": "a-test-secret-of-more-than-32-bytes!",
              "MAIL_BACKEND": "outbox", "BASE_URL": "http://localhost"}
    return Runtime(config, real_redis, redis.Redis.from_url(real_redis_url))


def _game(rt: Runtime) -> str:
    """A one-seat game with a per-move clock of SECONDS, handed to the worker."""
    table = rt.games.create("test-race", PLAYERS[:1], {"target": 30}, platform={
        "time_control": {"kind": "per_move", "hours": SECONDS / 3600},
        "on_timeout": "wait", "reminders": {"fractions": [], "hours_before": []}})
    jobs.request_projection(rt.enqueuer, table.game_id, table.version)
    return table.game_id


def _timed_out(client: redis.Redis, game_id: str) -> int:
    return sum(1 for _, fields in client.xrange(key(game_id, "log"))
               if fields["type"] == "TimedOut")


def _scheduled(rq_redis: redis.Redis, game_id: str) -> list[str]:
    registry = ScheduledJobRegistry(QUEUE_NAME, connection=rq_redis)
    return [j for j in registry.get_job_ids() if game_id in j and j.startswith("time_out")]


def _settled(client: redis.Redis, rq_redis: redis.Redis, game_id: str) -> None:
    """Wait until no job of the game is left to fire and two sweeps ran since."""
    assert wait_for(lambda: not _scheduled(rq_redis, game_id)), "a time-out job is left"
    seen = sweeps(client)
    assert wait_for(lambda: sweeps(client) >= seen + 2), "the sweep stopped"


def test_a_worker_killed_between_scheduling_and_firing_gives_one_time_out(
        real_redis, real_redis_url, workers):
    rt = _runtime(real_redis, real_redis_url)
    first = workers(real_redis_url)
    game_id = _game(rt)
    assert wait_for(lambda: _scheduled(rt.rq_redis, game_id)), "the time-out was not scheduled"
    kill_all(first)  # kill -9 of the worker and its scheduler, before the deadline
    assert _timed_out(real_redis, game_id) == 0
    killed = time.monotonic()
    workers(real_redis_url)
    assert wait_for(lambda: _timed_out(real_redis, game_id) >= 1), "the time-out was lost"
    print(f"TimedOut {time.monotonic() - killed:.1f} s after the kill "
          f"(the clock ran out {SECONDS} s after the game began)")
    _settled(real_redis, rt.rq_redis, game_id)
    assert _timed_out(real_redis, game_id) == 1


def test_a_scheduled_time_out_lost_with_the_queue_is_fired_by_the_sweep(
        real_redis, real_redis_url, workers):
    rt = _runtime(real_redis, real_redis_url)
    first = workers(real_redis_url)
    game_id = _game(rt)
    assert wait_for(lambda: _scheduled(rt.rq_redis, game_id)), "the time-out was not scheduled"
    kill_all(first)
    # the queue's Redis lost everything RQ kept (its scheduled jobs among it)
    for name in rt.rq_redis.keys("rq:*"):
        rt.rq_redis.delete(name)
    assert not _scheduled(rt.rq_redis, game_id)
    workers(real_redis_url)
    assert wait_for(lambda: _timed_out(real_redis, game_id) >= 1, WAIT), \
        "the sweep did not fire the lost time-out"
    _settled(real_redis, rt.rq_redis, game_id)
    assert _timed_out(real_redis, game_id) == 1


def test_firings_racing_each_other_record_one_time_out_and_one_move_for_it(real_redis):
    from concurrent.futures import ThreadPoolExecutor
    from datetime import UTC, datetime, timedelta

    from worker import timeouts

    config = {**TEST_DEFAULTS, "SECRET_KEY": "a-test-secret-of-more-than-32-bytes!",
              "MAIL_BACKEND": "outbox", "BASE_URL": "http://localhost"}
    start = datetime(2030, 1, 7, 12, 0, tzinfo=UTC)
    setup = Runtime(config, real_redis)
    setup.clock = lambda: start
    game_id = setup.games.create("test-race", PLAYERS, {"target": 30}, platform={
        "time_control": {"kind": "per_move", "hours": 1}, "on_timeout": "auto",
        "reminders": {"fractions": [], "hours_before": []}}).game_id
    setup.games.play(game_id, 1, {"type": "ante", "amount": 2}, 1)  # only seat 0 is late

    def fire(_):
        rt = Runtime(config, redis.Redis(connection_pool=real_redis.connection_pool))
        rt.clock = lambda: start + timedelta(hours=1)
        return timeouts.check_game(rt, game_id)

    with ThreadPoolExecutor(8) as pool:
        done = list(pool.map(fire, range(8)))
    log = [fields for _, fields in real_redis.xrange(key(game_id, "log"))]
    assert [f["type"] for f in log].count("TimedOut") == 1
    played_for = [f for f in log if f["type"] == "MovePlayed" and '"auto"' in f["data"]]
    assert len(played_for) == 2  # seat 0's ante, then its first card (its turn goes on)
    assert sum(len(d) for d in done) == 3  # all the firings together appended just these
