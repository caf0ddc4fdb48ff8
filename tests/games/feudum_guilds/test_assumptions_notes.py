"""Tests named after the notes' own assumptions (A-1 ... A-30) that change play."""

from __future__ import annotations

from games.feudum_guilds import GAME, epochs, status
from games.feudum_guilds.components import CARD_NAMES
from games.feudum_guilds.guilds import scroll_lines_completed


def test_assumption_A_1_stars_come_from_the_map_free_domain(table):
    t = table(3)
    t.seat("merchant", [0])
    t.location(0, "town")
    t.location(0, "outpost")
    assert status.stars(t.state, 0, "merchant") == 2  # pawn + town; the outpost is not linked


def test_assumption_A_6_the_rosary_holds_at_most_seven_beads(table):
    t = table(3)
    t.seat("noble", [0, 1])
    t.rosary(2, 2, 2, 2, 3, 3)
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "noble", "function": "push"})
    t.do(0, {"type": "flip", "scroll": 1})  # the 7th bead: the push ends there
    assert len(t.state["rosary"]) == 7 and t.top()["kind"] == "turn"
    t.check()


def test_assumption_A_7_two_feudums_per_guild(table):
    t = table(3)
    t.state["feudums"]["noble"] = 0
    loc = t.location(0, "town")
    t.p(0)["seals"].append(t.state["seal_supply"].pop())
    t.turn(0, "improve")
    guilds = {m.get("guild") for m in t.moves(0) if m.get("location") == loc["id"]}
    assert "noble" not in guilds and "monk" in guilds
    assert table(2).state["feudums"] == {g: 2 for g in guilds | {"noble"} if g}


def test_assumption_A_8_realm_slots_limit_influence(table):
    t = table(2)
    for _ in range(21):
        t.location(1, "outpost")
    t.p(1)["markers"] = 0
    t.state["marker_supply"]["1"] -= 14  # keep the marker count consistent
    t.seat("monk", [0])
    t.seat("farmer", [0])
    t.turn(0, "influence")
    assert [m.get("count") for m in t.moves(0)] == [1, None]  # 1 slot left of 22


def test_assumption_A_9_improve_takes_an_eligible_tile_and_epochs_follow_the_stacks(table):
    t = table(3)
    t.state["stacks"] = [[2, 3, 4]] * 5 + [[1, 2, 3, 4]]
    t.state["stacks"] = [list(s) for s in t.state["stacks"]]
    loc = t.location(0, "outpost")
    t.give(0, wood=1)
    t.turn(0, "improve")
    t.do(0, {"type": "improve", "location": loc["id"]})  # one eligible stack: taken at once
    assert t.state["stacks"][5] == [2, 3, 4] and t.p(0)["tiles"] == [1]
    assert epochs.triggered_epoch(t.state) == 2


def test_assumption_A_10_single_cell_scroll_lines_count(table):
    t = table(3)
    s = t.state
    s["scrolls"] = [None] * 6
    s["scrolls"][5] = 0
    assert scroll_lines_completed(s, [5]) == 1  # row 3 = {S6} and column 1 is not full


def test_assumption_A_12_starting_pawn_needs_a_free_seat(table):
    t = table(3)
    s = GAME.setup(["a", "b", "c"], GAME.normalize_options({}, 3), t.rng)
    offered = []
    while s["phase"] == "setup":
        seat = next(iter(GAME.to_act(s)))
        moves = GAME.legal_moves(s, seat)
        monk = {"type": "start_pawn", "guild": "monk"}
        if s["stack"][-1]["kind"] == "setup_pawn":
            offered.append(monk in moves)
        GAME.apply(s, seat, monk if monk in moves else moves[0], t.rng)
    assert offered == [True, True, False]  # 2-3 players: master and journeyman only


def test_assumption_A_15_eight_action_cards(table):
    assert CARD_NAMES == ["migrate", "influence", "improve", "explore", "harvest", "tax",
                          "guild", "repeat"]


def test_assumption_A_17_a_pull_below_its_threshold_still_moves(table):
    t = table(3)
    t.seat("alchemist", [0, 1])
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "alchemist", "function": "pull"})
    t.do(1, {"type": "move_good", "good": "food"})
    t.do(1, {"type": "move_good", "good": "sulfur"})
    assert t.state["alchemist"]["food"] == 2 and t.state["alchemist"]["sulfur"] == 2
    assert t.p(1)["vp"] == 0 and t.top()["kind"] == "turn"


def test_assumption_A_18_rows_or_columns_never_both(table):
    t = table(3)
    t.seat("knight", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "push"})
    t.do(0, {"type": "seal", "row": 0, "scroll": 0})
    t.do(0, {"type": "done"})
    assert t.p(0)["vp"] == 4  # S1 completes row 1 and column 1: counted once


def test_assumption_A_19_the_next_player_clockwise_divides(table):
    t = table(4)
    t.seat("monk", [3, 0])
    t.turn(3)
    t.do(3, {"type": "guild", "guild": "monk", "function": "push"})
    assert t.top()["kind"] == "fist_divide" and t.top()["seat"] == 0
    assert GAME.to_act(t.state) == {0}


def test_assumption_A_21_charity_goes_to_the_opposite_side(table):
    t = table(3)
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "alchemist", "function": "trade"})
    t.do(0, t.moves(0)[0])
    assert t.state["coffer"] == 1 and t.state["purse"] == 0


def test_assumption_A_22_market_goods_leave_from_the_right_and_enter_from_the_left(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "merchant", "function": "trade"})
    t.do(2, {"type": "buy", "good": "iron"})  # bin 4: 1s
    t.do(2, {"type": "buy", "good": "iron"})  # bin 3: 1s
    t.do(2, {"type": "buy", "good": "iron"})  # bin 2: 2s
    assert t.p(2)["shillings"] == 7 - 4


def test_assumption_A_23_barrels_capped_by_the_most_non_full_sections(table):
    t = table(2)
    t.seat("alchemist", [0, 1])
    for r in t.state["knight_rows"]:
        t.state["marker_supply"][str(r["colour"])] -= 3 - sum(r["sections"]) + 3
        r["sections"] = [1, 2, 3]
    row = t.state["knight_rows"][0]
    row["sections"] = [1, 2, 0]
    t.state["marker_supply"]["0"] += 3
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "alchemist", "function": "push"})
    t.do(0, {"type": "invent", "what": "barrel"})
    assert not any(m.get("what") == "barrel" for m in t.moves(0))  # cap 1
    t.check()


def test_assumption_A_24_noble_trade_seals_come_from_the_supply_first(table):
    t = table(2)
    scrolls = list(t.state["scrolls"])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "noble", "function": "trade"})
    t.do(0, {"type": "buy_seals", "count": 1})
    assert t.state["scrolls"] == scrolls


def test_assumption_A_26_each_vessel_scores_two_at_the_end(table):
    t = table(2)
    t.state["vessel_supply"]["submersible"] -= 2
    t.p(0)["vessels"]["submersible"] = 2
    epochs.final_scoring(t.state)
    assert t.state["outcome"]["breakdown"][0]["vessels"] == 4


def test_assumption_A_28_feast_needs_a_star_and_another_seat_holder(table):
    t = table(3, feast=True)
    t.seat("monk", [0, 1])
    t.p(2)["pawns"][0]["guild"] = "monk"
    t.turn(2)
    feasts = [m for m in t.moves(2) if m["type"] == "feast"]
    assert {"type": "feast", "guild": "monk", "function": "pull"} in feasts or not t.p(2)["barrel"]
    t.turn(0)
    assert not any(m["type"] == "feast" and m["guild"] == "monk" and m["function"] == "push"
                   for m in t.moves(0))


def test_assumption_A_29_monster_pilfers_from_the_market_or_alchemist(table):
    t = table(3, monsters=True)
    t.state["monsters"]["behemoth"] = 0
    t.state["monsters"]["sea_serpent"] = 0
    t.p(0)["markers"] -= 2
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "trade"})
    seen = set()
    while t.top()["kind"] == "pilfer":
        seen |= {m.get("from") for m in t.moves(0)}
        t.do(0, t.moves(0)[0])
    assert seen == {"market", "alchemist", None}
    assert t.state["monster_used"] == {"behemoth": True, "sea_serpent": True}
    t.check()


def test_assumption_A_30_tribute_only_for_vassals_at_the_knight_guild(table):
    t = table(3, vassalage=True)
    t.give(0, saltpeter=1)
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "trade"})
    assert t.top()["kind"] == "turn"  # not a vassal: no tribute asked
