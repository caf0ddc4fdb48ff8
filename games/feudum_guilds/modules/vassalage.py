"""Vassalage (B10, [A-30]): a feudum makes its ruler a vassal who owes military service.

A vassal covers the next of 3 catapult spaces by paying 1 saltpeter as tribute when
performing any function at the Knight guild.  At the dawn of epochs II, IV and V the k-th
check (k = 1, 2, 3) costs 3/4/5 vp for every space among the first k still uncovered [A-39].
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import words
from games.feudum_guilds.components import C
from games.feudum_guilds.flow import log, options_for, pop, resolver_for
from games.feudum_guilds.haversack import can_pay, pay
from games.rng import GameRandom

State = dict[str, Any]
CHECKS = {2: 1, 4: 2, 5: 3}


def is_vassal(p: dict) -> bool:
    """A player ruling at least one feudum."""
    return any(loc["kind"] == "feudum" for loc in p["locations"])


def owes_tribute(state: State, seat: int) -> bool:
    """Whether the player may pay tribute now."""
    p = state["ps"][seat]
    return is_vassal(p) and p["service"] < 3 and can_pay(p, {"saltpeter": 1})


@options_for("tribute")
def tribute_options(state: State, dec: dict) -> list[dict]:
    """Pay 1 saltpeter tribute or not."""
    return [{"type": "tribute", "pay": True}, {"type": "tribute", "pay": False}]


@resolver_for("tribute")
def tribute(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Pay the tribute: the vassal covers the next catapult space."""
    pop(state)
    if move["pay"]:
        p = state["ps"][dec["seat"]]
        pay(state, p, {"saltpeter": 1})
        p["service"] += 1
        log(state, words.line("tribute", who=p["name"], service=p["service"]))


def disloyalty(state: State, epoch: int) -> None:
    """At the dawn of II, IV and V, vassals lose vp for uncovered catapult spaces."""
    if epoch not in CHECKS:
        return
    k = CHECKS[epoch]
    per_space = C["disloyalty"][str(epoch)]
    for p in state["ps"]:
        if is_vassal(p):
            missing = max(0, k - p["service"])
            if missing:
                p["vp"] -= missing * per_space
                log(state, words.line("disloyalty", who=p["name"], vp=missing * per_space))
