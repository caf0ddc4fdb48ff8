"""A forked game's invitation: the seat whose turn carries on across the fork point is
asked to move in it, with the move link, as in any turn email, and gets no second mail."""

from __future__ import annotations

import re

from tests.support import PLAYERS
from worker import jobs


def forked(rt, antes: int) -> tuple[str, str]:
    """A test-race game forked after ``antes`` antes (Ada first); (game, fork)."""
    gid = rt.games.create("test-race", PLAYERS[:2]).game_id
    for seat in range(antes):
        rt.games.play(gid, seat, {"type": "ante", "amount": 1 + seat}, seat + 1)
    fork = rt.games.fork(gid, antes + 1, "admin")
    jobs.project(fork)
    return gid, fork


def mails_of(rt, game_id: str, address: str) -> list[dict]:
    mails = [rt.mail.get(m["id"]) for m in rt.mail.list(limit=100)]
    return [m for m in mails if f":{game_id}:" in m["key"] and m["to"] == address]


def test_the_invitation_of_a_seat_whose_turn_goes_on_across_the_fork_has_the_move_link(rt):
    _, fork = forked(rt, 2)  # Ada's turn began at move 3, the fork point
    (mail,) = mails_of(rt, fork, "ada@example.com")  # one email: no turn mail beside it
    assert mail["key"] == f"turn:{fork}:1:0" and mail["subject"].startswith("Your move in")
    text = " ".join(mail["text"].split())
    assert "You have been invited to a fork of Counting Race (test game)" in text
    assert "It is your move." in text
    assert re.search(r"Make your move: http://localhost/m/\S+", mail["text"])
    assert "Make your move</a>" in mail["html"] and 'href="http://localhost/m/' in mail["html"]


def test_the_invitation_of_a_seat_whose_turn_began_at_the_start_has_the_move_link(rt):
    _, fork = forked(rt, 1)  # Bo's turn (the ante) began at move 1 and goes on
    (mail,) = mails_of(rt, fork, "bo@example.com")
    assert "It is your move." in mail["text"] and "Make your move: " in mail["text"]


def test_the_invitation_of_a_seat_that_waits_has_no_move_link(rt):
    _, fork = forked(rt, 2)
    (mail,) = mails_of(rt, fork, "bo@example.com")
    assert "We will email you when it is your turn." in " ".join(mail["text"].split())
    assert "Make your move" not in mail["text"] and "Make your move" not in mail["html"]


def test_the_fork_line_is_its_own_line_in_the_text_part(rt):
    gid, fork = forked(rt, 2)
    (mail,) = mails_of(rt, fork, "ada@example.com")
    assert f"It is your move.\nThis game is a fork of Counting Race (test game) {gid} " \
           "at move 3." in mail["text"]
