"""Rule tests: constructing each of the 40 base Buildings and its effect."""

from __future__ import annotations

import pytest

from games.architects import buildings, cards, scoring

LABOURER = 13


def build(t, cid, p=0, **goods):
    """Give player p the card, its cost and all skills, then construct it."""
    deck = t.state["deck"]
    if cid in deck:
        deck.remove(cid)
    for pl in t.state["players"]:
        if cid in pl["hand"]:
            pl["hand"].remove(cid)
    t.player(p)["hand"].append(cid)
    cost = cards.building(cid)["cost"]
    for k, v in goods.items():
        t.player(p)[k] = v
    for k, v in cost.items():
        t.player(p)[k] += v
    if LABOURER not in t.player(p)["apprentices"]:
        t.player(p)["apprentices"].append(LABOURER)
    t.place(p, "guildhall")
    t.play(p, {"type": "build", "card": cid, "pay": {k: v for k, v in sorted(cost.items()) if v}})


def end_vp(t, cid, p=0):
    return buildings.END_VP[cid](t.state, p)


def end_virtue(t, cid, p=0):
    return buildings.END_VIRTUE[cid](t.state, p)


def test_building_skills_required(table):
    table.player(0)["hand"] = [9]
    table.give(0, clay=4, wood=2, stone=3, marble=2)
    table.player(0)["apprentices"] = []
    table.turn_to(0)
    assert {"type": "place", "location": "guildhall"} not in table.moves(0)


def test_building_cost_paid_and_virtue_flag(table):
    build(table, 5, clay=0, wood=0, stone=0, silver=0)  # Thieves' Den: -2 Virtue, 4 Silver
    pl = table.player(0)
    assert pl["clay"] == pl["wood"] == pl["stone"] == 0
    assert pl["virtue"] == 5 and pl["silver"] == 4


@pytest.mark.parametrize("cid,key,amount", [(1, "stone", 4), (5, "silver", 4), (11, "clay", 4),
                                            (25, "marble", 2), (33, "wood", 4)],
                         ids=["Smithy", "Thieves' Den", "Well", "Factory", "Lumber Camp"])
def test_building_gain_resources(table, cid, key, amount):
    table.give(0, **{key: 0})
    build(table, cid)
    assert table.player(0)[key] == amount


def test_building_steeple(table):
    build(table, 2)
    table.player(0)["cathedral"] = 2
    assert end_vp(table, 2) == 2
    table.player(1)["cathedral"] = 2
    assert end_vp(table, 2) == 0


@pytest.mark.parametrize("cid,key", [(3, "stone"), (12, "wood"), (21, "clay"), (40, "silver")],
                         ids=["Stone Market", "Wood Market", "Clay Market", "Silver Market"])
def test_building_resource_markets(table, cid, key):
    build(table, cid)
    table.give(0, **{key: 5})
    table.give(1, **{key: 4})
    assert end_vp(table, cid) == 2
    table.give(1, **{key: 5})
    assert end_vp(table, cid) == 0


def test_building_tavern_hire_free(table):
    build(table, 4, silver=0)
    assert table.state["pending"] == {"kind": "free_hire"}
    card = table.state["workshop"][1][2]
    table.play(0, {"type": "hire", "row": 1, "col": 2})
    assert card in table.player(0)["apprentices"] and table.player(0)["silver"] == 0


@pytest.mark.parametrize("cid,skill", [(6, "Tiling"), (17, "Carpentry"), (34, "Masonry")],
                         ids=["Tiler's Hut", "Carpenter's Hut", "Mason's Hut"])
def test_building_apprentice_huts(table, cid, skill):
    build(table, cid)
    table.player(0)["apprentices"] = [LABOURER, 1, 2, 3]
    assert end_vp(table, cid) == 2


def test_building_trading_post(table):
    build(table, 7)
    table.give(0, clay=3, wood=3, stone=2)
    assert end_virtue(table, 7) == 2


def test_building_treasury_gold_or_silver(table):
    build(table, 8, gold=0)
    table.play(0, {"type": "choose", "option": "gold"})
    assert table.player(0)["gold"] == 1


def test_building_university(table):
    build(table, 9)
    assert end_vp(table, 9) == 2
    table.give(0, debts=1)
    assert end_vp(table, 9) == 0


def test_building_watchtower(table):
    table.state["prison"][1] = 3
    table.player(1)["workers"] -= 3
    build(table, 10)
    assert table.player(1)["virtue"] == 6 and table.player(0)["virtue"] == 6


def test_building_aqueduct(table):
    build(table, 13)
    build(table, 11)
    assert end_vp(table, 13) == 2


def test_building_armoury_capture(table):
    table.place(1, "forest")
    build(table, 14, silver=0)
    table.play(0, {"type": "capture", "location": "forest", "player": 1})
    assert table.player(0)["captured"][1] == 1 and table.player(0)["silver"] == 0


def test_building_barracks_release(table):
    table.player(1)["captured"][0] = 2
    table.player(0)["workers"] -= 2
    build(table, 15)
    table.play(0, {"type": "choose", "option": "release"})
    assert table.player(1)["captured"][0] == 0


def test_building_betting_house(table):
    build(table, 16)
    assert table.player(0)["debts"] == 1 and table.player(0)["virtue"] == 6


def test_building_castle(table):
    build(table, 18)
    table.give(0, gold=5)
    assert end_virtue(table, 18) == 2


def test_building_chapel(table):
    build(table, 19)
    table.player(0)["cathedral"] = 1
    assert end_virtue(table, 19) == 2


def test_building_church_destroys_debt(table):
    table.give(0, debts=2)
    build(table, 20)
    assert table.player(0)["debts"] == 1 and table.player(0)["paid_debts"] == 0


def test_building_clay_pit(table):
    build(table, 22, marble=0)
    table.play(0, {"type": "choose", "option": "marble"})
    assert table.player(0)["marble"] == 1


def test_building_drafting_room(table):
    hand = len(table.player(0)["hand"])
    build(table, 23)
    assert len(table.player(0)["hand"]) == hand + 2


def test_building_dungeon(table):
    build(table, 24)
    assert end_virtue(table, 24) == -2


def test_building_fortress_two_captures(table):
    table.place(1, "forest")
    table.place(1, "quarry")
    build(table, 26)
    table.play(0, {"type": "capture", "location": "forest", "player": 1})
    table.play(0, {"type": "capture", "location": "quarry", "player": 1})
    assert table.player(0)["captured"][1] == 2


@pytest.mark.parametrize("cid,per_debt", [(27, -1), (28, -3)], ids=["Fountain", "Gambler's Den"])
def test_building_debt_modifiers(table, cid, per_debt):
    build(table, cid)
    assert buildings.debt_vp(table.player(0)) == per_debt


def test_building_hideout(table):
    table.state["prison"][0] = 4
    table.player(0)["workers"] -= 4
    build(table, 29)
    assert table.state["prison"][0] == 0


def test_building_keep(table):
    build(table, 30)
    table.player(0)["captured"][1] = 6
    assert end_vp(table, 30) == 2


def test_building_library(table):
    build(table, 31, gold=0)
    card = table.player(0)["hand"][0]
    table.play(0, {"type": "discard", "card": card})
    assert table.player(0)["gold"] == 2 and table.state["deck"][-1] == card


def test_building_lighthouse(table):
    build(table, 32)
    table.give(0, virtue=9)
    assert end_vp(table, 32) == 2


def test_building_moneylender(table):
    build(table, 35)
    table.give(0, paid_debts=3)
    assert end_vp(table, 35) == 3


def test_building_monument(table):
    build(table, 36)
    assert table.player(0)["virtue"] == 9 and table.player(1)["virtue"] == 8


def test_building_observatory(table):
    build(table, 37)
    table.give(0, marble=4)
    assert end_virtue(table, 37) == 2


def test_building_palace(table):
    build(table, 38, virtue=9, gold=0)
    assert table.player(0)["gold"] == 2


def test_building_reservoir(table):
    build(table, 39)
    table.give(0, paid_debts=4)
    assert end_virtue(table, 39) == 2


def test_building_every_base_card_has_an_effect():
    for cid in range(1, 41):
        end = (cid in buildings.END_VP or cid in buildings.END_VIRTUE
               or cid in buildings.DEBT_VP_DELTA)
        assert (cid in buildings.IMMEDIATE) != end


def test_building_end_effects_before_scoring(table):
    build(table, 24)  # Dungeon
    v = table.player(0)["virtue"]
    scoring.end_effects(table.state)
    assert table.player(0)["virtue"] == v - 2


# -- promo Buildings and the options each card offers ------------------------------------------
def test_building_crane_places_another_guildhall_worker(make_table):
    t = make_table(2, promos=True)
    for pile in [t.state["deck"]] + [pl["hand"] for pl in t.state["players"]]:
        if 11 in pile:
            pile.remove(11)
    t.player(0)["hand"].append(11)
    t.give(0, wood=2, stone=2)
    workers = t.player(0)["workers"]
    build(t, 41)  # Crane: 3 wood, 1 stone
    assert t.state["pending"] == {"kind": "crane"}
    assert {"type": "done"} in t.moves(0)
    t.play(0, {"type": "place", "location": "guildhall"})
    t.play(0, {"type": "build", "card": 11, "pay": {"stone": 2, "wood": 2}})
    assert t.state["guildhall"] == [0, 0] and t.player(0)["workers"] == workers - 2
    assert {41, 11} <= set(t.player(0)["buildings"]) and t.state["current"] == 1


def test_building_crane_may_stop(make_table):
    t = make_table(2, promos=True)
    build(t, 41, gold=1)
    assert t.state["pending"] == {"kind": "crane"}
    t.play(0, {"type": "done"})
    assert t.state["guildhall"] == [0] and t.state["current"] == 1


def test_building_graveyard_discards_an_apprentice(make_table):
    t = make_table(2, promos=True)
    t.player(0)["apprentices"] = [14, 21]
    build(t, 42)  # adds the Labourer for the skills
    assert t.state["pending"] == {"kind": "dismiss"}
    assert {m["type"] for m in t.moves(0)} == {"dismiss"}  # mandatory
    t.play(0, {"type": "dismiss", "card": 21})
    assert 21 not in t.player(0)["apprentices"] and t.state["app_deck"][-1] == 21
    assert t.player(0)["virtue"] == 6  # the card's -1 flag


def test_building_museum(make_table):
    t = make_table(2, promos=True)
    build(t, 43)
    build(t, 11)
    build(t, 1)
    assert end_virtue(t, 43) == 1  # 3 Buildings: 1 Virtue per 2


def test_building_barracks_capture_option(table):
    table.place(1, "forest")
    build(table, 15, silver=0)
    table.play(0, {"type": "choose", "option": "capture"})
    table.play(0, {"type": "capture", "location": "forest", "player": 1})
    assert table.player(0)["captured"][1] == 1 and table.player(0)["silver"] == 0


def test_building_treasury_silver_option(table):
    build(table, 8, silver=0)
    table.play(0, {"type": "choose", "option": "silver"})
    assert table.player(0)["silver"] == 3


def test_building_church_without_debt_does_nothing(table):
    build(table, 20)
    assert table.player(0)["debts"] == 0 and table.player(0)["virtue"] == 8


def test_building_chapel_tie_does_not_count(table):
    build(table, 19)
    table.player(0)["cathedral"] = 2
    table.player(1)["cathedral"] = 2
    assert end_virtue(table, 19) == 0


def test_building_resource_market_counts_the_solo_opponent(make_table):
    t = make_table(2, bot_opponent=True)
    build(t, 40)  # Silver Market
    t.give(0, silver=1)
    t.give(1, silver=0)
    assert end_vp(t, 40) == 2  # the opponent holds no Silver
