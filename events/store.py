"""One Redis stream per game, with entry IDs ``0-<version>``.

``XADD`` with an explicit ID refuses an ID that is not above the stream's last one, so
appending version ``n + 1`` succeeds for exactly one writer: that is the optimistic
concurrency check, with no lock and no Lua.  Every key of one game carries the hash tag
``{g:<id>}`` so a Redis Cluster keeps them in one slot.  Streams are never trimmed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import redis

from events import shards
from events.envelope import GENESIS, Event, check_chain, upcast
from events.sent import Trip

MAX_VERSION = 2**63  # stream ids are 64-bit; a larger bound means "to the end"
# Indexes across games, each split into buckets on a cluster (see events/shards.py):
GAMES_INDEX = "rp:games"  # sorted set: game id -> creation time
DIRTY = "rp:dirty"  # sorted set: game id -> time of its last append (projection may lag)


# A stream entry's field naming the append that wrote it (not part of the event: the hash
# does not cover it, and reading ignores it); see EventStore.holds.
WRITER = "w"


def writer_token() -> str:
    """A token of one append: with the event's hash (see EventStore.holds), what tells
    it from the other appends of its version.  A number, which a stream stores in a few
    bytes (log bytes per event unchanged, measured)."""
    return str(secrets.randbelow(2**31))


def keyed_writer_token(actor: str, idempotency_key: str) -> str:
    """The writer token of an append asked for with ``idempotency_key`` by ``actor``:
    the same for every retry of that request, so a retry can find the entry the first
    try wrote (see :meth:`EventStore.written_by`).  Negative, so that it is never a
    random :func:`writer_token`; a 32-bit number, stored as compactly."""
    digest = hashlib.sha256(f"{actor}\n{idempotency_key}".encode()).digest()
    return str(-1 - int.from_bytes(digest[:4], "big") % (2**31 - 1))


class ConflictError(Exception):
    """The stream is not at the expected version; ``version`` is where it is."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the game is at version {version}")
        self.version = version


class UnknownGame(KeyError):
    """No game with this id."""


def key(game_id: str, name: str) -> str:
    """A per-game key in the game's hash slot, e.g. ``rp:{g:abc}:log``."""
    return f"rp:{{g:{game_id}}}:{name}"


def new_game_id() -> str:
    """A short random id that is safe in URLs."""
    return secrets.token_urlsafe(9).replace("-", "x").replace("_", "y")


class LRU:
    """A small bounded mapping shared by a process's threads; the least recently set
    entries go first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __setitem__(self, name: str, value: Any) -> None:
        with self._lock:
            self._items[name] = value
            self._items.move_to_end(name)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, name: str) -> Any:
        with self._lock:
            return self._items.get(name)


def _as_sent(client: redis.Redis) -> redis.Redis:
    """``client``, or a client on its connection pool that leaves the replies of XRANGE
    and XREVRANGE as Redis sends them (a cluster client is kept as it is: its entries
    come decoded, which :meth:`Event.from_reply` takes too)."""
    if shards.is_cluster(client) or not isinstance(client, redis.Redis):
        return client
    reader = redis.Redis(connection_pool=client.connection_pool)
    for command in ("XRANGE", "XREVRANGE"):
        reader.response_callbacks.pop(command, None)
    return reader


class EventStore:
    """Append-only game logs on Redis Streams (a ``decode_responses=True`` client)."""

    def __init__(self, client: redis.Redis,
                 clock: Callable[[], str] | None = None) -> None:
        self.redis = client
        self.cluster = shards.is_cluster(client)
        # Reads of the log: a client on the same connections whose stream replies come
        # as Redis sends them (see Event.from_reply); redis-py's decoding of each entry
        # into an (id, dict) pair was a quarter of reading a log (bench/load_game.py).
        self.log_reader = _as_sent(client)
        # what stamps an event's ``at`` (an ISO string); the worker's runtime sets its
        # own, which tests can move (time controls fold these timestamps)
        self.clock = clock
        # Called with a game id whose log is missing: brings the game back from its
        # archive if it has one (events/archive.py; set by the runtime), whether it did.
        # Every read and append of a log asks it, so no caller need know of archives.
        self.restorer: Callable[[str], bool] | None = None

    def restored(self, game_id: str) -> bool:
        """Whether the game's missing log is back from its archive now."""
        return self.restorer is not None and self.restorer(game_id)

    # -- writing -----------------------------------------------------------------------
    def append(self, game_id: str, expected_version: int, event: Event,
               prev: str | None = None) -> Event:
        """Append ``event`` as version ``expected_version + 1``; ConflictError otherwise.

        ``prev``, when the caller knows it, is the hash of the event at
        ``expected_version`` (a load just read it): the log's end is then not read again.
        That is safe because XADD's explicit id refuses the entry unless the log ends
        exactly at ``expected_version``, whose hash never changes once written."""
        return self.append_then(game_id, expected_version, event, prev)[0]

    def append_then(self, game_id: str, expected_version: int, event: Event,
                    prev: str | None = None, then: Sequence[tuple[Any, ...]] = (),
                    writer: str | None = None) -> tuple[Event, list[Any]]:
        """:meth:`append`, with the commands ``then`` sent in the same round trip right
        after the XADD (e.g. what must be read once the event is in): ``(event, their
        replies)``.  They should only read: they are sent whether or not the XADD is
        refused (a refusal raises ConflictError as ever).  ``writer``: the append's
        writer token (default: a fresh :func:`writer_token`)."""
        log = key(game_id, "log")
        if prev is None or expected_version < 1:
            last = self.redis.xrevrange(log, count=1)
            current, prev = (0, GENESIS) if not last else (
                int(last[0][0].split("-", 1)[1]), last[0][1]["hash"])
            if current != expected_version:
                if current == 0 and expected_version > 0 and self.restored(game_id):
                    return self.append_then(game_id, expected_version, event, None, then,
                                            writer)
                raise ConflictError(current)
        sealed = Event(
            version=expected_version + 1, type=event.type, actor=event.actor,
            data=event.data, tape=event.tape, v=event.v,
            at=event.at or (self.clock() if self.clock else ""),
        ).sealed(prev)
        return sealed, self._mark_then_add(game_id, sealed, log, then,
                                           writer or writer_token())

    def _mark_then_add(self, game_id: str, sealed: Event, log: str,
                       then: Sequence[tuple[Any, ...]], writer: str) -> list[Any]:
        """XADD ``sealed`` (and ``then``) on a pipeline that marks the game first (see
        :meth:`marked_pipeline`): the replies of ``then``; ConflictError if the version
        is taken."""
        pipe, marks = self.marked_pipeline(game_id, first=sealed.version == 1)
        # NOMKSTREAM past the first event: an append decided on a table a process held
        # must not start a log afresh at version n + 1 once the game was archived.
        pipe.xadd(log, sealed.to_fields() | {WRITER: writer}, id=f"0-{sealed.version}",
                  nomkstream=sealed.version > 1)
        for command in then:
            pipe.execute_command(*command)
        replies = pipe.execute(raise_on_error=False)
        for result in replies[:marks]:
            if isinstance(result, Exception):
                raise result
        if replies[marks] is None:  # no log: archived (back now, so again), or no game
            if self.restored(game_id):
                return self._mark_then_add(game_id, sealed, log, then, writer)
            raise ConflictError(0)
        self.check_added(game_id, sealed, writer, replies[marks])
        return replies[marks + 1:]

    def check_added(self, game_id: str, sealed: Event, writer: str, reply: Any) -> None:
        """Raise what the reply of the XADD of ``sealed`` by the append with ``writer``
        says went wrong: ConflictError if another append holds its version (its own
        entry, sent again, is a success: see :meth:`holds`), else a failed command's
        error."""
        if isinstance(reply, redis.ResponseError) and "equal or smaller" in str(reply):
            if not self.holds(game_id, sealed, writer):
                raise ConflictError(self.version(game_id)) from reply
        elif isinstance(reply, Exception):
            raise reply

    def holds(self, game_id: str, event: Event, writer: str) -> bool:
        """Whether the log's entry at ``event.version`` is ``event`` as written by the
        append that sent ``writer`` (:func:`writer_token`).

        An append whose reply was lost may be sent again (the cluster client does so by
        itself on a connection error or a timeout); the XADD then finds its own entry in
        the way, which is a success, not a conflict.  The hash alone would not tell: two
        writers deciding the same event at the same instant (a clock frozen in a test,
        two workers firing one time-out) write the same hash, and only one of them
        appended; the token alone, drawn from 2**31, might be drawn twice.  (A keyed
        token is the same for every retry of one request: any of them that wrote this
        very entry is the request's own.)"""
        at = f"0-{event.version}"
        entries = self.redis.xrange(key(game_id, "log"), min=at, max=at)
        return bool(entries) and entries[0][1].get(WRITER) == writer \
            and entries[0][1].get("hash") == event.hash

    def written_by(self, game_id: str, after: int, writer: str,
                   limit: int = 100) -> Event | None:
        """The first of the ``limit`` events after version ``after`` that the append
        with ``writer`` (a :func:`keyed_writer_token`) wrote, if any (upcast)."""
        entries = self.redis.xrange(key(game_id, "log"), min=f"0-{after + 1}", max="+",
                                    count=limit)
        for entry_id, fields in entries:
            if fields.get(WRITER) == writer:
                return upcast(Event.from_entry(entry_id, fields))
        return None

    def marked_pipeline(self, game_id: str, first: bool = False) -> tuple[Any, int]:
        """A pipeline for an append, on which the game is marked for projection (and,
        with ``first``, entered in the index of games) *before* anything the caller adds:
        ``(pipeline, how many of its replies are those marks)``.

        If this process dies right after the append, the sweep still finds the game (a
        mark without an append is harmless).  On one server the marks go in the same
        pipeline, which the server runs in order.  On a cluster the marks' buckets and the
        log live on different masters, and a cluster pipeline sends to each node at once
        with no order between them, so the marks are written (and acknowledged) here and
        the caller's pipeline is a fresh one: one more round trip per append.  Never a
        transaction: the XADD's explicit id stays the concurrency check.
        """
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(shards.bucket_key(self.redis, DIRTY, game_id), {game_id: now})
        if first:
            pipe.zadd(shards.bucket_key(self.redis, GAMES_INDEX, game_id), {game_id: now},
                      nx=True)
        if not self.cluster:
            return pipe, 2 if first else 1
        pipe.execute()  # raises if a mark failed: nothing is appended
        return self.redis.pipeline(transaction=False), 0

    # -- reading -----------------------------------------------------------------------
    def version(self, game_id: str) -> int:
        """The last version in the game's log (0 for no game)."""
        last = self.redis.xrevrange(key(game_id, "log"), count=1)
        if not last and self.restored(game_id):
            return self.version(game_id)
        return int(last[0][0].split("-", 1)[1]) if last else 0

    def exists(self, game_id: str) -> bool:
        return bool(self.redis.exists(key(game_id, "log"))) or self.restored(game_id)

    def read(self, game_id: str, start: int = 1, end: int | None = None,
             raw: bool = False) -> list[Event]:
        """Events ``start..end`` (inclusive), upcast unless ``raw``."""
        return list(self.iter(game_id, start, end, raw))

    def iter(self, game_id: str, start: int = 1, end: int | None = None,
             raw: bool = False, batch: int = 256) -> Iterator[Event]:
        """Stream events in batches so a long game is not read in one reply.

        Each batch is asked for as soon as the one before it has arrived, before that one
        is decoded: Redis gathers the next batch (half of an XRANGE's time, measured)
        while this process decodes the last.  A fold from event 1 went from 11.1 to 8.9
        µs per event (bench/load_game.py's game, best of 15, medians of six rounds); the
        batch size mattered less than the noise between 256 and 1,000."""
        log = key(game_id, "log")
        if end is not None and end < max(start, 1):
            return
        high = "+" if end is None or end >= MAX_VERSION else f"0-{end}"
        # the first read also asks whether the game is archived (same round trip): an
        # empty tail is then told from a log that is not in Redis
        pending: Trip | None = self._range(log, f"0-{max(start, 1)}", high, batch,
                                           archived=key(game_id, "archived"))
        try:
            while pending is not None:
                entries, *archived = pending.replies()
                if isinstance(entries, Exception):
                    raise entries
                pending = None
                if archived and archived[0] and not entries and self.restored(game_id):
                    yield from self.iter(game_id, start, end, raw, batch)
                    return
                if len(entries) == batch:
                    low = f"0-{int(entries[-1][0].split('-', 1)[1]) + 1}"
                    pending = self._range(log, low, high, batch)
                for entry_id, fields in entries:
                    event = Event.from_reply(entry_id, fields)
                    yield event if raw else upcast(event)
        finally:
            if pending is not None:  # the caller stopped early: the connection goes back clean
                pending.close()

    def _range(self, log: str, low: str, high: str, count: int,
               archived: str | None = None) -> Trip:
        """An XRANGE of the log on its way (see events/sent.py), and with ``archived``
        an EXISTS of that key (the game's archive index entry)."""
        pipe = self.log_reader.pipeline(transaction=False)
        pipe.xrange(log, min=low, max=high, count=count)
        if archived is not None and self.restorer is not None:
            pipe.exists(archived)
        return Trip(pipe)

    def mark_dirty(self, game_id: str) -> None:
        """Ask the sweep to look at this game's projection."""
        self.redis.zadd(shards.bucket_key(self.redis, DIRTY, game_id), {game_id: time.time()})

    def latest(self, game_id: str, count: int = 50, end: int | None = None) -> list[Event]:
        """The last ``count`` events up to version ``end`` (default: the end), newest
        first (upcast)."""
        high = "+" if end is None or end >= MAX_VERSION else f"0-{max(end, 0)}"
        entries = self.log_reader.xrevrange(key(game_id, "log"), max=high, count=count)
        # versions start at 1: nothing at or below ``end`` means no log in Redis
        if not entries and (end is None or end >= 1) and self.restored(game_id):
            return self.latest(game_id, count, end)
        return [upcast(Event.from_reply(entry_id, fields)) for entry_id, fields in entries]

    def backwards(self, game_id: str, end: int | None = None, page: int = 100
                  ) -> Iterator[Event]:
        """Events from version ``end`` (default: the end) back to the first, newest first,
        read ``page`` at a time: a caller that stops at the first event it needs reads
        one page, however much passive talk came after it."""
        while True:
            events = self.latest(game_id, page, end=end)
            yield from events
            if len(events) < page or events[-1].version <= 1:
                return
            end = events[-1].version - 1

    def game_ids(self, offset: int = 0, limit: int = 100, newest_first: bool = True) -> list[str]:
        """Game ids in order of creation (merged across the index's buckets)."""
        return shards.ztop(self.redis, GAMES_INDEX, offset, limit, highest_first=newest_first)

    # -- integrity ---------------------------------------------------------------------
    def verify(self, game_id: str) -> tuple[bool, int, str]:
        """Check the hash chain: (ok, number of events, first problem or '')."""
        return check_chain(self.iter(game_id, raw=True))

    # -- per-game side data ------------------------------------------------------------
    def put_json(self, game_id: str, name: str, value: Any) -> None:
        self.redis.set(key(game_id, name), json.dumps(value))

    def get_json(self, game_id: str, name: str) -> Any:
        raw = self.redis.get(key(game_id, name))
        return None if raw is None else json.loads(raw)
