"""Every one of the 35 treasure types, named after the card."""

from __future__ import annotations

import pytest

from games.kings_guild import cards, scoring

DAGGER = 1
CLOAK_BOOTS = 2


@pytest.mark.parametrize("color", ["blue", "red", "yellow"])
def test_treasure_treasure_map_discard_two_draw_two(kg, color):
    s = kg.new()
    tmap = next(c for c in s["treasure_decks"][color]
                if cards.treasure_name(c) == "Treasure Map")
    kg._take_card(s, tmap)
    s["guilds"][0]["hand"].append(tmap)
    other = kg.to_hand(s, 0, "Bag of Gold")
    kg.play(s, 0, {"type": "play", "card": tmap})
    kg.play(s, 0, {"type": "discard_treasure", "card": other})
    kg.play(s, 0, {"type": "map_colors", "colors": ["blue", "red"]})
    hand = s["guilds"][0]["hand"]
    assert sorted(cards.treasure(c)["color"] for c in hand) == ["blue", "red"]
    assert tmap in s["discards"][color] and other in s["discards"]["yellow"]


def test_treasure_treasure_map_needs_another_card(kg):
    s = kg.new()
    tmap = kg.to_hand(s, 0, "Treasure Map")
    assert {"type": "play", "card": tmap} not in kg.moves(s, 0)


def test_treasure_spoiling_potion_everyone_loses_one(kg):
    s = kg.new(3)
    kg.give(s, 0, wood=2)
    kg.give(s, 1, wood=1)
    potion = kg.to_hand(s, 0, "Spoiling Potion")
    kg.play(s, 0, {"type": "play", "card": potion})
    kg.play(s, 0, {"type": "spoil", "resource": "wood"})
    assert kg.res(s, 0) == {"wood": 1} and kg.res(s, 1) == {} and kg.res(s, 2) == {}


@pytest.mark.parametrize("name,gain", [
    ("Secret Stash", {"metal": 1, "wood": 1, "leather": 1, "cloth": 1}),
    ("Oak Branches", {"wood": 3}),
    ("Mithril Bars", {"metal": 3}),
    ("Dragon Hides", {"leather": 3}),
    ("Bolts of Silk", {"cloth": 3}),
    ("Brilliant Diamonds", {"gem": 2}),
    ("Bottle of Faerie Dust", {"magic": 2}),
])
def test_treasure_resource_cards_gain(kg, name, gain):
    s = kg.new()
    card = kg.to_hand(s, 0, name)
    kg.play(s, 0, {"type": "play", "card": card})
    assert kg.res(s, 0) == gain


def test_treasure_resource_card_limited_by_stock_and_storage(kg):
    s = kg.new()
    kg.give(s, 1, wood=s["supply"]["wood"] - 1)
    kg.give(s, 0, cloth=5)
    card = kg.to_hand(s, 0, "Oak Branches")
    kg.play(s, 0, {"type": "play", "card": card})
    assert kg.res(s, 0) == {"cloth": 5, "wood": 1}


def test_treasure_scroll_of_plenty_you_two_next_player_one(kg):
    s = kg.new(3)
    scroll = kg.to_hand(s, 0, "Scroll of Plenty")
    kg.play(s, 0, {"type": "play", "card": scroll})
    assert {m["resource"] for m in kg.moves(s, 0, "gain")} == {"cloth", "leather", "metal", "wood"}
    kg.play(s, 0, {"type": "gain", "resource": "metal"})
    assert kg.game.to_act(s) == {1}
    kg.play(s, 1, {"type": "gain", "resource": "cloth"})
    assert kg.res(s, 0) == {"metal": 2} and kg.res(s, 1) == {"cloth": 1}
    assert kg.game.to_act(s) == {0}


def test_treasure_scroll_of_wonders_coin_treasure_next_player_pays(kg):
    s = kg.new()
    scroll = kg.to_hand(s, 0, "Scroll of Wonders")
    kg.play(s, 0, {"type": "play", "card": scroll})
    assert kg.coins(s, 0) == 11
    kg.play(s, 0, {"type": "draw", "color": "yellow"})
    assert kg.game.to_act(s) == {1}
    colors = {m["color"] for m in kg.moves(s, 1, "draw")}
    assert colors == {"blue", "red"}
    kg.play(s, 1, {"type": "draw", "color": "blue"})
    assert kg.coins(s, 1) == 9 and len(s["guilds"][1]["hand"]) == 1


def test_treasure_scroll_of_riches_four_and_two(kg):
    s = kg.new()
    scroll = kg.to_hand(s, 0, "Scroll of Riches")
    kg.play(s, 0, {"type": "play", "card": scroll})
    assert kg.coins(s, 0) == 14 and kg.coins(s, 1) == 12


def test_treasure_contract_hires_without_action(kg):
    s = kg.new()
    contract = kg.to_hand(s, 0, "Contract")
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"])
    kg.play(s, 0, {"type": "play", "card": contract})
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    assert kg.has_specialist(s, 0, "Miner") and kg.coins(s, 0) == 6
    assert s["turn"]["action"] is None
    assert [e["discount"] for e in s["specialist_row"][1:]] == [1, 1, 1, 1]
    assert kg.moves(s, 0, "gather")


def test_treasure_lucky_potion_doubles_quest_treasure(kg):
    s = kg.new()
    potion = kg.to_hand(s, 0, "Lucky Potion")
    kg.play(s, 0, {"type": "play", "card": potion})
    assert {"type": "play", "card": potion} not in kg.moves(s, 0)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert [cards.treasure(c)["color"] for c in s["guilds"][0]["hand"]] == ["blue", "blue"]


def test_treasure_fortune_potion_doubles_one_item(kg):
    s = kg.new()
    potion = kg.to_hand(s, 0, "Fortune Potion")
    kg.play(s, 0, {"type": "play", "card": potion})
    kg.room(s, 0, "Warehouse", 0, 0)
    kg.slot(s, 0, CLOAK_BOOTS)
    kg.give(s, 0, cloth=3, leather=3, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0, 1]})
    assert kg.coins(s, 0) == 10 + 8 + 3


@pytest.mark.parametrize("name,price", [("Coin Purse", 3), ("Bag of Gold", 4)])
def test_treasure_coins_sell_for_more(kg, name, price):
    s = kg.new()
    card = kg.to_hand(s, 0, name)
    assert {"type": "play", "card": card} not in kg.moves(s, 0)
    kg.play(s, 0, {"type": "sell", "card": card})
    assert kg.coins(s, 0) == 10 + price


RELICS = ["Ancient Helm", "Ancient Breastplate", "Ancient Sword", "Ancient Boots",
          "Ancient Shield", "Ancient Gauntlets"]


@pytest.mark.parametrize("name", RELICS)
def test_treasure_relic_scores_in_sets_and_sells_for_two(kg, name):
    s = kg.new()
    card = kg.to_hand(s, 0, name)
    assert scoring.relic_points(s["guilds"][0]["hand"]) == 2
    assert {"type": "play", "card": card} not in kg.moves(s, 0)
    kg.play(s, 0, {"type": "sell", "card": card})
    assert kg.coins(s, 0) == 12


def test_treasure_relic_sets_table(kg):
    s = kg.new()
    hand = s["guilds"][0]["hand"]
    for n, expected in zip(range(1, 7), [2, 5, 9, 13, 17, 22], strict=True):
        kg.to_hand(s, 0, RELICS[n - 1])
        assert scoring.relic_points(hand) == expected
    kg.to_hand(s, 0, "Ancient Helm")
    kg.to_hand(s, 0, "Ancient Sword")
    assert scoring.relic_points(hand) == 22 + 5


CHARMS = {"Stunning Charm": 3, "Sacred Charm": 3, "Ornate Charm": 3, "Ominous Charm": 3,
          "Mysterious Charm": 3, "Glowing Charm": 2, "Engraved Charm": 2, "Curious Charm": 2,
          "Carved Charm": 2, "Bizarre Charm": 2}


@pytest.mark.parametrize("name", sorted(CHARMS))
def test_treasure_charm_prestige_and_not_sellable(kg, name):
    s = kg.new()
    card = kg.to_hand(s, 0, name)
    assert kg.moves(s, 0, "sell") == [] and kg.moves(s, 0, "play") == []
    sheet = scoring.score_sheet(s)
    assert sheet[0]["charms"] == CHARMS[name]
    assert sheet[0]["charm_bonus"] == 3 and sheet[1]["charm_bonus"] == 0
    assert card in s["guilds"][0]["hand"]


def test_treasure_charm_most_charms_bonus_ties_and_none(kg):
    s = kg.new(3)
    assert [r["charm_bonus"] for r in scoring.score_sheet(s)] == [0, 0, 0]
    kg.to_hand(s, 0, "Glowing Charm")
    kg.to_hand(s, 1, "Sacred Charm")
    assert [r["charm_bonus"] for r in scoring.score_sheet(s)] == [3, 3, 0]


def test_treasure_scrolls_score_with_library(kg):
    s = kg.new()
    kg.to_hand(s, 0, "Scroll of Plenty")
    kg.to_hand(s, 0, "Scroll of Wonders")
    assert scoring.score_sheet(s)[0]["rooms"] == 0
    kg.room(s, 0, "Library", 0, 0)
    assert scoring.room_points(s, 0)["Library"] == 6


def test_treasure_every_type_covered():
    names = {t["name"] for t in cards.treasure_types().values()}
    covered = set(RELICS) | set(CHARMS) | {
        "Treasure Map", "Spoiling Potion", "Secret Stash", "Scroll of Plenty", "Oak Branches",
        "Mithril Bars", "Dragon Hides", "Contract", "Brilliant Diamonds",
        "Bottle of Faerie Dust", "Bolts of Silk", "Scroll of Wonders", "Lucky Potion",
        "Scroll of Riches", "Fortune Potion", "Coin Purse", "Bag of Gold"}
    assert names == covered and len(cards.treasure_types()) == 35
