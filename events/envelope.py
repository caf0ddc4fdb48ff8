"""The event envelope, its canonical JSON, the hash chain and upcasting on read.

An entry in a game's stream holds ``type``, ``v`` (envelope schema version of that
type), ``at``, ``actor``, ``data``, ``tape``, ``prev`` and ``hash``.  ``hash`` is the
SHA-256 of the canonical JSON of every other field plus the version, and ``prev`` is the
hash of the entry before, so editing any entry breaks the chain from there on.
Old shapes of an event type are upcast when read; stored entries are never rewritten.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from orjson import OPT_SORT_KEYS as _SORTED
from orjson import JSONDecodeError as _FastDecodeError
from orjson import dumps as _fast_dumps
from orjson import loads as _fast_loads

GENESIS = "0" * 64

# Platform event types (past tense: things that happened).
GAME_CREATED = "GameCreated"
MOVE_PLAYED = "MovePlayed"
DEADLINE_SET = "DeadlineSet"
REMINDER_SENT = "ReminderSent"
TIMED_OUT = "TimedOut"
UNDO_REQUESTED = "UndoRequested"
UNDO_ANSWERED = "UndoAnswered"
REWOUND = "Rewound"
FORKED = "Forked"
ADMIN_NOTE = "AdminNote"
GAME_ENDED = "GameEnded"
RULES_MIGRATED = "RulesMigrated"
# Time controls (events/clocks.py folds them): a vacation declared in advance, and the
# stand-in taking a seat after time-outs in a row until the player is back.
VACATION_DECLARED = "VacationDeclared"
BOT_SEATED = "BotSeated"
BOT_UNSEATED = "BotUnseated"

EVENT_TYPES = {
    GAME_CREATED, MOVE_PLAYED, DEADLINE_SET, REMINDER_SENT, TIMED_OUT, UNDO_REQUESTED,
    UNDO_ANSWERED, REWOUND, FORKED, ADMIN_NOTE, GAME_ENDED, RULES_MIGRATED,
}
EVENT_TYPES |= {VACATION_DECLARED, BOT_SEATED, BOT_UNSEATED}

# Events that never change what a player sees of the rules' state: a move made while
# one of these was appended is not stale.
PASSIVE = {DEADLINE_SET, REMINDER_SENT, TIMED_OUT, ADMIN_NOTE, UNDO_REQUESTED, UNDO_ANSWERED}
PASSIVE |= {VACATION_DECLARED, BOT_SEATED, BOT_UNSEATED}

# Table votes to abandon or end early (events.votes): passive until one carries, and the
# vote that carries is recorded in the GameEnded it appends.  A resignation is that
# GameEnded alone (early="resigned").
VOTE_CALLED = "VoteCalled"
VOTE_CAST = "VoteCast"
EVENT_TYPES |= {VOTE_CALLED, VOTE_CAST}
PASSIVE |= {VOTE_CALLED, VOTE_CAST}

# Table talk (events.talk): a message to the whole table, and the admin hiding one (the
# message stays in the log for audit).  Never hidden information, never a change of the
# rules' state: passive, so an act link stays valid across them.  (The architecture card
# calls the second one MessageHidden; it is written as SaidHidden, the pair of Said.)
SAID = "Said"
SAID_HIDDEN = "SaidHidden"
EVENT_TYPES |= {SAID, SAID_HIDDEN}
PASSIVE |= {SAID, SAID_HIDDEN}

# The envelope schema version each type is written with now.
CURRENT_V: dict[str, int] = {t: 1 for t in EVENT_TYPES}

# (type, v) -> function turning data of version v into data of version v + 1.
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _digest(body: dict[str, Any]) -> str:
    """The hash of an event's :meth:`Event.body`."""
    return hashlib.sha256(canonical(body).encode()).hexdigest()


def now() -> str:
    """The current UTC time as an ISO 8601 string with a Z."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True)
class Event:
    """One entry of a game's log."""

    version: int
    type: str
    actor: str
    data: dict[str, Any]
    tape: list[int] = field(default_factory=list)
    at: str = ""
    v: int = 1
    prev: str = GENESIS
    hash: str = ""

    def body(self) -> dict[str, Any]:
        """Everything the hash covers."""
        return {
            "version": self.version, "type": self.type, "v": self.v, "at": self.at,
            "actor": self.actor, "data": self.data, "tape": self.tape, "prev": self.prev,
        }

    def compute_hash(self) -> str:
        return _digest(self.body())

    def sealed(self, prev: str) -> Event:
        """This event chained after ``prev`` with its hash filled in."""
        at = self.at or now()
        # one copy of the event, not two: each copy was a fifth of sealing it
        return replace(self, prev=prev, at=at,
                       hash=_digest(self.body() | {"prev": prev, "at": at}))

    @property
    def seat(self) -> int | None:
        """The acting seat, when the actor is a seat."""
        return int(self.actor[5:]) if self.actor.startswith("seat:") else None

    def to_fields(self) -> dict[str, str]:
        """The stream entry's fields."""
        return {
            "type": self.type, "v": str(self.v), "at": self.at, "actor": self.actor,
            "data": canonical(self.data), "tape": canonical(self.tape),
            "prev": self.prev, "hash": self.hash,
        }

    @classmethod
    def from_entry(cls, entry_id: str, fields: dict[str, str]) -> Event:
        """Decode a stream entry exactly as stored (no upcasting)."""
        return cls._decoded(entry_id, fields["type"], fields["v"], fields["at"],
                            fields["actor"], fields["data"], fields["tape"], fields["prev"],
                            fields["hash"])

    @classmethod
    def from_reply(cls, entry_id: str, fields: list[str] | dict[str, str]) -> Event:
        """:meth:`from_entry` of an entry as Redis sends it (``[field, value, ...]``;
        a dict, as redis-py's own decoding makes it, is taken too)."""
        if isinstance(fields, dict):
            return cls.from_entry(entry_id, fields)
        if fields[0::2] != ENTRY_FIELDS:  # written otherwise (by hand, or long ago)
            pairs = iter(fields)
            return cls.from_entry(entry_id, dict(zip(pairs, pairs, strict=True)))
        return cls._decoded(entry_id, *fields[1:16:2])

    @classmethod
    def _decoded(cls, entry_id: str, type_: str, v: str, at: str, actor: str, data: str,
                 tape: str, prev: str, hash_: str) -> Event:
        # A load decodes thousands of entries: the frozen dataclass's __init__ (one
        # object.__setattr__ per field) was a fifth of a fold, so the fields are set at once.
        event = object.__new__(cls)
        event.__dict__.update(
            version=int(entry_id.split("-", 1)[1]), type=type_, v=int(v), at=at,
            actor=actor, data=_loads(data), tape=[] if tape == "[]" else _loads(tape),
            prev=prev, hash=hash_,
        )
        return event


# The fields of a stream entry in the order every append writes them: to_fields(), then
# the append's writer token (events.store.WRITER, which the event does not cover).
ENTRY_FIELDS = ["type", "v", "at", "actor", "data", "tape", "prev", "hash", "w"]


def check_chain(events: Iterable[Event]) -> tuple[bool, int, str]:
    """The hash chain of a game's events in order, from the first: ``(ok, events, first
    problem or '')``.  Each event's version follows the last, its ``prev`` is the last
    one's hash, and its hash is that of its own content."""
    prev, count = GENESIS, 0
    for event in events:
        count += 1
        if event.version != count:
            return False, count, f"version {event.version} found where {count} was expected"
        if event.prev != prev:
            return False, count, f"event {event.version}: prev does not match the chain"
        if event.compute_hash() != event.hash:
            return False, count, f"event {event.version}: hash does not match its content"
        prev = event.hash
    return True, count, ""


def _loads(text: str) -> Any:
    """``json.loads``, by orjson where that reads the same (about seven times faster on an
    event's data: half of a fold's decoding).  orjson refuses NaN and lone surrogates,
    and reads integers beyond 64 bits as floats; no event written through the API holds
    any of them.  What orjson refuses is read by ``json``; so is text of 19 characters
    or more (room for such an integer) unless orjson writes what it read back as the
    very same text, which then holds every number exactly: what :func:`canonical`
    writes, as every append does.  (That check costs half of the search for a run of
    19 digits it replaces, which cost twice the decoding itself.)"""
    try:
        value = _fast_loads(text)
    except _FastDecodeError:
        return json.loads(text)
    if len(text) < 19 or _same_text(value, text):
        return value
    return json.loads(text)


def _same_text(value: Any, text: str) -> bool:
    """orjson writes ``value`` back as ``text``, byte for byte (keys sorted, as
    :func:`canonical` writes them); False where it cannot write it at all."""
    try:
        return _fast_dumps(value, option=_SORTED) == text.encode()
    except TypeError:  # orjson.JSONEncodeError is one
        return False


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars): what ``copy.deepcopy`` gives,
    about five times faster (it need not track shared or cyclic objects)."""
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    return value


def upcast(event: Event) -> Event:
    """The event with its data brought to the current shape of its type."""
    data, v = event.data, event.v
    while v < CURRENT_V.get(event.type, v):
        data = UPCASTERS[(event.type, v)](data)
        v += 1
    return event if v == event.v else replace(event, data=data, v=v)


def seat_actor(seat: int) -> str:
    return f"seat:{seat}"
