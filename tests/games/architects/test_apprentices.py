"""Rule tests: the abilities of all 40 base Apprentices."""

from __future__ import annotations

import pytest

from games.architects import black_market, cards


def hire(t, p, *cids):
    t.player(p)["apprentices"] = list(cids)


@pytest.mark.parametrize("cid,key,amount", [(1, "hand", 1), (2, "clay", 2), (3, "silver", 2)],
                         ids=["Acolyte-1", "Acolyte-2", "Acolyte-3"])
def test_apprentice_acolyte(table, cid, key, amount):
    hire(table, 0, cid)
    table.give(0, gold=1, clay=0, silver=0)
    table.state["rewards"] = []
    table.player(0)["hand"] = [table.state["deck"].pop(0), table.state["deck"].pop(0)]
    table.place(0, "guildhall")
    table.play(0, {"type": "cathedral", "pay": {"gold": 1}})
    table.play(0, {"type": "discard", "card": table.player(0)["hand"][0]})
    got = len(table.player(0)["hand"]) - 1 if key == "hand" else table.player(0)[key]
    assert got == amount


@pytest.mark.parametrize("cid", [4, 5], ids=["Conspirator-4", "Conspirator-5"])
def test_apprentice_conspirator(table, cid):
    hire(table, 0, cid)
    table.place(1, "forest")
    table.place(1, "quarry")
    table.place(0, "town_centre")
    table.give(0, silver=1)
    table.place(0, "town_centre")
    table.play(0, {"type": "capture", "location": "forest", "player": 1})
    table.play(0, {"type": "capture", "location": "quarry", "player": 1})
    assert table.player(0)["silver"] == 0 and table.player(0)["captured"][1] == 2


@pytest.mark.parametrize("cid,key", [(6, "clay"), (7, "stone"), (8, "wood")],
                         ids=["Debt Collector-6", "Debt Collector-7", "Debt Collector-8"])
def test_apprentice_debt_collector(table, cid, key):
    hire(table, 0, cid)
    table.give(0, debts=1, silver=6, **{key: 0})
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "pay_debt"})
    assert table.player(0)[key] == 2


def test_apprentice_gatekeeper(table):
    hire(table, 0, 9)
    table.state["prison"][0] = 3
    table.player(0)["workers"] -= 3
    black_market.reset(table.state, None)
    assert table.state["prison"][0] == 1 and table.player(0)["virtue"] == 7


def test_apprentice_illusionist(table):
    hire(table, 0, 10)
    table.give(0, silver=3)
    table.place(0, "black_market", space=0)
    assert table.player(0)["virtue"] == 7


@pytest.mark.parametrize("cid", [11, 12], ids=["Jeweller-11", "Jeweller-12"])
def test_apprentice_jeweller(table, cid):
    hire(table, 0, cid)
    table.give(0, silver=0)
    table.place(0, "silversmith")
    assert table.player(0)["silver"] == 3


def test_apprentice_labourer_has_all_skills(table):
    from games.architects import apprentices
    hire(table, 0, 13)
    assert apprentices.skills(table.player(0)) == {"Carpentry", "Tiling", "Masonry"}


@pytest.mark.parametrize("cid", [14, 15, 16, 17, 18, 21, 22, 23, 24, 35, 36, 37],
                         ids=lambda c: f"{cards.apprentice(c)['name']}-{c}")
def test_apprentice_storehouse_trades(table, cid):
    from games.architects.apprentices import ABILITIES
    pay, gain = ABILITIES[cid]["trade"]
    hire(table, 0, cid)
    table.give(0, clay=3, wood=3, stone=3, silver=3, gold=0, marble=0)
    before = dict(table.player(0))
    table.place(0, "storehouse")
    table.play(0, {"type": "trade", "trade": "apprentice", "card": cid})
    for k, v in pay.items():
        assert table.player(0)[k] == before[k] - v
    for k, v in gain.items():
        assert table.player(0)[k] == before[k] + v


@pytest.mark.parametrize("cid", [19, 20], ids=["Miner-19", "Miner-20"])
def test_apprentice_miner(table, cid):
    hire(table, 0, cid)
    table.place(0, "mines", take="clay")
    assert table.player(0)["clay"] == 3


def test_apprentice_pickpocket(table):
    hire(table, 0, 25)
    table.place(0, "tax_stand")
    assert table.player(0)["gold"] == 1


@pytest.mark.parametrize("cid,key,amount", [(26, "gold", 1), (27, "marble", 1), (28, "virtue", 9)],
                         ids=["Squire-26", "Squire-27", "Squire-28"])
def test_apprentice_squire(table, cid, key, amount):
    hire(table, 0, cid)
    table.give(0, gold=0, marble=0)
    black_market.reset(table.state, None)
    assert table.player(0)[key] == amount


def test_apprentice_squire_needs_empty_prison(table):
    hire(table, 0, 26)
    table.state["prison"][0] = 1
    table.player(0)["workers"] -= 1
    black_market.reset(table.state, None)
    assert table.player(0)["gold"] == 0


@pytest.mark.parametrize("cid", [29, 30], ids=["Stonecutter-29", "Stonecutter-30"])
def test_apprentice_stonecutter(table, cid):
    hire(table, 0, cid)
    table.place(0, "quarry")
    assert table.player(0)["stone"] == 3


@pytest.mark.parametrize("cid,key,amount", [(31, "clay", 2), (32, "stone", 1), (33, "wood", 1)],
                         ids=["Swindler-31", "Swindler-32", "Swindler-33"])
def test_apprentice_swindler(table, cid, key, amount):
    hire(table, 0, cid)
    table.give(0, silver=3, clay=0, stone=0, wood=0)
    table.state["bm_small"] = [0]  # Small side: 1 Marble
    table.place(0, "black_market", space=0)
    assert table.player(0)[key] == amount


def test_apprentice_thief(table):
    hire(table, 0, 34)
    table.place(0, "tax_stand")
    assert table.player(0)["virtue"] == 6


def test_apprentice_trickster(table):
    hire(table, 0, 38)
    table.give(0, silver=3)
    table.place(0, "black_market", space=2)
    assert table.player(0)["silver"] == 1


@pytest.mark.parametrize("cid", [39, 40], ids=["Woodcutter-39", "Woodcutter-40"])
def test_apprentice_woodcutter(table, cid):
    hire(table, 0, cid)
    table.place(0, "forest")
    assert table.player(0)["wood"] == 2


def test_apprentice_virtue_on_hire_not_reversed(table):
    table.give(0, silver=10)
    card = table.state["workshop"][0][0]
    table.place(0, "workshop")
    table.play(0, {"type": "hire", "row": 0, "col": 0})
    assert table.player(0)["virtue"] == 7 + cards.apprentice(card)["virtue_on_hire"]


def test_apprentice_limit_five_discard_to_hire(table):
    hire(table, 0, 13, 14, 15, 16, 17)
    table.give(0, silver=10)
    table.place(0, "workshop")
    hires = [m for m in table.moves(0) if m["type"] == "hire"]
    assert hires and all("discard" in m for m in hires)
    table.play(0, hires[0])
    assert len(table.player(0)["apprentices"]) == 5


def test_apprentice_every_base_card_tested():
    from games.architects.apprentices import ABILITIES
    assert set(range(1, 44)) == set(ABILITIES)


# -- promo Apprentices and further checks -----------------------------------------------------
def test_apprentice_enforcer_gold_when_sending_to_prison(table):
    hire(table, 0, 41)
    table.player(0)["captured"][1] = 2
    table.player(1)["workers"] -= 2
    table.give(0, silver=0, gold=0)
    table.place(0, "guardhouse")
    table.play(0, {"type": "guard", "action": "send"})
    assert table.player(0)["gold"] == 1 and table.player(0)["silver"] == 2


def test_apprentice_overseer_one_extra_storehouse_action(table):
    hire(table, 0, 42)
    table.give(0, clay=6, wood=0, stone=0)
    table.place(0, "storehouse")
    assert table.state["pending"]["left"] == 2
    table.play(0, {"type": "trade", "trade": "virtue", "pay": {"clay": 2}})
    table.play(0, {"type": "trade", "trade": "virtue", "pay": {"clay": 2}})
    assert table.player(0)["virtue"] == 9 and table.state["pending"] is None


def test_apprentice_peddler_two_silver_each_reset(table):
    hire(table, 0, 43)
    table.give(0, silver=0)
    black_market.reset(table.state, None)
    assert table.player(0)["silver"] == 2


def test_apprentice_miner_also_when_taking_gold(table):
    hire(table, 0, 19)
    table.state["board"]["mines"][0] = 1
    table.player(0)["workers"] -= 1
    table.give(0, clay=0, gold=0)
    table.place(0, "mines", take="gold")
    assert table.player(0)["gold"] == 1 and table.player(0)["clay"] == 1


def test_apprentice_gatekeeper_releases_before_prison_penalties(table):
    hire(table, 0, 9)
    table.state["prison"] = [4, 3]
    table.player(0)["workers"] -= 4
    table.player(1)["workers"] -= 3
    black_market.reset(table.state, None)
    # 4 -> 2 in Prison: no Virtue loss and no longer the most Prisoners.
    assert table.state["prison"] == [2, 3]
    assert table.player(0)["virtue"] == 7 and table.player(0)["debts"] == 0
    assert table.player(1)["virtue"] == 6 and table.player(1)["debts"] == 1


def test_apprentice_hired_at_black_market_collects_its_silver(table):
    table.give(0, silver=2)
    table.state["workshop_silver"][1][0] = 2
    table.place(0, "black_market", space=1)
    table.play(0, {"type": "hire", "row": 1, "col": 0})
    assert table.player(0)["silver"] == 2


def test_apprentice_patron_trade_at_virtue_14_destroys_a_debt(table):
    hire(table, 0, 21)
    table.give(0, clay=1, virtue=14, debts=1)
    table.place(0, "storehouse")
    table.play(0, {"type": "trade", "trade": "apprentice", "card": 21})
    assert table.player(0)["virtue"] == 14 and table.player(0)["debts"] == 0
