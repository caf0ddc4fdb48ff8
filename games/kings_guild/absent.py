"""The King's Guild when a player does not answer (the time-out policies).

No pass: the rules require an action each turn (RULES.md, "A turn"), so the "skip"
policy waits instead.  The stand-in plays the shortest turn the rules allow: it ends
what it can end (``end_turn``, then ``done``) and otherwise takes the first legal
move.  It draws nothing on purpose and chooses nothing from hidden information (a
choice among cards only the seat sees is made by position, the first one).
"""

from __future__ import annotations

from games.protocol import IllegalMove, Move, State

ENDING = ("end_turn", "done")  # in order of preference: finish the turn, then a step


def stand_in_move(moves: list[Move]) -> Move:
    """The stand-in's move among ``moves`` (the seat's legal moves, in the rules' order)."""
    if not moves:
        raise IllegalMove("no legal move to play")
    for kind in ENDING:
        for move in moves:
            if move["type"] == kind:
                return move
    return moves[0]


def pass_move(state: State, seat: int) -> Move | None:
    """None: the rules have no pass."""
    return None
