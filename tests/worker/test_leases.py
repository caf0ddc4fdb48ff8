"""Leases, markers and the sweep's cadence: every piece of bookkeeping has a bounded life
(issue 8, points 13, 14 and 17)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest

from events.store import key
from tests.support import PLAYERS
from worker import jobs, notify, projection
from worker.lease import lease
from worker.mail import MailError
from worker.projection import NOTICE_MAX_PENDING, pending_notices, project_game


@pytest.fixture
def game(rt):
    return rt.games.create("test-race", PLAYERS, {"target": 30}).game_id


def test_the_sweep_is_enqueued_once_per_period_whichever_worker_asks(rt):
    assert jobs.sweep_due(rt) is True
    assert jobs.sweep_due(rt) is False  # a second worker's tick in the same period
    assert 0 < rt.redis.ttl(jobs.SWEEP_LEASE) <= jobs.SWEEP_EVERY.total_seconds()


def test_a_sweep_counts_its_runs(rt):
    jobs.sweep()
    jobs.sweep()
    assert rt.redis.get(jobs.SWEEP_RUNS) == "2"


def test_no_lease_or_lock_outlives_a_crash_by_more_than_a_quarter_minute():
    assert notify.LEASE_SECONDS <= 15
    assert projection.LOCK_SECONDS <= 15
    # after Redis is back: the lease runs out, then the next sweep re-enqueues the job
    assert notify.LEASE_SECONDS + jobs.SWEEP_EVERY.total_seconds() < 60


def test_a_lease_is_renewed_while_its_holder_works(fake_redis):
    with lease(fake_redis, "held", 0.6) as held:
        assert held
        time.sleep(1.0)  # longer than the lease: the renewals keep it
        assert fake_redis.exists("held")
        with lease(fake_redis, "held", 0.6) as second:
            assert not second
    assert not fake_redis.exists("held")


def test_a_send_that_outlasts_its_lease_is_not_sent_twice(rt, game, monkeypatch):
    monkeypatch.setattr(notify, "LEASE_SECONDS", 0.6)
    real_send = rt.mail.send
    inside = threading.Event()

    def slow(email):
        inside.set()
        time.sleep(1.2)  # twice the lease, as a slow SendGrid retry sequence would
        real_send(email)
    monkeypatch.setattr(rt.mail, "send", slow)
    first = threading.Thread(target=notify.send_turn, args=(rt, game, 1, 0))
    first.start()
    assert inside.wait(5)
    time.sleep(0.8)
    assert notify.send_turn(rt, game, 1, 0) is False  # the first job still holds it
    first.join(10)
    assert [m["to"] for m in rt.mail.list()] == ["ada@example.com"]


def test_sent_markers_expire_after_a_notice_could_last_be_pending(rt, game):
    jobs.project(game)
    marker = key(game, "mailed:turn:1:0")
    assert rt.redis.get(marker) == "sent"
    assert NOTICE_MAX_PENDING.total_seconds() < rt.redis.ttl(marker) <= notify.MARKER_SECONDS


def test_the_time_out_email_markers_expire_too(rt, game):
    # (the time-out itself needs no marker: the TimedOut in the log is the record)
    rt.store.put_json(game, "settings", {"deadline_hours": 24})
    jobs.project(game)
    later = rt.now() + timedelta(hours=24)
    rt.clock = lambda: later
    jobs.time_out(game, 1, 0)
    markers = rt.redis.keys(key(game, "mailed:timeout:*"))
    assert markers and all(0 < rt.redis.ttl(m) <= notify.MARKER_SECONDS for m in markers)


def test_a_notice_pending_too_long_is_given_up(rt, game, monkeypatch):
    monkeypatch.setattr(rt.mail, "send", lambda email: (_ for _ in ()).throw(
        MailError("down", transient=True)))
    with pytest.raises(MailError):
        project_game(rt, game)
    assert pending_notices(rt)
    later = time.time() + NOTICE_MAX_PENDING.total_seconds() + 60
    monkeypatch.setattr(projection.time, "time", lambda: later)
    assert pending_notices(rt) == []
    assert rt.redis.hlen(key(game, "pending")) == 0
