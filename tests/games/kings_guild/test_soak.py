"""Random legal-move bots finish games at every player count while invariants hold."""

from __future__ import annotations

import json
import re

import pytest

from games.bots import play_random_game
from games.kings_guild import GAME

CARD_ID = re.compile(r'"(t\d+_\d+)"')


def _checker(state):
    """Invariants after every move; no view shows another seat's hand, a deck card or a
    sealed bid: checked for the spectator and every seat to act after every move, and for
    every seat after every 7th move (views are the expensive part of the soak)."""
    GAME.check_invariants(state)
    _checker.calls = getattr(_checker, "calls", 0) + 1
    hands = [set(p["hand"]) for p in state["guilds"]]
    decks = {c for d in state["treasure_decks"].values() for c in d}
    viewers = [None, *sorted(GAME.to_act(state))]
    if _checker.calls % 7 == 0 or state["over"]:
        viewers = [None, *range(state["n"])]
    for viewer in viewers:
        view = GAME.view(state, viewer)
        seen = set(CARD_ID.findall(json.dumps(view)))
        for seat, hand in enumerate(hands):
            if seat != viewer:
                assert not seen & hand, f"view of {viewer} shows seat {seat}'s hand"
        assert not seen & decks, "a view shows a card in a deck"
        if state["funeral"]:
            mine = state["funeral"]["bids"].get(str(viewer))
            assert view["funeral"]["your_bid"] == mine


@pytest.mark.soak
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_soak_random_bots_finish_with_invariants(players):
    for seed in range(3):
        state, record = play_random_game(
            GAME, players, seed, check=_checker, check_fold_every=500
        )
        out = GAME.outcome(state)
        assert out is not None
        assert len(out["scores"]) == players
        assert sorted(out["ranking"]) == list(range(players))
        assert GAME.to_act(state) == set()
        for seat in range(players):
            assert GAME.legal_moves(state, seat) == []
