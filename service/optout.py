"""Opting out from an email's own links: one-click unsubscribe (RFC 8058) and "block this
inviter".  Each link is a signed token naming the player (an opaque id) and what it stops.

``POST /unsubscribe/<token>`` with the body ``List-Unsubscribe=One-Click`` is what a mail
client sends for the ``List-Unsubscribe-Post`` header: it does what the email's link
names at once (an invitation: every invitation; a game's email: that game's emails; the
digest: the digest) and needs no CSRF token, since the signed token itself is the
authority and it works without cookies.  The page (GET) also offers "everything".
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from games.text import T
from service.current import rt
from service.i18n import player_reader
from worker import consent, digest

bp = Blueprint("optout", __name__)

SCOPES = ("game", "invitations", "digest", "everything")


def set_muted(game_id: str, seat: int, muted: bool = True) -> dict:
    """Stop (or start again) every email of ``game_id`` to ``seat``; its seat entry."""
    return consent.set_muted(rt().store, game_id, seat, muted)


def stop(data: dict, what: str) -> None:
    """Stop ``what`` for the token's player (idempotent)."""
    runtime = rt()
    pid = data["p"]
    if what == "game" and isinstance(data.get("g"), str) and data["g"]:
        set_muted(data["g"], int(data.get("s") or 0))
    elif what == "digest":
        digest.set_digest(runtime, pid, None)
    elif what in ("invitations", "everything"):
        consent.opt_out(runtime.redis, pid, what)


@bp.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe(token: str):
    data = rt().links.check_player(token, "unsubscribe")
    player_reader(rt().redis, data.get("p"))
    scope = data.get("what") if data.get("what") in SCOPES else "everything"
    if request.method == "GET":
        return render_template("unsubscribe.html", scope=scope, token=token, done=None)
    if request.form.get("List-Unsubscribe") == "One-Click":
        stop(data, scope)  # RFC 8058: the email's own scope, at once
        return render_template("unsubscribe.html", scope=scope, token=token, done=scope)
    what = request.form.get("what", "")
    if what not in SCOPES or (what == "game" and scope != "game"):
        abort(400, T("Choose what to stop."))
    stop(data, what)
    return render_template("unsubscribe.html", scope=scope, token=token, done=what)


@bp.route("/block/<token>", methods=["GET", "POST"])
def block(token: str):
    """"Block this inviter": no game they create invites this address again."""
    data = rt().links.check_player(token, "block")
    player_reader(rt().redis, data.get("p"))
    if not isinstance(data.get("by"), str) or not data["by"]:
        abort(400, T("This link names no inviter."))
    if request.method == "POST":
        consent.block(rt().redis, data["p"], data["by"])
        return render_template("block.html", token=token, done=True)
    return render_template("block.html", token=token, done=False)
