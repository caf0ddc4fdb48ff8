"""Master rooms (all 14), the King's Statue, the Shrine, chambers and common rooms."""

from __future__ import annotations

import pytest

from games.kings_guild import cards, guild, scoring

MAGE_2W = 13  # Burn the Briar Roots: mage, weapon + weapon
ROGUE_2A = 33  # Discover the Hidden Valley: rogue, armor + armor
WARRIOR_WA = 41  # Assault the Obsidian Spire: warrior, weapon + weapon
WARRIOR_A = 10  # Fortify Skullbreaker Point: warrior, armor
MAGE_A = 4  # Help the Whitetree Coopers: mage, armor


def _points(kg, s, room, seat=0):
    return scoring.room_points(s, seat)[room]


def _with_quests(kg, room, qids):
    s = kg.new()
    kg.room(s, 0, room, 0, 0)
    for q in qids:
        kg.owns_quest(s, 0, q)
    return s


def test_room_master_hall_of_mages(kg):
    s = _with_quests(kg, "Hall of Mages", [MAGE_2W, MAGE_A, ROGUE_2A])
    assert _points(kg, s, "Hall of Mages") == 8


def test_room_master_hall_of_rogues(kg):
    s = _with_quests(kg, "Hall of Rogues", [ROGUE_2A, MAGE_A])
    assert _points(kg, s, "Hall of Rogues") == 4


def test_room_master_hall_of_warriors(kg):
    s = _with_quests(kg, "Hall of Warriors", [WARRIOR_WA, WARRIOR_A, MAGE_A])
    assert _points(kg, s, "Hall of Warriors") == 8


def test_room_master_hall_of_wisdom_mage_warrior_sets(kg):
    s = _with_quests(kg, "Hall of Wisdom", [MAGE_2W, MAGE_A, WARRIOR_A])
    assert _points(kg, s, "Hall of Wisdom") == 6


def test_room_master_hall_of_strength_rogue_warrior_sets(kg):
    s = _with_quests(kg, "Hall of Strength", [ROGUE_2A, WARRIOR_A, WARRIOR_WA])
    assert _points(kg, s, "Hall of Strength") == 6


def test_room_master_hall_of_cunning_mage_rogue_sets(kg):
    s = _with_quests(kg, "Hall of Cunning", [ROGUE_2A, MAGE_A, WARRIOR_A])
    assert _points(kg, s, "Hall of Cunning") == 6


def test_room_master_armory_two_per_armor_icon(kg):
    s = _with_quests(kg, "Armory", [ROGUE_2A, MAGE_A, MAGE_2W])
    assert _points(kg, s, "Armory") == 6


def test_room_master_arsenal_two_per_weapon_icon(kg):
    s = _with_quests(kg, "Arsenal", [MAGE_2W, MAGE_A])
    assert _points(kg, s, "Arsenal") == 4


def test_room_master_gallery_weapon_armor_sets(kg):
    s = _with_quests(kg, "Gallery", [MAGE_2W, MAGE_A, ROGUE_2A])
    assert _points(kg, s, "Gallery") == 6


def test_room_master_depot_resource_types(kg):
    s = kg.new()
    kg.room(s, 0, "Depot", 0, 0)
    kg.give(s, 0, wood=2, gem=1, cloth=1)
    assert _points(kg, s, "Depot") == 12


def test_room_master_hall_of_builders_counts_rooms_not_guild_tile(kg):
    s = kg.new()
    kg.room(s, 0, "Hall of Builders", 0, 0)
    kg.room(s, 0, "Library", 3, 0)
    kg.room(s, 0, "King's Statue", 1, 1)
    assert _points(kg, s, "Hall of Builders") == 9


def test_room_master_tavern_per_specialist_not_baggage(kg):
    s = kg.new()
    kg.room(s, 0, "Tavern", 0, 0)
    kg.room(s, 0, "Kitchen", 3, 0)
    kg.hire(s, 0, "Miner")
    kg.hire(s, 0, "Aristocrat")
    s["guilds"][0]["baggage"] = "Kitchen"
    assert _points(kg, s, "Tavern") == 6


def test_room_master_throne_room_next_to_statue(kg):
    s = kg.new()
    kg.room(s, 0, "Throne Room", 0, 0)
    assert _points(kg, s, "Throne Room") == 9
    kg.room(s, 0, "King's Statue", 0, 1)
    assert _points(kg, s, "Throne Room") == 15


def test_room_master_vault_of_riches_coins_and_no_offering_coins(kg):
    s = kg.new()
    kg.room(s, 0, "Vault of Riches", 0, 0)
    s["guilds"][0]["coins"] = 13
    assert _points(kg, s, "Vault of Riches") == 13
    s["guilds"][0]["offered"] = True
    kg.give(s, 0, wood=3)
    assert scoring.offering_points(s, 0) == 2 + 0 + 1


def test_room_master_rooms_players_plus_three_for_sale_once(kg):
    s = kg.new(3)
    s["guilds"][0]["coins"] = 50
    assert len(s["master_rooms"]) == 6
    master = s["master_rooms"][0]
    kg.play(s, 0, {"type": "build", "room": master})
    kg.play(s, 0, kg.moves(s, 0, "place")[0])
    assert master not in s["master_rooms"]
    assert master not in {r["name"] for r in kg.game.view(s, 1)["rooms_for_sale"]}


def test_room_all_fourteen_master_rooms_have_scoring():
    for name in cards.MASTER_ROOMS:
        r = cards.rooms()[name]
        assert r["category"] == "master" and "scoring" in r
    assert len(cards.MASTER_ROOMS) == 14


def test_room_kings_statue_four_prestige(kg):
    s = kg.new()
    kg.room(s, 0, "King's Statue", 0, 0)
    assert _points(kg, s, "King's Statue") == 4


def test_room_shrine_one_prestige_and_a_space(kg):
    s = kg.new()
    kg.room(s, 0, "Shrine", 0, 0)
    assert _points(kg, s, "Shrine") == 1
    assert guild.space_capacity(s, 0) == {"top": 4, "Shrine": 1}


@pytest.mark.parametrize("room,spaces,points", [
    ("Kitchen", 1, 3), ("Bedchamber", 1, 7), ("Barracks", 2, 5), ("Great Hall", 2, 11)])
def test_room_chambers_score_only_when_occupied(kg, room, spaces, points):
    s = kg.new()
    kg.room(s, 0, room, 0, 1)
    assert _points(kg, s, room) == 0
    for name in ["Miner", "Tanner"][:spaces]:
        kg.hire(s, 0, name, room)
    assert _points(kg, s, room) == points


def test_room_chambers_need_specialists_the_aristocrats_baggage_does_not_count(kg):
    s = kg.new()
    kg.room(s, 0, "Kitchen", 0, 1)
    kg.room(s, 0, "Barracks", 1, 1)
    kg.hire(s, 0, "Aristocrat")
    s["guilds"][0]["baggage"] = "Kitchen"
    assert _points(kg, s, "Kitchen") == 0
    kg.hire(s, 0, "Miner", "Barracks")
    s["guilds"][0]["baggage"] = "Barracks"
    assert _points(kg, s, "Barracks") == 0
    kg.hire(s, 0, "Tanner", "Kitchen")
    assert _points(kg, s, "Kitchen") == 3


def test_room_warehouse_storage_and_prestige(kg):
    s = kg.new(guilds=["Explorers League", "Craft Collective"])
    kg.room(s, 0, "Warehouse", 0, 0)
    assert guild.storage_limit(s, 0) == 8 and _points(kg, s, "Warehouse") == 2


def test_room_gem_workshop_and_magic_arcaenum(kg):
    s = kg.new()
    kg.room(s, 0, "Gem Workshop", 0, 0)
    assert "gem" in guild.gatherable(s, 0) and "magic" not in guild.gatherable(s, 0)
    kg.room(s, 0, "Magic Arcaenum", 3, 0)
    assert "magic" in guild.gatherable(s, 0)
    assert _points(kg, s, "Gem Workshop") == 1 and _points(kg, s, "Magic Arcaenum") == 1


def test_room_other_rules_choose_only_gatherable_resources(kg):
    s = kg.new(3)
    scroll = kg.to_hand(s, 0, "Scroll of Plenty")
    kg.play(s, 0, {"type": "play", "card": scroll})
    assert "gem" not in {m["resource"] for m in kg.moves(s, 0, "gain")}
