"""An append that is also a check: one round trip for a move decided on a table the
process already holds (see :meth:`events.gameplay.GameService.play_cached`).

The append is :meth:`events.store.EventStore.append`'s, made by one Lua script on the
game's own keys (one hash slot): the XADD with its explicit id stays the concurrency
check, and the script runs it only if a field of one of the game's hashes holds the
value the caller expects (the seat's API token generation: a revoked token appends
nothing).  The dirty mark goes first, as in ``append`` (a mark without an append is
harmless; see :meth:`events.store.EventStore.marked_pipeline`, which on a Redis Cluster
writes it a round trip ahead), and the caller's read commands right after the script.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from events.envelope import Event
from events.sent import Trip, sent
from events.store import WRITER, ConflictError, key, writer_token

# KEYS: the log, the guarding hash.  ARGV: the entry id, the hash field, the value it
# must hold ('0' stands for none), then the entry's fields and values.  No log past the
# first event answers 0: the game is archived (its guard is out of Redis too), and the
# caller's usual path restores it.
_APPEND_IF = """
if ARGV[1] ~= '0-1' and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local current = redis.call('HGET', KEYS[2], ARGV[2]) or '0'
if current ~= ARGV[3] then return current end
redis.call('XADD', KEYS[1], ARGV[1], unpack(ARGV, 4))
return false
"""


class GuardFailed(Exception):
    """The guarding field did not hold the expected value: nothing was appended."""

    def __init__(self, current: str) -> None:
        super().__init__(f"the guard holds {current!r}")
        self.current = current


def append_if(store, game_id: str, expected_version: int, event: Event, prev: str,
              guard: tuple[str, str, str], then: Sequence[tuple[Any, ...]] = (),
              writer: str | None = None) -> tuple[Event, list[Any]]:
    """Append ``event`` as version ``expected_version + 1`` chained to ``prev`` (the hash
    of the event at ``expected_version``), if the field ``guard[1]`` of the game's hash
    ``guard[0]`` (a name for :func:`events.store.key`) holds ``guard[2]``; ``then``: read
    commands sent right after it; ``writer``: the append's writer token (default: a
    fresh one).  ``(event, their replies)``; ConflictError if the log is not at
    ``expected_version``, GuardFailed if the guard does not hold (nothing is appended
    either way)."""
    with appending_if(store, game_id, expected_version, event, prev, guard, then,
                      writer) as appending:
        return appending.result()


class Appending:
    """:func:`append_if`'s round trip on its way: ``sealed`` is the event as the log
    will hold it, :meth:`result` waits for the answer and says what became of it."""

    def __init__(self, store, game_id: str, sealed: Event, writer: str, trip: Trip,
                 marks: int) -> None:
        self.sealed = sealed
        self._store, self._game_id, self._writer = store, game_id, writer
        self._trip, self._marks = trip, marks

    def result(self) -> tuple[Event, list[Any]]:
        """``(event, replies of the commands sent after it)``; ConflictError or
        GuardFailed as :func:`append_if` says."""
        results = self._trip.replies()
        marks = self._marks
        marked, added, replies = results[:marks], results[marks], results[marks + 1:]
        for result in marked:
            if isinstance(result, Exception):
                raise result
        if isinstance(added, Exception):
            self._store.check_added(self._game_id, self.sealed, self._writer, added)
        elif added == 0 and not isinstance(added, str):  # no log (archived): see the script
            raise ConflictError(0)
        elif added is not None:
            raise GuardFailed(added)
        return self.sealed, replies


@contextmanager
def appending_if(store, game_id: str, expected_version: int, event: Event, prev: str,
                 guard: tuple[str, str, str], then: Sequence[tuple[Any, ...]] = (),
                 writer: str | None = None) -> Iterator[Appending]:
    """:func:`append_if` sent at once: the block may work while Redis answers (on what
    does not depend on the answer), then calls ``result()``."""
    sealed = Event(
        version=expected_version + 1, type=event.type, actor=event.actor, data=event.data,
        tape=event.tape, v=event.v, at=event.at or (store.clock() if store.clock else ""),
    ).sealed(prev)
    writer = writer or writer_token()
    pairs = [part for item in (sealed.to_fields() | {WRITER: writer}).items()
             for part in item]
    pipe, marks = store.marked_pipeline(game_id, first=sealed.version == 1)
    pipe.execute_command("EVAL", _APPEND_IF, 2, key(game_id, "log"), key(game_id, guard[0]),
                         f"0-{sealed.version}", guard[1], guard[2], *pairs)
    for command in then:
        pipe.execute_command(*command)
    with sent(pipe) as trip:
        yield Appending(store, game_id, sealed, writer, trip, marks)
