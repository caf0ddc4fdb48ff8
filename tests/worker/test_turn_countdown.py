"""A turn email with a deadline says the time left in its subject and first line,
counted when it is sent, beside the deadline in the reader's time zone; an email
without a deadline says nothing of the kind (issue 29, item 3)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from events.picture import countdown_text
from tests.support import START, Clock
from worker import jobs
from worker.inbound_mail import REPLY_MARKER

ADA = {"name": "Ada", "email": "ada@example.com"}


@pytest.fixture
def clock(rt):
    rt.clock = Clock()
    return rt.clock


def solo_race(rt, tz="America/New_York", **platform):
    """A one-seat race (Ada, in ``tz``) with these platform settings; its id."""
    gid = rt.games.create("test-race", [ADA], {"target": 40}, platform=platform).game_id
    seats = rt.store.get_json(gid, "seats")
    seats[0]["tz"] = tz
    rt.store.put_json(gid, "seats", seats)
    return gid


def mails(rt):
    return [rt.mail.get(m["id"]) for m in rt.mail.list(limit=100)][::-1]  # oldest first


def first_lines(text, n=2):
    lines = [line for line in text.splitlines() if line.strip() and line != REPLY_MARKER]
    return lines[:n]


def picture_at(html):
    """Where the HTML part's picture begins: the inline PNG, else the page partial."""
    found = [i for i in (html.find('src="cid:'), html.find("<svg"),
                         html.find("overflow-x: auto;")) if i >= 0]
    assert found, "the turn email has a picture"
    return min(found)


def test_a_clocked_turn_email_says_the_time_left_in_its_subject_and_first_line(rt, clock):
    gid = solo_race(rt, time_control={"kind": "per_move", "hours": 56},
                    reminders={"fractions": [], "hours_before": []})
    clock.at(3 + 50 / 60)  # sent 3 h 50 min after the turn began: 52 h 10 min left
    jobs.project(gid)
    [mail] = mails(rt)
    assert mail["subject"] == "Your move in Counting Race (test game) (2 days 4 h left)"
    # the deadline, Wednesday 20:00 UTC, as Ada reads it in New York
    assert first_lines(mail["text"])[0] == (
        "2 days 4 h left to move (deadline: Wednesday 09 January 2030, 15:00 EST).")
    html = mail["html"]
    assert html.index("2 days 4 h left") < html.index("Hello Ada")
    assert "15:00 EST" in html[:html.index("Hello Ada")]
    # the move link still comes before the picture, in both parts
    assert html.index("Make your move") < picture_at(html)
    text = mail["text"]
    assert text.index("Make your move: http://localhost/m/") < text.index("Total 0")


def test_a_reminder_counts_from_its_own_sending(rt, clock):
    gid = solo_race(rt, time_control={"kind": "per_move", "hours": 56},
                    reminders={"fractions": [0.5], "hours_before": []})
    jobs.project(gid)
    clock.at(28 + 0.5)  # the half-time reminder, sent half an hour late
    assert jobs.remind(gid, 1, 0) == ["ReminderSent"]
    reminder = mails(rt)[-1]
    assert reminder["subject"] == ("Reminder: your move in Counting Race (test game) "
                                   "(1 day 3 h left)")
    assert first_lines(reminder["text"])[0].startswith("1 day 3 h left to move (deadline: ")


def test_a_turn_email_without_a_clock_says_no_time_left(rt, clock):
    gid = solo_race(rt)
    jobs.project(gid)
    [mail] = mails(rt)
    assert mail["subject"] == "Your move in Counting Race (test game)"
    assert "left to move" not in mail["text"] and "left to move" not in mail["html"]
    assert first_lines(mail["text"])[0] == "Hello Ada,"
    assert "deadline" not in mail["text"].lower()


def test_an_invitation_to_wait_for_others_has_no_countdown(rt, clock):
    gid = rt.games.create("test-race", [ADA, {"name": "Bo", "email": "bo@example.com"}],
                          {"target": 40},
                          platform={"time_control": {"kind": "per_move", "hours": 56}}
                          ).game_id
    rt.games.play(gid, 0, {"type": "ante", "amount": 1}, 1)  # Ada has answered
    jobs.project(gid)
    ada = [m for m in mails(rt) if m["to"] == ADA["email"]]
    assert ada and all("left" not in m["subject"] for m in ada)


def test_the_countdown_reads_down_to_the_minute_and_never_promises_too_much():
    now = START
    left = {timedelta(days=2, hours=4, minutes=59): "2 days 4 h left",
            timedelta(days=1): "1 day left", timedelta(days=1, minutes=5): "1 day left",
            timedelta(hours=5, minutes=10, seconds=59): "5 h 10 min left",
            timedelta(hours=1): "1 h left", timedelta(minutes=12): "12 min left",
            timedelta(seconds=59): "less than a minute left",
            timedelta(0): "no time left", timedelta(hours=-3): "no time left"}
    for before, words in left.items():
        assert countdown_text((now + before).isoformat(), now) == words
    assert countdown_text("2030-01-09T20:00:00Z", now) == "2 days 8 h left"
    assert countdown_text(None, now) is None
