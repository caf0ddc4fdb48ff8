"""Leave: a player's time away across all their games, drawn from a yearly allowance.

A player (worker.players) has ``LEAVE_DAYS_PER_YEAR`` days of leave a calendar year
(default :data:`DEFAULT_DAYS_PER_YEAR`; fractions allowed).  Days are counted to the
second and by the UTC year they fall in: leave from 30 December to 3 January takes two
days of one year and two of the next.  Days booked for later in the year count as taken.

- :func:`take` books leave once for the whole player: it is recorded in the player's
  ledger and a ``VacationDeclared{seat, from, until, leave: true}`` is appended for every
  seat of theirs in every unfinished game that has a clock, so every one of those clocks
  stands while they are away and their opponents see "away until ...".  Games without a
  clock get nothing (nothing to pause); a game given a clock later, or created later, is
  not paused by leave booked before.
- :func:`declare` is the vacation of one seat in one game (the game page's form and
  ``POST /api/v1/games/<id>/vacation``).  When the seat has a player it is charged to the
  same yearly ledger, and the allowance per game of events.clocks no longer applies; a
  seat with no player (no address) keeps that allowance per game.
- :func:`status`: days allowed, taken and left this year, and the periods current or to
  come.

The ledger is one JSON value per player, ``players.pkey(pid, "leave")`` (one key, so one
Redis Cluster slot), rewritten only by a compare-and-set script: two bookings at once
cannot both spend the last days.  Days taken in a year are the measure of the *union* of
the ledger's periods in that year, so a day is never charged twice: a vacation declared
in a game inside a leave period (a game created after the leave was booked) costs
nothing, and a retried :func:`take` (same ``from`` and ``until``, whose first reply was
lost) finds its own period, charges nothing and only appends what is still missing.
Periods over before this year are dropped when the ledger is written.

Leave cannot be cancelled: undoing it would need a new event in every game's log that
the clock fold does not have yet (a ``VacationCancelled``), so there is no ``cancel``.

Refusals raise ``games.protocol.IllegalMove`` with a plain reason, as the rules do.  Each
decision is taken for all the player's games before anything is written: a game that
would refuse its part (the limit of vacations a seat may hold in one game) refuses the
whole booking, and a game where the seat already has a vacation over part of the leave
gets only the parts not yet covered.
"""

from __future__ import annotations

import json
import logging
import math
import secrets
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from events import clocks as clk
from events import envelope as ev
from events.store import ConflictError
from games.protocol import IllegalMove
from worker import players, timeouts
from worker.runtime import Runtime

log = logging.getLogger(__name__)

DEFAULT_DAYS_PER_YEAR = 30.0
LEDGER = "leave"  # players.pkey(pid, LEDGER): the ledger (JSON)
MAX_PLANNED = 30  # leave periods (``take``) current or to come one player may hold
GRACE = 60.0  # seconds a 'from' may lie in the past (as events.clocks allows)
AHEAD = 366 * clk.DAY  # how far ahead leave may be booked (as events.clocks allows)
RETRIES = 10

# Compare-and-set of one key: write ARGV[2] only if the key still holds ARGV[1] ("" for
# absent).  One key: safe on a Redis Cluster.
_CAS = """
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
return 1
"""


# -- the allowance -----------------------------------------------------------------------
def parse_days(value: Any) -> float:
    """``LEAVE_DAYS_PER_YEAR`` as days (None or "": the default); ValueError if it is not
    a number of days from 0 to 366."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return DEFAULT_DAYS_PER_YEAR
    try:
        days = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"LEAVE_DAYS_PER_YEAR must be a number of days, not {value!r}") \
            from None
    if not 0 <= days <= 366:
        raise ValueError(f"LEAVE_DAYS_PER_YEAR must be from 0 to 366 days, not {value!r}")
    return days


def days_per_year(rt: Runtime) -> float:
    """The yearly allowance of every player, in days."""
    return parse_days(rt.config.get("LEAVE_DAYS_PER_YEAR"))


def _year_of(t: float) -> int:
    return datetime.fromtimestamp(t, UTC).year


def _year_bounds(year: int) -> tuple[float, float]:
    return (datetime(year, 1, 1, tzinfo=UTC).timestamp(),
            datetime(year + 1, 1, 1, tzinfo=UTC).timestamp())


def _years(start: float, until: float) -> list[int]:
    """The UTC years the interval has time in."""
    return [y for y in range(_year_of(start), _year_of(until) + 1)
            if min(until, _year_bounds(y)[1]) > max(start, _year_bounds(y)[0])]


def _measure(intervals: Iterable[tuple[float, float]], lo: float, hi: float) -> float:
    """Seconds of the union of ``intervals`` inside ``[lo, hi)``."""
    total, end = 0.0, lo
    for a, b in sorted(intervals):
        a, b = max(a, end), min(b, hi)
        if b > a:
            total += b - a
            end = b
    return total


def _gaps(covered: Iterable[tuple[float, float]], lo: float, hi: float
          ) -> list[tuple[float, float]]:
    """The parts of ``[lo, hi)`` that ``covered`` leaves out, in order."""
    out, t = [], lo
    for a, b in sorted(covered):
        if b <= t:
            continue
        if a >= hi:
            break
        if a > t:
            out.append((t, a))
        t = max(t, b)
    if t < hi:
        out.append((t, hi))
    return out


# -- the ledger --------------------------------------------------------------------------
def _key(pid: str) -> str:
    return players.pkey(pid, LEDGER)


def _read(rt: Runtime, pid: str) -> tuple[str, list[dict[str, Any]]]:
    """``(the stored text, its periods)``."""
    raw = rt.redis.get(_key(pid)) or ""
    return raw, (json.loads(raw)["periods"] if raw else [])


def _span(period: dict[str, Any]) -> tuple[float, float]:
    return clk.parse_time(period["from"]), clk.parse_time(period["until"])


def _taken(periods: list[dict[str, Any]], year: int,
           extra: tuple[float, float] | None = None) -> float:
    """Seconds taken in ``year`` by ``periods`` (and ``extra``), each day once."""
    spans = [_span(p) for p in periods] + ([extra] if extra else [])
    return _measure(spans, *_year_bounds(year))


def _over(rt: Runtime, periods: list[dict[str, Any]], start: float, until: float
          ) -> str | None:
    """Why ``[start, until)`` does not fit the yearly allowance (None: it fits)."""
    allowed = days_per_year(rt) * clk.DAY
    for year in _years(start, until):
        if _taken(periods, year, (start, until)) > allowed + 1e-6:
            left = max(0.0, allowed - _taken(periods, year))
            return (f"only {left / clk.DAY:.1f} days of vacation are left in {year} "
                    f"({allowed / clk.DAY:g} days of leave a year, across all your games)")
    return None


def _charge(periods: list[dict[str, Any]], start: float, until: float) -> float:
    """Seconds ``[start, until)`` adds to what ``periods`` took (days not yet charged)."""
    return sum(_taken(periods, y, (start, until)) - _taken(periods, y)
               for y in _years(start, until))


def _write(rt: Runtime, pid: str, decide: Any) -> Any:
    """Rewrite the ledger with ``decide(periods) -> (new periods or None, result)`` by
    compare-and-set, deciding again on what another writer left; the result."""
    for _ in range(RETRIES):
        raw, periods = _read(rt, pid)
        new, result = decide(list(periods))
        if new is None:
            return result
        this_year = _year_bounds(_year_of(rt.now().timestamp()))[0]
        kept = [p for p in new if _span(p)[1] > this_year]  # over before this year: dropped
        if rt.redis.eval(_CAS, 1, _key(pid), raw, json.dumps({"periods": kept})):
            return result
    raise IllegalMove("your leave was being changed at the same time: try again")


# -- whose seat --------------------------------------------------------------------------
def seat_player(rt: Runtime, game_id: str, seat: int) -> str | None:
    """The player holding ``seat`` of ``game_id`` (None: a seat with no address)."""
    seats = rt.store.get_json(game_id, "seats") or []
    info = seats[seat] if 0 <= seat < len(seats) else {}
    return players.seat_player(rt.redis, info) if info else None


def _utc(value: datetime) -> datetime:
    """A datetime in UTC (a naive one is read as UTC)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _project(rt: Runtime, game_id: str, version: int) -> None:
    """Ask the worker to project the new event (the sweep catches it if this fails: the
    append marked the game)."""
    from worker import jobs  # jobs import timeouts, which this module imports
    try:
        jobs.request_projection(rt.enqueuer, game_id, version)
    except Exception:  # the event is safe in the stream
        log.exception("could not enqueue projection of %s", game_id)


# -- leave across games ------------------------------------------------------------------
def take(rt: Runtime, pid: str, start: datetime, until: datetime) -> dict[str, Any]:
    """Book leave for player ``pid`` from ``start`` to ``until``: charged to the yearly
    allowance and a vacation declared for every seat of theirs in every unfinished game
    with a clock.  IllegalMove (nothing changed) for a start in the past, ``until`` not
    after ``start``, an end more than a year ahead, an overlap with leave already taken,
    more than the allowance of a year it falls in, or a game where the seat holds too
    many vacations already.  The same leave taken again (a retry) charges nothing more.

    Returns ``{"from", "until", "days", "year", "days_left", "games"}``: ``days`` charged
    (days already charged by a vacation in one game are not charged again), what is left
    in ``year`` (the year of ``from``), and the games now paused for it."""
    start, until = _utc(start), _utc(until)
    s, u = start.timestamp(), until.timestamp()
    frm, to = start.isoformat(), until.isoformat()
    now = rt.now().timestamp()
    if u <= s:
        raise IllegalMove("'until' must be after 'from'")
    ident = f"leave|{frm}|{to}"
    _, periods = _read(rt, pid)
    retry = any(p["id"] == ident for p in periods)
    if not retry:
        _check_new(rt, periods, s, u, now)
    plan = _plan(rt, pid, s, u, now, strict=not retry)  # every game decided before writing

    def book(periods: list[dict[str, Any]]) -> tuple[list[dict[str, Any]] | None, dict]:
        mine = [p for p in periods if p["id"] == ident]
        if mine:  # a retry, or the same booking made meanwhile
            return None, mine[0]
        _check_new(rt, periods, s, u, now)
        entry = {"id": ident, "kind": "leave", "from": frm, "until": to,
                 "days": round(_charge(periods, s, u) / clk.DAY, 4),
                 "games": sorted(plan), "at": clk.iso(now)}
        return periods + [entry], entry

    entry = _write(rt, pid, book)
    paused = [game_id for game_id, seats in plan.items()
              if all([_apply(rt, game_id, seat, s, u) for seat in seats])]
    year = _year_of(s)
    _, periods = _read(rt, pid)
    left = max(0.0, days_per_year(rt) * clk.DAY - _taken(periods, year))
    return {"from": frm, "until": to, "days": round(entry["days"], 2), "year": year,
            "days_left": round(left / clk.DAY, 2), "games": sorted(paused)}


def _check_new(rt: Runtime, periods: list[dict[str, Any]], s: float, u: float,
               now: float) -> None:
    """Refuse a new leave period (IllegalMove) unless it may be booked."""
    if s < now - GRACE:
        raise IllegalMove("leave is taken in advance: 'from' is in the past")
    if u > now + AHEAD:
        raise IllegalMove("leave can be taken at most a year ahead")
    planned = [p for p in periods if p["kind"] == "leave" and _span(p)[1] > now]
    for p in planned:
        a, b = _span(p)
        if s < b and a < u:
            raise IllegalMove(f"it overlaps leave already taken, from {p['from']} "
                              f"until {p['until']}")
    if len(planned) >= MAX_PLANNED:
        raise IllegalMove(f"at most {MAX_PLANNED} periods of leave can be planned at once")
    refused = _over(rt, periods, s, u)
    if refused:
        raise IllegalMove(refused)


def _plan(rt: Runtime, pid: str, s: float, u: float, now: float, strict: bool
          ) -> dict[str, list[int]]:
    """The player's games whose clocks the leave pauses: game id -> their seats.  Games
    over, without a clock, or whose seat is no longer the player's are left out; with
    ``strict``, a game where a seat may not take the vacations the leave needs refuses
    the whole leave (IllegalMove), else (a retry, already booked) it is left out."""
    plan: dict[str, list[int]] = {}
    for game_id, seats in sorted(players.games_of(rt.redis, pid).items()):
        clocks = timeouts.clocks_of(rt, game_id)
        if clocks.s["ended"] or clocks.kind == "none":
            continue
        for seat in seats:
            if seat >= len(clocks.s["seats"]) or seat_player(rt, game_id, seat) != pid:
                continue  # the index is a read model: the seats record decides
            declared = clocks._away(seat)
            pieces = _gaps(declared, max(s, now - GRACE), u)
            if len(declared) + len(pieces) > clk.MAX_VACATIONS:
                if strict:
                    raise IllegalMove(
                        f"in game {game_id} you hold {len(declared)} vacations already: "
                        f"at most {clk.MAX_VACATIONS} can be declared in one game")
                continue
            plan.setdefault(game_id, []).append(seat)
    return plan


def _apply(rt: Runtime, game_id: str, seat: int, s: float, u: float) -> bool:
    """Declare the parts of ``[s, u)`` that ``seat`` has no vacation for yet, each on the
    log's version; whether the seat stands paused for the whole leave."""
    for _ in range(RETRIES + clk.MAX_VACATIONS):
        clocks = timeouts.clocks_of(rt, game_id)
        if clocks.s["ended"] or clocks.kind == "none":
            return False
        now = rt.now().timestamp()
        declared = clocks._away(seat)
        pieces = _gaps(declared, max(s, now - GRACE), u)
        if not pieces:
            return True
        if len(declared) >= clk.MAX_VACATIONS:
            log.warning("leave of seat %s of %s: at most %s vacations", seat, game_id,
                        clk.MAX_VACATIONS)
            return False
        a, b = pieces[0]
        try:
            event = rt.games.record(game_id, ev.VACATION_DECLARED, {
                "seat": seat, "from": clk.iso(a), "until": clk.iso(b), "leave": True},
                actor=ev.seat_actor(seat), expected_version=clocks.version)
        except ConflictError:
            continue  # the log moved on: decide again on it
        _project(rt, game_id, event.version)
    return False


def status(rt: Runtime, pid: str, now: datetime | None = None) -> dict[str, Any]:
    """The player's leave at ``now`` (default: the runtime's now): ``year``,
    ``days_allowed``, ``days_taken`` (booked, including what is still to come this
    year), ``days_left``, and ``periods`` current or to come, soonest first, each
    ``{"from", "until", "kind": "leave" | "game", "days"}`` (``game`` and ``seat`` for a
    vacation declared in one game).  ``next_year``: the same figures for the next year
    when leave is booked in it."""
    at = (_utc(now) if now else rt.now()).timestamp()
    _, periods = _read(rt, pid)
    allowed = days_per_year(rt) * clk.DAY

    def figures(year: int) -> dict[str, Any]:
        taken = _taken(periods, year)
        return {"year": year, "days_allowed": round(allowed / clk.DAY, 2),
                "days_taken": round(taken / clk.DAY, 2),
                "days_left": round(max(0.0, allowed - taken) / clk.DAY, 2)}

    year = _year_of(at)
    out = figures(year)
    coming = sorted((p for p in periods if _span(p)[1] > at), key=_span)
    out["periods"] = [{"from": p["from"], "until": p["until"], "kind": p["kind"],
                       "days": round(p.get("days", 0.0), 2),
                       **({"game": p["game"], "seat": p["seat"]} if p["kind"] == "game"
                          else {})} for p in coming]
    if any(_span(p)[1] > _year_bounds(year)[1] for p in coming):
        out["next_year"] = figures(year + 1)
    return out


def seconds_left(rt: Runtime, pid: str, now: float) -> float:
    """Seconds of leave ``pid`` has left in the year of ``now``."""
    _, periods = _read(rt, pid)
    return max(0.0, days_per_year(rt) * clk.DAY - _taken(periods, _year_of(now)))


# -- a vacation in one game --------------------------------------------------------------
def declare(rt: Runtime, game_id: str, seat: int, start: datetime, until: datetime) -> Any:
    """Append ``seat``'s VacationDeclared in ``game_id`` (the vacation of one game) and
    return it; IllegalMove with the reason if refused.  The game's rules of events.clocks
    apply (in advance, within a year, no overlap, a bounded number); the allowance is the
    seat's player's yearly leave, charged here (days not charged already), or the game's
    own allowance for a seat with no player.  Decided on the log's version and appended
    with it; ConflictError if the log kept moving."""
    start, until = _utc(start), _utc(until)
    s, u = start.timestamp(), until.timestamp()
    pid = seat_player(rt, game_id, seat)
    charged: str | None = None  # the ledger entry of this declaration, once written
    done = False
    try:
        for _ in range(5):  # bounded: each retry means the log grew meanwhile
            clocks = timeouts.clocks_of(rt, game_id)
            if clocks.s["ended"]:
                raise IllegalMove("the game is over")
            if clocks.kind == "none":
                raise IllegalMove("this game has no clock: there is nothing to pause")
            now = rt.now().timestamp()
            refused = clk.check_vacation(clocks, seat, s, u, now,
                                         left=math.inf if pid else None)
            if refused:
                raise IllegalMove(refused)
            if pid and charged is None:
                charged = _charge_vacation(rt, pid, game_id, seat, start, until, now)
            try:
                event = rt.games.record(game_id, ev.VACATION_DECLARED, {
                    "seat": seat, "from": start.isoformat(), "until": until.isoformat()},
                    actor=ev.seat_actor(seat), expected_version=clocks.version)
            except ConflictError:
                continue
            done = True
            _project(rt, game_id, event.version)
            return event
        raise ConflictError(rt.store.version(game_id))
    finally:
        if charged and not done and pid:
            _write(rt, pid, lambda periods: (
                [p for p in periods if p["id"] != charged], None))


def _charge_vacation(rt: Runtime, pid: str, game_id: str, seat: int, start: datetime,
                     until: datetime, now: float) -> str:
    """Charge a vacation of one game to the player's ledger (IllegalMove beyond the
    allowance); the id of its entry (removed again if the append does not happen)."""
    s, u = start.timestamp(), until.timestamp()
    ident = f"game|{game_id}|{seat}|{start.isoformat()}|{until.isoformat()}|" \
            f"{secrets.token_hex(4)}"

    def book(periods: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
        refused = _over(rt, periods, s, u)
        if refused:
            raise IllegalMove(refused)
        return periods + [{"id": ident, "kind": "game", "game": game_id, "seat": seat,
                           "from": start.isoformat(), "until": until.isoformat(),
                           "days": round(_charge(periods, s, u) / clk.DAY, 4),
                           "at": clk.iso(now)}], ident

    return _write(rt, pid, book)
