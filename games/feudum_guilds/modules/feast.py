"""Feast (B10, [A-28]): pay 1 sulfur from the wine barrel to perform a seat-holder's function.

The feaster must hold at least 1 star in that guild; he scores the holder's normal vp +3 and
takes the holder's purse/coffer share.  Reeves never score for a feaster.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import guilds, status, words
from games.feudum_guilds.components import GUILDS
from games.feudum_guilds.flow import score
from games.rng import GameRandom

State = dict[str, Any]
FEAST_BONUS = 3


def moves(state: State, seat: int, exclude: list[str]) -> list[dict]:
    """Feasts the seat may hold now (with a Guild card)."""
    if state["ps"][seat]["barrel"] < 1:
        return []
    out = []
    for guild in GUILDS:
        if guild in exclude or status.stars(state, seat, guild) < 1:
            continue
        for function in ("pull", "push"):
            holder = status.holder(state, guild, guilds.ROLE[function])
            if holder is None or holder == seat:
                continue
            if guilds.possible(state, seat, guild, function):
                out.append({"type": "feast", "guild": guild, "function": function})
    return out


def perform(state: State, seat: int, move: dict, rng: GameRandom) -> None:
    """Pay the sulfur, score the feast bonus and perform the function as the feaster."""
    p = state["ps"][seat]
    p["barrel"] -= 1
    state["haversack"]["sulfur"] += 1
    score(state, seat, FEAST_BONUS, words.why("feast"))
    guilds.start(state, seat, move["guild"], move["function"], rng, feast=True)
