"""Setup by the rulebook's tables (2-6 players) and the solo setup."""

from __future__ import annotations

import pytest

from games.kings_guild import GAME, cards
from games.rng import RecordingRandom

# players: (warehouse/library, gem/magic, specialists each, basic, advanced,
#           age1 each, age2, quest slots)
TABLE = {
    2: (1, 1, 5, 5, 3, 5, 8, 5),
    3: (2, 2, 7, 6, 4, 7, 12, 5),
    4: (3, 2, 8, 7, 5, 8, 14, 5),
    5: (3, 3, 9, 8, 6, 9, 17, 6),
    6: (4, 3, 10, 8, 6, 10, 19, 6),
}


def _setup(n, seed=3):
    return GAME.setup([f"P{i}" for i in range(n)], {}, RecordingRandom(seed))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_rule_setup_tables_by_player_count(n):
    wl, gm, spec, basic, adv, age1, age2, slots = TABLE[n]
    s = _setup(n)
    assert len(s["master_rooms"]) == n + 3
    assert s["room_supply"]["Warehouse"] == s["room_supply"]["Library"] == wl
    assert s["room_supply"]["Gem Workshop"] == s["room_supply"]["Magic Arcaenum"] == gm
    assert s["room_supply"]["Bedchamber / Kitchen"] == n
    assert s["room_supply"]["Great Hall / Barracks"] == n
    assert len(s["specialist_deck"]) + 5 == 3 * spec
    assert s["resource_totals"] == {"cloth": basic, "leather": basic, "metal": basic,
                                    "wood": basic, "gem": adv, "magic": adv}
    assert len(s["quest_slots"]) == slots
    in_play = len(s["quest_deck"]) + slots
    assert in_play == 2 * age1 + age2 + 2


def test_rule_setup_quest_deck_order_funeral_between_ages_council_last():
    s = _setup(4)
    deck = [q["quest"] for q in s["quest_slots"]] + s["quest_deck"]
    funeral = deck.index(cards.FUNERAL)
    assert deck[-1] == cards.COUNCIL
    assert all(cards.quests()[q]["deck"].startswith("I") for q in deck[:funeral])
    assert all(cards.quests()[q]["deck"] == "II" for q in deck[funeral + 1:-1])
    assert funeral == 16


def test_rule_setup_specialist_deck_a_on_b_on_c_and_row_of_five():
    s = _setup(3)
    row = [e["id"] for e in s["specialist_row"]]
    assert len(row) == 5 and all(cards.specialists()[i]["deck"] == "A" for i in row)
    letters = [cards.specialists()[i]["deck"] for i in s["specialist_deck"]]
    assert letters == sorted(letters)
    assert letters.count("A") == 2 and letters.count("B") == 7 and letters.count("C") == 7


def test_rule_setup_starting_coins_by_seat():
    s = _setup(6)
    base = [3, 4, 5, 5, 6, 6]
    for seat, p in enumerate(s["guilds"]):
        extra = 4 if p["guild"] == "Mercantile Trust" else 0
        assert p["coins"] == base[seat] + extra


def test_rule_setup_player_boards_and_guilds_all_six_distinct():
    s = _setup(6)
    assert sorted(p["mat"] for p in s["guilds"]) == list("ABCDEF")
    assert sorted(p["guild"] for p in s["guilds"]) == sorted(cards.guilds())
    for mat in cards.boards()["mats"].values():
        assert sorted(mat.values()) == ["cloth", "coins", "leather", "metal", "wood"]


def test_rule_setup_treasure_decks_28_each():
    s = _setup(2)
    assert {c: len(d) for c, d in s["treasure_decks"].items()} == {
        "blue": 28, "red": 28, "yellow": 28}


def test_rule_setup_guild_start_bonuses_taken_in_seat_order():
    s = _setup(6)
    kinds = [e["kind"] for e in reversed(s["pending"])]
    seats = [e["seat"] for e in reversed(s["pending"])]
    assert seats == sorted(seats)
    assert set(kinds) == {"start_resources", "start_treasure", "place_room"}
    assert GAME.to_act(s) == {seats[0]}


def test_rule_solo_setup():
    s = _setup(1)
    assert s["solo"]
    assert s["room_supply"] == {"Warehouse": 1, "Library": 1, "Gem Workshop": 1,
                                "Magic Arcaenum": 1, "Bedchamber / Kitchen": 1,
                                "Great Hall / Barracks": 1}
    assert s["resource_totals"] == {"cloth": 4, "leather": 4, "metal": 4, "wood": 4,
                                    "gem": 3, "magic": 3}
    spec_ids = s["specialist_deck"] + [e["id"] for e in s["specialist_row"]]
    assert len(spec_ids) == 15
    names = {cards.specialist_name(i) for i in spec_ids}
    assert not names & {"Thug", "Recruiter", "Smuggler"}
    all_treasure = [c for d in s["treasure_decks"].values() for c in d]
    assert "Spoiling Potion" not in {cards.treasure_name(c) for c in all_treasure}
    assert len(s["treasure_decks"]["blue"]) == 26
    assert len(s["quest_slots"]) == 6
    assert len(s["quest_deck"]) + 6 == 7 + 7 + 12 + 2
    assert s["guilds"][0]["coins"] in (3, 7)


def test_rule_data_counts_exact():
    assert len(cards.quests()) == 48
    assert len(cards.treasure_types()) == 35
    assert sum(t["count"] for t in cards.treasure_types().values()) == 84
    assert len(cards.specialists()) == 36
    assert len(cards.MASTER_ROOMS) == 14
    assert cards.rooms()["Great Hall"]["occupied_prestige"] == 11
    assert cards.rooms()["Bedchamber"]["occupied_prestige"] == 7


MATS = {  # the six player boards: bonus spaces (x, y) as printed
    "A": {"metal": (0, 1), "wood": (1, 2), "leather": (2, 1), "cloth": (3, 0), "coins": (3, 2)},
    "B": {"metal": (3, 2), "wood": (3, 0), "leather": (0, 1), "cloth": (2, 1), "coins": (1, 2)},
    "C": {"metal": (2, 1), "wood": (3, 2), "leather": (3, 0), "cloth": (1, 2), "coins": (0, 1)},
    "D": {"metal": (1, 1), "wood": (0, 0), "leather": (2, 2), "cloth": (3, 1), "coins": (0, 2)},
    "E": {"metal": (0, 0), "wood": (3, 1), "leather": (0, 2), "cloth": (1, 1), "coins": (2, 2)},
    "F": {"metal": (2, 2), "wood": (1, 1), "leather": (0, 0), "cloth": (0, 2), "coins": (3, 1)},
}


@pytest.mark.parametrize("mat", sorted(MATS))
def test_board_player_board_bonus_spaces(kg, mat):
    """Each player board: guild tile at the top centre, four bonus resources and +2 coins;
    covering a bonus space with a room pays it out."""
    from games.kings_guild import rooms

    assert cards.boards()["guild_cells"] == [[1, 0], [2, 0]]
    printed = {f"{x}_{y}": bonus for bonus, (x, y) in MATS[mat].items()}
    assert cards.boards()["mats"][mat] == printed
    for bonus, (x, y) in MATS[mat].items():
        s = kg.new()
        s["guilds"][0]["mat"] = mat
        rooms.place(s, 0, "Kitchen", x, y, 0)
        if bonus == "coins":
            assert kg.coins(s, 0) == 12 and kg.res(s, 0) == {}
        else:
            assert kg.coins(s, 0) == 10 and kg.res(s, 0) == {bonus: 1}
