"""B1 components and capacities, and B2 setup."""

from __future__ import annotations

from games.feudum_guilds import GAME
from games.feudum_guilds.components import WRITS, C
from games.rng import RecordingRandom


def test_components_B1_counts_capacities_and_prices():
    assert C["haversack"] == {"food": 50, "wood": 30, "iron": 30, "sulfur": 30, "saltpeter": 30}
    assert len(C["bead_values"]) == 17 and set(C["bead_values"]) == {2, 3, 4, 5}
    assert C["vessels"] == {"ship": 3, "submersible": 3, "flying_machine": 3}
    assert len(WRITS) == 16 and sum(w["kind"] == "mandate" for w in WRITS.values()) == 8
    assert C["barn_capacity"] == 10 and C["chickens"] == 4 and C["rosary_capacity"] == 7
    assert C["merchant_prices"] == {"saltpeter": [4, 3, 2, 2], "sulfur": [3, 3, 2, 1],
                                    "iron": [3, 2, 1, 1], "wood": [2, 2, 1, 1],
                                    "food": [2, 1, 1, 1]}
    assert C["alchemist_groups"] == ["wood", "iron", "food", "saltpeter", "sulfur"]
    assert C["alchemist_capacity"] == 3
    assert C["knight_sections"] == [1, 2, 3] and C["markers_per_colour"] == 20
    assert C["scroll_rows"] == [[0, 1, 2], [3, 4], [5]]
    assert C["scroll_columns"] == [[0, 3, 5], [1, 4], [2]]
    assert C["start"] == {"markers": 7, "food": 7, "shillings": 7, "pawns": 3, "reeves": 2,
                          "barrel": 3}
    assert C["feudums_per_guild"] == 2 and C["realm_slots"] == 22
    assert C["production"] == {"ship": {"food": 1, "wood": 2},
                               "submersible": {"food": 1, "iron": 2},
                               "flying_machine": {"food": 1, "iron": 1, "wood": 1}}
    assert C["barrels"] == [{"saltpeter": 2, "sulfur": 1}, {"saltpeter": 1, "sulfur": 1},
                            {"wood": 1}]


def test_setup_B2_supplies_tokens_rows_and_writ_deck():
    for n in (2, 5):
        s = GAME.setup([f"p{i}" for i in range(n)], {}, RecordingRandom(n))
        assert s["phase"] == "setup" and 0 <= s["start_player"] < n
        for p in s["ps"]:
            assert p["markers"] == 7 and p["shillings"] == 7 and p["goods"]["food"] == 7
            assert len(p["pawns"]) == 3 and all(pw["guild"] is None for pw in p["pawns"])
        placed = 4 + 4 + 1
        assert len(s["seal_supply"]) == 17 - placed
        assert all(sum(r["sections"]) == 2 and r["sections"][2] == 0 for r in s["knight_rows"])
        assert len(s["knight_rows"]) == max(4, n)
        assert "C2" not in s["writ_deck"] and len(s["writ_deck"]) == 15  # no Monsters module
        assert s["stacks"] == [[1, 2, 3, 4]] * 6 and s["epoch"] == 1
        assert sum(s["vessel_supply"].values()) == 7
        GAME.check_invariants(s)
    s = GAME.setup(["a", "b"], {"monsters": True}, RecordingRandom(1))
    assert len(s["writ_deck"]) == 16


def test_setup_B2_players_take_three_different_goods_sulfur_to_barrel_or_supply():
    s = GAME.setup(["a", "b", "c"], {}, RecordingRandom(4))
    first = s["stack"][-1]["seat"]
    assert s["stack"][-1]["kind"] == "setup_goods" and first == s["start_player"]
    moves = GAME.legal_moves(s, first)
    assert all(len(set(m["goods"])) == 3 for m in moves)
    assert len(moves) == 10 + 6  # C(5,3) trios; the 6 with sulfur come twice (barrel, supply)
    barrel = {"type": "setup_goods", "goods": ["food", "iron", "sulfur"], "sulfur_to": "barrel"}
    GAME.apply(s, first, barrel, RecordingRandom(1))
    p = s["ps"][first]
    assert p["barrel"] == 1 and p["goods"]["sulfur"] == 0 and p["goods"]["iron"] == 1
    second = s["stack"][-1]["seat"]
    assert second == (first + 1) % 3
    supply = {"type": "setup_goods", "goods": ["wood", "sulfur", "saltpeter"],
              "sulfur_to": "supply"}
    GAME.apply(s, second, supply, RecordingRandom(1))
    assert s["ps"][second]["goods"]["sulfur"] == 1 and s["ps"][second]["barrel"] == 0
    GAME.check_invariants(s)
