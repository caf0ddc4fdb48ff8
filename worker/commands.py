"""The commands a reply to a turn email may carry, one per line, case-insensitive.

``undo``, ``resign`` (then ``yes`` to confirm), ``away 3d``, ``history``, ``board``,
``help`` and ``stop``.  A command word alone on its line is the command; ``away`` needs a
span (``away 3d``, ``away 12h``, ``away 1w``, ``away 2 days``), and a wrong one (``away
soon``) is a command used wrongly: it is answered, not said at the table.  A command word
followed by other words ("stop by tonight?") is table talk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from games.text import T, Text

ALONE = ("undo", "resign", "yes", "history", "board", "help", "stop")
HELP = [  # Texts: said in the reader's language by the answer email (worker.replies)
    T("a number: the move of that number in your latest turn email (for a move made in "
      "steps, the numbers of each step on one line, e.g. \"2 5\"); or the move's words"),
    T("undo: ask the table to take back your last move"),
    T("resign: leave the game (a second reply \"yes\" confirms it)"),
    T("away 3d: take leave for 3 days (or 12h, 1w): your clock stops meanwhile"),
    T("history: the latest moves of the game"),
    T("board: the picture of the game again"),
    T("help: this list"),
    T("stop: no more emails from this game"),
    T("anything else you write is said at the table"),
]
AWAY_HINT = T('Write "away 3d" for three days (or "away 12h", "away 1w"), at most 30 days.')
AWAY_MOST = timedelta(days=30)
_UNITS = {"h": 1, "hour": 1, "hours": 1, "d": 24, "day": 24, "days": 24,
          "w": 168, "week": 168, "weeks": 168}
_SPAN = re.compile(r"^(\d{1,3})\s*([a-z]+)$")


@dataclass(frozen=True)
class Command:
    """A command found in a reply line: ``name``, its ``span`` (``away``), its
    ``count`` (``history``) and ``error`` when it was used wrongly."""

    name: str
    span: timedelta | None = None
    count: int | None = None
    error: str | Text | None = None


def parse(line: str) -> Command | None:
    """The command ``line`` is, or None (then it is a move or table talk)."""
    words = re.sub(r"[.!?]+$", "", line.strip()).lower().split()
    if not words:
        return None
    first, rest = words[0], words[1:]
    if first in ALONE and not rest:
        return Command(first)
    if first == "history" and len(rest) == 1 and rest[0].isdigit():
        return Command("history", count=min(int(rest[0]), 50))
    if first == "away":
        return _away(" ".join(rest))
    return None


def _away(text: str) -> Command:
    found = _SPAN.match(text.strip())
    if not found or found[2] not in _UNITS or int(found[1]) == 0:
        return Command("away", error=T('"away %(text)s" is not a span of time. %(hint)s',
                                       text=text, hint=AWAY_HINT) if text else AWAY_HINT)
    span = timedelta(hours=int(found[1]) * _UNITS[found[2]])
    if span > AWAY_MOST:
        return Command("away", error=T("That is longer than 30 days. %(hint)s", hint=AWAY_HINT))
    return Command("away", span=span)
