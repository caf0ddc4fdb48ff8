"""The hidden choice between two fists (B6, [A-19]).

The lowest- and highest-valued rosary beads are taken; the next player clockwise secretly
puts one in each fist (``divide``), then the acting player picks a fist (``pick``).  Which
bead is in which fist is in no view but the divider's until the pick.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.feudum_guilds.board import next_clockwise
from games.feudum_guilds.flow import options_for, pop, push, resolver_for
from games.rng import GameRandom

State = dict[str, Any]
# purpose -> what happens to the chosen bead: fn(state, actor, bead, ctx, rng)
RESOLVERS: dict[str, Callable[[State, int, int, dict, GameRandom], None]] = {}


def offer(state: State, actor: int, purpose: str, ctx: dict, rng: GameRandom) -> None:
    """Take the low and high beads from the rosary and start the hidden choice."""
    rosary = state["rosary"]
    if len(rosary) == 1:
        bead = rosary.pop()
        RESOLVERS[purpose](state, actor, bead, ctx, rng)
        return
    values = state["tokens"]
    low = min(rosary, key=lambda t: (values[t], rosary.index(t)))
    high = max((t for t in rosary if t != low), key=lambda t: (values[t], -rosary.index(t)))
    rosary.remove(low)
    rosary.remove(high)
    push(state, {"kind": "fist_divide", "seat": next_clockwise(state, actor), "actor": actor,
                 "purpose": purpose, "beads": [low, high], "ctx": ctx})


@options_for("fist_divide")
def divide_options(state: State, dec: dict) -> list[dict]:
    """The divider puts the low bead in the left or the right fist."""
    return [{"type": "divide", "left": "low"}, {"type": "divide", "left": "high"}]


@resolver_for("fist_divide")
def divide(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Hide the beads in the fists; the acting player picks next."""
    pop(state)
    low, high = dec["beads"]
    left, right = (low, high) if move["left"] == "low" else (high, low)
    push(state, {"kind": "fist_pick", "seat": dec["actor"], "divider": dec["seat"],
                 "purpose": dec["purpose"], "fists": [left, right], "ctx": dec["ctx"]})


@options_for("fist_pick")
def pick_options(state: State, dec: dict) -> list[dict]:
    """The acting player picks the left or the right fist."""
    return [{"type": "pick", "fist": "left"}, {"type": "pick", "fist": "right"}]


@resolver_for("fist_pick")
def pick(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Reveal the chosen fist; the other bead returns to the rosary."""
    pop(state)
    left, right = dec["fists"]
    chosen, other = (left, right) if move["fist"] == "left" else (right, left)
    state["rosary"].append(other)
    RESOLVERS[dec["purpose"]](state, dec["seat"], chosen, dec["ctx"], rng)
