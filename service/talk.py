"""Table talk: messages posted from the game page and the API (see events.talk).

Every way in goes through :func:`events.talk.say` (email replies too, from the worker):
the text is cleaned and judged the same everywhere, and counted against the seat's
``TALK_LIMIT_PER_SEAT`` (service.limits) only once it is acceptable, so a refused message
costs nothing.  A message appends a passive ``Said`` event: no email is sent for it, and
a move form or an act link from before it stays valid.  The admin hides one from the
admin game page (service.admin's hide route).

Pages show messages as plain text, autoescaped and never linkified: a link in a message
is shown, not clickable.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Blueprint, g, jsonify, make_response, redirect, request, url_for

from events import talk
from events.picture import seat_clock
from events.replay import Table
from events.store import UnknownGame
from games.protocol import IllegalMove
from games.text import T
from service import limits, schemas
from service.auth import player
from service.bodies import body
from service.current import after_append, rt
from service.errors import ApiError
from service.i18n import local_datetime
from service.play import _page, verify_seat
from worker.links import Link, check_current

bp = Blueprint("talk", __name__)

SHOWN = 50  # latest messages on the game page (every one is in the history too)
_MESSAGE_IN = schemas.MessageIn()


@bp.app_template_global("table_talk")
def table_talk(table: Table, seat: int) -> dict:
    """What the personal page shows of the table talk: the latest ``SHOWN`` messages
    with their times in ``seat``'s time zone, how many earlier ones there are, and the
    text of a message just refused (so it is not lost)."""
    found = talk.messages(rt().store, table.game_id)
    zone = _zone(seat_clock(rt().games, table.game_id, seat, set())[1])
    shown = found[-SHOWN:]
    return {"messages": [{"message": m, "when": _when(m.at, zone)} for m in shown],
            "older": len(found) - len(shown), "max_chars": talk.MAX_CHARS,
            "draft": g.get("talk_draft", "")}


def _zone(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _when(iso: str, zone: ZoneInfo) -> str:
    """A message's time, short, in the page's language: ``3 Mar 14:05 CET``."""
    try:
        datetime.fromisoformat(iso)
    except ValueError:
        return ""
    return local_datetime(iso, zone.key, "short") or ""


@bp.post("/play/<token>/messages")
def post_page_message(token: str):
    """The chat box of the personal page: 303 back to the page (the message is shown
    there); a refused message shows the page again with the reason and the text kept
    (400; 429 past the seat's limit), and nothing is appended."""
    runtime = rt()
    link = check_current(runtime.redis, runtime.links, token, "play")
    text = request.form.get("text", "")
    try:
        talk.clean(text)  # judged before it counts against the limit
        limits.take_message(link.game_id, link.seat)
        event = talk.say(runtime.games, link.game_id, link.seat, text, via="page")
    except IllegalMove as exc:
        return _again(link, token, text, 400, T("Your message was not sent: %(reason)s",
                                                 reason=exc.reason))
    except limits.Limited as exc:
        reply = _again(link, token, text, 429, str(exc.description))
        reply.headers["Retry-After"] = str(exc.retry_after)
        return reply
    after_append(link.game_id, event.version)
    verify_seat(link)
    return redirect(url_for("play.page", token=token) + "#talk", 303)


def _again(link: Link, token: str, text: str, status: int, error: str):
    """The personal page with ``error``, the refused ``text`` back in the chat box."""
    g.talk_draft = text[:talk.MAX_CHARS * 4]  # enough to edit; never a huge echo
    return make_response(_page(link, url_for("play.move", token=token), status=status,
                               error=error))


@bp.post("/api/v1/games/<game_id>/messages")
def api_post_message(game_id: str):
    """Post a message as the token's seat: 201 with the message; 400 for a malformed
    body, 422 for an empty or too long text, 429 past the seat's limit."""
    link = player(game_id)
    data = body(_MESSAGE_IN)
    talk.clean(data["text"])  # 422 before it counts against the limit
    limits.take_message(game_id, link.seat)
    runtime = rt()
    event = talk.say(runtime.games, game_id, link.seat, data["text"], via="api")
    after_append(game_id, event.version)
    message = talk.message_of(event, runtime.games.load(game_id).names)
    return jsonify(message.public()), 201


@bp.get("/api/v1/games/<game_id>/messages")
def api_messages(game_id: str):
    """The table's messages, oldest first (``?after=<version>``: only later ones);
    hidden ones with ``hidden: true`` and ``text: null``."""
    player(game_id)
    raw = request.args.get("after", "0")
    if not raw.isdigit() or len(raw) > 16:
        raise ApiError(400, "bad_request", "after must be a whole number (a version).")
    if not rt().store.exists(game_id):
        raise UnknownGame(game_id)
    found = talk.messages(rt().store, game_id, after=int(raw))
    return jsonify({"messages": [m.public() for m in found]})
