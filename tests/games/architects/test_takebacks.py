"""Take-backs: a move that showed anyone a card its mover could not see is final.

Each kind of draw or reveal has a test: given a position, when the move is made, then
``reveals`` gives a reason (or the move drew randomness: its tape is not empty).  Moves
that show nothing hidden may still be taken back.  A soundness check then plays random
games and, for every move that could be taken back, re-deals every card its mover could
not see and checks that the move shows every seat exactly the same.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from games.architects import GAME, cards, guildhall
from games.architects.takebacks import drawn_from_top, seen, seen_by
from games.bots import choose_seat_and_move
from games.protocol import IllegalMove
from games.rng import RecordingRandom

LABOURER = 13  # an Apprentice with every skill
SMITHY, DRAFTING_ROOM = 1, 23
ACOLYTE_DRAWS = 1  # "When advancing work on the Cathedral, also draw 1 Building card"


def decide(state: dict[str, Any], seat: int, move: dict[str, Any],
           seed: int = 7) -> tuple[str | None, list[int]]:
    """Make the move as the service does: (why it cannot be taken back, its tape)."""
    before = copy.deepcopy(state)
    rng = RecordingRandom(seed)
    GAME.apply(state, seat, move, rng)
    return GAME.reveals(before, state, seat, move), rng.tape


def takeback_refused(t, seat: int, move: dict[str, Any]) -> str | None:
    """The reason a take-back is refused, from reveals or a non-empty tape."""
    reason, tape = decide(t.state, seat, move)
    return reason or ("it drew randomness" if tape else None)


def hand_building(t, p: int, cid: int) -> None:
    """Move Building ``cid`` into p's hand from wherever it is."""
    for zone in [t.state["deck"], *(pl["hand"] for pl in t.state["players"])]:
        if cid in zone:
            zone.remove(cid)
    t.player(p)["hand"].append(cid)


def give_apprentice(t, p: int, cid: int = LABOURER) -> None:
    """Give p Apprentice ``cid`` (default the Labourer, every skill) from wherever it is."""
    if cid in t.state["app_deck"]:
        t.state["app_deck"].remove(cid)
    for row in t.state["workshop"]:
        if cid in row:
            row[row.index(cid)] = t.state["app_deck"].pop()
    t.player(p)["apprentices"].append(cid)


def at_guildhall(t, p: int) -> None:
    t.place(p, "guildhall")
    assert t.state["pending"] == {"kind": "guildhall"}


# -- the Building pile ------------------------------------------------------------------------
def test_building_plans_at_the_workshop_draw_from_the_pile(table):
    table.place(0, "workshop")
    assert takeback_refused(table, 0, {"type": "plans"}) == "it drew from the Building pile"


def test_black_market_b_plans_show_the_top_five_cards(table):
    table.give(0, silver=5, virtue=7)
    table.place(0, "black_market", space=1)
    assert takeback_refused(table, 0, {"type": "plans"}) == "it drew from the Building pile"


def test_keeping_one_of_the_five_plans_shows_nothing_new(table):
    table.give(0, silver=5, virtue=7)
    table.place(0, "black_market", space=1)
    table.play(0, {"type": "plans"})
    kept = table.state["pending"]["cards"][0]
    assert takeback_refused(table, 0, {"type": "keep", "card": kept}) is None


def test_drafting_room_draws_two_building_cards(table):
    hand_building(table, 0, DRAFTING_ROOM)
    give_apprentice(table, 0)
    table.give(0, stone=4, gold=3)
    at_guildhall(table, 0)
    move = {"type": "build", "card": DRAFTING_ROOM, "pay": {"gold": 3, "stone": 4}}
    assert takeback_refused(table, 0, move) == "it drew from the Building pile"


def test_caroline_at_the_black_market_draws_a_building_card(make_table):
    t = make_table(2, variable_setup=True, characters=["Caroline"])
    t.give(0, silver=5, virtue=7)
    t.turn_to(0)
    move = {"type": "place", "location": "black_market", "space": 0}
    assert takeback_refused(t, 0, move) == "it drew from the Building pile"


def test_character_extra_cards_at_the_end_of_the_draft_come_from_the_pile():
    opts = GAME.normalize_options({"variable_setup": True}, 2)
    extra = [c for c in cards.characters().values() if c["extra_cards"]][0]["name"]
    opts["characters"] = [extra]
    state = GAME.setup(["A", "B"], opts, RecordingRandom(3))
    reasons = []
    while state["phase"] == "draft":
        for seat in sorted(GAME.to_act(state)):
            reasons.append(decide(state, seat, GAME.legal_moves(state, seat)[0])[0])
    assert reasons[-1] == "it drew from the Building pile"


# -- the opening draft ------------------------------------------------------------------------
def test_draft_picks_are_sealed_until_the_last_one_passes_the_pools_on():
    state = GAME.setup(["A", "B", "C"], {}, RecordingRandom(5))
    first, second, last = (decide(state, s, GAME.legal_moves(state, s)[0])[0] for s in range(3))
    assert first is None and second is None
    assert last == "it passed the draft cards on, showing what the others kept"


def test_solo_draft_picks_show_nothing():
    state = GAME.setup(["A"], {}, RecordingRandom(5))
    while state["phase"] == "draft":
        assert decide(state, 0, GAME.legal_moves(state, 0)[0]) == (None, [])


# -- Apprentices, Rewards, the Black Market ---------------------------------------------------
def test_hiring_at_the_workshop_turns_up_a_new_apprentice(table):
    table.give(0, silver=10)
    table.place(0, "workshop")
    move = {"type": "hire", "row": 0, "col": 0}
    assert takeback_refused(table, 0, move) == "it turned up a new Apprentice from the deck"


def test_the_guildhall_cull_turns_up_new_apprentices(table):
    hand_building(table, 0, SMITHY)
    table.give(0, clay=4, wood=2)
    cull = min(guildhall.cull_spaces(len(table.state["players"])))
    table.state["guildhall"] = [1] * (cull - 1)
    table.player(1)["workers"] -= cull - 1
    table.turn_to(0)
    move = {"type": "place", "location": "guildhall"}
    assert takeback_refused(table, 0, move) == "it turned up a new Apprentice from the deck"


def test_a_guildhall_space_without_a_cull_shows_nothing(table):
    hand_building(table, 0, SMITHY)
    table.give(0, clay=4, wood=2)
    table.turn_to(0)
    assert takeback_refused(table, 0, {"type": "place", "location": "guildhall"}) is None


def _cathedral_ready(t, p: int = 0) -> dict[str, Any]:
    hand_building(t, p, SMITHY)
    t.give(p, clay=5, wood=5, stone=5, gold=5, marble=5, silver=10, virtue=7)
    at_guildhall(t, p)
    return next(m for m in t.moves(p) if m["type"] == "cathedral")


def test_advancing_the_cathedral_then_discarding_turns_up_a_reward_card(table):
    move = _cathedral_ready(table)
    assert takeback_refused(table, 0, move) is None  # paying shows nothing yet
    discard = table.moves(0)[0]
    assert takeback_refused(table, 0, discard) == "it turned up a Reward card"


def test_acolyte_draws_a_building_card_on_the_cathedral(table):
    move = _cathedral_ready(table)
    table.play(0, move)
    table.state["rewards_used"] += table.state["rewards"]
    table.state["rewards"] = []  # no Reward card left: the Acolyte's draw is the reveal
    give_apprentice(table, 0, ACOLYTE_DRAWS)
    assert takeback_refused(table, 0, table.moves(0)[0]) == "it drew from the Building pile"


def _black_market_full_but_one(t) -> None:
    t.state["black_market"] = [None, 1, 1]
    t.player(1)["workers"] -= 2
    t.give(0, silver=5, virtue=7)
    t.turn_to(0)


def test_a_black_market_reset_turns_up_the_next_small_market_card(table):
    _black_market_full_but_one(table)
    move = {"type": "place", "location": "black_market", "space": 0}
    assert takeback_refused(table, 0, move) == "it turned up the next Small Market card"


def test_a_reset_with_the_small_market_spent_reshuffles_so_it_draws_randomness(table):
    _black_market_full_but_one(table)
    table.state["bm_large"] = table.state["bm_small"] + table.state["bm_large"]
    table.state["bm_small"] = []
    _, tape = decide(table.state, 0, {"type": "place", "location": "black_market", "space": 0})
    assert tape


# -- the Byzantine opponent -------------------------------------------------------------------
def test_solo_ending_a_turn_shows_the_opponents_next_scheme(make_table):
    t = make_table(1)
    t.turn_to(0)
    move = {"type": "place", "location": "quarry"}
    assert takeback_refused(t, 0, move) == "it turned up the Byzantine opponent's next Scheme card"


def test_bot_variant_ending_a_turn_before_the_opponent_shows_its_next_scheme(make_table):
    t = make_table(2, bot_opponent=True)
    bot = t.state["automaton"]["index"]
    before_bot = t.state["order"][(t.state["order"].index(bot) - 1) % 3]
    t.turn_to(before_bot)
    move = {"type": "place", "location": "quarry"}
    assert takeback_refused(t, before_bot, move) == \
        "it turned up the Byzantine opponent's next Scheme card"


def test_solo_the_opponents_empty_scheme_deck_reshuffles_so_it_draws_randomness(make_table):
    t = make_table(1)
    auto = t.state["automaton"]
    auto["discard"] += auto["deck"]
    auto["deck"] = []
    t.turn_to(0)
    _, tape = decide(t.state, 0, {"type": "place", "location": "quarry"})
    assert tape


def test_solo_a_choice_within_the_turn_can_be_taken_back(make_table):
    t = make_table(1)
    t.give(0, clay=4)
    t.place(0, "storehouse")
    t.place(0, "storehouse")
    trade = {"type": "trade", "trade": "virtue", "pay": {"clay": 2}}
    assert t.state["pending"]["left"] == 2
    assert takeback_refused(t, 0, trade) is None


# -- moves that show nothing ------------------------------------------------------------------
@pytest.mark.parametrize("location", ["quarry", "forest", "silversmith", "tax_stand"])
def test_placing_on_a_public_spot_can_be_taken_back(table, location):
    table.turn_to(0)
    assert takeback_refused(table, 0, {"type": "place", "location": location}) is None


def test_constructing_a_building_shows_only_the_movers_own_card(table):
    hand_building(table, 0, SMITHY)
    give_apprentice(table, 0)
    table.give(0, clay=4, wood=2)
    at_guildhall(table, 0)
    move = {"type": "build", "card": SMITHY, "pay": {"clay": 4, "wood": 2}}
    assert takeback_refused(table, 0, move) is None


def test_discarding_down_to_the_hand_limit_can_be_taken_back(table):
    for cid in table.state["deck"][-7:]:
        hand_building(table, 0, cid)
    table.place(0, "quarry")
    assert table.state["pending"] == {"kind": "hand_limit"}
    card = table.player(0)["hand"][0]
    assert takeback_refused(table, 0, {"type": "discard", "card": card}) is None


def test_drawn_from_top_ignores_cards_put_under_the_pile():
    assert drawn_from_top([1, 2, 3], [1, 2, 3, 9]) == 0
    assert drawn_from_top([1, 2, 3], [2, 3, 9]) == 1
    assert drawn_from_top([1, 2, 3], []) == 3
    assert drawn_from_top([1, 2, 3], [2, 1, 3]) == 3  # a reshuffle


# -- soundness: a move that may be taken back shows nobody anything the mover could not see ---
def redeal(state: dict[str, Any], knows: set[int], rnd: random.Random) -> None:
    """Re-deal, in place, every card that no seat in ``knows`` can see (same slots, sizes)."""
    n = state["n"]
    slots = [state["deck"]]
    slots += [state["players"][q]["hand"] for q in range(n) if q not in knows]
    if state["draft"]:
        slots += [pool for q, pool in enumerate(state["draft"]["pools"]) if q not in knows]
    pend = state["pending"]
    if pend and pend["kind"] == "keep" and state["current"] not in knows:
        slots.append(pend["cards"])
    _shuffle_slots(slots, rnd)
    _shuffle_slots([state["app_deck"]], rnd)
    _shuffle_slots([state["rewards"], state["rewards_box"]], rnd)
    hidden_small = state["bm_small"][1:]
    rnd.shuffle(hidden_small)
    state["bm_small"][1:] = hidden_small
    if state["automaton"]:
        _shuffle_slots([state["automaton"]["deck"]], rnd)


def _shuffle_slots(slots: list[list[Any]], rnd: random.Random) -> None:
    pool = [c for slot in slots for c in slot]
    rnd.shuffle(pool)
    for slot in slots:
        slot[:], pool = pool[:len(slot)], pool[len(slot):]


MOVES = 600  # per game: a 2-3 player game ends within it, a 4 player game need not
GAMES = [(1, {}), (1, {"variable_setup": True, "solo_level": "helena"}), (2, {}),
         (2, {"bot_opponent": True, "promos": True}), (3, {"variable_setup": True}),
         (4, {"promos": True})]


@pytest.mark.parametrize("n,options", GAMES, ids=[f"{n}p-{sorted(o)}" for n, o in GAMES])
def test_a_move_that_may_be_taken_back_shows_nobody_a_card_the_mover_could_not_see(
        n: int, options: dict[str, Any]) -> None:
    chooser, rnd = random.Random(n), random.Random(17)
    opts = GAME.normalize_options(dict(options), n)
    state = GAME.setup([f"P{i}" for i in range(n)], opts, RecordingRandom(n))
    checked = refused = 0
    for _ in range(MOVES):
        if GAME.outcome(state) is not None:
            break
        seat, move = choose_seat_and_move(GAME, state, chooser)
        before = copy.deepcopy(state)
        seed = chooser.getrandbits(32)
        reason, tape = decide(state, seat, move, seed)
        if tape or reason:
            refused += 1
            continue
        # The mover, a spectator (what became public) and one other seat (what it alone
        # was shown), each in a world re-dealt behind both its and the mover's back.
        others = [q for q in range(n) if q != seat]
        for viewer in [seat, None, *([rnd.choice(others)] if others else [])]:
            knows = {seat} | ({viewer} if viewer is not None else set())
            world = copy.deepcopy(before)
            redeal(world, knows, rnd)
            try:
                GAME.apply(world, seat, copy.deepcopy(move), RecordingRandom(seed))
            except IllegalMove:  # pragma: no cover - the re-deal made the move illegal
                continue
            assert GAME.view(world, viewer) == GAME.view(state, viewer), \
                f"{move} by seat {seat} showed seat {viewer} a hidden card"
            checked += 1
    assert checked and refused


@pytest.mark.parametrize("n,options", GAMES, ids=[f"{n}p-{sorted(o)}" for n, o in GAMES])
def test_the_cards_a_seat_sees_are_the_ones_its_view_shows(
        n: int, options: dict[str, Any]) -> None:
    """``reveals`` reads what each seat sees from the state, not from its view: the two
    must agree at every position, for every seat."""
    chooser = random.Random(n)
    opts = GAME.normalize_options(dict(options), n)
    state = GAME.setup([f"P{i}" for i in range(n)], opts, RecordingRandom(n))
    for _ in range(MOVES):
        for viewer in range(n):
            assert seen_by(state, viewer) == seen(GAME.view(state, viewer))
        if GAME.outcome(state) is not None:
            break
        seat, move = choose_seat_and_move(GAME, state, chooser)
        GAME.apply(state, seat, move, RecordingRandom(chooser.getrandbits(32)))
