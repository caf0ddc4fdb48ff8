"""Rules 3 of The King's Guild (issue 9, discrepancies 5-7): given a position, when a move,
then the rulebook's result under rules 3 - and for each change, a rules-2 game still plays
as before (``kg.new(..., rules="2")``)."""

from __future__ import annotations

import pytest

from games.kings_guild import GAME, cards, stall, takebacks
from games.rng import RecordingRandom

STUCK = ["Guard the Faerie Saplings", "Catch the Jeweltone Fox", "Climb the Shimmering Mountain",
         "Secure the Oldtown Library", "Acquire the Rod of Ages"]
"""Five one-item quests that need gems or magic."""
TWO_METAL = "Protect the Eastern Ramparts"  # one item: a sword for 2 metal


def test_rules_versions_three_and_two_still_play():
    assert GAME.rules_versions[:2] == ("2", "3")  # rules 4: tests/.../test_rules_v4.py
    players = ["A", "B"]
    new = GAME.for_rules("3").setup(players, {}, RecordingRandom(1))
    old = GAME.for_rules("2").setup(players, {}, RecordingRandom(1))
    assert new.pop("rules") == 3
    assert "rules" not in old and old == new  # a rules-2 state is exactly as before


# -- 5. solo: the right-most specialist leaves after every expand action, at once ----------


def _solo(kg, rules=None):
    s = kg.new(1, rules=rules)
    s["guilds"][0]["coins"] = 40
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"])
    return s


def _contract_hires(kg, s):
    return {cards.specialist_name(m["specialist"]) for m in kg.moves(s, 0, "hire")}


def test_solo_expand_rightmost_specialist_leaves_before_a_contract_in_the_same_turn(kg):
    """"After every expand action, remove the right-most specialist from the game": the
    Expand action (one purchase) ends when the player plays the Contract, so the Courier is
    gone and the Contract cannot hire it."""
    s = _solo(kg)
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})  # the Miner
    assert cards.specialist_ids()["Courier"] not in s["specialists_removed"]  # may buy again
    contract = kg.to_hand(s, 0, "Contract")
    kg.play(s, 0, {"type": "play", "card": contract})
    assert s["specialists_removed"] == [cards.specialist_ids()["Courier"]]
    assert kg.top(s)["kind"] == "contract"
    row = {cards.specialist_name(e["id"]) for e in s["specialist_row"]}
    assert "Courier" not in row and _contract_hires(kg, s) == row
    kg.play(s, 0, kg.moves(s, 0, "hire")[0])
    kg.play(s, 0, {"type": "end_turn"})
    assert len(s["specialists_removed"]) == 1  # once per expand action, not again at the end


def test_solo_expand_second_purchase_ends_the_action_and_removes_the_rightmost_at_once(kg):
    s = _solo(kg)
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    kg.play(s, 0, {"type": "build", "room": "Library"})
    assert s["specialists_removed"] == []  # the room is not placed yet: the action goes on
    kg.play(s, 0, kg.moves(s, 0, "place")[0])
    assert s["specialists_removed"] == [cards.specialist_ids()["Courier"]]
    assert all(e is not None for e in s["specialist_row"])  # refilled from the deck
    assert kg.moves(s, 0, "hire") == [] and kg.moves(s, 0, "build") == []
    kg.play(s, 0, {"type": "end_turn"})
    assert len(s["specialists_removed"]) == 1


def test_solo_expand_one_purchase_then_selling_ends_the_action(kg):
    """Treasures are played or sold before or after the action, not in the middle of it: a
    sale after one purchase ends the Expand action (no second purchase this turn)."""
    s = _solo(kg)
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    card = kg.to_hand(s, 0, "Coin Purse")
    kg.play(s, 0, {"type": "sell", "card": card})
    assert s["specialists_removed"] == [cards.specialist_ids()["Courier"]]
    assert kg.moves(s, 0, "hire") == [] and kg.moves(s, 0, "build") == []


def test_solo_a_contract_without_an_expand_action_removes_nothing(kg):
    """The Contract hires "without spending an action": it is no expand action."""
    s = _solo(kg)
    contract = kg.to_hand(s, 0, "Contract")
    kg.play(s, 0, {"type": "play", "card": contract})
    kg.play(s, 0, kg.moves(s, 0, "hire")[0])
    assert s["specialists_removed"] == []


def test_solo_rules_2_the_rightmost_specialist_left_at_the_end_of_the_turn(kg):
    s = _solo(kg, rules="2")
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    contract = kg.to_hand(s, 0, "Contract")
    kg.play(s, 0, {"type": "play", "card": contract})
    assert "Courier" in _contract_hires(kg, s)  # rules 2: still there
    kg.play(s, 0, [m for m in kg.moves(s, 0, "hire")
                   if cards.specialist_name(m["specialist"]) == "Courier"][0])
    assert s["specialists_removed"] == []
    kg.play(s, 0, {"type": "end_turn"})
    assert len(s["specialists_removed"]) == 1  # the next card went instead
    assert s["specialists_removed"] != [cards.specialist_ids()["Courier"]]


# -- 6. the stall breaker fires only when the table is stuck --------------------------------


def _table(kg, quests, rules=None, coins=0):
    """A default 2-player game: ``quests`` in the slots, every seat with ``coins``, no
    resources and an empty hand."""
    s = kg.new(2, rules=rules)
    assert s["options"] == {"stall_breaker": True}  # the default
    for i, name in enumerate(quests):
        kg.slot(s, i, kg.quest_id(name))
    for seat in (0, 1):
        s["guilds"][seat]["coins"] = coins
    return s


def _idle(kg, s, turns):
    """``turns`` turns in which nobody crafts: each gathers one basic resource, not metal."""
    for _ in range(turns):
        seat = s["current"]
        _gather_one(kg, s, seat)
        kg.play(s, seat, {"type": "end_turn"})


def _gather_one(kg, s, seat):
    kg.play(s, seat, {"type": "gather"})
    take = [m for m in kg.moves(s, seat, "take") if m["resource"] != "metal"]
    kg.play(s, seat, take[0])
    if kg.top(s):
        kg.play(s, seat, {"type": "done"})
    while kg.moves(s, seat, "discard_resource"):
        kg.play(s, seat, [m for m in kg.moves(s, seat, "discard_resource")
                          if m["resource"] != "metal"][0])


def test_stall_breaker_never_retires_a_craftable_two_metal_quest_in_a_default_2p_game(kg):
    """The issue's position: a default 2-player game, a 2-metal quest on the board that a
    seat can craft now. Twenty idle rounds later it is still there."""
    s = _table(kg, [TWO_METAL] + STUCK[:4])
    kg.give(s, 0, metal=2)
    assert any(m["type"] == "craft" for m in kg.moves(s, 0))
    assert not stall.stuck(s)
    _idle(kg, s, 40)
    assert s["quests_removed"] == [] and s["quest_slots"][0]["quest"] == kg.quest_id(TWO_METAL)


def test_stall_breaker_never_retires_a_quest_someone_can_gather_for(kg):
    """Nobody holds metal, but metal can be gathered: the 2-metal quest is within reach."""
    s = _table(kg, [TWO_METAL] + STUCK[:4])
    assert not stall.stuck(s)
    _idle(kg, s, 40)
    assert s["quests_removed"] == []


def test_stall_breaker_rules_2_retired_the_craftable_two_metal_quest(kg):
    s = _table(kg, [TWO_METAL] + STUCK[:4], rules="2")
    kg.give(s, 0, metal=2)
    _idle(kg, s, 10)
    assert s["quests_removed"] == [kg.quest_id(TWO_METAL)]


def test_stall_breaker_retires_the_oldest_quest_of_a_truly_stuck_table(kg):
    """Every open item needs gems or magic, nobody may gather them, nobody has a coin or a
    treasure: after five idle rounds the oldest quest is retired, and not a turn before."""
    s = _table(kg, STUCK)
    assert stall.stuck(s)
    _idle(kg, s, 9)
    assert s["quests_removed"] == []
    _idle(kg, s, 1)
    assert s["quests_removed"] == [kg.quest_id(STUCK[0])]


def test_stall_breaker_off_never_retires_even_a_stuck_table(kg):
    s = kg.new(2, options={"stall_breaker": False})
    for i, name in enumerate(STUCK):
        kg.slot(s, i, kg.quest_id(name))
    for seat in (0, 1):
        s["guilds"][seat]["coins"] = 0
    _idle(kg, s, 20)
    assert s["quests_removed"] == []


def test_stall_breaker_waits_while_a_seat_can_pay_for_the_gem_workshop(kg):
    s = _table(kg, STUCK, coins=0)
    s["guilds"][1]["coins"] = 5  # the Gem Workshop costs 5
    assert not stall.stuck(s)
    _idle(kg, s, 12)
    assert s["quests_removed"] == []


def test_stall_breaker_two_players_never_own_both_gathering_rooms(kg):
    """With the Magic Arcaenum a seat may not build the Gem Workshop in a 2-player game:
    coins for it do not open the gem quests."""
    s = _table(kg, [STUCK[0], STUCK[1], STUCK[2]], coins=0)
    for i in (3, 4):
        s["quests_boxed"].append(s["quest_slots"][i]["quest"])
        s["quest_slots"][i] = None
    kg.room(s, 1, "Magic Arcaenum", 0, 1)
    s["room_supply"]["Magic Arcaenum"] -= 1
    s["guilds"][1]["coins"] = 5
    assert stall.stuck(s)
    s["guilds"][0]["coins"] = 5
    assert not stall.stuck(s)


def test_stall_breaker_a_treasure_in_hand_that_gives_gems_is_a_way_out(kg):
    s = _table(kg, STUCK)
    kg.to_hand(s, 0, "Brilliant Diamonds")
    kg.give(s, 0, metal=1)  # Guard the Faerie Saplings: 1 metal, 1 gem
    assert not stall.stuck(s)
    assert stall.stuck(s, hands=False) and stall.hands_decide(s)


def test_stall_breaker_charms_sell_for_nothing_so_they_are_no_way_out(kg):
    s = _table(kg, STUCK)
    kg.to_hand(s, 0, "Glowing Charm")
    kg.to_hand(s, 1, "Stunning Charm")
    assert stall.stuck(s)


def test_stall_breaker_a_seat_without_a_free_sigil_cannot_start_a_two_item_quest(kg):
    """Burn the Briar Roots: wood + magic, and 2 metal + leather. Without a free sigil the
    metal item alone cannot be started (sigils come back only when a quest is completed),
    and both items together need magic; one free sigil is a way out."""
    s = _table(kg, STUCK[:2] + ["Sail to Bloodsand Beach", "Save the Plumtree Grangers",
                                "Burn the Briar Roots"])
    s["quest_slots"][2]["crafted"] = [None, 0]  # each seat's sigil on a quest whose open
    s["quest_slots"][3]["crafted"] = [None, 1]  # item needs gems
    for seat in (0, 1):
        s["guilds"][seat]["offered"] = True  # the other sigil
    assert stall.stuck(s)
    s["guilds"][0]["offered"] = False
    assert not stall.stuck(s)


def test_stall_breaker_lobby_label_says_when_it_fires():
    field = GAME.option_fields()[0]
    assert field["name"] == "stall_breaker" and field["default"] is True
    assert "NOT in the rulebook" in field["label"]
    assert "only when the table is stuck" in field["label"]
    assert "5 full rounds without a craft" in field["label"]


def test_stall_breaker_check_that_looked_at_the_hands_cannot_be_taken_back(kg):
    """Whether it fires can depend on a hand (Brilliant Diamonds): an end of turn at which
    the check ran with a verdict the hands could change tells the table something about
    them, so it cannot be taken back."""
    s = _table(kg, STUCK)
    kg.to_hand(s, 1, "Brilliant Diamonds")
    kg.give(s, 1, metal=1)
    _idle(kg, s, 9)
    seat = s["current"]
    _gather_one(kg, s, seat)
    assert kg.take_back(s, seat, {"type": "end_turn"}) == takebacks.STALL_CHECK
    assert s["quests_removed"] == []  # the diamonds reach the Faerie Saplings


def test_stall_breaker_check_on_public_facts_alone_can_be_taken_back(kg):
    s = _table(kg, [TWO_METAL] + STUCK[:4])
    _idle(kg, s, 9)
    seat = s["current"]
    _gather_one(kg, s, seat)
    assert kg.take_back(s, seat, {"type": "end_turn"}) is None


# -- 7. readings: reshuffling, solo scrolls --------------------------------------------------


def test_treasure_discard_is_reshuffled_only_when_the_next_card_of_that_colour_is_drawn(kg):
    from games.kings_guild import treasures

    s = kg.new()
    deck = s["treasure_decks"]["blue"]
    last = deck[0]
    s["discards"]["blue"].extend(deck[1:])
    del deck[1:]
    assert treasures.draw(s, "blue", RecordingRandom(1)) == last
    assert s["treasure_decks"]["blue"] == [] and s["discards"]["blue"]  # not yet
    card = treasures.draw(s, "blue", RecordingRandom(1))
    assert cards.treasure(card)["color"] == "blue" and s["discards"]["blue"] == []


@pytest.mark.parametrize("scroll", ["Scroll of Riches", "Scroll of Plenty", "Scroll of Wonders"])
def test_solo_scrolls_skip_the_next_player_part(kg, scroll):
    s = kg.new(1)
    card = kg.to_hand(s, 0, scroll)
    kg.play(s, 0, {"type": "play", "card": card})
    kinds = [e["kind"] for e in s["pending"]]
    assert "wonders_next" not in kinds and len([k for k in kinds if k == "plenty"]) <= 1
    if scroll == "Scroll of Riches":
        assert kg.coins(s, 0) == 14


# -- migration ---------------------------------------------------------------------------


def test_migrating_a_rules_2_game_to_rules_3_switches_the_changed_rules_on(kg):
    s = _table(kg, [TWO_METAL] + STUCK[:4], rules="2")
    GAME.for_rules("2").migrate(s, "3")
    assert s["rules"] == 3
    kg.give(s, 0, metal=2)
    _idle(kg, s, 12)
    assert s["quests_removed"] == []  # the craftable quest stays, as under rules 3
    GAME.migrate(s, "2")
    assert "rules" not in s


def test_migrating_a_solo_game_in_the_middle_of_an_expand_action_removes_one_specialist(kg):
    s = _solo(kg, rules="2")
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    GAME.for_rules("2").migrate(s, "3")
    kg.play(s, 0, {"type": "end_turn"})
    assert s["specialists_removed"] == [cards.specialist_ids()["Courier"]]
    s = _solo(kg)
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    card = kg.to_hand(s, 0, "Coin Purse")
    kg.play(s, 0, {"type": "sell", "card": card})  # the action ends: the Courier leaves
    GAME.migrate(s, "2")
    kg.play(s, 0, {"type": "end_turn"})
    assert s["specialists_removed"] == [cards.specialist_ids()["Courier"]]


def test_the_view_says_which_rules_the_game_plays(kg):
    assert GAME.view(kg.new(2), None)["rules"] == 4
    assert GAME.view(kg.new(2, rules="3"), None)["rules"] == 3
    assert GAME.view(kg.new(2, rules="2"), 0)["rules"] == 2
