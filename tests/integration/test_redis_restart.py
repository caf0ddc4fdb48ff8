"""Redis killed and started again under a running game (issue 8, points 14 and 15): the
worker rides it out, and nothing in flight waits more than a short lease.

Each test runs its own redis-server (never the shared one) on a unix socket, with its
data and append-only file in the test's directory, and restarts it on the same files.
"""

from __future__ import annotations

import threading
import time

import pytest
import redis
from rq import Queue
from rq.registry import StartedJobRegistry

from events.store import key
from service.redis_setup import EmbeddedRedis
from tests.integration.test_worker_crash import kill_all, start_worker, wait_for
from tests.support import PLAYERS, TEST_DEFAULTS
from worker import jobs
from worker.lease import lease
from worker.notify import send_turn
from worker.projection import LOCK_SECONDS, project_game
from worker.queue import QUEUE_NAME
from worker.runtime import Runtime


class Server:
    """A redis-server of the test's own that can crash (SIGKILL) and come back."""

    def __init__(self, data_dir) -> None:
        self.data_dir = data_dir
        self.redis = EmbeddedRedis(data_dir).start()

    @property
    def url(self) -> str:
        return self.redis.url

    def crash(self) -> None:
        self.redis.process.kill()
        self.redis.process.wait()

    def restart(self) -> None:
        self.redis = EmbeddedRedis(self.data_dir).start()

    def stop(self) -> None:
        if self.redis.process is not None and self.redis.process.poll() is None:
            self.redis.process.kill()
            self.redis.process.wait()


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "redis")
    yield srv
    srv.stop()


@pytest.fixture
def worker_log(tmp_path):
    path = tmp_path / "worker.log"
    yield path
    if path.exists():
        print(path.read_text(errors="replace")[-4000:])


def outbox(client: redis.Redis) -> list[str]:
    """The recipients of every email in the outbox, oldest first."""
    return [client.hget(f"rp:outbox:{i}", "to") for i in client.zrange("rp:outbox", 0, -1)]


def runtime_on(url: str, mail=None) -> Runtime:
    config = {**TEST_DEFAULTS, "SECRET_KEY": "a-test-secret-of-more-than-32-bytes!",
              "BASE_URL": "http://localhost"}
    return Runtime(config, redis.Redis.from_url(url, decode_responses=True),
                   redis.Redis.from_url(url), mail=mail)


def test_the_worker_keeps_running_through_a_redis_restart_and_works_after(server,
                                                                           worker_log):
    client = redis.Redis.from_url(server.url, decode_responses=True)
    proc = start_worker(server.url, worker_log)
    try:
        assert wait_for(lambda: int(client.get(jobs.SWEEP_RUNS) or 0) >= 1), "never swept"
        rq_redis = redis.Redis.from_url(server.url)
        Queue(QUEUE_NAME, connection=rq_redis).enqueue("time.sleep", 4, job_id="slow")
        started = StartedJobRegistry(QUEUE_NAME, connection=rq_redis)
        assert wait_for(lambda: "slow" in started.get_job_ids()), "the slow job never started"
        server.crash()  # mid-job
        time.sleep(6)  # the worker meets the dead server (heartbeats, dequeue, scheduler)
        assert proc.poll() is None, "the worker exited when Redis went away"
        server.restart()
        rt = runtime_on(server.url)
        game = rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
        rt.enqueuer.enqueue(jobs.project, game, job_id=f"project:{game}:1")  # a new job
        assert wait_for(lambda: len(outbox(client)) == 2), "no job ran after the restart"
        assert proc.poll() is None
    finally:
        kill_all(proc)


class StuckMail:
    """A mail backend that hangs until Redis is gone, then fails as the outbox would."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.release = threading.Event()

    def send(self, email) -> None:
        self.inside.set()
        self.release.wait(30)
        raise redis.ConnectionError("Redis went away mid-send")


def test_an_email_and_a_projection_cut_off_by_a_redis_crash_go_out_soon_after_it_returns(
        server, worker_log):
    client = redis.Redis.from_url(server.url, decode_responses=True)
    stuck = StuckMail()
    rt = runtime_on(server.url, mail=stuck)
    mailed = rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    project_game(rt, mailed)  # notices pending, email jobs on the queue (no worker yet)
    sending = threading.Thread(target=lambda: pytest.raises(
        redis.ConnectionError, send_turn, rt, mailed, 1, 0))
    sending.start()
    assert stuck.inside.wait(30)  # the email to seat 0 is being sent, under its lease
    unprojected = rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    projecting = threading.Event()
    done = threading.Event()

    def project_stuck() -> None:
        try:
            with lease(rt.redis, key(unprojected, "projecting"), LOCK_SECONDS):
                projecting.set()
                done.wait(30)
        except redis.ConnectionError:
            pass
    folding = threading.Thread(target=project_stuck)
    folding.start()
    assert projecting.wait(30)  # and the other game is being projected, under its lock
    server.crash()
    stuck.release.set()
    done.set()
    sending.join(30)
    folding.join(30)
    time.sleep(2)
    server.restart()
    back = time.monotonic()
    assert client.exists(key(mailed, "mailed:turn:1:0:lease")), "the lease survived"
    proc = start_worker(server.url, worker_log)
    try:
        everyone = sorted([p["email"] for p in PLAYERS] * 2)
        assert wait_for(lambda: sorted(outbox(client)) == everyone), outbox(client)
        print(f"all mail out {time.monotonic() - back:.1f} s after Redis came back "
              f"(lease and lock: {LOCK_SECONDS} s, sweep every {jobs.SWEEP_EVERY})")
    finally:
        kill_all(proc)
