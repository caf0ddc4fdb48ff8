"""Conservation and capacity checks for soak tests (``Game.check_invariants``)."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.board import colour_key
from games.feudum_guilds.components import GOODS, VESSELS, WRITS, C
from games.feudum_guilds.epochs import goods_total

State = dict[str, Any]


def token_places(state: State) -> list[int]:
    """Every seal/bead token wherever it is (supply, scrolls, rosary, chickens, players, fists)."""
    found = list(state["seal_supply"]) + list(state["rosary"])
    found += [t for t in state["scrolls"] + state["chickens"] if t is not None]
    for p in state["ps"]:
        found += p["beads"] + p["seals"]
    for dec in state["stack"]:
        found += dec.get("beads", []) + dec.get("fists", [])
    return found


def writ_places(state: State) -> list[str]:
    """Every writ: deck, removed, hands and cards being drawn."""
    found = list(state["writ_deck"]) + list(state["writs_removed"])
    for p in state["ps"]:
        found += p["hand"]
    for dec in state["stack"]:
        if dec["kind"] == "writ_keep":
            found += dec["cards"]
    return found


def check(state: State) -> None:
    """Raise AssertionError if a capacity, conservation or sign rule is broken."""
    # capacities
    assert sum(state["barn"].values()) <= C["barn_capacity"], "barn over capacity"
    assert all(0 <= n <= 4 for n in state["market"].values()), "market bin over capacity"
    assert all(0 <= n <= C["alchemist_capacity"] for n in state["alchemist"].values())
    for row in state["knight_rows"]:
        for n, cap in zip(row["sections"], C["knight_sections"], strict=True):
            assert 0 <= n <= cap, "knight section over capacity"
    assert len(state["rosary"]) <= C["rosary_capacity"], "rosary over capacity"
    assert len(state["chickens"]) == C["chickens"] and len(state["scrolls"]) == C["scrolls"]
    # goods conserved, nothing negative
    for good in GOODS:
        assert goods_total(state, good) == C["haversack"][good], f"{good} not conserved"
        assert state["haversack"][good] >= 0
    for p in state["ps"]:
        assert p["shillings"] >= 0, "negative shillings"
        assert p["markers"] >= 0 and p["barrel"] >= 0 and 0 <= p["barrel"] <= C["start"]["barrel"]
        assert all(n >= 0 for n in p["goods"].values()), "negative goods"
        for loc in p["locations"]:
            assert sum(loc["goods"].values()) <= 10 and all(n >= 0 for n in loc["goods"].values())
    assert state["purse"] >= 0 and state["coffer"] >= 0
    # seal/bead tokens conserved: each exactly once
    tokens = token_places(state)
    assert sorted(tokens) == list(range(len(state["tokens"]))), "seal tokens not conserved"
    # writs conserved
    assert sorted(writ_places(state)) == sorted(WRITS), "writs not conserved"
    for p in state["ps"]:
        assert set(p["sealed"]) <= set(p["hand"]) and len(p["sealed"]) <= len(p["seals"])
        assert len(p["hand"]) <= 4
        if not any(d["kind"] in ("writ_discard", "writ_keep") for d in state["stack"]):
            assert len(p["hand"]) <= 3, "hand over the limit"
    # vessels conserved
    for kind in VESSELS:
        total = state["vessel_supply"][kind] + state["vessel_space"][kind]
        total += sum(p["vessels"][kind] for p in state["ps"])
        assert total == C["vessels"][kind], f"{kind} not conserved"
        assert state["vessel_supply"][kind] >= 0 and state["vessel_space"][kind] >= 0
    # influence markers conserved per colour
    for seat, p in enumerate(state["ps"]):
        key = colour_key(seat)
        total = state["marker_supply"][key] + p["markers"] + len(p["locations"])
        total += sum(sum(r["sections"]) for r in state["knight_rows"]
                     if colour_key(r["colour"]) == key)
        total += sum(1 for g in state["guilds"].values() for s in g["seats"] if s == seat)
        total += sum(1 for owner in state["monsters"].values() if owner == seat)
        assert total == C["markers_per_colour"], f"markers of seat {seat} not conserved"
        assert state["marker_supply"][key] >= 0
    # dummy colours conserved too; from rules 3 every Knight row has a colour of its own
    seat_keys = {colour_key(seat) for seat in range(state["n"])}
    for key, left in state["marker_supply"].items():
        if key not in seat_keys:
            on_board = sum(sum(r["sections"]) for r in state["knight_rows"]
                           if colour_key(r["colour"]) == key)
            assert left >= 0 and left + on_board == C["markers_per_colour"], (
                f"markers of colour {key} not conserved")
    if state.get("rules", 2) >= 3:
        colours = [colour_key(r["colour"]) for r in state["knight_rows"]]
        assert len(set(colours)) == len(colours) >= 4, "Knight rows share a colour"
    # seats: each player at most once per guild
    for g in state["guilds"].values():
        seated = [s for s in g["seats"] if s is not None]
        assert len(seated) == len(set(seated)), "a player holds two seats in one guild"
        assert g["seats"][: len(seated)] == seated, "a gap above a seated player"
    assert sum(len(p["locations"]) for p in state["ps"]) <= C["realm_slots"]
    assert all(n >= 0 for n in state["feudums"].values())
