"""A move is a cheap request (issue 12, item 2): Redis round trips of one POST move and
of one GET view, counted on a real server with RQ (no worker runs: the jobs only wait),
and the guarantees the saved round trips must keep."""

from __future__ import annotations

import pytest
import redis
from redis.connection import Connection
from rq.job import Job, JobStatus
from rq.utils import get_version

from tests.support import ADMIN, PLAYERS, admin_headers, bearer


def make_app(url: str):
    from service import create_app
    return create_app({"REDIS_URL": url, "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                       "BASE_URL": "http://localhost", "CHECK_REDIS": False,
                       "TESTING": True})


@pytest.fixture
def rq_app(real_redis, real_redis_url):
    return make_app(real_redis_url)


@pytest.fixture
def other_process(real_redis_url):
    """A second web process on the same Redis: it has loaded no game and kept no secret."""
    return make_app(real_redis_url)


@pytest.fixture
def round_trips(monkeypatch):
    """Counts what is sent to Redis: one command, or one whole pipeline, is one trip."""
    sent: list[bytes] = []
    real = Connection.send_packed_command

    def counting(self, command, check_health=True):
        sent.append(command)
        return real(self, command, check_health)

    monkeypatch.setattr(Connection, "send_packed_command", counting)
    return sent


def post_move(client, gid, tokens, seat=0):
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[seat])).json
    return view, lambda: client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]),
                                      json={"move": view["legal_moves"][0],
                                            "expected_version": view["version"]})


def new_game(client, options=None):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS, "options": options or {"target": 40}})
    return reply.json["id"], [s["token"] for s in reply.json["seats"]]


def commands(round_trips) -> list[bytes]:
    return [b"".join(c) if isinstance(c, list | tuple) else bytes(c) for c in round_trips]


def test_a_move_on_the_table_the_process_holds_takes_one_round_trip(rq_app, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)  # its projection job waits: no worker runs here
    _, post = post_move(client, gid, tokens)  # the view's load leaves the table cached
    round_trips.clear()
    assert post().status_code == 201
    # the dirty mark, the append (guarded by the token's generation, chained to the
    # cached table's hash) and the projection job's status, in one pipeline
    assert len(round_trips) == 1
    assert not any(b"XREVRANGE" in command for command in commands(round_trips))


def test_a_move_whose_projection_must_be_enqueued_enqueues_it_in_the_same_round_trip(
        rq_app, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    rt.rq_redis.delete(f"rq:job:project-{gid}", "rq:queue:ravenpost")  # as if it had run
    _, post = post_move(client, gid, tokens)
    round_trips.clear()
    assert post().status_code == 201
    assert len(round_trips) == 1
    assert rt.enqueuer.queue.job_ids == [f"project-{gid}"]
    job = Job.fetch(f"project-{gid}", connection=rt.rq_redis)
    assert (job.func_name, job.args, job.get_status()) == ("worker.jobs.project", (gid,),
                                                           JobStatus.QUEUED)


def test_the_job_put_with_the_append_is_the_one_rqs_enqueue_writes(rq_app):
    from worker import jobs
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    rt.rq_redis.delete(f"rq:job:project-{gid}", "rq:queue:ravenpost")
    _, post = post_move(client, gid, tokens)
    assert post().status_code == 201
    ours = rt.rq_redis.hgetall(f"rq:job:project-{gid}")
    rt.enqueuer._put(jobs.project, (gid,), "project-reference", None)  # RQ's own way
    reference = rt.rq_redis.hgetall("rq:job:project-reference")
    rt.rq_redis.delete("rq:job:project-reference")
    times = {b"created_at", b"enqueued_at"}
    assert ours.keys() == reference.keys()
    assert {k: v for k, v in ours.items() if k not in times} == \
        {k: v for k, v in reference.items() if k not in times}
    # its times are those of this enqueue, not of the one RQ's commands were recorded at
    assert all(abs((_rq_time(ours[k]) - _rq_time(reference[k])).total_seconds()) < 60
               for k in times)
    first = ours[b"enqueued_at"]
    rt.rq_redis.delete(f"rq:job:project-{gid}", "rq:queue:ravenpost")
    _, post = post_move(client, gid, tokens, seat=1)
    assert post().status_code == 201
    assert rt.rq_redis.hget(f"rq:job:project-{gid}", "enqueued_at") > first


def _rq_time(raw: bytes):
    from rq.utils import utcparse
    return utcparse(raw.decode())


def test_a_process_moving_in_a_game_it_never_loaded_takes_two(rq_app, other_process,
                                                               round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    view, _ = post_move(client, gid, tokens)
    other_process.extensions["ravenpost"].redis.ping()  # its connection is open
    get_version(other_process.extensions["ravenpost"].rq_redis)  # RQ asks once a process
    round_trips.clear()
    reply = other_process.test_client().post(
        f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]),
        json={"move": view["legal_moves"][0], "expected_version": view["version"]})
    assert reply.status_code == 201
    # the token's generation, the game's secrets, the snapshot and the log's end; then
    # the dirty mark, the append and the job's status
    assert len(round_trips) == 2


def test_the_dirty_mark_goes_before_the_append_and_the_job_status_after_it(
        rq_app, other_process, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    for app in (rq_app, other_process):  # the one-trip move and the usual one
        view, _ = post_move(app.test_client(), gid, tokens, 0)
        seat = view["to_act"][0]
        view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[seat])).json
        round_trips.clear()
        assert app.test_client().post(
            f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]),
            json={"move": view["legal_moves"][0], "expected_version": view["version"]}
        ).status_code == 201
        append = next(c for c in commands(round_trips) if b"XADD" in c)
        # the sweep finds a game whose web process died after its append; a job status
        # read before the append could be of a job that has already read the log
        assert append.index(b"ZADD") < append.index(b"XADD") < append.rindex(b"HGET")


def test_a_move_while_the_projection_runs_enqueues_one_for_after_it(rq_app, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    running = Job.fetch(f"project-{gid}", connection=rt.rq_redis)
    rt.enqueuer.queue.remove(running)  # a worker took it and may have read the log
    running.set_status(JobStatus.STARTED)
    _, post = post_move(client, gid, tokens)
    round_trips.clear()
    reply = post()
    assert reply.status_code == 201
    assert len(round_trips) == 1  # decided and put by the server, after the append
    assert rt.enqueuer.queue.job_ids == [f"project-{gid}-next"]
    _, post = post_move(client, gid, tokens, seat=1)
    assert post().status_code == 201  # another move: the job after the run waits already
    assert rt.enqueuer.queue.job_ids == [f"project-{gid}-next"]


def test_a_move_while_two_projections_run_enqueues_one_of_its_own(rq_app, round_trips):
    from worker import jobs
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    for job_id in (f"project-{gid}", f"project-{gid}-next"):
        if not rt.rq_redis.exists(f"rq:job:{job_id}"):
            rt.enqueuer._put(jobs.project, (gid,), job_id, None)
        job = Job.fetch(job_id, connection=rt.rq_redis)
        rt.enqueuer.queue.remove(job)  # two workers took them
        job.set_status(JobStatus.STARTED)
    view, post = post_move(client, gid, tokens)
    round_trips.clear()
    assert post().status_code == 201
    assert len(round_trips) == 2  # the server says both run; a job of the move's own
    assert rt.enqueuer.queue.job_ids == [f"project-{gid}-{view['version'] + 1}"]


def test_with_the_queue_on_another_redis_the_job_status_is_read_there(
        real_redis, real_redis_url):
    from tests.redis_claim import claim_on_known_servers, release
    claim = claim_on_known_servers()  # a second empty database plays the queue's Redis
    if not claim:
        pytest.skip("no second Redis database to claim")
    try:
        app = make_app(real_redis_url)
        rt = app.extensions["ravenpost"]
        rt.enqueuer = type(rt.enqueuer)(redis.Redis.from_url(claim[0]), inline_runtime=rt,
                                        game_redis=rt.redis)
        assert not rt.enqueuer.shares_game_redis
        client = app.test_client()
        gid, tokens = new_game(client)
        _, post = post_move(client, gid, tokens)
        assert post().status_code == 201
        assert rt.enqueuer.status(f"project-{gid}") == "queued"
        assert not rt.redis.exists(f"rq:job:project-{gid}")
    finally:
        release(*claim)


def test_a_move_that_reveals_on_the_held_table_is_final_and_one_that_draws_is_too(
        rq_app, round_trips, monkeypatch):
    from events.store import EventStore
    from tests.platform_game import CountingRace
    compared = []  # the states the take-back check compared
    real = CountingRace.reveals

    def reveals(self, before, after, seat, move):
        compared.append((before["antes"], after["antes"]))
        return real(self, before, after, seat, move)

    monkeypatch.setattr(CountingRace, "reveals", reveals)
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    _, first = post_move(client, gid, tokens, seat=0)
    assert first().status_code == 201  # the first ante shows nothing: it may be taken back
    _, last = post_move(client, gid, tokens, seat=1)
    round_trips.clear()
    assert last().status_code == 201
    assert len(round_trips) == 1  # decided on the held table, its state before kept packed
    assert compared[-1][0][1] is None and compared[-1][1][1] is not None
    view, play = post_move(client, gid, tokens, seat=0)  # the turns begin with seat 0
    assert play().status_code == 201
    first_ante, last_ante, card = EventStore(rq_app.extensions["ravenpost"].redis).read(gid)[1:]
    assert first_ante.data["final"] is None
    assert last_ante.data["final"] == "it revealed every ante"
    assert card.tape and card.data["final"] == "it drew at random (cards, dice or a shuffle)"
    assert len(compared) == 2  # a move that drew needs no state from before it


def test_an_answer_that_fails_while_redis_takes_the_move_is_made_again_after_it(
        rq_app, round_trips, monkeypatch):
    from service import api
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    view, post = post_move(client, gid, tokens)
    real, calls = api._moved, []

    def moved(table, seat):
        calls.append(table.version)
        if len(calls) == 1:  # the one made while the append was on its way
            raise RuntimeError("a view that failed once")
        return real(table, seat)

    monkeypatch.setattr(api, "_moved", moved)
    round_trips.clear()
    reply = post()
    assert reply.status_code == 201 and reply.json["version"] == view["version"] + 1
    assert calls == [view["version"] + 1] * 2 and len(round_trips) == 1


def test_a_view_made_while_redis_answers_is_dropped_when_another_process_moved(
        rq_app, other_process, monkeypatch):
    from service import api
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    held = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    reply = other_process.test_client().post(  # the log moves on behind this process
        f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]),
        json={"move": held["legal_moves"][0], "expected_version": held["version"]})
    assert reply.status_code == 201
    made = []
    real = api.position_json
    monkeypatch.setattr(api, "position_json",
                        lambda table, seat: made.append(table.version) or real(table, seat))
    fresh = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    # made on the held table while the tail was read, then again on the latest one
    assert made == [held["version"], held["version"] + 1]
    assert fresh == other_process.test_client().get(
        f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    assert fresh["version"] == held["version"] + 1 and 0 not in fresh["to_act"]
    made.clear()
    again = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    assert made == [held["version"] + 1] and again == fresh  # made once: it was current


def test_the_next_movers_view_after_a_move_reads_the_table_the_move_made(
        rq_app, monkeypatch):
    from events import replay
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    view, move = post_move(client, gid, tokens)
    moved = move().json
    decoded = []
    real = replay.Table.from_json
    monkeypatch.setattr(replay.Table, "from_json",
                        staticmethod(lambda data: decoded.append(1) or real(data)))
    nxt = moved["to_act"][0]
    theirs = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[nxt])).json
    assert decoded == []  # the move's own table, not a decoded copy
    monkeypatch.setattr(replay.Table, "from_json", real)
    assert theirs["version"] == view["version"] + 1
    rq_app.extensions["ravenpost"].games.replayer._cache.clear()  # now folded afresh
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[nxt])).json == theirs


def test_a_move_after_that_view_plays_on_a_copy_and_leaves_the_shared_table_be(rq_app):
    import copy
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    moved = post_move(client, gid, tokens)[1]().json
    replayer = rq_app.extensions["ravenpost"].games.replayer
    shared = replayer._held(gid)[2]
    assert shared is not None and shared.version == moved["version"]
    state = copy.deepcopy(shared.state)
    nxt = moved["to_act"][0]
    view, move = post_move(client, gid, tokens, nxt)  # reads the shared table, then moves
    assert move().status_code == 201
    assert shared.version == moved["version"] and shared.state == state
    assert replayer._held(gid)[0] == moved["version"] + 1


def test_a_view_on_the_shared_table_after_another_process_moved_folds_a_copy(
        rq_app, other_process):
    import copy
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    moved = post_move(client, gid, tokens)[1]().json
    shared = rq_app.extensions["ravenpost"].games.replayer._held(gid)[2]
    state = copy.deepcopy(shared.state)
    nxt = moved["to_act"][0]
    view, move = post_move(other_process.test_client(), gid, tokens, nxt)
    assert move().status_code == 201  # the log moves on behind this process
    fresh = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[nxt])).json
    assert fresh["version"] == moved["version"] + 1
    assert fresh == other_process.test_client().get(
        f"/api/v1/games/{gid}", headers=bearer(tokens[nxt])).json
    assert shared.version == moved["version"] and shared.state == state


def test_a_view_takes_one_round_trip(rq_app, round_trips):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0]))
    round_trips.clear()
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).status_code == 200
    # the token's generation with the "seen" mark, the log's tail and the clocks
    assert len(round_trips) == 1


def test_a_view_marks_its_seat_seen_only_with_a_current_token(rq_app):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    seen = f"rp:{{g:{gid}}}:seen:0"
    current = client.post(f"/api/v1/games/{gid}/token", headers=bearer(tokens[0])).json["token"]
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).status_code == 401
    assert not rt.redis.exists(seen)  # a revoked token's look counts for nothing
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(current)).status_code == 200
    assert rt.redis.ttl(seen) > 0  # no reminder for who just looked, and it expires


def test_views_in_a_row_write_their_seat_seen_once_a_minute(rq_app, round_trips,
                                                             monkeypatch):
    from datetime import UTC, datetime, timedelta

    from worker import current, quiet
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    start = datetime(2026, 11, 30, 12, tzinfo=UTC)
    at = [start]
    monkeypatch.setattr(current, "now", lambda: at[0])
    seen = f"rp:{{g:{gid}}}:seen:0"

    def look() -> list[bytes]:
        round_trips.clear()
        assert client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).status_code == 200
        return commands(round_trips)

    assert any(b"seen:0" in c for c in look())
    assert rt.redis.get(seen) == f"{start.timestamp():.0f}"
    at[0] = start + timedelta(seconds=quiet.SEEN_REFRESH - 1)
    assert not any(b"seen:0" in c for c in look())  # a read only: nothing written
    assert rt.redis.get(seen) == f"{start.timestamp():.0f}"
    at[0] = start + timedelta(seconds=quiet.SEEN_REFRESH)
    assert any(b"seen:0" in c for c in look())
    assert rt.redis.get(seen) == f"{at[0].timestamp():.0f}"


@pytest.mark.parametrize("where", ["the process holds the table", "another process"])
def test_a_revoked_token_is_refused_on_the_very_next_request(rq_app, other_process, where):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    rt = rq_app.extensions["ravenpost"]
    view, _ = post_move(client, gid, tokens)  # this process now caches the table
    fresh = client.post(f"/api/v1/games/{gid}/token", headers=bearer(tokens[0])).json["token"]
    mover = (rq_app if where == "the process holds the table" else other_process).test_client()
    refused = mover.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]), json={
        "move": view["legal_moves"][0], "expected_version": view["version"]})
    assert refused.status_code == 401 and refused.json["error"] == "revoked"
    assert mover.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).status_code == 401
    assert rt.store.version(gid) == view["version"]  # nothing was appended
    assert mover.post(f"/api/v1/games/{gid}/moves", headers=bearer(fresh), json={
        "move": view["legal_moves"][0], "expected_version": view["version"]}).status_code == 201


def test_a_revoked_token_learns_nothing_of_the_rules_from_an_illegal_move(rq_app):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    view, _ = post_move(client, gid, tokens)
    client.post(f"/api/v1/games/{gid}/token", headers=bearer(tokens[0]))
    refused = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]), json={
        "move": {"type": "no-such-move"}, "expected_version": view["version"]})
    assert refused.status_code == 401  # not the rules' 422


def test_a_stale_expected_version_is_refused_though_the_process_holds_the_table(rq_app):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    view, post = post_move(client, gid, tokens)
    assert post().status_code == 201
    again = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]), json={
        "move": view["legal_moves"][0], "expected_version": view["version"]})
    assert again.status_code in (409, 422)  # a conflict, or no longer that seat's turn
    assert rq_app.extensions["ravenpost"].store.version(gid) == view["version"] + 1


def test_a_move_on_a_held_table_the_log_has_passed_is_decided_again_on_the_log(
        rq_app, other_process):
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    view, _ = post_move(client, gid, tokens)  # this process holds the table at view's version
    other = other_process.extensions["ravenpost"]
    other.games.record(gid, "AdminNote", {"text": "passive"}, actor="admin",
                       expected_version=view["version"])  # appended by another process
    reply = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]), json={
        "move": view["legal_moves"][0], "expected_version": view["version"]})
    assert reply.status_code == 201  # a passive event does not make the move stale
    assert reply.json["version"] == view["version"] + 2
    events = rq_app.extensions["ravenpost"].store.read(gid)
    assert [e.type for e in events[-2:]] == ["AdminNote", "MovePlayed"]
    assert events[-1].prev == events[-2].hash  # chained to the log, not to the held table


def test_the_201_answers_the_version_after_the_move_and_any_end_it_led_to(rq_app):
    client = rq_app.test_client()
    gid, tokens = new_game(client, {"target": 5})
    rt = rq_app.extensions["ravenpost"]
    for _ in range(50):  # bounded: a target of 5 ends within a few moves
        table = rt.games.load(gid)
        if table.ended:
            break
        seat = min(table.to_act())
        reply = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]), json={
            "move": table.game.legal_moves(table.state, seat)[0],
            "expected_version": table.version})
        assert reply.status_code == 201
        assert reply.json["version"] == rt.store.version(gid)
    assert rt.games.load(gid).ended
    assert rt.store.verify(gid)[0]
    assert rt.games.load(gid) == rt.replayer.load(gid, use_snapshot=False)


def test_a_process_reads_a_games_secret_once(rq_app, other_process, round_trips):
    gid, tokens = new_game(rq_app.test_client())
    client = other_process.test_client()  # it did not make the game: it must read it
    assert post_move(client, gid, tokens, 0)[1]().status_code == 201
    _, post = post_move(client, gid, tokens, 1)
    round_trips.clear()
    assert post().status_code == 201
    assert not any(b"secrets" in command for command in commands(round_trips))
    assert len(round_trips) == 1


def test_an_api_token_checked_once_still_expires_with_its_age(monkeypatch):
    import time

    from worker.links import LinkError, Links
    links = Links("a-secret-key", max_age=60, play_max_age=3600)
    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    token = links.make("g1", 0, "api")
    assert links.check(token, "api").seat == 0  # checked, and kept by the process
    now[0] += 3599
    assert links.check(token, "api").game_id == "g1"
    now[0] += 2
    with pytest.raises(LinkError):
        links.check(token, "api")


def test_api_answers_keep_every_security_header_talisman_gives_a_page(fake_redis):
    from service import create_app
    app = create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True,
                      "RAVENPOST_ENV": "production", "REDIS_URL": "redis://unused",
                      "SECRET_KEY": "a-long-random-production-secret-key-0123456789",
                      "ADMIN_TOKEN": "a-production-admin-token-of-32-chars-or-more"})
    client = app.test_client()
    page = client.get("/", base_url="https://ravenpost.example").headers
    for _ in range(2):  # the second answer is made from what the first worked out
        secure = client.get("/api/v1/kinds", base_url="https://ravenpost.example").headers
        assert secure["Strict-Transport-Security"] == page["Strict-Transport-Security"]
        for name in ("X-Frame-Options", "X-Content-Type-Options", "Referrer-Policy",
                     "Permissions-Policy", "Cache-Control"):
            assert secure[name] == page[name]
        assert "'nonce-" not in secure["Content-Security-Policy"]  # JSON runs no script
        assert "Set-Cookie" not in secure
    assert "Strict-Transport-Security" not in client.get("/api/v1/kinds").headers  # http


def test_a_server_that_refuses_the_scripted_append_gets_the_usual_one(rq_app, monkeypatch):
    from events import guarded
    monkeypatch.setattr(guarded, "_APPEND_IF", "this is not Lua")  # as if EVAL were refused
    client = rq_app.test_client()
    gid, tokens = new_game(client)
    view, post = post_move(client, gid, tokens)
    assert post().status_code == 201
    events = rq_app.extensions["ravenpost"].store.read(gid)
    assert len(events) == view["version"] + 1 and events[-1].prev == events[-2].hash


@pytest.mark.parametrize("after_snapshot", [0, 10, 63, 64, 65, 150])
def test_a_first_load_in_a_process_equals_a_fold_from_event_1(rq_app, after_snapshot):
    from events.replay import Replayer
    rt = rq_app.extensions["ravenpost"]
    gid = rt.games.create("test-race", PLAYERS, {"target": 100_000, "copies": 40}).game_id

    def play(moves: int) -> None:
        for _ in range(moves):
            table = rt.games.load(gid)
            seat = min(table.to_act())
            rt.games.play(gid, seat, table.game.legal_moves(table.state, seat)[0],
                          table.version)

    play(30)
    rt.replayer.write_snapshot(rt.games.load(gid))
    play(after_snapshot)
    fresh = Replayer(rt.store)  # a process that has loaded nothing yet
    table, replies, _ = fresh.load_along(gid, [("GET", f"rp:{{g:{gid}}}:settings")])
    assert table == Replayer(rt.store).load(gid, use_snapshot=False)
    assert replies == [rt.redis.get(f"rp:{{g:{gid}}}:settings")]
