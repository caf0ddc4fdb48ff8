"""A process that archives or restores one game, for the kill -9 tests: run with
``RAVENPOST_ARCHIVE_KILL_AT=<step>`` it kills itself at that step (events/archive.py).

    python -m tests.archive_crash REDIS_URL GAME_ID ARCHIVE_URL archive|restore

``restore`` asks the store for the game's version, as any reader would: the store's
hook brings the game back."""

from __future__ import annotations

import sys

import redis

from events.archive import Archives, archive_game, restorer
from events.store import EventStore


def main(url: str, game_id: str, where: str, what: str) -> None:
    store = EventStore(redis.Redis.from_url(url, decode_responses=True))
    archives = Archives(where)
    store.restorer = restorer(store, archives)
    if what == "archive":
        done = archive_game(store, archives, game_id)
        print("archived" if done else "not archived")
    else:
        print(f"version {store.version(game_id)}")


if __name__ == "__main__":
    main(*sys.argv[1:5])
