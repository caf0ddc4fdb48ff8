"""Time controls as a pure fold of a game's log: each seat's time left, and what is due.

The clock is computed, never stored as the truth: from the events that survive the
rewinds, their ``at`` timestamps, the seats each event left to act and a ``now``, so a
replay, an audit and a worker restarted after a crash all get the same answer.

Settings (GameCreated ``data["platform"]``; an old game's ``deadline_hours`` side
setting reads as ``per_move``)::

    {"time_control": {"kind": "none" | "per_move" | "bank", "hours": h,
                      "bank_hours": b, "increment_hours": i, "cap_hours": c},
     "on_timeout": "wait" | "skip" | "auto" | "bot" | "forfeit",
     "bot_after": n, "reminders": {"fractions": [0.5, 0.25], "hours_before": [24]}}

Rules the fold applies:

- A seat's clock runs only while the seat is in ``to_act``: a seat that already answered
  a simultaneous step is not waiting, and its clock stands.  A *turn* lasts from the
  seat's entering ``to_act`` to its next own move (or its leaving ``to_act``); an own
  move after which the rules await the same seat again starts a new turn.  Moves the
  platform plays for a timed-out seat (``data.auto``) go on until the rules let the seat
  go (the whole turn is played for it), at most ``STAND_IN_MOVES`` of them (then a new
  turn begins: a solo game never lets its seat go).  A turn is named by the
  version at which it began (as the ``awaiting`` read model names it).
- ``per_move``: every turn starts with ``hours``.  ``bank``: the first turn starts with
  ``bank_hours``; what a turn leaves stays in the bank, and when the turn ends (after
  each move) ``increment_hours`` is added, the bank never exceeding ``cap_hours`` (no
  cap if absent).
- Vacation (``VacationDeclared{seat, from, until}``) stops the seat's clock inside the
  interval.  A seat whose player is known draws on the player's yearly leave (worker.leave,
  ``LEAVE_DAYS_PER_YEAR``), which also appends these events to every game at once; a seat
  with no player keeps the allowance per game: ``VACATION_START_DAYS`` at the start, plus
  a day per ``VACATION_ACCRUAL_DAYS`` days since the game began, never more than
  ``VACATION_CAP_DAYS`` in all; days declared are used up (see :func:`vacation_left`).
- ``Rewound{to: N}``: the clocks are as they stood when event N+1 (the first event taken
  back) was appended, and run again from the Rewound: the time spent on the branch that
  was taken back counts for nobody.  Vacations declared on that branch still hold (they
  are about the player, not the position).  A fork's clocks stand as at the copied
  event and run from the ``Forked``.
- The consecutive time-outs of a seat (for the "bot" policy) are reset by the seat's own
  move; ``BotSeated`` / ``BotUnseated`` switch the stand-in on and off, and the player's
  own move switches it off too.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

KINDS = ("none", "per_move", "bank")
POLICIES = ("wait", "skip", "auto", "bot", "forfeit")
DEFAULT_BOT_AFTER = 2
STAND_IN_MOVES = 30  # moves played for a timed-out seat before its turn counts as over
DEFAULT_REMINDERS: dict[str, list[float]] = {"fractions": [0.5, 0.25], "hours_before": [24]}

VACATION_START_DAYS = 1
VACATION_ACCRUAL_DAYS = 7
VACATION_CAP_DAYS = 14
# Vacations one seat may declare in a game: every clock computation walks them, and the
# allowance alone would let a player declare thousands of one-second ones.
MAX_VACATIONS = 30
DAY = 86400.0
HOUR = 3600.0

# Event type names (the envelope module defines the constants; repeated here so this
# module imports nothing but the standard library).
GAME_CREATED, MOVE_PLAYED, TIMED_OUT = "GameCreated", "MovePlayed", "TimedOut"
REMINDER_SENT, REWOUND, GAME_ENDED = "ReminderSent", "Rewound", "GameEnded"
VACATION_DECLARED, BOT_SEATED, BOT_UNSEATED = "VacationDeclared", "BotSeated", "BotUnseated"
FORKED = "Forked"


def parse_time(iso: str) -> float:
    """An event's ``at`` (ISO 8601, ``Z`` or offset) as Unix seconds."""
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def iso(seconds: float) -> str:
    """Unix seconds as an ISO 8601 UTC string (what read models and the API show)."""
    return datetime.fromtimestamp(seconds, UTC).isoformat()


def settings_from(platform: dict[str, Any] | None,
                  deadline_hours: float | None = None) -> dict[str, Any]:
    """The time-control settings of a game, with defaults filled in.

    ``platform`` is GameCreated's ``data["platform"]``; a game created before time
    controls had only ``deadline_hours`` (a side setting), which reads as per_move.
    """
    platform = dict(platform or {})
    control = dict(platform.get("time_control") or {})
    if not control.get("kind"):
        control = ({"kind": "per_move", "hours": deadline_hours} if deadline_hours
                   else {"kind": "none"})
    reminders = platform.get("reminders") or DEFAULT_REMINDERS
    return {"time_control": control,
            "on_timeout": platform.get("on_timeout") or "wait",
            "bot_after": int(platform.get("bot_after") or DEFAULT_BOT_AFTER),
            "reminders": {"fractions": list(reminders.get("fractions", [])),
                          "hours_before": list(reminders.get("hours_before", []))}}


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock at a moment."""

    seat: int
    running: bool
    turn: int | None  # version at which the seat's current turn began
    left: float | None  # seconds left (None: no time control)
    due: float | None  # Unix time the clock reaches zero (None: not running / none)
    timed_out: bool  # a TimedOut is recorded for the current turn
    bot: bool
    away_until: float | None  # the end of the vacation under way or next to come


def _empty_seat() -> dict[str, Any]:
    return {"turn": None, "left": None, "since": None, "turn_left": None,
            "timed_out": None, "policy": None, "reminded": [], "in_row": 0,
            "bot": False, "unseat": False, "followup": None}


class ClockFold:
    """The clocks of one game, folded event by event (JSON-ready state in ``s``)."""

    def __init__(self, state: dict[str, Any] | None = None,
                 deadline_hours: float | None = None) -> None:
        self.s: dict[str, Any] = state or {
            "version": 0, "settings": settings_from(None, deadline_hours),
            "deadline_hours": deadline_hours, "created": None, "ended": False,
            "seats": [], "vacations": {}, "vacation_used": {}, "to_act": []}

    # -- folding -----------------------------------------------------------------------
    @property
    def version(self) -> int:
        return self.s["version"]

    @property
    def settings(self) -> dict[str, Any]:
        return self.s["settings"]

    @property
    def kind(self) -> str:
        return self.settings["time_control"]["kind"]

    def feed(self, event: Any, to_act: Iterable[int]) -> None:
        """Fold one event (not a Rewound: see :func:`fold`); ``to_act`` is the set of
        seats the rules await right after it."""
        t = parse_time(event.at)
        s = self.s
        d = event.data
        if event.type == GAME_CREATED:
            s["settings"] = settings_from(d.get("platform"), s.get("deadline_hours"))
            s["created"] = t
            s["seats"] = [_empty_seat() for _ in d["names"]]
        if event.type == FORKED:  # a new game from a copied log: its clocks start now
            for seat in s["seats"]:
                if seat["since"] is not None:
                    seat["since"] = t
        self._settle(t)
        if event.type == MOVE_PLAYED:
            seat = s["seats"][d["seat"]]
            if d.get("auto") and seat["turn"] is not None:
                # the platform plays on for the seat until its turn is over, at most
                # STAND_IN_MOVES moves (a seat the rules never let go: a solo game)
                seat["autos"] = seat.get("autos", 0) + 1
                if seat["autos"] >= STAND_IN_MOVES:
                    self._end_turn(seat)
            elif seat["turn"] is not None:  # the player's own move ends their turn (a
                self._end_turn(seat)  # new one begins below if the rules let it go on)
            if not d.get("auto"):  # the player's own move: they are here
                seat["in_row"] = 0
                seat["followup"] = None
                if seat["bot"]:
                    seat["bot"], seat["unseat"] = False, True
        elif event.type == TIMED_OUT:
            seat = s["seats"][d["seat"]]
            seat["timed_out"] = d.get("turn")
            seat["in_row"] += 1
            seat["followup"] = d.get("policy") or "wait"
        elif event.type == BOT_SEATED:
            s["seats"][d["seat"]]["bot"] = True
        elif event.type == BOT_UNSEATED:
            seat = s["seats"][d["seat"]]
            seat["bot"] = seat["unseat"] = False
            seat["in_row"] = 0
        elif event.type == REMINDER_SENT:
            seat = s["seats"][d["seat"]]
            if d.get("turn") == seat["turn"]:
                seat["reminded"] += d.get("covers") or [d.get("which") or "remind"]
        elif event.type == VACATION_DECLARED:
            start, until = parse_time(d["from"]), parse_time(d["until"])
            s["vacations"].setdefault(str(d["seat"]), []).append([start, until])
            used = s["vacation_used"]
            used[str(d["seat"])] = used.get(str(d["seat"]), 0.0) + (until - start)
        elif event.type == GAME_ENDED:
            s["ended"] = True
        elif event.type == FORKED:
            s["ended"] = False
        self._turns(event.version, t, set() if s["ended"] else set(to_act))
        s["version"] = event.version

    def _settle(self, t: float) -> None:
        """Charge every running seat the time up to ``t``."""
        for number, seat in enumerate(self.s["seats"]):
            if seat["since"] is not None and seat["left"] is not None:
                seat["left"] -= self.elapsed(number, seat["since"], t)
                seat["since"] = t

    def _end_turn(self, seat: dict[str, Any]) -> None:
        control = self.settings["time_control"]
        seat["turn"] = seat["since"] = None
        seat["autos"] = 0
        seat["reminded"], seat["timed_out"], seat["followup"] = [], None, None
        if control["kind"] == "bank" and seat["left"] is not None:
            seat["left"] += float(control.get("increment_hours") or 0) * HOUR
            cap = control.get("cap_hours")
            if cap:
                seat["left"] = min(seat["left"], float(cap) * HOUR)

    def _turns(self, version: int, t: float, to_act: set[int]) -> None:
        control = self.settings["time_control"]
        for number, seat in enumerate(self.s["seats"]):
            if number not in to_act and seat["turn"] is not None:  # the turn ended
                self._end_turn(seat)
            elif number in to_act and seat["turn"] is None:  # a turn begins
                seat["turn"], seat["since"] = version, t
                if control["kind"] == "per_move":
                    seat["left"] = float(control["hours"]) * HOUR
                elif control["kind"] == "bank" and seat["left"] is None:
                    seat["left"] = float(control["bank_hours"]) * HOUR
                seat["turn_left"] = seat["left"]
        self.s["to_act"] = sorted(to_act)

    def rewound(self, earlier: ClockFold, event: Any, to_act: Iterable[int]) -> None:
        """Fold a Rewound: ``earlier`` is this fold as it stood just before the first
        event the Rewound takes back was applied (charged up to that event's time)."""
        t = parse_time(event.at)
        state = copy.deepcopy(earlier.s)
        state["vacations"] = self.s["vacations"]
        state["vacation_used"] = self.s["vacation_used"]
        for seat in state["seats"]:
            if seat["since"] is not None:
                seat["since"] = t
            # the table agreed to go back: a move the platform played for a late player
            # and taken back is not played again (the player is here to choose)
            seat["followup"] = None
        self.s = state
        self._turns(event.version, t, set() if state["ended"] else set(to_act))
        self.s["version"] = event.version

    # -- time --------------------------------------------------------------------------
    def _away(self, seat: int) -> list[list[float]]:
        return sorted(self.s["vacations"].get(str(seat), []))

    def elapsed(self, seat: int, start: float, end: float) -> float:
        """Seconds of ``seat``'s clock between ``start`` and ``end`` (vacations paused)."""
        if end <= start:
            return 0.0
        paused, last = 0.0, start
        for a, b in self._away(seat):
            a, b = max(a, last), min(b, end)
            if b > a:
                paused += b - a
                last = b
        return (end - start) - paused

    def when(self, seat: int, start: float, seconds: float) -> float:
        """The time at which ``seconds`` of ``seat``'s clock have run from ``start``."""
        t, need = start, max(seconds, 0.0)
        for a, b in self._away(seat):
            if b <= t:
                continue
            if a > t:
                if a - t >= need:
                    return t + need
                need -= a - t
            t = max(t, b)
        return t + need

    def seat_clock(self, number: int, now: float) -> SeatClock:
        seat = self.s["seats"][number]
        running = seat["turn"] is not None and self.kind != "none"
        left = seat["left"]
        due = None
        if running and left is not None and seat["since"] is not None:
            left = left - self.elapsed(number, seat["since"], now)
            due = self.when(number, seat["since"], seat["left"])
        return SeatClock(
            seat=number, running=running, turn=seat["turn"],
            left=None if self.kind == "none" or left is None else left, due=due,
            timed_out=seat["timed_out"] is not None and seat["timed_out"] == seat["turn"],
            bot=seat["bot"], away_until=self.away_until(number, now))

    def clocks(self, now: float) -> list[SeatClock]:
        """Every seat's clock at ``now``."""
        return [self.seat_clock(n, now) for n in range(len(self.s["seats"]))]

    def seconds_left(self, now: float) -> dict[int, float]:
        """Seconds on each seat's clock at ``now``: the running turn's, a bank's, or what a
        per-move turn will start with (empty without a time control)."""
        if self.kind == "none":
            return {}
        control = self.settings["time_control"]
        out: dict[int, float] = {}
        for clock in self.clocks(now):
            if clock.running and clock.left is not None:
                out[clock.seat] = max(0.0, round(clock.left, 3))
            elif control["kind"] == "per_move":
                out[clock.seat] = float(control["hours"]) * HOUR
            else:
                held = self.s["seats"][clock.seat]["left"]
                out[clock.seat] = (float(control["bank_hours"]) * HOUR if held is None
                                   else round(held, 3))
        return out

    def away_until(self, seat: int, now: float) -> float | None:
        """The end of ``seat``'s vacation under way or next to come, if any."""
        ends = [b for a, b in self._away(seat) if b > now]
        return min(ends) if ends else None

    def reminders(self, seat: int) -> list[tuple[str, float]]:
        """``(which, when)`` of the current turn's reminders not sent yet, soonest first."""
        s = self.s["seats"][seat]
        if s["turn"] is None or s["turn_left"] is None or s["since"] is None \
                or self.kind == "none" or s["timed_out"] == s["turn"]:
            return []
        wanted: dict[str, float] = {}
        rules = self.settings["reminders"]
        for f in rules.get("fractions", []):
            wanted[f"f{f:g}"] = s["turn_left"] * float(f)
        for h in rules.get("hours_before", []):
            if float(h) * HOUR < s["turn_left"]:
                wanted[f"h{h:g}"] = float(h) * HOUR
        out = []
        for which, remaining in wanted.items():
            if which in s["reminded"] or remaining <= 0:
                continue
            # the turn's clock reaches ``remaining`` after ``s.left - remaining`` more
            out.append((which, self.when(seat, s["since"], s["left"] - remaining)))
        return sorted(out, key=lambda item: item[1])

    # -- what is due -------------------------------------------------------------------
    def actions(self, now: float) -> list[dict[str, Any]]:
        """What the worker must do now, in order: follow-ups of recorded time-outs, new
        time-outs, reminders.  Each is decided again on the log before it is appended."""
        if self.s["ended"]:
            return []
        out: list[dict[str, Any]] = []
        policy = self.settings["on_timeout"]
        to_act = set(self.s["to_act"])
        # stand-ins play only while someone is still playing: a table of stand-ins alone
        # (everyone gone, or a solo game) waits for its players instead of playing out
        anyone = any(not seat["bot"] for seat in self.s["seats"])
        for number, seat in enumerate(self.s["seats"]):
            if seat["unseat"]:
                out.append({"do": "unseat", "seat": number})
            if number not in to_act:
                continue
            if seat["bot"]:
                if anyone:
                    out.append({"do": "play", "seat": number, "auto": "bot"})
                continue
            if seat["timed_out"] is not None and seat["timed_out"] == seat["turn"]:
                follow = seat["followup"]
                if follow == "bot" and seat["in_row"] >= self.settings["bot_after"]:
                    out.append({"do": "seat_bot", "seat": number})
                elif follow in ("skip", "auto", "bot"):
                    out.append({"do": "play", "seat": number, "auto": "timeout",
                                "pass": follow == "skip"})
                elif follow == "forfeit":
                    out.append({"do": "forfeit", "seat": number})
                continue
            clock = self.seat_clock(number, now)
            if clock.due is not None and clock.due <= now:
                out.append({"do": "time_out", "seat": number, "turn": seat["turn"],
                            "policy": policy})
                continue
            overdue = [which for which, when in self.reminders(number) if when <= now]
            if overdue:  # several overdue (a worker was down): one email, the latest
                out.append({"do": "remind", "seat": number, "turn": seat["turn"],
                            "which": overdue[-1], "covers": overdue})
        return out

    def next_due(self) -> float | None:
        """The earliest Unix time something will be due (a reminder, a time-out), 0.0 if
        something is due whatever the time (a time-out's follow-up), None if nothing."""
        if self.s["ended"]:
            return None
        times: list[float] = []
        if self.actions(0.0):  # at time 0 only what does not wait for a clock is due
            times.append(0.0)
        for number in self.s["to_act"]:
            clock = self.seat_clock(number, 0.0)
            if clock.timed_out:
                continue
            if clock.due is not None:
                times.append(clock.due)
            times += [when for _, when in self.reminders(number)[:1]]
        return min(times) if times else None


def fold(pairs: Iterable[tuple[Any, Iterable[int]]],
         deadline_hours: float | None = None) -> ClockFold:
    """The clocks after a game's whole log: ``pairs`` are ``(event, seats to act after
    it)`` for every event from version 1, oldest first.  Linear in the log: the state
    before each rewind target's next event is kept, not refolded."""
    pairs = list(pairs)
    targets = {e.data["to"] for e, _ in pairs if e.type == REWOUND}
    kept: dict[int, dict[str, Any]] = {}
    clocks = ClockFold(deadline_hours=deadline_hours)
    for event, to_act in pairs:
        if event.type == REWOUND:
            earlier = kept.get(event.data["to"])
            if earlier is None:  # rewound to the last event: nothing was taken back
                earlier = copy.deepcopy(clocks.s)
            clocks.rewound(ClockFold(earlier), event, to_act)
            continue
        if clocks.version in targets and clocks.version not in kept:
            snapshot = ClockFold(copy.deepcopy(clocks.s))
            if snapshot.s["seats"]:
                snapshot._settle(parse_time(event.at))
            kept[clocks.version] = snapshot.s
        clocks.feed(event, to_act)
    return clocks


def vacation_left(clocks: ClockFold, seat: int, now: float) -> float:
    """Seconds of vacation ``seat`` may still declare in this game at ``now``."""
    created = clocks.s["created"] or now
    weeks = int(max(0.0, now - created) // (VACATION_ACCRUAL_DAYS * DAY))
    earned = min(VACATION_CAP_DAYS, VACATION_START_DAYS + weeks) * DAY
    return max(0.0, earned - clocks.s["vacation_used"].get(str(seat), 0.0))


def check_vacation(clocks: ClockFold, seat: int, start: float, until: float,
                   now: float, left: float | None = None) -> str | None:
    """Why ``seat`` may not declare a vacation from ``start`` to ``until`` (None: it may).

    Declared in advance (``start`` not in the past, a minute's grace), within a year,
    not overlapping one already declared, at most ``MAX_VACATIONS`` of them, and within
    the allowance: ``left`` seconds if the caller gives it, else this game's own
    (:func:`vacation_left`).  A seat whose player is known draws on the player's yearly
    leave instead (worker.leave checks that and passes ``math.inf`` here); this module
    reads no configuration."""
    if until <= start:
        return "'until' must be after 'from'"
    if start < now - 60:
        return "a vacation is declared in advance: 'from' is in the past"
    if until > now + 366 * DAY:
        return "a vacation can be declared at most a year ahead"
    declared = clocks._away(seat)
    for a, b in declared:
        if start < b and a < until:
            return "it overlaps a vacation already declared"
    if len(declared) >= MAX_VACATIONS:
        return f"at most {MAX_VACATIONS} vacations can be declared in one game"
    if left is None:
        left = vacation_left(clocks, seat, now)
        if until - start > left:
            return (f"only {left / DAY:.1f} days of vacation are left (a day per "
                    f"{VACATION_ACCRUAL_DAYS} days of play, at most {VACATION_CAP_DAYS})")
    elif until - start > left:
        return f"only {left / DAY:.1f} days of vacation are left"
    return None


def span(seconds: float) -> str:
    """A duration as people read it: "2 d 3 h", "4 h 10 min", "5 min 20 s", "40 s"."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min {secs} s" if minutes else f"{secs} s"
