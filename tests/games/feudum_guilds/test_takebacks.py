"""Take-backs: a move that showed anyone something hidden can never be taken back.

A move is refused a take-back when its tape is not empty (it drew randomness: the platform
refuses it) or when ``reveals`` names what it showed.  Everything else can be taken back.
"""

from __future__ import annotations

import copy
import random

import pytest

from games.bots import choose_seat_and_move
from games.feudum_guilds import ALL_MODULES, GAME, rounds, takebacks
from games.feudum_guilds.components import CARD_NAMES, GOODS, WRITS
from games.protocol import IllegalMove
from games.rng import RecordingRandom, TapeError, TapePlayer


def empty_barn(t, **goods) -> None:
    """Only these goods in the Farmer barn (the rest back to the haversack)."""
    s = t.state
    for g in GOODS:
        s["haversack"][g] += s["barn"][g] - goods.get(g, 0)
        s["barn"][g] = goods.get(g, 0)

# -- drawing Royal Writs -------------------------------------------------------------------


def test_exploring_draws_royal_writs_so_it_cannot_be_taken_back(table):
    t = table(3)
    t.location(1, "outpost")
    t.turn(1, "explore")
    reason, tape = t.decide(1, {"type": "explore"})
    assert tape == [] and reason == "it drew Royal Writs"


def test_a_pulls_writ_reward_cannot_be_taken_back(table):
    t = table(3)
    t.seat("alchemist", [0, 1])
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "alchemist", "function": "pull"})
    reason, _ = t.decide(1, {"type": "move_good", "good": "food"})
    assert reason is None  # the first good completes nothing
    reason, tape = t.decide(1, {"type": "move_good", "good": "food"})
    assert t.top()["kind"] == "writ_keep"
    assert tape == [] and reason == "it drew Royal Writs"


def test_keeping_a_drawn_writ_can_be_taken_back(table):
    t = table(3)
    t.location(1, "outpost")
    t.turn(1, "explore")
    t.do(1, {"type": "explore"})
    assert t.decide(1, {"type": "keep_writ", "writ": t.top()["cards"][1]}) == (None, [])


def test_discarding_a_writ_to_the_bottom_of_the_deck_can_be_taken_back(table):
    t = table(3)
    t.state["writ_deck"].remove("C1")
    t.p(0)["hand"] = ["C1"]
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert t.decide(0, {"type": "discard_writ", "writ": "C1"}) == (None, [])


def test_playing_your_own_mandate_can_be_taken_back(table):
    t = table(3)
    t.state["writ_deck"].remove("M3")
    t.p(0)["hand"] = ["M3"]
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert t.decide(0, {"type": "mandate", "writ": "M3", "option": "0"}) == (None, [])


# -- king's seals ----------------------------------------------------------------------------


def test_flipping_a_seal_onto_the_rosary_turns_up_its_value(table):
    t = table(3)
    t.seat("noble", [0, 1])
    t.rosary(5, 5)
    t.turn(0)
    assert t.decide(0, {"type": "guild", "guild": "noble", "function": "push"}) == (None, [])
    reason, tape = t.decide(0, {"type": "flip", "scroll": 1})
    assert tape == [] and reason == "it turned up the value of a king's seal"


def test_the_monk_pulls_flip_turns_up_a_seal_value(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(5, 4)
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "monk", "function": "pull"})
    reason, tape = t.decide(1, {"type": "flip", "scroll": 3})
    assert tape == [] and reason == "it turned up the value of a king's seal"


def _patronage(t, seat: int = 0) -> None:
    t.state["writ_deck"].remove("M8")
    t.p(seat)["hand"] = ["M8"]
    for guild in ("monk", "noble"):
        t.seat(guild, [seat])
    for kind in ("outpost", "outpost", "town", "town"):  # 3 stars in the Monk and Noble guilds
        t.location(seat, kind)
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": seat}]


def test_the_patronage_rosary_bead_turns_up_a_seal_value(table):
    t = table(2)
    _patronage(t)
    reason, tape = t.decide(0, {"type": "mandate", "writ": "M8", "option": "monk"})
    assert tape == [] and reason == "it turned up the value of a king's seal"


def test_the_patronage_kings_seal_stays_face_down_so_it_can_be_taken_back(table):
    t = table(2)
    _patronage(t)
    assert t.decide(0, {"type": "mandate", "writ": "M8", "option": "noble"}) == (None, [])


def test_buying_kings_seals_keeps_them_face_down_so_it_can_be_taken_back(table):
    t = table(3)
    t.seat("noble", [0, 1])
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "noble", "function": "trade"})
    assert t.decide(2, {"type": "buy_seals", "count": 2}) == (None, [])


def test_sealing_the_scrolls_keeps_the_seals_face_down_so_it_can_be_taken_back(table):
    t = table(3)
    t.seat("knight", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "push"})
    assert t.decide(0, {"type": "seal", "row": 1, "scroll": 0}) == (None, [])


def test_the_dawn_of_epoch_three_refills_the_rosary_and_chickens_face_up(table):
    """A reveal that is a consequence of the move: the round ends, epoch III dawns and the
    refill turns up seals -- with no randomness drawn at all (no eligible progress stack,
    a full barn, a full vessel space)."""
    t = table(2)
    t.state["epoch"] = 2
    t.state["stacks"] = [[3, 4] for _ in range(6)]
    empty_barn(t, wood=10)
    t.rosary(2, 3)
    t.chickens()
    t.location(0, "town")
    t.act_phase(("tax",))
    t.p(1)["played"] = ["tax"]
    t.turn(0, "tax")
    reason, tape = t.decide(0, {"type": "tax"})
    assert t.state["epoch"] == 3 and len(t.state["rosary"]) == 4
    assert tape == [] and reason == "it turned up the values of king's seals"


# -- other players' secret choices -------------------------------------------------------------


def test_the_last_secret_selection_reveals_the_others_so_it_cannot_be_taken_back(table):
    t = table(3)
    t.state["phase"] = "select"
    cards = ["influence", "explore", "tax", "guild"]
    for seat in (0, 1, 2):
        assert t.decide(seat, {"type": "boost", "boost": "none"}) == (None, [])
    assert t.decide(0, {"type": "select", "cards": cards}) == (None, [])
    assert t.decide(1, {"type": "select", "cards": cards}) == (None, [])
    reason, tape = t.decide(2, {"type": "select", "cards": cards})
    assert t.state["phase"] == "act"
    assert tape == [] and reason == "it revealed the other players' secret card selections"


def test_dividing_the_beads_between_the_fists_can_be_taken_back(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(2, 4, 5)
    t.turn(2)
    assert t.decide(2, {"type": "guild", "guild": "monk", "function": "trade"}) == (None, [])
    assert t.decide(0, {"type": "divide", "left": "low"}) == (None, [])


def test_picking_a_fist_opens_what_another_player_hid_so_it_cannot_be_taken_back(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(2, 4, 5)
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "monk", "function": "trade"})
    t.do(0, {"type": "divide", "left": "low"})
    reason, tape = t.decide(2, {"type": "pick", "fist": "right"})
    assert tape == [] and reason == "it opened the fists that P0 filled"


def test_assumption_A_63_picking_between_two_beads_of_the_same_value_shows_nothing(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(3, 3)
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "monk", "function": "trade"})
    t.do(0, {"type": "divide", "left": "low"})
    assert t.decide(2, {"type": "pick", "fist": "right"}) == (None, [])


def _game_end(t, hands: dict[int, list[str]]) -> None:
    """The last round is over and epoch V dawns: players holding seals and charters seal."""
    t.state["epoch"] = 4
    t.state["stacks"] = [[4] for _ in range(6)]
    t.act_phase(("tax",))
    for seat, hand in hands.items():
        for w in hand:
            t.state["writ_deck"].remove(w)
        t.p(seat)["hand"] = list(hand)
        t.p(seat)["seals"].append(t.state["seal_supply"].pop())
    for p in t.state["ps"]:
        p["played"] = ["tax"]
    t.state["start_player"] = 1
    rounds.advance(t.state, t.rng)
    assert t.state["phase"] == "end"


def test_ending_the_game_shows_the_other_players_sealed_charters(table):
    t = table(2)
    _game_end(t, {0: ["C5"], 1: ["C6"]})
    assert t.decide(1, {"type": "seal_charter", "writ": "C6"}) == (None, [])
    reason, tape = t.decide(0, {"type": "seal_charter", "writ": "C5"})
    assert t.state["phase"] == "over"
    assert tape == [] and reason == "it ended the game and showed the other players' sealed " \
                                    "charters"


def test_assumption_A_63_ending_the_game_with_only_your_own_sealed_charter_shows_nothing(table):
    t = table(2)
    _game_end(t, {0: ["C5"], 1: ["C6"]})
    t.do(1, {"type": "done"})
    assert t.decide(0, {"type": "seal_charter", "writ": "C5"}) == (None, [])
    assert t.state["phase"] == "over"


# -- randomness: the tape is not empty, the platform refuses the take-back ------------------


def test_a_harvest_draws_goods_from_the_haversack(table):
    t = table(3)
    farm = t.location(2, "farm")
    t.turn(2, "harvest")
    _, tape = t.decide(2, {"type": "harvest", "location": farm["id"]})
    assert tape


def test_the_patronage_of_the_farmer_draws_random_goods(table):
    t = table(2)
    t.state["writ_deck"].remove("M7")
    t.p(0)["hand"] = ["M7"]
    t.seat("farmer", [0])
    t.location(0, "farm")
    t.location(0, "farm")
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    _, tape = t.decide(0, {"type": "mandate", "writ": "M7", "option": "farmer"})
    assert tape


def test_sending_a_farm_to_the_barn_shuffles_which_goods_overflow(table):
    t = table(3)
    empty_barn(t)
    farm = t.location(1, "farm", food=2, wood=3)
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "farmer", "function": "trade"})
    _, tape = t.decide(1, {"type": "send_farm", "location": farm["id"], "food": 0})
    assert tape


def test_the_end_of_every_round_rolls_for_progress(table):
    t = table(2)
    t.location(0, "town")
    t.act_phase(("tax",))
    t.p(1)["played"] = ["tax"]
    t.turn(0, "tax")
    stacks = copy.deepcopy(t.state["stacks"])
    _, tape = t.decide(0, {"type": "tax"})
    assert t.state["round"] == 2 and t.state["stacks"] != stacks
    assert tape


# -- ordinary moves show nothing and can be taken back ----------------------------------------


def test_ordinary_moves_on_the_open_board_can_be_taken_back(table):
    t = table(3)
    t.state["phase"] = "select"
    assert t.decide(0, {"type": "boost", "boost": "none"}) == (None, [])
    t.location(0, "town")
    t.give(0, sulfur=1)
    t.turn(0, "tax")
    assert t.decide(0, {"type": "tax"}) == (None, [])
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert t.decide(0, {"type": "fill_barrel"}) == (None, [])
    assert t.decide(0, {"type": "play", "card": "guild"}) == (None, [])
    t.seat("merchant", [1, 2])
    assert t.decide(0, {"type": "guild", "guild": "merchant", "function": "trade"}) == (None, [])
    good = next(m for m in t.moves(0) if m["type"] == "buy")
    assert t.decide(0, good) == (None, [])


def test_moving_goods_along_the_guilds_can_be_taken_back(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "merchant", "function": "push"})
    assert t.decide(0, {"type": "move_good", "good": "food"}) == (None, [])


# -- soundness: no move that may be taken back depends on what its mover could not see ----------


def determinize(state: dict, seat: int, rnd: random.Random) -> dict:
    """Another state that ``seat`` cannot tell from ``state``: the seal values it cannot see,
    the writs it cannot see (kind for kind) and the other players' secret choices redrawn."""
    s = copy.deepcopy(state)
    hidden = sorted(takebacks.hidden_tokens(s))
    values = [s["tokens"][t] for t in hidden]
    rnd.shuffle(values)
    for token, value in zip(hidden, values, strict=True):
        s["tokens"][token] = value
    # Royal Writs: the deck and the other players' hands and draws, permuted kind for kind.
    unseen = list(s["writ_deck"])
    for other, p in enumerate(s["ps"]):
        if other != seat:
            unseen += p["hand"]
    for dec in s["stack"]:
        if dec["kind"] == "writ_keep" and dec["seat"] != seat:
            unseen += dec["cards"]
    rename: dict[str, str] = {}
    for kind in ("mandate", "charter"):
        ids = [w for w in unseen if WRITS[w]["kind"] == kind]
        rename.update(zip(ids, rnd.sample(ids, len(ids)), strict=True))
    s["writ_deck"] = [rename[w] for w in s["writ_deck"]]
    for other, p in enumerate(s["ps"]):
        if other != seat:
            p["hand"] = [rename[w] for w in p["hand"]]
            p["sealed"] = [rename[w] for w in p["sealed"]]
    for dec in s["stack"]:
        if dec["kind"] == "writ_keep" and dec["seat"] != seat:
            dec["cards"] = [rename[w] for w in dec["cards"]]
        if dec["kind"] == "fist_pick" and dec["divider"] != seat and rnd.random() < 0.5:
            dec["fists"].reverse()
    # The other players' boosts and cards while secret; their unplayed cards always.
    for other, p in enumerate(s["ps"]):
        if other == seat:
            continue
        if s["phase"] == "select":
            if p["boost"] is not None:
                p["boost"] = rnd.choice(["none"] + ["extra"] * bool(p["goods"]["saltpeter"])
                                        + ["double"] * bool(p["goods"]["sulfur"]))
            if p["committed"]:
                p["selected"] = rounds.canonical_cards(
                    rnd.sample(CARD_NAMES, rounds.cards_wanted(p)))
        else:
            left = len(rounds.cards_left(p))
            free = [c for c in CARD_NAMES if c not in p["played"]]
            p["selected"] = rounds.canonical_cards(
                [c for c in p["selected"] if c in p["played"]] + rnd.sample(free, left))
    return s


def _play_and_check(n: int, seed: int, options: dict, stats: dict) -> None:
    chooser = random.Random(seed)
    rnd = random.Random(seed + 1)
    state = GAME.setup([f"Bot {i}" for i in range(n)], dict(options),
                       RecordingRandom(chooser.getrandbits(64)))
    while GAME.outcome(state) is None:
        seat, move = choose_seat_and_move(GAME, state, chooser)
        before = copy.deepcopy(state)
        rng = RecordingRandom(chooser.getrandbits(64))
        GAME.apply(state, seat, copy.deepcopy(move), rng)
        reason = GAME.reveals(before, state, seat, move)
        if rng.tape:
            stats["randomness"] += 1
            continue
        twin = determinize(before, seat, rnd)
        assert GAME.view(twin, seat) == GAME.view(before, seat), "determinized a visible thing"
        try:
            GAME.apply(twin, seat, copy.deepcopy(move), TapePlayer([]))
            same = all(GAME.view(twin, v) == GAME.view(state, v) for v in (seat, None))
        except IllegalMove:
            stats["skipped"] += 1
            continue
        except TapeError:
            same = False  # it would have drawn randomness in a position its mover cannot tell
        if reason is None:
            assert same, f"{move} by {seat} showed hidden information but can be taken back"
            stats["may take back"] += 1
        else:
            stats.setdefault(reason, [0, 0])
            stats[reason][0] += 1
            stats[reason][1] += not same


@pytest.mark.soak
def test_soundness_no_move_that_can_be_taken_back_depends_on_hidden_information():
    """Random bot games: for every move with an empty tape that ``reveals`` lets players take
    back, redraw what its mover could not see, make the same move, and the mover (and a
    spectator) see exactly the same result.  The check has teeth: it sees the difference
    for the moves that ``reveals`` refuses."""
    stats: dict = {"randomness": 0, "skipped": 0, "may take back": 0}
    for n, seed, options in ((2, 1, ALL_MODULES), (3, 2, ALL_MODULES), (4, 3, {}),
                             (5, 4, ALL_MODULES)):
        _play_and_check(n, seed, options, stats)
    assert stats["may take back"] > 500
    refused = {k: v for k, v in stats.items() if isinstance(v, list)}
    assert "it drew Royal Writs" in refused
    assert "it revealed the other players' secret card selections" in refused
    for reason, (count, caught) in refused.items():
        assert caught > 0, f"the soundness check never saw what '{reason}' showed ({count})"


@pytest.mark.soak
@pytest.mark.parametrize("n", [2, 5])
def test_reveals_never_fails_on_a_whole_game(n: int) -> None:
    """Every move of a random game gets an answer (a reason or None), never an error."""
    chooser = random.Random(n)
    state = GAME.setup([f"Bot {i}" for i in range(n)], dict(ALL_MODULES), RecordingRandom(n))
    while GAME.outcome(state) is None:
        seat, move = choose_seat_and_move(GAME, state, chooser)
        before = copy.deepcopy(state)
        GAME.apply(state, seat, move, RecordingRandom(chooser.getrandbits(64)))
        reason = GAME.reveals(before, state, seat, move)
        assert reason is None or isinstance(reason, str) and reason
