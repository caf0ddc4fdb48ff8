"""Moves per second through the JSON API over HTTP, against the service layer alone."""

from __future__ import annotations

import argparse
import json
import logging
import random
import socket
import threading
import time
import urllib.request

from common import real_redis
from werkzeug.serving import make_server

from events.gameplay import GameService
from events.store import EventStore

PLAYERS = [{"name": "Ada", "email": "ada@example.com"}, {"name": "Bo", "email": "bo@example.com"}]


def call(method: str, url: str, body=None, token=None):
    request = urllib.request.Request(url, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def direct(service: GameService, moves: int, seed: int) -> float:
    chooser, done, start = random.Random(seed), 0, time.perf_counter()
    while done < moves:
        table = service.create("test-race", PLAYERS, {"target": 60})
        while not table.ended and done < moves:
            seat = chooser.choice(sorted(table.to_act()))
            move = chooser.choice(table.game.legal_moves(table.state, seat))
            service.play(table.game_id, seat, move, table.version)
            table = service.load(table.game_id)  # what a request does: load, decide, append
            done += 1
    return moves / (time.perf_counter() - start)


def over_http(base: str, moves: int, seed: int) -> float:
    chooser, done, start = random.Random(seed), 0, time.perf_counter()
    while done < moves:
        created = call("POST", f"{base}/api/v1/games", {"game": "test-race", "players": PLAYERS,
                                                        "options": {"target": 60}}, "bench")
        gid, tokens = created["id"], [s["token"] for s in created["seats"]]
        while done < moves:
            seen = call("GET", f"{base}/api/v1/games/{gid}", token=tokens[0])
            if seen["outcome"] is not None:
                break
            seat = chooser.choice(seen["to_act"])
            mine = seen if seat == 0 else call("GET", f"{base}/api/v1/games/{gid}",
                                               token=tokens[seat])
            call("POST", f"{base}/api/v1/games/{gid}/moves", {
                "move": chooser.choice(mine["legal_moves"]),
                "expected_version": mine["version"]}, tokens[seat])
            done += 1
    return moves / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=500)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    with real_redis() as (client, url):
        from service import create_app
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        app = create_app({"REDIS_URL": url, "ADMIN_TOKEN": "bench", "SECRET_KEY": "bench",
                          "BASE_URL": f"http://127.0.0.1:{port}", "CHECK_REDIS": False})
        server = make_server("127.0.0.1", port, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        baseline = direct(GameService(EventStore(client)), args.moves, 1)
        http = over_http(f"http://127.0.0.1:{port}", args.moves, 1)
        server.shutdown()
        print(f"redis: {url}")
        print(f"service layer, no HTTP (baseline): {baseline:.0f} moves/s")
        print(f"JSON API over HTTP (GET view + POST move, RQ enqueue): {http:.0f} moves/s")
        print(f"ratio HTTP/baseline: {http / baseline:.2f}")


if __name__ == "__main__":
    main()
