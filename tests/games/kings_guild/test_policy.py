"""The King's Guild "crafter" bot: crafts when it can, else gathers what an open item lacks,
else hires or builds; its games end (under the bots' move cap)."""

from __future__ import annotations

import random

import pytest

from games.bots import play_random_game
from games.kings_guild import GAME
from games.kings_guild.policy import completes, crafter_move, needed_resources

CLOAK_BOOTS = 2


def test_crafts_when_a_craft_is_legal(kg):
    s = kg.new()
    kg.room(s, 0, "Warehouse", 0, 0)  # room for the 7 resources
    kg.slot(s, 0, CLOAK_BOOTS)
    kg.give(s, 0, cloth=3, leather=3, metal=1)
    legal = GAME.legal_moves(s, 0)
    assert any(m["type"] == "craft" for m in legal)
    assert any(m["type"] != "craft" for m in legal)
    for seed in range(20):
        move = crafter_move(GAME, s, 0, random.Random(seed))
        # a craft that completes its quest (here both items of the cloak and boots, or
        # another open quest's last item) is preferred to one that leaves an item open
        assert move["type"] == "craft" and completes(s, move)
    assert {"type": "craft", "slot": 0, "quest": s["quest_slots"][0]["quest"],
            "items": [0]} in legal  # one item alone was legal too


def test_gathers_what_an_open_item_lacks(kg):
    s = kg.new()
    kg.slot(s, 0, CLOAK_BOOTS)
    target, lacking, _ = needed_resources(s, 0)
    assert target and lacking == set(target)  # holding nothing, it lacks the whole cost
    assert crafter_move(GAME, s, 0, random.Random(1)) == {"type": "gather"}
    kg.play(s, 0, {"type": "gather"})
    take = crafter_move(GAME, s, 0, random.Random(1))
    assert take["type"] == "take" and take["resource"] in lacking


@pytest.mark.parametrize("players", [1, 2, 4])
def test_crafter_games_end_under_the_cap(players):
    for seed in (11, 12, 13):
        state, record = play_random_game(GAME, players, seed, policy=crafter_move,
                                         check=GAME.check_invariants, check_fold_every=500)
        assert GAME.outcome(state) is not None and len(record.moves) < 20_000
