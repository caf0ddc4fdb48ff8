"""Held emails and digests ride on RQ's scheduler: a scheduled job with a deterministic
id, whose run sends once (real Redis, a real RQ worker; a controllable clock)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import redis
from rq import Queue, SimpleWorker
from rq.job import Job

from service.config import DEFAULTS
from worker import current, digest, jobs, players
from worker.queue import QUEUES
from worker.runtime import Runtime, set_runtime

PLAYERS = [{"name": "Ada", "email": "ada@example.com", "tz": "Europe/Paris"},
           {"name": "Bo", "email": "bo@example.com", "tz": "Europe/Paris"}]


@pytest.fixture
def rq_rt(real_redis, real_redis_url, monkeypatch):
    clock = {"at": datetime(2026, 6, 1, 21, 30, tzinfo=UTC)}  # 23:30 in Paris
    monkeypatch.setattr(current, "now", lambda: clock["at"])
    rq_redis = redis.Redis.from_url(real_redis_url)
    rt = Runtime({**DEFAULTS, "SECRET_KEY": "s", "QUIET_HOURS": "22-8"}, real_redis, rq_redis)
    set_runtime(rt)
    yield rt, clock, SimpleWorker([Queue(name, connection=rq_redis) for name in QUEUES],
                                  connection=rq_redis)
    set_runtime(None)


def test_a_held_email_is_an_rq_scheduled_job_whose_run_sends_it_once(rq_rt):
    rt, clock, worker = rq_rt
    gid = rt.games.create("test-race", PLAYERS, {"target": 40}).game_id
    rt.enqueuer.enqueue(jobs.project, gid, job_id=f"project:{gid}:1")
    worker.work(burst=True)
    assert rt.mail.list(limit=10) == []  # both invitations held for the morning
    job_id = f"held-{gid}-1-0-turn"
    assert rt.enqueuer.status(job_id) == "scheduled"
    job = Job.fetch(job_id, connection=rt.rq_redis)
    assert job.func_name == "worker.quiet.release" and job.args == (gid, 1, 0, "turn")
    clock["at"] = datetime(2026, 6, 2, 6, 0, tzinfo=UTC)  # 08:00 in Paris
    job.perform()
    job.perform()  # a retried or duplicated run
    assert [m["to"] for m in rt.mail.list(limit=10)] == ["ada@example.com"]


def test_a_digest_is_an_rq_scheduled_job_per_player_and_day(rq_rt):
    rt, clock, worker = rq_rt
    gid = rt.games.create("test-race", PLAYERS, {"target": 40}).game_id
    rt.enqueuer.enqueue(jobs.project, gid, job_id=f"project:{gid}:1")
    worker.work(burst=True)
    pid = players.player_id(rt.redis, "ada@example.com")
    digest.set_digest(rt, pid, 9)
    job_id = f"digest-{pid}-2026-06-02"
    assert rt.enqueuer.status(job_id) == "scheduled"
    digest.set_digest(rt, pid, 9)  # saved again: still one job
    digest.schedule(rt, pid)
    clock["at"] = datetime(2026, 6, 2, 7, 0, tzinfo=UTC)  # 09:00 in Paris
    Job.fetch(job_id, connection=rt.rq_redis).perform()
    Job.fetch(job_id, connection=rt.rq_redis).perform()
    digests = [m for m in rt.mail.list(limit=20) if "digest" in m["subject"]]
    assert [m["to"] for m in digests] == ["ada@example.com"]
    assert rt.enqueuer.status(f"digest-{pid}-2026-06-03") == "scheduled"  # the next one
