"""Card and tile data of The King's Guild, loaded from the JSON files in ``data/``."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

RESOURCES = ["cloth", "leather", "metal", "wood", "gem", "magic"]
BASIC_RESOURCES = ["cloth", "leather", "metal", "wood"]
COLORS = ["blue", "red", "yellow"]
FUNERAL = 49
COUNCIL = 50


def _load(name: str) -> Any:
    text = resources.files("games.kings_guild").joinpath("data", name).read_text(encoding="utf-8")
    return json.loads(text)


@cache
def quests() -> dict[int, dict[str, Any]]:
    """Quest cards by id (1..48)."""
    return {q["id"]: q for q in _load("quests.json")["quests"]}


@cache
def events() -> dict[int, dict[str, Any]]:
    """The King's Funeral (49) and the Offering to the Council (50)."""
    return {e["id"]: e for e in _load("quests.json")["events"]}


@cache
def treasure_types() -> dict[int, dict[str, Any]]:
    """The 35 treasure types by id."""
    return {t["id"]: t for t in _load("treasures.json")["treasures"]}


@cache
def relic_set_prestige() -> list[int]:
    """Prestige for a set of 0..6 different relics."""
    return list(_load("treasures.json")["relic_set_prestige"])


@cache
def specialists() -> dict[int, dict[str, Any]]:
    """The 36 specialists by id."""
    return {s["id"]: s for s in _load("specialists.json")["specialists"]}


@cache
def specialist_ids() -> dict[str, int]:
    """Specialist id by name."""
    return {s["name"]: s["id"] for s in specialists().values()}


@cache
def rooms() -> dict[str, dict[str, Any]]:
    """Room tiles (common, chambers, master rooms, Shrine, King's Statue) by name."""
    return {r["name"]: r for r in _load("rooms.json")["rooms"]}


@cache
def boards() -> dict[str, Any]:
    """Player boards (mats with their bonus spaces) and guild tiles."""
    return _load("boards.json")


@cache
def mat_bonuses(mat: str) -> list[tuple[int, int, str]]:
    """The bonus spaces of a player mat as (x, y, bonus) (the data file keys them ``"x_y"``)."""
    out = []
    for key, bonus in boards()["mats"][mat].items():
        x, y = (int(v) for v in key.split("_"))
        out.append((x, y, bonus))
    return out


@cache
def guilds() -> dict[str, dict[str, Any]]:
    """Guild tiles by name."""
    return {g["name"]: g for g in boards()["guilds"]}


@cache
def setup_tables() -> dict[str, Any]:
    """The rulebook's setup tables by player count."""
    return _load("setup.json")


@cache  # a view names every discarded card: parse each of the ~100 ids once
def treasure(card: str) -> dict[str, Any]:
    """The type of one treasure card instance (ids look like ``t33_4``)."""
    return treasure_types()[int(card[1:].split("_")[0])]


def treasure_name(card: str) -> str:
    """The printed name of a treasure card instance."""
    return treasure(card)["name"]


def specialist_name(sid: int) -> str:
    """The name of a specialist."""
    return specialists()[sid]["name"]


def quest_name(qid: int) -> str:
    """The name of a quest card or event card."""
    if qid in events():
        return events()[qid]["name"]
    return quests()[qid]["name"]


MASTER_ROOMS = [name for name, r in rooms().items() if r["category"] == "master"]
CHAMBERS = [
    name for name, r in rooms().items() if "chamber_spaces" in r and r["category"] == "basic"
]
