"""Rule tests: the Virtue track icons, Cathedral, Black Market Reset, end and scoring."""

from __future__ import annotations

from games.architects import black_market, cathedral, scoring, virtue
from games.architects.guildhall import cull_spaces, reset_spaces, size


# -- Virtue track ---------------------------------------------------------------------------
def test_virtue_track_above_14_destroys_debts(table):
    table.give(0, virtue=14, debts=2)
    virtue.change(table.state, 0, 1)
    assert table.player(0)["virtue"] == 14 and table.player(0)["debts"] == 1
    assert table.player(0)["paid_debts"] == 0


def test_virtue_track_below_0_takes_debts(table):
    table.give(0, virtue=1)
    virtue.change(table.state, 0, -3)
    assert table.player(0)["virtue"] == 0 and table.player(0)["debts"] == 2


def test_virtue_track_tax_avoidance_at_3_or_less(table):
    table.give(0, virtue=3, silver=10)
    tax = table.state["tax"]
    table.place(0, "workshop")
    table.play(0, {"type": "hire", "row": 0, "col": 0})
    assert table.state["tax"] == tax + 1
    assert virtue.tax_relief(1) == 2 and virtue.tax_relief(4) == 0


def test_virtue_track_black_market_ban_at_10(table):
    assert not virtue.may_use_black_market(10) and virtue.may_use_black_market(9)


def test_virtue_track_cathedral_ban_at_4(table):
    table.give(0, virtue=4, gold=1)
    assert cathedral.payment_options(table.state, 0) == []
    table.give(0, virtue=5)
    assert cathedral.payment_options(table.state, 0) == [{"gold": 1}]


def test_virtue_track_end_vp():
    assert virtue.end_vp(0) == -9 and virtue.end_vp(7) == 0 and virtue.end_vp(14) == 7


# -- Cathedral ------------------------------------------------------------------------------
def test_cathedral_advance_discard_and_reward(table):
    table.give(0, gold=1)
    reward = table.state["rewards"][0]
    card = table.player(0)["hand"][0]
    table.place(0, "guildhall")
    table.play(0, {"type": "cathedral", "pay": {"gold": 1}})
    table.play(0, {"type": "discard", "card": card})
    assert table.player(0)["cathedral"] == 1 and table.state["deck"][-1] == card
    assert table.state["rewards_used"] == [reward]


def test_cathedral_level_cost_mix_and_spaces(table):
    table.give(0, stone=1, wood=3)
    table.player(0)["cathedral"] = 1
    assert cathedral.payment_options(table.state, 0) == [{"stone": 1, "wood": 3}]
    table.player(1)["cathedral"] = 3
    table.player(0)["cathedral"] = 2
    table.give(0, marble=1)
    assert cathedral.payment_options(table.state, 0)
    assert cathedral.vp(5) == 20 and cathedral.vp(0) == 0


def test_cathedral_no_reward_left_gives_virtue(table):
    table.state["rewards_box"] += table.state["rewards"]
    table.state["rewards"] = []
    cathedral.reward(table.state, 0)
    assert table.player(0)["virtue"] == 8


# -- Black Market Reset ---------------------------------------------------------------------
def test_reset_trigger_third_black_market_worker(table):
    for p in (0, 1):
        table.give(p, silver=10, virtue=7)
    table.place(0, "black_market", space=0)
    table.place(1, "black_market", space=2)
    assert table.state["resets"] == 0
    table.place(0, "black_market", space=1)
    table.play(0, {"type": "plans"})
    table.play(0, {"type": "keep", "card": table.state["pending"]["cards"][0]})
    assert table.state["resets"] == 1
    assert table.state["black_market"] == [None, None, None]
    assert table.state["prison"] == [2, 1]


def test_reset_trigger_guildhall_rows_3_and_4():
    assert reset_spaces(2) == {7, 10} and reset_spaces(4) == {11, 16}
    assert cull_spaces(2) == {3, 6, 9}
    assert [size(n) for n in (1, 2, 3, 4, 5)] == [12, 12, 16, 20, 24]


def test_reset_trigger_guildhall_space(table):
    table.state["guildhall"] = [1] * 6
    table.player(1)["workers"] -= 6
    table.give(0, gold=1)
    table.place(0, "guildhall")
    table.play(0, {"type": "cathedral", "pay": {"gold": 1}})
    assert table.state["resets"] == 0  # resolves after the construction
    table.play(0, {"type": "discard", "card": table.player(0)["hand"][0]})
    assert table.state["resets"] == 1


def test_reset_steps_market_card_prison_virtue_and_debt(table):
    small = table.state["bm_small"][0]
    table.state["prison"] = [3, 1]
    table.player(0)["workers"] -= 3
    table.player(1)["workers"] -= 1
    black_market.reset(table.state, None)
    assert table.state["bm_large"][0] == small
    assert table.player(0)["virtue"] == 6 and table.player(0)["debts"] == 1
    assert table.player(1)["virtue"] == 7 and table.player(1)["debts"] == 0


def test_reset_reshuffles_large_market_when_small_is_empty(table):
    from games.rng import RecordingRandom
    table.state["bm_large"] = table.state["bm_small"]
    table.state["bm_small"] = []
    black_market.reset(table.state, RecordingRandom(3))
    assert len(table.state["bm_small"]) == 9 and len(table.state["bm_large"]) == 1


def test_guildhall_cull_discards_left_column(table):
    left = [table.state["workshop"][r][0] for r in range(2)]
    table.state["guildhall"] = [1, 1]
    table.player(1)["workers"] -= 2
    table.give(0, gold=1)
    table.place(0, "guildhall")
    assert all(c not in [x for row in table.state["workshop"] for x in row] for c in left)


# -- End of game and scoring ----------------------------------------------------------------
def test_end_of_game_final_round_after_guildhall_fills(table):
    table.state["guildhall"] = [1] * 11
    table.player(1)["workers"] -= 11
    table.give(0, gold=1)
    table.place(0, "guildhall")
    table.play(0, {"type": "cathedral", "pay": {"gold": 1}})
    table.play(0, {"type": "discard", "card": table.player(0)["hand"][0]})
    assert table.state["final_turns"] == 2 and table.state["current"] == 1
    table.play(1, {"type": "place", "location": "forest"})
    assert table.state["current"] == 0 and table.state["phase"] == "play"
    table.play(0, {"type": "place", "location": "forest"})
    assert table.state["phase"] == "over"


def test_scoring_lines(table):
    pl = table.player(0)
    pl.update(buildings=[11], cathedral=2, virtue=12, debts=2, gold=2, marble=1, silver=25)
    table.state["prison"][0] = 3
    lines = scoring.lines(table.state, 0)
    assert lines == {"buildings": 3, "cathedral": 4, "virtue": 3, "debts": -4,
                     "gold_marble": 3, "silver": 2, "prison": -1}


def test_scoring_tie_break_virtue_then_silver(table):
    for p in (0, 1):
        table.player(p).update(virtue=7, silver=5, gold=0, marble=0, debts=0)
    table.player(1)["silver"] = 4
    result = scoring.final(table.state)
    assert result["order"] == [0, 1]
    table.player(1)["silver"] = 5
    result = scoring.final(table.state)
    assert result["places"] == {"0": 1, "1": 1}


def _blank(table):
    for p in (0, 1):
        table.player(p).update(virtue=7, silver=0, gold=0, marble=0, debts=0, buildings=[],
                               cathedral=0)
        table.state["prison"][p] = 0
    return table.player(0)


def test_scoring_line_buildings_with_end_bonus(table):
    _blank(table)["buildings"] = [13, 11]  # Aqueduct 3 + 2 buildings, Well 3
    assert scoring.lines(table.state, 0)["buildings"] == 8


def test_scoring_line_cathedral(table):
    _blank(table)["cathedral"] = 4
    assert scoring.lines(table.state, 0)["cathedral"] == 12


def test_scoring_line_virtue(table):
    _blank(table)["virtue"] = 2
    assert scoring.lines(table.state, 0)["virtue"] == -7


def test_scoring_line_unpaid_debts(table):
    _blank(table)["debts"] = 3
    assert scoring.lines(table.state, 0)["debts"] == -6


def test_scoring_line_gold_and_marble(table):
    _blank(table).update(gold=2, marble=3)
    assert scoring.lines(table.state, 0)["gold_marble"] == 5


def test_scoring_line_silver_per_ten(table):
    _blank(table)["silver"] = 29
    assert scoring.lines(table.state, 0)["silver"] == 2


def test_scoring_line_prisoners_per_two(table):
    _blank(table)
    table.state["prison"][0] = 1
    assert scoring.lines(table.state, 0)["prison"] == 0
    table.state["prison"][0] = 5
    assert scoring.lines(table.state, 0)["prison"] == -2


def test_cathedral_full_level_blocks_advance(make_table):
    t = make_table(3)
    t.player(1)["cathedral"] = 5
    t.player(0)["cathedral"] = 4
    t.give(0, gold=2, marble=2)
    assert cathedral.payment_options(t.state, 0) == []  # level 5 has 1 space
    t.player(1)["cathedral"] = 3
    t.player(2)["cathedral"] = 3
    t.player(0)["cathedral"] = 2
    assert cathedral.payment_options(t.state, 0) == []  # level 3 has 2 spaces


def test_cathedral_needs_a_building_card_to_discard(table):
    table.give(0, gold=1)
    table.player(0)["hand"] = []
    assert cathedral.payment_options(table.state, 0) == []


def test_virtue_track_tax_relief_two_at_one_or_less(table):
    table.give(0, virtue=1, silver=2)
    tax = table.state["tax"]
    table.place(0, "workshop")
    table.play(0, {"type": "hire", "row": 0, "col": 0})
    assert table.player(0)["silver"] == 0 and table.state["tax"] == tax


def test_reset_step_order_squire_checks_prison_after_gatekeeper(table):
    table.player(0)["apprentices"] = [9, 26]  # Gatekeeper, Squire (Gold)
    table.state["prison"][0] = 2
    table.player(0)["workers"] -= 2
    table.give(0, gold=0)
    black_market.reset(table.state, None)
    assert table.state["prison"][0] == 0 and table.player(0)["gold"] == 1


def test_reset_most_prisoners_tie_each_take_a_debt(table):
    table.state["prison"] = [2, 2]
    for p in (0, 1):
        table.player(p)["workers"] -= 2
    black_market.reset(table.state, None)
    assert table.player(0)["debts"] == 1 and table.player(1)["debts"] == 1
    assert table.player(0)["virtue"] == 7  # fewer than 3: no Virtue lost


def test_reset_black_market_workers_go_to_prison_first(table):
    table.state["black_market"] = [0, 1, 0]
    table.player(0)["workers"] -= 2
    table.player(1)["workers"] -= 1
    black_market.reset(table.state, None)
    assert table.state["prison"] == [2, 1] and table.state["black_market"] == [None] * 3
    assert table.player(0)["debts"] == 1 and table.player(1)["debts"] == 0


def test_end_of_game_filler_not_last_in_order(make_table):
    t = make_table(3)
    order = t.state["order"]
    filler = order[1]
    t.state["guildhall"] = [order[0]] * 15
    t.player(order[0])["workers"] -= 15
    t.give(filler, gold=1)
    t.place(filler, "guildhall")
    t.play(filler, {"type": "cathedral", "pay": {"gold": 1}})
    t.play(filler, {"type": "discard", "card": t.player(filler)["hand"][0]})
    seen = []
    while t.state["phase"] == "play":
        p = t.state["current"]
        seen.append(p)
        t.play(p, {"type": "place", "location": "forest"})
    assert seen == [order[2], order[0], order[1]]


def test_scoring_end_virtue_below_zero_takes_debt_before_scoring(table):
    _blank(table).update(buildings=[24], virtue=1)  # Dungeon: lose 2 Virtue
    result = scoring.final(table.state)
    assert table.player(0)["virtue"] == 0 and table.player(0)["debts"] == 1
    assert result["lines"][0]["debts"] == -2 and result["lines"][0]["virtue"] == -9


def test_scoring_tie_break_virtue_first(table):
    _blank(table)
    table.player(1).update(virtue=8, silver=0)
    table.player(0).update(virtue=7, silver=9)
    result = scoring.final(table.state)
    assert result["totals"][0] == result["totals"][1] and result["order"] == [1, 0]
