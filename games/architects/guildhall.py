"""The Guildhall: spaces by player count, its cull and Reset spaces, and the end trigger."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]
ROWS = 4


def per_row(n_players: int) -> int:
    """Spaces per row: players + 1 (solo uses the 2-player layout)."""
    return max(2, n_players) + 1


def size(n_players: int) -> int:
    """Constructions that trigger the end: 12 / 12 / 16 / 20 / 24."""
    return ROWS * per_row(n_players)


def cull_spaces(n_players: int) -> set[int]:
    """1-based fill indices of the apprentice-cull spaces (3rd space of rows 1-3)."""
    row = per_row(n_players)
    return {r * row + 3 for r in range(3)}


def reset_spaces(n_players: int) -> set[int]:
    """1-based fill indices that trigger a Black Market Reset (1st space of rows 3-4)."""
    row = per_row(n_players)
    return {2 * row + 1, 3 * row + 1}


def open_spaces(state: State) -> int:
    """Empty Guildhall spaces left."""
    return state["guildhall_size"] - len(state["guildhall"])


def may_place(state: State) -> bool:
    """A space is free, or the final round lets Workers go to the side."""
    return open_spaces(state) > 0 or state["final_turns"] is not None
