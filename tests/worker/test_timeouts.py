"""Time-outs and their policies, reminders, vacations: one test per rule, on a
controllable clock (the runtime's ``clock``, which also stamps the events' ``at``)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from events import clocks as clk
from games import registry
from tests.support import PLAYERS, START, Clock, admin_headers, bearer
from worker import due, jobs, timeouts

registry.KINDS.setdefault("test-clock", "tests.clock_game:GAME")



@pytest.fixture
def clock(rt):
    rt.clock = Clock()
    return rt.clock


@pytest.fixture
def create(client, clock):
    """Create a game through the API with these platform options; (id, tokens)."""
    def make(kind="test-race", players=PLAYERS, **platform):
        options = {"target": 40} if kind == "test-race" else {}
        reply = client.post("/api/v1/games", headers=admin_headers(), json={
            "game": kind, "players": players, "options": {**options, **platform}})
        assert reply.status_code == 201, reply.json
        return reply.json["id"], [s["token"] for s in reply.json["seats"]]
    return make


def of_type(rt, game_id, *types):
    return [e for e in rt.store.read(game_id) if e.type in types]


def ante(rt, game_id, seat, amount=1):
    rt.games.play(game_id, seat, {"type": "ante", "amount": amount},
                  rt.store.version(game_id))
    jobs.project(game_id)


def first_card_at_one_and_a_half_hours(rt, game_id, clock):
    """Antes at 0 h and 1 h (both projected), then the first card at 1.5 h (not
    projected): the table the card was played on."""
    ante(rt, game_id, 0)
    clock.at(1)
    ante(rt, game_id, 1)
    clock.at(1.5)
    table = rt.games.load(game_id)
    seat = min(table.to_act())
    rt.games.play(game_id, seat, table.game.legal_moves(table.state, seat)[0],
                  table.version)
    return table


PER_MOVE = {"kind": "per_move", "hours": 2}
QUIET = {"fractions": [], "hours_before": []}


def test_a_per_move_time_out_fires_once_at_the_deadline(rt, create, clock):
    game_id, _ = create(time_control=PER_MOVE, reminders=QUIET)
    clock.at(1.99)
    assert timeouts.check_game(rt, game_id) == []
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "TimedOut"]  # both seats
    assert timeouts.check_game(rt, game_id) == []
    out = of_type(rt, game_id, "TimedOut")
    assert [(e.data["seat"], e.data["turn"], e.data["policy"]) for e in out] == [
        (0, 1, "wait"), (1, 1, "wait")]
    subjects = [m["subject"] for m in rt.mail.list() if "deadline" in m["subject"]]
    assert len(subjects) == 4  # each of two players told about each of the two


def test_a_time_out_job_run_twice_records_one_time_out(rt, create, clock):
    game_id, _ = create(players=PLAYERS[:1], time_control=PER_MOVE, reminders=QUIET)
    clock.at(3)
    jobs.time_out(game_id, 1, 0)
    jobs.time_out(game_id, 1, 0)  # a retried or duplicated job
    jobs.sweep()  # and the sweep finding it due as well
    assert len(of_type(rt, game_id, "TimedOut")) == 1


def test_a_move_in_time_stops_the_time_out(rt, create, clock):
    game_id, _ = create(players=PLAYERS[:1], time_control=PER_MOVE, reminders=QUIET)
    clock.at(1)
    ante(rt, game_id, 0)
    clock.at(2.5)  # the first turn's deadline has passed, the new turn's has not
    assert timeouts.check_game(rt, game_id) == []


def test_a_lost_scheduled_job_is_fired_by_the_sweep(rt, create, clock):
    # inline runtime: scheduled jobs never run, as if RQ lost them all
    game_id, _ = create(players=PLAYERS[:1], time_control=PER_MOVE, reminders=QUIET)
    assert due.due_at(rt.redis, game_id) == (START + timedelta(hours=2)).timestamp()
    clock.at(2)
    jobs.sweep()
    assert [e.data["seat"] for e in of_type(rt, game_id, "TimedOut")] == [0]
    assert due.due_at(rt.redis, game_id) is None  # nothing more to wait for


def test_a_game_waiting_since_before_the_due_index_joins_it_at_the_sweep(rt, create, clock):
    # as a game projected before time controls shipped: no clocks read model, not indexed
    game_id, _ = create(players=PLAYERS[:1], time_control=PER_MOVE, reminders=QUIET)
    rt.redis.delete(f"rp:{{g:{game_id}}}:{timeouts.CLOCK_KEY}")
    due.set_due(rt.redis, game_id, None)
    jobs.sweep()
    assert due.due_at(rt.redis, game_id) == (START + timedelta(hours=2)).timestamp()
    clock.at(2)
    rt.redis.delete(due.CATCH_UP)  # its day's pause over
    jobs.sweep()
    assert [e.data["seat"] for e in of_type(rt, game_id, "TimedOut")] == [0]


def test_the_due_index_catch_up_goes_a_bounded_step_per_sweep(rt, clock):
    ids = [rt.games.create("test-race", PLAYERS[:1], {"target": 30}).game_id
           for _ in range(5)]
    looked: list[list[str]] = []

    def ids_at(offset, limit):
        return ids[offset:offset + limit]

    def index(batch):  # gets through at most two games a step
        looked.append(batch[:2])
        return min(2, len(batch))
    assert [due.catch_up(rt.redis, ids_at, index, batch=3) for _ in range(4)] == [2, 2, 1, 0]
    assert sum(looked, []) == ids  # each game once, in order; then done for a day
    assert 0 < rt.redis.ttl(due.CATCH_UP) <= due.CATCH_UP_PAUSE


def test_the_catch_up_folds_a_bounded_number_of_games_per_sweep(rt, clock, monkeypatch):
    ids = [rt.games.create("test-race", PLAYERS[:1], {"target": 30}).game_id
           for _ in range(3)]  # never projected: no clocks read model
    monkeypatch.setattr(timeouts, "CATCH_UP_FOLDS", 2)
    assert timeouts.catch_up(rt) == 2
    assert [rt.redis.exists(f"rp:{{g:{g}}}:clock") for g in ids] == [1, 1, 0]
    assert timeouts.catch_up(rt) == 1
    assert all(rt.redis.exists(f"rp:{{g:{g}}}:clock") for g in ids)


def test_bank_clock_counts_down_across_turns_with_increment_and_cap(rt, create, clock,
                                                                    client):
    game_id, tokens = create(time_control={"kind": "bank", "bank_hours": 3,
                                           "increment_hours": 1, "cap_hours": 3.5},
                             reminders=QUIET)
    clock.at(1)
    ante(rt, game_id, 0)  # seat 0: 3 - 1 + 1 = 3
    clock.at(2)
    ante(rt, game_id, 1)  # seat 1: 3 - 2 + 1 = 2; play begins with seat 0
    reply = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[1])).json
    assert reply["clocks"] == {"0": 3 * 3600, "1": 2 * 3600}
    clock.at(4.5)
    assert timeouts.check_game(rt, game_id) == []
    clock.at(5)
    assert timeouts.check_game(rt, game_id) == ["TimedOut"]


def test_a_seat_that_answered_the_simultaneous_step_does_not_time_out(rt, create, clock):
    game_id, _ = create(time_control={"kind": "bank", "bank_hours": 2}, reminders=QUIET)
    clock.at(0.5)
    ante(rt, game_id, 0)  # seat 0 answered; seat 1 has not
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut"]
    assert [e.data["seat"] for e in of_type(rt, game_id, "TimedOut")] == [1]


def test_vacation_pauses_the_clock_and_others_see_away_until(rt, create, clock, client):
    game_id, tokens = create(players=PLAYERS, time_control=PER_MOVE, reminders=QUIET)
    start, until = START + timedelta(hours=1), START + timedelta(hours=4)
    reply = client.post(f"/api/v1/games/{game_id}/vacation", headers=bearer(tokens[0]),
                        json={"from": start.isoformat(), "until": until.isoformat()})
    assert reply.status_code == 201, reply.json
    game = client.get(f"/api/v1/games/{game_id}", headers=bearer(tokens[1])).json
    assert game["away"] == {"0": until.isoformat()}
    clock.at(2)
    assert [e.data["seat"] for e in (of_type(rt, game_id, "TimedOut")
                                     if timeouts.check_game(rt, game_id) else [])] == [1]
    clock.at(4.99)
    assert len(of_type(rt, game_id, "TimedOut")) == 1 and not timeouts.check_game(rt, game_id)
    clock.at(5)  # 2 h of clock + 3 h away
    assert timeouts.check_game(rt, game_id) == ["TimedOut"]


def test_vacation_beyond_the_allowance_is_refused_with_the_reason(create, clock, client):
    game_id, tokens = create(time_control=PER_MOVE)
    reply = client.post(f"/api/v1/games/{game_id}/vacation", headers=bearer(tokens[0]),
                        json={"from": (START + timedelta(hours=1)).isoformat(),
                              "until": (START + timedelta(days=40)).isoformat()})
    assert reply.status_code == 422
    assert "days of vacation are left" in reply.json["message"]


def test_skip_plays_the_games_pass_for_the_late_seat(rt, create, clock):
    game_id, _ = create(kind="test-clock", time_control=PER_MOVE, on_timeout="skip",
                        reminders=QUIET)
    ante(rt, game_id, 0)
    ante(rt, game_id, 1)  # play begins: Ada's turn, with a pass available
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "MovePlayed"]
    played = of_type(rt, game_id, "MovePlayed")[-1]
    assert played.data["move"] == {"type": "pass"} and played.data["auto"] == "timeout"


def test_skip_without_a_pass_in_the_rules_waits_and_says_so(rt, create, clock):
    game_id, _ = create(players=PLAYERS[:1], time_control=PER_MOVE, on_timeout="skip",
                        reminders=QUIET)
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut"]
    (out,) = of_type(rt, game_id, "TimedOut")
    assert out.data["policy"] == "wait" and out.data["no_pass"] is True


def test_auto_plays_the_stand_in_move_marked_in_the_history(rt, create, clock, client):
    game_id, tokens = create(time_control=PER_MOVE, on_timeout="auto", reminders=QUIET)
    ante(rt, game_id, 1)
    clock.at(2)
    # Ada's ante, the last, starts play with Ada's turn: the stand-in plays that too
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "MovePlayed", "MovePlayed"]
    ante_for_her, card = of_type(rt, game_id, "MovePlayed")[-2:]
    assert ante_for_her.data["move"] == {"type": "ante", "amount": 1}  # the first legal
    assert card.data["move"]["type"] == "play" and card.data["auto"] == "timeout"
    assert rt.games.load(game_id).to_act() == {1}
    history = client.get(f"/api/v1/games/{game_id}/history",
                         headers=bearer(tokens[0])).json["events"]
    assert "played for Ada: time ran out" in history[-1]["text"]


def test_bot_takes_the_seat_after_time_outs_in_a_row(rt, create, clock):
    game_id, _ = create(kind="test-clock", time_control=PER_MOVE, on_timeout="bot",
                        bot_after=2, reminders=QUIET)
    clock.at(0.5)
    ante(rt, game_id, 1)
    clock.at(2)  # seat 0's first time-out: its ante, then its first card, played for it
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "MovePlayed", "MovePlayed"]
    clock.at(2.5)
    rt.games.play(game_id, 1, {"type": "pass"}, rt.store.version(game_id))
    clock.at(4.5)  # the second in a row: the stand-in takes the seat and plays
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "BotSeated", "MovePlayed"]
    assert [e.data.get("auto") for e in of_type(rt, game_id, "MovePlayed")[1:]] == [
        "timeout", "timeout", None, "bot"]
    clock.at(5)
    rt.games.play(game_id, 1, {"type": "pass"}, rt.store.version(game_id))
    # from now on it plays every turn of the seat at once, without waiting for a clock
    assert timeouts.check_game(rt, game_id) == ["MovePlayed"]
    assert of_type(rt, game_id, "MovePlayed")[-1].data["auto"] == "bot"


def _bot_seated(rt, create, clock):
    """A two-seat game where a stand-in plays seat 0 and it is seat 1's turn."""
    game_id, tokens = create(kind="test-clock", time_control=PER_MOVE, on_timeout="bot",
                             bot_after=1, reminders=QUIET)
    clock.at(0.5)
    ante(rt, game_id, 1)
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "BotSeated", "MovePlayed",
                                                "MovePlayed"]  # the ante, then a card
    assert timeouts.clocks_of(rt, game_id).s["to_act"] == [1]
    return game_id, tokens


def test_the_bot_stops_when_the_player_says_they_are_back(rt, create, clock, client):
    game_id, tokens = _bot_seated(rt, create, clock)
    assert client.post(f"/api/v1/games/{game_id}/back",
                       headers=bearer(tokens[0])).status_code == 201
    assert of_type(rt, game_id, "BotUnseated")[-1].data == {"seat": 0, "reason": "back"}
    assert client.post(f"/api/v1/games/{game_id}/back",
                       headers=bearer(tokens[0])).status_code == 422  # no bot any more
    rt.games.play(game_id, 1, {"type": "pass"}, rt.store.version(game_id))
    assert timeouts.check_game(rt, game_id) == []  # seat 0's turn is the player's again


def test_the_bot_stops_when_the_player_moves_on_their_own(rt, create, clock):
    game_id, _ = _bot_seated(rt, create, clock)
    rt.games.play(game_id, 1, {"type": "pass"}, rt.store.version(game_id))
    rt.games.play(game_id, 0, {"type": "pass"}, rt.store.version(game_id))  # before the bot
    assert timeouts.check_game(rt, game_id) == ["BotUnseated"]
    assert of_type(rt, game_id, "BotUnseated")[-1].data == {"seat": 0, "reason": "moved"}


def test_forfeit_ends_the_game_with_the_late_seat_last(rt, create, clock):
    game_id, _ = create(time_control=PER_MOVE, on_timeout="forfeit", reminders=QUIET)
    clock.at(0.5)
    ante(rt, game_id, 0)
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "GameEnded"]
    (ended,) = of_type(rt, game_id, "GameEnded")
    assert ended.data["early"] == "forfeit"
    outcome = ended.data["outcome"]
    assert outcome["ranking"][-1] == 1 and outcome["seats"] == [1]  # ranked as a resignation
    assert outcome["winner"]
    assert timeouts.check_game(rt, game_id) == []


def test_reminders_go_out_at_the_configured_fractions(rt, create, clock):
    game_id, _ = create(players=PLAYERS[:1], time_control={"kind": "per_move", "hours": 8},
                        reminders={"fractions": [0.5, 0.25], "hours_before": []})
    clock.at(3.9)
    assert timeouts.check_game(rt, game_id) == []
    clock.at(4)
    assert timeouts.check_game(rt, game_id) == ["ReminderSent"]
    clock.at(5.9)
    assert timeouts.check_game(rt, game_id) == []
    clock.at(6)
    assert timeouts.check_game(rt, game_id) == ["ReminderSent"]
    assert timeouts.check_game(rt, game_id) == []
    reminders = [m for m in rt.mail.list() if m["subject"].startswith("Reminder")]
    assert len(reminders) == 2


def test_a_reminder_sent_by_a_run_that_died_before_recording_it_is_recorded_as_sent(
        rt, create, clock):
    from worker import notify
    game_id, _ = create(players=PLAYERS[:1], time_control={"kind": "per_move", "hours": 8},
                        reminders={"fractions": [0.5], "hours_before": []})
    clock.at(4)
    turn = timeouts.clocks_of(rt, game_id).s["seats"][0]["turn"]
    # the first run sent the email, then died before appending its ReminderSent
    assert notify.send_turn(rt, game_id, turn, 0, reminder=True, which="f0.5")
    assert timeouts.check_game(rt, game_id) == ["ReminderSent"]
    assert of_type(rt, game_id, "ReminderSent")[-1].data["outcome"] == "sent"
    assert len([m for m in rt.mail.list() if m["subject"].startswith("Reminder")]) == 1


def test_default_reminders_are_half_a_quarter_and_a_day_before(rt, create, clock):
    game_id, _ = create(players=PLAYERS[:1], time_control={"kind": "per_move", "hours": 96})
    c = timeouts.clocks_of(rt, game_id)
    hours = sorted((when - START.timestamp()) / 3600 for _, when in c.reminders(0))
    assert hours == [48, 72, 72]  # half left; a quarter left and 24 h before coincide


def test_unknown_time_control_values_are_a_400_naming_the_field(client):
    for options, field in (({"time_control": {"kind": "hourglass"}}, "kind"),
                           ({"on_timeout": "panic"}, "on_timeout"),
                           ({"time_control": {"kind": "per_move"}}, "hours"),
                           ({"time_control": {"kind": "bank", "bank_hours": 1,
                                              "speed": 2}}, "speed"),
                           ({"time_control": {"kind": "per_move", "hours": "1"}}, "hours"),
                           ({"time_control": {"kind": "per_move", "hours": True}}, "hours"),
                           ({"reminders": {"fractions": ["0.5"]}}, "fractions")):
        reply = client.post("/api/v1/games", headers=admin_headers(), json={
            "game": "test-race", "players": PLAYERS, "options": {"target": 40, **options}})
        assert reply.status_code == 400, options
        assert field in reply.json["message"], reply.json


def test_the_settings_are_in_the_game_created_event(rt, create):
    game_id, _ = create(time_control={"kind": "per_move", "hours": 0.5}, on_timeout="auto")
    created = rt.store.read(game_id)[0]
    assert created.data["platform"]["time_control"] == {"kind": "per_move", "hours": 0.5}
    assert created.data["options"] == {"target": 40, "copies": 4}


def test_an_old_games_deadline_hours_still_times_out(rt, clock):
    table = rt.games.create("test-race", PLAYERS[:1], {"target": 30})
    rt.store.put_json(table.game_id, "settings", {"deadline_hours": 24})
    jobs.project(table.game_id)
    clock.at(24)
    assert timeouts.check_game(rt, table.game_id)[-1] == "TimedOut"


def test_the_clocks_after_a_take_back_match_a_fold_from_scratch(rt, create, clock):
    game_id, _ = create(time_control={"kind": "bank", "bank_hours": 5}, reminders=QUIET)
    table = first_card_at_one_and_a_half_hours(rt, game_id, clock)
    clock.at(2)
    rt.games.rewind(game_id, table.version, "test", "admin")
    jobs.project(game_id)
    assert timeouts.read_model(rt, game_id).s == timeouts.full_fold(rt, game_id).s
    assert clk.parse_time(rt.store.read(game_id)[-1].at) == START.timestamp() + 2 * 3600


def test_a_clock_check_folds_only_the_events_after_the_read_model(rt, create, clock,
                                                                  monkeypatch):
    game_id, _ = create(time_control={"kind": "bank", "bank_hours": 5,
                                      "increment_hours": 1}, reminders=QUIET)
    # the read model is at the second ante; the card is not projected yet
    first_card_at_one_and_a_half_hours(rt, game_id, clock)
    whole = timeouts.full_fold(rt, game_id)

    def whole_log(*_args, **_kwargs):
        raise AssertionError("a clock check read the whole log")
    monkeypatch.setattr(rt.replayer, "walk", whole_log)
    folded = timeouts.clocks_of(rt, game_id)
    assert folded.version == rt.store.version(game_id) == timeouts.read_model(
        rt, game_id).version + 1
    assert folded.s == whole.s


def test_a_rewind_after_the_read_model_refolds_the_whole_log(rt, create, clock):
    game_id, _ = create(time_control={"kind": "bank", "bank_hours": 5}, reminders=QUIET)
    table = first_card_at_one_and_a_half_hours(rt, game_id, clock)
    jobs.project(game_id)
    clock.at(2)
    rt.games.rewind(game_id, table.version, "test", "admin")  # not projected yet
    assert timeouts.clocks_of(rt, game_id).s == timeouts.full_fold(rt, game_id).s
    assert timeouts.clocks_of(rt, game_id).version == rt.store.version(game_id)


def test_a_move_played_for_a_late_player_can_be_taken_back_and_is_not_replayed(rt, create,
                                                                               clock):
    game_id, _ = create(kind="test-clock", time_control=PER_MOVE, on_timeout="skip",
                        reminders=QUIET)
    ante(rt, game_id, 0)
    ante(rt, game_id, 1)  # play begins: Ada's turn
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "MovePlayed"]  # a pass for her
    jobs.project(game_id)
    clock.at(2.5)
    rt.games.request_undo(game_id, 0)  # Ada, back, asks to take back the pass
    rt.games.answer_undo(game_id, 1, True)
    assert rt.store.read(game_id)[-1].type == "Rewound"
    jobs.project(game_id)
    assert timeouts.check_game(rt, game_id) == []  # Ada chooses her move herself
    assert 0 in rt.games.load(game_id).to_act()


def test_time_out_emails_that_failed_are_sent_by_the_sweep(rt, create, clock, monkeypatch):
    from worker.mail import MailError
    from worker.projection import pending_notices

    game_id, _ = create(players=PLAYERS[:1], time_control=PER_MOVE, reminders=QUIET)
    real_send = rt.mail.send

    def down(email):
        raise MailError("try later", transient=True)
    monkeypatch.setattr(rt.mail, "send", down)
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut"]
    assert [n.kind for _, n in pending_notices(rt)] == ["timeout"]
    monkeypatch.setattr(rt.mail, "send", real_send)
    jobs.sweep()
    jobs.sweep()
    assert [m["subject"] for m in rt.mail.list() if "deadline" in m["subject"]] == [
        "Your deadline passed in Counting Race (test game)"]
    assert pending_notices(rt) == []


# -- what the time-out emails say (review, issue 29) -------------------------------------
def timeout_mails(rt) -> dict[str, str]:
    """The text of each time-out email by address."""
    return {m["to"]: rt.mail.get(m["id"])["text"] for m in rt.mail.list(limit=500)
            if "deadline" in m["subject"]}


def test_time_out_emails_say_the_stand_in_played_and_what(rt, create, clock):
    game_id, _ = create(kind="test-clock", time_control=PER_MOVE, on_timeout="skip",
                        reminders=QUIET)
    ante(rt, game_id, 0)
    ante(rt, game_id, 1)
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut", "MovePlayed"]
    jobs.project(game_id)
    texts = timeout_mails(rt)
    ada, bo = texts["ada@example.com"], texts["bo@example.com"]
    assert "passed, so the stand-in played for you: " in ada
    assert "so the stand-in played for Ada: " in bo
    for text in (ada, bo):
        assert "waiting for you" not in text and "waits for them" not in text


def test_time_out_emails_under_the_wait_policy_still_say_the_game_waits(rt, create, clock):
    game_id, _ = create(time_control=PER_MOVE, reminders=QUIET)
    ante(rt, game_id, 1)
    clock.at(2)
    assert timeouts.check_game(rt, game_id) == ["TimedOut"]
    jobs.project(game_id)
    texts = timeout_mails(rt)
    assert "The game is waiting for you" in texts["ada@example.com"]
    assert "The game waits for them" in texts["bo@example.com"]
    assert "stand-in" not in texts["ada@example.com"] + texts["bo@example.com"]
