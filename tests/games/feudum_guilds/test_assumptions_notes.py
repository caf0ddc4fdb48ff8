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


def test_assumption_A_2_shillings_are_unlimited(table):
    t = table(3)
    t.seat("monk", [0, 1])
    for p in t.state["ps"]:
        p["shillings"] = 40  # 120 shillings in play: more than the 50 coins of the box
    t.state["purse"] = 30
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "monk", "function": "trade"})
    assert t.state["purse"] == 31 and t.p(0)["shillings"] == 41 and t.p(1)["shillings"] == 41


def test_assumption_A_5_the_top_alchemist_cart_holds_wood(table):
    t = table(3)
    assert t.state["alchemist"]["wood"] == 3  # setup: the wood cart is full
    t.seat("alchemist", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "alchemist", "function": "push"})
    assert {"type": "invent", "what": "ship"} in t.moves(0)  # 1 food + 2 wood from the carts
    t.do(0, {"type": "invent", "what": "ship"})
    assert t.state["alchemist"]["wood"] == 1 and t.state["alchemist"]["food"] == 0


def test_assumption_A_11b_the_castle_of_the_monk_pull_is_the_noble_scrolls(table):
    t = table(3)
    t.seat("monk", [0, 1])
    scrolls = sum(x is not None for x in t.state["scrolls"])
    supply = len(t.state["seal_supply"])
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "monk", "function": "pull"})
    assert {m["type"] for m in t.moves(1)} == {"flip"}
    assert [m["scroll"] for m in t.moves(1)] == [1, 2, 3, 5]  # the occupied scrolls
    t.do(1, {"type": "flip", "scroll": 2})
    assert sum(x is not None for x in t.state["scrolls"]) == scrolls - 1
    assert len(t.state["seal_supply"]) == supply  # not from the seal supply


def test_assumption_A_16_influence_places_only_rulers(table):
    t = table(3)
    t.seat("farmer", [0])
    markers = t.p(0)["markers"]
    t.turn(0, "influence")
    assert t.moves(0) == [{"type": "influence", "count": 1}, {"type": "forfeit"}]
    t.do(0, {"type": "influence", "count": 1})
    assert [loc["kind"] for loc in t.p(0)["locations"]] == ["outpost"]
    assert t.p(0)["markers"] == markers - 1  # one marker: the ruler's, no serfs or subjects
    t.check()


def test_assumption_A_20_the_writ_deck_adapted_for_the_guild_game():
    from games.feudum_guilds.components import WRITS

    assert sorted(WRITS) == [f"C{i}" for i in range(1, 9)] + [f"M{i}" for i in range(1, 9)]
    assert WRITS["M1"]["options"] == [{"cost": {}, "gain": {"markers": 1}},
                                      {"cost": {"wood": 1}, "gain": {"markers": 2}}]
    assert WRITS["M2"]["options"][1] == {"cost": {"iron": 1}, "gain": {"markers": 2}}
    assert set(WRITS["M7"]["status"]) == {"farmer", "merchant", "alchemist"}
    assert set(WRITS["M8"]["status"]) == {"knight", "noble", "monk"}
    kingdoms = {w: (WRITS[w]["guild"], WRITS[w]["vp"]) for w in ("C3", "C4", "C5", "C6", "C7")}
    assert kingdoms == {"C3": ("knight", [3, 5, 7, 9]), "C4": ("merchant", [3, 5, 7, 9]),
                        "C5": ("alchemist", [3, 5, 7, 9]), "C6": ("farmer", [3, 5, 7, 9]),
                        "C7": ("noble", [3, 5, 7, 9])}
    assert (WRITS["C8"]["guild"], WRITS["C8"]["vp"]) == ("monk", [5, 11, 17])
    assert WRITS["C1"]["vp"] == [5, 7] and WRITS["C2"]["vp"] == [7]
