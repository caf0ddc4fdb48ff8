"""The stack of decisions waiting inside a turn (choose a resource, keep a treasure ...)."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def push(state: State, *entries: dict[str, Any]) -> None:
    """Queue decisions so that the first one given is resolved first."""
    state["pending"].extend(reversed(entries))


def top(state: State) -> dict[str, Any] | None:
    """The decision being resolved now, if any."""
    return state["pending"][-1] if state["pending"] else None


def pop(state: State) -> dict[str, Any]:
    """Finish the current decision."""
    return state["pending"].pop()
