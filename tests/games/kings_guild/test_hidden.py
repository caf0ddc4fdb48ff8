"""Hidden information: hands, deck orders and sealed bids stay out of other seats' views,
log lines and summaries."""

from __future__ import annotations

import json

from games.kings_guild import cards


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


def test_hidden_describe_redacts_kept_treasure(kg):
    card = next(f"t{tid}_1" for tid, t in cards.treasure_types().items()
                if t["name"] == "Bag of Gold")
    event = {"version": 3, "actor": 0, "names": ["A", "B"],
             "data": {"move": {"type": "keep", "card": card}}}
    assert "Bag of Gold" in kg.game.describe(event, 0)
    assert "Bag of Gold" not in kg.game.describe(event, 1)
    assert "Bag of Gold" not in kg.game.describe(event, None)


def test_hidden_describe_every_move_type_is_one_line(kg):
    from games.bots import play_random_game

    state, record = play_random_game(kg.game, 3, 4)
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
                    assert cards.treasure_name(move["card"]) not in line
