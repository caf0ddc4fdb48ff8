"""The clock fold (events/clocks.py): given these events at these times, the clocks."""

from __future__ import annotations

from events import clocks
from events.clocks import HOUR, ClockFold, fold, iso
from events.envelope import Event

T0 = 1_800_000_000.0  # a fixed start; the fold reads only the events' ``at``


def game(control: dict, seats: int = 2, **platform) -> list:
    """A log builder: ``log.add(type, at_hours, to_act, **data)``."""
    return Log(control, seats, platform)


class Log:
    def __init__(self, control: dict, seats: int, platform: dict) -> None:
        self.pairs: list = []
        created = {"names": [f"P{i}" for i in range(seats)],
                   "platform": {"time_control": control, **platform}}
        self.add("GameCreated", 0, set(range(seats)), **created)

    def add(self, type_: str, hours: float, to_act: set[int], **data) -> Log:
        event = Event(version=len(self.pairs) + 1, type=type_, actor="system", data=data,
                      at=iso(T0 + hours * HOUR))
        self.pairs.append((event, to_act))
        return self

    def move(self, hours: float, seat: int, to_act: set[int], **data) -> Log:
        return self.add("MovePlayed", hours, to_act, seat=seat, move={"type": "x"}, **data)

    def fold(self) -> ClockFold:
        return fold(self.pairs)


def left(c: ClockFold, seat: int, hours: float) -> float:
    return c.seat_clock(seat, T0 + hours * HOUR).left / HOUR


def test_per_move_every_turn_starts_with_the_full_time():
    log = game({"kind": "per_move", "hours": 10}, seats=2)
    log.move(3, 0, {1}).move(4, 1, {0})  # P0 used 3 h, then P1 1 h; P0's turn at 4 h
    c = log.fold()
    assert left(c, 0, 4) == 10
    assert left(c, 0, 9) == 5
    assert c.seat_clock(0, T0).due == T0 + 14 * HOUR


def test_per_move_time_out_is_due_at_the_deadline_and_only_until_recorded():
    log = game({"kind": "per_move", "hours": 2}, seats=1, reminders={"fractions": []})
    c = log.fold()
    assert c.actions(T0 + 1.99 * HOUR) == []
    (due,) = c.actions(T0 + 2 * HOUR)
    assert due == {"do": "time_out", "seat": 0, "turn": 1, "policy": "wait"}
    log.add("TimedOut", 2.1, {0}, seat=0, turn=1, policy="wait")
    assert log.fold().actions(T0 + 50 * HOUR) == []


def test_bank_keeps_what_a_turn_leaves_and_adds_the_increment_up_to_the_cap():
    log = game({"kind": "bank", "bank_hours": 10, "increment_hours": 3, "cap_hours": 12},
               seats=2)
    log.move(4, 0, {1})  # P0: 10 - 4 = 6, + 3 = 9
    log.move(5, 1, {0})  # P1: 10 - 5 = 5 (its clock ran from 0 too: both had to act) + 3
    c = log.fold()
    assert left(c, 0, 5) == 9
    assert c.s["seats"][1]["left"] / HOUR == 8
    log.move(5.5, 0, {1})  # P0: 9 - 0.5 + 3 = 11.5
    log.move(5.5, 1, {0})  # P1: 8 + 3 = 11
    log.move(5.5, 0, {1})  # P0: 11.5 + 3 = 14.5, capped at 12
    assert log.fold().s["seats"][0]["left"] / HOUR == 12


def test_a_seat_that_answered_a_simultaneous_step_is_not_waiting():
    log = game({"kind": "bank", "bank_hours": 10}, seats=3)  # all three must answer
    log.move(1, 0, {1, 2})  # P0 answered after 1 h; P1 and P2 still think
    c = log.fold()
    assert not c.seat_clock(0, T0 + 5 * HOUR).running
    assert left(c, 0, 5) == 9  # stood still since its answer
    assert left(c, 1, 5) == 5
    assert left(c, 2, 5) == 5


def test_vacation_stops_the_clock_while_away():
    log = game({"kind": "per_move", "hours": 10}, seats=2)
    log.add("VacationDeclared", 1, {0, 1}, seat=0, **{"from": iso(T0 + 2 * HOUR),
                                                       "until": iso(T0 + 5 * HOUR)})
    c = log.fold()
    assert left(c, 0, 2) == 8
    assert left(c, 0, 4) == 8  # away
    assert left(c, 0, 6) == 7
    assert c.seat_clock(0, T0).due == T0 + 13 * HOUR  # 10 h of clock + 3 h away
    assert left(c, 1, 6) == 4  # the other seat's clock ran on
    assert c.seat_clock(0, T0 + 3 * HOUR).away_until == T0 + 5 * HOUR


def test_vacation_allowance_accrues_a_day_a_week_and_is_capped():
    c = game({"kind": "per_move", "hours": 10}).fold()
    day = clocks.DAY
    assert clocks.vacation_left(c, 0, T0) == clocks.VACATION_START_DAYS * day
    assert clocks.vacation_left(c, 0, T0 + 14 * day) == (clocks.VACATION_START_DAYS + 2) * day
    assert clocks.vacation_left(c, 0, T0 + 1000 * day) == clocks.VACATION_CAP_DAYS * day
    assert clocks.check_vacation(c, 0, T0 + HOUR, T0 + HOUR + 2 * day, T0)  # too long
    assert clocks.check_vacation(c, 0, T0 - day, T0, T0)  # in the past
    assert clocks.check_vacation(c, 0, T0 + HOUR, T0 + 5 * HOUR, T0) is None


def test_reminders_fall_at_the_configured_fractions_and_hours_before():
    log = game({"kind": "per_move", "hours": 48}, seats=1,
               reminders={"fractions": [0.5, 0.25], "hours_before": [24, 2]})
    c = log.fold()
    whens = {which: (when - T0) / HOUR for which, when in c.reminders(0)}
    # half left (24 h) and 24 hours before fall together: each is its own reminder
    assert whens == {"f0.5": 24, "h24": 24, "f0.25": 36, "h2": 46}
    (remind,) = c.actions(T0 + 37 * HOUR)
    assert remind["which"] == "f0.25" and set(remind["covers"]) == {"f0.5", "h24", "f0.25"}
    log.add("ReminderSent", 37, {0}, seat=0, turn=1, which="f0.25",
            covers=remind["covers"])
    assert [w for w, _ in log.fold().reminders(0)] == ["h2"]


def test_a_rewind_restores_the_clocks_and_the_taken_back_time_counts_for_nobody():
    log = game({"kind": "bank", "bank_hours": 10}, seats=2)
    log.add("MovePlayed", 0, {0}, seat=1, move={"type": "x"})  # version 2: P1 answers
    log.move(2, 0, {1})  # version 3: P0 moves after 2 h
    log.add("Rewound", 6, {0}, to=2)  # taken back at 6 h: P0 to act again
    c = log.fold()
    assert left(c, 0, 6) == 8  # as when the move was made, not 10 - 6
    assert left(c, 1, 6) == 10  # P1's time between the move and the rewind is not lost
    assert left(c, 0, 7) == 7


def test_time_outs_in_a_row_seat_the_stand_in_until_the_player_moves():
    log = game({"kind": "per_move", "hours": 1}, seats=2, on_timeout="bot", bot_after=2)
    log.move(0.5, 1, {0})
    log.add("TimedOut", 1, {0}, seat=0, turn=1, policy="bot")
    (play,) = log.fold().actions(T0 + HOUR)
    assert play == {"do": "play", "seat": 0, "auto": "timeout", "pass": False}
    log.move(1, 0, {1}, auto="timeout")  # played for seat 0; seat 1's turn
    log.move(1, 1, {0})  # seat 0's next turn begins (version 5)
    log.add("TimedOut", 2, {0}, seat=0, turn=5, policy="bot")
    assert log.fold().actions(T0 + 2 * HOUR) == [{"do": "seat_bot", "seat": 0}]
    log.add("BotSeated", 2, {0}, seat=0, after=2)
    assert log.fold().actions(T0 + 2 * HOUR) == [{"do": "play", "seat": 0, "auto": "bot"}]
    log.move(2.5, 0, {0})  # the player's own move: they are back
    c = log.fold()
    assert not c.s["seats"][0]["bot"] and c.s["seats"][0]["in_row"] == 0
    assert c.actions(T0 + 2.5 * HOUR) == [{"do": "unseat", "seat": 0}]


def test_a_table_of_stand_ins_alone_waits_for_its_players():
    log = game({"kind": "per_move", "hours": 1}, seats=1, on_timeout="bot", bot_after=1)
    log.add("TimedOut", 1, {0}, seat=0, turn=1, policy="bot")
    log.add("BotSeated", 1, {0}, seat=0, after=1)
    assert log.fold().actions(T0 + 5 * HOUR) == []


def test_an_old_games_deadline_hours_reads_as_per_move():
    log = game({}, seats=1)
    log.pairs[0][0].data.pop("platform")
    c = fold(log.pairs, deadline_hours=24)
    assert c.settings["time_control"] == {"kind": "per_move", "hours": 24}
    assert c.seat_clock(0, T0).due == T0 + 24 * HOUR


def test_no_time_control_has_no_clock_and_nothing_due():
    c = game({"kind": "none"}).fold()
    assert c.seat_clock(0, T0).left is None
    assert c.actions(T0 + 10_000 * HOUR) == [] and c.next_due() is None


def test_a_forks_clocks_run_from_the_fork_not_from_the_copied_events():
    log = game({"kind": "per_move", "hours": 10}, seats=1)
    log.add("Forked", 100, {0}, **{"from": "g", "at": 1, "by": "admin"})
    c = log.fold()
    assert left(c, 0, 100) == 10
    assert left(c, 0, 104) == 6


def test_moves_played_for_a_late_seat_go_on_until_the_rules_let_it_go():
    log = game({"kind": "per_move", "hours": 1}, seats=2, on_timeout="auto")
    log.move(0.5, 1, {0})
    log.add("TimedOut", 1, {0}, seat=0, turn=1, policy="auto")
    log.move(1, 0, {0}, auto="timeout")  # a step of seat 0's turn: the rest is played too
    assert log.fold().actions(T0 + HOUR) == [
        {"do": "play", "seat": 0, "auto": "timeout", "pass": False}]
    for _ in range(clocks.STAND_IN_MOVES - 1):  # a seat the rules never let go: bounded
        log.move(1, 0, {0}, auto="timeout")
    c = log.fold()
    assert c.actions(T0 + HOUR) == [] and left(c, 0, 1.5) == 0.5  # a new turn


def test_a_seat_may_declare_a_bounded_number_of_vacations_in_a_game():
    log = game({"kind": "per_move", "hours": 10}, seats=2)
    for n in range(clocks.MAX_VACATIONS):
        start = T0 + 2 * HOUR + n * 60
        log.add("VacationDeclared", 1, {0, 1}, seat=0,
                **{"from": iso(start), "until": iso(start + 1)})
    c = log.fold()
    later = T0 + 3 * HOUR
    assert "at most" in clocks.check_vacation(c, 0, later, later + 1, T0)
    assert clocks.check_vacation(c, 1, later, later + 1, T0) is None  # the other seat's own
