"""Rule tests for nourish, progress, the epoch check, the dawn of an epoch (B7), the end of the
game and final scoring (B8), guild status (B3) and the Royal Writs (B9)."""

from __future__ import annotations

from games.feudum_guilds import GAME, epochs, rounds, status, writs


def test_nourish_food_then_wine_from_the_barrel_else_the_pawn_starves(table):
    t = table(3)
    t.seat("farmer", [0])
    t.seat("noble", [0])
    t.seat("monk", [0])
    p = t.p(0)
    t.state["haversack"]["food"] += p["goods"]["food"] - 1
    p["goods"]["food"] = 1
    t.state["haversack"]["sulfur"] += p["barrel"] - 1
    p["barrel"] = 1
    rounds.nourish(t.state)
    assert [pw["guild"] for pw in p["pawns"]] == ["farmer", "noble", None]
    assert p["pawns"][1]["wine"] and p["barrel"] == 0 and p["goods"]["food"] == 0
    assert t.state["guilds"]["monk"]["seats"][0] is None  # stars lost with the pawn
    rounds.nourish(t.state)  # the wine lasts a second round; the farmer pawn now starves
    assert [pw["guild"] for pw in p["pawns"]] == [None, "noble", None]
    assert not p["pawns"][1]["wine"]
    t.check()


def test_progress_removes_a_tile_of_the_current_or_a_past_epoch(table):
    t = table(3)
    for i in range(5):
        t.state["stacks"][i] = [2, 3, 4]
    epochs.progress(t.state, t.rng)
    assert t.state["stacks"][5] == [2, 3, 4]  # the only stack with an epoch I tile on top


def test_epoch_check_two_needs_four_stacks_showing_epoch_two(table):
    t = table(3)
    for i in range(3):
        t.state["stacks"][i] = [2, 3, 4]
    assert epochs.triggered_epoch(t.state) is None
    t.state["stacks"][3] = [2, 3, 4]
    assert epochs.triggered_epoch(t.state) == 2


def test_assumption_A_14_at_most_one_epoch_advance_per_round(table):
    t = table(3)
    t.state["stacks"] = [[], [], [], [], [], []]  # epoch V would show, but we are in epoch I
    assert epochs.triggered_epoch(t.state) == 2


def test_epoch_dawn_scores_master_journeyman_apprentice_5_3_1(table):
    t = table(4)
    t.seat("knight", [2, 0, 3])
    epochs.dawn(t.state, 2, t.rng)
    assert [t.p(s)["vp"] for s in range(4)] == [3, 0, 5, 1]
    assert t.state["epoch"] == 2


def test_guild_status_apprentice_seat_only_with_four_or_more_players(table):
    assert len(table(3).state["guilds"]["farmer"]["seats"]) == 2
    assert len(table(4).state["guilds"]["farmer"]["seats"]) == 3


def test_guild_status_stars_pawn_feudum_and_linked_locations_after_a_primary(table):
    t = table(3)
    t.location(0, "farm")
    t.location(0, "farm")
    assert status.stars(t.state, 0, "farmer") == 0  # no primary criterion yet
    t.location(0, "feudum")["guild"] = "farmer"
    assert status.stars(t.state, 0, "farmer") == 3 + 2
    t.seat("knight", [0])
    assert status.stars(t.state, 0, "knight") == 1 + 2


def test_guild_status_surpass_not_tie_to_take_a_seat(table):
    t = table(3)
    t.seat("farmer", [0, 1])
    t.location(2, "farm")
    t.p(2)["pawns"][0]["guild"] = "farmer"  # 2 stars against 1 and 1
    status.update_all(t.state)
    assert t.state["guilds"]["farmer"]["seats"] == [2, 0]
    assert t.p(1)["markers"] == 7  # bumped off: the marker returns
    t.location(0, "farm")  # 2 stars: ties the master, stays journeyman
    status.update_all(t.state)
    assert t.state["guilds"]["farmer"]["seats"] == [2, 0]
    t.check()


def test_guild_status_zero_stars_leaves_the_track_and_others_move_up(table):
    t = table(3)
    t.seat("alchemist", [0, 1])
    t.p(0)["pawns"][0]["guild"] = None
    status.update_all(t.state)
    assert t.state["guilds"]["alchemist"]["seats"] == [1, None]


def test_assumption_A_13_no_marker_no_seat(table):
    t = table(3)
    t.p(2)["markers"] = 0
    t.state["marker_supply"]["2"] += 7
    t.p(2)["pawns"][0]["guild"] = "noble"
    status.update_all(t.state)
    assert t.state["guilds"]["noble"]["seats"] == [None, None]
    t.p(2)["markers"] = 1
    t.state["marker_supply"]["2"] -= 1
    status.update_all(t.state)
    assert t.state["guilds"]["noble"]["seats"][0] == 2


def test_epoch_dawn_three_replenishes_the_guilds(table):
    t = table(3)
    s = t.state
    s["haversack"]["food"] += s["market"]["food"]
    s["market"]["food"] = 0
    s["seal_supply"].append(s["scrolls"][1])
    s["scrolls"][1] = None
    s["seal_supply"].extend(s["rosary"])
    s["rosary"] = []
    epochs.dawn(s, 3, t.rng)
    assert s["market"]["food"] == 4 and s["scrolls"][1] is not None
    assert len(s["rosary"]) == 4 and sum(s["barn"].values()) == 10
    assert all(sum(r["sections"]) >= 2 for r in s["knight_rows"])
    t.check()


def test_assumption_A_25_famine_clears_the_chickens_at_dawn_of_two_and_four(table):
    t = table(3)
    t.chickens(3, 4)
    epochs.dawn(t.state, 2, t.rng)
    assert t.state["chickens"] == [None] * 4
    t.check()
    t2 = table(3, famine=False)
    t2.chickens(3, 4)
    epochs.dawn(t2.state, 2, t2.rng)
    assert t2.state["chickens"][1] is not None


def test_end_of_game_when_epoch_five_is_triggered(table):
    t = table(2)
    t.state["epoch"] = 4
    t.state["stacks"] = [[4], [4], [4], [4], [4], [4]]
    t.act_phase(("tax",))
    for p in t.state["ps"]:
        p["played"] = ["tax"]
    rounds.advance(t.state, t.rng)  # all cards played: nourish, progress empties a stack
    assert t.state["phase"] == "over" and GAME.to_act(t.state) == set()
    out = GAME.outcome(t.state)
    assert set(out) >= {"scores", "ranking", "tie_break"}


def test_end_scoring_great_empire_locations_and_sets_with_wild_feudums(table):
    t = table(2)
    for kind in ("outpost", "outpost", "farm", "farm", "farm", "town"):
        t.location(0, kind)
    t.location(0, "feudum")["guild"] = "monk"
    # 6 locations x 1 + feudum 3 + sets: farms (3) and outposts + feudum (3)
    assert epochs.great_empire(t.p(0)) == 6 + 3 + 6


def test_end_scoring_shillings_vessels_and_sealed_charters(table):
    t = table(2)
    p = t.p(1)
    t.state["haversack"]["sulfur"] += p["barrel"]
    p["barrel"] = 0
    p["shillings"] = 10
    t.state["vessel_supply"]["ship"] -= 1
    p["vessels"]["ship"] = 1
    t.seat("merchant", [1])
    t.state["writ_deck"].remove("C4")
    t.state["writ_deck"].remove("C6")
    p["hand"] = ["C4", "C6"]  # Western Kingdom (Merchant) and Southern (Farmer, no stars)
    p["seals"].append(t.state["seal_supply"].pop())
    p["sealed"] = ["C4"]  # placed by the player at the end (B8.3)
    epochs.final_scoring(t.state)
    lines = t.state["outcome"]["breakdown"][1]
    assert lines["shillings"] == 3 and lines["vessels"] == 2
    assert lines["charters"] == 3 and lines["sealed"] == ["C4"]
    assert t.state["outcome"]["scores"][1] == p["vp"]


def test_end_scoring_unsealed_charter_scores_nothing(table):
    t = table(2)
    t.seat("monk", [0])
    t.state["writ_deck"].remove("C8")
    t.p(0)["hand"] = ["C8"]
    assert writs.sealed_charters(t.state, 0) == (0, [])
    assert writs.charter_value(t.state, 0, "C8") == 5


def test_end_scoring_tie_break_most_sulfur_in_the_wine_barrel(table):
    t = table(3)
    for seat, barrel in enumerate((1, 3, 3)):
        t.state["haversack"]["sulfur"] += t.p(seat)["barrel"] - barrel
        t.p(seat)["barrel"] = barrel
        t.p(seat)["shillings"] = 0
        t.p(seat)["vp"] = 10
    epochs.final_scoring(t.state)
    out = t.state["outcome"]
    assert out["ranking"][:2] == [1, 2] and out["winners"] == [1, 2]  # still tied: shared win


def test_royal_writ_hand_limit_three_discard_to_the_bottom(table):
    t = table(2)
    t.p(0)["hand"] = [t.state["writ_deck"].pop(0) for _ in range(3)]
    t.turn(0, "explore")
    t.location(0, "outpost")
    t.do(0, {"type": "explore"})
    t.do(0, t.moves(0)[0])
    assert t.top()["kind"] == "writ_discard"
    victim = t.p(0)["hand"][0]
    t.do(0, {"type": "discard_writ", "writ": victim})
    assert len(t.p(0)["hand"]) == 3 and t.state["writ_deck"][-1] == victim
    t.check()


def test_royal_writ_mandate_played_at_turn_start_then_to_the_bottom(table):
    t = table(2)
    t.state["writ_deck"].remove("M3")
    t.p(0)["hand"] = ["M3"]
    t.give(0, wood=1)
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert {"type": "mandate", "writ": "M3", "option": "1"} in t.moves(0)
    t.do(0, {"type": "mandate", "writ": "M3", "option": "1"})  # wood + food -> 7s
    assert t.p(0)["shillings"] == 14 and t.p(0)["hand"] == []
    assert t.state["writ_deck"][-1] == "M3" and t.top()["kind"] == "turn"
    t.check()


def test_royal_writ_patronage_mandate_needs_three_stars_in_the_guild(table):
    t = table(2)
    t.state["writ_deck"].remove("M8")
    t.p(0)["hand"] = ["M8"]
    t.act_phase()
    t.state["stack"] = [{"kind": "turn", "seat": 0}]
    assert not any(m["type"] == "mandate" for m in t.moves(0))
    t.seat("knight", [0])
    t.location(0, "farm")
    t.location(0, "farm")
    assert {"type": "mandate", "writ": "M8", "option": "knight"} in t.moves(0)
    markers = t.p(0)["markers"]
    t.do(0, {"type": "mandate", "writ": "M8", "option": "knight"})
    assert t.p(0)["markers"] == markers + 3
    t.check()


def test_royal_writ_monster_charter_only_with_the_monsters_module(table):
    assert "C2" in table(2).state["writs_removed"]
    t = table(2, monsters=True)
    assert t.state["writs_removed"] == [] and "C2" in t.state["writ_deck"]


def test_nourish_each_pawn_costs_one_food_or_wine_as_the_player_chooses(table):
    """B4.3: each pawn in play costs 1 food, or wine (1 sulfur from the barrel onto the pawn,
    which covers this round and the next) -- the player's choice [A-62]."""
    t = table(3)
    t.seat("farmer", [0])
    t.seat("noble", [0])
    t.seat("monk", [1])
    p = t.p(0)
    t.state["haversack"]["sulfur"] += p["barrel"] - 2
    p["barrel"] = 2
    t.state["haversack"]["sulfur"] += t.p(1)["barrel"]
    t.p(1)["barrel"] = 0  # seat 1 has food only: not asked
    t.state["start_player"] = 0
    t.act_phase(("tax",))
    for q in t.state["ps"]:
        q["played"] = ["tax"]
    rounds.advance(t.state, t.rng)
    assert t.state["phase"] == "nourish" and GAME.to_act(t.state) == {0}
    assert t.moves(0) == [{"type": "nourish", "wine": k} for k in (0, 1, 2)]
    assert "not allowed" in t.illegal(0, {"type": "nourish", "wine": 3})
    food, food1 = p["goods"]["food"], t.p(1)["goods"]["food"]
    t.do(0, {"type": "nourish", "wine": 1})
    p = t.p(0)
    assert t.state["phase"] == "select" and t.state["round"] == 2
    assert p["goods"]["food"] == food - 1 and p["barrel"] == 1
    assert [pw["wine"] for pw in p["pawns"] if pw["guild"]] == [False, True]
    assert t.p(1)["goods"]["food"] == food1 - 1
    assert "wine" in GAME.describe({"version": 1, "actor": 0, "names": ["A", "B", "C"],
                                    "data": {"move": {"type": "nourish", "wine": 1}}}, None)
    t.check()


def test_assumption_A_62_nourish_asks_only_players_with_a_real_choice(table):
    t = table(2)
    t.seat("farmer", [0])
    t.state["haversack"]["sulfur"] += t.p(0)["barrel"]
    t.p(0)["barrel"] = 0
    t.act_phase(("tax",))
    for q in t.state["ps"]:
        q["played"] = ["tax"]
    food = t.p(0)["goods"]["food"]
    rounds.advance(t.state, t.rng)
    assert t.state["phase"] == "select" and t.p(0)["goods"]["food"] == food - 1
