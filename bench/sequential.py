"""A move as one cheap request: sequential moves against a bare Flask route, same gunicorn.

One client plays one 2-player game of the test game over the JSON API, as boardgame.io's
clients do: the POST of a move (its 201 carries the mover's new view), then the next
mover's GET of their view, then that player's POST, and so on: moves per second.  The
reference, measured in the same run and alternated with it (``--rounds``): requests per
second of the smallest Flask JSON route (``bench/bare_flask.py``) on the same gunicorn
command line as the Procfile's web process, from the same kind of client (one keep-alive
connection).  The goal (issue 12) is moves/s ≥ 25 % of the bare route's requests/s.
Printed too, alternated with both: the floor, pairs of requests to the same bare app's
``/ping-redis`` (the route after one Redis PING), the most a move pair could reach that
makes one Redis round trip per request, as ours do; what is between it and the moves is
the moves' own work (a PING writes nothing: under ``--durable`` the floor waits for no
disk).

``--boardgameio`` adds boardgame.io 0.50.2's server with two socket.io clients playing a
game of the same shape, installed with npm into a temporary directory (a reference only:
it needs node and the npm registry, and is never run in CI).  ``--durable`` runs both on a
Redis that fsyncs every write (``appendfsync always``, as ``ravenpost serve`` and the
README's production advice have it), where a move's writes sharing one round trip
matters most.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import BENCH_ADMIN, ROOT, free_port, procfile_command, production, real_redis
from worker_load import Api

PLAYERS = [{"name": "Ada", "email": "ada@example.com"}, {"name": "Bo", "email": "bo@example.com"}]
HERE = Path(__file__).resolve().parent


def new_game(api: Api) -> tuple[str, list[str], int, dict]:
    """A long 2-player game: its id, tokens, the seat to act and that seat's view."""
    status, created = api.call("POST", "/api/v1/games", {
        "game": "test-race", "players": PLAYERS,
        "options": {"target": 100_000, "copies": 500}}, BENCH_ADMIN)
    assert status == 201, created
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]
    status, view = api.call("GET", f"/api/v1/games/{gid}", token=tokens[0])
    seat = view["to_act"][0]
    if seat != 0:
        status, view = api.call("GET", f"/api/v1/games/{gid}", token=tokens[seat])
    return gid, tokens, seat, view


def moves_per_second(base: str, seconds: float) -> float:
    """Sequential moves (POST, then the next mover's GET) for ``seconds``."""
    api = Api(base)
    gid, tokens, seat, view = new_game(api)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        status, reply = api.call("POST", f"/api/v1/games/{gid}/moves", {
            "move": view["legal_moves"][0], "expected_version": view["version"]}, tokens[seat])
        assert status == 201, reply
        done += 1
        if reply.get("outcome") is not None or not reply["to_act"]:
            gid, tokens, seat, view = new_game(api)  # not timed: rare, outside the loop's aim
            continue
        seat = reply["to_act"][0]
        status, view = api.call("GET", f"/api/v1/games/{gid}", token=tokens[seat])
        assert status == 200, view
    return done / (time.perf_counter() - start)


def requests_per_second(base: str, seconds: float, path: str = "/ping", per: int = 1) -> float:
    """Requests of ``path`` per second (``per``: requests counted as one, as a move's
    two)."""
    api = Api(base)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        status, _ = api.call("GET", path)
        assert status == 200
        done += 1
    return done / per / (time.perf_counter() - start)


class BareFlask:
    """The Procfile's gunicorn command line serving ``bare_flask:create_app()``."""

    def __init__(self, redis_url: str | None = None) -> None:
        self.redis_url = redis_url

    def __enter__(self) -> str:
        port = free_port()
        env = dict(os.environ, PORT=str(port), PYTHONPATH=str(HERE))
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        argv = procfile_command("web", env)
        argv[-1] = "bare_flask:create_app()"
        self.proc = subprocess.Popen(argv, env=env, cwd=HERE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, start_new_session=True)
        base = f"http://127.0.0.1:{port}"
        _wait_for(f"{base}/ping", self.proc)
        return base

    def __exit__(self, *_exc) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def _wait_for(url: str, proc: subprocess.Popen, limit: float = 30) -> None:
    import urllib.request
    deadline = time.monotonic() + limit
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{url} did not answer") from None
            time.sleep(0.2)


def boardgameio(seconds: float) -> float | None:
    """Moves/s of boardgame.io 0.50.2 (server + 2 socket.io clients), or None if node or
    npm is missing."""
    if not (shutil.which("node") and shutil.which("npm")):
        return None
    work = Path(tempfile.mkdtemp(prefix="ravenpost-bgio-"))
    try:
        shutil.copy(HERE / "boardgameio" / "race.mjs", work / "race.mjs")
        (work / "package.json").write_text(json.dumps({"type": "module", "private": True}))
        subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund",
                        "boardgame.io@0.50.2"], cwd=work, check=True,
                       stdout=subprocess.DEVNULL)
        out = subprocess.run(["node", "race.mjs", str(seconds)], cwd=work, check=True,
                             capture_output=True, text=True, timeout=seconds + 120)
        return float(json.loads(out.stdout.strip().splitlines()[-1])["moves_per_second"])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="per round and side")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--boardgameio", action="store_true")
    parser.add_argument("--durable", action="store_true",
                        help="Redis with appendfsync always, as `ravenpost serve` runs it")
    args = parser.parse_args()
    ours, bare, floor = [], [], []
    with real_redis(args.durable) as (_client, url), production(url, workers=1) as base, \
            BareFlask(url) as bare_base:
        moves_per_second(base, 0.5)  # warm both up
        requests_per_second(bare_base, 0.5)
        requests_per_second(bare_base, 0.5, "/ping-redis")
        for _ in range(args.rounds):
            ours.append(moves_per_second(base, args.seconds))
            bare.append(requests_per_second(bare_base, args.seconds))
            floor.append(requests_per_second(bare_base, args.seconds, "/ping-redis", per=2))
    ratios = [m / r for m, r in zip(ours, bare, strict=True)]
    floors = [f / r for f, r in zip(floor, bare, strict=True)]
    shares = [m / f for m, f in zip(ours, floor, strict=True)]
    print(f"WEB_CONCURRENCY={os.environ.get('WEB_CONCURRENCY', '2')}, {args.rounds} rounds "
          f"of {args.seconds:g} s each, alternated"
          + ("; Redis with appendfsync always" if args.durable else ""))
    print("sequential moves (POST + next mover's GET): "
          + ", ".join(f"{m:.0f}" for m in ours) + " moves/s")
    print("bare Flask JSON route, same gunicorn:      "
          + ", ".join(f"{r:.0f}" for r in bare) + " req/s")
    print("the floor: two bare requests, each after one Redis PING: "
          + ", ".join(f"{f:.0f}" for f in floor) + " pairs/s")
    print(f"ratio moves/s : bare req/s: median {statistics.median(ratios):.3f} "
          f"(goal >= 0.25; each round: {', '.join(f'{x:.3f}' for x in ratios)})")
    print(f"ratio floor pairs/s : bare req/s: median {statistics.median(floors):.3f} (what a "
          "move pair of one round trip per request could reach on this machine); moves/s "
          f": floor pairs/s {statistics.median(shares):.3f}")
    if args.boardgameio:
        bgio = boardgameio(args.seconds * args.rounds)
        if bgio is None:
            print("boardgame.io: node/npm not found, skipped")
        else:
            print(f"boardgame.io 0.50.2 (server + 2 socket.io clients): {bgio:.0f} moves/s; "
                  f"ratio Ravenpost/boardgame.io {statistics.median(ours) / bgio:.3f}")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
