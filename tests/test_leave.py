"""Leave across games (worker/leave.py): one booking pauses every clock of the player, a
yearly allowance shared with the vacations of one game, retries charged once, and the
opponents' "away until".  Time is the runtime's clock, moved by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from events import clocks as clk
from games.protocol import IllegalMove
from service import away
from tests.support import PLAYERS, admin_headers, bearer
from worker import leave, players, timeouts

START = datetime(2030, 1, 7, 12, 0, tzinfo=UTC)  # a Monday
PER_MOVE = {"kind": "per_move", "hours": 48}
QUIET = {"fractions": [], "hours_before": []}
ADA = "ada@example.com"


@pytest.fixture
def clock(rt):
    rt.clock = lambda: START
    return rt


@pytest.fixture
def create(client, clock):
    """A game through the API (projected inline, so in its players' index); its id and
    seat tokens.  ``time_control=None``: a game without a clock."""
    def make(players=PLAYERS, time_control=PER_MOVE):
        options = {"target": 40, "reminders": QUIET}
        if time_control:
            options["time_control"] = time_control
        reply = client.post("/api/v1/games", headers=admin_headers(), json={
            "game": "test-race", "players": players, "options": options})
        assert reply.status_code == 201, reply.json
        return reply.json["id"], [s["token"] for s in reply.json["seats"]]
    return make


def ada(rt) -> str:
    pid = players.lookup(rt.redis, ADA)
    assert pid
    return pid


def days(n: float) -> timedelta:
    return timedelta(days=n)


def vacations(rt, game_id):
    return [e.data for e in rt.store.read(game_id) if e.type == "VacationDeclared"]


def test_leave_taken_once_pauses_the_clocks_of_three_games_at_once(rt, create):
    games = [create()[0] for _ in range(3)]
    no_clock, _ = create(time_control=None)
    others, _ = create(players=[{"name": "Bo", "email": "bo@example.com"},
                                {"name": "Cy", "email": "cy@example.com"}])
    before = {g: timeouts.read_model(rt, g).seat_clock(0, START.timestamp()).due
              for g in games}
    assert all(due == (START + timedelta(hours=48)).timestamp() for due in before.values())
    start, until = START + timedelta(hours=1), START + days(3)

    taken = leave.take(rt, ada(rt), start, until)

    assert taken["games"] == sorted(games)  # no clock: nothing to pause; not Ada's: untouched
    assert taken["from"] == start.isoformat() and taken["until"] == until.isoformat()
    assert taken["days"] == pytest.approx(71 / 24, abs=0.01)
    assert vacations(rt, no_clock) == [] and vacations(rt, others) == []
    away_for = (until - start).total_seconds()
    for game_id in games:
        assert vacations(rt, game_id) == [{"seat": 0, "from": start.isoformat(),
                                           "until": until.isoformat(), "leave": True}]
        model = timeouts.read_model(rt, game_id)  # the projection's read model
        clock = model.seat_clock(0, (START + days(1)).timestamp())
        assert clock.due == before[game_id] + away_for  # the deadline moved by the leave
        assert clock.away_until == until.timestamp()
        # Ada's clock stands while she is away; Bo's (seat 1) runs on
        inside = [model.seat_clock(0, (START + days(d)).timestamp()).left for d in (1, 2)]
        assert inside[0] == inside[1] == 47 * clk.HOUR
        assert model.seat_clock(1, (START + days(1)).timestamp()).left == 24 * clk.HOUR


def test_the_allowance_is_30_days_a_year_by_default_and_LEAVE_DAYS_PER_YEAR_sets_it(rt, create):
    create()
    pid = ada(rt)
    assert leave.status(rt, pid) == {"year": 2030, "days_allowed": 30, "days_taken": 0,
                                     "days_left": 30, "periods": []}
    rt.config["LEAVE_DAYS_PER_YEAR"] = "10"  # as the environment gives it
    assert leave.status(rt, pid)["days_allowed"] == 10
    with pytest.raises(IllegalMove, match="only 10.0 days of vacation are left in 2030"):
        leave.take(rt, pid, START + days(1), START + days(12))
    taken = leave.take(rt, pid, START + days(1), START + days(11))
    assert (taken["days"], taken["days_left"]) == (10, 0)
    rt.config["LEAVE_DAYS_PER_YEAR"] = "many"
    with pytest.raises(ValueError, match="LEAVE_DAYS_PER_YEAR"):
        leave.status(rt, pid)


def test_leave_beyond_the_allowance_is_refused_and_changes_nothing(rt, create):
    game_id, _ = create()
    pid = ada(rt)
    first = leave.take(rt, pid, START + days(1), START + days(21))
    assert (first["days"], first["days_left"]) == (20, 10)
    version, ledger = rt.store.version(game_id), rt.redis.get(players.pkey(pid, "leave"))
    refusals = [
        ((START + days(30), START + days(41)), "only 10.0 days of vacation are left in 2030"),
        ((START - days(1), START + days(2)), "'from' is in the past"),
        ((START + days(50), START + days(50)), "'until' must be after 'from'"),
        ((START + days(360), START + days(367)), "at most a year ahead"),
        ((START + days(20), START + days(22)), "overlaps leave already taken"),
    ]
    for (start, until), reason in refusals:
        with pytest.raises(IllegalMove, match=reason):
            leave.take(rt, pid, start, until)
    assert rt.store.version(game_id) == version
    assert rt.redis.get(players.pkey(pid, "leave")) == ledger
    status = leave.status(rt, pid)
    assert (status["days_taken"], status["days_left"]) == (20, 10)
    assert status["periods"] == [{"from": (START + days(1)).isoformat(),
                                  "until": (START + days(21)).isoformat(),
                                  "kind": "leave", "days": 20}]


def test_leave_over_the_new_year_counts_its_days_in_each_year(rt, create):
    create()
    pid = ada(rt)
    rt.clock = lambda: datetime(2030, 12, 1, tzinfo=UTC)
    start = datetime(2030, 12, 29, tzinfo=UTC)
    taken = leave.take(rt, pid, start, datetime(2031, 1, 4, tzinfo=UTC))
    assert (taken["days"], taken["year"], taken["days_left"]) == (6, 2030, 27)
    status = leave.status(rt, pid)
    assert status["days_taken"] == 3
    assert status["next_year"] == {"year": 2031, "days_allowed": 30, "days_taken": 3,
                                   "days_left": 27}
    # 27 days are left in each year: 28 in 2031 are refused, naming the year
    with pytest.raises(IllegalMove, match="left in 2031"):
        leave.take(rt, pid, datetime(2031, 1, 4, tzinfo=UTC), datetime(2031, 2, 1, tzinfo=UTC))


def test_a_vacation_in_one_game_draws_on_the_same_allowance(rt, create, client):
    game_id, tokens = create()
    pid = ada(rt)
    start, until = START + days(1), START + days(10)  # beyond a game's own allowance
    reply = client.post(f"/api/v1/games/{game_id}/vacation", headers=bearer(tokens[0]),
                        json={"from": start.isoformat(), "until": until.isoformat()})
    assert reply.status_code == 201, reply.json
    status = leave.status(rt, pid)
    assert (status["days_taken"], status["days_left"]) == (9, 21)
    assert status["periods"] == [{"from": start.isoformat(), "until": until.isoformat(),
                                  "kind": "game", "days": 9, "game": game_id, "seat": 0}]
    with pytest.raises(IllegalMove, match="only 21.0 days"):
        leave.take(rt, pid, START + days(20), START + days(42))
    reply = client.post(f"/api/v1/games/{game_id}/vacation", headers=bearer(tokens[0]),
                        json={"from": (START + days(20)).isoformat(),
                              "until": (START + days(42)).isoformat()})
    assert reply.status_code == 422
    assert "only 21.0 days of vacation are left in 2030" in reply.json["message"]
    assert leave.status(rt, pid)["days_taken"] == 9  # the refused one left nothing behind


def test_leave_over_a_vacation_of_one_game_fills_the_gaps_and_charges_each_day_once(
        rt, create):
    first, _ = create()
    second, _ = create()
    pid = ada(rt)
    leave.declare(rt, first, 0, START + days(2), START + days(3))
    taken = leave.take(rt, pid, START + days(1), START + days(5))
    assert taken["games"] == sorted([first, second]) and taken["days"] == 3
    assert leave.status(rt, pid)["days_taken"] == 4
    spans = sorted((v["from"], v["until"]) for v in vacations(rt, first))
    iso = [(START + days(a)).isoformat() for a in (1, 2, 3, 5)]
    assert spans == [(iso[0], iso[1]), (iso[1], iso[2]), (iso[2], iso[3])]
    # a game created later is not paused by it; a vacation there inside the leave is free
    later, _ = create()
    leave.declare(rt, later, 0, START + days(1), START + days(5))
    assert leave.status(rt, pid)["days_taken"] == 4


def test_a_seat_with_no_address_keeps_the_allowance_of_its_game(rt, clock):
    table = rt.games.create("test-race", [{"name": "Ada", "email": ""},
                                          {"name": "Bo", "email": ""}],
                            {"target": 40}, platform={"time_control": PER_MOVE})
    with pytest.raises(IllegalMove, match=r"\(a day per 7 days of play"):
        leave.declare(rt, table.game_id, 0, START + days(1), START + days(3))
    assert leave.declare(rt, table.game_id, 0, START + days(1), START + days(2))


def test_a_retry_of_the_same_leave_charges_it_once(rt, create, monkeypatch):
    games = sorted(create()[0] for _ in range(3))
    pid = ada(rt)
    start, until = START + days(1), START + days(4)
    # the first try dies after the booking and the first game's append (its reply lost)
    real, calls = leave._apply, []

    def dies_after_one(*args):
        if calls:
            raise ConnectionError("the worker died")
        calls.append(args)
        return real(*args)
    monkeypatch.setattr(leave, "_apply", dies_after_one)
    with pytest.raises(ConnectionError):
        leave.take(rt, pid, start, until)
    monkeypatch.setattr(leave, "_apply", real)
    assert [len(vacations(rt, g)) for g in games] == [1, 0, 0]

    rt.clock = lambda: START + timedelta(minutes=5)  # retried a few minutes later
    again = leave.take(rt, pid, start, until)
    assert again["games"] == games and again["days"] == 3 and again["days_left"] == 27
    assert leave.take(rt, pid, start, until) == again  # and once more: nothing changes
    assert [len(vacations(rt, g)) for g in games] == [1, 1, 1]
    assert leave.status(rt, pid)["days_taken"] == 3


def test_opponents_see_away_until_for_leave(rt, create, client, app):
    game_id, tokens = create()
    until = START + days(3)
    leave.take(rt, ada(rt), START + timedelta(hours=1), until)
    game = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[1])).json
    assert game["away"] == {"0": until.isoformat()}
    with app.test_request_context():
        panel = away.clock_panel(game_id, 1)  # Bo's page
        assert panel["rows"][0]["away"] == "Thu 10 Jan 2030, 12:00 UTC"
        assert panel["rows"][1]["away"] is None
        mine = away.clock_panel(game_id, 0)  # Ada's: her yearly leave left
        # 30 days less the 71 hours taken
        assert (mine["vacation_scope"], mine["vacation_left"]) == ("year", "27 d 1 h")
