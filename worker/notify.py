"""Turn, reminder and game-over emails: compose from templates, send once.

"Once" is kept by a per-notice marker ``mailed:<kind>:<version>:<seat>`` and a lease (see
:mod:`worker.sending`).  Whether an email may go to its address at all is
:mod:`worker.consent`'s to say (invitations to strangers are limited, opt-outs kept).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

import jinja2
from markupsafe import Markup

from events import envelope as ev
from events import votes
from events.history import forked_from
from events.picture import countdown_text
from events.store import key
from games.text import T, Text, join
from worker import consent, forced, held, i18n, players, reply_to, table_talk
from worker.links import seat_token
from worker.mail import Email
from worker.notices import notice_done
from worker.picture_mail import mail_picture
from worker.runtime import Runtime
from worker.sending import LEASE_SECONDS, MARKER_SECONDS, render, send_once

__all__ = ["LEASE_SECONDS", "MARKER_SECONDS", "send_turn", "send_undo", "send_vote",
           "send_vote_refused",
           "send_timed_out", "send_ended", "vote_time", "recipient"]

log = logging.getLogger(__name__)


def _seat_info(rt: Runtime, game_id: str, seat: int) -> dict:
    seats = rt.store.get_json(game_id, "seats") or []
    return seats[seat] if seat < len(seats) else {"seat": seat, "name": f"Seat {seat}"}


def recipient(rt: Runtime, game_id: str, seat: int, invitation: bool = False) -> dict | None:
    """``seat``'s entry of the game's seats record if an email of this game may go to
    its address now (it has one, it is not muted, and :mod:`worker.consent` allows it),
    with ``pid`` (its player), ``inviter`` (the game's creator, if a player) and
    ``language`` (the one its emails are written in: :func:`language_of_seat`); else
    None.  An invitation may take one of an invitee's invitations."""
    info = _seat_info(rt, game_id, seat)
    if not info.get("email") or info.get("muted"):
        return None
    pid = players.seat_player(rt.redis, info)
    inviter = (rt.store.get_json(game_id, "settings") or {}).get("creator")
    answer = consent.may_mail(rt.redis, pid, game_id, seat, invitation=invitation,
                              inviter=inviter, config=rt.config)
    if answer != consent.SEND:
        log.info("no %s email to seat %s of game %s: %s", "invitation" if invitation
                 else "game", seat, game_id, answer)
        return None
    return info | {"pid": pid, "inviter": inviter, "language": language_of_seat(rt, pid, info)}


def language_of_seat(rt: Runtime, pid: str | None, info: dict) -> str:
    """The language of ``info``'s seat's emails: its player's own setting, else the
    seat's ``language`` chosen when they were invited, else English
    (:func:`worker.i18n.reader_language`)."""
    chosen = players.prefs(rt.redis, pid)["language"] if pid else None
    return i18n.reader_language(chosen, info)


def _first_upper(text: str | None) -> str | None:
    """``text`` with its first letter in capitals, the rest as it is (a German noun keeps
    its capital; Jinja's ``capitalize`` would lower it)."""
    return text[:1].upper() + text[1:] if text else text


def unsubscribe_url(rt: Runtime, pid: str, scope: str, game_id: str = "", seat: int = 0
                    ) -> str:
    """The one-click unsubscribe link of an email (RFC 8058): ``scope`` ``game`` (this
    game's emails), ``invitations`` (an invitee's: every invitation) or ``digest``."""
    return rt.url("/unsubscribe/" + rt.links.make_player(
        "unsubscribe", pid, what=scope, g=game_id, s=seat))


def _common(rt: Runtime, game_id: str, seat: int, info: dict, scope: str = "game") -> dict:
    """What every game email shows: the seat's links, of the seat's current generation."""
    unsubscribe = unsubscribe_url(rt, info["pid"], scope, game_id, seat)
    return {
        "player": info, "game_id": game_id,
        "play_url": rt.url("/play/" + seat_token(rt.redis, rt.links, game_id, seat, "play")),
        "mute_url": unsubscribe, "unsubscribe_url": unsubscribe,
        "my_games_url": players.my_games_url_of(rt, info["pid"]),
    }


_NO_PICTURE: set[str] = set()  # kinds whose page partial is missing (said once per process)


def _picture(rt: Runtime, table, seat: int, language: str = i18n.DEFAULT) -> Markup | None:
    """The game's own page partial for ``seat``, for the HTML part; None if it will not
    render outside the web app (then the text summary stands alone)."""
    if table.kind in _NO_PICTURE:
        return None
    try:
        template = i18n.email_env(language).get_template(table.game.template())
    except jinja2.TemplateNotFound:  # a kind without a page partial (a plug-in, a test)
        log.warning("no %s picture for emails: %s is not a template", table.kind,
                    table.game.template())
        _NO_PICTURE.add(table.kind)
        return None
    try:
        html = template.render(
            view=table.game.view(table.state, seat), seat=seat, names=table.names,
            game=table.game)
    except Exception:  # a picture is a nicety; the turn email must go out regardless
        log.warning("could not render the %s picture for an email", table.kind, exc_info=True)
        return None
    return Markup(html)  # noqa: S704 - rendered by our own autoescaping templates


def send_turn(rt: Runtime, game_id: str, version: int, seat: int, reminder: bool = False,
              which: str = "", step: bool = False) -> bool:
    """Email ``seat`` that its turn (begun at ``version``) is waiting; once per turn (a
    reminder: once per turn and ``which`` reminder of it, see events.clocks).  ``step``:
    the seat answered by email and its turn goes on at ``version`` (worker.replies): the
    next step's moves, at once (the player is at their mail now).

    A turn with a deadline says the time left (:func:`events.picture.countdown_text`,
    counted when the email is built, i.e. sent) in its subject and first line, beside the
    deadline in the reader's time zone; the move link comes before the picture."""
    kind = ("remind" + (f"-{which}" if which else "")) if reminder else \
        "step" if step else "turn"
    marker = key(game_id, f"mailed:{kind}:{version}:{seat}")
    if not step and held.intercept(rt, game_id, version, seat,
                                   "remind" if reminder else "turn", marker):
        return False  # not now (held for the morning) or not at all (seen, digest)

    def build() -> Email | None:
        info = recipient(rt, game_id, seat, invitation=version == 1 and not reminder)
        if info is None:
            return None
        awaiting = rt.redis.hget(key(game_id, "awaiting"), str(seat))
        is_turn = awaiting is not None and json.loads(awaiting)["version"] == version
        if step:
            now = rt.games.load(game_id)
            if now.version != version or seat not in now.to_act():
                return None  # moved on before this went out; the next email says so
            if forced.pending(rt.redis, now, seat) is not None:
                return None  # its only move is about to be played for the seat
            is_turn = True
        fork = forked_from(rt.store, game_id)
        if fork and not reminder:
            if version == 1:  # a fork's invitation: a turn carried across the fork is
                is_turn = awaiting is not None  # in it, move link and all
            elif version <= fork["at"]:
                return None  # a turn begun before the fork: the invitation has it
        if reminder and not is_turn:
            return None  # the player moved in time
        if not is_turn and version != 1:
            return None  # the turn passed before the mail went out; nothing to say
        table = rt.games.load(game_id)
        deadline = json.loads(awaiting).get("deadline") if awaiting else None
        # the time left, as it is when this goes out (a held or retried email counts
        # from its own send); only for a turn that is the seat's and has a deadline
        countdown = countdown_text(deadline, rt.now()) if is_turn else None
        language = info["language"]
        deadline_text = i18n.local_time(deadline, info.get("tz"), language)
        board = mail_picture(rt.games, table, seat, deadline_text, language=language)
        invitation = version == 1
        answer = reply_to.for_seat(rt, table, seat) if is_turn else None
        stranger = invitation and not players.is_verified(rt.redis, info["pid"])
        ctx = _common(rt, game_id, seat, info, "invitations" if stranger else "game") | {
            "game": table.game, "table": table, "seat": seat, "is_turn": is_turn,
            "invitation": invitation, "reminder": reminder,
            "block_url": rt.url("/block/" + rt.links.make_player(
                "block", info["pid"], by=info["inviter"]))
            if invitation and info["inviter"] else None,
            "act_url": rt.url("/m/" + seat_token(rt.redis, rt.links, game_id, seat, "act",
                                                 table.version)),
            "summary": table.game.summary(table.state, seat),
            "picture": None if board else _picture(rt, table, seat, language),
            "names": table.names, "deadline": deadline_text, "countdown": countdown,
            "countdown_first": _first_upper(i18n.translate(countdown, language)),
            "fork": fork, "step": step,
            "menu": answer.menu_lines if answer else [],
            "example": answer.example if answer else "",
            "said": table_talk.unread(rt, game_id, seat, table.names, upto=table.version),
            "foreign": table_talk.foreign_reply_note(rt, game_id, seat),
        }
        name = table.game.name
        subject: Text = (T("Reminder: your move in %(game)s", game=name) if reminder else
                         T("Your move goes on in %(game)s", game=name) if step else
                         T("Your move in %(game)s", game=name) if is_turn else
                         T("You are invited to play %(game)s", game=name))
        if countdown:
            subject = T("%(subject)s (%(countdown)s)", subject=subject, countdown=countdown)
        return render(rt, "turn", subject, info["email"], f"{kind}:{game_id}:{version}:{seat}",
                      ctx, ctx["unsubscribe_url"], board,
                      reply_to=answer.reply_to if answer else None, language=language)

    def done() -> None:
        if not reminder and not step:
            notice_done(rt, game_id, f"turn:{version}:{seat}")

    return send_once(rt, marker, build, done)


def send_undo(rt: Runtime, game_id: str, version: int, seat: int) -> bool:
    """Ask ``seat`` about a take-back request; once per request and seat."""
    marker = key(game_id, f"mailed:undo:{version}:{seat}")

    def build() -> Email | None:
        info = recipient(rt, game_id, seat)
        pending = rt.games.pending_undo(game_id, reader=seat)
        if info is None or not pending or pending["version"] != version:
            return None  # already settled
        table = rt.games.load(game_id)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "asker": table.names[pending["seat"]], "names": table.names,
            "move": pending.get("move"), "move_version": pending["to"] + 1}
        return render(rt, "undo", T("%(asker)s asks to take back a move in %(game)s",
                                    asker=ctx["asker"], game=table.game.name),
                      info["email"], f"undo:{game_id}:{version}:{seat}",
                      ctx, ctx["unsubscribe_url"],
                      mail_picture(rt.games, table, seat, language=info["language"]),
                      language=info["language"])

    def done() -> None:
        notice_done(rt, game_id, f"undo:{version}:{seat}")

    return send_once(rt, marker, build, done)


def vote_time(rt: Runtime) -> datetime:
    """The time votes are judged at, in the web and here: the ``CLOCK`` setting (a callable,
    for tests and demos), else the runtime's own clock where it has one, else now."""
    clock = rt.config.get("CLOCK") or getattr(rt, "now", None)
    return clock() if clock else datetime.now(UTC)


def send_vote(rt: Runtime, game_id: str, version: int, seat: int) -> bool:
    """Ask ``seat`` to answer the vote to abandon or end the game called at ``version``;
    once per vote and seat, and not once the vote is settled (see events.votes)."""
    marker = key(game_id, f"mailed:vote:{version}:{seat}")

    def build() -> Email | None:
        info = recipient(rt, game_id, seat)
        table = rt.games.load(game_id)
        vote = rt.games.latest_vote(game_id)
        if info is None or table.ended or vote is None \
                or vote.version != version or seat in vote.answers \
                or vote.status(vote_time(rt)) != "open":
            return None  # already settled (or answered)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "names": table.names, "proposer": table.names[vote.seat],
            "kind": vote.kind, "what": votes.WHAT[vote.kind],
            "needed": votes.needed(vote.kind, len(table.names)),
            "expires": i18n.local_time(vote.expires, info.get("tz"), info["language"])}
        return render(rt, "vote", T("%(proposer)s proposes to %(what)s",
                                    proposer=ctx["proposer"],
                                    what=_vote_subject(vote.kind, table.game.name)),
                      info["email"], f"vote:{game_id}:{version}:{seat}", ctx,
                      ctx["unsubscribe_url"], language=info["language"])

    def done() -> None:
        notice_done(rt, game_id, f"vote:{version}:{seat}")

    return send_once(rt, marker, build, done)


def _vote_subject(kind: str, game: str) -> Text:
    """What a vote of ``kind`` asks, with the game's name: "end The King's Guild early"."""
    return T("abandon %(game)s", game=game) if kind == "abandon" else \
        T("end %(game)s early", game=game)


def send_vote_refused(rt: Runtime, game_id: str, version: int, seat: int) -> bool:
    """Tell ``seat``, who called a vote, that it was refused by the VoteCast at
    ``version``; once, and not once the game is over."""
    marker = key(game_id, f"mailed:vote-refused:{version}:{seat}")

    def build() -> Email | None:
        info = recipient(rt, game_id, seat)
        table = rt.games.load(game_id)
        if info is None or table.ended:
            return None
        (cast,) = rt.store.read(game_id, version, version)
        kind = cast.data.get("kind") or rt.store.read(
            game_id, cast.data["vote"], cast.data["vote"])[0].data["kind"]
        refuser = table.names[cast.data["seat"]]
        what = T("abandon the game") if kind == "abandon" else T("end the game early")
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "refuser": refuser, "what": what}
        return render(rt, "vote_refused", T("%(refuser)s refused to %(what)s", refuser=refuser,
                                            what=_vote_subject(kind, table.game.name)),
                      info["email"], f"vote-refused:{game_id}:{version}:{seat}", ctx,
                      ctx["unsubscribe_url"], language=info["language"])

    def done() -> None:
        notice_done(rt, game_id, f"vote-refused:{version}:{seat}")

    return send_once(rt, marker, build, done)


def timed_out_marker(game_id: str, version: int, late: int, seat: int) -> str:
    """The once-marker of the email telling ``seat`` that ``late`` missed a deadline."""
    return key(game_id, f"mailed:timeout:{version}:{late}:{seat}")


STAND_IN_MOVES = 5  # moves of the stand-in one time-out email names at most


def _stand_in(rt: Runtime, game_id: str, turn: int, late: int, seat: int
              ) -> tuple[str, str | None]:
    """What the time-out of ``late``'s turn begun at ``turn`` did: its policy as recorded
    ("wait", "skip", "auto", "bot", "forfeit"; "wait" for a skip with no pass) and the
    moves the stand-in played for ``late`` after it, as ``seat`` may read them (their
    labels for ``late`` itself, the redacted log lines for the others; None if none yet)."""
    policy, played = None, []
    for event in rt.store.iter(game_id, turn):
        d = event.data
        if policy is None:
            if event.type == ev.TIMED_OUT and d.get("seat") == late and d.get("turn") == turn:
                policy = d.get("policy") or "wait"
        elif event.type == ev.MOVE_PLAYED and d.get("seat") == late:
            if d.get("auto") not in ("timeout", "bot") or len(played) == STAND_IN_MOVES:
                break  # the player moved themselves
            before = rt.games.load(game_id, at=event.version - 1)
            game = before.game
            played.append(game.move_label(before.state, late, d["move"]) if seat == late
                          else game.describe({"version": event.version, "actor": late,
                                              "data": {"move": d["move"]},
                                              "names": before.names}, seat))
        elif event.type in (ev.TIMED_OUT, ev.GAME_ENDED):
            break
    return policy or "wait", join(played, "; ") if played else None


def send_timed_out(rt: Runtime, game_id: str, version: int, late: int, seat: int) -> bool:
    """Tell ``seat`` that ``late`` missed the deadline of the turn begun at ``version``."""
    marker = timed_out_marker(game_id, version, late, seat)

    def build() -> Email | None:
        info = recipient(rt, game_id, seat)
        if info is None:
            return None
        table = rt.games.load(game_id)
        policy, played = _stand_in(rt, game_id, version, late, seat)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "late": table.names[late], "is_late": late == seat,
            "policy": policy if policy in ("skip", "auto", "bot", "forfeit") else "wait",
            "played": played}
        subject = (T("Your deadline passed in %(game)s", game=table.game.name) if late == seat
                   else T("%(late)s missed the deadline in %(game)s", late=table.names[late],
                          game=table.game.name))
        return render(rt, "timeout", subject, info["email"],
                      f"timeout:{game_id}:{version}:{late}:{seat}", ctx, ctx["unsubscribe_url"],
                      language=info["language"])

    return send_once(rt, marker, build, lambda: None)


def send_ended(rt: Runtime, game_id: str, seat: int) -> bool:
    """Email ``seat`` the final result and the revealed secret; once per game."""
    marker = key(game_id, f"mailed:ended:{seat}")

    def build() -> Email | None:
        info = recipient(rt, game_id, seat)
        if info is None:
            return None
        table = rt.games.load(game_id)
        outcome = votes.outcome_said(table.outcome() or {}, table.names)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "table": table, "seat": seat, "names": table.names,
            "outcome": outcome, "secret": (table.revealed_secrets or [""])[-1],
            "ended_line": votes.ended_line(table.outcome() or {}, table.names),
            "summary": table.game.summary(table.state, seat),
        }
        return render(rt, "ended", T("Game over: %(game)s", game=table.game.name),
                      info["email"], f"ended:{game_id}:{seat}", ctx, ctx["unsubscribe_url"],
                      mail_picture(rt.games, table, seat, language=info["language"]),
                      language=info["language"])

    def done() -> None:
        for ident in rt.redis.hkeys(key(game_id, "pending")):
            if ident.startswith("ended:") and ident.endswith(f":{seat}"):
                notice_done(rt, game_id, ident)

    return send_once(rt, marker, build, done)
