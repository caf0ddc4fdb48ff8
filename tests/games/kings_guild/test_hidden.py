"""Hidden information: hands, deck orders and sealed bids stay out of other seats' views,
log lines and summaries."""

from __future__ import annotations

import json

from games.kings_guild import cards

BOTS = {"stall_breaker": True}  # random bots may deadlock; the house rule ends such games


def test_hidden_hands_only_in_own_view(kg):
    s = kg.new(3)
    card = kg.to_hand(s, 1, "Stunning Charm")
    assert kg.game.view(s, 1)["hand"][0]["card"] == card
    for viewer in (0, 2, None):
        text = json.dumps(kg.game.view(s, viewer))
        assert f'"{card}"' not in text and "Stunning Charm" not in text
        assert kg.game.view(s, viewer)["guilds"][1]["hand_count"] == 1
    assert "Stunning Charm" in kg.game.summary(s, 1)
    assert "Stunning Charm" not in kg.game.summary(s, 0)


def test_hidden_deck_orders_not_in_views(kg):
    s = kg.new(2)
    text = json.dumps(kg.game.view(s, 0))
    for deck in s["treasure_decks"].values():
        assert all(f'"{c}"' not in text for c in deck)
    assert "quest_deck" not in kg.game.view(s, 0)
    assert kg.game.view(s, 0)["quest_deck_count"] == len(s["quest_deck"])
    assert "specialist_deck" not in kg.game.view(s, 0)


def test_hidden_kept_treasure_not_in_move_or_log(kg):
    s = kg.new()
    kg.slot(s, 0, 2)
    s["quest_slots"][0]["crafted"] = [1, None]
    kg.give(s, 0, leather=3, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [1]})
    moves = kg.moves(s, 0)
    assert moves == [{"type": "keep", "index": 0}, {"type": "keep", "index": 1}]
    event = {"version": 3, "actor": 0, "names": ["A", "B"], "data": {"move": moves[0]}}
    assert kg.game.describe(event, 1) == "A kept one treasure and passed the rest."
    assert kg.game.describe(event, None) == "A kept one treasure and passed the rest."
    assert "cards" not in kg.game.view(s, 1)["decision"]
    drawn = [cards.treasure_name(c) for c in kg.top(s)["cards"]]
    assert drawn[0] in kg.game.move_label(s, 0, moves[0])
    for seat in (1, None):
        label = kg.game.move_label(s, seat, moves[0])
        assert not any(name in label for name in drawn)
    assert "Your hand" not in kg.game.summary(s, None)
    assert kg.game.view(s, None)["hand"] == []


def test_hidden_describe_every_move_type_is_one_line(kg):
    from games.bots import play_random_game

    state, record = play_random_game(kg.game, 3, 4, BOTS)
    for version, (seat, move, _) in enumerate(record.moves, start=2):
        event = {"version": version, "actor": seat, "names": state["names"],
                 "data": {"move": move}}
        for viewer in (None, 0, 1, 2):
            line = kg.game.describe(event, viewer)
            assert line and "\n" not in line
            if move["type"] in ("keep", "bid") and viewer != seat:
                if move["type"] == "bid":
                    assert line.endswith("placed a sealed bid for the King's Statue.")
                else:
                    assert line.endswith("kept one treasure and passed the rest.")


def test_rule_invariants_catch_a_duplicated_card_and_negative_coins(kg):
    import pytest

    s = kg.new()
    card = kg.to_hand(s, 0, "Bag of Gold")
    kg.game.check_invariants(s)
    s["guilds"][1]["hand"].append(card)
    with pytest.raises(AssertionError, match="two places"):
        kg.game.check_invariants(s)
    s["guilds"][1]["hand"].remove(card)
    s["guilds"][1]["coins"] = -1
    with pytest.raises(AssertionError, match="negative coins"):
        kg.game.check_invariants(s)


def test_rule_legal_moves_are_exactly_what_apply_accepts():
    """At sampled positions of a random game every listed move is accepted, and variants of
    them (another seat, other values) are rejected with IllegalMove, state unchanged."""
    import copy
    import random

    import pytest

    from games.kings_guild import GAME
    from games.protocol import IllegalMove
    from games.rng import RecordingRandom

    chooser = random.Random(3)
    state = GAME.setup(["A", "B", "C"], BOTS, RecordingRandom(5))
    checked = 0
    while GAME.outcome(state) is None:
        seat = chooser.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_moves(state, seat)
        if checked % 7 == 0:
            for move in chooser.sample(legal, min(4, len(legal))):
                trial = copy.deepcopy(state)
                GAME.apply(trial, seat, copy.deepcopy(move), RecordingRandom(1))
            variants = []
            for move in legal[:6]:
                for key, value in move.items():
                    if isinstance(value, int) and not isinstance(value, bool):
                        variants.append({**move, key: value + 97})
                    if isinstance(value, str) and key != "type":
                        variants.append({**move, key: value + "x"})
                variants.append({**move, "extra": 1})
            before = copy.deepcopy(state)
            for bad in variants:
                if bad in legal:
                    continue
                with pytest.raises(IllegalMove):
                    GAME.apply(state, seat, bad, RecordingRandom(1))
            others = [s for s in range(3) if s not in GAME.to_act(state)]
            for other in others:
                with pytest.raises(IllegalMove):
                    GAME.apply(state, other, legal[0], RecordingRandom(1))
            assert state == before
        checked += 1
        GAME.apply(state, seat, chooser.choice(legal), RecordingRandom(chooser.getrandbits(32)))
    assert checked > 100
