"""Rules 4 of The King's Guild (issue 28): a frozen round fires the stall breaker, the Bard
rearranges once per turn, the Oracle's owner remembers what it showed - and for each change,
a rules-3 game still plays as before (``kg.new(..., rules="3")``)."""

from __future__ import annotations

import copy
import random

import pytest

from games.bots import choose_seat_and_move, play_random_game
from games.kings_guild import GAME, cards, decisions, stall
from games.protocol import Game, State
from games.rng import RecordingRandom

BREAKER = {"stall_breaker": True}


def test_rules_versions_four_is_new_and_three_and_two_still_play():
    assert GAME.rules_version == "4" and GAME.rules_versions == ("2", "3", "4")
    state = GAME.setup(["A", "B"], {}, RecordingRandom(1))
    assert state["rules"] == 4
    assert GAME.for_rules("3").setup(["A", "B"], {}, RecordingRandom(1))["rules"] == 3


# -- 1. a frozen round: the regression game (issue 28, six players, seed 12) -------------


def _random_moves(game: Game, state: State, chooser: random.Random, count: int) -> int:
    """Play up to ``count`` random legal moves (the soak's driver); how many were played."""
    for k in range(count):
        if game.outcome(state) is not None:
            return k
        seat, move = choose_seat_and_move(game, state, chooser)
        game.apply(state, seat, copy.deepcopy(move), RecordingRandom(chooser.getrandbits(64)))
    return count


def _material(state: State) -> list:
    """Everything but the places of specialists and whose turn it is."""
    return [state["supply"], state["quest_slots"], state["quest_deck"],
            [(p["resources"], p["coins"], p["hand"], p["quests"]) for p in state["guilds"]]]


@pytest.fixture(scope="module")
def frozen_six() -> tuple[State, random.Random]:
    """Issue 28's six-player game, seed 12, under rules 3 (the random driver of
    ``games.bots.play_random_game``), after 1,000 moves: every basic resource sits in some
    storage, the supply is empty and nobody can do anything but end the turn or use the
    Bard."""
    game = GAME.for_rules("3")
    chooser = random.Random(12)
    players = [f"Bot {i + 1}" for i in range(6)]
    state = game.setup(players, game.normalize_options(dict(BREAKER), 6),
                       RecordingRandom(chooser.getrandbits(64)))
    assert _random_moves(game, state, chooser, 1000) == 1000
    return state, chooser


def test_the_frozen_six_player_game_never_ends_under_rules_3(frozen_six):
    state, chooser = copy.deepcopy(frozen_six)
    game = GAME.for_rules("3")
    assert all(state["supply"][r] == 0 for r in cards.BASIC_RESOURCES)
    before = _material(state)
    assert _random_moves(game, state, chooser, 600) == 600
    assert _material(state) == before and not state["over"]
    assert not stall.stuck(state)  # the rules-3 test counts the storages as returnable


def test_a_frozen_round_ends_the_game_under_the_stall_breaker(frozen_six):
    """Migrated to rules 4, the same position: after a whole round in which nobody had a
    move but ending the turn or the Bard, the oldest quest leaves the board; again every
    frozen round, until the Offering to the Council ends the game."""
    state, chooser = copy.deepcopy(frozen_six)
    GAME.migrate(state, "4")
    removed = len(state["quests_removed"])
    played = _random_moves(GAME, state, chooser, 3000)
    assert state["over"] and state["outcome"] is not None and played < 3000
    assert len(state["quests_removed"]) > removed


def _empty_supply(state: State) -> None:
    """Take every resource in the supply out of the game (the storages keep theirs)."""
    for r in cards.RESOURCES:
        state["resource_totals"][r] -= state["supply"][r]
        state["supply"][r] = 0


def test_a_frozen_round_is_counted_at_the_start_of_each_turn(kg):
    """Two players, nothing in the supply, nothing either can pay for: each turn start is
    frozen; the second in a row (a whole round) retires the oldest quest."""
    s = kg.new(2, options=BREAKER)
    for seat in range(2):
        s["guilds"][seat]["coins"] = 0
    _empty_supply(s)
    oldest = min((x for x in s["quest_slots"] if x), key=lambda x: x["since"])["quest"]
    assert stall.frozen_seat(s, 0)
    kg.play(s, 0, {"type": "end_turn"})
    assert s["frozen_turns"] == 1 and oldest not in s["quests_removed"]
    kg.play(s, 1, {"type": "end_turn"})
    assert oldest in s["quests_removed"] and s["frozen_turns"] == 0


def test_a_seat_that_can_act_breaks_the_frozen_round(kg):
    s = kg.new(2, options=BREAKER)
    s["guilds"][1]["coins"] = 0
    _empty_supply(s)
    s["guilds"][0]["coins"] = 0
    kg.play(s, 0, {"type": "end_turn"})
    assert s["frozen_turns"] == 1
    kg.to_hand(s, 0, "Scroll of Riches")  # seat 0 may now play or sell a treasure
    kg.play(s, 1, {"type": "end_turn"})
    assert s["frozen_turns"] == 0 and not stall.frozen_seat(s, 0)


def test_a_frozen_round_does_nothing_under_rules_3_or_without_the_breaker(kg):
    for rules, options in (("3", BREAKER), (None, {"stall_breaker": False})):
        s = kg.new(2, options=options, rules=rules)
        for seat in range(2):
            s["guilds"][seat]["coins"] = 0
        _empty_supply(s)
        slots = copy.deepcopy(s["quest_slots"])
        for _ in range(4):
            kg.play(s, s["current"], {"type": "end_turn"})
        assert s["quest_slots"] == slots and "frozen_turns" not in s


def test_the_end_of_turn_that_fires_the_breaker_is_never_played_for_anyone(kg):
    s = kg.new(2, options=BREAKER)
    for seat in range(2):
        s["guilds"][seat]["coins"] = 0
    _empty_supply(s)
    kg.play(s, 0, {"type": "end_turn"})
    assert GAME.legal_moves(s, 1) == [{"type": "end_turn"}]
    assert not GAME.forced_move_safe(s, 1, {"type": "end_turn"})  # it turns up a quest
    assert kg.take_back(s, 1, {"type": "end_turn"})


# -- 2. the Bard ---------------------------------------------------------------------------


def _bard(kg, rules=None):
    s = kg.new(2, rules=rules)
    kg.hire(s, 0, "Bard")
    kg.hire(s, 0, "Miner")
    kg.room(s, 0, "Great Hall", 2, 0)
    return s


def test_the_bard_rearranges_once_per_turn(kg):
    s = _bard(kg)
    kg.play(s, 0, {"type": "bard"})
    move = next(m for m in kg.moves(s, 0, "move_specialist"))
    kg.play(s, 0, move)
    kg.play(s, 0, {"type": "done"})
    assert not kg.moves(s, 0, "bard")


def test_the_bard_never_returns_to_an_arrangement_held_this_turn(kg):
    s = _bard(kg)
    start = decisions.arrangement(s, 0)
    kg.play(s, 0, {"type": "bard"})
    seen = [start]
    while kg.moves(s, 0, "move_specialist"):
        kg.play(s, 0, kg.moves(s, 0, "move_specialist")[-1])
        assert decisions.arrangement(s, 0) not in seen
        seen.append(decisions.arrangement(s, 0))
    assert len(seen) <= 9  # two specialists, three places each at most
    assert kg.top(s) is None or kg.top(s)["kind"] != "bard"


def test_the_bard_under_rules_3_is_unchanged(kg):
    s = _bard(kg, rules="3")
    for _ in range(3):
        kg.play(s, 0, {"type": "bard"})
        kg.play(s, 0, {"type": "done"})
    assert kg.moves(s, 0, "bard")


def test_the_bard_can_reach_an_aristocrat_hire_so_the_seat_is_not_frozen(kg):
    s = kg.new(2, options=BREAKER)
    kg.room(s, 0, "Great Hall", 2, 0)
    kg.hire(s, 0, "Bard", space="Great Hall")
    kg.hire(s, 0, "Miner", space="Great Hall")
    kg.row(s, ["Aristocrat", "Tanner", "Weaver", "Lumberjack", "Courier"])
    s["guilds"][0]["coins"] = 10
    assert stall.bard_could_hire(s, 0)
    assert not stall.frozen_seat(s, 0)


# -- 3. the Oracle -------------------------------------------------------------------------


def test_the_oracle_shows_the_deck_on_its_owners_turn_and_the_owner_remembers_it(kg):
    """The rulebook: "During your turn, you may look at the top 2 cards of the quest deck" -
    the view shows them on the owner's turn only. The cards stay known to the owner while they
    lie on the deck, so the turn end before the owner's turn that shows them the same two cards
    again can be taken back (rules 3: never)."""
    for rules, can in (("3", False), (None, True)):
        s = kg.new(2, rules=rules)
        kg.hire(s, 1, "Oracle")
        for seat, what in ((0, "cloth"), (1, "leather"), (0, "wood")):
            if seat == 1:
                assert GAME.view(s, 1)["oracle"] and "oracle" not in GAME.view(s, 0)
            kg.play(s, seat, {"type": "gather"})
            kg.play(s, seat, {"type": "take", "resource": what})
            kg.play(s, seat, {"type": "done"})
            if seat == 0 and what == "cloth":
                kg.play(s, 0, {"type": "end_turn"})
            elif seat == 1:
                kg.play(s, 1, {"type": "end_turn"})
        assert "oracle" not in GAME.view(s, 1)
        reason = kg.take_back(s, 0, {"type": "end_turn"})
        assert (reason is None) == can, (rules, reason)


# -- 4. every random game ends (issue 28's figures) ----------------------------------------


@pytest.mark.soak
@pytest.mark.parametrize("players", [5, 6])
def test_a_hundred_random_games_end_under_the_cap(players):
    """Seeds 1-100 under a 20,000-move cap (issue 28: 13 of 100 six-player games and 1 of
    100 five-player games never ended under rules 3)."""
    for seed in range(1, 101):
        state, _ = play_random_game(GAME, players, seed, BREAKER, max_moves=20000)
        assert state["over"], seed


def test_migrating_to_rules_4_changes_nothing_but_the_version(frozen_six):
    state, _ = frozen_six
    copied = copy.deepcopy(state)
    GAME.migrate(copied, "4")
    assert copied["rules"] == 4 and {k: v for k, v in copied.items() if k != "rules"} == {
        k: v for k, v in state.items() if k != "rules"}
