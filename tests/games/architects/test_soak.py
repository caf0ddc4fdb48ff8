"""Random legal-move bots finish games at every player count, invariants holding."""

from __future__ import annotations

import json

import pytest

from games.architects import GAME
from games.bots import play_random_game

HIDDEN_KEYS = ("hand", "pools")


_calls = [0]


def _check(state: dict) -> None:
    GAME.check_invariants(state)
    _calls[0] += 1
    if _calls[0] % 4:
        return
    for seat in [None, *range(state["n"])]:
        view = GAME.view(state, seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert isinstance(view["deck"], int) and isinstance(view["app_deck"], int)
        for i, pl in enumerate(view["players"]):
            if i != seat:
                assert pl["hand"] == []
        if view["draft"] is not None:
            for i, pool in enumerate(view["draft"]["pools"]):
                assert i == seat or isinstance(pool, int)
        pend = view["pending"]
        if pend and pend["kind"] == "keep" and seat != state["current"]:
            assert isinstance(pend["cards"], int)
    for seat in GAME.to_act(state):
        assert len(GAME.legal_moves(state, seat)) < 200


@pytest.mark.soak
@pytest.mark.parametrize("variable_setup", [False, True])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_soak_random_bots_finish(n: int, variable_setup: bool) -> None:
    for seed in range(2):
        state, record = play_random_game(
            GAME, n, seed=1000 * n + seed, options={"variable_setup": variable_setup},
            check=_check)
        result = GAME.outcome(state)
        assert result is not None and len(result["scores"]) == len(state["players"])
        assert state["turns"] < state["turn_limit"], "safety limit reached"


@pytest.mark.soak
@pytest.mark.parametrize("options", [{"bot_opponent": True}, {"promos": True},
                                     {"bot_opponent": True, "solo_level": "helena",
                                      "variable_setup": True}])
def test_soak_variants_finish(options: dict) -> None:
    for seed in range(2):
        state, _ = play_random_game(GAME, 2, seed=seed, options=options, check=_check)
        assert GAME.outcome(state) is not None


@pytest.mark.soak
def test_soak_solo_helena_finishes() -> None:
    for seed in range(3):
        state, _ = play_random_game(GAME, 1, seed=seed, options={"solo_level": "helena"},
                                    check=_check)
        assert "automaton" in GAME.outcome(state)
