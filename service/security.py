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

from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_talisman import DENY, SAMEORIGIN, Talisman

from service.hooks import api_too, is_api

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


class PageSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie session, not opened for the JSON API: it authenticates by
    bearer token and never reads or writes a session (no CSRF there either), so an API
    request gets Flask's read-only null session and no cookie is decoded or sent; but for
    ``/api/v1/me``, which a signed-in player's session may also use (SameSite=Lax keeps
    other sites' requests from carrying it)."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if request.path.startswith("/api/") and not request.path.startswith("/api/v1/me"):
            return None  # Flask then uses make_null_session()
        return super().open_session(app, request)


def register(app: Flask) -> None:
    """Bind the security headers and cookie settings to ``app``."""
    production = in_production(app)
    app.session_interface = PageSessions()
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

    _api_headers_made_once(app, app.extensions["talisman"])

    @app.after_request
    def no_store(response: Response) -> Response:
        # Pages and JSON carry tokens or a personal view; only static files may be kept.
        if request.endpoint != "static":
            response.headers["Cache-Control"] = "no-store"
        return response
    api_too(app, no_store)


def _api_headers_made_once(app: Flask, talisman: Talisman) -> None:
    """Talisman's headers on API answers, worked out by Talisman once per endpoint and
    then copied: per request it merges view options, makes a nonce and rebuilds the
    policy text, a tenth of a move's time, for answers that are the same every time
    (JSON runs no inline script, so the API's CSP needs no nonce).  HSTS, which depends
    on the request, is still decided per request by Talisman."""
    hooks = app.after_request_funcs[None]
    at = hooks.index(talisman._set_response_headers)
    # endpoint -> its headers, and their names in lower case (one entry: threads share it)
    made: dict[str | None, tuple[list[tuple[str, str]], frozenset[str]]] = {}

    def headers(response: Response) -> Response:
        if not is_api():
            return talisman._set_response_headers(response)
        entry = made.get(request.endpoint)
        if entry is None:
            scratch = talisman._set_response_headers(Response())
            static = [(name, value) for name, value in scratch.headers.items()
                      if name not in ("Content-Type", "Content-Length",
                                      "Strict-Transport-Security")]
            entry = made[request.endpoint] = (
                static, frozenset(name.lower() for name, _ in static))
        static, names = entry
        if names.isdisjoint(name.lower() for name in response.headers.keys()):
            response.headers.extend(static)  # a third of setting them one by one
        else:  # the view set one of them: Talisman's value replaces it, as before
            for name, value in static:
                response.headers[name] = value
        talisman._set_hsts_headers(response.headers)
        return response

    hooks[at] = api_too(app, headers)
