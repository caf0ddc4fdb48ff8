"""Monsters (B10, [A-29]): Tame the Beast, pilfering and defeating the behemoth and sea serpent.

The two monsters keep their route limits from the fragment, carried over to the guilds
[A-61]: the behemoth (roads and flying-machine routes) goes anywhere and pilfers from the
Merchant market or an Alchemist cart/pile, as A-29 says; the sea serpent (ship and
submersible routes only) pilfers only at the Alchemist guild, the one board with water
routes (its vessel space over the ferryboat symbol, where ships and submersibles are built).
Monsters are no pawns: they give no status stars, eat nothing and influence nothing.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import guilds, words
from games.feudum_guilds.components import GOODS
from games.feudum_guilds.flow import log, options_for, pop, push, resolver_for
from games.rng import GameRandom

State = dict[str, Any]


@options_for("tame")
def tame_options(state: State, dec: dict) -> list[dict]:
    """Free monsters to tame, or decline."""
    moves = [{"type": "tame", "monster": m} for m, owner in state["monsters"].items()
             if owner is None]
    return moves + [{"type": "decline"}]


@resolver_for("tame")
def tame(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Return 3 markers from the Knight trade: 2 to the supply, 1 onto the monster's icon."""
    pop(state)
    if move["type"] == "decline":
        return
    seat = dec["seat"]
    p = state["ps"][seat]
    p["markers"] -= 3
    state["marker_supply"][str(seat)] += 2
    state["monsters"][move["monster"]] = seat
    log(state, words.line("tames", who=p["name"], monster=move["monster"]))


def start_defeat(state: State, seat: int, monster: str) -> None:
    """Defeat a monster as a Guild action at the Knight guild (1 saltpeter + 1 food)."""
    push(state, {"kind": "after_guild", "seat": seat, "guild": "knight", "function": "defeat",
                 "feast": False, "stage": 0})
    guilds.defeat(state, seat, monster)


PILFER_FROM = {"behemoth": ("market", "alchemist"), "sea_serpent": ("alchemist",)}


def pilfer_sources(state: State, monster: str) -> list[dict]:
    """Goods this monster could pilfer: the market (rightmost bin) or an Alchemist cart or
    pile for the behemoth; only the Alchemist for the sea serpent [A-29][A-61]."""
    return [{"type": "pilfer", "from": where, "good": g}
            for where in PILFER_FROM[monster] for g in GOODS if state[where][g]]


def pilfer_monsters(state: State, seat: int) -> list[str]:
    """Monsters ``seat`` controls that have not pilfered this round and have something to take."""
    return [m for m, owner in state["monsters"].items()
            if owner == seat and not state["monster_used"][m] and pilfer_sources(state, m)]


@options_for("pilfer")
def pilfer_options(state: State, dec: dict) -> list[dict]:
    """Goods the monster may pilfer, or decline."""
    return pilfer_sources(state, dec["monster"]) + [{"type": "decline"}]


@resolver_for("pilfer")
def pilfer(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Once per round per monster, after a Guild action, take 1 good into your supply."""
    pop(state)
    if move["type"] == "decline":
        return
    state["monster_used"][dec["monster"]] = True
    state[move["from"]][move["good"]] -= 1
    state["ps"][dec["seat"]]["goods"][move["good"]] += 1
    log(state, words.line("pilfers", monster=dec["monster"], good=move["good"]))
