"""Turn, reminder and game-over emails: compose from templates, send once.

"Once" is kept by a per-notice marker ``mailed:<kind>:<version>:<seat>`` (``sent`` or
``rejected``) and a lease ``<marker>:lease`` held while sending (see :mod:`worker.lease`:
``LEASE_SECONDS``, renewed while a send runs long).  A retried or duplicated job finds the
marker and stops, or finds the lease and leaves the mail to its holder; a job that crashed
mid-send stops renewing its lease, which is gone ``LEASE_SECONDS`` later, and the next
sweep sends the mail.  The one duplicate left: the provider accepted the mail and the
worker died (or Redis stayed away longer than the lease) before ``sent`` was written.

Markers expire after ``MARKER_SECONDS``: a job can only ask for the same mail again while
its notice is pending (at most ``projection.NOTICE_MAX_PENDING``) or within a sweep of it
being sent, so a marker older than that guards nothing.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime

import jinja2
import redis
from markupsafe import Markup

from events import votes
from events.history import forked_from
from events.picture import local_time
from events.store import key
from worker import players, quiet
from worker.lease import lease
from worker.mail import Email, MailError
from worker.picture_mail import MailPicture, mail_picture
from worker.projection import NOTICE_MAX_PENDING, notice_done
from worker.runtime import Runtime

log = logging.getLogger(__name__)

LEASE_SECONDS = 15  # a crashed send frees its mail this long after its last renewal
MARKER_SECONDS = int(NOTICE_MAX_PENDING.total_seconds()) + 24 * 3600
DONE = ("sent", "rejected", "skipped")  # skipped: see worker.quiet


def _send_once(rt: Runtime, marker: str, build, done) -> bool:
    """Send the email ``build()`` makes unless ``marker`` says it went already."""
    with lease(rt.redis, f"{marker}:lease", LEASE_SECONDS) as held:
        if not held:
            return False  # another job is sending it right now
        if rt.redis.get(marker) in DONE:  # sent (or settled) already
            done()
            return False
        try:
            email = build()
            if email is not None:
                rt.mail.send(email)
        except MailError as exc:
            if exc.transient:  # the sweep enqueues it again later
                raise
            # rejected for good (a bad address, say): retrying would fail forever
            log.error("email %s rejected for good, not retried: %s", marker, exc)
            _mark(rt, marker, "rejected")
            done()
            return False
        _mark(rt, marker, "sent")
    done()
    return email is not None


MARK_TRIES = 8


def _mark(rt: Runtime, marker: str, value: str) -> None:
    """Write the marker, waiting out a short loss of Redis: once the provider has the
    mail, every second this write is late widens the window for a second copy."""
    for attempt in range(MARK_TRIES):
        try:
            rt.redis.set(marker, value, ex=MARKER_SECONDS)
            return
        except (redis.ConnectionError, redis.TimeoutError):
            if attempt == MARK_TRIES - 1:
                raise
            log.warning("marker %s not written yet: Redis unreachable; retrying", marker)
            time.sleep(min(0.25 * 2 ** attempt, 4.0))


def _seat_info(rt: Runtime, game_id: str, seat: int) -> dict:
    seats = rt.store.get_json(game_id, "seats") or []
    return seats[seat] if seat < len(seats) else {"seat": seat, "name": f"Seat {seat}"}


def _common(rt: Runtime, game_id: str, seat: int, info: dict | None = None) -> dict:
    info = info or _seat_info(rt, game_id, seat)
    return {
        "player": info, "game_id": game_id,
        "play_url": rt.url(f"/play/{rt.links.make(game_id, seat, 'play')}"),
        "mute_url": rt.url(f"/mute/{rt.links.make(game_id, seat, 'mute')}"),
        "my_games_url": players.my_games_url(rt, info.get("email")),
    }


_NO_PICTURE: set[str] = set()  # kinds whose page partial is missing (said once per process)


def _picture(rt: Runtime, table, seat: int) -> Markup | None:
    """The game's own page partial for ``seat``, for the HTML part; None if it will not
    render outside the web app (then the text summary stands alone)."""
    if table.kind in _NO_PICTURE:
        return None
    try:
        template = rt.emails.get_template(table.game.template())
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


def _render(rt: Runtime, name: str, subject: str, to: str, mail_key: str, context: dict,
            mute_url: str, board: MailPicture | None = None) -> Email:
    """The email from its two templates; ``board`` (the picture) is shown inline."""
    context = context | {"board": board}
    text = rt.emails.get_template(f"email/{name}.txt").render(**context)
    html = rt.emails.get_template(f"email/{name}.html").render(**context)
    return Email(to=to, subject=subject, text=text, html=html, key=mail_key,
                 headers={"List-Unsubscribe": f"<{mute_url}>"},
                 inline=(board.image,) if board else ())


def send_turn(rt: Runtime, game_id: str, version: int, seat: int, reminder: bool = False,
              which: str = "") -> bool:
    """Email ``seat`` that its turn (begun at ``version``) is waiting; once per turn (a
    reminder: once per turn and ``which`` reminder of it, see events.clocks)."""
    kind = ("remind" + (f"-{which}" if which else "")) if reminder else "turn"
    marker = key(game_id, f"mailed:{kind}:{version}:{seat}")
    if quiet.intercept(rt, game_id, version, seat, "remind" if reminder else "turn", marker):
        return False  # not now (held for the morning) or not at all (seen, digest)

    def build() -> Email | None:
        info = _seat_info(rt, game_id, seat)
        if not info.get("email") or info.get("muted"):
            return None
        awaiting = rt.redis.hget(key(game_id, "awaiting"), str(seat))
        is_turn = awaiting is not None and json.loads(awaiting)["version"] == version
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
        board = mail_picture(rt.games, table, seat, local_time(deadline, info.get("tz")))
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "table": table, "seat": seat, "is_turn": is_turn,
            "invitation": version == 1, "reminder": reminder,
            "act_url": rt.url(f"/m/{rt.links.make(game_id, seat, 'act', table.version)}"),
            "summary": table.game.summary(table.state, seat),
            "picture": None if board else _picture(rt, table, seat), "names": table.names,
            "deadline": local_time(deadline, info.get("tz")),
            "fork": fork,
        }
        name = table.game.name
        subject = (f"Reminder: your move in {name}" if reminder else
                   f"Your move in {name}" if is_turn else f"You are invited to play {name}")
        return _render(rt, "turn", subject, info["email"], f"{kind}:{game_id}:{version}:{seat}",
                       ctx, ctx["mute_url"], board)

    def done() -> None:
        if not reminder:
            notice_done(rt, game_id, f"turn:{version}:{seat}")

    return _send_once(rt, marker, build, done)


def send_undo(rt: Runtime, game_id: str, version: int, seat: int) -> bool:
    """Ask ``seat`` about a take-back request; once per request and seat."""
    marker = key(game_id, f"mailed:undo:{version}:{seat}")

    def build() -> Email | None:
        info = _seat_info(rt, game_id, seat)
        pending = rt.games.pending_undo(game_id, reader=seat)
        if not info.get("email") or info.get("muted") or not pending \
                or pending["version"] != version:
            return None  # already settled
        table = rt.games.load(game_id)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "asker": table.names[pending["seat"]], "names": table.names,
            "move": pending.get("move"), "move_version": pending["to"] + 1}
        return _render(rt, "undo", f"{ctx['asker']} asks to take back a move in "
                       f"{table.game.name}", info["email"], f"undo:{game_id}:{version}:{seat}",
                       ctx, ctx["mute_url"], mail_picture(rt.games, table, seat))

    def done() -> None:
        notice_done(rt, game_id, f"undo:{version}:{seat}")

    return _send_once(rt, marker, build, done)


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
        info = _seat_info(rt, game_id, seat)
        table = rt.games.load(game_id)
        vote = rt.games.latest_vote(game_id)
        if not info.get("email") or info.get("muted") or table.ended or vote is None \
                or vote.version != version or seat in vote.answers \
                or vote.status(vote_time(rt)) != "open":
            return None  # already settled (or answered)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "names": table.names, "proposer": table.names[vote.seat],
            "kind": vote.kind, "what": votes.WHAT[vote.kind],
            "needed": votes.needed(vote.kind, len(table.names)),
            "expires": local_time(vote.expires, info.get("tz"))}
        verb = "abandon" if vote.kind == "abandon" else "end early"
        return _render(rt, "vote", f"{ctx['proposer']} proposes to {verb} "
                       f"{table.game.name}", info["email"], f"vote:{game_id}:{version}:{seat}",
                       ctx, ctx["mute_url"])

    def done() -> None:
        notice_done(rt, game_id, f"vote:{version}:{seat}")

    return _send_once(rt, marker, build, done)


def timed_out_marker(game_id: str, version: int, late: int, seat: int) -> str:
    """The once-marker of the email telling ``seat`` that ``late`` missed a deadline."""
    return key(game_id, f"mailed:timeout:{version}:{late}:{seat}")


def send_timed_out(rt: Runtime, game_id: str, version: int, late: int, seat: int) -> bool:
    """Tell ``seat`` that ``late`` missed the deadline of the turn begun at ``version``."""
    marker = timed_out_marker(game_id, version, late, seat)

    def build() -> Email | None:
        info = _seat_info(rt, game_id, seat)
        if not info.get("email") or info.get("muted"):
            return None
        table = rt.games.load(game_id)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "late": table.names[late], "is_late": late == seat}
        subject = (f"Your deadline passed in {table.game.name}" if late == seat else
                   f"{table.names[late]} missed the deadline in {table.game.name}")
        return _render(rt, "timeout", subject, info["email"],
                       f"timeout:{game_id}:{version}:{late}:{seat}", ctx, ctx["mute_url"])

    return _send_once(rt, marker, build, lambda: None)


def send_ended(rt: Runtime, game_id: str, seat: int) -> bool:
    """Email ``seat`` the final result and the revealed secret; once per game."""
    marker = key(game_id, f"mailed:ended:{seat}")

    def build() -> Email | None:
        info = _seat_info(rt, game_id, seat)
        if not info.get("email") or info.get("muted"):
            return None
        table = rt.games.load(game_id)
        ctx = _common(rt, game_id, seat, info) | {
            "game": table.game, "table": table, "seat": seat, "names": table.names,
            "outcome": table.outcome(), "secret": (table.revealed_secrets or [""])[-1],
            "ended_line": votes.ended_line(table.outcome() or {}, table.names),
            "summary": table.game.summary(table.state, seat),
        }
        return _render(rt, "ended", f"Game over: {table.game.name}", info["email"],
                       f"ended:{game_id}:{seat}", ctx, ctx["mute_url"],
                       mail_picture(rt.games, table, seat))

    def done() -> None:
        for ident in rt.redis.hkeys(key(game_id, "pending")):
            if ident.startswith("ended:") and ident.endswith(f":{seat}"):
                notice_done(rt, game_id, ident)

    return _send_once(rt, marker, build, done)
