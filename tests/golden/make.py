"""Record golden logs: whole bot games of every kind under the rules version shipped now.

    python -m tests.golden.make [KIND ...]   # writes tests/golden/<kind>-r<version>-<n>p.json

Each file holds the game's stream entries exactly as stored and the SHA-256 of its final
state.  They are recorded once per shipped rules version and never rewritten: every later
change of the code must still fold them to the same state (``tests/test_golden_logs.py``),
because a game in progress folds its whole log again after every deploy.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import fakeredis

from events.envelope import canonical
from events.gameplay import GameService
from events.store import EventStore, key
from games import registry

HERE = Path(__file__).resolve().parent
MAX_EVENTS = 20_000  # a rules change that lets random games run forever must not hang this

# (kind, players, options): the shapes of game a golden log should cover
GAMES = [
    ("kings-guild", 1, {}),
    ("kings-guild", 2, {}),  # r4 on: 1-6 players
    ("kings-guild", 3, {}),
    ("kings-guild", 4, {}),
    ("kings-guild", 5, {}),
    ("kings-guild", 6, {}),
    ("architects", 1, {}),
    ("architects", 3, {"variable_setup": True}),
    ("feudum-guilds", 2, {}),
    ("feudum-guilds", 4, None),  # None: every module the game offers switched on
]


def state_hash(state: dict) -> str:
    return hashlib.sha256(canonical(state).encode()).hexdigest()


def all_modules(kind: str, players: int) -> dict:
    """Every boolean option switched on."""
    game = registry.get(kind)
    return {f["name"]: True for f in game.option_fields() if f["type"] == "bool"}


def record(kind: str, players: int, options: dict | None, seed: int = 1) -> dict:
    """Play one whole bot game through the event store; its entries and final hash."""
    service = GameService(EventStore(fakeredis.FakeRedis(decode_responses=True)))
    names = [{"name": f"Bot {i + 1}", "email": ""} for i in range(players)]
    opts = all_modules(kind, players) if options is None else options
    table = service.create(kind, names, opts)
    gid = table.game_id
    chooser = random.Random(seed)
    while not table.ended:
        if table.version > MAX_EVENTS:
            raise RuntimeError(f"{kind} x{players} did not end within {MAX_EVENTS} events")
        seat = chooser.choice(sorted(table.to_act()))
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        service.play(gid, seat, move, table.version)
        table = service.load(gid)
    entries = service.store.redis.xrange(key(gid, "log"))
    return {"kind": kind, "players": players, "rules_version": table.rules_version,
            "options": opts, "final_version": table.version,
            "final_state_sha256": state_hash(table.state),
            "entries": [[entry_id, fields] for entry_id, fields in entries]}


def main(only: list[str]) -> None:
    for kind, players, options in GAMES:
        if only and kind not in only:
            continue
        game = registry.get(kind)
        path = HERE / f"{kind}-r{game.rules_version}-{players}p.json"
        if path.exists():
            print(f"{path.name}: kept (golden logs are never rewritten)")
            continue
        path.write_text(json.dumps(record(kind, players, options), separators=(",", ":")))
        print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
