"""Tests for the assumptions this implementation adds (A-31 ... A-58, ASSUMPTIONS.md) and for
the notes' assumptions that change play."""

from __future__ import annotations

from games.feudum_guilds import GAME, epochs, rounds, status
from games.feudum_guilds.modules import vassalage


def test_assumption_A_4_bead_values_five_2s_four_each_of_3_4_5(table):
    assert sorted(table(2).state["tokens"]) == [2] * 5 + [3] * 4 + [4] * 4 + [5] * 4


def test_assumption_A_11_concrete_setup_fill(table):
    s = table(3).state
    assert s["market"] == {"food": 4, "wood": 4, "iron": 4, "saltpeter": 3, "sulfur": 3}
    assert s["alchemist"] == {"wood": 3, "iron": 3, "food": 1, "saltpeter": 3, "sulfur": 1}
    assert [t is not None for t in s["scrolls"]] == [False, True, True, True, False, True]
    assert len(s["rosary"]) == 4 and s["chickens"][0] is not None
    assert sum(s["vessel_space"].values()) == 2 and sum(s["barn"].values()) == 10


def test_assumption_A_3_dummy_rows_until_four_colours(table):
    assert [r["colour"] for r in table(2).state["knight_rows"]] == [0, 1, "neutral-1",
                                                                    "neutral-2"]
    assert [r["colour"] for r in table(3).state["knight_rows"]] == [0, 1, 2, "neutral-1"]
    assert [r["colour"] for r in table(5).state["knight_rows"]] == [0, 1, 2, 3, 4]


def test_assumption_A_31_feudum_seal_returns_under_the_seal_supply(table):
    t = table(3)
    loc = t.location(0, "town")
    seal = t.state["seal_supply"].pop()
    t.p(0)["seals"].append(seal)
    t.turn(0, "improve")
    t.do(0, {"type": "improve", "location": loc["id"], "guild": "monk"})
    assert t.state["seal_supply"][0] == seal
    t.check()


def test_assumption_A_32_progress_picks_among_eligible_stacks_only(table):
    t = table(3)
    t.state["stacks"] = [[2, 3, 4]] * 3 + [[1, 2, 3, 4]] + [[2, 3, 4]] * 2
    t.state["stacks"] = [list(s) for s in t.state["stacks"]]
    for _ in range(5):
        before = [list(s) for s in t.state["stacks"]]
        epochs.progress(t.state, t.rng)
        if before[3] and before[3][0] == 1:
            assert t.state["stacks"][3] == before[3][1:]
    assert t.state["stacks"][0] == [2, 3, 4]  # never an epoch II tile during epoch I


def test_assumption_A_33_region_tiles_are_wild_goods_for_action_costs(table):
    t = table(3)
    t.state["haversack"]["food"] += t.p(0)["goods"]["food"]
    t.p(0)["goods"]["food"] = 0
    t.p(0)["tiles"] = [2]
    t.turn(0, "migrate")
    t.do(0, {"type": "migrate", "guild": "farmer"})
    assert t.p(0)["tiles"] == [] and t.state["tiles_spent"] == 1
    t.check()


def test_assumption_A_34_mandates_only_at_the_start_of_your_own_turn(table):
    t = table(2)
    t.state["writ_deck"].remove("M1")
    t.p(0)["hand"] = ["M1"]
    t.turn(0, "tax")
    assert not any(m["type"] == "mandate" for m in t.moves(0))
    t.do(0, {"type": "forfeit"})
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert {"type": "mandate", "writ": "M1", "option": "0"} in t.moves(0)


def _end_table(table, n=2):
    """A table whose next end of round triggers epoch V (all cards already played)."""
    t = table(n)
    t.state["epoch"] = 4
    t.state["stacks"] = [[4], [4], [4], [4], [4], [4]]
    t.act_phase(("tax",))
    for p in t.state["ps"]:
        p["played"] = ["tax"]
    return t


def test_assumption_A_35_players_place_their_king_seals_on_charters_at_the_end(table, no_leaks):
    """B8.3/A9: a charter scores only if its holder places a king's seal on it at the END."""
    t = _end_table(table, 3)
    t.seat("monk", [0])
    for _ in range(2):
        t.location(0, "outpost")
    for w in ("C8", "C5", "C1", "C6"):
        t.state["writ_deck"].remove(w)
    t.p(0)["hand"] = ["C8", "C5", "C1"]
    t.p(1)["hand"] = ["C6"]  # a charter but no seal: not asked
    for _ in range(2):
        t.p(0)["seals"].append(t.state["seal_supply"].pop())
    t.p(2)["seals"].append(t.state["seal_supply"].pop())  # a seal but no charter: not asked
    t.state["start_player"] = 1
    rounds.advance(t.state, t.rng)
    assert t.state["phase"] == "end" and GAME.to_act(t.state) == {0}
    assert t.moves(0) == [{"type": "seal_charter", "writ": w} for w in ("C8", "C5", "C1")] + [
        {"type": "done"}]
    no_leaks(t.state)
    assert "Isolated" not in " ".join(GAME.view(t.state, 1)["log"])
    t.do(0, {"type": "seal_charter", "writ": "C5"})  # the player's choice, even a poor one
    assert t.state["phase"] == "end" and {"type": "seal_charter", "writ": "C5"} not in t.moves(0)
    assert GAME.view(t.state, 0)["players"][0]["hand"][1]["sealed"] is True
    t.do(0, {"type": "seal_charter", "writ": "C8"})  # second seal: nothing more is asked
    assert t.state["phase"] == "over"
    line = t.state["outcome"]["breakdown"][0]
    assert line["sealed"] == ["C5", "C8"] and line["charters"] == 0 + 17
    assert t.state["outcome"]["breakdown"][1]["charters"] == 0
    t.check()


def test_assumption_A_35_a_player_may_leave_seals_unplaced(table):
    t = _end_table(table)
    t.seat("merchant", [1])
    t.state["writ_deck"].remove("C4")
    t.p(1)["hand"] = ["C4"]
    t.p(1)["seals"].append(t.state["seal_supply"].pop())
    rounds.advance(t.state, t.rng)
    assert t.top() == {"kind": "seal_charters", "seat": 1}
    assert "not allowed" in t.illegal(1, {"type": "seal_charter", "writ": "C5"})
    t.do(1, {"type": "done"})
    assert t.state["phase"] == "over"
    assert t.state["outcome"]["breakdown"][1]["charters"] == 0


def test_assumption_A_36_only_chicken_sum_overflow_goods_spill(table):
    t = table(3)
    s = t.state
    for g in s["barn"]:
        s["haversack"][g] += s["barn"][g]
        s["barn"][g] = 0
    s["haversack"]["iron"] -= 10
    s["barn"]["iron"] = 10
    t.chickens(2)
    s["haversack"]["wood"] += 2
    s["market"]["wood"] = 2
    farm = t.location(0, "farm", wood=6)
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "farmer", "function": "trade"})
    t.do(0, {"type": "send_farm", "location": farm["id"], "food": 0})
    assert t.state["market"]["wood"] == 4  # exactly 2 of the 6 overflow goods spilled


def test_assumption_A_37_a_flip_that_moves_no_seal_scores_nothing(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(5, 5, 5)
    for i, tok in enumerate(t.state["scrolls"]):
        if tok is not None:
            t.state["seal_supply"].append(tok)
            t.state["scrolls"][i] = None
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "monk", "function": "pull"})
    assert t.p(1)["vp"] == 0 and t.top()["kind"] == "turn"  # rosary 15 but nothing moved


def test_assumption_A_38_feasters_place_no_reeves(table):
    t = table(3, feast=True, reeves=True)
    t.seat("noble", [0, 1])
    t.p(2)["pawns"][0]["guild"] = "noble"
    t.state["haversack"]["sulfur"] -= 2 - t.p(2)["barrel"]
    t.p(2)["barrel"] = 2
    t.turn(2)
    t.do(2, {"type": "feast", "guild": "noble", "function": "push"})
    t.do(2, {"type": "flip", "scroll": 1})
    t.do(2, {"type": "flip", "scroll": 2})
    assert t.top()["kind"] == "turn" and t.p(2)["reeves"] == []
    t.check()


def test_assumption_A_38_reeves_never_score_for_the_feaster(table):
    def feast_gain(feaster_reeves: list[str], holder_reeves: list[str]) -> int:
        t = table(3, feast=True, reeves=True)
        t.seat("noble", [0, 1])
        t.state["seal_supply"] = []  # hold the seal tokens elsewhere: the pull moves none
        for seat, placed in ((2, feaster_reeves), (1, holder_reeves)):
            t.p(seat)["reeves"] = list(placed)
            for g in placed:
                t.state["guilds"][g]["reeves"].append(seat)
        t.p(2)["pawns"][0]["guild"] = "noble"
        t.state["haversack"]["sulfur"] -= 2 - t.p(2)["barrel"]
        t.p(2)["barrel"] = 2
        t.turn(2)
        vp = t.p(2)["vp"]
        t.do(2, {"type": "feast", "guild": "noble", "function": "pull"})  # no seal: 0 vp
        assert t.top()["kind"] == "turn" and t.p(2)["reeves"] == feaster_reeves
        return t.p(2)["vp"] - vp

    assert feast_gain([], ["noble"]) == 3  # the feast bonus only: not the holder's reeve
    assert feast_gain(["noble"], []) == 3  # B10: reeves do not score for the feaster
    assert feast_gain(["noble", "farmer"], []) == 3


def test_assumption_A_39_disloyalty_counts_uncovered_spaces_cumulatively(table):
    t = table(2, vassalage=True)
    t.location(0, "feudum")["guild"] = "farmer"
    vassalage.disloyalty(t.state, 4)  # 2nd check, nothing covered: 2 x 4
    assert t.p(0)["vp"] == -8
    t.p(0)["service"] = 2
    vassalage.disloyalty(t.state, 5)  # 3rd check, 2 covered: 1 x 5
    assert t.p(0)["vp"] == -13
    vassalage.disloyalty(t.state, 3)  # no check at the dawn of III
    assert t.p(0)["vp"] == -13 and t.p(1)["vp"] == 0  # not a vassal


def test_assumption_A_40_nourish_uses_wine_standing_on_the_pawn_first(table):
    t = table(2)
    t.seat("farmer", [0])
    t.state["haversack"]["sulfur"] -= 1
    t.p(0)["pawns"][0]["wine"] = True
    food = t.p(0)["goods"]["food"]
    rounds.nourish(t.state)
    assert t.p(0)["goods"]["food"] == food and not t.p(0)["pawns"][0]["wine"]
    t.check()


def test_assumption_A_41_farmer_trade_food_and_or_shillings_food_limited_by_the_haversack(table):
    t = table(2)
    s = t.state
    for g in s["barn"]:
        s["haversack"][g] += s["barn"][g]
        s["barn"][g] = 0
    farm = t.location(0, "farm", wood=4)
    food = t.p(0)["goods"]["food"]
    t.p(1)["goods"]["food"] += s["haversack"]["food"] - 1
    s["haversack"]["food"] = 1
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "farmer", "function": "trade"})
    assert max(m["food"] for m in t.moves(0)) == 1  # only 1 food left in the haversack
    t.do(0, {"type": "send_farm", "location": farm["id"], "food": 1})
    assert t.p(0)["goods"]["food"] == food + 1 and t.p(0)["shillings"] == 7 + 1
    t.check()


def test_assumption_A_42_noble_trade_takes_the_lowest_scroll_when_the_supply_is_empty(table):
    t = table(2)
    s = t.state
    t.p(1)["seals"] += s["seal_supply"]
    s["seal_supply"] = []
    first = s["scrolls"][1]
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "noble", "function": "trade"})
    t.do(0, {"type": "buy_seals", "count": 1})
    assert t.p(0)["seals"] == [first] and t.state["scrolls"][1] is None
    t.check()


def test_assumption_A_43_boost_goods_are_paid_at_the_reveal(table):
    t = table(2)
    t.state["phase"] = "select"
    t.give(0, sulfur=1)
    t.do(0, {"type": "boost", "boost": "double"})
    assert GAME.view(t.state, 1)["players"][0]["goods"]["sulfur"] == 1


def test_assumption_A_45_feast_counts_as_using_that_guild_for_repeat(table):
    t = table(3, feast=True)
    t.seat("knight", [0, 1])
    t.p(2)["pawns"][0]["guild"] = "knight"
    t.state["haversack"]["sulfur"] -= 2 - t.p(2)["barrel"]
    t.p(2)["barrel"] = 2
    t.turn(2)
    t.do(2, {"type": "feast", "guild": "knight", "function": "pull"})
    while t.top()["seat"] == 2 and t.top()["kind"] != "turn":
        t.do(2, t.moves(2)[0])
    t.turn(2, "repeat")
    t.do(2, {"type": "repeat", "card": "guild"})
    assert not any(m.get("guild") == "knight" for m in t.moves(2))


def test_assumption_A_48_a_push_is_offered_even_if_it_would_move_nothing(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    for g in t.state["market"]:
        t.state["haversack"][g] += t.state["market"][g]
        t.state["market"][g] = 0
    t.turn(0)
    assert {"type": "guild", "guild": "merchant", "function": "push"} in t.moves(0)
    t.do(0, {"type": "guild", "guild": "merchant", "function": "push"})
    assert t.p(0)["vp"] == 0 and t.top()["kind"] == "turn"


def test_assumption_A_49_goods_transfers_cannot_stop_early(table):
    t = table(3)
    t.seat("alchemist", [0, 1])
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "alchemist", "function": "pull"})
    assert {"type": "done"} not in t.moves(1)
    t.seat("knight", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "push"})
    t.do(0, t.moves(0)[0])
    assert {"type": "done"} in t.moves(0)  # the Knight push may stop after 1 of 1-3


def test_assumption_A_50_the_starting_pawn_is_free_and_takes_the_best_free_seat(table):
    t = table(4, seed=3)
    s = GAME.setup(["a", "b", "c", "d"], GAME.normalize_options({}, 4), t.rng)
    while s["phase"] == "setup":
        seat = next(iter(GAME.to_act(s)))
        moves = GAME.legal_moves(s, seat)
        move = next((m for m in moves if m.get("guild") == "farmer"), moves[0])
        GAME.apply(s, seat, move, t.rng)
    order = [(s["start_player"] + i) % 4 for i in range(4)]
    assert s["guilds"]["farmer"]["seats"] == order[:3]  # master, journeyman, apprentice
    assert all(p["goods"]["food"] >= 7 for p in s["ps"])
    GAME.check_invariants(s)


def test_assumption_A_51_disloyalty_can_make_a_score_negative(table):
    t = table(2, vassalage=True)
    t.location(0, "feudum")["guild"] = "farmer"
    vassalage.disloyalty(t.state, 2)
    assert t.p(0)["vp"] == -3


def test_assumption_A_52_patronage_bead_and_seal_come_from_the_seal_supply(table):
    t = table(2)
    t.state["writ_deck"].remove("M8")
    t.p(0)["hand"] = ["M8"]
    t.seat("monk", [0])
    t.location(0, "outpost")
    t.location(0, "outpost")
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    supply = len(t.state["seal_supply"])
    t.do(0, {"type": "mandate", "writ": "M8", "option": "monk"})
    assert len(t.p(0)["beads"]) == 1 and len(t.state["seal_supply"]) == supply - 1
    t.check()


def test_assumption_A_56_over_the_hand_limit_a_discard_is_forced_at_once(table):
    t = table(2)
    t.p(0)["hand"] = [t.state["writ_deck"].pop(0) for _ in range(3)]
    t.location(0, "outpost")
    t.turn(0, "explore")
    t.do(0, {"type": "explore"})
    t.do(0, t.moves(0)[0])
    assert t.top()["kind"] == "writ_discard" and len(t.p(0)["hand"]) == 4
    assert {m["type"] for m in t.moves(0)} == {"discard_writ"}
    assert len(t.moves(0)) == 4


def test_assumption_A_60_royal_writ_discard_unused_writs_at_any_of_your_turns(table, no_leaks):
    """A9: a player may discard unused writs to the bottom of the deck at any time."""
    def _event(actor: int, move: dict) -> dict:
        return {"version": 9, "actor": actor, "data": {"move": move}, "names": ["A", "B", "C"]}

    t = table(3)
    t.state["writ_deck"].remove("C1")
    t.state["writ_deck"].remove("M3")
    t.p(0)["hand"] = ["C1", "M3"]
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert {"type": "discard_writ", "writ": "C1"} in t.moves(0)
    assert {"type": "discard_writ", "writ": "M3"} in t.moves(0)  # even a mandate it cannot play
    assert not any(m["type"] == "discard_writ" for m in t.moves(1))
    t.do(0, {"type": "discard_writ", "writ": "C1"})
    assert t.p(0)["hand"] == ["M3"] and t.state["writ_deck"][-1] == "C1"
    assert t.top() == {"kind": "turn", "seat": 0}  # still 0's turn: a free move
    t.do(0, {"type": "discard_writ", "writ": "M3"})
    assert t.p(0)["hand"] == [] and not any(m["type"] == "discard_writ" for m in t.moves(0))
    assert "not possible" in t.illegal(0, {"type": "discard_writ", "writ": "M3"})
    no_leaks(t.state)
    for viewer in (None, 1, 2):
        line = GAME.describe(_event(0, {"type": "discard_writ", "writ": "C1"}), viewer)
        assert "Wine" not in line and "C1" not in line
        assert "Wine" not in " ".join(GAME.view(t.state, viewer)["log"])
    t.check()


def test_assumption_A_57_harvest_total_is_capped_then_limited_by_the_farm_room(table):
    t = table(2)
    farm = t.location(0, "farm", food=7)
    t.turn(0, "harvest")
    t.do(0, {"type": "harvest", "location": farm["id"]})
    assert sum(t.loc(0, farm["id"])["goods"].values()) == 10
    t.check()


def test_assumption_A_58_simultaneous_entrants_by_stars_then_turn_order(table):
    t = table(3)
    t.state["start_player"] = 1
    for seat in range(3):
        t.p(seat)["pawns"][0]["guild"] = "monk"
    t.location(2, "outpost")
    status.update_all(t.state)
    assert t.state["guilds"]["monk"]["seats"] == [2, 1]


def test_assumption_A_59_sulfur_can_be_put_into_the_wine_barrel_on_your_turn(table):
    t = table(2)
    t.state["haversack"]["sulfur"] += t.p(0)["barrel"] + t.p(0)["goods"]["sulfur"]
    t.p(0)["barrel"] = 0
    t.p(0)["goods"]["sulfur"] = 0
    t.give(0, sulfur=4)
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    for _ in range(3):
        t.do(0, {"type": "fill_barrel"})
    assert t.p(0)["barrel"] == 3 and t.p(0)["goods"]["sulfur"] == 1
    assert {"type": "fill_barrel"} not in t.moves(0)  # the barrel holds 3
    assert t.top() == {"kind": "turn", "seat": 0}
    t.check()


def test_assumption_A_61_behemoth_pilfers_anywhere_sea_serpent_only_at_the_alchemist(table):
    """Fragment: the sea serpent is limited to ship and submersible routes, the behemoth to
    roads and flying-machine routes."""
    for monster, where in (("behemoth", {"market", "alchemist"}), ("sea_serpent", {"alchemist"})):
        t = table(3, monsters=True)
        t.state["monsters"][monster] = 1
        t.p(1)["markers"] -= 1
        t.turn(1)
        t.do(1, {"type": "guild", "guild": "knight", "function": "trade"})
        assert t.top() == {"kind": "pilfer", "seat": 1, "monster": monster}
        options = t.moves(1)
        assert {m.get("from") for m in options} == where | {None}
        if monster == "sea_serpent":
            good = next(g for g in t.state["market"] if t.state["market"][g])
            assert "not allowed" in t.illegal(1, {"type": "pilfer", "from": "market",
                                                  "good": good})
        move = next(m for m in options if m.get("from") == "alchemist")
        before = t.state["alchemist"][move["good"]]
        t.do(1, move)
        assert t.state["alchemist"][move["good"]] == before - 1
        t.check()
    t = table(3, monsters=True)
    t.state["monsters"]["sea_serpent"] = 1
    t.p(1)["markers"] -= 1
    for good in t.state["alchemist"]:
        t.state["haversack"][good] += t.state["alchemist"][good]
        t.state["alchemist"][good] = 0
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "knight", "function": "trade"})
    assert t.top()["kind"] == "turn"  # nothing at the Alchemist: the sea serpent cannot pilfer
    assert t.state["monster_used"]["sea_serpent"] is False


def test_assumption_A_44_double_turn_declared_at_the_start_of_a_turn(table):
    t = table(2)
    t.act_phase(("tax", "explore", "harvest", "guild"))
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert {"type": "double"} not in t.moves(0)  # no sulfur boost this round
    t.p(0)["boost"] = "double"
    assert {"type": "double"} in t.moves(0)
    t.p(0)["played"] = ["tax", "explore", "harvest"]  # one card left: nothing to double
    assert {"type": "double"} not in t.moves(0)


def test_assumption_A_46_defeating_a_monster_uses_the_knight_guild_for_repeat(table):
    t = table(3, monsters=True)
    t.state["monsters"]["sea_serpent"] = 1
    t.p(1)["markers"] -= 1
    t.give(0, saltpeter=2, food=2)
    t.turn(0)
    t.do(0, {"type": "defeat", "monster": "sea_serpent"})
    assert t.p(0)["guilds_used"] == ["knight"] and t.p(0)["slain"] == 1
    t.state["monsters"]["behemoth"] = 2
    t.p(2)["markers"] -= 1
    t.turn(0, "repeat")
    t.do(0, {"type": "repeat", "card": "guild"})
    moves = t.moves(0)
    assert not any(m["type"] == "defeat" or m.get("guild") == "knight" for m in moves)
    t.check()


def test_assumption_A_47_seals_held_by_players_stay_hidden_even_from_the_owner(table):
    t = table(2)
    t.p(0)["seals"] = [t.state["seal_supply"].pop(), t.state["seal_supply"].pop()]
    for viewer in (0, 1, None):
        mine = GAME.view(t.state, viewer)["players"][0]
        assert mine["seals"] == 2 and mine["beads"] == []


def test_assumption_A_53_knight_push_takes_the_marker_of_the_last_filled_hex(table):
    t = table(3)
    t.seat("knight", [0, 1])
    row = t.state["knight_rows"][2]
    t.state["marker_supply"]["2"] -= 2
    row["sections"] = [1, 2, 1]
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "push"})
    t.do(0, {"type": "seal", "row": 2, "scroll": 0})
    assert t.state["knight_rows"][2]["sections"] == [1, 2, 0]
    t.check()


def test_assumption_A_54_one_merchant_trade_is_one_trading_procedure(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "merchant", "function": "trade"})
    t.do(2, {"type": "buy", "good": "food"})  # bin 4: 1s -> master
    t.do(2, {"type": "buy", "good": "food"})  # bin 3: 1s -> journeyman
    t.do(2, {"type": "buy", "good": "food"})  # bin 2: 1s -> charity (church coffer)
    assert t.p(0)["shillings"] == 8 and t.p(1)["shillings"] == 8 and t.state["coffer"] == 1


def test_assumption_A_55_tax_needs_a_town_explore_an_outpost_feudums_only_add(table):
    t = table(2)
    t.location(0, "feudum")["guild"] = "monk"
    t.turn(0, "tax")
    assert t.moves(0) == [{"type": "forfeit"}]
    t.turn(0, "explore")
    assert t.moves(0) == [{"type": "forfeit"}]
    t.location(0, "town")
    t.turn(0, "tax")
    t.do(0, {"type": "tax"})
    assert t.p(0)["shillings"] == 7 + 2 + 1  # 2, +1 for the feudum
