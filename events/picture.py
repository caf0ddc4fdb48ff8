"""The picture of a game as one seat sees it: the ``table`` facts and a bounded cache.

The web page, the history scrubber and the worker's emails all draw pictures through
:func:`picture_for`, so they agree on what a seat was shown.  It uses only ``events/``
and ``games/`` (the worker imports no ``service/`` code).

``table`` (see :meth:`games.protocol.Game.picture`) is built here and only here:

* ``deadline``: the deadline of the turn now awaited, as the read model ``awaiting``
  holds it (the viewer's own if the viewer is to act, else the earliest among the seats
  to act), written in the viewer's time zone; None for a past version, whose deadline
  the read model no longer holds.
* ``previous``: the view this seat had right after its last move at or before the
  version drawn (what changed since is highlighted); None before its first move.
* ``medium``: ``"page"`` (the web page: the whole table, tooltips, clickable shapes),
  ``"email"`` (a PNG in a mail read on a phone: a narrow layout with larger text and
  without the least important panels) or ``"phone"`` (the web page below a phone's
  width: the narrow layout with every shape a move acts on); see
  :meth:`games.protocol.Game.picture`.

The reader's language: a game that draws its words through ``say``
(:attr:`games.protocol.Game.picture_says`) gets the caller's ``say`` (the page's and the
email's: ``worker.i18n.translate`` in the reader's language; this layer imports no
catalog) and draws in that language; ``language`` names it for the cache.

Pictures are cached per (game, version, seat, deadline, medium, language) in a bounded
LRU: a version never changes once written, so an entry is only ever evicted, never stale.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import datetime
from types import EllipsisType
from typing import Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel.dates import format_datetime

from events import envelope as ev
from events.gameplay import GameService
from events.replay import Table
from events.store import LRU, UnknownGame, key
from games.protocol import Game
from games.text import P, T, Text, join

log = logging.getLogger(__name__)

PICTURES_KEPT = 512  # per process
LAST_MOVE_LOOKBACK = 200  # events searched back for the seat's last move

_pictures = LRU(PICTURES_KEPT)


class HasGames(Protocol):
    games: GameService


# A date and time as a reader reads it (a picture's deadline, an email's): the weekday,
# the date, the clock time and the zone's short name, written by Babel.  English as it
# always was ("Wednesday 09 January 2030, 15:00 EST"); German as Babel's German data
# writes it ("Mittwoch, 9. Jan. 2030, 21:00 MEZ").  ``worker.i18n.local_time`` is this.
DATETIME_PATTERNS = {"en": "EEEE dd MMMM yyyy, HH:mm", "de": "EEEE, d. MMM y, HH:mm"}


def _zone(tz: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(tz or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def local_time(when: str | datetime | None, tz: str | None,
               language: str = "en") -> str | None:
    """``when`` (ISO or aware) in the reader's time zone ``tz`` (UTC if unknown) and
    ``language`` (``en``, ``de``; English for one without a pattern), formatted by Babel;
    None for no time.  The zone's name: English keeps the system's abbreviation (``EST``,
    ``CET``), German takes Babel's (``MEZ``; an offset where German has no short name)."""
    if not when:
        return None
    at = datetime.fromisoformat(when) if isinstance(when, str) else when
    zone = _zone(tz)
    language = language if language in DATETIME_PATTERNS else "en"
    text = format_datetime(at, DATETIME_PATTERNS[language], tzinfo=zone, locale=language)
    name = at.astimezone(zone).strftime("%Z") if language == "en" else \
        format_datetime(at, "z", tzinfo=zone, locale=language)
    return f"{text} {name}"


def _service(rt_or_games: HasGames | GameService) -> GameService:
    return rt_or_games if isinstance(rt_or_games, GameService) else rt_or_games.games


def seat_clock(games: GameService, game_id: str, seat: int | None,
               to_act: set[int]) -> tuple[str | None, str]:
    """The awaited turn's deadline (ISO, UTC) as ``seat`` should see it, or None, and the
    time zone the seat chose in the lobby (UTC for a spectator): one round trip.

    The deadline is the seat's own while it is to act, else the earliest of the seats
    that are (the read model ``awaiting`` holds them)."""
    pipe = games.store.redis.pipeline(transaction=False)
    pipe.hgetall(key(game_id, "awaiting"))
    pipe.get(key(game_id, "seats"))
    raw, seats_raw = pipe.execute()
    seats = json.loads(seats_raw) if seats_raw else []
    tz = "UTC"
    if seat is not None and 0 <= seat < len(seats):
        tz = seats[seat].get("tz") or "UTC"
    deadlines = {int(s): json.loads(v).get("deadline") for s, v in (raw or {}).items()}
    if seat in to_act and deadlines.get(seat):
        return deadlines[seat], tz
    found = sorted(d for s, d in deadlines.items() if s in to_act and d)
    return (found[0] if found else None), tz


def deadline_text(games: GameService, game_id: str, seat: int | None,
                  to_act: set[int], language: str = "en") -> str | None:
    """The awaited turn's deadline written in ``seat``'s time zone and ``language``, or
    None."""
    return local_time(*seat_clock(games, game_id, seat, to_act), language)


def countdown_text(deadline: str | None, now: datetime) -> Text | None:
    """The time left until ``deadline`` (ISO, as ``awaiting`` and :func:`seat_clock`
    hold it) at ``now`` (aware), as people read it: ``"2 days 4 h left"``, ``"1 day
    left"``, ``"5 h 10 min left"``, ``"12 min left"``, ``"less than a minute left"``, and
    ``"no time left"`` once it has passed; None without a deadline.  Rounded down, so it
    never promises more time than there is.  It names no clock time, so it reads the same
    in every time zone: show it beside :func:`local_time` of the deadline (the turn
    email's subject and first line do; the game page may).  A :class:`games.text.Text`:
    English as it stands, said again in a reader's language (and plural rules) by the
    edge that prints it (``worker.i18n.translate``)."""
    if not deadline:
        return None
    seconds = int((datetime.fromisoformat(deadline) - now).total_seconds())
    if seconds <= 0:
        return T("no time left")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        words = [P("%(n)s day", "%(n)s days", days)] + ([_hours(hours)] if hours else [])
    elif hours:
        words = [_hours(hours)] + ([_minutes(minutes)] if minutes else [])
    elif minutes:
        words = [_minutes(minutes)]
    else:
        return T("less than a minute left")
    return T("%(time)s left", time=join(words, " "))


def _hours(n: int) -> Text:
    return P("%(n)s h", "%(n)s h", n)


def _minutes(n: int) -> Text:
    return P("%(n)s min", "%(n)s min", n)


def previous_view(games: GameService, table: Table, seat: int | None) -> dict[str, Any] | None:
    """The view ``seat`` had right after its last move at or before ``table.version``
    that still stands (a move taken back or rewound is not one)."""
    if seat is None:
        return None
    undone_after = table.version  # moves after this version were taken back or rewound
    for event in games.store.latest(table.game_id, LAST_MOVE_LOOKBACK, end=table.version):
        if event.version > undone_after:
            continue  # taken back (a rewind in here was undone with it)
        if event.type == ev.REWOUND:
            undone_after = event.data["to"]
        elif event.type == ev.MOVE_PLAYED and event.data.get("seat") == seat:
            if event.version == table.version:
                return None  # its own move is the latest change: nothing to point out
            try:
                then = games.load(table.game_id, at=event.version)
            except UnknownGame:
                return None
            return then.game.view(then.state, seat)
    return None


def table_for(games: GameService, table: Table, seat: int | None, latest: bool = True,
              deadline: str | None | EllipsisType = ..., medium: str = "page") -> dict[str, Any]:
    """The ``table`` argument of :meth:`Game.picture` for ``seat`` at ``table``'s version
    (``latest``: it is the game's current version, so the deadline applies; ``deadline``:
    its text if the caller has it already; ``medium``: ``page``, ``email`` or ``phone``)."""
    to_act = table.to_act()
    if not latest:
        deadline = None
    elif deadline is ...:
        deadline = deadline_text(games, table.game_id, seat, to_act)
    return {"names": list(table.names), "seat": seat, "to_act": sorted(to_act),
            "deadline": deadline, "version": table.version,
            "previous": previous_view(games, table, seat), "medium": medium}


def picture_of(games: GameService, table: Table, seat: int | None, latest: bool = True,
               deadline: str | None | EllipsisType = ..., medium: str = "page",
               language: str = "en", say: Callable[[str], str] | None = None) -> str | None:
    """The SVG picture of ``table`` for ``seat`` (None: the game draws none or failed);
    ``deadline`` and ``medium`` as :func:`table_for` takes them; ``say`` says a game's
    text in the reader's ``language`` (None: English), for a game whose picture takes it."""
    game = table.game
    if type(game).picture is Game.picture:  # the protocol's default draws nothing
        return None
    if not latest:
        deadline = None
    elif deadline is ...:
        deadline = deadline_text(games, table.game_id, seat, table.to_act(),
                                 language if say is not None else "en")
    says = say is not None and game.picture_says
    name = f"{table.game_id}:{table.version}:{seat}:{deadline}:{medium}" + (
        f":{language}" if says else "")
    cached = _pictures.get(name)
    if cached is not None:
        return cached or None
    try:
        view = game.view(table.state, seat)
        facts = table_for(games, table, seat, latest, deadline, medium)
        svg = game.picture(view, facts, say) if says else game.picture(  # type: ignore[call-arg]
            view, facts)
    except Exception:  # a picture is a nicety: the page and the email go out without it
        log.warning("could not draw the %s picture of %s", table.kind, table.game_id,
                    exc_info=True)
        svg = None
    _pictures[name] = svg or ""
    return svg


def picture_for(rt_or_games: HasGames | GameService, game_id: str, seat: int | None,
                at: int | None = None) -> str | None:
    """The SVG picture of game ``game_id`` as ``seat`` sees it at version ``at`` (default:
    now), or None if the game draws none.  Takes a Runtime or a GameService."""
    games = _service(rt_or_games)
    table = games.load(game_id, at=at)
    latest = at is None or at == games.store.version(game_id)
    return picture_of(games, table, seat, latest)
