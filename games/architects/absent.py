"""Architects of the West Kingdom when a player does not answer (time-out policies).

The rules' pass (``pass``) exists only when a worker has nowhere legal to go (RULES.md,
"A turn"), so the "skip" policy plays it then and waits otherwise.  The stand-in plays
the first legal move: the first card of a draft pool, else the first placement in the
rules' order (or the recall, when that comes first); it chooses nothing from hidden
information it could benefit from.
"""

from __future__ import annotations

from games.protocol import Move

PASS: Move = {"type": "pass"}


def pass_move(moves: list[Move]) -> Move | None:
    """The rules' pass if it is among the seat's legal ``moves``."""
    return dict(PASS) if PASS in moves else None
