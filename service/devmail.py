"""/dev/mail: browse the outbox backend's emails, with working links (development only).

An email with a Reply-To (a turn email) has a Reply box: it sends a reply as a mail
client would, over SMTP to the receiver of the running ``ravenpost serve``
(127.0.0.1:``INBOUND_SMTP_PORT``, see service.smtp_receiver), so play by reply can be
tried without any mail service.
"""

from __future__ import annotations

import re
import smtplib
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_talisman import SAMEORIGIN

from games.text import T
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


SMTP_TIMEOUT = 10  # seconds to reach the receiver and hand it the reply


@bp.get("/")
def index():
    notice = T("Your reply was handed to the SMTP receiver; the worker answers it "
               "shortly.") if request.args.get("replied") else None
    return render_template("devmail/index.html", mails=rt().mail.list(limit=200),
                           notice=notice)


@bp.get("/<mail_id>")
def show(mail_id: str):
    mail = _mail(mail_id)
    return render_template("devmail/show.html", mail=mail, reply_to=header(mail, "Reply-To"))


@bp.post("/<mail_id>/reply")
def reply(mail_id: str):
    """Send the typed reply to the email's Reply-To through the local SMTP receiver."""
    mail = _mail(mail_id)
    reply_to = header(mail, "Reply-To")
    if not reply_to:
        abort(404, T("That email has no Reply-To: there is nothing to reply to."))
    text = request.form.get("text", "").replace("\r\n", "\n").strip()
    if not text:
        return _show(mail, reply_to, T("Type your reply first; nothing was sent."), text, 400)
    from service.smtp_receiver import port_of
    try:
        port = port_of(rt().config)
        message = build_reply(mail, reply_to, text, rt().now())
    except ValueError as exc:  # a bad port setting, or a header that cannot be written
        return _show(mail, reply_to, T("The reply could not be sent: %(reason)s.",
                                        reason=str(exc)), text, 400)
    if not port:
        return _show(mail, reply_to, T("The SMTP receiver is off (INBOUND_SMTP_PORT is "
                                       "0); nothing was sent."), text, 200)
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=SMTP_TIMEOUT) as smtp:
            smtp.send_message(message, from_addr=parseaddr(mail["to"])[1],
                              to_addrs=[parseaddr(reply_to)[1]])
    except (OSError, smtplib.SMTPException) as exc:
        # 200, not 5xx: the page itself works; what is missing is `ravenpost serve`.
        said = T("The SMTP receiver at 127.0.0.1:%(port)s could not take the reply "
                 "(%(reason)s). It runs under `ravenpost serve` (--smtp-port); nothing "
                 "was sent.", port=port, reason=_reason(exc))
        return _show(mail, reply_to, said, text, 200)
    return redirect(url_for("devmail.index", replied=1))


def header(mail: dict[str, Any], name: str) -> str | None:
    """The value of header ``name`` (any case) among a stored email's headers."""
    for key, value in (mail.get("headers") or {}).items():
        if key.lower() == name.lower():
            return value
    return None


def build_reply(mail: dict[str, Any], reply_to: str, text: str, now: datetime) -> EmailMessage:
    """A plain-text reply to a stored email, as a mail client writes one: the typed text,
    then the original quoted below an attribution line.  The outbox keeps no Message-ID,
    so the original's stands in as ``<outbox-<id>@<INBOUND_DOMAIN>>`` (or the email's own,
    if it has one)."""
    original_id = header(mail, "Message-ID") or \
        f"<outbox-{mail['id']}@{rt().config['INBOUND_DOMAIN']}>"
    subject = mail.get("subject") or ""
    sender = parseaddr(mail["to"])[1]
    message = EmailMessage()
    message["From"] = mail["to"]
    message["To"] = reply_to
    message["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    message["Date"] = format_datetime(now.astimezone(UTC))
    message["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2] or "localhost")
    message["In-Reply-To"] = original_id
    message["References"] = original_id
    quoted = "\n".join(f"> {line}" if line else ">"
                       for line in (mail.get("text") or "").splitlines())
    message.set_content(f"{text}\n\nOn {_when(mail.get('at'))}, Ravenpost wrote:\n{quoted}\n")
    return message


def _when(at: str | None) -> str:
    """The original's date as an attribution line says it."""
    try:
        return format_datetime(datetime.fromisoformat(at or "").astimezone(UTC))
    except ValueError:
        return at or "an earlier date"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return T("nothing listens there")
    if isinstance(exc, smtplib.SMTPResponseException):
        return T("it answered %(code)s %(error)s", code=exc.smtp_code,
                 error=exc.smtp_error.decode(errors="replace"))
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return T("it refused the Reply-To address")
    return str(exc) or type(exc).__name__


def _mail(mail_id: str) -> dict[str, Any]:
    mail = rt().mail.get(mail_id)
    if mail is None:
        abort(404, T("No such email in the outbox."))
    return mail


def _show(mail: dict[str, Any], reply_to: str, error: str, text: str, status: int):
    return render_template("devmail/show.html", mail=mail, reply_to=reply_to, error=error,
                           draft=text), status


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
        abort(404, T("No such email in the outbox."))
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
        abort(404, T("No such image in that email."))
    return image.data, 200, {"Content-Type": image.mime_type,
                             "Content-Disposition": f'inline; filename="{image.filename}"'}
