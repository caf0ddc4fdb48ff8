"""Does the worker keep up with the web?  Unpaced clients over many games, production shape.

The Procfile's processes on a real Redis database of this run's own: gunicorn (gthread,
``WEB_CONCURRENCY`` processes) and ``--workers`` ``ravenpost worker`` processes with the
outbox mail backend.  ``--clients`` threads play ``--games`` games of the test game over
the JSON API as fast as they can for ``--seconds`` (each game belongs to one client: a
GET of the mover's view, then the POST of a random legal move).  Printed:

- moves/s accepted (201);
- projection lag: from a move's 201 to the first time its game's ``projected`` read
  model shows it (polled every few milliseconds), p50 and p99;
- drain: from the end of the load until the queue is empty, every game projected and
  every pending email sent (bounded by ``--drain-limit``);
- emails/s during the load, and emails per move (an unpaced bot often moves before its
  email job runs: that email is then skipped as out of date, by design), and the turn
  notices settled per second (mailed, or found out of date), the worker's real pace;
- RQ's records (``rq:*`` keys) at the end of the load and after the drain, per move.

With ``--wait-for-email`` the clients are players who wait for their email: a client
moves in a game only once the game is projected up to the move's version and every email
that projection called for has gone out (the game's pending notices are none), as a
person clicking the link in their email would, going on meanwhile with its other games.
Every turn is then emailed, picture and all, and printed are also the email latency
(from the 201 of the move that began a turn to its email sent), p50 and p99, and
emails per move.

The reference, in the same run: the same load with RQ's forking worker
(``RAVENPOST_WORKER_CLASS=forking``, a fork per job), printed as ratios.  Quiet hours are
off in every benchmark (``bench/common.py``: a turn email at night would wait for the
morning).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import threading
import time
from dataclasses import dataclass, field

from common import BENCH_ADMIN, production, real_redis

from tests.redis_claim import CLAIM
from worker.projection import superseded_total

PLAYERS = [{"name": "Ada", "email": "ada@example.com"}, {"name": "Bo", "email": "bo@example.com"}]


class Api:
    """One keep-alive HTTP connection (one per client thread), opened anew after it sat
    idle longer than the server keeps one (gunicorn's ``--keep-alive``, 2 s)."""

    IDLE = 1.5  # seconds

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.used = time.monotonic()

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if time.monotonic() - self.used > self.IDLE:
            self.conn.close()  # the server may have closed it: the next request reconnects
        self.used = time.monotonic()
        self.conn.request(method, path, None if body is None else json.dumps(body), headers)
        reply = self.conn.getresponse()
        data = reply.read()
        return reply.status, (json.loads(data) if data else None)


@dataclass
class Run:
    games: list[tuple[str, list[str]]]
    accepted: dict[str, dict[int, float]] = field(default_factory=dict)  # game -> v -> 201 at
    seen: dict[str, dict[int, float]] = field(default_factory=dict)  # game -> v -> projected at
    mailed: dict[str, dict[int, float]] = field(default_factory=dict)  # -> v -> emails out at
    conflicts: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def client(base: str, run: Run, mine: list[tuple[str, list[str]]], stop: threading.Event,
           seed: int, wait_for_email: bool = False) -> None:
    api, chooser = Api(base), random.Random(seed)
    guess = {gid: 0 for gid, _ in mine}  # the seat we expect to move next
    version = {gid: 1 for gid, _ in mine}  # the version our last move left (1: created)
    while not stop.is_set():
        moved = False
        for gid, tokens in mine:
            if stop.is_set():
                return
            if wait_for_email and version[gid] not in run.mailed[gid]:
                continue  # the email of this turn has not come yet: another game first
            moved = True
            status, seen = api.call("GET", f"/api/v1/games/{gid}", token=tokens[guess[gid]])
            if not seen["legal_moves"]:
                seat = seen["to_act"][0]
                status, seen = api.call("GET", f"/api/v1/games/{gid}", token=tokens[seat])
            seat = seen["seat"]
            status, reply = api.call("POST", f"/api/v1/games/{gid}/moves", {
                "move": chooser.choice(seen["legal_moves"]),
                "expected_version": seen["version"]}, tokens[seat])
            at = time.monotonic()
            with run.lock:
                if status == 201:
                    run.accepted[gid][reply["version"]] = at
                    version[gid] = reply["version"]
                else:
                    run.conflicts += 1
            guess[gid] = (seat + 1) % len(tokens)
        if not moved:
            time.sleep(0.002)


def watch(redis_client, run: Run, stop: threading.Event, samples: list[int]) -> None:
    """Note when each version of each game is first seen projected, and the queue length."""
    last = {gid: 0 for gid, _ in run.games}
    mailed = {gid: 0 for gid, _ in run.games}
    while not stop.is_set():
        pipe = redis_client.pipeline(transaction=False)
        for gid, _ in run.games:
            pipe.get(f"rp:{{g:{gid}}}:projected")
            pipe.hlen(f"rp:{{g:{gid}}}:pending")
        pipe.llen("rq:queue:ravenpost")
        pipe.llen("rq:queue:ravenpost-mail")
        *values, queue_length, mail_length = pipe.execute()
        queue_length += mail_length
        now = time.monotonic()
        samples.append(queue_length)
        for i, (gid, _) in enumerate(run.games):
            projected, pending = int(values[2 * i] or 0), values[2 * i + 1]
            if projected > last[gid]:
                for version in range(last[gid] + 1, projected + 1):
                    run.seen[gid][version] = now
                last[gid] = projected
            if not pending and projected > mailed[gid]:
                for version in range(mailed[gid] + 1, projected + 1):
                    run.mailed[gid][version] = now
                mailed[gid] = projected
        time.sleep(0.005)


def rq_bytes(redis_client) -> int:
    return sum(redis_client.memory_usage(k) or 0 for k in redis_client.scan_iter("rq:*", 1000))


def drained(redis_client, run: Run) -> bool:
    """Nothing queued or running, every game projected, every notice settled."""
    for queue in ("ravenpost", "ravenpost-mail"):
        if redis_client.llen(f"rq:queue:{queue}") or redis_client.zcard(f"rq:wip:{queue}"):
            return False
    pipe = redis_client.pipeline(transaction=False)
    for gid, _ in run.games:
        pipe.get(f"rp:{{g:{gid}}}:projected")
        pipe.xrevrange(f"rp:{{g:{gid}}}:log", count=1)
        pipe.hlen(f"rp:{{g:{gid}}}:pending")
    values = pipe.execute()
    return all(int(values[i] or 0) == int(values[i + 1][0][0].split("-")[1])
               and not values[i + 2] for i in range(0, len(values), 3))


def emails(redis_client) -> int:
    """Emails the outbox stored so far (its sequence: the outbox keeps only the last 1,000)."""
    return int(redis_client.get("rp:outbox:seq") or 0)


def settled_notices(redis_client) -> int:
    """Turn notices the worker has settled: mailed, or found out of date (the player
    had moved on before the email job ran, so there was nothing to say), whether when
    the email was about to be built or already when the turn was projected (the
    projection's counter: such a notice gets no marker)."""
    return (sum(1 for _ in redis_client.scan_iter("*:mailed:turn:*", 1000))
            + superseded_total(redis_client))


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


def load(url: str, redis_client, args, label: str, **env: str) -> dict[str, float]:
    with production(url, workers=args.workers, **env) as base:
        api = Api(base)
        games = []
        for _ in range(args.games):
            status, created = api.call("POST", "/api/v1/games", {
                "game": "test-race", "players": PLAYERS,
                "options": {"target": 100_000, "copies": 500}}, BENCH_ADMIN)
            assert status == 201, created
            games.append((created["id"], [s["token"] for s in created["seats"]]))
        run = Run(games, {g: {} for g, _ in games}, {g: {} for g, _ in games},
                  {g: {} for g, _ in games})
        wait_until(lambda: drained(redis_client, run), args.drain_limit)  # the invitations
        emails_before = emails(redis_client)
        notices_before = settled_notices(redis_client)
        stop_clients, stop_watch, samples = threading.Event(), threading.Event(), []
        watcher = threading.Thread(target=watch, args=(redis_client, run, stop_watch, samples))
        watcher.start()
        threads = [threading.Thread(target=client, args=(
            base, run, games[i::args.clients], stop_clients, i, args.wait_for_email))
            for i in range(args.clients)]
        started = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(args.seconds)
        stop_clients.set()
        for t in threads:
            t.join(60)
        stopped = time.monotonic()
        emails_during = emails(redis_client) - emails_before
        notices_during = settled_notices(redis_client) - notices_before
        rq_at_stop = rq_bytes(redis_client)
        drain = wait_until(lambda: drained(redis_client, run), args.drain_limit)
        drain = float("inf") if drain is None else drain
        stop_watch.set()
        watcher.join(10)
        emails_total = emails(redis_client) - emails_before
        rq_after = rq_bytes(redis_client)
    moves = sum(len(v) for v in run.accepted.values())
    lags = [run.seen[g][v] - at if v in run.seen[g] else float("inf")
            for g, versions in run.accepted.items() for v, at in versions.items()]
    lags = [max(0.0, lag) for lag in lags]
    # a turn's email: from the 201 of the move that began it to every email of that
    # projection sent (the game's last move of the run may still be on its way)
    latencies = [max(0.0, run.mailed[g][v] - at) for g, versions in run.accepted.items()
                 for v, at in versions.items() if v in run.mailed[g]]
    seconds = stopped - started
    figures = {"moves/s": moves / seconds, "lag p50 s": percentile(lags, 50),
               "lag p99 s": percentile(lags, 99), "drain s": drain,
               "emails/s": emails_during / seconds, "emails/move": emails_total / moves,
               "notices settled/s": notices_during / seconds,
               **({"email p50 s": percentile(latencies, 50),
                   "email p99 s": percentile(latencies, 99)} if args.wait_for_email else {}),
               "RQ B/move at stop": rq_at_stop / moves, "RQ B/move after": rq_after / moves,
               "max queued jobs": max(samples or [0])}
    print(f"{label}: {moves} moves in {seconds:.1f} s ({run.conflicts} refused), "
          f"queue at most {figures['max queued jobs']} jobs, median "
          f"{statistics.median(samples or [0]):.0f}")
    for name, value in figures.items():
        print(f"  {name:<18} {value:10.3f}")
    return figures


def wait_until(predicate, limit: float) -> float | None:
    """Seconds until ``predicate()`` holds (polled), or None after ``limit`` seconds."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if predicate():
            return time.monotonic() - start
        time.sleep(0.05)
    return None


def empty(redis_client) -> None:
    keys = [k for k in redis_client.scan_iter(count=1000) if k != CLAIM]
    for i in range(0, len(keys), 500):
        redis_client.delete(*keys[i:i + 500])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2, help="ravenpost worker processes")
    parser.add_argument("--drain-limit", type=float, default=60)
    parser.add_argument("--no-reference", action="store_true")
    parser.add_argument("--wait-for-email", action="store_true",
                        help="clients move only once their turn's email has gone out")
    args = parser.parse_args()
    with real_redis() as (client, url):
        print(f"redis: {url}; {args.clients} clients, {args.games} games, {args.seconds:.0f} s, "
              f"{args.workers} workers"
              + ("; clients wait for their email" if args.wait_for_email else ""))
        ours = load(url, client, args, "coalesced projection, in-process worker")
        if args.no_reference:
            return
        empty(client)
        ref = load(url, client, args, "reference: RQ's forking worker",
                   RAVENPOST_WORKER_CLASS="forking")
        print("ratios (ours / reference):")
        for name in ("moves/s", "lag p50 s", "lag p99 s", "drain s", "emails/s",
                     "notices settled/s", *(("email p50 s", "email p99 s")
                                            if args.wait_for_email else ())):
            ratio = ours[name] / ref[name] if ref[name] not in (0, float("inf")) else 0.0
            print(f"  {name:<18} {ratio:10.3f}")


if __name__ == "__main__":
    main()
