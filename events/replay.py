"""Folding a game's events into its state: live loads, rebuilds at any version, snapshots.

The same :func:`evolve` serves live play, the worker's projection, audits and admin
replay, so a rebuild can never disagree with what players saw.  Randomness is never
recomputed: each event's tape is replayed with :class:`games.rng.TapePlayer`.
"""

from __future__ import annotations

import copy
import json
import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from events import envelope as ev
from events.envelope import Event, upcast
from events.history_snapshots import HistorySnapshots
from events.sent import meanwhile, sent
from events.store import EventStore, UnknownGame, key
from games import registry
from games.protocol import Game, State
from games.rng import TapePlayer

T = TypeVar("T")
TAIL_BATCH = 1000  # events of a tail read in a request's one round trip (then EventStore.iter)
# Events read from the log's end with the snapshot when a process has no table of a game
# yet: more than the worker's SNAPSHOT_EVERY (50), so the tail after the snapshot is
# usually among them and the load needs no second round trip.
COLD_TAIL = 64


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
    # The result of a game the players or the platform ended before the rules did
    # (resigned, forfeit, abandoned, ended early): GameEnded's ``outcome``, else None.
    ended_early: dict[str, Any] | None = None
    # The hash of the event at ``version`` ("" if unknown: a snapshot written before it
    # was kept): the next append chains to it without reading the log's end again.
    head: str = ""
    # The version of the latest VoteCalled (0: none), so the vote is read from there
    # rather than searched for; a rewind keeps it (a vote is about the players).
    vote_from: int = 0

    @property
    def game(self) -> Game:
        """The rules this table plays: the version it was created under (or migrated to)."""
        return registry.get(self.kind).for_rules(self.rules_version)

    def to_act(self) -> set[int]:
        return set() if self.ended else self.game.to_act(self.state)

    def outcome(self) -> dict[str, Any] | None:
        """The rules' result, or the result recorded when the game was ended early."""
        return self.ended_early or self.game.outcome(self.state)

    def to_json(self) -> dict[str, Any]:
        """A shallow dict of the fields (json.dumps walks the state itself; asdict's deep
        copy was a third of a request's time)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        return cls(**data)


def surviving(events: list[Event], floor: int) -> list[Event] | None:
    """The events of ``events`` that the state at their end is made of, oldest first.

    ``events`` are consecutive versions after ``floor``.  Walking back from the last
    one, a ``Rewound{to}`` jumps to version ``to`` (the state there is what it restored),
    so the moves it took back, and earlier rewinds inside them, are skipped without
    being folded: the work is linear in the log.  None if a jump lands before
    ``floor`` (the caller then starts from further back).
    """
    by_version = {e.version: e for e in events}
    chain: list[Event] = []
    version = events[-1].version
    while version > floor:
        event = by_version[version]
        if event.type == ev.REWOUND:
            version = event.data["to"]
        else:
            chain.append(event)
            version -= 1
    if version < floor:
        return None
    chain.reverse()
    return chain


def _commitment_of(event: Event) -> str | None:
    """The secret commitment an event puts in force (a game, a fork or a new epoch)."""
    if event.type in (ev.GAME_CREATED, ev.FORKED, ev.REWOUND):
        return event.data.get("commitment")
    return None


def _rewound(table: Table, earlier: Table, event: Event) -> Table:
    """The table after ``event`` (a Rewound): ``earlier``'s position with ``table``'s
    record of secrets, and the new epoch's commitment if the Rewound started one."""
    earlier.version, earlier.head = event.version, event.hash
    earlier.game_id = table.game_id
    earlier.revealed_secrets = table.revealed_secrets
    earlier.vote_from = table.vote_from
    earlier.commitment = event.data.get("commitment") or table.commitment
    return earlier


class Replayer:
    """Loads tables from an :class:`EventStore`, through snapshots when they help.

    Besides the worker's snapshots in Redis, each process keeps the last table it loaded
    per game (a small LRU, shared by the process's threads): since the log is
    append-only, that table plus the events after it is the current table, so a busy game
    is not refolded on every request.  The tables are kept marshalled (format 2: no
    shared references, a fresh copy on every read), which encodes and decodes game state
    several times faster than JSON; this cache never leaves the process.

    Beside a table that a move just made on the cached table (``remember(...,
    shared=True)``) the cache keeps that table object too, for work that only reads it
    (a view: :meth:`load_along`'s ``work``), so the next mover's view decodes nothing.
    Whatever changes a table works on a decoded copy, as before: the shared one is never
    played on, and a rules engine's ``view`` and ``legal_moves`` only read the state
    (games/protocol.py; tests/games/test_answers_read_only.py).
    """

    def __init__(self, store: EventStore, cache_size: int = 256) -> None:
        self.store = store
        # game id -> (version, marshalled table, the shared read-only table or None)
        self._cache: OrderedDict[str, tuple[int, bytes, Table | None]] = OrderedDict()
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        # past versions far from every other base: events/history_snapshots.py
        self.history = HistorySnapshots(self)

    def load(self, game_id: str, at: int | None = None, use_snapshot: bool = True) -> Table:
        """The table at version ``at`` (default: the latest); ``use_snapshot=False``
        folds from event 1, ignoring every cache (what audits use).

        The cost is linear in the events read, however many take-backs and rewinds
        they hold: only the moves that survive them are applied (see :func:`surviving`).
        """
        base = None
        if use_snapshot:
            base = self._cached(game_id, at)
            if base is None:
                base = self.snapshot(game_id)
                if base is not None and at is not None and base.version > at:
                    base = None
            if at is not None and (base is None or at - base.version >= self.history.every):
                return self.history.load(game_id, at)  # at most K-1 folds from a snapshot
        return self._load_from(game_id, base, at, use_snapshot,
                               list(self.store.iter(game_id, 1 if base is None
                                                    else base.version + 1, at)))

    def load_along(self, game_id: str, commands: Sequence[tuple[Any, ...]],
                   check: Callable[[list[Any]], None] | None = None,
                   work: Callable[[Table], T] | None = None,
                   ) -> tuple[Table, list[Any], T | None]:
        """The latest table, with ``commands`` (Redis commands on this game's keys, e.g.
        ``("HGET", key, field)``) sent in the same round trip as the load's first read:
        ``(table, their replies, what work made)``; a command that fails answers its
        Exception, which ``check`` should look for.  ``check(replies)`` runs before
        anything is folded (a refused token then costs no fold, and its refusal comes
        before "no such game").  ``work(table)`` (e.g. a view, which must not change the
        table) is done on the held table while Redis answers; what it made is returned
        only if that table is still the latest (else None: the caller does it again).
        With ``work``, the table returned may be the cache's shared one: only to be read.

        A request that must read a few keys of the game besides its log (the token's
        generation, the clocks) thus waits for Redis once: with the process's cached
        table that one read is the log's tail, else the worker's snapshot and the last
        ``COLD_TAIL`` events (the rest of the tail follows if they do not reach back to
        the snapshot)."""
        held = self._held(game_id)
        log = key(game_id, "log")
        pipe = self.store.log_reader.pipeline(transaction=False)
        for command in commands:
            pipe.execute_command(*command)
        if held is not None:
            pipe.xrange(log, min=f"0-{held[0] + 1}", max="+", count=TAIL_BATCH)
        else:  # the snapshot, and the log's end, which usually reaches back to it
            pipe.get(key(game_id, "snapshot"))
            pipe.xrevrange(log, count=COLD_TAIL)
        pipe.exists(key(game_id, "archived"))  # out of Redis: ``commands`` read nothing
        made, base, shared = None, None, None
        with sent(pipe) as trip:  # the held table is decoded while Redis answers
            if held is not None:
                # ``work`` only reads: the shared table if there is one (decoded below
                # if the log moved on or the caller plays on it)
                shared = held[2] if work is not None else None
                base = shared if shared is not None else self.unpack(held[1])
                made = meanwhile(work, base)
            *replies, first, archived = trip.replies()
        if archived == 1:
            if self.store.restored(game_id):  # back in Redis: read it all again
                return self.load_along(game_id, commands, check, work)
        if base is None:
            *replies, snapshot = replies
            if isinstance(snapshot, Exception):
                raise snapshot
        if isinstance(first, Exception):
            raise first
        if check is not None:  # it may accept a failed command of its own (an Exception)
            check(replies)
        if base is None:
            base = self._snapshot_of(game_id, snapshot)
            start = 1 if base is None else base.version + 1
            end = [upcast(Event.from_reply(entry_id, fields)) for entry_id, fields
                   in reversed(first)]
            if end and end[0].version <= start:
                events = [event for event in end if event.version >= start]
            else:  # the log's end begins after the events needed: read them all
                events = list(self.store.iter(game_id, start))
        else:
            events = [upcast(Event.from_reply(entry_id, fields)) for entry_id, fields in first]
            if len(first) == TAIL_BATCH:  # a long tail: read the rest as load() does
                events += self.store.iter(game_id, events[-1].version + 1)
            if shared is not None and (events or made is None):  # to be played on: a copy
                base = self.unpack(held[1])
        table = self._load_from(game_id, base, None, True, events)
        return table, replies, made if not events and table is base else None

    def _load_from(self, game_id: str, base: Table | None, at: int | None,
                   use_snapshot: bool, events: list[Event]) -> Table:
        """:meth:`load`'s fold of ``events`` (read from after ``base``) and its fallbacks."""
        table = self._fold(game_id, base, events)
        if table is None and use_snapshot:  # a take-back reached back past the base
            earlier = self.snapshot(game_id, "snapshot:prev")
            if earlier is not None and (at is None or earlier.version <= at):
                table = self._fold(game_id, earlier,
                                   list(self.store.iter(game_id, earlier.version + 1, at)))
        if table is None:
            table = self._fold(game_id, None, list(self.store.iter(game_id, 1, at)))
        if table is None:
            raise UnknownGame(game_id)
        if at is not None and table.version != at:
            raise UnknownGame(f"{game_id} has no version {at}")
        if use_snapshot and at is None:
            self.remember(table)
        return table

    def _fold(self, game_id: str, base: Table | None, events: list[Event]) -> Table | None:
        """``base`` (the table at the version before ``events``) brought to the end of
        ``events``; None if a rewind among them reaches back before ``base``."""
        if not events:
            return base
        chain = surviving(events, base.version if base else 0)
        if chain is None:
            return None
        revealed = list(base.revealed_secrets) if base else []
        table = base
        for event in chain:  # events read for this fold alone: apply may keep their moves
            table = self.evolve(table, game_id, event, copy_move=False)
        if table is None:
            return None
        # What the whole log says, rewound branches included: a secret once revealed
        # stays revealed, and the latest commitment is the one in force.
        for event in events:
            if event.type == ev.GAME_ENDED:
                revealed.append(event.data["secret"])
            commitment = _commitment_of(event)
            if commitment:
                table.commitment = commitment
        table.revealed_secrets = revealed
        table.version, table.head = events[-1].version, events[-1].hash
        return table

    def walk(self, game_id: str) -> Iterator[tuple[Table | None, Event]]:
        """Every event of the log with the table just before it (None before event 1),
        folded once from event 1: the tables at rewind targets are kept, so this too
        stays linear however many rewinds the log holds.  Yielded tables are not to be
        changed by the caller."""
        events = self.store.read(game_id)
        targets = {e.data["to"] for e in events if e.type == ev.REWOUND}
        kept: dict[int, str] = {}
        table: Table | None = None
        for event in events:
            yield table, event
            if event.type == ev.REWOUND:
                earlier = Table.from_json(json.loads(kept[event.data["to"]]))
                table = _rewound(table, earlier, event)
            else:
                table = self.evolve(table, game_id, event)
            if event.version in targets:
                kept[event.version] = json.dumps(table.to_json())

    def cached_packed(self, game_id: str, version: int) -> tuple[Table, bytes] | None:
        """A fresh copy of the table this process loaded last for the game, if it is at
        ``version``, and the marshalled table it was decoded from (for a move's
        take-back check, which decodes the state before the move from it only if it
        needs it)."""
        packed = self._packed(game_id, lambda v: v == version)
        if packed is None:
            return None
        return self.unpack(packed), packed

    def _cached(self, game_id: str, at: int | None) -> Table | None:
        packed = self._packed(game_id, lambda v: at is None or v <= at)
        return None if packed is None else self.unpack(packed)

    def _held(self, game_id: str) -> tuple[int, bytes, Table | None] | None:
        """The cached table of the game as ``(version, marshalled table, the shared
        read-only table or None)``, if any."""
        with self._cache_lock:
            entry = self._cache.get(game_id)
            if entry is not None:
                self._cache.move_to_end(game_id)
            return entry

    def _packed(self, game_id: str, usable: Callable[[int], bool]) -> bytes | None:
        """The cached table of the game, marshalled, if its version is ``usable``."""
        held = self._held(game_id)
        return held[1] if held is not None and usable(held[0]) else None

    @staticmethod
    def pack(table: Table) -> bytes:
        """``table`` as this cache keeps it (marshalled, format 2)."""
        return marshal.dumps(table.to_json(), 2)

    @staticmethod
    def unpack(packed: bytes) -> Table:
        """A fresh table from :meth:`pack`'s bytes."""
        return Table.from_json(marshal.loads(packed))

    def remember(self, table: Table, packed: bytes | None = None,
                 shared: bool = False) -> None:
        """Keep ``table`` in this process's bounded cache of tables, so the next load of
        its game folds only what came after it (the worker keeps what it projected);
        ``packed``: :meth:`pack` of it, if the caller made it already.  ``shared``: keep
        the object itself too, for work that only reads it (the caller changes it no
        more, and hands it only to readers)."""
        cached = self._cache.get(table.game_id)
        if cached is not None and cached[0] == table.version:
            return  # loaded straight from the cache: nothing new to encode
        packed = packed or self.pack(table)
        with self._cache_lock:
            self._cache[table.game_id] = (table.version, packed, table if shared else None)
            self._cache.move_to_end(table.game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def evolve(self, table: Table | None, game_id: str, event: Event,
               copy_move: bool = True) -> Table:
        """The table after one more event (a new object only for GameCreated/Rewound).

        A Rewound loads the table at its target (one linear load); :meth:`load` and
        :meth:`walk` avoid even that when they fold many events.  ``copy_move=False``:
        the rules may keep or change the event's move (the caller drops the event)."""
        if event.type == ev.GAME_CREATED:
            data = event.data
            game = registry.get(data["kind"]).for_rules(data["rules_version"])
            tape = TapePlayer(event.tape)
            state = game.setup(list(data["names"]), copy.deepcopy(data["options"]), tape)
            tape.finish()
            return Table(
                game_id=game_id, kind=data["kind"], names=list(data["names"]),
                options=data["options"], state=state, version=event.version,
                commitment=data["commitment"], rules_version=data["rules_version"],
                created_at=event.at, head=event.hash,
            )
        if table is None:
            raise ValueError(f"event {event.version} ({event.type}) before GameCreated")
        if event.type == ev.MOVE_PLAYED:
            tape = TapePlayer(event.tape)
            move = event.data["move"]
            table.game.apply(table.state, event.data["seat"],
                             ev.json_copy(move) if copy_move else move, tape)
            tape.finish()
        elif event.type == ev.REWOUND:
            return _rewound(table, self.load(game_id, at=event.data["to"]), event)
        elif event.type == ev.FORKED:
            table.game_id = game_id
            table.commitment = event.data["commitment"]
            table.ended = False
        elif event.type == ev.GAME_ENDED:
            table.ended = True
            table.revealed_secrets = [*table.revealed_secrets, event.data["secret"]]
            if event.data.get("early"):
                table.ended_early = event.data["outcome"]
        elif event.type == ev.VOTE_CALLED:
            table.vote_from = event.version
        elif event.type == ev.RULES_MIGRATED:
            table.game.migrate(table.state, event.data["to"])
            table.rules_version = event.data["to"]
        table.version, table.head = event.version, event.hash
        return table

    # -- snapshots (a cache the worker writes; the stream stays the truth) ------------
    def snapshot(self, game_id: str, name: str = "snapshot") -> Table | None:
        """The worker's latest snapshot (``name="snapshot:prev"``: the one before it)."""
        return self._snapshot_of(game_id, self.store.redis.get(key(game_id, name)))

    @staticmethod
    def _snapshot_of(game_id: str, raw: str | None) -> Table | None:
        """The table in a snapshot's stored JSON ``raw``, if it is usable here."""
        data = json.loads(raw) if raw else None
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
        """Cache ``table``, tagged with the rules version that folded it.  The snapshot it
        replaces is kept as ``snapshot:prev``: a take-back that reaches back past the
        latest one (a move taken back again and again) then starts from there, not from
        event 1."""
        latest, earlier = key(table.game_id, "snapshot"), key(table.game_id, "snapshot:prev")
        keep = bool(self.store.redis.exists(latest)) and \
            self.snapshot_version(table.game_id) < table.version
        pipe = self.store.redis.pipeline(transaction=True)
        if keep:
            # server-side: the old JSON is not sent back.  Sent as a raw command since
            # redis-py's cluster pipeline blocks its rename() (a two-key command), though
            # both keys are in the game's slot, so the MULTI is legal on a cluster.
            pipe.execute_command("RENAME", latest, earlier)
        pipe.set(latest, json.dumps({"written_with": registry.get(table.kind).rules_version,
                                     "table": table.to_json()}))
        pipe.set(key(table.game_id, "snapshot_version"), json.dumps(table.version))
        pipe.execute()

    def snapshot_version(self, game_id: str) -> int:
        """The version of the game's snapshot (0: none), without reading the snapshot."""
        return self.store.get_json(game_id, "snapshot_version") or 0
