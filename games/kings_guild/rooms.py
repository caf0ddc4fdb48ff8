"""Room tiles: what is for sale, where a room may go on a player board, and building it."""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards, guild

State = dict[str, Any]
STATUE = "King's Statue"
SHRINE = "Shrine"


def supply_key(room: str) -> str | None:
    """The stack a room is taken from (chambers share a double-sided tile stack)."""
    r = cards.rooms()[room]
    if r["category"] != "basic":
        return None
    return r.get("tile", room)


def in_supply(state: State, room: str) -> bool:
    """Whether a tile for ``room`` is still for sale."""
    if room in state["master_rooms"]:
        return True
    key = supply_key(room)
    return key is not None and state["room_supply"].get(key, 0) > 0


def cells_for(room: str, x: int, y: int) -> list[list[int]]:
    """Cells a room covers when its left cell is (x, y) (double rooms are two cells wide)."""
    if cards.rooms()[room]["double"]:
        return [[x, y], [x + 1, y]]
    return [[x, y]]


def positions(state: State, seat: int, room: str, expand: bool = True) -> list[list[int]]:
    """Legal (x, y) for ``room``: empty cells, orthogonally next to the guild (or anywhere with
    the Builder, whose house icon means "when you take an expand action")."""
    board = cards.boards()
    taken = guild.occupied_cells(state, seat)
    anywhere = expand and guild.has_specialist(state, seat, "Builder")
    out = []
    for y in range(board["rows"]):
        for x in range(board["columns"]):
            cells = [tuple(c) for c in cells_for(room, x, y)]
            if any(c in taken or c[0] >= board["columns"] for c in cells):
                continue
            if anywhere or any(_touches(c, taken) for c in cells):
                out.append([x, y])
    return out


def _touches(cell: tuple[int, int], taken: set[tuple[int, int]]) -> bool:
    x, y = cell
    return any(n in taken for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))


def cost(room: str) -> int:
    """Printed coin cost of a room."""
    return cards.rooms()[room]["cost"]


def buildable(state: State, seat: int) -> list[str]:
    """Rooms ``seat`` may build now (in supply, affordable, not owned, with a legal space)."""
    p = guild.player(state, seat)
    names = [n for n, r in cards.rooms().items() if r["category"] in ("basic", "master")]
    out = []
    for room in names:
        if not in_supply(state, room) or guild.has_room(state, seat, room):
            continue
        if p["coins"] < cost(room):
            continue
        if state["n"] == 2 and _gem_magic_clash(state, seat, room):
            continue
        if positions(state, seat, room):
            out.append(room)
    return out


def _gem_magic_clash(state: State, seat: int, room: str) -> bool:
    """Two players: nobody may have both the Gem Workshop and the Magic Arcaenum."""
    pair = {"Gem Workshop": "Magic Arcaenum", "Magic Arcaenum": "Gem Workshop"}
    return room in pair and guild.has_room(state, seat, pair[room])


def take_from_supply(state: State, room: str) -> None:
    """Remove the tile for ``room`` from the supply."""
    if room in state["master_rooms"]:
        state["master_rooms"].remove(room)
    else:
        state["room_supply"][supply_key(room)] -= 1


def place(state: State, seat: int, room: str, x: int, y: int, price: int,
          expand: bool = True) -> None:
    """Pay ``price`` and put ``room`` at (x, y); covered bonus spaces pay out (doubled with
    the Builder during an Expand action, resources only as far as the supply allows)."""
    p = guild.player(state, seat)
    p["coins"] -= price
    cells = cells_for(room, x, y)
    p["rooms"].append({"name": room, "cells": cells})
    bonuses = cards.boards()["mats"][p["mat"]]
    times = 2 if expand and guild.has_specialist(state, seat, "Builder") else 1
    for cx, cy in cells:
        bonus = bonuses.get(f"{cx}_{cy}")
        if bonus == "coins":
            p["coins"] += cards.boards()["bonus_coins"] * times
        elif bonus:
            guild.gain_resource(state, seat, bonus, times)
