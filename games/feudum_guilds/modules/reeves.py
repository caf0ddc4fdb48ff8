"""Reeves (B10): a seat-holder may leave a reeve disc in a guild when pushing or pulling.

Each player has 2 reeves.  A push or pull with the player's own reeve in that guild scores
+1 vp, and +1 more if their second reeve sits in another guild.  Feasters never score
reeves (their own or the holder's) and place none [A-38].
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import words
from games.feudum_guilds.components import C
from games.feudum_guilds.flow import options_for, pop, resolver_for, score
from games.rng import GameRandom

State = dict[str, Any]


def can_place(state: State, seat: int, guild: str) -> bool:
    """Whether the player has a reeve left and none in this guild yet."""
    placed = state["ps"][seat]["reeves"]
    return len(placed) < C["start"]["reeves"] and guild not in placed


def bonus(state: State, seat: int, guild: str) -> None:
    """Score the reeve bonus for a push or pull at ``guild``."""
    placed = state["ps"][seat]["reeves"]
    if guild in placed:
        vp = 1 + (1 if any(g != guild for g in placed) else 0)
        score(state, seat, vp, words.why("reeve"))


@options_for("reeve")
def reeve_options(state: State, dec: dict) -> list[dict]:
    """Leave a reeve in this guild or keep it."""
    return [{"type": "reeve", "place": True}, {"type": "reeve", "place": False}]


@resolver_for("reeve")
def reeve(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Place the reeve (or not) and score the reeve bonus."""
    pop(state)
    if move["place"]:
        state["ps"][dec["seat"]]["reeves"].append(dec["guild"])
        state["guilds"][dec["guild"]]["reeves"].append(dec["seat"])
    bonus(state, dec["seat"], dec["guild"])
