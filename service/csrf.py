"""CSRF protection for the HTML forms: a random token in the signed session cookie."""

from __future__ import annotations

import secrets

from flask import Flask, abort, request, session

from games.text import T

FIELD = "csrf_token"


def token() -> str:
    """The session's CSRF token (made on first use)."""
    if FIELD not in session:
        session[FIELD] = secrets.token_urlsafe(24)
    return session[FIELD]


def register(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = token

    @app.before_request
    def check() -> None:
        # The JSON API authenticates with bearer tokens, not cookies: no CSRF there; nor
        # on a one-click unsubscribe (RFC 8058), which a mail client posts without
        # cookies and whose signed token is the authority; nor on inbound mail, which a
        # mail service posts, authenticated by INBOUND_SECRET (service.inbound).
        if request.method != "POST" or request.path.startswith(
                ("/api/", "/unsubscribe/", "/inbound/")):
            return
        sent = request.form.get(FIELD, "")
        from service.auth import same_secret
        if not same_secret(sent, session.get(FIELD, "")):
            abort(400, T("The form has expired or did not come from this site; "
                         "reload the page and try again."))
