"""This process's runtime, and the time by its clock.

A job reloads what it needs through the process's :class:`worker.runtime.Runtime`: the web
app's, or the one `ravenpost worker` built from the environment before it started working
(forked work horses inherit it).  This module holds which one that is, below everything
that uses it (the runtime itself, the queue's inline mode, the clock of quiet hours and
"last seen"), and imports nothing of the worker.

Times of quiet hours, held emails, "last seen" and digests come from :func:`now`, which
tests replace (``monkeypatch.setattr(worker.current, "now", clock)``: a controllable
clock, never sleeps); its callers look it up here each time, so the replacement holds
for all of them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

_runtime: Any = None  # a worker.runtime.Runtime, or None before one is built


def set_runtime(runtime: Any) -> None:
    """Make ``runtime`` (a :class:`worker.runtime.Runtime`, or None) this process's."""
    global _runtime
    _runtime = runtime


def runtime() -> Any:
    """This process's runtime (a :class:`worker.runtime.Runtime`): the web app's, or the
    one `ravenpost worker` built from the environment before it started working (forked
    work horses inherit it)."""
    if _runtime is None:
        raise RuntimeError("this process has no runtime: start workers with `ravenpost "
                           "worker`, which builds it from the environment")
    return _runtime


def now() -> datetime:
    """The current time (UTC) by the same clock as votes (``worker.notify.vote_time``):
    the runtime's ``CLOCK`` setting, else the runtime's own clock where it has one, else
    the system's; tests may also replace this function."""
    try:
        rt = runtime()
    except RuntimeError:  # no runtime in this process (a pure unit test)
        return datetime.now(UTC)
    clock = rt.config.get("CLOCK") or getattr(rt, "now", None)
    return clock() if clock else datetime.now(UTC)
