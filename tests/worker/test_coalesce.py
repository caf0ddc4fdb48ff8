"""Coalesced projection and the non-forking worker (issue 12, item 1): one projection
job per game folds everything new, and no event waits for the sweep."""

from __future__ import annotations

import threading

import pytest
import redis
from rq import Queue, SimpleWorker
from rq.job import Job, JobStatus

from tests.support import PLAYERS, TEST_DEFAULTS
from worker import jobs, process, projection
from worker.i18n import email_env
from worker.queue import MAIL_QUEUE_NAME, QUEUE_NAME, QUEUES
from worker.runtime import Runtime, set_runtime


@pytest.fixture
def rq_rt(real_redis, real_redis_url):
    """A runtime whose jobs go to RQ on a real Redis (nothing runs inline)."""
    rt = Runtime({**TEST_DEFAULTS, "SECRET_KEY": "s", "BASE_URL": "http://localhost"},
                 real_redis, redis.Redis.from_url(real_redis_url))
    set_runtime(rt)
    yield rt
    set_runtime(None)


def queued(rt) -> list[str]:
    return Queue(QUEUE_NAME, connection=rt.rq_redis).job_ids


def play_one(rt, gid: str) -> int:
    table = rt.games.load(gid)
    seat = min(table.to_act())
    return rt.games.play(gid, seat, table.game.legal_moves(table.state, seat)[0],
                         table.version).version


def projected(rt, gid: str) -> int:
    return int(rt.redis.get(f"rp:{{g:{gid}}}:projected") or 0)


def test_moves_made_while_the_projection_waits_add_no_job(rq_rt):
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    jobs.request_projection(rq_rt.enqueuer, gid, 1)
    for _ in range(5):
        jobs.request_projection(rq_rt.enqueuer, gid, play_one(rq_rt, gid))
    assert queued(rq_rt) == [f"project-{gid}"]
    SimpleWorker([Queue(QUEUE_NAME, connection=rq_rt.rq_redis)],
                 connection=rq_rt.rq_redis).work(burst=True)
    assert projected(rq_rt, gid) == 6  # the one job folded all six events


def test_a_move_made_while_the_projection_runs_gets_a_job_of_its_own(rq_rt):
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    jobs.request_projection(rq_rt.enqueuer, gid, 1)
    running = Job.fetch(f"project-{gid}", connection=rq_rt.rq_redis)
    Queue(QUEUE_NAME, connection=rq_rt.rq_redis).remove(running)  # a worker took it ...
    running.set_status(JobStatus.STARTED)  # ... and has perhaps read the log already
    version = play_one(rq_rt, gid)
    jobs.request_projection(rq_rt.enqueuer, gid, version)
    # RQ deletes a finished job's record: a job of the running one's id would go with it
    assert queued(rq_rt) == [f"project-{gid}-next"]
    SimpleWorker([Queue(QUEUE_NAME, connection=rq_rt.rq_redis)],
                 connection=rq_rt.rq_redis).work(burst=True)
    assert projected(rq_rt, gid) == version


def test_moves_made_while_the_projection_runs_add_one_job_not_one_each(rq_rt):
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    jobs.request_projection(rq_rt.enqueuer, gid, 1)
    running = Job.fetch(f"project-{gid}", connection=rq_rt.rq_redis)
    Queue(QUEUE_NAME, connection=rq_rt.rq_redis).remove(running)
    running.set_status(JobStatus.STARTED)
    for _ in range(4):
        jobs.request_projection(rq_rt.enqueuer, gid, play_one(rq_rt, gid))
    assert queued(rq_rt) == [f"project-{gid}-next"]


def test_while_both_projection_jobs_of_a_game_run_a_move_gets_a_job_of_its_own(rq_rt):
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    queue = Queue(QUEUE_NAME, connection=rq_rt.rq_redis)
    jobs.request_projection(rq_rt.enqueuer, gid, 1)
    first = Job.fetch(f"project-{gid}", connection=rq_rt.rq_redis)
    queue.remove(first)
    first.set_status(JobStatus.STARTED)
    jobs.request_projection(rq_rt.enqueuer, gid, play_one(rq_rt, gid))
    spare = Job.fetch(f"project-{gid}-next", connection=rq_rt.rq_redis)
    queue.remove(spare)
    spare.set_status(JobStatus.STARTED)  # a second worker took it
    version = play_one(rq_rt, gid)
    jobs.request_projection(rq_rt.enqueuer, gid, version)
    assert queued(rq_rt) == [f"project-{gid}-{version}"]


def test_a_projection_that_finds_the_game_taken_leaves_its_event_to_the_holder(
        rq_rt, monkeypatch):
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    inside, go_on = threading.Event(), threading.Event()
    real_once = projection._project_once

    def held_open(rt, game_id, *held):
        found = real_once(rt, game_id, *held)
        if not inside.is_set():
            inside.set()
            assert go_on.wait(30)
        return found

    monkeypatch.setattr(projection, "_project_once", held_open)
    holder = threading.Thread(target=projection.project_game, args=(rq_rt, gid))
    holder.start()
    try:
        assert inside.wait(30)
        version = play_one(rq_rt, gid)  # lands while the holder projects
        assert projection.project_game(rq_rt, gid) == []  # the lease is taken: it stops
    finally:
        go_on.set()
        holder.join(30)
    assert not holder.is_alive()
    assert projected(rq_rt, gid) == version  # the holder looked again after letting go


def test_the_worker_runs_jobs_in_its_own_process_unless_told_to_fork(rq_rt, monkeypatch):
    monkeypatch.delenv("RAVENPOST_WORKER_CLASS", raising=False)
    worker = process.make_worker(rq_rt.rq_redis, QUEUE_NAME)
    assert isinstance(worker, SimpleWorker)
    monkeypatch.setenv("RAVENPOST_WORKER_CLASS", "forking")
    assert not isinstance(process.make_worker(rq_rt.rq_redis, QUEUE_NAME), SimpleWorker)
    monkeypatch.setenv("RAVENPOST_WORKER_CLASS", "threads")
    with pytest.raises(ValueError, match="RAVENPOST_WORKER_CLASS"):
        process.make_worker(rq_rt.rq_redis, QUEUE_NAME)


def test_a_job_that_hangs_still_times_out_without_a_fork(rq_rt):
    queue = Queue(QUEUE_NAME, connection=rq_rt.rq_redis)
    job = queue.enqueue("time.sleep", 30, job_timeout=1, result_ttl=0)
    process.make_worker(rq_rt.rq_redis, QUEUE_NAME).work(burst=True)
    assert job.get_status(refresh=True) == JobStatus.FAILED
    assert "JobTimeoutException" in job.latest_result().exc_string


def test_jobs_in_one_worker_share_one_runtime_and_its_compiled_templates(rq_rt):
    emails = email_env("en")  # the email templates of English readers, one set a process
    emails.cache.clear()
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    jobs.request_projection(rq_rt.enqueuer, gid, 1)
    process.make_worker(rq_rt.rq_redis, QUEUE_NAME).work(burst=True)
    assert rq_rt.redis.zcard("rp:outbox") == len(PLAYERS)  # both invitations, in-process
    compiled = dict(emails.cache)
    assert compiled  # the templates were compiled once, in this process ...
    jobs.request_projection(rq_rt.enqueuer, gid, play_one(rq_rt, gid))
    process.make_worker(rq_rt.rq_redis, QUEUE_NAME).work(burst=True)
    assert all(emails.cache[k] is t for k, t in compiled.items())  # ... and reused


def test_a_worker_takes_emails_after_projections_but_not_never(rq_rt):
    worker = process.make_worker(rq_rt.rq_redis, QUEUE_NAME)
    main, mail = worker.queues
    assert [q.name for q in worker.queues] == list(QUEUES)
    worker.reorder_queues(main)
    assert worker._ordered_queues[0].name == QUEUE_NAME  # projections first
    worker._later_queue_at -= process.MAIL_AT_LEAST_EVERY + 1  # no email job for a while
    worker.reorder_queues(main)
    assert worker._ordered_queues[0].name == MAIL_QUEUE_NAME  # the next email goes first
    worker.reorder_queues(mail)
    assert worker._ordered_queues[0].name == QUEUE_NAME


def test_moves_landing_during_a_round_are_folded_in_the_same_lease_from_its_table(
        rq_rt, monkeypatch):
    from worker import lease as leases
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    projection.project_game(rq_rt, gid)
    play_one(rq_rt, gid)
    real_once, real_lease, real_load, real_summary = (
        projection._project_once, projection.lease, rq_rt.replayer.load,
        projection.summary_of)
    taken, loaded, rounds = [], [], []

    def once(rt, game_id, held=None):
        rounds.append(None if held is None else held.version)
        return real_once(rt, game_id, held)

    def summary(table):
        if len(rounds) <= 2:
            play_one(rq_rt, gid)  # a move lands while the round folds
        return real_summary(table)

    monkeypatch.setattr(projection, "_project_once", once)
    monkeypatch.setattr(projection, "summary_of", summary)
    monkeypatch.setattr(projection, "lease",
                        lambda *a: taken.append(1) or real_lease(*a))
    monkeypatch.setattr(rq_rt.replayer, "load",  # the projection's loads (a version given)
                        lambda *a, **k: loaded.append(k.get("at")) or real_load(*a, **k))
    projection.project_game(rq_rt, gid)
    version = rq_rt.store.version(gid)
    loaded = [at for at in loaded if at is not None]
    assert projected(rq_rt, gid) == version
    assert taken == [1]  # one lease for every round
    # the first round loads the table; the next two go on from the one before
    assert rounds == [None, version - 2, version - 1] and len(loaded) == 1
    assert leases.claim(rq_rt.redis, f"rp:{{g:{gid}}}:projecting", 1) is None  # let go


def test_a_round_takes_three_round_trips_on_one_server(rq_rt, monkeypatch):
    from redis.connection import Connection
    gid = rq_rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    projection.project_game(rq_rt, gid)
    table = rq_rt.games.load(gid)
    play_one(rq_rt, gid)
    sent = []
    real = Connection.send_packed_command
    monkeypatch.setattr(Connection, "send_packed_command",
                        lambda self, c, check_health=True: sent.append(c) or real(
                            self, c, check_health))
    before = table.version
    found, after, more = projection._project_once(rq_rt, gid, table)
    # the read models' reads; the new event; the transaction (the lobby's index and the
    # log's end in it)
    assert len(sent) == 3 and after is table and after.version == before + 1 and not more
    assert rq_rt.redis.zscore("rp:lobby", gid) is not None
