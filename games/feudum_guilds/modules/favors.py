"""Favors (B10, A8): a harvester may take a kickback into their personal supply."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.components import C


def split(total: int) -> tuple[int, int]:
    """(goods to the farm, kickback goods) for a harvest of ``total`` (5..10)."""
    to_farm, kickback = C["favor_table"][str(max(5, min(total, 10)))]
    return to_farm, kickback


def flip_beads(p: dict[str, Any]) -> None:
    """Taking a favor flips all of the player's beads to seals."""
    p["seals"].extend(p["beads"])
    p["beads"].clear()
