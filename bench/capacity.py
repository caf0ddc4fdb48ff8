"""What one game costs: Redis bytes, RQ bytes and CPU per move, and what that means for
10,000 and 1,000,000 concurrent slow games (README, "Capacity").

Measured, in this process, on a real Redis database of this run's own (see common.py):

- **Redis bytes** (``MEMORY USAGE ... SAMPLES 0``) of every key of each finished game, by
  kind: the log (per event), the read models and snapshots (per game), the index entries;
- **web CPU per move** (``time.process_time``): what the JSON API does for one move, a GET
  of the mover's view and the POST of the move, through the Flask app in-process (no HTTP
  server, no network: gunicorn's own share is not in it);
- **worker CPU per move**: the ``project`` job run after each move (fold, read models,
  the turn email rendered and stored in the outbox), without RQ;
- **RQ per job**: the bytes a waiting job takes in the queue Redis, and the CPU of RQ's own
  bookkeeping around a job that does nothing (a ``SimpleWorker`` in burst mode).

Then derived (printed as such): Redis memory, web and worker processes for the given
numbers of concurrent games at ``--turns-per-day`` turns per player per day (a turn: one
turn email answered, which may take several API moves: free actions, then the move that
ends the turn).

    python bench/capacity.py [--players 3] [--games 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import defaultdict
from collections.abc import Callable

from common import BENCH_SECRET, real_redis

from events.store import key
from service import create_app
from worker import jobs
from worker.queue import QUEUE_NAME, Enqueuer
from worker.runtime import set_runtime

KINDS = ["kings-guild", "architects", "feudum-guilds"]
SCALES = [10_000, 1_000_000]
PEAK = 4  # busiest hour over the mean hour of a day (evenings): sizing is for the peak
CORE_SHARE = 0.5  # plan each process for half a core busy, so queues stay short


class Recorder:
    """Stands in for the enqueuer: the web's projection requests are run by hand, so
    that the worker's CPU is measured apart from the web's."""

    def __init__(self) -> None:
        self.asked: list[tuple[Callable[[str], object], str]] = []

    def coalesced_command(self, *_args, **_kwargs) -> None:
        return None  # nothing is put in the move's round trip: enqueue_coalesced records

    def enqueue_coalesced(self, func, game_id, **_ids) -> None:
        self.asked.append((func, game_id))  # a projection, or the email job it asks for

    def enqueue(self, func, *args, job_id, delay=None) -> None:
        pass  # deadlines: none in these games


def memory(client, name: str) -> int:
    return int(client.memory_usage(name, samples=0) or 0)


def play_one(app, client, kind: str, players: int, rng: random.Random) -> dict:
    """One whole game through the API (view + move), the worker's job after each move."""
    rt = app.extensions["ravenpost"]
    recorder = Recorder()
    rt.enqueuer = recorder
    http = app.test_client()
    admin = {"Authorization": "Bearer " + app.config["ADMIN_TOKEN"]}
    people = [{"name": f"P{s}", "email": f"p{s}@example.com"} for s in range(players)]
    web = worker = 0.0
    started = time.process_time()
    created = http.post("/api/v1/games", json={"game": kind, "players": people,
                                               "options": {}}, headers=admin).get_json()
    web += time.process_time() - started
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    moves = 0
    while True:
        while recorder.asked:  # the projection, then the email job it enqueued
            job, game_id = recorder.asked.pop(0)
            started = time.process_time()
            job(game_id)
            worker += time.process_time() - started
        started = time.process_time()
        view = http.get(f"/api/v1/games/{gid}",
                        headers={"Authorization": f"Bearer {tokens[0]}"}).get_json()
        if view["outcome"] is not None:
            web += time.process_time() - started
            break
        seat = rng.choice(view["to_act"])
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = view if seat == 0 else http.get(f"/api/v1/games/{gid}", headers=auth).get_json()
        reply = http.post(f"/api/v1/games/{gid}/moves", headers=auth, json={
            "move": rng.choice(mine["legal_moves"]), "expected_version": mine["version"]})
        web += time.process_time() - started
        assert reply.status_code == 201, reply.get_json()
        moves += 1
    log = key(gid, "log")
    sizes = {name: memory(client, name) for name in client.scan_iter(f"rp:{{g:{gid}}}:*")}
    events = client.xlen(log)
    turns = sum(1 for _ in client.scan_iter(f"rp:outbox:key:turn:{gid}:*"))
    return {"kind": kind, "moves": moves, "turns": turns, "events": events,
            "log_bytes": sizes[log],
            "other_bytes": sum(sizes.values()) - sizes[log], "keys": len(sizes),
            "web_cpu": web, "worker_cpu": worker, "game_id": gid}


def rq_figures(client_url: str, jobs_count: int = 200) -> tuple[float, float]:
    """(bytes per waiting job, RQ's CPU seconds per job) on the queue Redis."""
    import redis
    from rq import Queue, SimpleWorker
    rq_redis = redis.Redis.from_url(client_url)
    enqueuer = Enqueuer(rq_redis)
    before = sum(memory(rq_redis, k) for k in rq_redis.scan_iter("rq:*"))
    for i in range(jobs_count):  # jobs for no game: each finds nothing to do
        enqueuer.enqueue(jobs.notify_end, f"nogame{i}", 0, job_id=f"capacity:{i}")
    after = sum(memory(rq_redis, k) for k in rq_redis.scan_iter("rq:*"))
    worker = SimpleWorker([Queue(QUEUE_NAME, connection=rq_redis)], connection=rq_redis)
    started = time.process_time()
    worker.work(burst=True, with_scheduler=False, logging_level="WARNING")
    cpu = time.process_time() - started
    return (after - before) / jobs_count, cpu / jobs_count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=1, help="games per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turns-per-day", type=float, default=1.0,
                        help="turns (emails answered) per player per day: a slow game")
    parser.add_argument("--mail-seconds", type=float, default=0.2,
                        help="an ASSUMED provider call per email (not measured: the outbox "
                             "here is local); a worker sends one email at a time")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with real_redis() as (client, url):
        app = create_app({"REDIS_CLIENT": client, "RUN_JOBS_INLINE": True, "TESTING": True,
                          "SECRET_KEY": BENCH_SECRET, "ADMIN_TOKEN": "a" * 40,
                          "RATELIMIT_ENABLED": False, "MAIL_BACKEND": "outbox",
                          "BASE_URL": "http://localhost", "QUIET_HOURS": "off"})
        set_runtime(app.extensions["ravenpost"])
        games = [play_one(app, client, kind, args.players, rng)
                 for kind in KINDS for _ in range(args.games)]
        index_bytes = sum(memory(client, k) for pattern in ("rp:games*", "rp:lobby*")
                          for k in client.scan_iter(pattern)) / len(games)
        job_bytes, rq_cpu = rq_figures(url)

    by_kind: dict[str, list[dict]] = defaultdict(list)
    for g in games:
        by_kind[g["kind"]].append(g)
    print(f"MEASURED ({args.players} players, {args.games} game(s) per kind, one process, "
          "Redis MEMORY USAGE, time.process_time)")
    print(f"{'kind':<15}{'turns':>6}{'moves':>7}{'events':>8}{'B/event':>9}{'log KB':>8}"
          f"{'models KB':>10}{'game KB':>9}{'web ms/move':>12}{'worker ms/move':>15}")
    totals = defaultdict(float)
    for kind, rows in by_kind.items():
        moves = sum(r["moves"] for r in rows)
        turns = sum(r["turns"] for r in rows)
        events = sum(r["events"] for r in rows)
        log_b = sum(r["log_bytes"] for r in rows)
        other_b = sum(r["other_bytes"] for r in rows)
        web = sum(r["web_cpu"] for r in rows)
        worker = sum(r["worker_cpu"] for r in rows)
        n = len(rows)
        print(f"{kind:<15}{turns / n:>6.0f}{moves / n:>7.0f}{events / n:>8.0f}"
              f"{log_b / events:>9.0f}{log_b / len(rows) / 1024:>8.0f}"
              f"{other_b / len(rows) / 1024:>10.0f}{(log_b + other_b) / len(rows) / 1024:>9.0f}"
              f"{1000 * web / moves:>12.2f}{1000 * worker / moves:>15.2f}")
        for name, value in (("moves", moves), ("turns", turns), ("events", events),
                            ("bytes", log_b + other_b), ("web", web), ("worker", worker),
                            ("games", n)):
            totals[name] += value
    per_game = totals["bytes"] / totals["games"]
    per_event = per_game / (totals["events"] / totals["games"])
    web_move = totals["web"] / totals["moves"]
    worker_move = totals["worker"] / totals["moves"] + rq_cpu
    moves_per_game = totals["moves"] / totals["games"]
    turns_per_game = totals["turns"] / totals["games"]
    print(f"index entries (rp:games + rp:lobby) per game: {index_bytes:.0f} B")
    print(f"RQ: {job_bytes:.0f} B per waiting job (gone when done: result_ttl 0), "
          f"{1000 * rq_cpu:.2f} ms of RQ's own CPU per job")
    print(f"mean over the kinds: {per_game / 1024:.0f} KB per finished game, "
          f"{per_event:.0f} B per event all keys included, {turns_per_game:.0f} turns "
          f"(turn emails) and {moves_per_game:.0f} API moves per game; web "
          f"{1000 * web_move:.2f} ms, worker {1000 * worker_move:.2f} ms "
          "(RQ included) CPU per move")

    per_turn = moves_per_game / turns_per_game
    print(f"\nDERIVED ({args.turns_per_day:g} turn per player per day, {args.players} players, "
          f"{per_turn:.1f} API moves per turn as measured, the busiest hour {PEAK}x the "
          f"mean, each process planned at {CORE_SHARE:.0%} of a core)")
    for games_count in SCALES:
        moves_s = games_count * args.players * args.turns_per_day * per_turn / 86400
        peak = moves_s * PEAK
        days = turns_per_game / (args.players * args.turns_per_day)
        # every game in play planned at its final size (on average it is half-way)
        ram = games_count * (per_game + index_bytes)
        growth = games_count / days * (per_game + index_bytes)  # finished games are kept
        web_procs = max(1, -(-peak * web_move // CORE_SHARE))
        worker_procs = max(1, -(-peak * worker_move // CORE_SHARE))
        queue_b = peak * 60 * job_bytes  # a minute of backlog at the peak
        mails = games_count * args.players * args.turns_per_day / 86400 * PEAK
        mail_workers = max(1, -(-mails * args.mail_seconds // 1))
        print(f"{games_count:>9,} games: {moves_s:.1f} moves/s mean, {peak:.1f} at the "
              f"peak; a game lasts ~{days:.0f} days; Redis {ram / 2**30:.1f} GiB for the "
              f"games in play, +{growth / 2**30:.2f} GiB a day of finished games kept; web "
              f"{peak * web_move:.2f} cores -> {web_procs:.0f} process(es); worker "
              f"{peak * worker_move:.2f} cores -> {worker_procs:.0f} process(es) for the CPU, "
              f"but {mails:.1f} turn emails/s at the peak x {args.mail_seconds:g} s each -> "
              f"{mail_workers:.0f} worker process(es) waiting on the mail provider; queue "
              f"Redis {queue_b / 2**20:.1f} MiB for a minute of backlog")
    print(json.dumps({"per_game_bytes": round(per_game), "per_event_bytes": round(per_event),
                      "web_ms_per_move": round(1000 * web_move, 3),
                      "worker_ms_per_move": round(1000 * worker_move, 3),
                      "rq_bytes_per_job": round(job_bytes), "moves_per_game":
                      round(moves_per_game), "turns_per_game": round(turns_per_game)}))


if __name__ == "__main__":
    main()
