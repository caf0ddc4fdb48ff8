"""What each seat may see, log lines, move labels and the email summary."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]


def view(state: State, seat: int | None) -> dict[str, Any]:
    return {}


def describe(event: dict[str, Any], seat: int | None) -> str:
    return ""


def move_label(state: State, seat: int, move: dict) -> str:
    return str(move)


def summary(state: State, seat: int | None) -> str:
    return ""
