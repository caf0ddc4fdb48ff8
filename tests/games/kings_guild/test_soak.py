"""Random legal-move bots finish games at every player count while invariants hold."""

from __future__ import annotations

import json

import pytest

from games.bots import play_random_game
from games.kings_guild import GAME


def _checker(state):
    GAME.check_invariants(state)
    hidden_by_seat = []
    for seat, p in enumerate(state["guilds"]):
        hidden_by_seat.append({f'"{c}"' for c in p["hand"]})
    deck_cards = {f'"{c}"' for d in state["treasure_decks"].values() for c in d}
    for viewer in [None, *range(state["n"])]:
        text = json.dumps(GAME.view(state, viewer))
        for seat, hidden in enumerate(hidden_by_seat):
            if seat == viewer:
                continue
            leaked = [c for c in hidden if c in text]
            assert not leaked, f"view of {viewer} shows seat {seat}'s cards {leaked}"
        assert not [c for c in deck_cards if c in text], "a view shows a card in a deck"
        if state["funeral"]:
            for s, amount in state["funeral"]["bids"].items():
                if viewer is None or int(s) != viewer:
                    assert '"your_bid": null' in text or viewer is not None


@pytest.mark.soak
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_soak_random_bots_finish_with_invariants(players):
    for seed in range(4):
        state, record = play_random_game(
            GAME, players, seed, check=_checker, check_fold_every=250
        )
        out = GAME.outcome(state)
        assert out is not None
        assert len(out["scores"]) == players
        assert sorted(out["ranking"]) == list(range(players))
        assert GAME.to_act(state) == set()
        for seat in range(players):
            assert GAME.legal_moves(state, seat) == []
