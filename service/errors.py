"""Errors are handled in one place: JSON under /api, a page for people; never a trace."""

from __future__ import annotations

import logging

import redis
from flask import Flask, jsonify, render_template, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, TooManyRequests

from events.store import ConflictError, UnknownGame
from games.protocol import IllegalMove
from games.text import T
from worker.links import LinkError

log = logging.getLogger(__name__)

# Werkzeug's default texts, said plainly where people meet them.  The messages are
# games.text Texts: English in the API's JSON, the reader's language on an error page.
PLAIN = {
    413: T("The request is larger than this service accepts; nothing was changed."),
    429: T("Too many requests; please wait a little and try again."),
}


class ApiError(Exception):
    """An error with a status and a JSON body of its own."""

    def __init__(self, status: int, error: str, message: str, **extra) -> None:
        super().__init__(message)
        self.status, self.error, self.message, self.extra = status, error, message, extra


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _reply(status: int, error: str, message: str, headers: dict | None = None, **extra):
    if _wants_json():
        return jsonify({"error": error, "message": message, **extra}), status, headers or {}
    return render_template("error.html", status=status, error=error, message=message,
                           extra=extra), status, headers or {}


def _flat(messages, where: str = "") -> list[tuple[str, str]]:
    """Marshmallow's nested messages as (dotted field path, message) pairs."""
    if isinstance(messages, dict):
        return [pair for key, inner in messages.items()
                for pair in _flat(inner, f"{where}.{key}" if where else str(key))]
    if isinstance(messages, list):
        return [pair for inner in messages for pair in _flat(inner, where)]
    return [(where, str(messages))]


def register(app: Flask) -> None:
    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):
        return _reply(exc.status, exc.error, exc.message, **exc.extra)

    @app.errorhandler(ValidationError)
    def bad_input(exc: ValidationError):
        said = "; ".join(f"{where}: {what.rstrip('.')}" if where else what.rstrip(".")
                         for where, what in _flat(exc.messages))
        if len(said) > 500:  # unknown field names come from the request itself
            said = said[:500] + "…"
        return _reply(400, "bad_request", f"The request is malformed: {said}.",
                      fields=exc.messages)

    @app.errorhandler(IllegalMove)
    def illegal(exc: IllegalMove):
        return _reply(422, "illegal_move", exc.reason, reason=exc.reason)

    @app.errorhandler(ConflictError)
    def conflict(exc: ConflictError):
        return _reply(409, "conflict", T("The game has moved on since you looked; "
                                         "here is the current position."),
                      version=exc.version)

    @app.errorhandler(LinkError)
    def bad_link(exc: LinkError):
        return _reply(exc.status, "bad_token", exc.message,
                      **({"revoked": True} if exc.revoked else {}))

    @app.errorhandler(UnknownGame)
    def unknown_game(exc: UnknownGame):
        return _reply(404, "not_found", T("There is no such game."))

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if isinstance(exc, TooManyRequests) and not exc.retry_after:
            from service.limits import retry_after  # a breach found by Flask-Limiter
            exc.retry_after = retry_after() or 60
        # keep what the exception says about itself (e.g. Allow on a 405, Retry-After)
        headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
        description = exc.description or ""
        if description == type(exc).description:  # Werkzeug's generic wording
            description = PLAIN.get(exc.code or 500, description)
        extra = {}
        if isinstance(exc, TooManyRequests) and isinstance(exc.retry_after, int | float):
            extra["retry_after"] = int(exc.retry_after)
        return _reply(exc.code or 500, exc.name.lower().replace(" ", "_"), description, headers,
                      **extra)

    @app.errorhandler(RecursionError)
    def nested_too_deeply(exc: RecursionError):
        # Input nested deeper than Python recurses (a JSON form field, say) trips this
        # before anything is written; the JSON API refuses such bodies earlier.
        log.warning("RecursionError on %s %s: input nested too deeply", request.method,
                    request.path)
        return _reply(400, "bad_request", T("The input is nested too deeply."))

    @app.errorhandler(redis.ConnectionError)
    @app.errorhandler(redis.TimeoutError)
    @app.errorhandler(redis.exceptions.ClusterError)  # a master down, its slots uncovered
    @app.errorhandler(redis.exceptions.TryAgainError)
    @app.errorhandler(redis.exceptions.SlotNotCoveredError)
    def store_away(exc: Exception):
        # Redis restarting (about a second under `ravenpost serve`).  A write whose
        # answer was lost may have landed, so say so rather than "nothing changed";
        # every write carries its expected version, so a retry cannot apply it twice.
        log.warning("Redis unavailable on %s %s: %s", request.method, request.path, exc)
        return _reply(503, "unavailable", T("The game store did not answer. Reload in a "
                                            "moment: the game shows whether your last "
                                            "action was recorded."),
                      {"Retry-After": "2"})

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.path)
        return _reply(500, "internal_error", T("Something went wrong on our side; nothing was "
                                               "changed. Please try again."))
