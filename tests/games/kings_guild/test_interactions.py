"""Interactions between cards: potions on shared quests, chained on-hire effects, the
Warlock on each scroll, and hand-size timing during draw-then-discard effects."""

from __future__ import annotations

from games.kings_guild import cards

CLOAK_BOOTS = 2
DAGGER = 1


def test_rule_lucky_potion_shared_quest_doubles_both_shares(kg):
    s = kg.new()
    kg.slot(s, 0, CLOAK_BOOTS)
    s["quest_slots"][0]["crafted"] = [1, None]
    potion = kg.to_hand(s, 0, "Lucky Potion")
    kg.play(s, 0, {"type": "play", "card": potion})
    kg.give(s, 0, leather=3, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [1]})
    entry = kg.top(s)
    assert entry["kind"] == "keep_treasure" and len(entry["cards"]) == 4 and entry["keep"] == 2
    kg.play(s, 0, {"type": "keep", "index": 0})
    kg.play(s, 0, {"type": "keep", "index": 0})
    assert len(s["guilds"][0]["hand"]) == 2 and len(s["guilds"][1]["hand"]) == 2


def test_rule_fortune_potions_one_per_item(kg):
    s = kg.new()
    for _ in range(2):
        kg.play(s, 0, {"type": "play", "card": kg.to_hand(s, 0, "Fortune Potion")})
    kg.room(s, 0, "Warehouse", 0, 0)
    kg.slot(s, 0, CLOAK_BOOTS)
    kg.give(s, 0, cloth=3, leather=3, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0, 1]})
    assert kg.coins(s, 0) == 10 + 8 + 6


def test_rule_potions_expire_at_end_of_turn(kg):
    s = kg.new()
    kg.play(s, 0, {"type": "play", "card": kg.to_hand(s, 0, "Fortune Potion")})
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    kg.play(s, 0, {"type": "end_turn"})
    assert s["turn"]["fortune"] == 0


def test_rule_overseer_chains_on_hire_effect(kg):
    s = kg.new()
    kg.row(s, ["Overseer", "Miner", "Tanner", "Weaver", "Adventurer"])
    s["guilds"][0]["coins"] = 8
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    kg.play(s, 0, {"type": "hire_oldest", "space": "top"})
    assert kg.has_specialist(s, 0, "Adventurer")
    assert len(s["guilds"][0]["hand"]) == 3


def test_rule_warlock_scroll_of_plenty_both_parts(kg):
    s = kg.new()
    kg.hire(s, 0, "Warlock")
    kg.room(s, 0, "Warehouse", 0, 0)
    scroll = kg.to_hand(s, 0, "Scroll of Plenty")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    kg.play(s, 0, {"type": "destroy_scroll", "card": scroll})
    kg.play(s, 0, {"type": "gain", "resource": "wood"})
    assert kg.game.to_act(s) == {0}
    kg.play(s, 0, {"type": "gain", "resource": "cloth"})
    assert kg.res(s, 0) == {"wood": 2, "cloth": 1}
    assert kg.res(s, 1) == {}


def test_rule_warlock_scroll_of_wonders_both_parts(kg):
    s = kg.new()
    kg.hire(s, 0, "Warlock")
    scroll = kg.to_hand(s, 0, "Scroll of Wonders")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "destroy_scroll", "card": scroll})
    kg.play(s, 0, {"type": "draw", "color": "red"})
    assert {m.get("color") for m in kg.moves(s, 0)} == {"blue", "yellow", None}
    kg.play(s, 0, {"type": "draw", "color": "yellow"})
    assert kg.coins(s, 0) == coins + 1 - 1
    colors = sorted(cards.treasure(c)["color"] for c in s["guilds"][0]["hand"])
    assert colors == ["blue", "red", "yellow"]


def test_rule_hand_size_waits_for_merchant_discards(kg):
    s = kg.new()
    for _ in range(6):
        kg.to_hand(s, 0, "Bag of Gold")
    kg.row(s, ["Merchant", "Miner", "Tanner", "Weaver", "Lumberjack"])
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    kg.play(s, 0, {"type": "draw", "color": "red"})
    assert kg.top(s)["kind"] == "merchant_draw" and kg.moves(s, 0, "sell") == []
    kg.play(s, 0, {"type": "draw", "color": "red"})
    kg.play(s, 0, {"type": "draw", "color": "red"})
    for _ in range(3):
        kg.play(s, 0, {"type": "discard_treasure", "card": s["guilds"][0]["hand"][0]})
    assert len(s["guilds"][0]["hand"]) == 6 and kg.moves(s, 0, "end_turn")


def test_rule_appraiser_for_the_first_crafter_of_a_shared_quest(kg):
    s = kg.new()
    kg.hire(s, 1, "Appraiser")
    kg.slot(s, 0, CLOAK_BOOTS)
    s["quest_slots"][0]["crafted"] = [1, None]
    kg.give(s, 0, leather=3, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [1]})
    kg.play(s, 0, {"type": "keep", "index": 0})
    assert kg.game.to_act(s) == {1} and kg.top(s)["kind"] == "appraiser"
    kg.play(s, 1, {"type": "skip"})
    assert kg.game.to_act(s) == {0}


def test_rule_funeral_statue_covers_bonus_space(kg):
    s = kg.new(2)
    kg.next_quest(s, cards.FUNERAL)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    kg.play(s, 0, {"type": "bid", "amount": 1})
    kg.play(s, 1, {"type": "bid", "amount": 0})
    mat = cards.boards()["mats"][s["guilds"][0]["mat"]]
    spot = next((m for m in kg.moves(s, 0, "place")
                 if mat.get(f"{m['x']}_{m['y']}") == "coins"), None)
    coins = kg.coins(s, 0)
    if spot is None:
        spot = kg.moves(s, 0, "place")[0]
    kg.play(s, 0, spot)
    bonus = mat.get(f"{spot['x']}_{spot['y']}")
    assert kg.coins(s, 0) == coins - 1 + (2 if bonus == "coins" else 0)
