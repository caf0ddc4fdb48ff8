"""Reminders people want: none for a player who just looked, none at night (held and
sent when the quiet hours end, once), in the player's own time zone."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from events import envelope as ev
from events.store import key
from worker import current, held, jobs, players, quiet
from worker.projection import pending_notices

ADA = {"name": "Ada", "email": "ada@example.com", "tz": "Europe/Paris"}
BO = {"name": "Bo", "email": "bo@example.com", "tz": "Asia/Tokyo"}


class Clock:
    """A controllable clock for worker.current.now (never sleeps)."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta) -> None:
        self.at += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch, rt):
    c = Clock(datetime(2026, 6, 1, 12, 0, tzinfo=UTC))  # 14:00 in Paris, 21:00 in Tokyo
    monkeypatch.setattr(current, "now", c)
    rt.clock = c  # the same clock stamps the events and drives the game clocks
    return c


@pytest.fixture
def quiet_rt(rt):
    rt.config["QUIET_HOURS"] = "22-8"  # the product default (the test suite turns it off)
    return rt


def mails_to(rt, address, subject=""):
    return [m for m in rt.mail.list(limit=500)
            if m["to"] == address and subject in m["subject"]]


REMINDER_AFTER = timedelta(hours=2)  # a 4-hour move clock reminds at half the time


def new_game(rt):
    table = rt.games.create("test-race", [ADA, BO], {"target": 30}, platform={
        "time_control": {"kind": "per_move", "hours": 4},
        "reminders": {"fractions": [0.5], "hours_before": []}})
    return table.game_id


def ada_to_move(rt, game_id):
    """Both ante, so that Ada's (seat 0) first real turn begins; returns its version."""
    rt.games.play(game_id, 0, {"type": "ante", "amount": 1}, rt.store.version(game_id))
    rt.games.play(game_id, 1, {"type": "ante", "amount": 1}, rt.store.version(game_id))
    jobs.project(game_id)
    return json.loads(rt.redis.hget(key(game_id, "awaiting"), "0"))["version"]


def reminders_recorded(rt, game_id, outcome="sent"):
    """The reminders the log says went out (``outcome``: or were skipped, or held)."""
    return [e for e in rt.store.iter(game_id)
            if e.type == ev.REMINDER_SENT and e.data.get("outcome", "sent") == outcome]


# -- last seen -------------------------------------------------------------------------
def test_no_reminder_for_a_player_who_opened_the_game_in_the_last_hour(client, quiet_rt,
                                                                       clock):
    rt = quiet_rt
    game_id = new_game(rt)
    jobs.project(game_id)
    turn = ada_to_move(rt, game_id)
    clock.advance(minutes=61)
    client.get("/play/" + rt.links.make(game_id, 0, "play"))  # Ada looks at her page
    clock.at += REMINDER_AFTER - timedelta(minutes=61)  # her reminder is due, 59 min later
    assert jobs.remind(game_id, turn, 0) == ["ReminderSent"]
    assert mails_to(rt, ADA["email"], "Reminder") == []
    assert reminders_recorded(rt, game_id) == []
    assert len(reminders_recorded(rt, game_id, "skipped")) == 1  # decided once, in the log
    assert jobs.remind(game_id, turn, 0) == []


def test_opening_the_act_link_or_the_api_counts_as_having_looked(client, quiet_rt, clock):
    rt = quiet_rt
    game_id = new_game(rt)
    jobs.project(game_id)
    turn = ada_to_move(rt, game_id)
    client.get("/m/" + rt.links.make(game_id, 0, "act", turn))
    assert quiet.seen_recently(rt.redis.get(key(game_id, "seen:0")), clock())
    from worker.links import api_token
    client.get(f"/api/v1/games/{game_id}", headers={
        "Authorization": f"Bearer {api_token(rt.redis, rt.links, game_id, 1)}"})
    assert quiet.seen_recently(rt.redis.get(key(game_id, "seen:1")), clock())


def test_a_reminder_goes_when_the_player_last_looked_over_an_hour_ago(client, quiet_rt,
                                                                      clock):
    rt = quiet_rt
    game_id = new_game(rt)
    jobs.project(game_id)
    turn = ada_to_move(rt, game_id)
    clock.advance(minutes=59)
    client.get("/play/" + rt.links.make(game_id, 0, "play"))
    clock.at += REMINDER_AFTER - timedelta(minutes=59)  # her reminder is due, 61 min later
    assert jobs.remind(game_id, turn, 0) == ["ReminderSent"]
    assert len(mails_to(rt, ADA["email"], "Reminder")) == 1
    assert len(reminders_recorded(rt, game_id)) == 1


def test_looking_at_the_game_changes_no_game_state(client, quiet_rt, clock):
    rt = quiet_rt
    game_id = new_game(rt)
    version = rt.store.version(game_id)
    client.get("/play/" + rt.links.make(game_id, 0, "play"))
    assert rt.store.version(game_id) == version


# -- quiet hours -----------------------------------------------------------------------
def test_an_email_due_in_quiet_hours_is_held_until_they_end_in_the_players_zone(quiet_rt,
                                                                                clock):
    rt = quiet_rt
    clock.at = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)  # 23:30 in Paris, 06:30 in Tokyo
    game_id = new_game(rt)
    jobs.project(game_id)
    assert mails_to(rt, ADA["email"]) == [] and mails_to(rt, BO["email"]) == []
    held = dict(rt.redis.zrange(quiet.HELD, 0, -1, withscores=True))
    paris_8 = datetime(2026, 6, 2, 6, 0, tzinfo=UTC).timestamp()
    tokyo_8 = datetime(2026, 6, 1, 23, 0, tzinfo=UTC).timestamp()
    assert held == {f"{game_id}|1|0|turn": paris_8, f"{game_id}|1|1|turn": tokyo_8}


def test_a_held_email_is_no_longer_pending_so_the_sweep_does_not_resend_it_all_night(
        quiet_rt, clock):
    rt = quiet_rt
    clock.at = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)
    game_id = new_game(rt)
    jobs.project(game_id)
    assert pending_notices(rt) == []
    clock.advance(minutes=30)
    jobs.sweep()
    assert rt.mail.list(limit=50) == []


def test_a_held_email_is_sent_once_when_its_quiet_hours_end(quiet_rt, clock):
    rt = quiet_rt
    clock.at = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)
    game_id = new_game(rt)
    jobs.project(game_id)
    clock.at = datetime(2026, 6, 1, 23, 0, tzinfo=UTC)  # 08:00 in Tokyo, 01:00 in Paris
    assert quiet.release(game_id, 1, 1, "turn") is True
    assert quiet.release(game_id, 1, 1, "turn") is False  # a second run sends nothing
    assert len(mails_to(rt, BO["email"])) == 1
    assert mails_to(rt, ADA["email"]) == []
    assert [m.split("|")[2] for m in rt.redis.zrange(quiet.HELD, 0, -1)] == ["0"]


def test_the_sweep_sends_held_emails_whose_time_has_come_and_only_those(quiet_rt, clock):
    rt = quiet_rt
    clock.at = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)
    game_id = new_game(rt)
    jobs.project(game_id)
    clock.at = datetime(2026, 6, 1, 23, 5, tzinfo=UTC)  # the scheduled job was lost
    quiet.sweep(rt)
    assert len(mails_to(rt, BO["email"])) == 1 and mails_to(rt, ADA["email"]) == []
    clock.at = datetime(2026, 6, 2, 6, 5, tzinfo=UTC)
    quiet.sweep(rt)
    quiet.sweep(rt)
    assert len(mails_to(rt, ADA["email"])) == 1 and len(mails_to(rt, BO["email"])) == 1
    assert rt.redis.zcard(quiet.HELD) == 0


def test_the_sweep_reads_a_bounded_batch_of_held_emails_longest_held_first(
        quiet_rt, clock, monkeypatch):
    rt = quiet_rt
    clock.at = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)
    game_id = new_game(rt)
    jobs.project(game_id)  # two held: Bo's until 23:00, Ada's until 06:00 (UTC)
    monkeypatch.setattr(held, "SWEEP_BATCH", 1)
    clock.at = datetime(2026, 6, 2, 7, 0, tzinfo=UTC)
    assert quiet.sweep(rt) == 1
    assert len(mails_to(rt, BO["email"])) == 1 and mails_to(rt, ADA["email"]) == []
    assert quiet.sweep(rt) == 1
    assert len(mails_to(rt, ADA["email"])) == 1


def test_a_held_reminder_is_sent_and_recorded_when_the_quiet_hours_end(quiet_rt, clock):
    rt = quiet_rt
    game_id = new_game(rt)
    jobs.project(game_id)
    clock.at = datetime(2026, 6, 1, 21, 0, tzinfo=UTC)  # 23:00 in Paris
    turn = ada_to_move(rt, game_id)
    clock.at += REMINDER_AFTER  # 01:00 in Paris: her reminder is due, and held
    assert jobs.remind(game_id, turn, 0) == ["ReminderSent"]
    assert mails_to(rt, ADA["email"], "Reminder") == []
    assert len(reminders_recorded(rt, game_id, "held")) == 1
    clock.at = datetime(2026, 6, 2, 6, 0, tzinfo=UTC)
    assert quiet.release(game_id, turn, 0, "remind") is True
    assert quiet.release(game_id, turn, 0, "remind") is False  # once
    assert len(mails_to(rt, ADA["email"], "Reminder")) == 1
    assert len(reminders_recorded(rt, game_id, "held")) == 1  # the decision, recorded once


def test_a_held_reminder_of_a_turn_that_timed_out_in_the_night_is_not_sent(quiet_rt,
                                                                            clock):
    rt = quiet_rt
    game_id = new_game(rt)
    jobs.project(game_id)
    clock.at = datetime(2026, 6, 1, 21, 0, tzinfo=UTC)  # 23:00 in Paris
    turn = ada_to_move(rt, game_id)
    clock.at += REMINDER_AFTER
    assert jobs.remind(game_id, turn, 0) == ["ReminderSent"]  # held
    clock.at += REMINDER_AFTER  # 03:00 in Paris: her four hours are over
    assert jobs.check_clocks(game_id) == ["TimedOut"]
    jobs.project(game_id)
    clock.at = datetime(2026, 6, 2, 6, 0, tzinfo=UTC)
    assert quiet.release(game_id, turn, 0, "remind") is False
    assert mails_to(rt, ADA["email"], "Reminder") == []
    assert rt.redis.zscore(quiet.HELD, f"{game_id}|{turn}|0|remind") is None
    assert len(mails_to(rt, ADA["email"], "deadline")) == 0  # held: it goes at 08:00 too
    (timed_out,) = [e for e in rt.store.iter(game_id) if e.type == ev.TIMED_OUT]
    assert rt.redis.zscore(quiet.HELD, f"{game_id}|{timed_out.version}|0|timeout")


def test_a_held_turn_email_is_not_sent_if_the_player_moved_meanwhile(quiet_rt, clock):
    rt = quiet_rt
    game_id = new_game(rt)
    jobs.project(game_id)
    clock.at = datetime(2026, 6, 1, 23, 0, tzinfo=UTC)
    turn = ada_to_move(rt, game_id)  # her turn email is held (01:00 in Paris)
    table = rt.games.load(game_id)
    move = table.game.legal_moves(table.state, 0)[0]
    rt.games.play(game_id, 0, move, table.version)
    jobs.project(game_id)
    before = len(mails_to(rt, ADA["email"]))  # her invitation
    clock.at = datetime(2026, 6, 2, 6, 0, tzinfo=UTC)
    assert quiet.release(game_id, turn, 0, "turn") is False
    assert len(mails_to(rt, ADA["email"])) == before


def test_a_time_out_email_due_in_quiet_hours_is_held_and_sent_once_when_they_end(
        quiet_rt, clock):
    rt = quiet_rt
    rt.config["QUIET_HOURS"] = "off"  # no hold for the turn emails before it
    game_id = new_game(rt)
    jobs.project(game_id)
    ada_to_move(rt, game_id)
    rt.config["QUIET_HOURS"] = "22-8"
    clock.at = datetime(2026, 6, 1, 23, 0, tzinfo=UTC)  # 01:00 in Paris, 08:00 in Tokyo
    assert "TimedOut" in jobs.check_clocks(game_id)  # Ada's four hours ran out at 16:00
    jobs.project(game_id)
    (timed_out,) = [e for e in rt.store.iter(game_id) if e.type == ev.TIMED_OUT]
    assert mails_to(rt, ADA["email"], "deadline") == []  # her night: held
    assert len(mails_to(rt, BO["email"], "deadline")) == 1  # his morning: sent
    assert pending_notices(rt) == []  # held, so the sweep does not resend it all night
    paris_8 = datetime(2026, 6, 2, 6, 0, tzinfo=UTC)
    assert rt.redis.zscore(quiet.HELD, f"{game_id}|{timed_out.version}|0|timeout") == \
        paris_8.timestamp()
    clock.at = paris_8
    assert quiet.release(game_id, timed_out.version, 0, "timeout") is True
    assert quiet.release(game_id, timed_out.version, 0, "timeout") is False  # once
    assert len(mails_to(rt, ADA["email"], "deadline")) == 1
    assert rt.redis.zcard(quiet.HELD) == 0


def test_a_player_chooses_their_own_quiet_hours_or_none(quiet_rt, clock):
    rt = quiet_rt
    clock.at = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)  # 23:30 Paris, 06:30 Tokyo
    players.save_prefs(rt.redis, players.player_id(rt.redis, ADA["email"]), quiet=None)
    players.save_prefs(rt.redis, players.player_id(rt.redis, BO["email"]), quiet=(1, 5))
    game_id = new_game(rt)
    jobs.project(game_id)
    assert len(mails_to(rt, ADA["email"])) == 1
    assert len(mails_to(rt, BO["email"])) == 1
    assert rt.redis.zcard(quiet.HELD) == 0


def test_quiet_hours_that_span_midnight_end_the_next_morning_local_time():
    paris = "Europe/Paris"
    late = datetime(2026, 6, 1, 21, 0, tzinfo=UTC)  # 23:00 in Paris (summer time)
    assert quiet.quiet_until(late, paris, (22, 8)) == datetime(2026, 6, 2, 6, 0, tzinfo=UTC)
    early = datetime(2026, 6, 2, 3, 0, tzinfo=UTC)  # 05:00 in Paris
    assert quiet.quiet_until(early, paris, (22, 8)) == datetime(2026, 6, 2, 6, 0, tzinfo=UTC)
    day = datetime(2026, 6, 2, 6, 0, tzinfo=UTC)  # 08:00 sharp: awake
    assert quiet.quiet_until(day, paris, (22, 8)) is None
    assert quiet.quiet_until(late, paris, None) is None


def test_quiet_hours_follow_the_clocks_across_a_daylight_saving_change():
    night = datetime(2026, 3, 29, 0, 30, tzinfo=UTC)  # 01:30 CET; clocks go forward at 02:00
    assert quiet.quiet_until(night, "Europe/Paris", (22, 8)) == \
        datetime(2026, 3, 29, 6, 0, tzinfo=UTC)  # 08:00 CEST


def test_quiet_hours_within_one_day_and_an_unknown_zone_counts_as_utc():
    at = datetime(2026, 6, 1, 13, 30, tzinfo=UTC)
    assert quiet.quiet_until(at, "Nowhere/Special", (13, 15)) == \
        datetime(2026, 6, 1, 15, 0, tzinfo=UTC)
    assert quiet.quiet_until(at, "UTC", (14, 15)) is None


def test_the_default_quiet_hours_come_from_the_configuration():
    assert quiet.default_quiet({"QUIET_HOURS": "22-8"}) == (22, 8)
    assert quiet.default_quiet({"QUIET_HOURS": "off"}) is None
    assert quiet.default_quiet({}) == (22, 8)
