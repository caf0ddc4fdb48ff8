"""Random legal-move bots finish games at every player count, modules off and all on."""

from __future__ import annotations

import pytest

from games.bots import play_random_game
from games.feudum_guilds import ALL_MODULES, GAME


def _checker(no_leaks):
    def check(state: dict) -> None:
        _check(state, no_leaks)

    return check


def _check(state: dict, no_leaks) -> None:
    GAME.check_invariants(state)
    no_leaks(state)
    for seat in GAME.to_act(state):
        moves = GAME.legal_moves(state, seat)
        assert 0 < len(moves) < 200
        for move in moves[:3]:
            assert GAME.move_label(state, seat, move)


@pytest.mark.soak
@pytest.mark.parametrize("modules", ["none", "all"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_soak_random_bots_finish_games_with_invariants(n: int, modules: str, no_leaks) -> None:
    options = dict(ALL_MODULES) if modules == "all" else {}
    for seed in range(2):
        state, record = play_random_game(GAME, n, 1000 * n + seed, options=options,
                                         max_moves=5000, check=_checker(no_leaks))
        out = GAME.outcome(state)
        assert out is not None and sorted(out["ranking"]) == list(range(n))
        assert state["epoch"] == 5 and len(record.moves) < 5000


@pytest.mark.soak
def test_soak_fixed_length_games_end_after_eight_rounds() -> None:
    for n in (2, 5):
        state, _ = play_random_game(GAME, n, 77 + n, options={"fixed_length": True},
                                    check=GAME.check_invariants, check_fold_every=100)
        assert state["round"] == 8 and state["phase"] == "over"
