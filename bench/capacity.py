"""What one game costs: Redis bytes, RQ bytes and CPU per move, archived or not, and what
that means for 10,000 and 1,000,000 slow games of which a tenth are in play
(docs/capacity.md).

Measured, in this process, on a real Redis database of this run's own (see common.py):

- **Redis bytes** (``MEMORY USAGE ... SAMPLES 0``) of every key of each finished game, by
  kind: the log (per event), the read models and snapshots (per game), the index entries;
  then the same game archived (``events/archive.py``, to a temporary directory): what
  stays in Redis, and the archive file's bytes;
- **web CPU per move** (``time.process_time``): what the JSON API does for one move, a GET
  of the mover's view and the POST of the move, through the Flask app in-process (no HTTP
  server, no network: gunicorn's own share is not in it);
- **worker CPU per move**: the ``project`` job run after each move (fold, read models,
  the turn email rendered and stored in the outbox), without RQ; and the email jobs'
  share apart, per turn email sent;
- **RQ per job**: the bytes a waiting job takes in the queue Redis, and the CPU of RQ's own
  bookkeeping around a job that does nothing (a ``SimpleWorker`` in burst mode).

Then derived (printed as such): Redis memory, archive storage, web and worker processes
for the given numbers of games, ``--active`` of them in play, at ``--turns-per-day``
turns per player per day (a turn: one turn email answered, which may take several API
moves: free actions, then the move that ends the turn).  A finished game stays in Redis
for ``ARCHIVE_AFTER_DAYS`` (7), then only its index entry does; the games not in play
are counted as archived.

    python bench/capacity.py [--players 3] [--games 1] [--seed 1] [--active 0.1]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable

from common import BENCH_SECRET, real_redis
from rq.utils import import_attribute

from events.archive import archive_game
from events.store import key
from service import create_app
from worker import jobs
from worker.queue import QUEUE_NAME, Enqueuer
from worker.runtime import set_runtime

KINDS = ["kings-guild", "architects", "feudum-guilds"]
SCALES = [10_000, 1_000_000]
KEPT_DAYS = 7  # ARCHIVE_AFTER_DAYS: a finished game stays in Redis this long
PEAK = 4  # busiest hour over the mean hour of a day (evenings): sizing is for the peak
CORE_SHARE = 0.5  # plan each process for half a core busy, so queues stay short


class Recorder:
    """Stands in for the enqueuer: the web's projection requests are run by hand, so
    that the worker's CPU is measured apart from the web's."""

    def __init__(self) -> None:
        self.asked: list[tuple[Callable[[str], object], str, str]] = []

    def coalesced_command(self, *_args, **_kwargs) -> None:
        return None  # nothing is put in the move's round trip: enqueue_coalesced records

    def enqueue_coalesced(self, func, game_id, job_id: str = "", **_ids) -> None:
        self.asked.append((func, game_id, job_id))  # a projection, or its email job

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
    # addresses of this game's own: a stranger gets only 3 invitations a day (consent.py)
    tag = rng.randrange(10**9)
    people = [{"name": f"P{s}", "email": f"p{s}.{tag}@example.com"} for s in range(players)]
    web = worker = mail = 0.0
    started = time.process_time()
    created = http.post("/api/v1/games", json={"game": kind, "players": people,
                                               "options": {}}, headers=admin).get_json()
    web += time.process_time() - started
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    moves = 0
    while True:
        while recorder.asked:  # the projection, then the email job it enqueued
            job, game_id, job_id = recorder.asked.pop(0)
            if isinstance(job, str):  # a dotted name, as RQ would import it
                job = import_attribute(job)
            started = time.process_time()
            job(game_id)
            spent = time.process_time() - started
            worker += spent
            if job_id.startswith("mail:"):  # the email job (worker.jobs.send_pending)
                mail += spent
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
    done = archive_game(rt.store, rt.archives, gid)
    assert done is not None, gid
    kept = sum(memory(client, name) for name in client.scan_iter(f"rp:{{g:{gid}}}:*"))
    return {"kind": kind, "moves": moves, "turns": turns, "events": events,
            "log_bytes": sizes[log],
            "other_bytes": sum(sizes.values()) - sizes[log], "keys": len(sizes),
            "archived_bytes": kept, "file_bytes": done.file_bytes,
            "web_cpu": web, "worker_cpu": worker, "mail_cpu": mail, "game_id": gid}


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
    parser.add_argument("--active", type=float, default=0.1,
                        help="the share of all games that are in play")
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
        app.extensions["ravenpost"].archives.url = tempfile.mkdtemp(prefix="rp-capacity-")
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
          f"{'models KB':>10}{'game KB':>9}{'archived B':>11}{'file KB':>9}"
          f"{'web ms/move':>12}{'worker ms/move':>15}{'ms/email':>9}")
    totals: dict[str, float] = defaultdict(float)
    for kind, rows in by_kind.items():
        t = {name: sum(r[name] for r in rows) for name in (
            "moves", "turns", "events", "log_bytes", "other_bytes", "archived_bytes",
            "file_bytes", "web_cpu", "worker_cpu", "mail_cpu")}
        n = len(rows)
        print(f"{kind:<15}{t['turns'] / n:>6.0f}{t['moves'] / n:>7.0f}{t['events'] / n:>8.0f}"
              f"{t['log_bytes'] / t['events']:>9.0f}{t['log_bytes'] / n / 1024:>8.0f}"
              f"{t['other_bytes'] / n / 1024:>10.0f}"
              f"{(t['log_bytes'] + t['other_bytes']) / n / 1024:>9.0f}"
              f"{t['archived_bytes'] / n:>11.0f}{t['file_bytes'] / n / 1024:>9.1f}"
              f"{1000 * t['web_cpu'] / t['moves']:>12.2f}"
              f"{1000 * t['worker_cpu'] / t['moves']:>15.2f}"
              f"{1000 * t['mail_cpu'] / max(1, t['turns']):>9.2f}")
        for name, value in t.items():
            totals[name] += value
        totals["games"] += n
    games_n = totals["games"]
    per_game = (totals["log_bytes"] + totals["other_bytes"]) / games_n
    per_event = per_game / (totals["events"] / games_n)
    archived_game = totals["archived_bytes"] / games_n
    file_game = totals["file_bytes"] / games_n
    web_move = totals["web_cpu"] / totals["moves"]
    worker_move = totals["worker_cpu"] / totals["moves"] + rq_cpu
    mail_turn = totals["mail_cpu"] / max(1, totals["turns"])
    moves_per_game = totals["moves"] / games_n
    turns_per_game = totals["turns"] / games_n
    print(f"index entries (rp:games + rp:lobby) per game: {index_bytes:.0f} B")
    print(f"RQ: {job_bytes:.0f} B per waiting job (gone when done: result_ttl 0), "
          f"{1000 * rq_cpu:.2f} ms of RQ's own CPU per job")
    print(f"mean over the kinds: {per_game / 1024:.0f} KB per finished game in Redis, "
          f"{per_event:.0f} B per event all keys included; archived: {archived_game:.0f} B "
          f"left in Redis and a {file_game / 1024:.1f} KB file; {turns_per_game:.0f} turns "
          f"(turn emails) and {moves_per_game:.0f} API moves per game; web "
          f"{1000 * web_move:.2f} ms, worker {1000 * worker_move:.2f} ms (RQ included) CPU "
          f"per move, of which the email jobs {1000 * mail_turn:.2f} ms per turn email")

    per_turn = moves_per_game / turns_per_game
    print(f"\nDERIVED ({args.active:.0%} of the games in play, {args.turns_per_day:g} turn per "
          f"player per day, {args.players} players, {per_turn:.1f} API moves per turn as "
          f"measured, the busiest hour {PEAK}x the mean, each process planned at "
          f"{CORE_SHARE:.0%} of a core, a finished game kept in Redis {KEPT_DAYS} days)")
    derived = []
    for games_count in SCALES:
        active = games_count * args.active
        moves_s = active * args.players * args.turns_per_day * per_turn / 86400
        peak = moves_s * PEAK
        days = turns_per_game / (args.players * args.turns_per_day)
        recent = active / days * KEPT_DAYS  # finished in the last week: not archived yet
        at_rest = games_count - active - recent
        # every game in play planned at its final size (on average it is half-way)
        redis_b = (active + recent) * (per_game + index_bytes) + \
            at_rest * (archived_game + index_bytes)
        archive_b = at_rest * file_game
        web_procs = max(1, -(-peak * web_move // CORE_SHARE))
        worker_procs = max(1, -(-peak * worker_move // CORE_SHARE))
        queue_b = peak * 60 * job_bytes  # a minute of backlog at the peak
        mails = active * args.players * args.turns_per_day / 86400 * PEAK
        mail_workers = max(1, -(-mails * args.mail_seconds // 1))
        row = {"games": games_count, "active": round(active), "recently_ended": round(recent),
               "archived": round(at_rest), "moves_s_mean": round(moves_s, 2),
               "moves_s_peak": round(peak, 2), "redis_gib": round(redis_b / 2**30, 2),
               "archive_gib": round(archive_b / 2**30, 2),
               "web_cores_peak": round(peak * web_move, 3), "web_processes": web_procs,
               "worker_cores_peak": round(peak * worker_move, 3),
               "worker_processes_cpu": worker_procs, "emails_s_peak": round(mails, 1),
               "worker_processes_mail": mail_workers, "queue_mib": round(queue_b / 2**20, 1)}
        derived.append(row)
        print(f"{games_count:>9,} games ({active:,.0f} in play, {recent:,.0f} ended this "
              f"week, {at_rest:,.0f} archived): {moves_s:.1f} moves/s mean, {peak:.1f} at "
              f"the peak; a game lasts ~{days:.0f} days; Redis {redis_b / 2**30:.2f} GiB, "
              f"archive {archive_b / 2**30:.2f} GiB; web {peak * web_move:.2f} cores -> "
              f"{web_procs:.0f} process(es); worker {peak * worker_move:.2f} cores -> "
              f"{worker_procs:.0f} process(es) for the CPU, but {mails:.1f} turn emails/s at "
              f"the peak x {args.mail_seconds:g} s each -> {mail_workers:.0f} worker "
              f"process(es) waiting on the mail provider; queue Redis {queue_b / 2**20:.1f} "
              "MiB for a minute of backlog")
    print(json.dumps({"per_game_bytes": round(per_game), "per_event_bytes": round(per_event),
                      "archived_redis_bytes": round(archived_game),
                      "archive_file_bytes": round(file_game),
                      "web_ms_per_move": round(1000 * web_move, 3),
                      "worker_ms_per_move": round(1000 * worker_move, 3),
                      "email_job_ms_per_turn_email": round(1000 * mail_turn, 3),
                      "rq_bytes_per_job": round(job_bytes), "moves_per_game":
                      round(moves_per_game), "turns_per_game": round(turns_per_game),
                      "derived": derived}))


if __name__ == "__main__":
    main()
