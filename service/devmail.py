"""/dev/mail: browse the outbox backend's emails, with working links (development only)."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, render_template, request, url_for

from service.auth import admin_session
from service.current import rt
from service.security import email_page

bp = Blueprint("devmail", __name__, url_prefix="/dev/mail")


@bp.before_request
def _private_in_production():
    # The outbox holds every player's links: in production only the admin may read it.
    if rt().config["RAVENPOST_ENV"] == "production" and not admin_session():
        return redirect(url_for("admin.sign_in", next=request.path))
    return None


@bp.get("/")
def index():
    return render_template("devmail/index.html", mails=rt().mail.list(limit=200))


@bp.get("/<mail_id>")
def show(mail_id: str):
    mail = rt().mail.get(mail_id)
    if mail is None:
        abort(404, "No such email in the outbox.")
    return render_template("devmail/show.html", mail=mail)


@bp.get("/<mail_id>/html")
@email_page  # inline styles as in a mail client, no script; framed by /dev/mail/<id> only
def html(mail_id: str):
    mail = rt().mail.get(mail_id)
    if mail is None:
        abort(404, "No such email in the outbox.")
    # The email's HTML was rendered by our own autoescaping templates (its links open a
    # new window: the game's pages refuse to be framed).
    return mail["html"], 200, {"Content-Type": "text/html; charset=utf-8"}
