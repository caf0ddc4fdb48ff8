"""The bot policies behind the strategy notes in RULES.md (games/feudum_guilds/strategy.py)."""

from __future__ import annotations

import copy
import random

from games.feudum_guilds import GAME
from games.feudum_guilds.strategy import (
    experiment,
    free_master_guilds,
    greedy_move,
    master_seat_move,
    play,
)
from games.rng import RecordingRandom


class _TwoMoves:
    """A one-seat stand-in game: ``score`` gains 1 vp, each ``wait`` gains nothing."""

    def legal_moves(self, state, seat):
        return [{"type": "wait", "i": i} for i in range(3)] + [{"type": "score"}]

    def apply(self, state, seat, move, rng):
        state["ps"][seat]["vp"] += move["type"] == "score"


def _at_second_starting_pawn():
    state = GAME.setup(["A", "B", "C"], GAME.normalize_options({}, 3), RecordingRandom(3))
    rng = RecordingRandom(4)
    while state["stack"][-1]["kind"] == "setup_goods":
        seat = state["stack"][-1]["seat"]
        GAME.apply(state, seat, GAME.legal_moves(state, seat)[0], rng)
    first = state["stack"][-1]["seat"]
    GAME.apply(state, first, {"type": "start_pawn", "guild": "farmer"}, rng)
    return state, state["stack"][-1]["seat"]


def test_greedy_bot_takes_the_move_that_scores_now_and_changes_nothing():
    state = {"stack": [], "ps": [{"vp": 0}]}
    for seed in range(5):
        assert greedy_move(_TwoMoves(), state, 0, random.Random(seed)) == {"type": "score"}
    assert state == {"stack": [], "ps": [{"vp": 0}]}


def test_greedy_bot_breaks_ties_by_its_seeded_chooser():
    state, seat = _at_second_starting_pawn()
    before = copy.deepcopy(state)
    picks = [greedy_move(GAME, state, seat, random.Random(s)) for s in range(12)]
    assert picks == [greedy_move(GAME, state, seat, random.Random(s)) for s in range(12)]
    assert len({m["guild"] for m in picks}) > 1 and state == before


def test_master_seat_bot_puts_pawns_only_where_a_master_seat_is_free():
    state, seat = _at_second_starting_pawn()
    assert "farmer" not in free_master_guilds(state, seat)
    for s in range(12):
        move = master_seat_move(GAME, state, seat, random.Random(s))
        assert move["type"] == "start_pawn" and move["guild"] != "farmer"


def test_bot_games_finish_and_repeat_from_their_seed():
    first = play(GAME, ["greedy", "random", "master_seat"], seed=5)
    assert play(GAME, ["greedy", "random", "master_seat"], seed=5) == first
    assert len(first.scores) == 3 and first.winners and first.dawn_vp > 0
    assert sum(first.dawn_vp_by_seat) == first.dawn_vp


def test_the_experiment_reports_the_figures_of_the_strategy_notes():
    out = experiment(GAME, ["greedy", "random", "random"], n_games=3, seed=1)
    assert 0 < out["dawn_share_of_all_vp"] < 1 and out["pulls_per_game"] >= 0
    assert abs(out["win_rate_per_seat"]["greedy"] + 2 * out["win_rate_per_seat"]["random"]
               - 1) < 1e-2
