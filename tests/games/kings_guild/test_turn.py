"""The turn: one action (Gather / Craft / Expand), treasures any time, an explicit end."""

from __future__ import annotations

import pytest

from games.kings_guild import cards
from games.protocol import IllegalMove
from games.rng import RecordingRandom

CLOAK_BOOTS = 2  # Explore Bluevein Isle: Cloak (3 cloth, 3) + Boots (3 leather 1 metal, 4)
DAGGER = 1  # Crush the Orc Rebellion: Dagger (1 wood 1 metal, 3), one item


def _gather(kg, s, seat, *picks):
    kg.play(s, seat, {"type": "gather"})
    for r in picks:
        if kg.top(s) and kg.top(s)["kind"] == "gather":
            kg.play(s, seat, {"type": "take", "resource": r})
    if kg.top(s) and kg.top(s)["kind"] == "gather":
        kg.play(s, seat, {"type": "done"})


def test_rule_gather_three_of_one_kind(kg):
    s = kg.new()
    _gather(kg, s, 0, "wood", "wood", "wood")
    assert kg.res(s, 0) == {"wood": 3}
    assert s["turn"]["action"] == "gather"


def test_rule_gather_two_different(kg):
    s = kg.new()
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "take", "resource": "cloth"})
    assert kg.res(s, 0) == {"wood": 1, "cloth": 1}
    assert kg.top(s) is None


def test_rule_gather_no_third_after_two_different(kg):
    s = kg.new()
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    assert {"type": "take", "resource": "cloth"} in kg.moves(s, 0)
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    assert kg.moves(s, 0, "take") == [{"type": "take", "resource": "wood"}]


def test_rule_gather_stock_limit(kg):
    s = kg.new()
    kg.give(s, 1, metal=s["supply"]["metal"] + s["guilds"][1]["resources"]["metal"] - 1)
    assert s["supply"]["metal"] == 1
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "metal"})
    assert {"type": "take", "resource": "metal"} not in kg.moves(s, 0)


def test_rule_gather_gems_and_magic_need_room(kg):
    s = kg.new()
    kg.play(s, 0, {"type": "gather"})
    kinds = {m["resource"] for m in kg.moves(s, 0, "take")}
    assert kinds == {"cloth", "leather", "metal", "wood"}
    s = kg.new()
    kg.room(s, 0, "Gem Workshop", 0, 0)
    kg.play(s, 0, {"type": "gather"})
    assert {m["resource"] for m in kg.moves(s, 0, "take")} == {
        "cloth", "leather", "metal", "wood", "gem"}


def test_rule_gather_storage_limit_discard_choice(kg):
    s = kg.new()
    kg.give(s, 0, wood=5)
    _gather(kg, s, 0, "cloth", "cloth", "cloth")
    assert s["guilds"][0]["resources"]["cloth"] == 3
    assert kg.game.to_act(s) == {0}
    assert {m["type"] for m in kg.moves(s, 0)} == {"discard_resource"}
    with pytest.raises(IllegalMove):
        kg.play(s, 0, {"type": "end_turn"})
    kg.play(s, 0, {"type": "discard_resource", "resource": "wood"})
    kg.play(s, 0, {"type": "discard_resource", "resource": "cloth"})
    assert kg.res(s, 0) == {"wood": 4, "cloth": 2}
    assert {"type": "end_turn"} in kg.moves(s, 0)


def test_rule_exactly_one_action_per_turn(kg):
    s = kg.new()
    _gather(kg, s, 0, "wood", "wood", "wood")
    types = {m["type"] for m in kg.moves(s, 0)}
    assert not types & {"gather", "craft", "build", "hire"}
    assert "end_turn" in types


def test_rule_end_turn_needs_an_action_and_passes_left(kg):
    s = kg.new(3)
    with pytest.raises(IllegalMove, match="action"):
        kg.play(s, 0, {"type": "end_turn"})
    _gather(kg, s, 0, "wood")
    kg.play(s, 0, {"type": "end_turn"})
    assert s["current"] == 1 and kg.game.to_act(s) == {1}


def test_rule_craft_one_item_single_quest_completes(kg):
    s = kg.new()
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    before = kg.coins(s, 0)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert kg.coins(s, 0) == before + 3
    assert DAGGER in s["guilds"][0]["quests"]
    assert len(s["guilds"][0]["hand"]) == 1
    assert cards.treasure(s["guilds"][0]["hand"][0])["color"] == "blue"
    assert s["quest_slots"][0] is not None and s["quest_slots"][0]["quest"] != DAGGER


def test_rule_craft_both_items_at_once(kg):
    s = kg.new()
    kg.slot(s, 0, CLOAK_BOOTS)
    kg.room(s, 0, "Warehouse", 0, 0)
    kg.give(s, 0, cloth=3, leather=3, metal=1)
    before = kg.coins(s, 0)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0, 1]})
    assert kg.coins(s, 0) == before + 7
    assert CLOAK_BOOTS in s["guilds"][0]["quests"]
    colors = sorted(cards.treasure(c)["color"] for c in s["guilds"][0]["hand"])
    assert colors == ["blue", "yellow"]


def test_rule_craft_one_of_two_places_sigil(kg):
    s = kg.new()
    kg.slot(s, 0, CLOAK_BOOTS)
    kg.give(s, 0, cloth=3)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert s["quest_slots"][0]["crafted"] == [0, None]
    assert kg.game.view(s, 1)["quest_slots"][0]["sigil"] == 0
    assert kg.game.view(s, 1)["guilds"][0]["sigils_free"] == 1


def test_rule_craft_two_sigil_restriction(kg):
    s = kg.new()
    for i, q in enumerate([2, 3, 6]):
        kg.slot(s, i, q)
    s["quest_slots"][0]["crafted"] = [0, None]
    s["quest_slots"][1]["crafted"] = [0, None]
    kg.give(s, 0, wood=3, cloth=2, metal=1)
    crafts = [(m["slot"], m["items"]) for m in kg.moves(s, 0, "craft")]
    assert (2, [0]) not in crafts
    assert (2, [0, 1]) in crafts


def test_rule_craft_needs_resources(kg):
    s = kg.new()
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1)
    with pytest.raises(IllegalMove):
        kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert kg.res(s, 0) == {"wood": 1}


def test_rule_expand_room_and_specialist_either_order(kg):
    s = kg.new()
    s["guilds"][0]["coins"] = 30
    hire = kg.moves(s, 0, "hire")[0]
    kg.play(s, 0, hire)
    assert kg.moves(s, 0, "hire") == []
    assert {"type": "build", "room": "Warehouse"} in kg.moves(s, 0)
    kg.play(s, 0, {"type": "build", "room": "Warehouse"})
    kg.play(s, 0, kg.moves(s, 0, "place")[0])
    assert kg.moves(s, 0, "build") == [] and kg.moves(s, 0, "hire") == []


def test_rule_expand_room_orthogonal_adjacency(kg):
    s = kg.new()
    kg.play(s, 0, {"type": "build", "room": "Library"})
    places = {(m["x"], m["y"]) for m in kg.moves(s, 0, "place")}
    assert places == {(0, 0), (3, 0), (1, 1), (2, 1)}


def test_rule_expand_double_room_two_cells(kg):
    s = kg.new()
    kg.play(s, 0, {"type": "build", "room": "Barracks"})
    places = {(m["x"], m["y"]) for m in kg.moves(s, 0, "place")}
    assert (0, 1) in places and (2, 1) in places and (3, 1) not in places
    kg.play(s, 0, {"type": "place", "x": 0, "y": 1})
    assert s["guilds"][0]["rooms"][0]["cells"] == [[0, 1], [1, 1]]


def test_rule_expand_one_of_each_room(kg):
    s = kg.new(4)
    kg.room(s, 0, "Library", 0, 0)
    assert {"type": "build", "room": "Library"} not in kg.moves(s, 0)
    assert {"type": "build", "room": "Warehouse"} in kg.moves(s, 0)


def test_rule_expand_bonus_space_pays_out(kg):
    s = kg.new()
    mat = s["guilds"][0]["mat"]
    bonuses = cards.boards()["mats"][mat]
    kg.play(s, 0, {"type": "build", "room": "Library"})
    spot = next(m for m in kg.moves(s, 0, "place")
                if bonuses.get(f"{m['x']}_{m['y']}") not in (None, "coins"))
    kind = bonuses[f"{spot['x']}_{spot['y']}"]
    kg.play(s, 0, spot)
    assert kg.res(s, 0) == {kind: 1}
    assert kg.coins(s, 0) == 10 - 4


def test_rule_expand_two_player_gem_workshop_magic_arcaenum(kg):
    s = kg.new(2)
    s["guilds"][0]["coins"] = 30
    kg.room(s, 0, "Gem Workshop", 0, 0)
    assert {"type": "build", "room": "Magic Arcaenum"} not in kg.moves(s, 0)
    s3 = kg.new(3)
    kg.room(s3, 0, "Gem Workshop", 0, 0)
    assert {"type": "build", "room": "Magic Arcaenum"} in kg.moves(s3, 0)


def test_rule_expand_chambers_either_side_and_stock(kg):
    s = kg.new(2)
    s["guilds"][0]["coins"] = 30
    builds = {m["room"] for m in kg.moves(s, 0, "build")}
    assert {"Bedchamber", "Kitchen", "Great Hall", "Barracks"} <= builds
    kg.play(s, 0, {"type": "build", "room": "Kitchen"})
    assert s["room_supply"]["Bedchamber / Kitchen"] == 1


def test_rule_hire_specialist_place_in_chamber_or_top(kg):
    s = kg.new()
    kg.room(s, 0, "Kitchen", 0, 0)
    spaces = {m["space"] for m in kg.moves(s, 0, "hire") if m["index"] == 0}
    assert spaces == {"top", "Kitchen"}
    for name in ["Courier", "Inventor", "Oracle", "Recruiter"]:
        kg.hire(s, 0, name)
    assert {m["space"] for m in kg.moves(s, 0, "hire")} == {"Kitchen"}
    kg.hire(s, 0, "Peasant", "Kitchen")
    assert kg.moves(s, 0, "hire") == []


def test_rule_hire_full_price_discounts_to_the_right(kg):
    s = kg.new()
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Laborer"])
    kg.play(s, 0, {"type": "hire", "index": 1, "space": "top"})
    assert kg.coins(s, 0) == 10 - 4
    row = s["specialist_row"]
    assert cards.specialist_name(row[1]["id"]) == "Miner" and row[1]["discount"] == 0
    assert [e["discount"] for e in row[2:]] == [1, 1, 1]
    assert row[0] is not None and row[0]["discount"] == 0


def test_rule_hire_discounted_adds_no_discounts(kg):
    s = kg.new()
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Laborer"], [0, 0, 1, 0, 0])
    kg.play(s, 0, {"type": "hire", "index": 2, "space": "top"})
    assert kg.coins(s, 0) == 10 - 3
    assert [e["discount"] for e in s["specialist_row"]] == [0, 0, 0, 0, 0]


def test_rule_hire_discount_to_zero_removes_specialist(kg):
    s = kg.new()
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"], [0, 0, 0, 0, 2])
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    assert cards.specialist_ids()["Courier"] in s["specialists_removed"]
    assert all(e is not None for e in s["specialist_row"])


def test_rule_hire_slide_right_and_refill(kg):
    s = kg.new()
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Laborer"])
    top = s["specialist_deck"][0]
    kg.play(s, 0, {"type": "hire", "index": 4, "space": "top"})
    names = [cards.specialist_name(e["id"]) for e in s["specialist_row"][1:]]
    assert names == ["Miner", "Tanner", "Weaver", "Lumberjack"]
    assert s["specialist_row"][0]["id"] == top


def test_rule_treasures_play_and_sell_any_time_on_turn(kg):
    s = kg.new()
    c = kg.to_hand(s, 0, "Bag of Gold")
    kg.play(s, 0, {"type": "sell", "card": c})
    assert kg.coins(s, 0) == 14
    assert c in s["discards"]["yellow"]
    c2 = kg.to_hand(s, 1, "Bag of Gold")
    with pytest.raises(IllegalMove):
        kg.play(s, 1, {"type": "sell", "card": c2})


def test_rule_treasure_without_price_cannot_be_sold(kg):
    s = kg.new()
    c = kg.to_hand(s, 0, "Stunning Charm")
    with pytest.raises(IllegalMove):
        kg.play(s, 0, {"type": "sell", "card": c})


def test_rule_hand_size_immediate_sell_down(kg):
    s = kg.new()
    for _ in range(6):
        kg.to_hand(s, 0, "Bag of Gold")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert len(s["guilds"][0]["hand"]) == 7
    assert {m["type"] for m in kg.moves(s, 0)} == {"sell"}
    card = s["guilds"][0]["hand"][0]
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "sell", "card": card})
    assert kg.coins(s, 0) == coins + 4
    assert "end_turn" in {m["type"] for m in kg.moves(s, 0)}


def test_rule_hand_size_library_and_inventor(kg):
    from games.kings_guild import guild

    s = kg.new()
    assert guild.hand_limit(s, 0) == 6
    kg.room(s, 0, "Library", 0, 0)
    assert guild.hand_limit(s, 0) == 9
    kg.hire(s, 0, "Inventor")
    assert guild.hand_limit(s, 0) == 11


def test_rule_running_out_of_treasure_deck_removes_scroll_and_reshuffles(kg):
    from games.kings_guild import treasures
    from games.rng import RecordingRandom

    s = kg.new()
    deck = s["treasure_decks"]["yellow"]
    s["discards"]["yellow"].extend(deck)
    deck.clear()
    card = treasures.draw(s, "yellow", RecordingRandom(1))
    assert cards.treasure(card)["color"] == "yellow"
    assert len(s["treasures_removed"]) == 1
    assert cards.treasure_name(s["treasures_removed"][0]) == "Scroll of Riches"
    assert len(s["treasure_decks"]["yellow"]) == 26 and s["discards"]["yellow"] == []


def _red_gone(kg, s):
    s["treasures_boxed"].extend(s["treasure_decks"]["red"])
    s["treasure_decks"]["red"] = []


def test_rule_treasure_colour_gone_entirely_player_chooses_another(kg):
    """Running out: "that color of treasure is no longer available. Players should choose
    another color to draw instead." Dagger of Crush the Orc Rebellion gives a blue treasure;
    Protect the Eastern Ramparts (Sword, 2 metal) gives a red one."""
    from games.kings_guild import treasures

    s = kg.new()
    _red_gone(kg, s)
    assert "red" not in treasures.available_colors(s)
    assert treasures.draw(s, "red", RecordingRandom(1)) is None
    qid = kg.quest_id("Protect the Eastern Ramparts")
    kg.slot(s, 0, qid)
    kg.give(s, 0, metal=2)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert s["guilds"][0]["hand"] == []
    assert kg.top(s)["kind"] == "substitute" and kg.top(s)["missing"] == "red"
    assert kg.moves(s, 0) == [{"type": "draw", "color": "blue"},
                              {"type": "draw", "color": "yellow"}]
    assert kg.game.view(s, 0)["decision"]["instead_of"] == "red"
    kg.play(s, 0, {"type": "draw", "color": "yellow"})
    assert [cards.treasure(c)["color"] for c in s["guilds"][0]["hand"]] == ["yellow"]


def test_rule_treasure_colour_gone_shared_quest_completer_chooses_then_keeps(kg):
    """Fight Off the Sharkskin Gnolls (Sword 3 metal; Robe 2 cloth 1 leather) gives red +
    blue; with red gone the completer chooses the replacement before keeping one."""
    s = kg.new()
    _red_gone(kg, s)
    qid = kg.quest_id("Fight Off the Sharkskin Gnolls")
    kg.slot(s, 0, qid)
    s["quest_slots"][0]["crafted"] = [1, None]
    kg.give(s, 0, cloth=2, leather=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [1]})
    assert kg.top(s)["kind"] == "substitute"
    kg.play(s, 0, {"type": "draw", "color": "yellow"})
    top = kg.top(s)
    assert top["kind"] == "keep_treasure" and top["keep"] == 1
    assert sorted(cards.treasure(c)["color"] for c in top["cards"]) == ["blue", "yellow"]
    kg.play(s, 0, {"type": "keep", "index": 1})
    assert len(s["guilds"][0]["hand"]) == 1 and len(s["guilds"][1]["hand"]) == 1


def test_rule_treasure_colour_gone_adventurer_chooses(kg):
    s = kg.new()
    _red_gone(kg, s)
    kg.row(s, ["Adventurer"])
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    assert sorted(cards.treasure(c)["color"] for c in s["guilds"][0]["hand"]) == [
        "blue", "yellow"]
    assert kg.top(s)["kind"] == "substitute"
    kg.play(s, 0, {"type": "draw", "color": "blue"})
    assert sorted(cards.treasure(c)["color"] for c in s["guilds"][0]["hand"]) == [
        "blue", "blue", "yellow"]


def test_rule_illegal_moves_leave_state_unchanged(kg):
    import copy

    s = kg.new()
    before = copy.deepcopy(s)
    for bad in [None, {}, {"type": 3}, {"type": "gather", "x": 1}, {"type": "craft"},
                {"type": "build", "room": "Nope"}, {"type": "bid", "amount": True},
                {"type": "hire", "index": 1.0, "space": "top"},
                {"type": "hire", "index": 0, "space": "top"}]:
        with pytest.raises(IllegalMove):
            kg.game.apply(s, 0, bad, RecordingRandom(1))
    with pytest.raises(IllegalMove, match="not your turn"):
        kg.game.apply(s, 1, {"type": "gather"}, RecordingRandom(1))
    assert s == before


def test_rule_treasure_colours_running_out_in_random_play():
    """With only a few red and yellow treasures in the game, random play keeps every card in
    one place and asks the drawing player for another colour when one is gone."""
    import random

    from games.bots import choose_seat_and_move
    from games.kings_guild import GAME

    seen = set()
    for seed in range(4):
        chooser = random.Random(seed)
        s = GAME.setup(["a", "b", "c"], {}, RecordingRandom(seed))
        for color in ("red", "yellow"):
            s["treasures_boxed"].extend(s["treasure_decks"][color][3:])
            del s["treasure_decks"][color][3:]
        for _ in range(2500):  # bounded; random bots finish few quests
            if GAME.outcome(s):
                break
            seat, move = choose_seat_and_move(GAME, s, chooser)
            GAME.apply(s, seat, move, RecordingRandom(chooser.getrandbits(32)))
            GAME.check_invariants(s)
            if s["pending"] and s["pending"][-1]["kind"] == "substitute":
                entry = s["pending"][-1]
                assert entry["missing"] not in {m["color"] for m in GAME.legal_moves(
                    s, entry["seat"])}
                seen.add(entry["missing"])
    assert seen
