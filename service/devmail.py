"""/dev/mail: browse the outbox backend's emails, with working links (development only)."""

from __future__ import annotations

import re

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_talisman import SAMEORIGIN

from service.auth import admin_session
from service.current import rt
from service.security import EMAIL_CSP, views

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


# An email's HTML as a mail client shows it: inline styles, no script, framed by
# /dev/mail/<id> only; its inline images come from this site (see ``inline`` below).
email_with_images = views(content_security_policy={**EMAIL_CSP, "img-src": "'self' data:"},
                          content_security_policy_nonce_in=[], frame_options=SAMEORIGIN)

_CID = re.compile(r'(\bsrc=")cid:([^"<>]+)(")')


@bp.get("/<mail_id>/html")
@email_with_images
def html(mail_id: str):
    mail = rt().mail.get(mail_id)
    if mail is None:
        abort(404, "No such email in the outbox.")
    # The email's HTML was rendered by our own autoescaping templates (its links open a
    # new window: the game's pages refuse to be framed).  A mail client finds cid:
    # images among the email's parts; a browser needs an address for each.
    known = {i["cid"] for i in mail["inline"]}
    body = _CID.sub(lambda m: m[1] + url_for("devmail.inline", mail_id=mail_id, cid=m[2]) + m[3]
                    if m[2] in known else m[0], mail["html"])
    return body, 200, {"Content-Type": "text/html; charset=utf-8"}


@bp.get("/<mail_id>/inline/<cid>")
def inline(mail_id: str, cid: str):
    """One inline image of a stored email (the picture of a turn email)."""
    image = rt().mail.inline_image(mail_id, cid)
    if image is None:
        abort(404, "No such image in that email.")
    return image.data, 200, {"Content-Type": image.mime_type,
                             "Content-Disposition": f'inline; filename="{image.filename}"'}
