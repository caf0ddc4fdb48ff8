"""Which only-moves the service may play for a seat without asking (``forced_move_safe``).

Safe here: ending your turn when nothing else is left to do (``end_turn``), and a
``skip`` or ``done`` that closes an optional step when it is the only choice.
Such a move carries no choice (no parameters) and, tried on a copy of the state, draws
nothing and turns nothing up (the take-back rules' ``reveals`` under the rules version
the game plays): an end of turn that refills a row from a face-down deck, say, is never
played for anyone.
"""

from __future__ import annotations

import copy

from games.protocol import Game, IllegalMove, Move, State
from games.rng import TapeError, TapePlayer

SAFE_TYPES = frozenset({"end_turn", "skip", "done"})


def forced_move_safe(game: Game, state: State, seat: int, move: Move) -> bool:
    """Whether ``move``, ``seat``'s only legal move, may be played for them."""
    if move.get("type") not in SAFE_TYPES or set(move) != {"type"}:
        return False
    after = copy.deepcopy(state)
    try:
        game.apply(after, seat, copy.deepcopy(move), TapePlayer([]))  # any draw raises
    except (IllegalMove, TapeError):
        return False
    return game.reveals(state, after, seat, move) is None
