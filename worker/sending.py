"""Sending an email once: the lease, the marker, and the email made from its templates.

"Once" is kept by a per-notice marker (``sent``, ``rejected`` or ``skipped``) and a lease
``<marker>:lease`` held while sending (see :mod:`worker.lease`: ``LEASE_SECONDS``,
renewed while a send runs long).  A retried or duplicated job finds the marker and stops,
or finds the lease and leaves the mail to its holder; a job that crashed mid-send stops
renewing its lease, which is gone ``LEASE_SECONDS`` later, and the next sweep sends the
mail.  The one duplicate left: the provider accepted the mail and the worker died (or
Redis stayed away longer than the lease) before ``sent`` was written.

Markers expire after ``MARKER_SECONDS``: a job can only ask for the same mail again while
its notice is pending (at most ``notices.NOTICE_MAX_PENDING``) or within a sweep of it
being sent, so a marker older than that guards nothing.

Every email carries one-click unsubscribe as RFC 8058 describes: ``List-Unsubscribe``
with the https link of its unsubscribe page and ``List-Unsubscribe-Post``.
"""

from __future__ import annotations

import logging
import time

import redis

from worker.i18n import DEFAULT, email_env, translate
from worker.inbound_mail import REPLY_MARKER  # an answerable email's first line
from worker.lease import lease
from worker.mail import Email, MailError
from worker.notices import NOTICE_MAX_PENDING
from worker.picture_mail import MailPicture
from worker.runtime import Runtime

log = logging.getLogger(__name__)

LEASE_SECONDS = 15  # a crashed send frees its mail this long after its last renewal
MARKER_SECONDS = int(NOTICE_MAX_PENDING.total_seconds()) + 24 * 3600
DONE = ("sent", "rejected", "skipped")  # skipped: see worker.held


def send_once(rt: Runtime, marker: str, build, done) -> bool:
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
            mark(rt, marker, "rejected")
            done()
            return False
        mark(rt, marker, "sent")
    done()
    return email is not None


MARK_TRIES = 8


def mark(rt: Runtime, marker: str, value: str) -> None:
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


def render(rt: Runtime, name: str, subject: str, to: str, mail_key: str, context: dict,
           unsubscribe_url: str, board: MailPicture | None = None,
           reply_to: str | None = None, headers: dict[str, str] | None = None,
           language: str = DEFAULT) -> Email:
    """The email from its two templates, in the reader's ``language`` (its subject is
    the caller's, said in that language already: ``worker.i18n.gettext``); ``board``
    (the picture) is shown inline; ``unsubscribe_url``: its one-click unsubscribe link
    (RFC 8058); ``reply_to``: the address a reply goes to (a seat's turn: see
    worker.replies), if any; ``headers``: more headers (an answer's In-Reply-To).

    The templates are rendered by :func:`worker.i18n.email_env` of the language (one
    compiled set per language and process); a game's Text in the context, printed or
    filled into a message, is said in that language."""
    env = email_env(language)
    context = context | {"board": board, "reply_marker": REPLY_MARKER if reply_to else None,
                         "language": language}
    text = env.get_template(f"email/{name}.txt").render(**context)
    html = env.get_template(f"email/{name}.html").render(**context)
    headers = {**(headers or {}), "List-Unsubscribe": f"<{unsubscribe_url}>",
               "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
    if reply_to:
        headers["Reply-To"] = reply_to
    return Email(to=to, subject=str(translate(subject, language)), text=text, html=html,
                 key=mail_key, headers=headers, inline=(board.image,) if board else ())
