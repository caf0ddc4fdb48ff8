"""Rule tests for the optional modules (B10) and the fixed-length variant (A-27)."""

from __future__ import annotations

from games.feudum_guilds import epochs, rounds, status


def test_module_reeves_leave_a_reeve_when_pushing_and_score_the_bonus(table):
    t = table(3, reeves=True)
    t.seat("noble", [0, 1])
    t.seat("monk", [2, 0])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "noble", "function": "push"})
    t.do(0, {"type": "flip", "scroll": 1})
    t.do(0, {"type": "flip", "scroll": 2})
    vp = t.p(0)["vp"]
    assert t.top() == {"kind": "reeve", "seat": 0, "guild": "noble"}
    t.do(0, {"type": "reeve", "place": True})
    assert t.p(0)["vp"] == vp + 1 and t.state["guilds"]["noble"]["reeves"] == [0]
    # a pull elsewhere with the second reeve: +1, +1 for the reeve in another guild
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "monk", "function": "pull"})
    t.do(0, {"type": "flip", "scroll": 3})
    while t.top()["kind"] == "writ_keep" or t.top()["kind"] == "writ_discard":
        t.do(0, t.moves(0)[0])
    vp = t.p(0)["vp"]
    t.do(0, {"type": "reeve", "place": True})
    assert t.p(0)["vp"] == vp + 2
    t.check()


def test_module_reeves_off_asks_nothing(table):
    t = table(3)
    t.seat("noble", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "noble", "function": "push"})
    t.do(0, {"type": "flip", "scroll": 1})
    t.do(0, {"type": "flip", "scroll": 2})
    assert t.top()["kind"] == "turn"


def test_module_feast_performs_the_holders_push_for_wine_plus_three_and_the_share(table):
    t = table(3, feast=True)
    t.seat("farmer", [0, 1])
    t.p(2)["pawns"][0]["guild"] = "farmer"  # 1 star: ties, so no seat
    t.state["haversack"]["sulfur"] -= 1 - t.p(2)["barrel"]
    t.p(2)["barrel"] = 1
    barrel = t.p(2)["barrel"]
    t.state["purse"] = 4
    for g in list(t.state["barn"]):
        t.state["haversack"][g] += t.state["barn"][g]
        t.state["barn"][g] = 0
    t.turn(2)
    assert {"type": "feast", "guild": "farmer", "function": "push"} in t.moves(2)
    t.do(2, {"type": "feast", "guild": "farmer", "function": "push"})
    assert t.p(2)["barrel"] == barrel - 1
    assert t.p(2)["vp"] == 3  # nothing moved: 0 vp + the feast's 3
    assert t.p(2)["shillings"] == 7 + 2 and t.p(1)["shillings"] == 7 + 2  # master's half
    t.check()


def test_module_feast_needs_a_star_in_the_guild(table):
    t = table(3, feast=True)
    t.seat("farmer", [0, 1])
    t.turn(2)
    assert not any(m["type"] == "feast" for m in t.moves(2))


def _three_markers_in_row(t, seat):
    row = next(r for r in t.state["knight_rows"] if r["colour"] == seat)
    t.state["marker_supply"][str(seat)] -= 1
    row["sections"][1] += 1  # 3 markers in the row


def test_module_monsters_tame_the_beast_after_buying_three_markers(table):
    t = table(3, monsters=True)
    _three_markers_in_row(t, 2)
    markers = t.p(2)["markers"]
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "knight", "function": "trade"})
    assert t.top()["kind"] == "tame"
    t.do(2, {"type": "tame", "monster": "behemoth"})
    assert t.state["monsters"]["behemoth"] == 2 and t.p(2)["markers"] == markers + 3 - 3
    t.check()


def test_module_monsters_pilfer_once_per_round_after_a_guild_action(table):
    t = table(3, monsters=True)
    t.state["monsters"]["behemoth"] = 1
    t.p(1)["markers"] -= 1
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "knight", "function": "trade"})
    assert t.top()["kind"] == "pilfer"
    t.do(1, {"type": "pilfer", "from": "market", "good": "iron"})
    assert t.p(1)["goods"]["iron"] >= 1 and t.state["market"]["iron"] == 3
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "noble", "function": "trade"})
    t.do(1, {"type": "buy_seals", "count": 1})
    assert t.top()["kind"] == "turn"  # no second pilfer this round
    t.check()


def test_module_monsters_defeat_a_monster_at_the_knight_guild(table):
    t = table(3, monsters=True)
    t.state["monsters"]["behemoth"] = 1
    t.p(1)["markers"] -= 1
    t.give(0, saltpeter=1)
    t.turn(0)
    assert {"type": "defeat", "monster": "behemoth"} in t.moves(0)
    t.do(0, {"type": "defeat", "monster": "behemoth"})
    assert t.state["monsters"]["behemoth"] is None and t.p(0)["slain"] == 1
    assert t.p(1)["markers"] == 7
    t.check()


def test_module_vassalage_tribute_at_the_knight_guild_and_disloyalty_at_dawn(table):
    t = table(3, vassalage=True)
    t.location(0, "feudum")["guild"] = "monk"
    t.location(1, "feudum")["guild"] = "monk"
    t.give(0, saltpeter=1)
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "trade"})
    assert t.top()["kind"] == "tribute"
    t.do(0, {"type": "tribute", "pay": True})
    assert t.p(0)["service"] == 1
    vp0, vp1 = t.p(0)["vp"], t.p(1)["vp"]
    t.state["stack"] = []
    epochs.dawn(t.state, 2, t.rng)
    seats = t.state["guilds"]["monk"]["seats"]
    monk_vp = {seats[0]: 5, seats[1]: 3}
    assert t.p(0)["vp"] == vp0 + monk_vp[0]  # service covered
    assert t.p(1)["vp"] == vp1 + monk_vp[1] - 3  # one uncovered catapult space
    t.check()


def test_module_favors_harvest_kickback_flips_beads_to_seals(table):
    t = table(3, favors=True)
    farm = t.location(0, "farm")
    t.turn(0, "harvest")
    assert {"type": "harvest", "location": farm["id"], "favor": True} in t.moves(0)
    t.p(0)["beads"].append(t.state["seal_supply"].pop())
    bead = t.state["tokens"][t.p(0)["beads"][0]]
    goods = sum(t.p(0)["goods"].values())
    t.do(0, {"type": "harvest", "location": farm["id"], "favor": True})
    total = min(10, 5 + bead)
    to_farm, kickback = {7: (5, 2), 8: (5, 3), 9: (6, 3), 10: (6, 4)}[total]
    assert sum(t.loc(0, farm["id"])["goods"].values()) == to_farm
    assert sum(t.p(0)["goods"].values()) == goods + kickback
    assert t.p(0)["beads"] == [] and len(t.p(0)["seals"]) == 1
    t.check()


def test_assumption_A_27_fixed_length_eight_rounds_with_dawns_after_2_4_6_8(table):
    t = table(2, fixed_length=True)
    seen = []
    for _ in range(8):
        t.act_phase(("tax",))
        for p in t.state["ps"]:
            p["played"] = ["tax"]
        rounds.advance(t.state, t.rng)
        seen.append(t.state["epoch"])
    assert seen == [1, 2, 2, 3, 3, 4, 4, 5]
    assert t.state["phase"] == "over"


def test_module_monsters_need_no_food_and_give_no_stars(table):
    """Fragment: monsters can NOT influence locations, and you do not need to feed them."""
    t = table(3, monsters=True)
    _three_markers_in_row(t, 2)
    t.turn(2)
    before = status.star_table(t.state)[2]
    t.do(2, {"type": "guild", "guild": "knight", "function": "trade"})
    t.do(2, {"type": "tame", "monster": "sea_serpent"})
    assert status.star_table(t.state)[2] == before
    food = t.p(2)["goods"]["food"]
    rounds.nourish(t.state)  # no pawn in play: the monster eats nothing
    assert t.p(2)["goods"]["food"] == food
    t.check()
