"""Take-backs: a move cannot be taken back once it drew randomness or showed anyone something
its mover could not see (a treasure drawn, a quest or specialist turned up, the sealed bids,
the Oracle's look, the end of the game); every other move can.

Each test: given a position, when a move is played, then ``kg.take_back`` gives the reason
the platform would refuse (the game's ``reveals``, or "it drew randomness" for a non-empty
tape), or None. The last tests check ``reveals`` against random games: whenever it says a
move showed nothing, re-dealing everything the mover could not see must not change what the
mover (or anyone else) sees after the move.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from games.bots import choose_seat_and_move
from games.kings_guild import GAME, cards, takebacks
from games.protocol import IllegalMove
from games.rng import RecordingRandom, TapePlayer

DAGGER = 1  # mage, Dagger: 1 wood + 1 metal, blue reward
BOOTS_CLOAK = 2  # mage, Cloak 3 cloth / Boots 3 leather + 1 metal (two items)
DREW = "it drew a treasure card"
QUEST = "it turned up the next quest card"
SPECIALIST = "it turned up a new specialist"


def _decision(s, entry: dict[str, Any]) -> None:
    s["pending"].append(entry)


def _empty_quest_deck(s) -> None:
    """No quest card left to turn up (they go to the box, which nobody sees)."""
    s["quests_boxed"] += s["quest_deck"]
    s["quest_deck"] = []


def _empty_specialist_deck(s) -> None:
    s["specialists_boxed"] += s["specialist_deck"]
    s["specialist_deck"] = []


# -- moves that cannot be taken back ---------------------------------------------------------


def test_takeback_refused_completing_a_quest_draws_its_treasure(kg):
    s = kg.new()
    _empty_quest_deck(s)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    assert kg.take_back(s, 0, {"type": "craft", "slot": 0, "items": [0]}) == DREW


def test_takeback_refused_completing_a_quest_refills_its_slot_from_the_deck(kg):
    s = kg.new()
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    reason = kg.take_back(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert reason == f"{DREW} and turned up the next quest card"


def test_takeback_refused_finishing_a_shared_quest_draws_the_treasures_to_split(kg):
    """The drawn treasures wait for the finisher's choice, seen only by the finisher."""
    s = kg.new()
    kg.slot(s, 0, BOOTS_CLOAK)
    s["quest_slots"][0]["crafted"] = [1, None]
    kg.give(s, 0, leather=3, metal=1)
    assert kg.take_back(s, 0, {"type": "craft", "slot": 0, "items": [1]}) == DREW
    assert kg.top(s)["kind"] == "keep_treasure"


def test_takeback_refused_the_refill_after_the_last_decision_of_a_quest(kg):
    """Passing the treasures shows only the mover's own cards, but the slot is refilled
    when the quest's last decision is made: that turns up a quest."""
    s = kg.new()
    kg.slot(s, 0, BOOTS_CLOAK)
    s["quest_slots"][0]["crafted"] = [1, None]
    kg.give(s, 0, leather=3, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [1]})
    assert kg.take_back(s, 0, {"type": "keep", "index": 0}) == QUEST


def test_takeback_refused_the_witch_takes_a_quest_and_its_slot_is_refilled(kg):
    s = kg.new()
    kg.slot(s, 1, DAGGER)
    kg.hire(s, 0, "Witch")
    _decision(s, {"kind": "witch", "seat": 0})
    assert kg.take_back(s, 0, {"type": "take_quest", "slot": 1}) == QUEST


def test_takeback_refused_the_kings_funeral_is_turned_up(kg):
    s = kg.new(3)
    kg.next_quest(s, cards.FUNERAL)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    reason = kg.take_back(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert QUEST.removeprefix("it ") in reason and s["funeral"]


def test_takeback_refused_the_offering_to_the_council_is_turned_up(kg):
    s = kg.new(3)
    kg.next_quest(s, cards.COUNCIL)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    reason = kg.take_back(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert QUEST.removeprefix("it ") in reason and s["council_drawn"]


def test_takeback_refused_hiring_turns_up_a_new_specialist(kg):
    s = kg.new()
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"])
    assert kg.take_back(s, 0, {"type": "hire", "index": 0, "space": "top"}) == SPECIALIST


def test_takeback_refused_the_adventurer_draws_one_treasure_of_each_colour(kg):
    s = kg.new()
    kg.row(s, ["Adventurer", "Miner", "Tanner", "Weaver", "Lumberjack"])
    _empty_specialist_deck(s)
    assert kg.take_back(s, 0, {"type": "hire", "index": 0, "space": "top"}) == DREW


DRAWING_DECISIONS = [
    ({"kind": "start_treasure", "seat": 0}, {"type": "choose_color", "color": "blue"}),
    ({"kind": "minstrel", "seat": 0}, {"type": "draw", "color": "red"}),
    ({"kind": "merchant_draw", "seat": 0, "left": 3}, {"type": "draw", "color": "yellow"}),
    ({"kind": "wonders", "seat": 0}, {"type": "draw", "color": "blue"}),
    ({"kind": "wonders_next", "seat": 0, "exclude": "red"}, {"type": "draw", "color": "blue"}),
    ({"kind": "appraiser", "seat": 0}, {"type": "draw", "color": "yellow"}),
    ({"kind": "hero_bonus", "seat": 0, "color": "red", "specialist": "Fighter"},
     {"type": "pay_for_treasure"}),
    ({"kind": "map_colors", "seat": 0}, {"type": "map_colors", "colors": ["blue", "red"]}),
    ({"kind": "substitute", "seat": 0, "missing": "red", "into": "hand"},
     {"type": "draw", "color": "yellow"}),
]


@pytest.mark.parametrize(("entry", "move"), DRAWING_DECISIONS,
                         ids=[e["kind"] for e, _ in DRAWING_DECISIONS])
def test_takeback_refused_every_decision_that_draws_a_treasure(kg, entry, move):
    s = kg.new()
    _decision(s, entry)
    assert kg.take_back(s, 0, move) == DREW


def test_takeback_refused_a_reshuffled_discard_pile_drew_randomness(kg):
    s = kg.new()
    for card in list(s["treasure_decks"]["blue"]):
        kg._take_card(s, card)
        s["discards"]["blue"].append(card)
    _decision(s, {"kind": "minstrel", "seat": 0})
    assert kg.take_back(s, 0, {"type": "draw", "color": "blue"}) == "it drew randomness"


def test_takeback_refused_the_last_sealed_bid_reveals_them_all(kg):
    s = kg.new(3)
    kg.next_quest(s, cards.FUNERAL)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    kg.play(s, 1, {"type": "bid", "amount": 2})
    kg.play(s, 2, {"type": "bid", "amount": 1})
    reason = kg.take_back(s, 0, {"type": "bid", "amount": 3})
    assert "revealed the sealed bids" in reason and s["funeral_result"]["winner"] == 0


def test_takeback_refused_solo_the_conveyor_turns_up_a_quest_at_the_end_of_the_turn(kg):
    s = kg.new(1)
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    assert kg.take_back(s, 0, {"type": "end_turn"}) == QUEST


def test_takeback_refused_solo_the_oldest_specialist_leaves_after_an_expand(kg):
    s = kg.new(1)
    _empty_quest_deck(s)
    s["guilds"][0]["coins"] = 40
    kg.play(s, 0, {"type": "build", "room": "Library"})
    kg.play(s, 0, kg.moves(s, 0, "place")[0])
    assert kg.take_back(s, 0, {"type": "end_turn"}) == SPECIALIST


def test_takeback_refused_the_stall_breaker_retires_a_quest_and_refills_the_slot(kg):
    """Rules 2 (it fires whether or not the table is stuck)."""
    s = kg.new(2, options={"stall_breaker": True}, rules="2")
    s["stale_turns"] = 9
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    assert kg.take_back(s, 0, {"type": "end_turn"}) == QUEST
    assert len(s["quests_removed"]) == 1


def test_takeback_refused_hiring_the_oracle_shows_the_next_quests(kg):
    s = kg.new()
    kg.row(s, ["Oracle", "Miner", "Tanner", "Weaver", "Lumberjack"])
    _empty_specialist_deck(s)
    reason = kg.take_back(s, 0, {"type": "hire", "index": 0, "space": "top"})
    assert reason == "it showed the Oracle the next quest cards"


def test_takeback_refused_ending_the_turn_before_the_oracles_owner(kg):
    """The Oracle's owner looks at the top of the quest deck when their turn comes."""
    s = kg.new()
    kg.hire(s, 1, "Oracle")
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    assert kg.take_back(s, 0, {"type": "end_turn"}) == "it showed the Oracle the next quest cards"


def test_takeback_refused_the_last_final_turn_ends_the_game(kg):
    s = kg.new(2)
    s["council_drawn"] = True
    s["final_turns_left"] = 1
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    assert kg.take_back(s, 0, {"type": "end_turn"}) == takebacks.GAME_ENDED
    assert s["over"]


def test_takeback_refused_another_players_treasure_made_public(kg):
    """No move of this game shows another seat's hand; should one ever, it counts."""
    s = kg.new()
    card = kg.to_hand(s, 1, "Bag of Gold")
    after = copy.deepcopy(s)
    after["guilds"][1]["hand"].remove(card)
    after["discards"]["yellow"].append(card)
    assert takebacks.reveals(s, after, 0) == "it revealed another player's treasure"
    assert takebacks.reveals(s, after, 1) is None


# -- moves that can be taken back ----------------------------------------------------------


def test_takeback_allowed_gathering_shows_nothing(kg):
    s = kg.new()
    assert kg.take_back(s, 0, {"type": "gather"}) is None
    assert kg.take_back(s, 0, {"type": "take", "resource": "wood"}) is None
    assert kg.take_back(s, 0, {"type": "done"}) is None


def test_takeback_allowed_building_a_room_on_a_bonus_space(kg):
    s = kg.new()
    assert kg.take_back(s, 0, {"type": "build", "room": "Library"}) is None
    assert kg.take_back(s, 0, kg.moves(s, 0, "place")[0]) is None


def test_takeback_allowed_starting_a_two_item_quest(kg):
    s = kg.new()
    kg.slot(s, 0, BOOTS_CLOAK)
    kg.give(s, 0, cloth=3)
    assert kg.take_back(s, 0, {"type": "craft", "slot": 0, "items": [0]}) is None


def test_takeback_allowed_selling_or_playing_your_own_treasure(kg):
    s = kg.new()
    gold = kg.to_hand(s, 0, "Bag of Gold")
    oak = kg.to_hand(s, 0, "Oak Branches")
    assert kg.take_back(s, 0, {"type": "sell", "card": gold}) is None
    assert kg.take_back(s, 0, {"type": "play", "card": oak}) is None


def test_takeback_allowed_passing_the_rest_of_a_shared_quest_treasure(kg):
    """The partner learns the passed cards, but the mover knew them: the partner must agree."""
    s = kg.new()
    _empty_quest_deck(s)
    kg.slot(s, 0, BOOTS_CLOAK)
    s["quest_slots"][0]["crafted"] = [1, None]
    kg.give(s, 0, leather=3, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [1]})
    assert kg.take_back(s, 0, {"type": "keep", "index": 0}) is None
    assert len(s["guilds"][1]["hand"]) == 1


def test_takeback_allowed_ending_a_turn_in_a_game_for_several(kg):
    s = kg.new(3)
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    assert kg.take_back(s, 0, {"type": "end_turn"}) is None


def test_takeback_allowed_a_sealed_bid_while_others_still_bid(kg):
    s = kg.new(3)
    kg.next_quest(s, cards.FUNERAL)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert kg.take_back(s, 1, {"type": "bid", "amount": 2}) is None
    assert kg.take_back(s, 2, {"type": "bid", "amount": 0}) is None


def test_takeback_allowed_hiring_when_the_specialist_deck_is_empty(kg):
    s = kg.new()
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"])
    _empty_specialist_deck(s)
    assert kg.take_back(s, 0, {"type": "hire", "index": 0, "space": "top"}) is None


# -- soundness: a move that showed nothing does not depend on what its mover cannot see ------


def _copy(state: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(state))  # states are JSON data; faster than deepcopy


def _shuffle_positions(positions: list[tuple[list, int]], rnd: random.Random) -> None:
    """Deal the cards at these (list, index) positions anew among the same positions."""
    dealt = [pile[i] for pile, i in positions]
    rnd.shuffle(dealt)
    for (pile, i), card in zip(positions, dealt, strict=True):
        pile[i] = card


def determinize(state: dict[str, Any], knowers: set[int],
                rnd: random.Random) -> dict[str, Any]:
    """A copy of ``state`` with everything hidden from every seat in ``knowers`` dealt anew,
    as those seats could not tell apart: each treasure deck with the cards of its colour in
    the hands and undivided treasures of the other seats; the quest deck (but the cards an
    Oracle among them sees, and the Funeral and Council in their places) with the box, age by
    age; the specialist deck with the box, letter by letter (not the cards the solo rules
    remove, which everyone knows); the other seats' sealed bids."""
    s = _copy(state)
    unseen_hands = [p["hand"] for t, p in enumerate(s["guilds"]) if t not in knowers]
    unseen_hands += [e["cards"] for e in s["pending"]
                     if e["kind"] == "keep_treasure" and e["seat"] not in knowers]
    for color, deck in s["treasure_decks"].items():
        positions = [(deck, i) for i in range(len(deck))]
        positions += [(h, i) for h in unseen_hands for i, c in enumerate(h)
                      if cards.treasure(c)["color"] == color]
        _shuffle_positions(positions, rnd)
    peek = {q for k in knowers for q in takebacks.oracle_peek(s, k)}
    for age in ("I-basic", "I-gem-magic", "II"):
        positions = [(pile, i) for pile in (s["quest_deck"], s["quests_boxed"])
                     for i, q in enumerate(pile)
                     if q in cards.quests() and q not in peek and cards.quests()[q]["deck"] == age]
        _shuffle_positions(positions, rnd)
    known_out = set(cards.setup_tables()["solo"]["remove_specialists"]) if s["solo"] else set()
    for letter in "ABC":
        positions = [(pile, i) for pile in (s["specialist_deck"], s["specialists_boxed"])
                     for i, sid in enumerate(pile)
                     if cards.specialists()[sid]["deck"] == letter
                     and cards.specialist_name(sid) not in known_out]
        _shuffle_positions(positions, rnd)
    if s["funeral"]:
        for bidder in s["funeral"]["bids"]:
            if int(bidder) not in knowers:
                coins = s["guilds"][int(bidder)]["coins"]
                s["funeral"]["bids"][bidder] = rnd.randint(0, coins)
    return s


def _seen(state: dict[str, Any], viewer: int | None) -> tuple[Any, ...]:
    """What ``viewer`` is shown: the view, the position summary and the legal moves."""
    moves = GAME.legal_moves(state, viewer) if viewer is not None else []
    return GAME.view(state, viewer), GAME.summary(state, viewer), moves


def leak(before: dict[str, Any], after: dict[str, Any], seat: int, move: dict[str, Any],
         viewer: int | None, rnd: random.Random, check_views: bool = True) -> str | None:
    """Replay ``move`` on ``before`` with everything hidden from both the mover and
    ``viewer`` re-dealt; a difference in what ``viewer`` sees afterwards means the move
    showed the viewer something hidden. "skip" when the move is not legal there.
    ``check_views``: first check that the re-deal itself changed neither's view."""
    knowers = {seat} if viewer is None else {seat, viewer}
    other = determinize(before, knowers, rnd)
    for k in {seat, viewer} if check_views else ():
        assert _seen(other, k) == _seen(before, k), "determinize changed what a seat sees"
    if move not in GAME.legal_moves(other, seat):
        return "skip"
    try:
        GAME.apply(other, seat, copy.deepcopy(move), TapePlayer([]))
    except IllegalMove:
        return "skip"
    if _seen(other, viewer) != _seen(after, viewer):
        return f"{move} changed what {viewer} sees depending on hidden cards"
    return None


def test_soundness_check_catches_a_draw(kg):
    """The check is not vacuous: it sees a treasure drawn by a completed quest."""
    s = kg.new()
    _empty_quest_deck(s)
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    before = copy.deepcopy(s)
    move = {"type": "craft", "slot": 0, "quest": DAGGER, "items": [0]}
    kg.play(s, 0, move)
    rnd = random.Random(3)
    assert any(leak(before, s, 0, move, 0, rnd) not in (None, "skip") for _ in range(5))


@pytest.mark.soak
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_takeback_allowed_moves_do_not_depend_on_hidden_cards(players):
    """In random games, every move with an empty tape for which ``reveals`` finds nothing
    leaves what the mover sees (or, every other move, another seat or a spectator: view,
    summary, legal moves) exactly as it would be had every card hidden from both been dealt
    otherwise."""
    chooser = random.Random(100 + players)
    rnd = random.Random(players)
    state = GAME.setup([f"P{i + 1}" for i in range(players)], {"stall_breaker": True},
                       RecordingRandom(players))
    checked = skipped = refused = 0
    for _ in range(12000):  # bounded: a game ends within this (4 random bots, rules 4: 9,975)
        if state["over"]:
            break
        seat, move = choose_seat_and_move(GAME, state, chooser)
        before = _copy(state)
        rng = RecordingRandom(chooser.getrandbits(64))
        GAME.apply(state, seat, copy.deepcopy(move), rng)
        if rng.tape or GAME.reveals(before, state, seat, move):
            refused += 1
            continue
        # views are the expensive part: one viewer per move, the mover every other move
        # and in between each seat and the spectator in turn
        viewers = [seat, *(t for t in range(players) if t != seat), None]
        viewer = viewers[checked % len(viewers)] if checked % 2 else seat
        found = leak(before, state, seat, move, viewer, rnd, check_views=checked % 5 == 0)
        assert found in (None, "skip"), found
        skipped += found == "skip"
        checked += 1
    assert state["over"]
    assert checked > 30 and refused > 10
    assert skipped < checked
