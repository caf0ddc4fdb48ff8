"""A `ravenpost worker` killed with SIGKILL: the next one brings the sweep, reminders and
time-outs back within a minute (issue 8, point 13), and an email whose send was cut off
goes out again once its lease has run out, the one duplicate the README owns up to
(point 14)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from rq.job import Job
from rq.registry import ScheduledJobRegistry
from rq.scheduler import RQScheduler

from events.gameplay import GameService
from events.store import EventStore, key
from tests.sendgrid_standin import SendGridStandIn
from tests.support import PLAYERS, TEST_DEFAULTS
from worker import jobs, notify
from worker.notify import send_turn
from worker.queue import QUEUE_NAME, Enqueuer
from worker.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]
WAIT = 90  # seconds: the promise is a minute; the machine is shared and noisy


def start_worker(url: str, log: Path, **settings: str) -> subprocess.Popen:
    """A real `ravenpost worker` process (its own process group) on ``url``;
    ``settings``: more of its environment."""
    env = {k: v for k, v in os.environ.items() if k != "RAVENPOST_ENV"}
    env.update({"REDIS_URL": url, "SECRET_KEY": "a-test-secret-of-more-than-32-bytes!",
                "MAIL_BACKEND": "outbox", "BASE_URL": "http://localhost",
                "RAVENPOST_EXTRA_GAMES": "test-race=tests.platform_game:GAME", **settings})
    with open(log, "ab") as out:
        return subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env,
                                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def kill_all(proc: subprocess.Popen) -> None:
    """SIGKILL to the worker and everything it started (scheduler, work horse)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_for(check, seconds: float = WAIT) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.25)
    return check()


@pytest.fixture
def workers(tmp_path):
    """Starts workers; stops every one of them (and their children) after the test."""
    started: list[subprocess.Popen] = []

    def start(url: str) -> subprocess.Popen:
        proc = start_worker(url, tmp_path / "worker.log")
        started.append(proc)
        return proc
    yield start
    for proc in started:
        kill_all(proc)
    print((tmp_path / "worker.log").read_text(errors="replace")[-3000:])


def sweeps(client: redis.Redis) -> int:
    return int(client.get(jobs.SWEEP_RUNS) or 0)


def test_the_sweep_runs_again_after_the_worker_is_killed(real_redis, real_redis_url, workers):
    first = workers(real_redis_url)
    assert wait_for(lambda: sweeps(real_redis) >= 1), "the first worker never swept"
    kill_all(first)
    # a game the web process appended but never got projected: only the sweep finds it
    game = GameService(EventStore(real_redis)).create("test-race", PLAYERS, {"target": 30})
    killed_at = time.monotonic()
    workers(real_redis_url)
    outbox = lambda: [real_redis.hget(f"rp:outbox:{i}", "to")  # noqa: E731
                      for i in real_redis.zrange("rp:outbox", 0, -1)]
    assert wait_for(lambda: len(outbox()) == 2), "no sweep after the restart"
    assert sorted(outbox()) == sorted(p["email"] for p in PLAYERS)
    assert real_redis.get(f"rp:{{g:{game.game_id}}}:projected") == "1"
    print(f"invitations out {time.monotonic() - killed_at:.1f} s after the kill")


def test_scheduled_jobs_run_again_after_the_worker_is_killed(real_redis, real_redis_url,
                                                              workers):
    lock = RQScheduler.get_locking_key(QUEUE_NAME)
    first = workers(real_redis_url)
    assert wait_for(lambda: real_redis.exists(lock)), "the first worker's scheduler never ran"
    kill_all(first)
    assert real_redis.exists(lock), "the dead scheduler's lock outlives it"
    killed_at = time.monotonic()
    workers(real_redis_url)
    rq_redis = redis.Redis.from_url(real_redis_url)
    Enqueuer(rq_redis).enqueue(jobs.sweep, job_id="probe", delay=timedelta(seconds=1))
    scheduled = ScheduledJobRegistry(QUEUE_NAME, connection=rq_redis)
    assert wait_for(lambda: not Job.exists("probe", connection=rq_redis)
                    and scheduled.count == 0), "the scheduled job never ran"
    print(f"scheduled job ran {time.monotonic() - killed_at:.1f} s after the kill")


def test_a_worker_killed_alone_leaves_no_scheduler_behind(real_redis, real_redis_url, workers):
    lock = RQScheduler.get_locking_key(QUEUE_NAME)
    first = workers(real_redis_url)
    assert wait_for(lambda: real_redis.exists(lock)), "the scheduler never ran"
    first.kill()  # the main process only: its scheduler process is orphaned
    first.wait()
    assert wait_for(lambda: not group_alive(first.pid), 30), "an orphan still runs"
    assert not real_redis.exists(lock), "the orphan released its lock as it quit"


def _send_then_hang(config: dict, url: str, game: str, accepted) -> None:
    """In a forked child: send seat 0's invitation, report the provider's acceptance,
    then hang before the `sent` marker is written (the parent kills us there)."""
    rt = Runtime(config, redis.Redis.from_url(url, decode_responses=True))
    real_send = rt.mail.send

    def send_and_hang(email) -> None:
        real_send(email)
        accepted.send("accepted")
        time.sleep(120)
    rt.mail.send = send_and_hang
    send_turn(rt, game, 1, 0)


def _crash_after_the_provider_accepted(config: dict, url: str, game: str) -> float:
    """Run the send in a child, SIGKILL it once the mail is accepted; the time of death."""
    context = multiprocessing.get_context("fork")
    parent_end, child_end = context.Pipe()
    child = context.Process(target=_send_then_hang, args=(config, url, game, child_end))
    child.start()
    try:
        assert parent_end.poll(30), "the child never sent"
        parent_end.recv()
        os.kill(child.pid, signal.SIGKILL)
        return time.monotonic()
    finally:
        child.join(10)


def _resend_until_sent(rt: Runtime, game: str) -> float | None:
    """What the sweep's re-enqueued job does, every 0.2 s: the time it sent, or None."""
    end = time.monotonic() + WAIT
    while time.monotonic() < end:
        if send_turn(rt, game, 1, 0):
            return time.monotonic()
        time.sleep(0.2)
    return None


def test_a_worker_killed_after_sendgrid_accepted_an_email_resends_it_only_after_the_lease(
        real_redis, real_redis_url):
    with SendGridStandIn(api_key="SG.test") as sendgrid:
        config = {**TEST_DEFAULTS, "SECRET_KEY": "s" * 40, "MAIL_BACKEND": "sendgrid",
                  "SENDGRID_API_KEY": "SG.test", "SENDGRID_HOST": sendgrid.url,
                  "MAIL_FROM": "Ravenpost <turns@example.com>"}
        rt = Runtime(config, real_redis)
        game = rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
        died = _crash_after_the_provider_accepted(config, real_redis_url, game)
        lease_key = key(game, "mailed:turn:1:0:lease")
        assert real_redis.exists(lease_key) and not send_turn(rt, game, 1, 0)
        resent = _resend_until_sent(rt, game)
        assert resent is not None, "the email was never sent again"
        copies = [r for r in sendgrid.requests if r.status == 202]
        assert len(copies) == 2  # the duplicate the README owns up to
        print(f"second copy {resent - died:.1f} s after the crash "
              f"(lease {notify.LEASE_SECONDS} s; a real worker adds up to one sweep)")


def test_the_outbox_keeps_one_copy_even_when_the_worker_dies_after_storing_it(
        real_redis, real_redis_url):
    config = {**TEST_DEFAULTS, "SECRET_KEY": "s" * 40, "MAIL_BACKEND": "outbox"}
    rt = Runtime(config, real_redis)
    game = rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    _crash_after_the_provider_accepted(config, real_redis_url, game)
    assert _resend_until_sent(rt, game) is not None
    assert [real_redis.hget(f"rp:outbox:{i}", "to")
            for i in real_redis.zrange("rp:outbox", 0, -1)] == ["ada@example.com"]


def test_an_idle_worker_stops_on_sigterm_with_its_scheduler(real_redis, real_redis_url,
                                                           workers):
    proc = workers(real_redis_url)
    assert wait_for(lambda: sweeps(real_redis) >= 1), "the worker came up and swept"
    proc.send_signal(signal.SIGTERM)  # RQ 3 only dates an idle worker's warm shutdown
    try:
        code = proc.wait(90)  # a loaded machine: a warm shutdown finishes its job first
    except subprocess.TimeoutExpired:
        code = None
    assert code == 0, "the worker stopped on SIGTERM instead of starting again"
    assert wait_for(lambda: not group_alive(proc.pid), 30), "its scheduler stopped too"
