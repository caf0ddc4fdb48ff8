"""Play by reply, end to end: a real `ravenpost serve` (embedded Redis, outbox mail, its
own worker) and replies sent to its SMTP receiver with smtplib, as a mail client sends
them.  The test reads the outbox and the games through the embedded Redis's socket.

Each "nothing happens" check waits for the ignored reply's recorded outcome and then for
a valid marker reply sent after it, so the worker has surely decided the first one
before the test asserts that it changed nothing."""

from __future__ import annotations

import base64
import email.policy
import random
import re
import smtplib
import time
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from http.cookiejar import CookieJar

import pytest
import redis

from events import talk
from events.envelope import MOVE_PLAYED
from events.gameplay import GameService
from events.store import EventStore
from tests.integration.test_embedded import (
    ADMIN_TOKEN,
    free_port,
    http,
    start_serve,
    stop_serve,
    wait_until,
)
from worker import forced, inbox
from worker.mail import OutboxBackend
from worker.menu import build

ANN, BEN, MALLORY = "ann@example.com", "ben@example.com", "mallory@example.net"
ATTRIBUTION = "On Fri, 4 Dec 2026 at 10:00, Ravenpost <noreply@ravenpost.local> wrote:"
TIMEOUT = 60.0  # seconds an effect may take to show (a loaded machine, not a slow product)


class Serve:
    """One running `ravenpost serve` and the test's ways into it."""

    def __init__(self, base: str, smtp_port: int, client: redis.Redis) -> None:
        self.base, self.smtp_port, self.redis = base, smtp_port, client
        self.outbox = OutboxBackend(client)
        self.store = EventStore(client)
        self.games = GameService(self.store)

    # -- games ---------------------------------------------------------------------------
    def create(self, players: list[tuple[str, str]]) -> str:
        status, created = http("POST", f"{self.base}/api/v1/games", {
            "game": "architects",
            "players": [{"name": name, "email": address} for name, address in players]},
            token=ADMIN_TOKEN)
        assert status == 201, created
        return created["id"]

    def version(self, game_id: str) -> int:
        return self.store.version(game_id)

    def moves(self, game_id: str, seat: int | None = None, after: int = 0) -> list[dict]:
        """The moves played (by ``seat``, if given) after version ``after``, in order."""
        return [e.data["move"] for e in self.store.read(game_id, after + 1)
                if e.type == MOVE_PLAYED and (seat is None or e.data["seat"] == seat)]

    # -- mail ----------------------------------------------------------------------------
    def mails(self, address: str | None = None) -> list[dict]:
        """Every email (to ``address``, if given), oldest first, headers and all."""
        found = [self.outbox.get(m["id"]) for m in
                 reversed(self.outbox.list(limit=1000, to=address))]
        return [m for m in found if m is not None]

    def turn_mail(self, game_id: str, address: str) -> dict | None:
        """The latest email of ``game_id`` to ``address`` that can be answered (one with a
        Reply-To); None if there is none yet."""
        for summary in self.outbox.list(limit=1000, to=address):  # newest first
            mail = self.outbox.get(summary["id"])
            reply_to = mail and mail["headers"].get("Reply-To")
            if reply_to and token_of(reply_to)[0] == game_id:
                return mail
        return None

    def next_turn(self, game_id: str, seat: int, address: str) -> dict | None:
        """Once ``seat`` is to act (for more than the only move the worker plays for it:
        worker.forced), the latest email that asks it for this very turn (one
        built when the seat faced the turn it faces now: at the current version, or before
        the others' sealed choices in a simultaneous step); None once the game is over."""
        found: list[dict | None] = []

        def settled() -> bool:
            table = self.games.load(game_id)
            if table.ended:
                found.append(None)
                return True
            if seat not in table.to_act() or forced.pending(self.redis, table, seat):
                return False  # not its turn, or its only move is being played for it
            mail = self.turn_mail(game_id, address)
            if mail is None or not self.games.turn_unchanged(
                    game_id, seat, token_of(mail["headers"]["Reply-To"])[2], table.version):
                return False
            found.append(mail)
            return True

        assert wait_until(settled, TIMEOUT), f"no turn email for seat {seat} of {game_id}"
        return found[-1]

    # -- replies -------------------------------------------------------------------------
    def send(self, msg: EmailMessage) -> str:
        """Hand ``msg`` to the SMTP receiver as a mail client would; its inbox key."""
        raw = msg.as_bytes(policy=email.policy.SMTP)
        with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=10) as smtp:
            smtp.sendmail(parseaddr(msg["From"])[1], [parseaddr(msg["To"])[1]], raw)
        return inbox.key_for(raw=raw)

    def outcome(self, key: str) -> str:
        """What the worker decided of the message stored under ``key`` (waits for it)."""
        outcome_key = f"rp:inbound:{{{key}}}:outcome"
        assert wait_until(lambda: self.redis.get(outcome_key) is not None, TIMEOUT), \
            f"the worker never decided inbound message {key}"
        return self.redis.get(outcome_key)

    def play(self, game_id: str, mail: dict, pick=None, text: str = "") -> tuple[str, dict]:
        """Reply to ``mail`` with a legal move (the first, or ``pick``'s choice from the
        menu's moves) read from the menu at the email's version, plus ``text``; wait for
        the game to move on.  The outcome and the move."""
        line, move = numbers_for(self.games, mail, pick)
        before = self.version(game_id)
        key = self.send(reply_message(mail, line + ("\n" + text if text else "")))
        outcome = self.outcome(key)
        assert outcome.startswith("moved"), (line, outcome)
        assert wait_until(lambda: self.version(game_id) > before, TIMEOUT)
        return outcome, move


def token_of(reply_to: str) -> tuple[str, int, int]:
    """(game id, seat, version) a reply address names: ``play+<token>@…`` where the token
    is ``<base32 game id>-<seat>-<version>-<generation>-<mac>`` (numbers in base 36)."""
    local = parseaddr(reply_to)[1].partition("@")[0]
    parts = local.partition("+")[2].split("-")
    encoded = parts[0].upper()
    game_id = base64.b32decode(encoded + "=" * (-len(encoded) % 8)).decode()
    return game_id, int(parts[1], 36), int(parts[2], 36)


def numbers_for(games: GameService, mail: dict, pick=None) -> tuple[str, dict]:
    """The reply line naming a legal move of the seat ``mail`` asks, in the menu built at
    the version the email was built at (the first move, or ``pick``'s choice)."""
    game_id, seat, version = token_of(mail["headers"]["Reply-To"])
    then = games.load(game_id, at=version)
    menu = build(then.game, then.state, seat)
    move = pick(menu.moves) if pick else menu.moves[0]
    return " ".join(map(str, menu.numbers_of(move))), move


def reply_message(mail: dict, text: str, sender: str | None = None,
                  headers: dict[str, str] | None = None, subject: str | None = None,
                  quote: bool = True) -> EmailMessage:
    """A reply as a Gmail user writes it: From the seat's address, To the email's
    Reply-To, a fresh Message-ID, the new text on top and the whole email quoted below."""
    msg = EmailMessage()
    msg["From"] = sender or mail["to"]
    msg["To"] = mail["headers"]["Reply-To"]
    msg["Subject"] = subject or "Re: " + mail["subject"]
    msg["Date"] = format_datetime(datetime.now(UTC))
    msg["Message-ID"] = make_msgid(domain="mail.example.com")
    original = f"<outbox-{mail['id']}@ravenpost.local>"
    msg["In-Reply-To"] = original
    msg["References"] = original
    for name, value in (headers or {}).items():
        msg[name] = value
    body = text
    if quote:
        body += "\n\n" + ATTRIBUTION + "\n" + "\n".join(
            "> " + line if line else ">" for line in mail["text"].splitlines())
    msg.set_content(body + "\n")
    return msg


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("play_by_reply")
    port, smtp_port = free_port(), free_port()
    log = tmp / "serve.log"
    with log.open("w") as output:
        proc = start_serve(tmp / "var", port, output=output, INBOUND_SMTP_PORT=str(smtp_port))
        try:
            assert wait_until(lambda: f"SMTP on 127.0.0.1:{smtp_port}" in log.read_text())
            client = redis.Redis(unix_socket_path=str(tmp / "var" / "redis.sock"),
                                 decode_responses=True)
            yield Serve(f"http://127.0.0.1:{port}", smtp_port, client)
        finally:
            stop_serve(proc)


def solo(serve: Serve, address: str) -> tuple[str, dict]:
    """A new solo Architects game for Ann at ``address`` (against the automaton; each
    test has its own address) and its first email."""
    game_id = serve.create([("Ann", address)])
    mail = serve.next_turn(game_id, 0, address)
    assert mail is not None
    return game_id, mail


def answers_to(serve: Serve, address: str) -> list[dict]:
    """The emails to ``address`` that answer a reply."""
    return [m for m in serve.mails(address) if m["subject"].startswith("Re:")]


def test_a_whole_solo_game_is_played_by_replies_alone(serve):
    ann = "ann.game@example.com"
    game_id, mail = solo(serve, ann)
    chooser = random.Random(20261204)
    started, replies = time.monotonic(), 0
    while mail is not None:
        serve.play(game_id, mail, pick=chooser.choice)
        replies += 1
        assert replies < 2000, "the game never ends"
        mail = serve.next_turn(game_id, 0, ann)
    assert serve.games.load(game_id).ended
    assert serve.games.verify(game_id)[0]
    assert not answers_to(serve, ann)  # a move is never answered: the next turn is
    print(f"\nA solo Architects game took {replies} replies "
          f"({time.monotonic() - started:.1f} s)")


def test_the_same_reply_delivered_twice_makes_one_move(serve):
    ann = "ann.twice@example.com"
    game_id, mail = solo(serve, ann)
    line, move = numbers_for(serve.games, mail)
    msg = reply_message(mail, line)
    first = serve.send(msg)
    assert serve.outcome(first).startswith("moved")
    serve.send(msg)  # again: the same Message-ID, the same bytes (a client's retry)
    marker = serve.next_turn(game_id, 0, ann)
    assert marker is not None
    version = token_of(marker["headers"]["Reply-To"])[2]
    _, marker_move = serve.play(game_id, marker)
    assert serve.moves(game_id, seat=0) == [move, marker_move]
    assert serve.moves(game_id, seat=0, after=version) == [marker_move]
    assert not answers_to(serve, ann)


def test_a_reply_from_another_address_is_refused_without_an_answer(serve):
    ann = "ann.stranger@example.com"
    game_id, mail = solo(serve, ann)
    line, _ = numbers_for(serve.games, mail)
    version, count = serve.version(game_id), len(serve.mails())
    key = serve.send(reply_message(mail, line, sender=f"Mallory <{MALLORY}>"))
    assert serve.outcome(key) == "ignored: not the seat's address"
    assert serve.version(game_id) == version
    assert len(serve.mails()) == count
    _, marker_move = serve.play(game_id, mail)  # the same email, answered by its seat
    assert serve.moves(game_id, seat=0) == [marker_move]
    assert serve.mails(MALLORY) == []
    assert not answers_to(serve, ann)


def test_a_gmail_style_reply_quoting_the_whole_email_reads_only_the_new_text(serve):
    ann = "ann.gmail@example.com"
    game_id, mail = solo(serve, ann)
    then = serve.games.load(game_id, at=token_of(mail["headers"]["Reply-To"])[2])
    menu = build(then.game, then.state, 0)
    for number in {n for m in menu.moves for n in menu.numbers_of(m)}:
        assert re.search(rf"^{number}\s", mail["text"], re.M)  # every number is quoted
    version = serve.version(game_id)
    last = menu.moves[-1]  # not the first: the quoted menu starts with "1"
    assert menu.numbers_of(last) != menu.numbers_of(menu.moves[0])
    _, move = serve.play(game_id, mail, pick=lambda moves: last)
    assert move == last
    assert serve.moves(game_id, after=version)[:1] == [last]
    assert serve.moves(game_id, seat=0) == [last]
    assert talk.messages(serve.store, game_id) == []  # nor is the quote said at the table
    assert not answers_to(serve, ann)


def test_an_out_of_office_auto_reply_is_not_answered_and_changes_nothing(serve):
    ann = "ann.away@example.com"
    game_id, mail = solo(serve, ann)
    version, count = serve.version(game_id), len(serve.mails())
    msg = reply_message(mail, "I am out of the office until 14 December, with no access "
                        "to email.\nFor anything urgent, please call 555 0100.",
                        subject="Out of Office: " + mail["subject"],
                        headers={"Auto-Submitted": "auto-replied"}, quote=False)
    key = serve.send(msg)
    assert serve.outcome(key) == "ignored: automatic mail"
    assert serve.version(game_id) == version
    assert len(serve.mails()) == count
    _, marker_move = serve.play(game_id, mail)
    assert serve.moves(game_id, seat=0) == [marker_move]
    assert talk.messages(serve.store, game_id) == []
    assert not answers_to(serve, ann)


def test_a_reply_to_an_old_turn_is_answered_once_and_changes_nothing(serve):
    ann = "ann.old@example.com"
    game_id, old = solo(serve, ann)
    _, first_move = serve.play(game_id, old)
    current = serve.next_turn(game_id, 0, ann)
    assert current is not None
    version = serve.version(game_id)
    line, _ = numbers_for(serve.games, old, pick=lambda moves: moves[-1])
    key = serve.send(reply_message(old, line))
    assert serve.outcome(key) == "refused (moved on)"
    assert serve.version(game_id) == version
    [answer] = answers_to(serve, ann)
    assert "The game has moved on" in answer["text"]
    assert answer["headers"].get("Auto-Submitted") == "auto-replied"
    _, marker_move = serve.play(game_id, current)
    assert serve.moves(game_id, seat=0) == [first_move, marker_move]
    assert len(answers_to(serve, ann)) == 1


def test_a_chat_line_in_a_reply_reaches_the_other_seat_in_its_next_email(serve):
    game_id = serve.create([("Ann", ANN), ("Ben", BEN)])
    address = {0: ANN, 1: BEN}
    said = "Good luck, Ben! May the best architect win."
    mail = serve.next_turn(game_id, 0, ANN)
    assert mail is not None
    serve.play(game_id, mail, text=said)
    said_at = serve.version(game_id)
    assert [m.text for m in talk.messages(serve.store, game_id)] == [said]

    def ben_told() -> dict | None:
        for seen in serve.mails(BEN):
            reply_to = seen["headers"].get("Reply-To")
            if reply_to and token_of(reply_to)[2] >= said_at:
                return seen
        return None

    for _ in range(50):  # play on by replies (moves only) until Ben has a new email
        if ben_told() is not None:
            break
        table = serve.games.load(game_id)
        assert not table.ended
        seat = sorted(table.to_act())[0]
        turn = serve.next_turn(game_id, seat, address[seat])
        assert turn is not None
        if ben_told() is None:
            serve.play(game_id, turn)
    told = ben_told()
    assert told is not None, "Ben never got another turn email"
    assert f"Ann: {said}" in told["text"]


def test_the_outbox_reply_box_makes_a_move_through_the_smtp_receiver(serve):
    ann = "ann.outbox@example.com"
    game_id, mail = solo(serve, ann)
    line, move = numbers_for(serve.games, mail)
    version = serve.version(game_id)
    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(CookieJar()))
    with browser.open(f"{serve.base}/dev/mail/{mail['id']}", timeout=10) as page:
        html = page.read().decode()
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert csrf is not None, "the email's page has no Reply box"
    form = urllib.parse.urlencode({"csrf_token": csrf[1], "text": line}).encode()
    with browser.open(f"{serve.base}/dev/mail/{mail['id']}/reply", data=form,
                      timeout=10) as sent:
        assert sent.status == 200 and "handed to the SMTP receiver" in sent.read().decode()
    assert wait_until(lambda: serve.version(game_id) > version, TIMEOUT)
    assert serve.moves(game_id, seat=0) == [move]
    assert not answers_to(serve, ann)
