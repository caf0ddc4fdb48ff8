"""Table talk: messages to the whole table, as events in the game's log.

A message is a ``Said{seat, text, via}`` event: public to every seat, never hidden
information, and passive (it changes nothing of the rules' state, so an act link stays
valid across it and no email is sent for it).  The admin may hide one with
``SaidHidden{version}``; the original stays in the log for audit, and every page then
shows "(hidden by the admin)" in its place.  Pages, the JSON API and email replies all
post through :func:`say`, which cleans the text the same way for all of them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from events import envelope as ev
from events.envelope import Event, seat_actor
from events.gameplay import GameService
from events.history import HIDDEN_TEXT
from events.store import ConflictError, EventStore
from games.protocol import IllegalMove

__all__ = ["HIDDEN_TEXT", "MAX_CHARS", "Message", "clean", "hide", "message_of", "messages",
           "say"]

MAX_CHARS = 500  # characters of a message, counted after cleaning
MAX_LINE_BREAKS = 2  # consecutive line breaks kept (one blank line); more are merged
VIAS = ("page", "api", "email")
APPEND_TRIES = 5  # a message depends on no version: a lost race is simply tried again

# Zero-width joiners that emoji sequences and some scripts need, and the tag characters of
# flag emoji; every other format character (bidi overrides and isolates among them, which
# can disguise text) is dropped.
_JOINERS = frozenset("\u200c\u200d") | {chr(c) for c in range(0xE0020, 0xE0080)}
_DROPPED = frozenset({"Cc", "Cf", "Cs"})
_BREAKS = re.compile(f"\n{{{MAX_LINE_BREAKS + 1},}}")


@dataclass(frozen=True)
class Message:
    """One message as the table reads it; ``text`` is kept even when ``hidden``."""

    version: int
    seat: int
    name: str
    text: str
    at: str
    via: str
    hidden: bool

    def public(self) -> dict[str, Any]:
        """The message as the API shows it: no text once hidden."""
        return {"version": self.version, "seat": self.seat, "name": self.name,
                "text": None if self.hidden else self.text, "at": self.at, "via": self.via,
                "hidden": self.hidden}


def clean(text: str) -> str:
    """``text`` as it is stored: NFC, line breaks as ``\\n``, tabs as spaces, control
    and format characters dropped (zero-width joiners kept), trailing spaces of each line
    and blank lines at either end stripped, at most ``MAX_LINE_BREAKS`` line breaks in a
    row.  IllegalMove (nothing is stored) if nothing is left or it is over ``MAX_CHARS``."""
    if not isinstance(text, str):
        raise IllegalMove("A message is text.")
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n")
    text = "".join(c for c in text if c == "\n" or c in _JOINERS
                   or unicodedata.category(c) not in _DROPPED)
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip()
    text = _BREAKS.sub("\n" * MAX_LINE_BREAKS, text)
    if not text:
        raise IllegalMove("A message cannot be empty: write something first.")
    if len(text) > MAX_CHARS:
        raise IllegalMove(f"A message can be at most {MAX_CHARS} characters; this one has "
                          f"{len(text)}. Nothing was sent.")
    return text


def say(games: GameService, game_id: str, seat: int, text: str, via: str = "page") -> Event:
    """Append ``Said{seat, text, via}`` by ``seat`` (its text :func:`clean`-ed): the
    appended event.  IllegalMove for a seat not in the game or a text :func:`clean`
    refuses; UnknownGame for no such game.  Messages are welcome after the game's end
    too.  ``via`` ("page", "api" or "email") says where it was written."""
    if via not in VIAS:
        raise ValueError(f"via is one of {', '.join(VIAS)}, not {via!r}")
    names = games.load(game_id).names
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(names):
        raise IllegalMove(f"seat {seat} is not in this game")
    data = {"seat": seat, "text": clean(text), "via": via}
    for attempt in range(APPEND_TRIES):
        try:
            return games.record(game_id, ev.SAID, data, actor=seat_actor(seat))
        except ConflictError:
            if attempt == APPEND_TRIES - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def hide(games: GameService, game_id: str, version: int, by: str = "admin") -> Event:
    """Append ``SaidHidden{version}`` (actor ``by``): the message at ``version`` is shown
    as hidden from now on; it stays in the log.  IllegalMove if that version is not a
    message or is hidden already.  Decided on the log it read (a race is decided again)."""
    store = games.store
    for attempt in range(APPEND_TRIES):
        current = store.version(game_id)
        found = store.read(game_id, version, version) if 1 <= version <= current else []
        if not found or found[0].type != ev.SAID:
            raise IllegalMove(f"event {version} is not a message")
        if any(e.type == ev.SAID_HIDDEN and e.data.get("version") == version
               for e in store.iter(game_id, version + 1, current)):
            raise IllegalMove(f"message {version} is already hidden")
        try:
            return games.record(game_id, ev.SAID_HIDDEN, {"version": version}, actor=by,
                                expected_version=current)
        except ConflictError:
            if attempt == APPEND_TRIES - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def messages(store: EventStore, game_id: str, after: int = 0,
             upto: int | None = None) -> list[Message]:
    """The messages at versions ``after + 1 .. upto`` (default: to the end), in log
    order.  ``hidden`` is True for those a ``SaidHidden`` anywhere later in the log hides
    (beyond ``upto`` too: once hidden, a message is hidden in every view).

    It scans the log from ``after + 1`` to its end (and reads event 1 for the names):
    linear in the game's length, fine for games of a few thousand events; a read model
    of the messages is the next step if that ever shows."""
    first = store.read(game_id, 1, 1)
    if not first:
        return []
    names = first[0].data.get("names", [])
    said: list[Event] = []
    hidden: set[int] = set()
    for event in store.iter(game_id, max(after, 0) + 1):
        if event.type == ev.SAID and (upto is None or event.version <= upto):
            said.append(event)
        elif event.type == ev.SAID_HIDDEN:
            hidden.add(event.data.get("version"))
    return [message_of(e, names, e.version in hidden) for e in said]


def message_of(event: Event, names: list[str], hidden: bool = False) -> Message:
    """The :class:`Message` of a Said ``event``, its seat named from ``names``."""
    seat = event.data["seat"]
    name = names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
    return Message(version=event.version, seat=seat, name=name, text=event.data["text"],
                   at=event.at, via=event.data.get("via", "page"), hidden=hidden)
