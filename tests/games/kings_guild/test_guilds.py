"""The six guild tiles and their starting bonuses (their only abilities)."""

from __future__ import annotations

from games.kings_guild import GAME, cards, guild
from games.rng import RecordingRandom


def _setup_with(guild_name, seed_range=range(200), n=2):
    for seed in seed_range:
        s = GAME.setup(["A", "B"][:n], {}, RecordingRandom(seed))
        if s["guilds"][0]["guild"] == guild_name:
            return s
    raise AssertionError(guild_name)


def test_guild_craft_collective_storage_six():
    s = _setup_with("Craft Collective")
    assert guild.storage_limit(s, 0) == 6
    assert all(e["seat"] != 0 for e in s["pending"])


def test_guild_mercantile_trust_four_extra_coins():
    s = _setup_with("Mercantile Trust")
    assert s["guilds"][0]["coins"] == 3 + 4
    assert guild.storage_limit(s, 0) == 5


def test_guild_explorers_league_cloth_leather_choice(kg):
    s = _setup_with("Explorers League")
    moves = GAME.legal_moves(s, 0)
    assert [m["resources"] for m in moves] == [["cloth", "cloth"], ["cloth", "leather"],
                                               ["leather", "leather"]]
    kg.play(s, 0, moves[1])
    assert kg.res(s, 0) == {"cloth": 1, "leather": 1}


def test_guild_greycastle_guard_metal_wood_choice(kg):
    s = _setup_with("Greycastle Guard")
    moves = GAME.legal_moves(s, 0)
    assert [m["resources"] for m in moves] == [["metal", "metal"], ["metal", "wood"],
                                               ["wood", "wood"]]
    kg.play(s, 0, moves[2])
    assert kg.res(s, 0) == {"wood": 2}


def test_guild_starfall_syndicate_treasure_of_chosen_colour(kg):
    s = _setup_with("Starfall Syndicate")
    kg.play(s, 0, {"type": "choose_color", "color": "red"})
    hand = s["guilds"][0]["hand"]
    assert len(hand) == 1 and cards.treasure(hand[0])["color"] == "red"
    assert "red" in GAME.describe({"version": 2, "actor": 0, "names": ["A", "B"],
                                   "data": {"move": {"type": "choose_color", "color": "red"}}}, 1)


def test_guild_the_holy_order_starts_with_shrine(kg):
    s = _setup_with("The Holy Order")
    places = GAME.legal_moves(s, 0)
    assert {(m["x"], m["y"]) for m in places} == {(0, 0), (3, 0), (1, 1), (2, 1)}
    kg.play(s, 0, {"type": "place", "x": 0, "y": 0})
    assert [r["name"] for r in s["guilds"][0]["rooms"]] == ["Shrine"]
    assert s["guilds"][0]["coins"] >= 3
    assert "Shrine" in guild.space_capacity(s, 0)
