"""Rule tests: Worker placement at every board location."""

from __future__ import annotations

import pytest

from games.protocol import IllegalMove


def test_location_quarry_one_plus_one_per_worker(table):
    table.place(0, "quarry")
    assert table.player(0)["stone"] == 2
    table.place(0, "quarry")
    assert table.player(0)["stone"] == 2 + 3


def test_location_quarry_opponents_workers_do_not_count(table):
    table.place(1, "quarry")
    table.place(0, "quarry")
    assert table.player(0)["stone"] == 2


def test_location_forest_one_per_worker(table):
    table.place(0, "forest")
    table.place(0, "forest")
    assert table.player(0)["wood"] == 1 + 2


def test_location_silversmith_one_plus_one_per_worker(table):
    table.give(0, silver=0)
    table.place(0, "silversmith")
    assert table.player(0)["silver"] == 2


def test_location_mines_clay_or_gold(table):
    table.turn_to(0)
    assert {"type": "place", "location": "mines", "take": "gold"} not in table.moves(0)
    table.place(0, "mines", take="clay")
    assert table.player(0)["clay"] == 2
    table.place(0, "mines", take="gold")
    assert table.player(0)["gold"] == 1 and table.player(0)["clay"] == 2


def test_location_storehouse_one_action_per_worker(table):
    table.give(0, clay=4, wood=6, stone=0)
    table.place(0, "storehouse")
    table.play(0, {"type": "trade", "trade": "virtue", "pay": {"clay": 2}})
    assert table.player(0)["virtue"] == 8
    assert table.state["pending"] is None  # one Worker: one action
    table.place(0, "storehouse")
    table.play(0, {"type": "trade", "trade": "marble", "pay": {"wood": 3}})
    table.play(0, {"type": "trade", "trade": "marble", "pay": {"wood": 3}})
    assert table.player(0)["marble"] == 2 and table.player(0)["wood"] == 0


def test_location_workshop_hire_costs_four_with_two_tax(table):
    table.give(0, silver=10)
    tax = table.state["tax"]
    table.place(0, "workshop")
    hires = [m for m in table.moves(0) if m["type"] == "hire"]
    assert {m["col"] for m in hires} <= {0, 1, 2, 3}
    card = table.state["workshop"][0][0]
    table.play(0, {"type": "hire", "row": 0, "col": 0})
    assert card in table.player(0)["apprentices"]
    assert table.state["tax"] == tax + 2
    assert table.player(0)["silver"] <= 6


def test_location_workshop_skip_with_silver(table):
    table.give(0, silver=10)
    table.place(0, "workshop")
    row = list(table.state["workshop"][1])
    table.play(0, {"type": "hire", "row": 1, "col": 2})
    assert table.player(0)["silver"] == 10 - 4 - 2
    assert table.state["workshop_silver"][1][:2] == [1, 1]
    assert table.state["workshop"][1][:2] == row[:2]


def test_location_workshop_silver_on_card_goes_to_hirer(table):
    table.give(0, silver=10)
    table.state["workshop_silver"][0][0] = 3
    table.place(0, "workshop")
    table.play(0, {"type": "hire", "row": 0, "col": 0})
    assert table.player(0)["silver"] == 10 - 4 + 3


def test_location_workshop_building_plans(table):
    hand = len(table.player(0)["hand"])
    table.place(0, "workshop")
    table.play(0, {"type": "plans"})
    assert len(table.player(0)["hand"]) == hand + 1
    table.place(0, "workshop")
    table.play(0, {"type": "plans"})
    assert len(table.player(0)["hand"]) == hand + 1 + 2


def test_location_workshop_hand_limit_six(table):
    table.player(0)["hand"] = table.state["deck"][:6]
    del table.state["deck"][:6]
    table.place(0, "workshop")
    table.play(0, {"type": "plans"})
    assert table.state["pending"] == {"kind": "hand_limit"}
    table.play(0, {"type": "discard", "card": table.player(0)["hand"][0]})
    assert len(table.player(0)["hand"]) == 6 and table.state["current"] == 1


def test_location_town_centre_capture_first_is_tax(table):
    table.place(1, "forest")
    table.place(1, "forest")
    table.give(0, silver=5)
    tax = table.state["tax"]
    table.place(0, "town_centre")
    table.play(0, {"type": "capture", "location": "forest", "player": 1})
    assert table.player(0)["captured"][1] == 2
    assert table.state["board"]["forest"][1] == 0
    assert table.state["tax"] == tax + 1 and table.player(0)["silver"] == 4


def test_location_town_centre_own_workers_return(table):
    table.place(0, "quarry")
    table.give(0, silver=5)
    table.place(0, "town_centre")
    workers = table.player(0)["workers"]
    table.play(0, {"type": "capture", "location": "quarry", "player": 0})
    assert table.player(0)["workers"] == workers + 1


def test_location_town_centre_one_location_with_four_players(make_table):
    t = make_table(4)
    t.place(1, "forest")
    t.place(2, "quarry")
    t.place(0, "town_centre")
    t.place(0, "town_centre")
    t.give(0, silver=5)
    t.place(0, "town_centre")
    t.play(0, {"type": "capture", "location": "forest", "player": 1})
    locs = {m.get("location") for m in t.moves(0) if m["type"] == "capture"}
    assert locs == {"forest"} or locs == set()


def test_location_town_centre_two_locations_with_two_players(table):
    table.place(1, "forest")
    table.place(1, "quarry")
    table.place(1, "mines", take="clay")
    table.place(0, "town_centre")
    table.place(0, "town_centre")
    table.give(0, silver=5)
    table.place(0, "town_centre")
    table.play(0, {"type": "capture", "location": "forest", "player": 1})
    table.play(0, {"type": "capture", "location": "quarry", "player": 1})
    locs = {m.get("location") for m in table.moves(0) if m["type"] == "capture"}
    assert "mines" not in locs
    assert table.player(0)["captured"][1] == 2


def test_location_tax_stand_take_all_lose_two_virtue(table):
    table.state["tax"] = 6
    table.give(0, silver=0)
    table.place(0, "tax_stand")
    assert table.player(0)["silver"] == 6 and table.state["tax"] == 0
    assert table.player(0)["virtue"] == 5


def test_location_tax_stand_not_when_empty(table):
    table.state["tax"] = 0
    table.turn_to(0)
    with pytest.raises(IllegalMove):
        table.play(0, {"type": "place", "location": "tax_stand"})


@pytest.mark.parametrize("space,price", [(0, 1), (2, 3)])
def test_location_black_market_resource_spaces(table, space, price):
    from games.architects import black_market
    table.give(0, silver=5, marble=0, gold=0, wood=0, stone=0)
    offer = black_market.offer(table.state, space)
    table.place(0, "black_market", space=space)
    assert table.player(0)["silver"] == 5 - price
    assert table.player(0)["virtue"] == 6
    assert all(table.player(0)[k] == v for k, v in offer.items())


def test_location_black_market_space_b_draw_five_keep_one(table):
    table.give(0, silver=5)
    hand = len(table.player(0)["hand"])
    table.place(0, "black_market", space=1)
    table.play(0, {"type": "plans"})
    cards = table.state["pending"]["cards"]
    assert len(cards) == 5
    table.play(0, {"type": "keep", "card": cards[2]})
    assert len(table.player(0)["hand"]) == hand + 1 and cards[2] in table.player(0)["hand"]
    assert table.state["deck"][-4:] == [c for c in cards if c != cards[2]]


def test_location_black_market_space_b_hire_any(table):
    table.give(0, silver=5)
    table.place(0, "black_market", space=1)
    card = table.state["workshop"][1][3]
    table.play(0, {"type": "hire", "row": 1, "col": 3})
    assert card in table.player(0)["apprentices"] and table.player(0)["silver"] == 3


def test_location_black_market_one_worker_per_space(table):
    table.give(0, silver=5)
    table.give(1, silver=5)
    table.place(0, "black_market", space=0)
    table.turn_to(1)
    with pytest.raises(IllegalMove):
        table.play(1, {"type": "place", "location": "black_market", "space": 0})


def test_location_black_market_banned_at_virtue_ten(table):
    table.give(0, virtue=10, silver=5)
    table.turn_to(0)
    assert not [m for m in table.moves(0) if m.get("location") == "black_market"]


def test_location_guardhouse_send_captured_to_prison(table):
    table.player(0)["captured"][1] = 3
    table.player(1)["workers"] -= 3
    table.give(0, silver=0)
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "send"})
    assert table.state["prison"][1] == 3 and table.player(0)["silver"] == 3


def test_location_guardhouse_release_from_prison(table):
    table.state["prison"][0] = 2
    table.player(0)["workers"] -= 2
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "release_prison"})
    assert table.state["prison"][0] == 0 and table.player(0)["workers"] == 19


def test_location_guardhouse_release_from_boards_by_silver_or_debt(table):
    table.player(1)["captured"][0] = 2
    table.player(0)["workers"] -= 2
    table.give(0, silver=5)
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "release_boards", "by": "silver"})
    assert table.player(0)["silver"] == 0 and table.player(1)["captured"][0] == 0
    table.player(1)["captured"][0] = 1
    table.player(0)["workers"] -= 1
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "release_boards", "by": "debt"})
    assert table.player(0)["debts"] == 1 and table.player(0)["virtue"] == 6


def test_location_guardhouse_pay_debts_any_order(table):
    table.give(0, debts=2, silver=12)
    table.place(0, "guardhouse")
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "pay_debt"})
    table.play(0, {"type": "guard", "action": "pay_debt"})
    pl = table.player(0)
    assert pl["debts"] == 0 and pl["paid_debts"] == 2 and pl["virtue"] == 9 and pl["silver"] == 0


def test_location_guildhall_construct_building(table):
    table.player(0)["hand"].append(table.state["deck"].pop(table.state["deck"].index(11)))
    table.give(0, wood=2, stone=2)
    table.place(0, "guildhall")
    table.play(0, {"type": "build", "card": 11, "pay": {"stone": 2, "wood": 2}})
    assert 11 in table.player(0)["buildings"] and table.player(0)["clay"] == 4
    assert table.state["guildhall"] == [0]


def test_location_guildhall_not_offered_without_anything_to_build(table):
    table.player(0)["hand"] = []
    table.turn_to(0)
    assert {"type": "place", "location": "guildhall"} not in table.moves(0)


def test_rule_no_workers_turn_is_a_recall(table):
    pl = table.player(0)
    table.state["board"]["forest"][0] = pl["workers"]
    pl["workers"] = 0
    table.turn_to(0)
    from games.architects import turn
    turn.start_turn(table.state)
    assert table.moves(0) == [{"type": "recall", "location": "forest"}]
    table.play(0, {"type": "recall", "location": "forest"})
    assert pl["workers"] == 1 and table.state["current"] == 1


def test_rule_illegal_move_leaves_state_unchanged(table):
    import copy
    table.turn_to(0)
    before = copy.deepcopy(table.state)
    for bad in ({"type": "place", "location": "moon"}, {"type": 3}, "x", {"location": "quarry"}):
        with pytest.raises(IllegalMove):
            table.play(0, bad)
    with pytest.raises(IllegalMove):
        table.play(1, {"type": "place", "location": "quarry"})
    assert table.state == before


def test_rule_no_workers_recall_never_from_prison_when_board_has_one(table):
    pl = table.player(0)
    table.state["prison"][0] = pl["workers"] - 1
    table.state["board"]["quarry"][0] = 1
    pl["workers"] = 0
    table.turn_to(0)
    from games.architects import turn
    turn.start_turn(table.state)
    assert table.moves(0) == [{"type": "recall", "location": "quarry"}]


def test_rule_no_workers_recall_never_from_prison_boards_or_black_market(table):
    """Rulebook: the Worker cannot come from the Guildhall, Black Market, Prison or an
    opposing board; with none at a large location the turn is spent doing nothing."""
    pl = table.player(0)
    table.state["prison"][0] = 15
    table.player(1)["captured"][0] = 2
    table.state["black_market"][0] = 0
    table.state["guildhall"].append(0)
    table.state["guildhall"].append(0)
    pl["workers"] = 0
    table.turn_to(0)
    from games.architects import turn
    turn.start_turn(table.state)
    assert table.moves(0) == [{"type": "pass"}]
    for bad in ({"type": "recall", "location": "prison"},
                {"type": "recall", "location": "board", "player": 1},
                {"type": "recall", "location": "black_market", "space": 0}):
        with pytest.raises(IllegalMove):
            table.play(0, bad)
    table.play(0, {"type": "pass"})
    assert pl["workers"] == 0 and table.state["prison"][0] == 15
    assert table.player(1)["captured"][0] == 2 and table.state["black_market"][0] == 0
    assert table.state["current"] == 1


def test_rule_legal_moves_for_odd_seats_is_empty_and_apply_refuses():
    import copy

    from games.architects import GAME
    from games.rng import RecordingRandom
    s = GAME.setup(["A", "B"], {}, RecordingRandom(2))
    before = copy.deepcopy(s)
    for seat in (None, "0", -1, 2, 7, True, 1.5):
        assert GAME.legal_moves(s, seat) == []
        with pytest.raises(IllegalMove):
            GAME.apply(s, seat, {"type": "draft", "card": s["draft"]["pools"][0][0]},
                       RecordingRandom(1))
    assert s == before


def test_location_workshop_first_worker_reaches_left_column_only(table):
    table.give(0, silver=4)
    table.place(0, "workshop")
    hires = [m for m in table.moves(0) if m["type"] == "hire"]
    assert {(m["row"], m["col"]) for m in hires} == {(0, 0), (1, 0)}


def test_location_workshop_fourth_worker_reaches_any_column(table):
    table.state["board"]["workshop"][0] = 3
    table.player(0)["workers"] -= 3
    table.give(0, silver=4)
    table.place(0, "workshop")
    hires = [m for m in table.moves(0) if m["type"] == "hire"]
    assert {m["col"] for m in hires} == {0, 1, 2, 3}


def test_location_workshop_skip_needs_the_silver(table):
    table.give(0, silver=5)  # 4 to hire + 1 skip: column 2 yes, column 3 no
    table.place(0, "workshop")
    cols = {m["col"] for m in table.moves(0) if m["type"] == "hire"}
    assert cols == {0, 1}


def test_location_guardhouse_release_boards_needs_a_captured_worker(table):
    table.give(0, silver=10)
    table.place(0, "guardhouse")
    assert not [m for m in table.moves(0) if m.get("action") == "release_boards"]


def test_location_guardhouse_costs_with_tax_relief(table):
    table.give(0, debts=1, silver=4, virtue=1)  # 2 Tax ignored: 6 Silver (3 Tax) -> 4
    tax = table.state["tax"]
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "pay_debt"})
    assert table.player(0)["silver"] == 0 and table.state["tax"] == tax + 1
    assert table.player(0)["paid_debts"] == 1 and table.player(0)["virtue"] == 2


def test_location_town_centre_capture_from_town_centre_itself(table):
    table.place(1, "town_centre")
    table.give(0, silver=1)
    table.place(0, "town_centre")
    targets = {(m["location"], m["player"]) for m in table.moves(0) if m["type"] == "capture"}
    assert ("town_centre", 1) in targets and ("town_centre", 0) in targets


def test_location_town_centre_never_from_guildhall_black_market_or_prison(table):
    table.state["guildhall"] = [1]
    table.state["black_market"] = [1, None, None]
    table.state["prison"][1] = 2
    table.player(1)["workers"] -= 4
    table.give(0, silver=3)
    table.place(0, "town_centre")
    assert [m for m in table.moves(0) if m["type"] == "capture"] == [
        {"type": "capture", "location": "town_centre", "player": 0}]


def test_location_black_market_space_b_at_apprentice_limit_discards(table):
    table.player(0)["apprentices"] = [13, 14, 15, 16, 17]
    table.give(0, silver=2)
    table.place(0, "black_market", space=1)
    hires = [m for m in table.moves(0) if m["type"] == "hire"]
    assert hires and all("discard" in m for m in hires)
    assert {(m["row"], m["col"]) for m in hires} == {(r, c) for r in range(2) for c in range(4)}


def test_rule_final_round_guildhall_workers_go_to_the_side(table):
    table.state["guildhall"] = [1] * 12
    table.player(1)["workers"] -= 12
    table.state["final_turns"] = 2
    table.give(0, gold=1)
    table.place(0, "guildhall")
    table.play(0, {"type": "cathedral", "pay": {"gold": 1}})
    table.play(0, {"type": "discard", "card": table.player(0)["hand"][0]})
    assert table.state["guildhall_side"] == [0] and len(table.state["guildhall"]) == 12
    assert table.player(0)["cathedral"] == 1
