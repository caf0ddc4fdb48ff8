"""Replies to turn emails: one stored inbound message, decided as a POST from its seat.

A door (``service.inbound`` for SendGrid Inbound Parse, ``service.smtp_receiver`` under
``ravenpost serve``) stores the raw message once, keyed by its Message-ID, and enqueues
:func:`handle`.  Here it is read (:mod:`worker.inbound_mail`: only the new text), checked
and decided:

- never answered: an auto-reply or bounce; mail without a valid reply token of ours; a
  reply from an address that is not the seat's (its player hears of it, once a day at
  most, in their next email); from SendGrid, a sender that passed neither SPF nor DKIM;
- a move: a line of numbers (or the move's words) read against the menu the email showed
  (built again from the version the token names), played with that version as the
  expected one, exactly as an act link would; nothing is sent on success (the next turn
  email is the confirmation), except when the same seat's turn goes on (a free action):
  then the next step's email goes out at once;
- a command (:mod:`worker.commands`), answered by one email;
- the rest of the text is said at the table (:mod:`events.talk`).

A reply that tries to act but cannot (a stale turn, a number that names no move, a
command used wrongly, a revoked address) is answered with the reason and the current
moves, at most ``REFUSALS_PER_HOUR`` times per seat and hour.

Once: the door stores a message once; a retried job finds the outcome recorded here, or
the move its first run appended (the append's writer token is the message's key, see
:meth:`events.gameplay.GameService.recorded_move`); each answer has its own marker.
"""

from __future__ import annotations

import logging
import re
from datetime import timedelta

from events import history, talk
from events.envelope import seat_actor
from events.store import ConflictError, key, keyed_writer_token
from games.protocol import IllegalMove
from games.text import T, Text
from worker import commands, consent, forced, i18n, inbox, leave, players, reply_to, table_talk
from worker.current import runtime
from worker.inbound_mail import InboundMail, from_raw, from_sendgrid
from worker.links import LinkError, api_generation, reply_token_of
from worker.mail import Email
from worker.menu import NotAMove, build, looks_like_a_move
from worker.notify import language_of_seat, send_turn, unsubscribe_url
from worker.picture_mail import mail_picture
from worker.projection import request_projection
from worker.runtime import Runtime
from worker.sending import render, send_once

log = logging.getLogger(__name__)

OUTCOME_SECONDS = 4 * 24 * 3600  # longer than SendGrid retries a message (3 days)
ANSWERS_PER_HOUR = 20  # every answer to a seat, commands included: no mail loop runs long
RESIGN_CONFIRM_SECONDS = 2 * 24 * 3600
MAX_FORCED_WAITS = 8  # rounds of "play the forced moves, read again" after a reply's move
SAID_BY_MAIL_PER_HOUR = 20  # as the page's TALK_LIMIT_PER_SEAT: a seat's messages by email
MOVED_ON = T("The game has moved on since that email: your reply changed nothing.")
_MESSAGE_ID = re.compile(r"^[\x21-\x7e]{1,250}$")


def handle(key_: str) -> str:
    """Decide the inbound message stored under ``key_`` (see :mod:`worker.inbox`);
    what was done, in a few words (for logs and tests)."""
    rt = runtime()
    outcome_key = f"rp:inbound:{{{key_}}}:outcome"
    done = rt.redis.get(outcome_key)
    if done:
        inbox.done(rt.redis, key_)
        return done
    stored = inbox.load(rt.redis, key_)
    if stored is None:
        return "gone"
    mail = read(stored)
    outcome = Reply(rt, key_, mail, stored.get("door", "")).decide()
    log.info("inbound %s from %s: %s", key_, mail.sender, outcome)
    rt.redis.set(outcome_key, outcome, ex=OUTCOME_SECONDS)
    inbox.done(rt.redis, key_)
    return outcome


def read(stored: dict) -> InboundMail:
    """The message a door stored, parsed."""
    fields = stored.get("fields") or {}
    if stored.get("door") == "sendgrid":  # raw mode too: SPF and DKIM are in the fields
        return from_sendgrid({**fields, "email": stored["raw"]} if stored.get("raw")
                             is not None else fields)
    return from_raw(stored.get("raw") or b"", stored.get("envelope_to") or ())


class Reply:
    """One reply being decided."""

    language = i18n.DEFAULT  # its answers' language: the seat's (set by decide)

    def __init__(self, rt: Runtime, key_: str, mail: InboundMail, door: str) -> None:
        self.rt, self.key, self.mail, self.door = rt, key_, mail, door

    # -- who is writing ------------------------------------------------------------------
    def decide(self) -> str:
        mail, rt = self.mail, self.rt
        if mail.automatic:
            return "ignored: automatic mail"
        token = reply_token_of(rt.config, mail.recipients)
        if token is None:
            return "ignored: no reply address of ours"
        try:
            self.link = rt.links.check_reply(token)
        except LinkError:
            return "ignored: not a valid reply address"
        self.game_id, self.seat = self.link.game_id, self.link.seat
        seats = rt.store.get_json(self.game_id, "seats") or []
        if not 0 <= self.seat < len(seats):
            return "ignored: no such seat"
        self.info = seats[self.seat]
        if mail.sender != (self.info.get("email") or "").strip().lower():
            table_talk.note_foreign_reply(rt, self.game_id, self.seat, mail.sender)
            return "ignored: not the seat's address"
        if self.door == "sendgrid" and mail.authenticated is not True:
            return "ignored: the sender passed neither SPF nor DKIM"
        pid = players.seat_player(rt.redis, self.info)
        self.language = language_of_seat(rt, pid, self.info)  # of every answer
        if self.link.generation != api_generation(rt.redis, self.game_id, self.seat):
            return self.refuse(T("This email's reply address was revoked (its player signed "
                                 "out everywhere or asked for new links). Answer your latest "
                                 "email from the game instead."))
        if pid:
            players.verify(rt.redis, pid)  # a reply from the address proves it
        return self._act()

    # -- what it says --------------------------------------------------------------------
    def _act(self) -> str:
        action, talk = None, []
        for line in self.mail.new_text.splitlines():
            if not line.strip():
                continue
            command = commands.parse(line)
            if command is not None and command.name == "yes" and not self._resign_asked():
                command = None  # "yes" with no resignation to confirm is table talk
            if command is not None or self._looks_like_a_move(line):
                action = action or (command or line)
                continue
            talk.append(line.rstrip())
        if talk:  # said first: the emails the move causes quote it
            self._say("\n".join(talk).strip())
        if isinstance(action, commands.Command):
            return self._command(action)
        if action is not None:
            return self._move(action)
        return "said" if talk else "nothing to do"

    def _looks_like_a_move(self, line: str) -> bool:
        if re.fullmatch(r"[\d\s,+.;/-]+", line.strip()) and re.search(r"\d", line):
            return True
        menu = self._menu_then()
        return menu is not None and looks_like_a_move(menu, line)

    def _menu_then(self):
        if not hasattr(self, "_menu"):
            self._menu = None
            then = self.rt.games.load(self.game_id, at=self.link.version)
            if not then.ended and self.seat in then.to_act():
                self._menu = build(then.game, then.state, self.seat)
        return self._menu

    def _say(self, text: str) -> None:
        text = text[:talk.MAX_CHARS]
        for said in talk.messages(self.rt.store, self.game_id, after=self.link.version):
            if said.seat == self.seat and said.via == "email" and said.text == text:
                return  # a retried job said it already
        if not self._count(f"said-by-mail:{self.seat}", SAID_BY_MAIL_PER_HOUR):
            log.info("reply's table talk not said: over %s an hour", SAID_BY_MAIL_PER_HOUR)
            return
        try:
            event = talk.say(self.rt.games, self.game_id, self.seat, text, via="email")
        except IllegalMove as exc:
            log.info("reply's table talk not said: %s", exc.reason)
            return
        request_projection(self.rt.enqueuer, self.game_id, event.version)

    # -- a move --------------------------------------------------------------------------
    def _move(self, line: str) -> str:
        rt, game_id, seat, version = self.rt, self.game_id, self.seat, self.link.version
        writer = keyed_writer_token(seat_actor(seat), f"inbound:{self.key}")
        now = rt.games.load(game_id)
        if rt.store.written_by(game_id, version, writer) is not None:
            return "moved (before a retry)"
        if now.ended:
            return self.refuse(T("The game is over: your reply changed nothing."))
        menu = self._menu_then()
        if menu is None or not rt.games.turn_unchanged(game_id, seat, version, now.version):
            return self.refuse(MOVED_ON, moved_on=True)
        try:
            move = menu.resolve(line)
        except NotAMove as exc:
            return self.refuse(T('"%(line)s" is not one of your moves: %(reason)s',
                                 line=line.strip(), reason=exc.reason))
        try:
            event, after, _ = rt.games.play_move_then(game_id, seat, move, version,
                                                       same_turn=True, writer=writer)
        except IllegalMove as exc:
            return self.refuse(T("That move is not allowed: %(reason)s", reason=exc.reason))
        except ConflictError:
            if rt.store.written_by(game_id, version, writer) is not None:
                return "moved (before a retry)"
            return self.refuse(MOVED_ON, moved_on=True)
        request_projection(rt.enqueuer, game_id, event.version)
        after = self._after_forced_moves(after)
        if not after.ended and seat in after.to_act():
            send_turn(rt, game_id, after.version, seat, step=True)
        pid = players.seat_player(rt.redis, self.info)
        if pid and players.prefs(rt.redis, pid)["confirm"]:
            self.answer("confirm", [T("Your move was played: %(move)s.",
                                      move=menu.label_of(move))], menu=False)
        return f"moved: {move.get('type', '?')} at version {event.version}"

    def _after_forced_moves(self, table):
        """The table once the moves the service plays for the seat (its only, safe ones:
        worker.forced) are played, here or by the projection racing us: the next step's
        email then asks for a real choice, rather than one about to be made for them."""
        for _ in range(MAX_FORCED_WAITS):
            if table.ended or forced.pending(self.rt.redis, table, self.seat) is None:
                return table
            forced.play_forced(self.rt, self.game_id)
            table = self.rt.games.load(self.game_id)
        return table

    # -- commands ------------------------------------------------------------------------
    def _command(self, command: commands.Command) -> str:
        if command.error:
            return self.refuse(command.error)
        return getattr(self, f"_{command.name}")(command)

    def _undo(self, _command: commands.Command) -> str:
        rt = self.rt
        allowed, why = rt.games.can_take_back(self.game_id, self.seat)
        if not allowed:
            return self.refuse(T("Your last move cannot be taken back: %(why)s", why=why)
                               if why else T("You have no move to take back."))
        try:
            event = rt.games.request_undo(self.game_id, self.seat)
        except IllegalMove as exc:
            return self.refuse(T("No take-back: %(reason)s", reason=exc.reason))
        request_projection(rt.enqueuer, self.game_id, event.version)
        return self.answer("undo", [T("You asked the table to take back your last move. "
                                      "The others are asked by email; you will hear.")])

    def _resign(self, _command: commands.Command) -> str:
        self.rt.redis.set(key(self.game_id, f"resign-asked:{self.seat}"), self.key,
                          ex=RESIGN_CONFIRM_SECONDS)
        return self.answer("resign", [
            T("Do you really want to resign? Resigning ends the game for everyone, with you "
              "ranked last."), T('Reply "yes" to this email to confirm (within two days).')])

    def _resign_asked(self) -> bool:
        return bool(self.rt.redis.exists(key(self.game_id, f"resign-asked:{self.seat}")))

    def _yes(self, _command: commands.Command) -> str:
        rt = self.rt
        try:
            event = rt.games.resign(self.game_id, self.seat)
        except (IllegalMove, ConflictError) as exc:
            return self.refuse(T("You could not resign: %(reason)s",
                                 reason=getattr(exc, "reason", str(exc))))
        rt.redis.delete(key(self.game_id, f"resign-asked:{self.seat}"))
        request_projection(rt.enqueuer, self.game_id, event.version)
        return self.answer("yes", [T("You resigned: the game is over. The result follows in "
                                     "its own email.")])

    def _away(self, command: commands.Command) -> str:
        rt = self.rt
        start = rt.now()
        assert command.span is not None
        until = start + command.span
        try:
            leave.declare(rt, self.game_id, self.seat, start, until)
        except (IllegalMove, ConflictError) as exc:
            return self.refuse(T("Your leave was not booked: %(reason)s",
                                 reason=getattr(exc, "reason", str(exc))))
        return self.answer("away", [
            T("You are away until %(until)s: your clock stops meanwhile.",
              until=i18n.local_time(until, self.info.get("tz"), self.language))])

    def _history(self, command: commands.Command) -> str:
        table = self.rt.games.load(self.game_id)
        lines = history.lines(self.rt.store, self.game_id, table.game, table.names,
                              self.seat, last=command.count or 15)
        return self.answer("history", [T("The latest moves:")],
                           listing=[f"{line['version']}. "
                                    f"{i18n.translate(line['text'], self.language)}"
                                    for line in lines])

    def _board(self, _command: commands.Command) -> str:
        return self.answer("board", [T("The game as it stands:")], picture=True)

    def _help(self, _command: commands.Command) -> str:
        return self.answer("help", [T("What you can write in a reply, one per line:")],
                           listing=commands.HELP)

    def _stop(self, _command: commands.Command) -> str:
        consent.set_muted(self.rt.store, self.game_id, self.seat, True)
        return self.answer("stop", [
            T("You will get no more emails from this game. Your game page still works; "
              "turn emails come back when you switch them on there.")], menu=False)

    # -- answers -------------------------------------------------------------------------
    def refuse(self, reason: str | Text, moved_on: bool = False) -> str:
        """Answer a reply that could not act (at most REFUSALS_PER_HOUR per seat)."""
        sent = self._send("refused", [reason], refusal=True)
        return "refused" + (" (moved on)" if moved_on else "") + ("" if sent else ", unanswered")

    def answer(self, what: str, lines: list[str | Text], listing: list[str] | None = None,
               picture: bool = False, menu: bool = True) -> str:
        """Answer a command with one email; ``what`` the command, for the outcome."""
        self._send(what, lines, listing=listing, picture=picture, menu=menu)
        return what

    def _send(self, what: str, lines: list[str | Text], *, refusal: bool = False,
              listing: list[str] | None = None, picture: bool = False,
              menu: bool = True) -> bool:
        rt, game_id, seat = self.rt, self.game_id, self.seat
        marker = key(game_id, f"mailed:answer:{self.key}")

        def build() -> Email | None:
            if not self._may_answer(refusal):
                return None
            table = rt.games.load(game_id)
            answerable = reply_to.for_seat(rt, table, seat)
            pid = players.seat_player(rt.redis, self.info)
            unsubscribe = unsubscribe_url(rt, pid, "game", game_id, seat) if pid else \
                rt.url("/")
            ctx = {"player": self.info, "game": table.game, "game_id": game_id,
                   "lines": lines, "listing": listing or [],
                   "menu": answerable.menu_lines if menu else [],
                   "play_url": rt.url("/play/" + rt.links.make(
                       game_id, seat, "play",
                       generation=api_generation(rt.redis, game_id, seat))),
                   "unsubscribe_url": unsubscribe, "quoted": self.mail.new_text[:2000]}
            board = mail_picture(rt.games, table, seat, language=self.language) if picture \
                else None
            subject = self.mail.subject or i18n.translate(
                T("Your reply in %(game)s", game=table.game.name), self.language)
            if not subject.lower().startswith("re:"):
                subject = "Re: " + subject
            headers = {"Auto-Submitted": "auto-replied"}  # RFC 3834: auto-repliers keep out
            if _MESSAGE_ID.match(self.mail.message_id or ""):
                headers |= {"In-Reply-To": f"<{self.mail.message_id}>",
                            "References": f"<{self.mail.message_id}>"}
            return render(rt, "answer", subject, self.info["email"],
                          f"answer:{game_id}:{self.key}", ctx, unsubscribe, board,
                          reply_to=answerable.reply_to, headers=headers,
                          language=self.language)

        return send_once(rt, marker, build, lambda: None)

    def _may_answer(self, refusal: bool) -> bool:
        """Count one answer to the seat this hour; False past the limits."""
        allowed = self._count(f"answers:{self.seat}", ANSWERS_PER_HOUR)
        if refusal:
            allowed = self._count(f"refusals:{self.seat}",
                                  int(self.rt.config.get("REFUSALS_PER_HOUR", 5))) and allowed
        return allowed

    def _count(self, name: str, limit: int) -> bool:
        """Count one more of ``name`` (the game's key) in the hour it began; within
        ``limit``?"""
        counter = key(self.game_id, name)
        count = self.rt.redis.incr(counter)
        if count == 1:
            self.rt.redis.expire(counter, int(timedelta(hours=1).total_seconds()))
        return count <= limit
