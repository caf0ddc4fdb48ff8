"""Reads flat in history length: a game's reads at version 100 against version 10,000.

Two games of the long test game on a real Redis, one of ``--short`` events and one of
``--events``, each with a worker's snapshot a few events before its end (as production
keeps one every 50 events).  Timed through the Flask app (no network), in a warm
process, as a player asks for them: the API history (its default page, the latest 100
events), the API view of the game, and the player's game page (which shows the last 30
events).  The reference is the same read on the short game: a ratio near 1 is flat.
"""

from __future__ import annotations

import argparse
import json
import random

from common import BENCH_ADMIN, BENCH_SECRET, copies_for, real_redis, timed

from events import history
from worker.links import api_token


def play(rt, gid: str, moves: int, seed: int) -> None:
    """Random legal moves, with the worker's snapshot every 50 events."""
    chooser = random.Random(seed)
    table = rt.games.load(gid)
    for i in range(moves):
        if i % 50 == 0:
            rt.replayer.write_snapshot(table)
        seat = chooser.choice(sorted(table.to_act()))
        event = rt.games.play(gid, seat, chooser.choice(table.game.legal_moves(table.state, seat)),
                              table.version)
        table = rt.replayer.evolve(table, gid, event)
    rt.replayer.write_snapshot(rt.games.load(gid, at=max(1, table.version - 10)))


class Reply:
    status_code = 200

    def __init__(self, data: bytes) -> None:
        self.data = data


def whole_log(rt, gid: str) -> Reply:
    """What GET .../history answered before it was paginated: every event."""
    table = rt.games.load(gid)
    return Reply(json.dumps({"events": history.lines(rt.store, gid, table.game, table.names,
                                                     0)}).encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--short", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with real_redis() as (_client, url):
        from service import create_app
        app = create_app({"REDIS_URL": url, "SECRET_KEY": BENCH_SECRET,
                          "ADMIN_TOKEN": BENCH_ADMIN, "CHECK_REDIS": False,
                          "RATELIMIT_ENABLED": False})
        rt = app.extensions["ravenpost"]
        client = app.test_client()
        players = [{"name": "Ada", "email": "ada@example.com"},
                   {"name": "Bo", "email": "bo@example.com"}]
        games = {}
        for events in (args.short, args.events):
            gid = rt.games.create("bench-race", players,
                                  {"target": 100_000, "copies": copies_for(events)}).game_id
            play(rt, gid, events - 1, seed=events)
            games[events] = gid
        print(f"redis: {url}; games of {args.short} and {args.events} events")
        print(f"{'read':<28}{'at ' + str(args.short):>12}{'at ' + str(args.events):>14}"
              f"{'ratio':>8}{'bytes':>16}")
        reads = {
            "API history (latest 100)": lambda gid, token, link: client.get(
                f"/api/v1/games/{gid}/history", headers={"Authorization": f"Bearer {token}"}),
            "API view": lambda gid, token, link: client.get(
                f"/api/v1/games/{gid}", headers={"Authorization": f"Bearer {token}"}),
            "game page (last 30)": lambda gid, token, link: client.get(f"/play/{link}"),
            "whole log (the old answer)": lambda gid, token, link: whole_log(rt, gid),
        }
        for name, read in reads.items():
            cost, size = {}, {}
            for events, gid in games.items():
                token = api_token(rt.redis, rt.links, gid, 0)
                link = rt.links.make(gid, 0, "play")
                reply = read(gid, token, link)
                assert reply.status_code == 200, (name, reply.status_code)
                size[events] = len(reply.data)
                cost[events] = timed(lambda gid=gid, token=token, link=link, read=read:
                                     read(gid, token, link), args.repeat)
            print(f"{name:<28}{cost[args.short] * 1000:>10.2f}ms{cost[args.events] * 1000:>12.2f}"
                  f"ms{cost[args.events] / cost[args.short]:>8.2f}"
                  f"{size[args.short]:>8}/{size[args.events]:<8}")


if __name__ == "__main__":
    main()
