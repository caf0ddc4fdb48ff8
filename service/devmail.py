"""/dev/mail: browse the outbox backend's emails, with working links (development only)."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from service.current import rt

bp = Blueprint("devmail", __name__, url_prefix="/dev/mail")


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
def html(mail_id: str):
    mail = rt().mail.get(mail_id)
    if mail is None:
        abort(404, "No such email in the outbox.")
    # The email's HTML was rendered by our own autoescaping templates.
    return mail["html"], 200, {"Content-Type": "text/html; charset=utf-8",
                               "Content-Security-Policy": "default-src 'none'; "
                               "style-src 'unsafe-inline'"}
