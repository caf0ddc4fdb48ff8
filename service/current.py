"""Access to this app's runtime from inside a request."""

from __future__ import annotations

from flask import current_app

from worker.runtime import Runtime


def rt() -> Runtime:
    return current_app.extensions["ravenpost"]


def after_append(game_id: str, version: int, decided: object = None) -> None:
    """Hand the new event to the worker (the sweep catches it if this fails);
    ``decided``: see :func:`worker.jobs.request_projection`."""
    from worker import jobs
    try:
        jobs.request_projection(rt().enqueuer, game_id, version, decided)
    except Exception:  # the move is safe in the stream; the sweep will project it
        current_app.logger.exception("could not enqueue projection of %s", game_id)
