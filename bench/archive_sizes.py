"""Redis bytes of a finished game before and after archiving it, and its archive file's
bytes, for one bot-played game of each kind (issue 32, item 1).

Each game is played to its end by the game's bots through the app's runtime (jobs
inline; its read models projected every ``--project-every`` moves, as the worker would,
so the sent marks and read models of a live game are there), then archived to a
temporary directory.  "Before" and "after" are MEMORY USAGE (every sample) summed over
the game's keys, on a real Redis server (see common.real_redis)."""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time

from common import real_redis

from events.archive import archive_game
from events.store import key
from games import bots
from service import create_app
from worker import jobs

KINDS = {"kings-guild": 3, "architects": 3, "feudum-guilds": 3}


def memory(client, game_id: str) -> tuple[int, int]:
    """(bytes by MEMORY USAGE summed over the game's keys, how many keys)."""
    names = list(client.scan_iter(match=key(game_id, "*"), count=1000))
    return sum(client.memory_usage(n, samples=0) or 0 for n in names), len(names)


def play_to_the_end(rt, kind: str, players: int, seed: int, project_every: int) -> str:
    table = rt.games.create(kind, [{"name": f"Player {s + 1}", "email": f"p{s}@example.com"}
                                   for s in range(players)], {})
    game_id, chooser, moves = table.game_id, random.Random(seed), 0
    while not table.ended:
        seat, move = bots.choose_seat_and_move(table.game, table.state, chooser)
        rt.games.play(game_id, seat, move, table.version)
        moves += 1
        if moves % project_every == 0:
            jobs.project(game_id)
        table = rt.games.load(game_id)
    jobs.project(game_id)
    return game_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--project-every", type=int, default=25)
    args = parser.parse_args()
    with real_redis() as (client, _url):
        app = create_app({"REDIS_CLIENT": client, "RUN_JOBS_INLINE": True, "TESTING": True,
                          "SECRET_KEY": "bench-secret-" + "x" * 32, "QUIET_HOURS": "off",
                          "BASE_URL": "http://localhost", "CHECK_REDIS": False})
        rt = app.extensions["ravenpost"]
        rt.archives.url = tempfile.mkdtemp(prefix="ravenpost-archive-")
        for kind, players in KINDS.items():
            game_id = play_to_the_end(rt, kind, players, args.seed, args.project_every)
            before, keys = memory(client, game_id)
            started = time.perf_counter()
            done = archive_game(rt.store, rt.archives, game_id)
            archived = time.perf_counter() - started
            after, _ = memory(client, game_id)
            started = time.perf_counter()
            rt.store.version(game_id)  # brought back on demand
            restored = time.perf_counter() - started
            print(json.dumps({
                "kind": kind, "players": players, "events": done.entry["version"],
                "keys": keys, "redis_bytes_before": before, "redis_bytes_after": after,
                "archive_file_bytes": done.file_bytes,
                "ratio_before_to_file": round(before / done.file_bytes, 1),
                "archive_seconds": round(archived, 3), "restore_seconds": round(restored, 3)}))


if __name__ == "__main__":
    main()
