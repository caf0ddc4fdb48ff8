"""Rule tests for the eighteen guild functions (B6) and the trading procedure (A5)."""

from __future__ import annotations

from games.feudum_guilds import GAME
from games.feudum_guilds.components import GOODS


def empty_barn(t, **goods):
    s = t.state
    for g in GOODS:
        s["haversack"][g] += s["barn"][g]
        s["barn"][g] = 0
    for g, n in goods.items():
        s["haversack"][g] -= n
        s["barn"][g] = n


def set_market(t, **counts):
    s = t.state
    for g, n in counts.items():
        s["haversack"][g] += s["market"][g] - n
        s["market"][g] = n


def set_alchemist(t, **counts):
    s = t.state
    for g, n in counts.items():
        s["haversack"][g] += s["alchemist"][g] - n
        s["alchemist"][g] = n


# -- Farmer ------------------------------------------------------------------------------------


def test_farmer_guild_trade_sends_all_farm_goods_for_one_per_pair(table):
    t = table(3)
    empty_barn(t)
    farm = t.location(1, "farm", food=2, wood=3)
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "farmer", "function": "trade"})
    t.do(1, {"type": "send_farm", "location": farm["id"], "food": 0})
    assert t.p(1)["shillings"] == 7 + 2  # 5 goods -> 2 shillings, the odd good gives nothing
    assert sum(t.loc(1, farm["id"])["goods"].values()) == 0
    assert t.state["barn"]["food"] == 2 and t.state["barn"]["wood"] == 3
    t.check()


def test_farmer_guild_trade_food_comes_from_the_haversack(table):
    t = table(3)
    empty_barn(t)
    farm = t.location(2, "farm", iron=4)
    food = t.p(2)["goods"]["food"]
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "farmer", "function": "trade"})
    t.do(2, {"type": "send_farm", "location": farm["id"], "food": 2})
    assert t.p(2)["goods"]["food"] == food + 2
    t.check()


def test_farmer_guild_trade_food_and_or_shillings_mixed_per_pair(table):
    """Fragment: 1 food or 1 shilling for every 2 goods -- "food and/or shillings"."""
    t = table(3)
    empty_barn(t)
    farm = t.location(2, "farm", iron=3, wood=4)  # 7 goods: 3 pairs
    food, shillings = t.p(2)["goods"]["food"], t.p(2)["shillings"]
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "farmer", "function": "trade"})
    assert t.moves(2) == [{"type": "send_farm", "location": farm["id"], "food": k}
                          for k in range(4)]
    assert "not allowed" in t.illegal(2, {"type": "send_farm", "location": farm["id"], "food": 4})
    assert "3 food and 0 shilling" in GAME.move_label(t.state, 2, t.moves(2)[3])
    t.do(2, {"type": "send_farm", "location": farm["id"], "food": 1})
    assert t.p(2)["goods"]["food"] == food + 1 and t.p(2)["shillings"] == shillings + 2
    t.check()


def test_farmer_guild_trade_surplus_spills_over_by_chicken_sum(table):
    t = table(3)
    empty_barn(t, iron=10)
    set_market(t, food=2)
    set_alchemist(t, food=1)
    t.chickens(2, 3)  # spill-over of 5
    farm = t.location(0, "farm", food=7)
    sack = t.state["haversack"]["food"]
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "farmer", "function": "trade"})
    t.do(0, {"type": "send_farm", "location": farm["id"], "food": 0})
    assert t.state["market"]["food"] == 4  # first the Merchant guild ...
    assert t.state["alchemist"]["food"] == 3  # ... then the Alchemist guild
    assert t.state["haversack"]["food"] == sack + 3  # 1 spilled good found no room, 2 not spilled
    assert sum(t.state["barn"].values()) == 10
    t.check()


def test_farmer_guild_trade_surplus_without_beads_goes_back_to_the_haversack(table):
    t = table(3)
    empty_barn(t, iron=9)
    t.chickens()
    farm = t.location(0, "farm", food=4)
    market, sack = t.state["market"]["food"], t.state["haversack"]["food"]
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "farmer", "function": "trade"})
    t.do(0, {"type": "send_farm", "location": farm["id"], "food": 0})
    assert t.state["barn"]["food"] == 1 and t.state["market"]["food"] == market
    assert t.state["haversack"]["food"] == sack + 3
    t.check()


def test_farmer_guild_pull_hidden_fists_alms_on_chicken_and_reward_at_five(table):
    t = table(3)
    t.seat("farmer", [0, 1])
    t.rosary(2, 5, 3)
    t.chickens(2)
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "farmer", "function": "pull"})
    assert t.top()["kind"] == "fist_divide" and t.top()["seat"] == 2  # next player clockwise
    assert t.moves(1) == []
    t.do(2, {"type": "divide", "left": "high"})
    assert t.top()["kind"] == "fist_pick" and t.top()["seat"] == 1
    vp = t.p(1)["vp"]
    t.do(1, {"type": "pick", "fist": "left"})
    values = sorted(t.state["tokens"][c] for c in t.state["chickens"] if c is not None)
    assert values == [2, 5]
    assert sorted(t.state["tokens"][b] for b in t.state["rosary"]) == [2, 3]
    assert t.p(1)["vp"] == vp + 3 and t.top()["kind"] == "writ_keep"
    t.do(1, t.moves(1)[0])
    assert len(t.p(1)["hand"]) == 1
    t.check()


def test_farmer_guild_pull_below_five_scores_nothing(table):
    t = table(3)
    t.seat("farmer", [0, 1])
    t.rosary(2, 3)
    t.chickens()
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "farmer", "function": "pull"})
    t.do(2, {"type": "divide", "left": "low"})
    t.do(1, {"type": "pick", "fist": "left"})  # the 2
    assert t.p(1)["vp"] == 0 and t.state["stack"][-1]["kind"] == "turn"


def test_farmer_guild_push_moves_five_goods_scores_rows_and_splits_purse(table):
    t = table(3)
    t.seat("farmer", [0, 1])
    empty_barn(t, wood=3, iron=3, food=4)
    set_market(t, iron=2, wood=3, food=3)
    t.state["purse"] = 5
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "farmer", "function": "push"})
    for good in ("iron", "iron", "wood"):
        assert {"type": "move_good", "good": good} in t.moves(0)
        t.do(0, {"type": "move_good", "good": good})
    t.do(0, {"type": "move_good", "good": "food"})  # no room left for any barn good: ends at 4
    assert t.state["market"] == {"food": 4, "wood": 4, "iron": 4, "sulfur": 3, "saltpeter": 3}
    assert t.p(0)["vp"] == 6  # 3 rows completed
    assert t.p(0)["shillings"] == 7 + 3 and t.p(1)["shillings"] == 7 + 2
    assert t.state["purse"] == 0
    t.check()


def test_farmer_guild_push_purse_half_stays_without_journeyman(table):
    t = table(3)
    t.seat("farmer", [0])
    empty_barn(t)
    t.state["purse"] = 5
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "farmer", "function": "push"})
    assert t.p(0)["shillings"] == 10 and t.state["purse"] == 2


# -- Merchant ----------------------------------------------------------------------------------


def test_merchant_guild_trade_buys_from_rightmost_bin_and_pays_shares(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "merchant", "function": "trade"})
    t.do(2, {"type": "buy", "good": "saltpeter"})  # 3 in the row: bin 3 costs 2
    t.do(2, {"type": "buy", "good": "food"})  # 4 in the row: bin 4 costs 1
    t.do(2, {"type": "done"})
    assert t.p(2)["shillings"] == 7 - 3
    assert t.p(0)["shillings"] == 8 and t.p(1)["shillings"] == 8
    assert t.state["coffer"] == 1  # Merchant charity goes to the church coffer
    assert t.state["market"]["saltpeter"] == 2 and t.state["market"]["food"] == 3
    t.check()


def test_merchant_guild_trade_at_most_three_goods(table):
    t = table(3)
    t.p(2)["shillings"] = 30
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "merchant", "function": "trade"})
    for _ in range(3):
        t.do(2, {"type": "buy", "good": "food"})
    assert t.state["stack"][-1]["kind"] == "turn"
    assert t.state["market"]["food"] == 1


def test_merchant_guild_pull_moves_three_and_rewards_a_completed_row(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    empty_barn(t, wood=1, saltpeter=1, food=3)
    set_market(t, wood=3)
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "merchant", "function": "pull"})
    t.do(1, {"type": "move_good", "good": "wood"})
    t.do(1, {"type": "move_good", "good": "saltpeter"})
    assert {"type": "move_good", "good": "food"} not in t.moves(1)  # no room in the food row
    assert t.top()["kind"] == "writ_keep"  # nothing else can move: the pull ends
    assert t.p(1)["vp"] == 3


def test_merchant_guild_push_moves_four_to_alchemist_and_scores_carts(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "merchant", "function": "push"})
    for good in ("food", "food", "sulfur", "sulfur"):
        t.do(0, {"type": "move_good", "good": good})
    assert t.state["alchemist"]["food"] == 3 and t.state["alchemist"]["sulfur"] == 3
    assert t.state["market"]["food"] == 2 and t.state["market"]["sulfur"] == 1
    assert t.p(0)["vp"] == 5  # 2 carts/piles completed
    t.check()


# -- Alchemist ---------------------------------------------------------------------------------


def test_alchemist_guild_trade_buys_a_vessel_for_three(table):
    t = table(3)
    t.seat("alchemist", [0])
    kind = next(k for k, n in t.state["vessel_space"].items() if n)
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "alchemist", "function": "trade"})
    t.do(2, {"type": "buy_vessel", "vessel": kind})
    assert t.p(2)["vessels"][kind] == 1 and t.p(2)["shillings"] == 4
    assert t.p(0)["shillings"] == 8 and t.state["coffer"] == 1  # journeyman share: supply
    t.check()


def test_alchemist_guild_pull_moves_two_and_rewards_a_completed_cart(table):
    t = table(3)
    t.seat("alchemist", [0, 1])
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "alchemist", "function": "pull"})
    t.do(1, {"type": "move_good", "good": "food"})
    t.do(1, {"type": "move_good", "good": "food"})
    assert t.state["alchemist"]["food"] == 3 and t.p(1)["vp"] == 3
    assert t.top()["kind"] == "writ_keep"


def test_alchemist_guild_push_inventions_and_krud_barrel_fill_knight_rows(table):
    t = table(3)
    t.seat("alchemist", [0, 1])
    ships = t.state["vessel_space"]["ship"]
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "alchemist", "function": "push"})
    t.do(0, {"type": "invent", "what": "ship"})
    t.do(0, {"type": "invent", "what": "barrel"})  # 1st barrel: 2 saltpeter + 1 sulfur
    # no food and no sulfur left: nothing more can be invented, the push ends
    assert t.state["vessel_space"]["ship"] == ships + 1
    assert [r["sections"] for r in t.state["knight_rows"]] == [[1, 2, 0]] * 4
    assert t.state["alchemist"] == {"food": 0, "wood": 1, "iron": 3, "sulfur": 0, "saltpeter": 1}
    assert t.p(0)["vp"] == 5
    t.check()


def test_alchemist_guild_push_barrels_get_cheaper(table):
    t = table(3)
    t.seat("alchemist", [0, 1])
    set_alchemist(t, saltpeter=3, sulfur=2, wood=1, food=0, iron=0)
    for r in t.state["knight_rows"]:
        t.state["marker_supply"][str(r["colour"])] += sum(r["sections"])
        r["sections"] = [0, 0, 0]
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "alchemist", "function": "push"})
    for _ in range(3):
        t.do(0, {"type": "invent", "what": "barrel"})
    assert t.state["alchemist"] == {g: 0 for g in GOODS}
    assert [r["sections"] for r in t.state["knight_rows"]] == [[1, 2, 3]] * 4
    assert t.p(0)["vp"] == 6
    t.check()


# -- Knight ------------------------------------------------------------------------------------


def test_knight_guild_trade_takes_all_markers_of_own_row(table):
    t = table(3)
    t.seat("knight", [0, 1])
    markers = t.p(2)["markers"]
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "knight", "function": "trade"})
    row = next(r for r in t.state["knight_rows"] if r["colour"] == 2)
    assert row["sections"] == [0, 0, 0] and t.p(2)["markers"] == markers + 2
    assert t.state["purse"] == 1  # Knight charity goes to the farmer's purse
    t.check()


def test_knight_guild_pull_invents_one_with_first_barrel_cost(table):
    t = table(3)
    t.seat("knight", [0, 1])
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "knight", "function": "pull"})
    assert {"type": "invent", "what": "barrel"} in t.moves(1)
    t.do(1, {"type": "invent", "what": "barrel"})
    assert t.state["alchemist"]["saltpeter"] == 1 and t.state["alchemist"]["sulfur"] == 0
    assert t.p(1)["vp"] == 3 and t.top()["kind"] == "writ_keep"
    t.check()


def test_knight_guild_push_markers_become_seals_scoring_rows_or_columns(table):
    t = table(3)
    t.seat("knight", [0, 1])
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "knight", "function": "push"})
    t.do(0, {"type": "seal", "row": 1, "scroll": 0})
    assert not any(m.get("row") == 1 for m in t.moves(0))  # colours must differ
    t.do(0, {"type": "seal", "row": 3, "scroll": 4})  # the neutral dummy row
    # S1 completes row 1 and column 1, S5 row 2 and column 2: 2 rows or 2 columns
    assert all(x is not None for x in t.state["scrolls"])
    assert t.p(0)["vp"] == 5
    assert t.state["knight_rows"][1]["sections"] == [1, 0, 0]
    t.check()


# -- Noble -------------------------------------------------------------------------------------


def test_noble_guild_trade_one_or_two_seals_for_three_or_six(table):
    t = table(3)
    t.seat("noble", [0, 1])
    supply = len(t.state["seal_supply"])
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "noble", "function": "trade"})
    assert t.moves(2) == [{"type": "buy_seals", "count": 1}, {"type": "buy_seals", "count": 2}]
    t.do(2, {"type": "buy_seals", "count": 2})
    assert len(t.p(2)["seals"]) == 2 and t.p(2)["shillings"] == 1
    assert len(t.state["seal_supply"]) == supply - 2
    assert t.p(0)["shillings"] == 9 and t.p(1)["shillings"] == 9 and t.state["purse"] == 2
    t.check()


def test_noble_guild_pull_two_colours_to_seals_and_reward(table):
    t = table(3)
    t.seat("noble", [0, 1])
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "noble", "function": "pull"})
    assert {"type": "done"} not in t.moves(1)
    t.do(1, {"type": "seal", "row": 0, "scroll": 0})
    t.do(1, {"type": "seal", "row": 2, "scroll": 4})
    assert t.p(1)["vp"] == 3 and t.top()["kind"] == "writ_keep"
    t.check()


def test_noble_guild_push_flips_two_seals_and_scores_rosary_sum(table):
    t = table(3)
    t.seat("noble", [0, 1])
    t.rosary(5, 5)
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "noble", "function": "push"})
    t.do(0, {"type": "flip", "scroll": 1})
    t.do(0, {"type": "flip", "scroll": 2})
    total = sum(t.state["tokens"][b] for b in t.state["rosary"])
    assert len(t.state["rosary"]) == 4 and 14 <= total <= 20
    assert t.p(0)["vp"] == (6 if total >= 17 else 5)
    t.check()


# -- Monk --------------------------------------------------------------------------------------


def test_monk_guild_trade_pay_three_keep_the_chosen_bead(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(2, 4, 5)
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "monk", "function": "trade"})
    assert t.top()["kind"] == "fist_divide" and t.top()["seat"] == 0
    t.do(0, {"type": "divide", "left": "low"})
    t.do(2, {"type": "pick", "fist": "right"})
    assert [t.state["tokens"][b] for b in t.p(2)["beads"]] == [5]
    assert sorted(t.state["tokens"][b] for b in t.state["rosary"]) == [2, 4]
    assert t.p(2)["shillings"] == 4 and t.state["purse"] == 1
    t.check()


def test_monk_guild_pull_flips_one_seal_reward_at_eleven(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(5, 4)
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "monk", "function": "pull"})
    t.do(1, {"type": "flip", "scroll": 3})
    assert len(t.state["rosary"]) == 3 and t.state["scrolls"][3] is None
    assert t.p(1)["vp"] == 3 and t.top()["kind"] == "writ_keep"


def test_monk_guild_push_alms_score_chicken_sum_and_split_coffer(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.chickens(2, 2)
    t.rosary(2, 5)
    t.state["coffer"] = 3
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "monk", "function": "push"})
    t.do(1, {"type": "divide", "left": "high"})
    t.do(0, {"type": "pick", "fist": "left"})
    assert sorted(t.state["tokens"][c] for c in t.state["chickens"] if c is not None) == [2, 2, 5]
    assert t.p(0)["vp"] == 6  # chicken sum 9
    assert t.p(0)["shillings"] == 9 and t.p(1)["shillings"] == 8 and t.state["coffer"] == 0
    t.check()


def test_monk_guild_push_impossible_when_all_chickens_are_full(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.chickens(2, 2, 2, 2)
    t.turn(0)
    assert {"type": "guild", "guild": "monk", "function": "push"} not in t.moves(0)


# -- trading procedure and seats ---------------------------------------------------------------


def test_trading_procedure_member_pays_himself_but_needs_the_whole_price(table):
    t = table(3)
    t.seat("merchant", [0, 1])
    t.p(1)["shillings"] = 5
    t.turn(1)
    t.do(1, {"type": "guild", "guild": "merchant", "function": "trade"})
    t.do(1, {"type": "buy", "good": "saltpeter"})  # 2
    t.do(1, {"type": "buy", "good": "sulfur"})  # 2 (bin 2 of the row now)
    # 4 paid: master, himself, coffer, master
    assert t.p(0)["shillings"] == 9 and t.p(1)["shillings"] == 5 - 4 + 1
    assert t.state["coffer"] == 1


def test_trading_procedure_absent_seats_pay_the_general_supply(table):
    t = table(3)
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "knight", "function": "trade"})
    assert t.p(2)["shillings"] == 4 and t.state["purse"] == 1
    assert [t.p(s)["shillings"] for s in (0, 1)] == [7, 7]


def test_pull_and_push_need_the_seat(table):
    t = table(3)
    t.seat("farmer", [0, 1])
    t.turn(2)
    moves = t.moves(2)
    assert {"type": "guild", "guild": "farmer", "function": "push"} not in moves
    assert {"type": "guild", "guild": "farmer", "function": "pull"} not in moves
    reason = t.illegal(2, {"type": "guild", "guild": "farmer", "function": "push"})
    assert "not allowed" in reason


def test_monk_guild_push_church_coffer_half_stays_without_journeyman(table):
    """Fragment: with no journeyman, that portion remains in the church coffer."""
    t = table(3)
    t.seat("monk", [0])
    t.rosary(3)
    t.state["coffer"] = 5
    shillings = t.p(0)["shillings"]
    t.turn(0)
    t.do(0, {"type": "guild", "guild": "monk", "function": "push"})  # 1 bead: no fists
    assert t.p(0)["shillings"] == shillings + 3 and t.state["coffer"] == 2
    t.check()


def test_trading_procedure_charity_share_goes_to_the_opposite_side_for_every_guild(table):
    """A5/A-21: 1 to the master, 1 to the journeyman, 1 to charity -- church coffer for the
    Merchant and Alchemist, farmer's purse for the Knight, Noble and Monk."""
    expected = {"merchant": "coffer", "alchemist": "coffer", "knight": "purse",
                "noble": "purse", "monk": "purse"}
    for guild, box in expected.items():
        t = table(3)
        t.seat(guild, [0, 1])
        t.p(2)["shillings"] = 20
        t.turn(2)
        t.do(2, {"type": "guild", "guild": guild, "function": "trade"})
        while t.top()["seat"] == 2 and t.top()["kind"] in ("buy_goods", "buy_vessel",
                                                            "buy_seals"):
            t.do(2, next(m for m in t.moves(2) if m["type"] != "done"))
        paid = 20 - t.p(2)["shillings"]
        assert paid >= 3, guild
        assert t.state[box] == paid // 3 and t.state["purse" if box == "coffer" else "coffer"] == 0
        assert t.p(0)["shillings"] - 7 == (paid + 2) // 3, guild  # master: 1st, 4th, ...
        assert t.p(1)["shillings"] - 7 == (paid + 1) // 3, guild  # journeyman: 2nd, 5th, ...
