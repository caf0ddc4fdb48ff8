"""History snapshots: any past version of a game from a stored table at most K-1 folds back.

The worker's snapshot (``Replayer.write_snapshot``) serves the latest version; a history
page asks for any version, and folding up to it from event 1 cost 70-250 ms per version
on a 1,111-event game.  This module keeps, per game, one Redis hash
(``rp:{g:<id>}:history``, in the game's cluster slot) of tables at past versions, and
loads version ``V`` from the nearest one on ``V``'s own fold path.

Where the snapshots are.  The table at ``V`` is its *fold path* folded: walking back from
``V``, a ``Rewound{to}`` jumps to ``to`` and any other event is one fold (see
``events.replay.surviving``).  A version's *depth* is the number of folds on its path
from event 1 (without rewinds, its version).  A snapshot is kept at every version whose
depth is a multiple of ``K`` (:data:`EVERY`): walking back from any ``V``, the depth falls
by one per fold, so a snapshot is met within ``K - 1`` folds, however the take-backs and
rewinds lie (a snapshot at every K-th *version* would not do: a take-back right after
one jumps over it).  A snapshot is of the table at its version, which the append-only
log never changes, so a later rewind cannot make it stale: a path that does not pass
through it simply never meets it.

Written lazily: a load that meets no snapshot within K-1 folds folds from the one it
meets (or from event 1) and stores the tables at the depths it passes, in one pipeline.
The first look at an old game's history thus costs one fold of its path; every later
look at most K-1 folds.

Storage.  Each snapshot is :meth:`Replayer.pack` (marshal) compressed with zlib, stored
as bytes under the field ``<version>:<depth>:<kind>@<rules>``: the tag of the rules
that folded it (as the worker's snapshot carries ``written_with``).  Fields of other
rules are ignored (and dropped at the next write), so a deploy of new rules never
loads a table the old ones folded.  HKEYS reads the index without the tables.
``revealed_secrets`` and ``commitment`` in a snapshot are what the whole log up to its
version says (rewound branches included), as a fold from event 1 gives them.
"""

from __future__ import annotations

import marshal
import os
import zlib
from typing import Any

from redis.client import NEVER_DECODE

from events import envelope as ev
from events.envelope import Event, upcast
from events.store import LRU, UnknownGame, key
from games import registry

# events.replay imports this module (its Replayer makes one), so the types stay loose
# here: ``replayer`` is an events.replay.Replayer, a ``Table`` its events.replay.Table.
Replayer = Table = Any

# K: a snapshot every K folds of a path.  Chosen by bench/scrub.py (bench/README.md,
# "History pages from snapshots"); RAVENPOST_HISTORY_EVERY overrides it.
EVERY = int(os.environ.get("RAVENPOST_HISTORY_EVERY", "50"))
LEVEL = 6  # zlib level: a King's Guild table packs 3-4x smaller, ~0.1 ms to inflate
KEPT = 64  # decoded snapshots kept per process (packed bytes), for scrubbing next/prev
NAME = "history"


def history_key(game_id: str) -> str:
    return key(game_id, NAME)


def rules_tag(kind: str) -> str | None:
    """The tag of snapshots this code writes for ``kind`` (None: a kind it does not know)."""
    try:
        return f"{kind}@{registry.get(kind).rules_version}"
    except KeyError:
        return None


def field_name(version: int, depth: int, tag: str) -> str:
    return f"{version}:{depth}:{tag}"


def parse_index(names: list[str]) -> tuple[dict[int, tuple[int, str]], list[str]]:
    """The usable snapshots of a hash's field names, ``{version: (depth, field)}``, and the
    fields written by other rules (or unreadable), to be dropped."""
    usable: dict[int, tuple[int, str]] = {}
    stale: list[str] = []
    tags: dict[str, str | None] = {}
    for name in names:
        try:
            version, depth, tag = name.split(":", 2)
            kind = tag.rsplit("@", 1)[0]
            if kind not in tags:
                tags[kind] = rules_tag(kind)
            if tags[kind] != tag:
                raise ValueError(tag)
            usable[int(version)] = (int(depth), name)
        except ValueError:
            stale.append(name)
    return usable, stale


class HistorySnapshots:
    """Loads past versions of games through their history snapshots (see the module)."""

    def __init__(self, replayer: Replayer, every: int = EVERY, kept: int = KEPT) -> None:
        if every < 1:
            raise ValueError("a history snapshot every K folds needs K >= 1")
        self.replayer = replayer
        self.every = every
        # (game id, field) -> the snapshot's packed table: a field's table never changes
        self._kept = LRU(kept)
        self.folded = 0  # folds done by the last load (tests and the benchmark read it)

    @property
    def store(self):
        return self.replayer.store

    def load(self, game_id: str, at: int) -> Table:
        """The table at version ``at``, as a fold from event 1 gives it."""
        if at < 1:
            raise UnknownGame(f"{game_id} has no version {at}")
        redis = self.store.redis
        index, stale = parse_index(redis.hkeys(history_key(game_id)))
        # Walk back along ``at``'s fold path until it meets a snapshot (or event 1),
        # reading the log down to the next snapshot below at each step.
        by_version: dict[int, Event] = {}
        low = at + 1  # the lowest version read
        blob: tuple[str, bytes | None] | None = None  # a snapshot read beside the log

        def read_down_to(start: int, below: int) -> None:
            """Read versions ``start..low-1``, and the snapshot at ``below`` beside them."""
            nonlocal low, blob
            wanted = index[below][1] if below in index else None
            if wanted is not None and self._kept.get(f"{game_id}\0{wanted}") is not None:
                wanted = None  # decoded here already
            events, stored = self._read(game_id, start, low - 1, wanted)
            if not events or events[-1].version != low - 1:
                raise UnknownGame(f"{game_id} has no version {at}")
            by_version.update((e.version, e) for e in events)
            low = start
            if wanted is not None:
                blob = (wanted, stored)

        version, chain = at, []
        while version > 0 and version not in index:
            if version < low:
                below = max((v for v in index if v < version), default=0)
                read_down_to(below + 1, below)
            event = by_version[version]
            if event.type == ev.REWOUND:
                version = event.data["to"]
            else:
                chain.append(event)
                version -= 1
        if version + 1 < low:  # a rewind jumped to a snapshot below what was read
            read_down_to(version + 1, version)
        base: Table | None = None
        depth = 0
        if version:
            depth, name = index[version]
            packed = self._kept.get(f"{game_id}\0{name}")
            if packed is None:
                stored = blob[1] if blob is not None and blob[0] == name else \
                    redis.execute_command("HGET", history_key(game_id), name,
                                          **{NEVER_DECODE: True})
                if stored is None:  # dropped meanwhile: start again without it
                    return self.load(game_id, at)
                packed = zlib.decompress(stored)
                self._kept[f"{game_id}\0{name}"] = packed
            base = self.replayer.unpack(packed)
        chain.reverse()
        events = [by_version[v] for v in range(version + 1, at + 1)]
        return self._fold(game_id, base, depth, chain, events, index, stale)

    def _read(self, game_id: str, start: int, end: int, snapshot: str | None
              ) -> tuple[list[Event], bytes | None]:
        """Events ``start..end`` and (if named) a snapshot's stored bytes: one round trip."""
        pipe = self.store.log_reader.pipeline(transaction=False)
        pipe.xrange(key(game_id, "log"), min=f"0-{start}", max=f"0-{end}")
        if snapshot is not None:
            pipe.execute_command("HGET", history_key(game_id), snapshot,
                                 **{NEVER_DECODE: True})
        replies = pipe.execute()
        if not replies[0] and self.store.restored(game_id):  # archived: in Redis again now
            return self._read(game_id, start, end, snapshot)
        events = [upcast(Event.from_reply(entry_id, fields)) for entry_id, fields
                  in replies[0]]
        return events, replies[1] if snapshot is not None else None

    def _fold(self, game_id: str, base: Table | None, depth: int, chain: list[Event],
              events: list[Event], index: dict[int, tuple[int, str]],
              stale: list[str]) -> Table:
        """``base`` (at depth ``depth``) brought along ``chain`` to the end of ``events``
        (every event after ``base``, ``chain`` the ones folded), storing the tables at
        the depths that are multiples of K on the way that the hash lacks."""
        self.folded = len(chain)
        revealed = list(base.revealed_secrets) if base else []
        commitment = base.commitment if base else None
        whole_log = iter(events)  # what the log says up to each version, rewound or not

        def log_until(version: int) -> None:
            nonlocal commitment
            for event in whole_log:
                if event.type == ev.GAME_ENDED:
                    revealed.append(event.data["secret"])
                found = _commitment_of(event)
                if found:
                    commitment = found
                if event.version == version:
                    return

        table = base
        new: dict[str, bytes] = {}
        for event in chain:
            table = self.replayer.evolve(table, game_id, event, copy_move=False)
            depth += 1
            if depth % self.every == 0 and event.version not in index:
                log_until(event.version)
                tag = rules_tag(table.kind)
                if tag is not None:
                    data = table.to_json() | {"revealed_secrets": list(revealed),
                                              "commitment": commitment or table.commitment}
                    new[field_name(event.version, depth, tag)] = zlib.compress(
                        marshal.dumps(data, 2), LEVEL)
        if table is None:
            raise UnknownGame(game_id)
        if events:
            log_until(events[-1].version)
            table.revealed_secrets = revealed
            if commitment:
                table.commitment = commitment
            table.version, table.head = events[-1].version, events[-1].hash
        if new:  # (fields of other rules go with the next write)
            self._write(game_id, new, stale)
        return table

    def _write(self, game_id: str, new: dict[str, bytes], stale: list[str]) -> None:
        pipe = self.store.redis.pipeline(transaction=False)
        pipe.hset(history_key(game_id), mapping=new)
        if stale:
            pipe.hdel(history_key(game_id), *stale)
        pipe.execute()

    # -- for the benchmark, the capacity figures and tests ---------------------------
    def sizes(self, game_id: str) -> dict[str, int]:
        """The stored bytes of each snapshot of the game (field -> bytes)."""
        redis = self.store.redis
        names = redis.hkeys(history_key(game_id))
        pipe = redis.pipeline(transaction=False)
        for name in names:
            pipe.hstrlen(history_key(game_id), name)
        return dict(zip(names, pipe.execute(), strict=True))


def _commitment_of(event: Event) -> str | None:
    if event.type in (ev.GAME_CREATED, ev.FORKED, ev.REWOUND):
        return event.data.get("commitment")
    return None
