"""The daily digest: one email a day at the player's chosen local hour listing the games
awaiting them, instead of one email per turn; once a day, never twice."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from events.store import key
from worker import current, digest, jobs, players, quiet
from worker.projection import pending_notices

ADA = {"name": "Ada", "email": "ada@example.com", "tz": "Europe/Paris"}
BO = {"name": "Bo", "email": "bo@example.com", "tz": "UTC"}
PID = "ada-player-id"  # Ada's player, named before her games exist (see below)


@pytest.fixture(autouse=True)
def _ada_is_pid(rt):
    """Ada's address leads to PID, as players.player_id would make it."""
    rt.redis.hset(players.pkey(PID, "account"), "address", ADA["email"])
    rt.redis.set(players.address_key(ADA["email"]), PID)


class Clock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def clock(monkeypatch):
    c = Clock(datetime(2026, 6, 1, 10, 0, tzinfo=UTC))  # 12:00 in Paris
    monkeypatch.setattr(current, "now", c)
    return c


def new_game(rt):
    table = rt.games.create("test-race", [ADA, BO], {"target": 30})
    jobs.project(table.game_id)
    return table.game_id


def digests(rt):
    return [m for m in rt.mail.list(limit=500) if "digest" in m["subject"]]


def turn_emails_to_ada(rt):
    return [m for m in rt.mail.list(limit=500)
            if m["to"] == ADA["email"] and m["subject"].startswith("Your move")]


def both_ante(rt, game_id):
    rt.games.play(game_id, 0, {"type": "ante", "amount": 1}, rt.store.version(game_id))
    rt.games.play(game_id, 1, {"type": "ante", "amount": 1}, rt.store.version(game_id))
    jobs.project(game_id)


def test_a_digest_player_gets_no_single_turn_emails_and_the_turn_is_settled(rt, clock):
    game_id = new_game(rt)  # the invitation still comes
    digest.set_digest(rt, PID, 18)
    before = len(turn_emails_to_ada(rt))
    both_ante(rt, game_id)  # Ada's turn begins
    assert len(turn_emails_to_ada(rt)) == before
    assert pending_notices(rt) == []  # handled: the sweep does not retry it
    turn = rt.store.version(game_id)
    assert rt.redis.get(key(game_id, f"mailed:turn:{turn}:0")) == quiet.SKIPPED


def test_the_digest_lists_the_games_awaiting_the_player(rt, clock):
    waiting = [new_game(rt), new_game(rt)]
    not_waiting = new_game(rt)
    rt.games.play(not_waiting, 0, {"type": "ante", "amount": 2}, 1)
    jobs.project(not_waiting)
    digest.set_digest(rt, PID, 18)
    assert digest.send(rt, PID, date(2026, 6, 1)) is True
    (mail,) = digests(rt)
    assert mail["to"] == ADA["email"] and "2 games" in mail["subject"]
    text = rt.mail.get(mail["id"])["text"]
    assert text.count("/play/") == 2 and "/me/" in text
    tokens = [line.rsplit("/play/", 1)[1].strip() for line in text.splitlines()
              if "/play/" in line]
    assert {rt.links.check(t, "play").game_id for t in tokens} == set(waiting)


def test_a_digest_is_sent_once_a_day_however_often_it_is_asked(rt, clock):
    new_game(rt)
    clock.at = datetime(2026, 6, 1, 5, 0, tzinfo=UTC)  # 07:00 in Paris
    digest.set_digest(rt, PID, 9)
    clock.at = datetime(2026, 6, 1, 7, 1, tzinfo=UTC)  # 09:01 in Paris
    digest.schedule(rt, PID)
    assert len(digests(rt)) == 1
    digest.send(rt, PID, date(2026, 6, 1))
    digest.schedule(rt, PID)
    jobs.sweep()
    assert len(digests(rt)) == 1


def test_the_first_digest_is_the_next_one_due_after_turning_it_on(rt, clock):
    new_game(rt)
    digest.set_digest(rt, PID, 9)  # at 12:00 in Paris: today's 09:00 is gone
    digest.schedule(rt, PID)
    assert digests(rt) == []
    clock.at = datetime(2026, 6, 2, 7, 0, tzinfo=UTC)  # 09:00 the next day
    digest.schedule(rt, PID)
    assert len(digests(rt)) == 1


def test_the_sweep_sends_a_digest_whose_job_was_lost_and_the_next_day_one_more(rt, clock):
    new_game(rt)
    digest.set_digest(rt, PID, 18)  # 18:00 in Paris: not yet
    assert digests(rt) == []
    clock.at = datetime(2026, 6, 1, 16, 5, tzinfo=UTC)  # 18:05 in Paris; no job ran
    digest.sweep(rt)
    assert len(digests(rt)) == 1
    rt.redis.delete(digest.SWEEP_LEASE)
    digest.sweep(rt)
    assert len(digests(rt)) == 1
    clock.at += timedelta(days=1)
    rt.redis.delete(digest.SWEEP_LEASE)
    digest.sweep(rt)
    assert len(digests(rt)) == 2


def test_the_digest_check_runs_at_most_every_few_minutes(rt, clock):
    digest.set_digest(rt, PID, 18)
    assert digest.sweep(rt) == 1
    assert digest.sweep(rt) == 0  # the lease: a sweep every 20 s does not redo it
    assert 0 < rt.redis.ttl(digest.SWEEP_LEASE) <= digest.SWEEP_SECONDS


def test_a_day_with_nothing_awaiting_the_player_sends_nothing(rt, clock):
    game_id = new_game(rt)
    rt.games.play(game_id, 0, {"type": "ante", "amount": 1}, 1)  # Bo's ante is awaited
    jobs.project(game_id)
    digest.set_digest(rt, PID, 9)
    assert digest.send(rt, PID, date(2026, 6, 1)) is False


def test_a_digest_hour_inside_the_quiet_hours_moves_to_their_end():
    day = date(2026, 6, 1)
    assert digest.due_at(day, 6, "Europe/Paris", (22, 8)) == \
        datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # 08:00 in Paris
    assert digest.due_at(day, 9, "Europe/Paris", (22, 8)) == \
        datetime(2026, 6, 1, 7, 0, tzinfo=UTC)
    assert digest.due_at(day, 6, "Europe/Paris", None) == \
        datetime(2026, 6, 1, 4, 0, tzinfo=UTC)


def test_turning_the_digest_off_brings_back_turn_emails_and_stops_digests(rt, clock):
    game_id = new_game(rt)
    digest.set_digest(rt, PID, 18)
    digest.set_digest(rt, PID, None)
    assert not rt.redis.sismember(digest.DIGEST_PLAYERS, PID)
    before = len(turn_emails_to_ada(rt))
    both_ante(rt, game_id)
    assert len(turn_emails_to_ada(rt)) == before + 1
    assert digest.send(rt, PID, date(2026, 6, 1)) is False


def test_the_digest_is_chosen_on_the_my_games_page(client, rt, clock):
    import re
    new_game(rt)
    url = f"/me/{players.me_token(rt.redis, rt.links, PID)}"
    token = re.search(r'name="csrf_token" value="([^"]+)"',
                      client.get(url).get_data(as_text=True)).group(1)
    client.post(f"{url}/settings", data={"csrf_token": token, "quiet": "on",
                                         "quiet_start": "22", "quiet_end": "8",
                                         "tz": "Europe/Paris", "digest": "7"})
    assert rt.redis.sismember(digest.DIGEST_PLAYERS, PID)
    assert players.prefs(rt.redis, PID)["digest"] == 7
