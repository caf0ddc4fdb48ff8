"""The app-wide request hooks, run for the JSON API only where it needs them.

Extensions and the service register hooks for every request, and most of them serve
pages only: Talisman's CSP nonce, Flask-Limiter's walk over the lobby's limits and its
rate-limit headers, the forms' CSRF check.  Flask calls each hook through
``ensure_sync`` (an inspection per hook and request), so the nine hooks were a third of
an API request's time in the app (40 µs of a 115-µs trivial JSON route, measured
in-process).  :func:`split_by_lane` therefore leaves one hook per phase, which runs every
hook for a page and only those marked :func:`api_too` for the API, in Flask's order.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, request

F = TypeVar("F", bound=Callable[..., Any])
_API_HOOKS = "ravenpost_api_hooks"  # app.extensions: the app-wide hooks the API runs too


def is_api() -> bool:
    """The request is one of the JSON API's (bearer tokens; no page, form or cookie)."""
    return request.path.startswith("/api/")


def api_too(app: Flask, hook: F) -> F:
    """Mark ``app``'s app-wide hook ``hook`` as one the JSON API needs too (see
    :func:`split_by_lane`)."""
    app.extensions.setdefault(_API_HOOKS, []).append(hook)
    return hook


def split_by_lane(app: Flask) -> None:
    """Replace ``app``'s app-wide before, after and teardown hooks (those registered so
    far; call it once every extension is bound) by one hook per phase that runs all of
    them for pages and only the :func:`api_too` ones for the JSON API."""
    marked = app.extensions.get(_API_HOOKS, [])
    for funcs, make in ((app.before_request_funcs, _before), (app.after_request_funcs, _after),
                        (app.teardown_request_funcs, _teardown)):
        hooks = funcs.get(None)
        if not hooks:
            continue
        if any(inspect.iscoroutinefunction(hook) for hook in hooks):
            continue  # an async hook needs Flask's ensure_sync: leave the phase as it is
        # == rather than identity: a bound method is made anew at each attribute access
        funcs[None] = [make(list(hooks), [h for h in hooks if any(h == m for m in marked)])]


def _before(pages: list[Callable[[], Any]], api: list[Callable[[], Any]]):
    def before_request() -> Any:
        for hook in api if is_api() else pages:
            answer = hook()
            if answer is not None:  # as Flask does: the first answer ends the request
                return answer
        return None
    return before_request


def _after(pages: list[Callable[[Any], Any]], api: list[Callable[[Any], Any]]):
    def after_request(response: Any) -> Any:
        for hook in reversed(api if is_api() else pages):  # Flask runs them last first
            response = hook(response)
        return response
    return after_request


def _teardown(pages: list[Callable[[Any], Any]], api: list[Callable[[Any], Any]]):
    def teardown_request(exc: BaseException | None) -> None:
        for hook in reversed(api if is_api() else pages):
            hook(exc)
    return teardown_request
