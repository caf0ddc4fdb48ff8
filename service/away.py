"""Clocks on the game page, vacations and "I'm back" (the personal page and the API).

A vacation is declared in advance (``VacationDeclared{seat, from, until}``), within the
seat's player's yearly leave (:mod:`worker.leave`, which also books leave across every
game at once), or for a seat with no player within the allowance :mod:`events.clocks`
computes from the log; it is decided on the log's version and appended with it as the
expected version.  "I'm back" ends the stand-in's hold on a
seat (``BotUnseated``).  The page partial ``_clocks.html`` gets its figures from
:func:`clock_panel` (a template global, so the page's own code needs no change).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Blueprint, request

from events import clocks as clk
from events.store import key
from games.protocol import IllegalMove
from games.text import T
from service.current import after_append, rt
from service.i18n import local_datetime
from worker import leave, timeouts

bp = Blueprint("away", __name__)


def declare_vacation(game_id: str, seat: int, start: datetime, until: datetime) -> Any:
    """Append ``seat``'s VacationDeclared; IllegalMove with the reason if refused.  The
    seat's player is charged on their yearly leave (see :func:`worker.leave.declare`,
    which also hands the event to the worker)."""
    return leave.declare(rt(), game_id, seat, start, until)


def come_back(game_id: str, seat: int) -> Any:
    """"I'm back": the stand-in stops playing for ``seat``."""
    event = timeouts.back(rt(), game_id, seat)
    after_append(game_id, event.version)
    return event


def clocks_json(game_id: str) -> tuple[dict[str, float | None], dict[str, str]]:
    """``(clocks, away)`` for the API: each seat's seconds left (none: no clock), and
    the end of each seat's vacation under way or next to come."""
    return clocks_json_of(timeouts.read_model(rt(), game_id))


def read_model_command(game_id: str) -> tuple[str, str]:
    """The Redis command reading the clocks' read model (see timeouts.read_model), for a
    request's pipeline on the game's keys; its reply goes to :func:`clocks_json_of`."""
    return ("GET", key(game_id, timeouts.CLOCK_KEY))


def clocks_json_of(clocks: Any) -> tuple[dict[str, float | None], dict[str, str]]:
    """:func:`clocks_json` of a read model: a ClockFold, None, or the stored JSON text
    a :func:`read_model_command` answered."""
    if isinstance(clocks, str | bytes):
        state = json.loads(clocks) if clocks else None
        clocks = timeouts.ClockFold(state) if state else None
    if clocks is None:
        return {}, {}
    now = rt().now().timestamp()
    left = {str(seat): value for seat, value in clocks.seconds_left(now).items()}
    away = {str(c.seat): clk.iso(c.away_until) for c in clocks.clocks(now) if c.away_until}
    return left, away


def _local(seconds: float, tz: str) -> str:
    """A clock's moment in ``tz``, in the page's language (``Sat 5 Dec 2026, 09:30 CET``)."""
    return local_datetime(seconds, tz, "medium") or ""


@bp.app_template_global()
def clock_panel(game_id: str, seat: int) -> dict[str, Any] | None:
    """What ``_clocks.html`` shows ``seat``: every seat's clock and away note, the
    vacation left, whether a stand-in plays for the seat.  None without a clock."""
    runtime = rt()
    clocks = timeouts.read_model(runtime, game_id)
    if not isinstance(seat, int) or clocks is None or (clocks.kind == "none"
                          and not any(s["bot"] for s in clocks.s["seats"])):
        return None
    tz = seat_zone(game_id, seat)
    now = runtime.now().timestamp()
    left = clocks.seconds_left(now)
    rows = []
    for clock in clocks.clocks(now):
        rows.append({
            "seat": clock.seat, "running": clock.running, "bot": clock.bot,
            "left": clk.span(left[clock.seat]) if left.get(clock.seat) is not None else None,
            "out": clock.timed_out,
            "due": _local(clock.due, tz) if clock.due else None,
            "away": _local(clock.away_until, tz) if clock.away_until else None})
    control = clocks.settings["time_control"]
    pid = leave.seat_player(runtime, game_id, seat)
    left_of, scope = ((leave.seconds_left(runtime, pid, now), "year") if pid
                      else (clk.vacation_left(clocks, seat, now), "game"))
    return {"rows": rows, "kind": control["kind"], "control": control,
            "policy": clocks.settings["on_timeout"],
            # a seat's player draws on their yearly leave; a seat with no player on the
            # game's own allowance ("vacation_scope": "year" or "game")
            "vacation_left": clk.span(left_of), "vacation_scope": scope,
            "bot": clocks.s["seats"][seat]["bot"] if seat < len(clocks.s["seats"]) else False,
            "ended": clocks.s["ended"]}


def seat_zone(game_id: str, seat: int) -> str:
    """The time zone of ``seat``'s seat (UTC if none)."""
    seats = rt().store.get_json(game_id, "seats") or []
    return (seats[seat].get("tz") if seat < len(seats) else None) or "UTC"


def form_time(name: str, tz: str) -> datetime:
    """A ``datetime-local`` form field, in the player's time zone."""
    raw = request.form.get(name, "").strip()
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        raise IllegalMove(T("give %(field)s as a date and time", field=repr(name))) from None
    if value.tzinfo is None:
        try:
            value = value.replace(tzinfo=ZoneInfo(tz or "UTC"))
        except (ZoneInfoNotFoundError, ValueError):
            value = value.replace(tzinfo=UTC)
    return value
