"""The King's Funeral (sealed bid), the Offering to the Council, final turns and scoring."""

from __future__ import annotations

import pytest

from games.kings_guild import cards, scoring
from games.protocol import IllegalMove

DAGGER = 1


def _complete_dagger(kg, s, seat=0, slot=0):
    kg.slot(s, slot, DAGGER)
    kg.give(s, seat, wood=1, metal=1)
    kg.play(s, seat, {"type": "craft", "slot": slot, "items": [0]})


def _funeral(kg, n=3):
    s = kg.new(n)
    kg.next_quest(s, cards.FUNERAL)
    _complete_dagger(kg, s)
    return s


def test_rule_funeral_every_seat_bids_secretly(kg):
    s = _funeral(kg)
    assert kg.game.to_act(s) == {0, 1, 2}
    assert s["quest_slots"][0] is None
    kg.play(s, 1, {"type": "bid", "amount": 5})
    assert kg.game.to_act(s) == {0, 2}
    assert kg.game.view(s, 1)["funeral"]["your_bid"] == 5
    for seat in (0, 2, None):
        v = kg.game.view(s, seat)
        assert v["funeral"]["your_bid"] is None and v["funeral"]["has_bid"] == [1]
        assert v["funeral_result"] is None
    event = {"version": 9, "actor": 1, "names": s["names"],
             "data": {"move": {"type": "bid", "amount": 5}}}
    assert "5" not in kg.game.describe(event, 0)
    assert "5" not in kg.game.describe(event, None)
    assert "5" in kg.game.describe(event, 1)
    with pytest.raises(IllegalMove):
        kg.play(s, 1, {"type": "bid", "amount": 3})


def test_rule_funeral_players_hide_their_coins(kg):
    s = _funeral(kg)
    v = kg.game.view(s, 1)
    assert v["guilds"][1]["coins"] == kg.coins(s, 1)
    assert v["guilds"][0]["coins"] is None and v["guilds"][2]["coins"] is None
    assert all(g["coins"] is None for g in kg.game.view(s, None)["guilds"])
    for seat, amount in [(0, 0), (1, 0), (2, 0)]:
        kg.play(s, seat, {"type": "bid", "amount": amount})
    assert kg.game.view(s, 1)["guilds"][0]["coins"] == kg.coins(s, 0)


def test_rule_funeral_highest_bid_pays_and_builds_statue(kg):
    s = _funeral(kg)
    next_quest = s["quest_deck"][0]
    coins = [kg.coins(s, i) for i in range(3)]
    for seat, amount in [(0, 2), (1, 6), (2, 1)]:
        kg.play(s, seat, {"type": "bid", "amount": amount})
    assert s["funeral_result"] == {"bids": [2, 6, 1], "winner": 1, "tie": False}
    assert kg.game.to_act(s) == {1}
    kg.play(s, 1, kg.moves(s, 1, "place")[0])
    assert any(r["name"] == "King's Statue" for r in s["guilds"][1]["rooms"])
    assert kg.coins(s, 0) == coins[0] and kg.coins(s, 2) == coins[2]
    assert kg.coins(s, 1) <= coins[1] - 6 + 4
    assert s["quest_slots"][0]["quest"] == next_quest
    assert kg.game.to_act(s) == {0}


def test_rule_funeral_tie_builds_nothing(kg):
    s = _funeral(kg)
    coins = [kg.coins(s, i) for i in range(3)]
    for seat, amount in [(0, 4), (1, 4), (2, 1)]:
        kg.play(s, seat, {"type": "bid", "amount": amount})
    assert s["funeral_result"]["winner"] is None and s["funeral_result"]["tie"]
    assert [kg.coins(s, i) for i in range(3)] == coins
    assert not any(r["name"] == "King's Statue" for p in s["guilds"] for r in p["rooms"])
    assert s["quest_slots"][0] is not None


def test_rule_funeral_bid_limited_to_own_coins(kg):
    s = _funeral(kg)
    s["guilds"][2]["coins"] = 3
    assert [m["amount"] for m in kg.moves(s, 2)] == [0, 1, 2, 3]


def _council(kg, n=3):
    s = kg.new(n)
    kg.next_quest(s, cards.COUNCIL)
    _complete_dagger(kg, s)
    return s


def _pass(kg, s, seat):
    kg.play(s, seat, {"type": "gather"})
    kg.play(s, seat, kg.moves(s, seat, "take")[0])
    if kg.top(s):
        kg.play(s, seat, {"type": "done"})
    while kg.moves(s, seat, "discard_resource"):
        kg.play(s, seat, kg.moves(s, seat, "discard_resource")[0])
    kg.play(s, seat, {"type": "end_turn"})


def test_rule_council_each_player_one_more_turn_including_drawer(kg):
    s = _council(kg)
    assert s["council_drawn"] and s["quest_slots"][0] is None
    kg.play(s, 0, {"type": "end_turn"})
    assert s["final_turns_left"] == 3
    _pass(kg, s, 1)
    _pass(kg, s, 2)
    assert not s["over"] and s["current"] == 0
    _pass(kg, s, 0)
    assert s["over"] and kg.game.to_act(s) == set()
    assert kg.game.outcome(s) is not None


def test_rule_council_offering_instead_of_action(kg):
    s = _council(kg)
    kg.play(s, 0, {"type": "end_turn"})
    kg.give(s, 1, wood=4)
    s["guilds"][1]["coins"] = 9
    kg.play(s, 1, {"type": "offer"})
    assert s["guilds"][1]["offered"]
    assert kg.moves(s, 1, "gather") == [] and {"type": "end_turn"} in kg.moves(s, 1)
    assert scoring.offering_points(s, 1) == 2 + 3 + 2


def test_rule_council_no_offering_with_both_sigils_on_quests(kg):
    s = _council(kg)
    kg.play(s, 0, {"type": "end_turn"})
    kg.slot(s, 1, 2)
    kg.slot(s, 2, 3)
    s["quest_slots"][1]["crafted"] = [1, None]
    s["quest_slots"][2]["crafted"] = [1, None]
    assert {"type": "offer"} not in kg.moves(s, 1)


def test_rule_offering_only_on_final_turn(kg):
    s = kg.new()
    assert {"type": "offer"} not in kg.moves(s, 0)


def test_rule_scoring_sigil_quests_go_to_owner_without_treasure(kg):
    s = _council(kg, 2)
    kg.slot(s, 1, 2)
    s["quest_slots"][1]["crafted"] = [1, None]
    kg.play(s, 0, {"type": "end_turn"})
    _pass(kg, s, 1)
    _pass(kg, s, 0)
    assert s["over"]
    assert 2 in s["guilds"][1]["quests"] and s["guilds"][1]["hand"] == []
    assert s["outcome"]["sheet"][1]["quests"] == 1


def test_rule_scoring_categories_and_total(kg):
    s = kg.new(2)
    kg.to_hand(s, 0, "Stunning Charm")
    kg.to_hand(s, 0, "Ancient Helm")
    kg.to_hand(s, 0, "Ancient Sword")
    kg.owns_quest(s, 0, DAGGER)
    kg.hire(s, 0, "Oracle")
    kg.room(s, 0, "Warehouse", 0, 0)
    s["guilds"][0]["offered"] = True
    s["guilds"][0]["coins"] = 7
    kg.give(s, 0, wood=3)
    row = scoring.score_sheet(s)[0]
    assert {k: row[k] for k in scoring.CATEGORIES} == {
        "charms": 3, "charm_bonus": 3, "relics": 5, "quests": 1, "specialists": 3,
        "rooms": 2, "offering": 2 + 2 + 1}
    assert row["total"] == 3 + 3 + 5 + 1 + 3 + 2 + 5


def test_rule_scoring_tie_break_on_coins(kg):
    s = kg.new(3)
    s["guilds"][0]["coins"] = 5
    s["guilds"][1]["coins"] = 9
    s["guilds"][2]["coins"] = 9
    from games.kings_guild import turn

    turn.finish(s)
    out = kg.game.outcome(s)
    assert out["scores"] == [0, 0, 0]
    assert out["ranking"][2] == 0 and out["places"] == [3, 1, 1]
    assert out["tie_break"] == "most coins left" and out["winners"] == [1, 2]
    assert out["coins"] == [5, 9, 9]
    assert set(out["sheet"][0]) >= set(scoring.CATEGORIES) | {"total"}


def test_option_stall_breaker_off_is_the_rulebook_game(kg):
    """Without the option nothing leaves the board however long nobody finishes a quest."""
    s = kg.new(2, options={"stall_breaker": False})
    assert s["options"] == {"stall_breaker": False}
    first = [sl["quest"] for sl in s["quest_slots"]]
    deck = list(s["quest_deck"])
    for _ in range(30):
        _pass(kg, s, s["current"])
    assert [sl["quest"] for sl in s["quest_slots"]] == first
    assert s["quest_deck"] == deck and s["quests_removed"] == []


def test_option_stall_breaker_is_offered_in_the_lobby_and_validated(kg):
    from games.protocol import IllegalMove

    fields = kg.game.option_fields()
    assert [f["name"] for f in fields] == ["stall_breaker"]
    assert fields[0]["type"] == "bool" and fields[0]["default"] is True
    assert "NOT in the rulebook" in fields[0]["label"]
    assert kg.game.normalize_options({}, 3) == {"stall_breaker": True}
    assert kg.game.normalize_options({"stall_breaker": False}, 3) == {"stall_breaker": False}
    assert kg.game.normalize_options({"stall_breaker": True}, 3) == {"stall_breaker": True}
    with pytest.raises(IllegalMove):
        kg.game.normalize_options({"stall_breaker": "yes"}, 3)
    with pytest.raises(IllegalMove):
        kg.game.normalize_options({"variant": True}, 3)


def test_option_stall_breaker_on_gives_a_sigil_quest_to_its_owner(kg):
    """Rules 2 (rules 3: tests/games/kings_guild/test_rules_v3.py)."""
    s = kg.new(2, options={"stall_breaker": True}, rules="2")
    qid = kg.quest_id("Explore Bluevein Isle")
    kg.slot(s, 0, qid)
    s["quest_slots"][0]["crafted"] = [1, None]
    for i in range(1, 5):  # the only quest on the board carries seat 2's sigil
        s["quests_boxed"].append(s["quest_slots"][i]["quest"])
        s["quest_slots"][i] = None
    hand = len(s["guilds"][1]["hand"])
    for _ in range(10):
        _pass(kg, s, s["current"])
    assert qid in s["guilds"][1]["quests"]
    assert len(s["guilds"][1]["hand"]) == hand
    assert s["quest_slots"][0] is not None and s["quest_slots"][0]["quest"] != qid


def test_option_stall_breaker_on_waits_while_players_craft(kg):
    """A craft (even one that only starts a quest) resets the count of idle rounds (rules 2:
    it then fires whether or not the table is stuck)."""
    s = kg.new(2, rules="2")
    assert s["options"] == {"stall_breaker": True}
    first = [sl["quest"] for sl in s["quest_slots"]]
    for _ in range(9):
        _pass(kg, s, s["current"])
    qid = kg.quest_id("Explore Bluevein Isle")
    kg.slot(s, 4, qid)
    first[4] = qid
    seat = s["current"]
    kg.give(s, seat, cloth=3)
    kg.play(s, seat, {"type": "craft", "slot": 4, "items": [0]})
    kg.play(s, seat, {"type": "end_turn"})  # the crafting turn is the first idle one
    for _ in range(8):
        _pass(kg, s, s["current"])
    assert [sl["quest"] for sl in s["quest_slots"]] == first
    _pass(kg, s, s["current"])
    assert len(s["quests_removed"]) == 1


def test_option_stall_breaker_on_retires_the_oldest_quest(kg):
    """Rules 2: after five idle rounds, whether or not the table is stuck."""
    s = kg.new(2, options={"stall_breaker": True}, rules="2")
    first = [sl["quest"] for sl in s["quest_slots"]]
    deck = len(s["quest_deck"])
    for _ in range(10):
        _pass(kg, s, s["current"])
    assert len(s["quest_deck"]) == deck - 1
    assert len(s["quests_removed"]) == 1 and s["quests_removed"][0] in first


STUCK = ["Guard the Faerie Saplings", "Catch the Jeweltone Fox", "Climb the Shimmering Mountain",
         "Secure the Oldtown Library", "Acquire the Rod of Ages"]


@pytest.mark.parametrize("breaker", [False, True])
def test_option_stall_breaker_a_truly_stuck_table(kg, breaker):
    """Every quest needs gems or magic, nobody may gather them, nobody has a coin or a
    treasure: the rulebook offers only Gather for ever (why the option exists and is on by
    default); with the option the oldest quest is retired after five idle rounds."""
    s = kg.new(2, options={"stall_breaker": breaker})
    for i, name in enumerate(STUCK):
        kg.slot(s, i, kg.quest_id(name))
    for seat in (0, 1):
        s["guilds"][seat]["coins"] = 0
    assert {m["type"] for m in kg.moves(s, 0)} == {"gather"}
    for _ in range(10):
        assert {m["type"] for m in kg.moves(s, s["current"])} == {"gather"}
        _pass(kg, s, s["current"])
    retired = [kg.quest_id(n) for n in STUCK if kg.quest_id(n) in s["quests_removed"]]
    assert retired == ([kg.quest_id(STUCK[0])] if breaker else [])
