"""Record golden logs: whole bot games of every kind under every rules version it plays.

    python -m tests.golden.make [KIND ...]   # writes tests/golden/<kind>-r<version>-<n>p.json

Each file holds the game's stream entries exactly as stored and the SHA-256 of its final
state.  They are recorded once per shipped rules version and never rewritten: every later
change of the code must still fold them to the same state (``tests/test_golden_logs.py``),
because a game in progress folds its whole log again after every deploy.  Only the files
missing are recorded.

A game under an older rules version N (one of ``rules_versions``) is recorded the way the
service would have created it while N was the newest: ``GameService.create`` sets it up
with the engine ``registry.get(kind)`` returns and writes that engine's ``rules_version``
into GameCreated, so for that one call the registry hands out the engine bound to N
(``Game.for_rules``); every later move folds and plays under the version GameCreated
names, exactly as for a real game.  A file recorded later than its version shipped
holds the games today's code plays under it, which is what a game created then and
folded after every deploy since must still fold to.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import fakeredis

from events.envelope import canonical
from events.gameplay import GameService
from events.store import EventStore, key
from games import registry
from games.protocol import Game

HERE = Path(__file__).resolve().parent
MAX_EVENTS = 20_000  # a rules change that lets random games run forever must not hang this
SEEDS = 5  # bot seeds tried, from 1, before a game that never ends is reported

# (kind, players, options): the shapes of game a golden log should cover, each recorded
# under every rules version the kind plays (the options must suit every one of them)
GAMES = [
    ("kings-guild", 1, {}),
    ("kings-guild", 2, {}),
    ("kings-guild", 3, {}),
    ("kings-guild", 4, {}),
    ("kings-guild", 5, {}),
    ("kings-guild", 6, {}),
    ("architects", 1, {}),
    ("architects", 2, None),  # None: every module the game offers switched on
    ("architects", 3, {"variable_setup": True}),
    ("architects", 4, {"promos": True}),
    ("architects", 5, {"variable_setup": True, "promos": True}),
    ("feudum-guilds", 2, {}),
    ("feudum-guilds", 3, None),
    ("feudum-guilds", 4, None),
    ("feudum-guilds", 5, {"favors": True, "vassalage": True}),
]


class NeverEnded(RuntimeError):
    """A bot game ran past :data:`MAX_EVENTS`."""


def state_hash(state: dict) -> str:
    return hashlib.sha256(canonical(state).encode()).hexdigest()


def all_modules(game: Game) -> dict:
    """Every boolean option ``game`` (bound to a rules version) offers, switched on."""
    return {f["name"]: True for f in game.option_fields() if f["type"] == "bool"}


@contextmanager
def created_under(kind: str, rules: str) -> Iterator[Game]:
    """While it lasts, ``registry.get(kind)`` is the engine bound to ``rules``: the one a
    game created while ``rules`` was the newest was set up by and recorded the version of.
    Only the registry's answer changes (and only here); events/ and games/ do not."""
    real = registry.get
    bound = real(kind).for_rules(rules)  # KeyError for a version this code does not play
    with mock.patch.object(registry, "get", lambda k: bound if k == kind else real(k)):
        yield bound


def record(kind: str, players: int, options: dict | None, seed: int = 1,
           rules: str | None = None) -> dict:
    """Play one whole bot game through the event store, created under ``rules`` (the
    newest by default); its entries and final hash."""
    service = GameService(EventStore(fakeredis.FakeRedis(decode_responses=True)))
    names = [{"name": f"Bot {i + 1}", "email": ""} for i in range(players)]
    rules = rules or registry.get(kind).rules_version
    with created_under(kind, rules) as game:
        opts = all_modules(game) if options is None else options
        table = service.create(kind, names, opts)
    if table.rules_version != rules:
        raise RuntimeError(f"{kind} was created under rules {table.rules_version}, not {rules}")
    gid = table.game_id
    chooser = random.Random(seed)
    while not table.ended:
        if table.version > MAX_EVENTS:
            raise NeverEnded(f"{kind} x{players} did not end within {MAX_EVENTS} events")
        seat = chooser.choice(sorted(table.to_act()))
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        service.play(gid, seat, move, table.version)
        table = service.load(gid)
    entries = service.store.redis.xrange(key(gid, "log"))
    return {"kind": kind, "players": players, "rules_version": table.rules_version,
            "options": opts, "final_version": table.version,
            "final_state_sha256": state_hash(table.state),
            "entries": [[entry_id, fields] for entry_id, fields in entries]}


def record_ending(kind: str, players: int, options: dict | None, rules: str) -> dict:
    """:func:`record` with the first of :data:`SEEDS` bot seeds whose game ends."""
    for seed in range(1, SEEDS + 1):
        try:
            return record(kind, players, options, seed, rules)
        except NeverEnded as exc:
            print(f"  seed {seed}: {exc}")
    raise RuntimeError(f"{kind} r{rules} x{players}: no bot game ended in {SEEDS} seeds")


def main(only: list[str]) -> None:
    for kind, players, options in GAMES:
        if only and kind not in only:
            continue
        for rules in registry.get(kind).rules_versions:
            path = HERE / f"{kind}-r{rules}-{players}p.json"
            if path.exists():
                print(f"{path.name}: kept (golden logs are never rewritten)")
                continue
            golden = record_ending(kind, players, options, rules)
            path.write_text(json.dumps(golden, separators=(",", ":")))
            print(f"{path.name}: {golden['final_version']} events, "
                  f"{path.stat().st_size} bytes")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
