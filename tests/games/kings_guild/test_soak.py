"""Random legal-move bots finish games at every player count while invariants hold."""

from __future__ import annotations

import json
import re

import pytest

from games.bots import play_random_game
from games.kings_guild import GAME

BOTS = {"stall_breaker": True}  # random bots may deadlock; the house rule ends such games

CARD_ID = re.compile(r'"(t\d+_\d+)"')


def _checker(state):
    """Invariants and the size of legal_moves after every move. No view shows another seat's
    hand, a deck card or another seat's sealed bid: after every move one viewer is checked
    (rotating over the spectator and the seats), and every 10th move all of them (views are
    the expensive part of the soak)."""
    GAME.check_invariants(state)
    _checker.calls = getattr(_checker, "calls", 0) + 1
    for seat in GAME.to_act(state):
        assert 0 < len(GAME.legal_moves(state, seat)) < 200
    everyone = [None, *range(state["n"])]
    viewers = [everyone[_checker.calls % len(everyone)]]
    if _checker.calls % 10 == 0 or state["over"] or state["funeral"]:
        viewers = everyone
    hands = [set(p["hand"]) for p in state["guilds"]]
    decks = {c for d in state["treasure_decks"].values() for c in d}
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
    for seed in range(3 if players <= 4 else 2):  # 5-6 players: two long games (suite time)
        state, record = play_random_game(
            GAME, players, seed, BOTS, check=_checker, check_fold_every=1000
        )
        out = GAME.outcome(state)
        assert out is not None
        assert len(out["scores"]) == players
        assert sorted(out["ranking"]) == list(range(players))
        assert GAME.to_act(state) == set()
        for seat in range(players):
            assert GAME.legal_moves(state, seat) == []
