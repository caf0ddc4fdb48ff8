"""The service on a real Redis server: concurrency, RQ jobs, SendGrid over HTTP."""

from __future__ import annotations

import threading

import redis
from rq import Queue, SimpleWorker

from tests.sendgrid_standin import SendGridStandIn
from tests.support import PLAYERS, TEST_DEFAULTS, admin_headers, bearer
from worker.queue import QUEUES
from worker.runtime import Runtime, set_runtime


def create(client, options=None):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS, "options": options or {"target": 40}})
    assert reply.status_code == 201
    return reply.json["id"], [s["token"] for s in reply.json["seats"]]


def test_twenty_threads_posting_the_same_move_apply_it_exactly_once(real_app):
    gid, tokens = create(real_app.test_client())
    barrier = threading.Barrier(20)
    statuses: list[int] = []
    lock = threading.Lock()

    def post():
        client = real_app.test_client()
        barrier.wait()
        reply = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]), json={
            "move": {"type": "ante", "amount": 2}, "expected_version": 1})
        with lock:
            statuses.append(reply.status_code)

    threads = [threading.Thread(target=post) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201] + [409] * 19
    rt = real_app.extensions["ravenpost"]
    events = rt.store.read(gid)
    assert [e.type for e in events] == ["GameCreated", "MovePlayed"]
    assert rt.store.verify(gid) == (True, 2, "")


def test_rebuild_equals_live_state_on_a_real_server(real_app):
    client = real_app.test_client()
    gid, tokens = create(client, {"target": 60})
    rt = real_app.extensions["ravenpost"]
    for _ in range(300):
        table = rt.games.load(gid)
        if table.ended:
            break
        seat = sorted(table.to_act())[0]
        move = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[seat])).json[
            "legal_moves"][-1]
        assert client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]),
                           json={"move": move, "expected_version": table.version}
                           ).status_code == 201
    assert table.ended
    assert rt.games.replayer.load(gid, use_snapshot=False) == rt.games.load(gid)


def test_rq_worker_projects_and_emails_through_sendgrid_once_despite_a_crash(
        real_redis, real_redis_url):
    rq_redis = redis.Redis.from_url(real_redis_url)
    with SendGridStandIn(api_key="SG.test") as sendgrid:
        config = {**TEST_DEFAULTS, "SECRET_KEY": "s", "MAIL_BACKEND": "sendgrid",
                  "SENDGRID_API_KEY": "SG.test", "SENDGRID_HOST": sendgrid.url,
                  "MAIL_FROM": "Ravenpost <turns@example.com>"}
        rt = Runtime(config, real_redis, rq_redis)
        rt.mail.sleep = lambda _: None  # no real backoff waits in the test
        set_runtime(rt)
        try:
            table = rt.games.create("test-race", PLAYERS, {"target": 40})
            gid = table.game_id
            from worker import jobs
            rt.enqueuer.enqueue(jobs.project, gid, job_id=f"project:{gid}:1")
            rt.enqueuer.enqueue(jobs.project, gid, job_id=f"project:{gid}:1")  # a duplicate
            sendgrid.push(500, 500, 500, 500, 500, 500)  # the first email fails for good
            worker = SimpleWorker([Queue(name, connection=rq_redis) for name in QUEUES],
                                  connection=rq_redis)
            worker.work(burst=True)
            delivered = [r for r in sendgrid.requests if r.status == 202]
            assert len(delivered) == 1  # one invitation out, the other's job failed
            rt.enqueuer.enqueue(jobs.sweep, job_id="sweep")  # the periodic sweep
            worker.work(burst=True)
            worker.work(burst=True)
            delivered = [r for r in sendgrid.requests if r.status == 202]
            addresses = sorted(r.body["personalizations"][0]["to"][0]["email"]
                               for r in delivered)
            assert addresses == ["ada@example.com", "bo@example.com"]
            body = delivered[0].body
            types = [c["type"] for c in body["content"]]
            assert types == ["text/plain", "text/html"]
            assert body["headers"]["List-Unsubscribe"].startswith("<http")
        finally:
            set_runtime(None)


def _play_through_a_worker(rt, worker, moves: int) -> str:
    """Random moves of one game, each projected and mailed by the RQ worker as in
    production (the web enqueues one coalesced ``project:<game>`` job per game)."""
    import random

    from worker import jobs
    chooser = random.Random(1)
    table = rt.games.create("test-race", PLAYERS, {"target": 100_000, "copies": 500})
    gid = table.game_id
    rt.enqueuer.enqueue(jobs.project, gid, job_id=f"project:{gid}:1")
    worker.work(burst=True)
    for _ in range(moves):
        seat = chooser.choice(sorted(table.to_act()))
        rt.games.play(gid, seat, chooser.choice(table.game.legal_moves(table.state, seat)),
                      table.version)
        rt.enqueuer.enqueue(jobs.project, gid, job_id=f"project:{gid}:{table.version + 1}")
        worker.work(burst=True)
        table = rt.games.load(gid)
    return gid


def test_finished_jobs_leave_no_records_and_every_mail_marker_expires(real_redis,
                                                                      real_redis_url):
    from worker.notify import MARKER_SECONDS
    rq_redis = redis.Redis.from_url(real_redis_url)
    rt = Runtime({**TEST_DEFAULTS, "SECRET_KEY": "s", "BASE_URL": "http://localhost"},
                 real_redis, rq_redis)
    set_runtime(rt)
    try:
        worker = SimpleWorker([Queue(name, connection=rq_redis) for name in QUEUES],
                              connection=rq_redis)
        moves = 40
        _play_through_a_worker(rt, worker, moves)
    finally:
        set_runtime(None)
    keys = list(real_redis.scan_iter(count=1000))
    assert [k for k in keys if k.startswith(("rq:job:", "rq:results:"))] == []
    markers = [k for k in keys if ":mailed:" in k]
    assert len(markers) >= moves  # one per turn at least
    assert all(0 < real_redis.ttl(k) <= MARKER_SECONDS for k in markers)
    rq_bytes = sum(real_redis.memory_usage(k) or 0 for k in keys if k.startswith("rq:"))
    marker_bytes = sum(real_redis.memory_usage(k) or 0 for k in markers)
    print(f"per move: RQ {rq_bytes / moves:.0f} B, markers {marker_bytes / moves:.0f} B "
          f"(these expire after {MARKER_SECONDS // 86400} days)")
