"""The rulebook's three worked examples."""

from __future__ import annotations

from games.kings_guild import cards

EXPLORE_BLUEVEIN = 2  # Cloak: 3 cloth -> 3 coins; Boots: 3 leather + 1 metal -> 4; blue + yellow


def test_example_explorers_league_gathers_three_metal_discards_wood(kg):
    s = kg.new(guilds=["Explorers League", "Craft Collective"])
    kg.give(s, 0, wood=1, cloth=1, leather=1)
    kg.play(s, 0, {"type": "gather"})
    for _ in range(3):
        kg.play(s, 0, {"type": "take", "resource": "metal"})
    assert s["guilds"][0]["resources"]["metal"] == 3
    assert kg.game.to_act(s) == {0}
    assert {m["type"] for m in kg.moves(s, 0)} == {"discard_resource"}
    kg.play(s, 0, {"type": "discard_resource", "resource": "wood"})
    assert kg.res(s, 0) == {"metal": 3, "cloth": 1, "leather": 1}
    assert s["supply"]["wood"] == s["resource_totals"]["wood"]


def test_example_shared_cloak_boots_greycastle_guard_and_craft_collective(kg):
    s = kg.new(guilds=["Greycastle Guard", "Craft Collective"])
    kg.slot(s, 2, EXPLORE_BLUEVEIN)
    kg.give(s, 0, cloth=3)
    kg.play(s, 0, {"type": "craft", "slot": 2, "items": [0]})
    assert kg.coins(s, 0) == 13
    assert kg.game.view(s, 1)["quest_slots"][2]["sigil"] == 0
    kg.play(s, 0, {"type": "end_turn"})
    kg.give(s, 1, leather=3, metal=1)
    blue = kg.on_top(s, "Scroll of Plenty")
    yellow = kg.on_top(s, "Bag of Gold")
    next_quest = s["quest_deck"][0]
    kg.play(s, 1, {"type": "craft", "slot": 2, "items": [1]})
    assert kg.coins(s, 1) == 14
    decision = kg.game.view(s, 1)["decision"]
    assert decision["kind"] == "keep_treasure"
    assert sorted(c["card"] for c in decision["cards"]) == sorted([blue, yellow])
    assert "cards" not in kg.game.view(s, 0)["decision"]
    drawn = kg.top(s)["cards"]
    assert kg.game.move_label(s, 1, {"type": "keep", "index": drawn.index(yellow)}) == (
        "Keep Bag of Gold (pass the rest)")
    kg.play(s, 1, {"type": "keep", "index": drawn.index(yellow)})
    assert s["guilds"][1]["hand"] == [yellow]
    assert s["guilds"][0]["hand"] == [blue]
    assert s["guilds"][0]["quests"] == [EXPLORE_BLUEVEIN] and s["guilds"][1]["quests"] == []
    assert kg.game.view(s, 0)["guilds"][0]["sigils_free"] == 2
    assert s["quest_slots"][2]["quest"] == next_quest


def test_example_holy_order_warehouse_and_oracle(kg):
    s = kg.new(guilds=["The Holy Order", "Craft Collective"])
    kg.room(s, 0, "Shrine", 0, 0)
    s["guilds"][0]["coins"] = 9
    mat = cards.boards()["mats"][s["guilds"][0]["mat"]]
    kg.row(s, ["Lumberjack", "Oracle", "Miner", "Tanner", "Weaver"])
    kg.play(s, 0, {"type": "build", "room": "Warehouse"})
    spot = next(m for m in kg.moves(s, 0, "place")
                if mat.get(f"{m['x']}_{m['y']}") not in (None, "coins"))
    resource = mat[f"{spot['x']}_{spot['y']}"]
    kg.play(s, 0, spot)
    assert kg.coins(s, 0) == 3 and kg.res(s, 0) == {resource: 1}
    new_card = s["specialist_deck"][0]
    kg.play(s, 0, {"type": "hire", "index": 1, "space": "top"})
    assert kg.coins(s, 0) == 0 and kg.has_specialist(s, 0, "Oracle")
    row = s["specialist_row"]
    names = [cards.specialist_name(e["id"]) for e in row]
    assert names[1:] == ["Lumberjack", "Miner", "Tanner", "Weaver"]
    assert [e["discount"] for e in row] == [0, 0, 1, 1, 1]
    assert row[0]["id"] == new_card
