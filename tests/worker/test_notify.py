"""Turn emails: once per turn, even when jobs run twice, crash, or are lost."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from events.store import key
from tests.support import PLAYERS, a_finished_race
from worker import jobs
from worker.mail import MailError
from worker.projection import pending_notices, project_game, superseded_total


@pytest.fixture
def game(rt):
    table = rt.games.create("test-race", PLAYERS, {"target": 30})
    return table.game_id


def mails_to(rt, address):
    return [m for m in rt.mail.list(limit=500) if m["to"] == address]


def test_creation_invites_every_seat_once_with_a_move_link_for_those_to_act(rt, game):
    jobs.project(game)
    for player in PLAYERS:
        (mail,) = mails_to(rt, player["email"])
        text = rt.mail.get(mail["id"])["text"]
        assert "/m/" in text and "/play/" in text and "/unsubscribe/" in text
    assert pending_notices(rt) == []


def test_a_retried_projection_or_notify_sends_nothing_twice(rt, game):
    jobs.project(game)
    jobs.project(game)
    jobs.notify(game, 1, 0)
    jobs.notify(game, 1, 0)
    rt.redis.delete(key(game, "projected"))  # as if the projection were lost and redone
    jobs.project(game)
    assert len(mails_to(rt, "ada@example.com")) == 1


def test_each_new_turn_gets_one_email(rt, game):
    jobs.project(game)
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, 2)
    jobs.project(game)
    assert len(mails_to(rt, "ada@example.com")) == 2  # invitation + seat 0's first turn
    table = rt.games.load(game)
    seat = table.game.to_act(table.state).pop()
    move = table.game.legal_moves(table.state, seat)[0]
    rt.games.play(game, seat, move, table.version)
    jobs.project(game)
    other = PLAYERS[1 - seat]["email"]
    assert len(mails_to(rt, other)) == 2


def test_a_turn_played_before_its_projection_gets_no_email_and_no_pending_notice(rt, game):
    jobs.project(game)
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, 2)
    table = rt.games.load(game)
    seat = table.game.to_act(table.state).pop()
    rt.games.play(game, seat, table.game.legal_moves(table.state, seat)[0], table.version)
    jobs.project(game)  # seat's turn began at version 3 and passed at version 4
    assert len(mails_to(rt, PLAYERS[seat]["email"])) == 1  # the invitation only
    assert rt.redis.get(key(game, f"mailed:turn:3:{seat}")) is None
    assert pending_notices(rt) == []
    assert superseded_total(rt.redis) >= 1


def test_a_pending_turn_email_is_dropped_once_the_projection_sees_the_turn_pass(rt, game):
    jobs.project(game)
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, 2)
    table = rt.games.load(game)
    seat = table.game.to_act(table.state).pop()
    project_game(rt, game, deliver=lambda *_: None)  # its email job has not run yet
    assert f"turn:3:{seat}" in rt.redis.hkeys(key(game, "pending"))
    rt.games.play(game, seat, table.game.legal_moves(table.state, seat)[0], table.version)
    jobs.project(game)
    assert f"turn:3:{seat}" not in rt.redis.hkeys(key(game, "pending"))
    assert rt.redis.get(key(game, f"mailed:turn:3:{seat}")) is None
    assert len(mails_to(rt, PLAYERS[seat]["email"])) == 1  # the invitation only


def test_simultaneous_step_does_not_re_email_a_seat_still_to_act(rt, game):
    jobs.project(game)
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    jobs.project(game)
    assert len(mails_to(rt, "bo@example.com")) == 1


def test_a_failed_send_is_retried_later_and_then_sent_once(rt, game, monkeypatch):
    real_send = rt.mail.send
    calls = {"n": 0}

    def flaky(email):
        calls["n"] += 1
        if calls["n"] == 1:
            raise MailError("boom", transient=True)
        real_send(email)

    monkeypatch.setattr(rt.mail, "send", flaky)
    jobs.project(game)  # the projection sends, and a failed email does not fail it
    assert calls["n"] == 2  # both invitations tried, one failed
    assert pending_notices(rt), "the unsent notice stays pending"
    jobs.sweep()
    jobs.sweep()
    assert len(mails_to(rt, "ada@example.com")) == 1
    assert len(mails_to(rt, "bo@example.com")) == 1
    assert pending_notices(rt) == []


def test_sweep_projects_games_the_web_process_never_enqueued(rt, game):
    assert rt.redis.get(key(game, "projected")) is None
    assert jobs.sweep() == 1
    assert int(rt.redis.get(key(game, "projected"))) == 1
    assert jobs.sweep() == 0


def test_game_over_email_reveals_the_secret(rt):
    gid = a_finished_race(rt)
    jobs.project(gid)
    ended = [m for m in rt.mail.list(limit=100) if m["subject"].startswith("Game over")]
    assert len(ended) == 2
    secret = rt.store.read(gid)[-1].data["secret"]
    assert secret in rt.mail.get(ended[0]["id"])["text"]


def test_muted_players_get_no_turn_email(rt, game):
    seats = rt.store.get_json(game, "seats")
    seats[1]["muted"] = True
    rt.store.put_json(game, "seats", seats)
    jobs.project(game)
    assert mails_to(rt, "bo@example.com") == []


def test_deadline_is_shown_in_the_players_time_zone(rt):
    players = [{"name": "Ada", "email": "ada@example.com"}]
    table = rt.games.create("test-race", players, {"target": 30})
    rt.store.put_json(table.game_id, "settings", {"deadline_hours": 24})
    seats = rt.store.get_json(table.game_id, "seats")
    seats[0]["tz"] = "Asia/Tokyo"
    rt.store.put_json(table.game_id, "seats", seats)
    project_game(rt, table.game_id)
    (mail,) = mails_to(rt, "ada@example.com")
    assert "JST" in rt.mail.get(mail["id"])["text"]
    awaiting = json.loads(rt.redis.hget(key(table.game_id, "awaiting"), "0"))
    assert awaiting["deadline"]


def _later(rt, hours: float) -> None:
    """Move the runtime's clock (time controls fold the events' times against it)."""
    moved = rt.now() + timedelta(hours=hours)
    rt.clock = lambda: moved


def test_reminder_goes_out_once_if_the_seat_has_not_moved(rt):
    players = [{"name": "Ada", "email": "ada@example.com"}]
    table = rt.games.create("test-race", players, {"target": 30})
    rt.store.put_json(table.game_id, "settings", {"deadline_hours": 24})
    jobs.project(table.game_id)
    _later(rt, 12)  # half the time left: the first default reminder
    assert jobs.remind(table.game_id, 1, 0) == ["ReminderSent"]
    assert jobs.remind(table.game_id, 1, 0) == []
    reminders = [m for m in rt.mail.list() if m["subject"].startswith("Reminder")]
    assert len(reminders) == 1
    assert rt.store.read(table.game_id)[-1].type == "ReminderSent"
    # a reminder appended meanwhile does not make the player's click stale
    rt.games.play(table.game_id, 0, {"type": "ante", "amount": 1}, 1)


def test_a_missed_deadline_is_recorded_once_and_every_player_told(rt, game):
    rt.store.put_json(game, "settings", {"deadline_hours": 24})
    jobs.project(game)
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, rt.store.version(game))
    jobs.project(game)
    _later(rt, 24)
    assert jobs.time_out(game, 1, 0)[-1] == "TimedOut"
    assert jobs.time_out(game, 1, 0) == []  # a retried job: nothing twice
    timed_out = [e for e in rt.store.read(game) if e.type == "TimedOut"]
    assert [e.data for e in timed_out] == [{"seat": 0, "turn": 1, "policy": "wait"}]
    subjects = sorted(m["subject"] for m in rt.mail.list() if "deadline" in m["subject"])
    assert subjects == ["Ada missed the deadline in Counting Race (test game)",
                        "Your deadline passed in Counting Race (test game)"]
    # the late player can still move: a time-out is not a change of position
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, rt.store.version(game))
    jobs.project(game)
    assert "TimedOut" not in jobs.time_out(game, 1, 0)


def test_no_time_out_is_recorded_after_a_move_the_projection_has_not_seen(rt, game):
    rt.store.put_json(game, "settings", {"deadline_hours": 24})
    jobs.project(game)
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)  # not projected yet
    _later(rt, 24)  # seat 0's deadline, had it not moved (seat 1 has not)
    jobs.time_out(game, 1, 0)
    jobs.remind(game, 1, 0)
    assert not [e for e in rt.store.read(game)
                if e.type in ("TimedOut", "ReminderSent") and e.data["seat"] == 0]


def test_projection_writes_a_snapshot_every_so_many_events(rt):
    table = rt.games.create("test-race", PLAYERS, {"target": 100_000, "copies": 20})
    gid = table.game_id
    every = rt.config["SNAPSHOT_EVERY"]
    while table.version < every + 5:
        seat = sorted(table.to_act())[0]
        rt.games.play(gid, seat, table.game.legal_moves(table.state, seat)[0], table.version)
        jobs.project(gid)  # one event at a time, as in live play
        table = rt.games.load(gid)
    assert every <= rt.replayer.snapshot_version(gid) <= every + 1
    assert rt.replayer.snapshot(gid).state == rt.games.load(
        gid, at=rt.replayer.snapshot_version(gid)).state


def test_an_email_rejected_for_good_is_not_retried_forever(rt, game, monkeypatch):
    attempts = []

    def reject(email):
        attempts.append(email.to)
        raise MailError("HTTP 400 invalid address", status=400, transient=False)

    monkeypatch.setattr(rt.mail, "send", reject)
    jobs.project(game)
    jobs.sweep()
    jobs.sweep()
    assert sorted(attempts) == ["ada@example.com", "bo@example.com"]
    assert pending_notices(rt) == []


def test_a_turn_email_is_not_lost_when_the_index_of_pending_games_cannot_be_written(
        rt, game, monkeypatch):
    # On a cluster the index of games with pending emails lives on other masters than the
    # game: one of them down must not leave a notice that no sweep will ever find.
    import redis

    jobs.project(game)
    assert pending_notices(rt) == []  # the invitations went: the game leaves the index
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, 2)
    seat = rt.games.load(game).to_act().pop()
    real_pipeline = rt.redis.pipeline

    def index_node_down(transaction=True, shard_hint=None):
        pipe = real_pipeline(transaction, shard_hint)
        execute = pipe.execute

        def fail_on_the_index(*args, **kwargs):
            if any("rp:pending" in str(command[0]) for command in pipe.command_stack):
                raise redis.ConnectionError("the master of rp:pending is down")
            return execute(*args, **kwargs)

        pipe.execute = fail_on_the_index
        return pipe

    monkeypatch.setattr(rt.redis, "pipeline", index_node_down)
    monkeypatch.setattr(rt.redis, "sadd", lambda *a: (_ for _ in ()).throw(
        redis.ConnectionError("the master of rp:pending is down")))
    with pytest.raises(redis.ConnectionError):
        jobs.project(game)
    monkeypatch.undo()  # the master is back
    jobs.sweep()
    assert rt.redis.get(key(game, f"mailed:turn:3:{seat}")) == "sent"
    assert pending_notices(rt) == []


def test_a_new_game_reaches_its_players_games_even_if_their_index_fails_once(
        rt, monkeypatch):
    import redis

    from worker import players
    game = rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    real_index = players.index_game

    def index_node_down(*args, **kwargs):
        raise redis.ConnectionError("the master of a player's index is down")

    monkeypatch.setattr(players, "index_game", index_node_down)
    with pytest.raises(redis.ConnectionError):
        jobs.project(game)
    monkeypatch.setattr(players, "index_game", real_index)  # the master is back
    jobs.sweep()
    for player in PLAYERS:
        assert game in players.games_of(rt.redis, players.player_id(rt.redis, player["email"]))
        assert len(mails_to(rt, player["email"])) == 1  # the invitation, once


def test_a_sweep_keeps_a_game_whose_notices_land_while_it_looks(rt, game, monkeypatch):
    from events import shards
    from worker.projection import PENDING_GAMES

    jobs.project(game)
    assert pending_notices(rt) == []
    rt.redis.sadd(PENDING_GAMES, game)  # a projection about to write its notices
    real_srem = rt.redis.srem

    def notices_land_first(*args):
        rt.redis.hset(key(game, "pending"), "turn:2:0", json.dumps(
            {"kind": "turn", "version": 2, "seat": 0, "deadline": None, "since": None}))
        return real_srem(*args)

    monkeypatch.setattr(rt.redis, "srem", notices_land_first)
    assert pending_notices(rt) == []  # it saw none when it looked
    assert shards.smembers(rt.redis, PENDING_GAMES) == {game}  # and kept the game
