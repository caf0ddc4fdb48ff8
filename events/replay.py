"""Folding a game's events into its state: live loads, rebuilds at any version, snapshots.

The same :func:`evolve` serves live play, the worker's projection, audits and admin
replay, so a rebuild can never disagree with what players saw.  Randomness is never
recomputed: each event's tape is replayed with :class:`games.rng.TapePlayer`.
"""

from __future__ import annotations

import copy
import json
from collections import OrderedDict
from dataclasses import dataclass, field, fields
from typing import Any

from events import envelope as ev
from events.envelope import Event
from events.store import EventStore, UnknownGame
from games import registry
from games.protocol import Game, State
from games.rng import TapePlayer


@dataclass
class Table:
    """A game as folded up to ``version``: the rules' state plus the platform's facts."""

    game_id: str
    kind: str
    names: list[str]
    options: dict[str, Any]
    state: State
    version: int
    commitment: str
    rules_version: str
    created_at: str
    ended: bool = False
    revealed_secrets: list[str] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return registry.get(self.kind)

    def to_act(self) -> set[int]:
        return set() if self.ended else self.game.to_act(self.state)

    def outcome(self) -> dict[str, Any] | None:
        return self.game.outcome(self.state)

    def to_json(self) -> dict[str, Any]:
        """A shallow dict of the fields (json.dumps walks the state itself; asdict's deep
        copy was a third of a request's time)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        return cls(**data)


class Replayer:
    """Loads tables from an :class:`EventStore`, through snapshots when they help.

    Besides the worker's snapshots in Redis, each process keeps the last table it loaded
    per game (a small LRU of JSON): since the log is append-only, that table plus the
    events after it is the current table, so a busy game is not refolded on every request.
    """

    def __init__(self, store: EventStore, cache_size: int = 256) -> None:
        self.store = store
        self._cache: OrderedDict[str, tuple[int, str]] = OrderedDict()
        self._cache_size = cache_size

    def load(self, game_id: str, at: int | None = None, use_snapshot: bool = True) -> Table:
        """The table at version ``at`` (default: the latest); ``use_snapshot=False``
        folds from event 1, ignoring every cache (what audits use)."""
        table = None
        if use_snapshot:
            table = self._cached(game_id, at)
            if table is None:
                table = self.snapshot(game_id)
                if table is not None and at is not None and table.version > at:
                    table = None
        start = 1 if table is None else table.version + 1
        for event in self.store.iter(game_id, start, at):
            table = self.evolve(table, game_id, event)
        if table is None:
            raise UnknownGame(game_id)
        if at is not None and table.version != at:
            raise UnknownGame(f"{game_id} has no version {at}")
        if use_snapshot and at is None:
            self._remember(table)
        return table

    def _cached(self, game_id: str, at: int | None) -> Table | None:
        entry = self._cache.get(game_id)
        if entry is None or (at is not None and entry[0] > at):
            return None
        self._cache.move_to_end(game_id)
        return Table.from_json(json.loads(entry[1]))

    def _remember(self, table: Table) -> None:
        cached = self._cache.get(table.game_id)
        if cached is not None and cached[0] == table.version:
            return  # loaded straight from the cache: nothing new to encode
        self._cache[table.game_id] = (table.version, json.dumps(table.to_json()))
        self._cache.move_to_end(table.game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    def evolve(self, table: Table | None, game_id: str, event: Event) -> Table:
        """The table after one more event (a new object only for GameCreated/Rewound)."""
        if event.type == ev.GAME_CREATED:
            data = event.data
            game = registry.get(data["kind"])
            tape = TapePlayer(event.tape)
            state = game.setup(list(data["names"]), copy.deepcopy(data["options"]), tape)
            tape.finish()
            return Table(
                game_id=game_id, kind=data["kind"], names=list(data["names"]),
                options=data["options"], state=state, version=event.version,
                commitment=data["commitment"], rules_version=data["rules_version"],
                created_at=event.at,
            )
        if table is None:
            raise ValueError(f"event {event.version} ({event.type}) before GameCreated")
        if event.type == ev.MOVE_PLAYED:
            tape = TapePlayer(event.tape)
            table.game.apply(table.state, event.data["seat"],
                             copy.deepcopy(event.data["move"]), tape)
            tape.finish()
        elif event.type == ev.REWOUND:
            earlier = self.load(game_id, at=event.data["to"])
            earlier.version = event.version
            earlier.revealed_secrets = table.revealed_secrets
            earlier.commitment = table.commitment
            return earlier
        elif event.type == ev.FORKED:
            table.game_id = game_id
            table.commitment = event.data["commitment"]
            table.ended = False
        elif event.type == ev.GAME_ENDED:
            table.ended = True
            table.revealed_secrets = [*table.revealed_secrets, event.data["secret"]]
        table.version = event.version
        return table

    # -- snapshots (a cache the worker writes; the stream stays the truth) ------------
    def snapshot(self, game_id: str) -> Table | None:
        data = self.store.get_json(game_id, "snapshot")
        if not data:
            return None
        table = Table.from_json(data["table"])
        try:
            current_rules = registry.get(table.kind).rules_version
        except KeyError:
            return None
        if data["written_with"] != current_rules or table.game_id != game_id:
            return None  # written by other rules: fold from the events instead
        return table

    def write_snapshot(self, table: Table) -> None:
        """Cache ``table``, tagged with the rules version that folded it."""
        self.store.put_json(table.game_id, "snapshot", {
            "written_with": table.game.rules_version, "table": table.to_json()})
        self.store.put_json(table.game_id, "snapshot_version", table.version)

    def snapshot_version(self, game_id: str) -> int:
        """The version of the game's snapshot (0: none), without reading the snapshot."""
        return self.store.get_json(game_id, "snapshot_version") or 0
