"""Solo rules as the rulebook gives them."""

from __future__ import annotations

from games.kings_guild import cards, scoring

DAGGER = 1


def _solo(kg):
    s = kg.new(1)
    s["guilds"][0]["coins"] = 40
    return s


def test_solo_expand_two_purchases_any_combination(kg):
    s = _solo(kg)
    kg.play(s, 0, {"type": "build", "room": "Library"})
    kg.play(s, 0, kg.moves(s, 0, "place")[0])
    kg.play(s, 0, {"type": "build", "room": "Warehouse"})
    kg.play(s, 0, kg.moves(s, 0, "place")[0])
    assert kg.moves(s, 0, "build") == [] and kg.moves(s, 0, "hire") == []
    s = _solo(kg)
    kg.play(s, 0, kg.moves(s, 0, "hire")[0])
    kg.play(s, 0, kg.moves(s, 0, "hire")[0])
    assert len(s["guilds"][0]["specialists"]) == 2 and kg.moves(s, 0, "hire") == []


def test_solo_no_discounts_and_rightmost_specialist_removed_after_expand(kg):
    s = _solo(kg)
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"])
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    assert all(e["discount"] == 0 for e in s["specialist_row"])
    kg.play(s, 0, {"type": "end_turn"})
    assert cards.specialist_ids()["Courier"] in s["specialists_removed"]
    assert all(e is not None for e in s["specialist_row"])


def test_solo_completed_quest_leaves_empty_space(kg):
    s = _solo(kg)
    kg.slot(s, 3, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 3, "items": [0]})
    assert s["quest_slots"][3] is None


def test_solo_quest_conveyor_removes_oldest_without_sigil_and_reveals_new(kg):
    s = _solo(kg)
    slots = s["quest_slots"]
    oldest, second = slots[5]["quest"], slots[4]["quest"]
    s["quest_slots"][5]["crafted"] = [0, None] if len(slots[5]["crafted"]) == 2 else [None]
    has_sigil = len(slots[5]["crafted"]) == 2
    new = s["quest_deck"][0]
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    kg.play(s, 0, {"type": "end_turn"})
    removed = second if has_sigil else oldest
    assert s["quests_removed"] == [removed]
    assert s["quest_slots"][0]["quest"] == new
    assert all(sl is not None for sl in s["quest_slots"])


def test_solo_conveyor_slides_into_gaps(kg):
    s = _solo(kg)
    order = [sl["quest"] for sl in s["quest_slots"]]
    s["quests_boxed"].append(order[2])
    s["quest_slots"][2] = None
    new = s["quest_deck"][0]
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    kg.play(s, 0, {"type": "end_turn"})
    assert [sl["quest"] for sl in s["quest_slots"]] == [new, order[0], order[1], order[3],
                                                         order[4], order[5]]
    assert s["quests_removed"] == []


def test_solo_kings_funeral_moves_like_a_quest_and_statue_for_zero(kg):
    s = _solo(kg)
    kg.next_quest(s, cards.FUNERAL)
    oldest_spec = s["specialist_row"][4]["id"]
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    kg.play(s, 0, {"type": "end_turn"})
    assert s["quest_slots"][0]["quest"] == cards.FUNERAL
    assert oldest_spec in s["specialists_removed"]
    assert kg.game.to_act(s) == {0} and s["funeral"] is None
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "build_statue"})
    kg.play(s, 0, kg.moves(s, 0, "place")[0])
    assert kg.coins(s, 0) >= coins
    assert any(r["name"] == "King's Statue" for r in s["guilds"][0]["rooms"])
    assert all(sl is None or sl["quest"] != cards.FUNERAL for sl in s["quest_slots"])
    assert s["turn"]["action"] == "statue"


def test_solo_council_then_one_more_turn_and_title(kg):
    s = _solo(kg)
    kg.next_quest(s, cards.COUNCIL)
    for _ in range(2):
        kg.play(s, 0, {"type": "gather"})
        kg.play(s, 0, kg.moves(s, 0, "take")[0])
        if kg.top(s):
            kg.play(s, 0, {"type": "done"})
        kg.play(s, 0, {"type": "end_turn"})
    assert s["over"]
    assert s["outcome"]["title"] == "RECRUIT"


def test_solo_title_table_and_no_charm_bonus(kg):
    assert [scoring.solo_title(x) for x in (0, 49, 50, 69, 70, 80, 89, 90, 120)] == [
        "RECRUIT", "RECRUIT", "MEMBER", "MEMBER", "LEADER", "KING", "KING", "LEGEND", "LEGEND"]
    s = _solo(kg)
    kg.to_hand(s, 0, "Glowing Charm")
    assert scoring.score_sheet(s)[0]["charm_bonus"] == 0


def test_solo_scrolls_have_no_next_player(kg):
    s = _solo(kg)
    scroll = kg.to_hand(s, 0, "Scroll of Riches")
    kg.play(s, 0, {"type": "play", "card": scroll})
    assert kg.coins(s, 0) == 44 and kg.top(s) is None
