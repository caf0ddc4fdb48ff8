"""Web hardening: cookies and security headers on every response.

flask-talisman sets the headers (Content-Security-Policy with a per-request nonce,
X-Frame-Options, nosniff, Referrer-Policy, HSTS) and the session cookie flags; one
``after_request`` of ours adds ``Cache-Control: no-store``, which Talisman does not do.

Why these values: emailed links carry tokens in their path, so no page may leak its
address through a Referer or sit in a cache; the one-click move form must not be framed;
the pages need no script or style from anywhere else, and their few inline blocks carry
the request's nonce (``{{ csp_nonce() }}`` in the templates) so that ``'unsafe-inline'``
is never needed.
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_talisman import DENY, SAMEORIGIN, Talisman

CSP: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
NONCE_IN = ["script-src", "style-src"]

# An email's HTML as the outbox shows it (inside an iframe of our own /dev/mail page):
# inline styles as mail clients allow them, nothing else, framable by this site only.
EMAIL_CSP: dict[str, str] = {
    "default-src": "'none'",
    "style-src": "'unsafe-inline'",
    "img-src": "data:",
    "base-uri": "'none'",
    "form-action": "'none'",
    "frame-ancestors": "'self'",
}

HSTS_SECONDS = 365 * 24 * 3600

# Only its per-view decorator is used (it keeps no state of an app); every app gets a
# Talisman of its own in register().
views = Talisman()
email_page = views(content_security_policy=EMAIL_CSP, content_security_policy_nonce_in=[],
                   frame_options=SAMEORIGIN)


def in_production(app: Flask) -> bool:
    return app.config.get("RAVENPOST_ENV") == "production"


def register(app: Flask) -> None:
    """Bind the security headers and cookie settings to ``app``."""
    production = in_production(app)
    # Flask's defaults already hold these keys, so they are set, not setdefault'ed.
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.config["SESSION_COOKIE_SECURE"] = production
    app.extensions["talisman"] = Talisman(
        app,
        # TLS ends at the proxy in front of gunicorn; redirecting here would loop there.
        force_https=False,
        frame_options=DENY,
        content_security_policy=CSP,
        content_security_policy_nonce_in=NONCE_IN,
        referrer_policy="no-referrer",
        # Talisman sends HSTS on HTTPS requests only (or X-Forwarded-Proto: https),
        # which is the only place a browser heeds it.
        strict_transport_security=production,
        strict_transport_security_max_age=HSTS_SECONDS,
        strict_transport_security_include_subdomains=False,
        session_cookie_secure=production,
        session_cookie_http_only=True,
        session_cookie_samesite="Lax",
        x_content_type_options=True,
    )

    @app.after_request
    def no_store(response: Response) -> Response:
        # Pages and JSON carry tokens or a personal view; only static files may be kept.
        if request.endpoint != "static":
            response.headers["Cache-Control"] = "no-store"
        return response
