"""Notices on a player's Apprise channels: once per channel, paused after failures in a
row, and refused when the URL is no channel (worker/channels.py).

The channels are a scheme of Apprise's own plug-in kind (``@apprise.decorators.notify``),
``rptest://<host>/...``, so every send goes through Apprise's parsing and dispatch; the
host names which channel it is, and ``FAILING`` which ones refuse."""

from __future__ import annotations

import json

import pytest
from apprise.decorators import notify as apprise_plugin

from events.store import key
from tests.support import PLAYERS, a_finished_race
from worker import channels, jobs, players

SENT: list[tuple[str, str, str]] = []  # (host, title, body) of every notice delivered
FAILING: set[str] = set()  # hosts whose sends fail
CALLS: list[str] = []  # every send tried, failed or not


@apprise_plugin(on="rptest")
def _channel(body, title, notify_type, meta, *args, **kwargs):
    CALLS.append(meta.get("host"))
    if meta.get("host") in FAILING:
        return False
    SENT.append((meta.get("host"), title, body))
    return True


ALPHA, BETA = "rptest://alpha/hook", "rptest://beta/hook"


@pytest.fixture(autouse=True)
def _reset():
    SENT.clear()
    FAILING.clear()
    CALLS.clear()


@pytest.fixture
def ada(rt) -> str:
    pid = players.player_id(rt.redis, "ada@example.com")
    players.save_prefs(rt.redis, pid, channels=[ALPHA])
    return pid


@pytest.fixture
def game(rt):
    return rt.games.create("test-race", PLAYERS, {"target": 30}).game_id


def to(host: str) -> list[tuple[str, str, str]]:
    return [s for s in SENT if s[0] == host]


def seat_moves(rt, game: str) -> int:
    """Both antes in (seat 0 then seat 1): seat 0's first turn begins; its version."""
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, 2)
    jobs.project(game)
    assert rt.games.load(game).to_act() == {0}
    return 3


def test_a_channel_gets_a_turn_notice_once_though_the_job_runs_twice(rt, ada, game):
    jobs.project(game)  # the invitation
    version = seat_moves(rt, game)
    jobs.notify_channels(game, "turn", version, 0)  # the job again (a retry, the sweep)
    jobs.notify_channels(game, "turn", version, 0)
    jobs.notify(game, version, 0)  # and the email job, which owes it to the channels too
    assert [title for _, title, _ in to("alpha")] == [
        "You are invited to play Counting Race (test game)",
        "Your move in Counting Race (test game)"]
    assert rt.redis.hlen(key(game, channels.PENDING)) == 0
    assert channels.pending(rt) == []


def test_the_notice_names_the_game_whose_move_and_the_play_link(rt, ada, game):
    jobs.project(game)
    seat_moves(rt, game)
    _, title, body = to("alpha")[-1]
    assert title == "Your move in Counting Race (test game)"
    assert body.startswith("Ada, it is your move in Counting Race (test game) with Bo")
    link = body.split("Play: ", 1)[1].strip()
    assert link.startswith("http://localhost/play/")
    page = rt.links.check(link.rsplit("/", 1)[1], "play")
    assert (page.game_id, page.seat) == (game, 0)


def test_each_of_two_channels_gets_the_notice_once(rt, ada, game):
    players.save_prefs(rt.redis, ada, channels=[ALPHA, BETA])
    jobs.project(game)
    seat_moves(rt, game)
    jobs.sweep()
    for host in ("alpha", "beta"):
        assert [t for _, t, _ in to(host)] == [
            "You are invited to play Counting Race (test game)",
            "Your move in Counting Race (test game)"], host
    assert len(SENT) == 4


def test_a_failing_channel_is_paused_after_five_failures_in_a_row_and_the_player_told_once(
        rt, ada, game):
    players.save_prefs(rt.redis, ada, channels=[ALPHA, BETA])
    FAILING.add("alpha")
    jobs.project(game)  # the invitation: alpha fails, beta gets it
    for _ in range(channels.MAX_TRIES + 2):  # the sweep tries a notice MAX_TRIES times
        jobs.sweep()
    assert CALLS.count("alpha") == channels.MAX_TRIES
    assert channels.status(rt.redis, ada)[0] | {"error": None} == {
        "id": channels.channel_id(ALPHA), "label": "rptest://", "failures": 3,
        "paused": False, "paused_at": None, "error": None}
    version = seat_moves(rt, game)  # the turn: two more failures pause it
    jobs.sweep()
    (alpha, beta) = channels.status(rt.redis, ada)
    assert alpha["paused"] and alpha["failures"] == channels.PAUSE_AFTER
    assert not beta["paused"] and beta["failures"] == 0
    assert CALLS.count("alpha") == channels.PAUSE_AFTER
    told = [m for m in rt.mail.list() if m["subject"].startswith("A notification channel")]
    assert len(told) == 1 and told[0]["to"] == "ada@example.com"
    text = rt.mail.get(told[0]["id"])["text"]
    assert "paused after 5 failures" in text and "re-enable it in your settings" in text
    # nothing more is sent to it, and the player is not told twice
    FAILING.clear()
    jobs.notify_channels(game, "turn", version, 0)
    rt.games.play(game, 0, rt.games.load(game).game.legal_moves(
        rt.games.load(game).state, 0)[0], version)
    jobs.project(game)
    jobs.sweep()
    assert CALLS.count("alpha") == channels.PAUSE_AFTER
    assert len([m for m in rt.mail.list()
                if m["subject"].startswith("A notification channel")]) == 1
    assert channels.pending(rt) == []
    # resumed, it is sent to again
    assert channels.resume(rt.redis, ada, ALPHA)
    assert channels.status(rt.redis, ada)[0]["failures"] == 0
    assert not channels.status(rt.redis, ada)[0]["paused"]


def test_a_success_resets_the_failure_count(rt, ada, game):
    FAILING.add("alpha")
    jobs.project(game)
    jobs.sweep()
    assert channels.status(rt.redis, ada)[0]["failures"] == 2
    assert channels.status(rt.redis, ada)[0]["error"]
    FAILING.clear()
    jobs.sweep()  # the third try goes through
    assert channels.status(rt.redis, ada)[0]["failures"] == 0
    assert channels.status(rt.redis, ada)[0]["error"] is None
    assert len(to("alpha")) == 1
    FAILING.add("alpha")  # four failures after the success: still not paused
    version = seat_moves(rt, game)
    jobs.sweep()
    jobs.sweep()
    assert channels.status(rt.redis, ada)[0]["failures"] == channels.MAX_TRIES
    assert not channels.status(rt.redis, ada)[0]["paused"]
    assert rt.redis.get(channels.marker(game, "turn", version, 0,
                                        channels.channel_id(ALPHA))) == "given-up"


def test_a_send_cut_off_mid_way_is_sent_again_and_recorded_as_uncertain(rt, ada, game):
    mark = channels.marker(game, "turn", 1, 0, channels.channel_id(ALPHA))
    rt.redis.set(mark, "sending:0")  # a worker died between its send and "sent"
    channels.record(rt, game, "turn", 1, 0)
    rt.redis.set(f"{mark}:lease", "someone-dead", px=50_000)
    jobs.sweep()  # the dead job's lease still holds it
    assert to("alpha") == [] and [o[:4] for o in channels.pending(rt)] == [(game, "turn", 1, 0)]
    rt.redis.delete(f"{mark}:lease")  # its lease runs out
    jobs.sweep()
    assert len(to("alpha")) == 1
    assert rt.redis.lrange(channels.UNCERTAIN, 0, -1) == [mark]
    assert channels.pending(rt) == []


def test_the_sweep_sends_a_channel_notice_whose_job_was_lost(rt, ada, game):
    rt.enqueuer.enqueue = lambda *a, **k: None  # every job lost (a worker killed)
    channels.record(rt, game, "turn", 1, 0)
    del rt.enqueuer.enqueue
    jobs.sweep()
    assert len(to("alpha")) == 1


def test_a_turn_that_passed_before_its_channel_job_sends_nothing(rt, ada, game):
    jobs.project(game)
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, 2)
    table = rt.games.load(game)
    rt.games.play(game, 0, table.game.legal_moves(table.state, 0)[0], 3)
    jobs.project(game)
    assert jobs.notify_channels(game, "turn", 3, 0) == 0
    assert [t for _, t, _ in to("alpha")] == [
        "You are invited to play Counting Race (test game)"]


def test_a_player_without_channels_gets_no_record_and_no_job(rt, game, monkeypatch):
    asked: list[tuple] = []
    real = rt.enqueuer.enqueue
    monkeypatch.setattr(rt.enqueuer, "enqueue", lambda func, *a, **k: (
        asked.append((func.__name__, k["job_id"])), real(func, *a, **k)))
    players.player_id(rt.redis, "ada@example.com")  # a player, with no channels
    jobs.project(game)
    seat_moves(rt, game)
    assert not [name for name, _ in asked if name == "notify_channels"]
    assert not rt.redis.exists(key(game, channels.PENDING))
    assert channels.pending(rt) == []


def test_muted_seats_get_nothing_on_channels(rt, ada, game):
    seats = rt.store.get_json(game, "seats")
    seats[0]["muted"] = True
    rt.store.put_json(game, "seats", seats)
    jobs.project(game)
    assert SENT == []


def test_game_over_goes_to_channels_once(rt, ada):
    gid = a_finished_race(rt)
    jobs.project(gid)
    jobs.notify_end(gid, 0)
    jobs.sweep()
    over = [b for _, t, b in to("alpha") if t.startswith("Game over")]
    assert len(over) == 1 and "Final ranking: 1. " in over[0]


def test_status_labels_hide_secrets(rt, ada):
    players.save_prefs(rt.redis, ada, channels=["discord://1234567/secret-token-value"])
    (entry,) = channels.status(rt.redis, ada)
    assert "secret-token-value" not in entry["label"]
    assert entry["label"].startswith("discord://")
    rt.redis.hset(players.pkey(ada, "channel-state"), mapping={"gone:fails": "2"})
    assert channels.prune(rt.redis, ada) == 1


@pytest.mark.parametrize("url, reason", [
    ("", "empty"),
    ("not a url", "spaces"),
    ("hello", "starts with a service"),
    ("nosuchservice://x/y", "does not accept"),
    ("discord://", "does not accept"),
    ("json://example.com/hook\r\nX: y", "control"),
    ("macosx://", "the server itself"),
    ("syslog://", "the server itself"),
    ("dbus://", "the server itself"),
    ("fcm://project/device?keyfile=/etc/passwd", "reads a file"),
    ("mailto://me:pw@example.com?pgpprv=/root/key", "reads a file"),
    ("json://127.0.0.1:8080/hook", "private"),
    ("json://localhost/hook", "private"),
    ("jsons://10.1.2.3/hook", "private"),
    ("json://[::1]:99/x", "private"),
    ("json://example.com/" + "x" * 1000, "longer than"),
])
def test_validate_refuses_garbage(url, reason):
    found = channels.validate(url)
    assert found is not None and reason in found, found
    assert "\n" not in found


@pytest.mark.parametrize("url", [
    "discord://1234567/abcdefg", "ntfy://ntfy.sh/my-topic", "jsons://example.com/hook",
    "tgram://123456789:ABCdefGHIjklMNOpqr/4567", "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnl",
    "matrixs://user:pass@matrix.example.org/#room"])
def test_validate_accepts_channels(url):
    assert channels.validate(url) is None


def test_validate_allows_private_hosts_when_asked():
    assert channels.validate("json://127.0.0.1:8080/hook", allow_private=True) is None


def test_validate_all_refuses_more_than_five_and_duplicates():
    six = [f"ntfy://ntfy.sh/topic{i}" for i in range(6)]
    assert "At most 5" in channels.validate_all(six)
    assert channels.validate_all(six[:5]) is None
    assert "twice" in channels.validate_all([six[0], six[0]])
    assert "does not accept" in channels.validate_all([six[0], "nosuch://x"])


def test_channel_ids_are_short_and_stable():
    assert channels.channel_id(ALPHA) == channels.channel_id(ALPHA + " ")
    assert len(channels.channel_id(ALPHA)) == 12
    assert channels.channel_id(ALPHA) != channels.channel_id(BETA)
    assert json.dumps(channels.channel_id(ALPHA)).isascii()


def test_a_channel_job_a_killed_worker_left_queued_is_enqueued_again_once_overdue(
        fake_redis):
    """A worker killed between taking a job off its queue and starting it leaves the id
    ``queued`` in no queue: the same id enqueued again would be skipped for ever."""
    import time

    import fakeredis
    from rq import Queue

    from tests.support import TEST_DEFAULTS
    from worker.queue import MAIL_QUEUE_NAME
    from worker.runtime import Runtime

    rq_redis = fakeredis.FakeRedis()
    rt = Runtime({**TEST_DEFAULTS, "SECRET_KEY": "s" * 40, "MAIL_BACKEND": "outbox"},
                 fake_redis, rq_redis=rq_redis)
    rq_redis.hset("rq:job:channels-g1-turn-3-0", "status", "queued")  # the lost job
    queue = Queue(MAIL_QUEUE_NAME, connection=rq_redis)
    jobs.enqueue_channels(rt, "g1", "turn", 3, 0)
    jobs.enqueue_channels(rt, "g1", "turn", 3, 0, since=time.time() - 5)
    assert queue.job_ids == []  # "queued": it may well be waiting still
    jobs.enqueue_channels(rt, "g1", "turn", 3, 0,
                          since=time.time() - jobs.CHANNELS_OVERDUE - 1)
    assert [j.rsplit("-", 1)[0] for j in queue.job_ids] == ["channels-g1-turn-3-0-late"]
    jobs.enqueue_channels(rt, "g1", "turn", 3, 0,
                          since=time.time() - jobs.CHANNELS_OVERDUE - 1)
    assert len(queue.job_ids) == 1  # one a minute, not one a sweep
