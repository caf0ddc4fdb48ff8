"""The player's pages: email action links (``/m/<token>``) and the personal game page.

A GET never changes anything (mail scanners open links before people do); a POST with
the form's move and expected version applies it.  One-shot action links are burned by
the POST that uses them, and given back if the move is refused, so a refused click can
be corrected from the same email.
"""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, url_for

from events import history
from events.audit import cached_audit
from events.store import ConflictError
from games.protocol import IllegalMove
from service.current import after_append, rt
from service.links import Link, LinkError, burn, unburn

bp = Blueprint("play", __name__)


def _page(link: Link, token: str, post_url: str, *, status: int = 200, error: str | None = None,
          notice: str | None = None):
    runtime = rt()
    table = runtime.games.load(link.game_id)
    game = table.game
    to_act = table.to_act()
    moves = game.legal_moves(table.state, link.seat) if link.seat in to_act else []
    play_token = runtime.links.make(link.game_id, link.seat, "play")
    choices = [{"value": json.dumps(m, sort_keys=True), "type": m.get("type", ""),
                "label": game.move_label(table.state, link.seat, m)} for m in moves]
    return render_template(
        "game.html", table=table, game=game, seat=link.seat, names=table.names,
        view=game.view(table.state, link.seat), choices=choices, to_act=to_act,
        outcome=table.outcome() if table.ended else None, post_url=post_url, error=error,
        notice=notice, history=history.lines(runtime.store, link.game_id, game, table.names,
                                             link.seat, last=30),
        rules=game.rules_summary(),
        play_token=play_token, play_url=url_for("play.page", token=play_token),
        undo=runtime.games.pending_undo(link.game_id),
        audit=cached_audit(runtime.store, link.game_id) if table.ended else None,
        can_undo=not table.ended and runtime.games.last_move_by(link.game_id, link.seat)
        is not None,
        api_token=runtime.links.make(link.game_id, link.seat, "api"),
    ), status


def _apply(link: Link):
    """Apply the posted move for ``link``'s seat; the event's version."""
    raw, expected = request.form.get("move", ""), request.form.get("expected_version", "")
    try:
        move = json.loads(raw)
        expected_version = int(expected)
    except ValueError:
        raise IllegalMove("Choose one of the moves listed.") from None
    if not isinstance(move, dict):
        raise IllegalMove("Choose one of the moves listed.")
    event = rt().games.play(link.game_id, link.seat, move, expected_version)
    after_append(link.game_id, event.version)
    return event


@bp.get("/m/<token>")
def confirm(token: str):
    link = rt().links.check(token, "act")
    return _page(link, token, url_for("play.act", token=token))


@bp.post("/m/<token>")
def act(token: str):
    runtime = rt()
    link = runtime.links.check(token, "act")
    if not burn(runtime.redis, link, runtime.config["LINK_MAX_AGE"]):
        raise LinkError("This link was already used. Your game page has the current "
                        "position: use the link at the bottom of your last email.", 409)
    try:
        _apply(link)
    except (IllegalMove, ConflictError) as exc:
        unburn(runtime.redis, link)
        return _refused(link, token, url_for("play.act", token=token), exc)
    play_token = runtime.links.make(link.game_id, link.seat, "play")
    return redirect(url_for("play.page", token=play_token, done=1), 303)


@bp.get("/play/<token>")
def page(token: str):
    link = rt().links.check(token, "play")
    notice = "Your move was recorded." if request.args.get("done") else None
    return _page(link, token, url_for("play.move", token=token), notice=notice)


@bp.post("/play/<token>")
def move(token: str):
    link = rt().links.check(token, "play")
    try:
        _apply(link)
    except (IllegalMove, ConflictError) as exc:
        return _refused(link, token, url_for("play.move", token=token), exc)
    return redirect(url_for("play.page", token=token, done=1), 303)


def _refused(link: Link, token: str, post_url: str, exc: Exception):
    if isinstance(exc, ConflictError):
        return _page(link, token, post_url, status=409,
                     error="The game moved on since you loaded this page; "
                           "here is the current position.")
    return _page(link, token, post_url, status=422, error=f"Not allowed: {exc.reason}")


@bp.post("/play/<token>/undo")
def request_undo(token: str):
    link = rt().links.check(token, "play")
    try:
        event = rt().games.request_undo(link.game_id, link.seat)
    except IllegalMove as exc:
        return _refused(link, token, url_for("play.move", token=token), exc)
    after_append(link.game_id, event.version)
    return redirect(url_for("play.page", token=token), 303)


@bp.post("/play/<token>/undo/answer")
def answer_undo(token: str):
    link = rt().links.check(token, "play")
    try:
        event = rt().games.answer_undo(link.game_id, link.seat,
                                       request.form.get("accept") == "1")
    except IllegalMove as exc:
        return _refused(link, token, url_for("play.move", token=token), exc)
    after_append(link.game_id, event.version)
    return redirect(url_for("play.page", token=token), 303)


@bp.route("/mute/<token>", methods=["GET", "POST"])
def mute(token: str):
    runtime = rt()
    link = runtime.links.check(token, "mute")
    seats = runtime.store.get_json(link.game_id, "seats")
    if request.method == "POST":
        seats[link.seat]["muted"] = request.form.get("muted") == "1"
        runtime.store.put_json(link.game_id, "seats", seats)
    return render_template("mute.html", seat=seats[link.seat], token=token,
                           game_id=link.game_id)
