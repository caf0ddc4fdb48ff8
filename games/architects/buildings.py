"""Constructing Buildings, and each Building's immediate or end-game effect by card id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.architects import apprentices, captures, payments, supply, virtue
from games.architects.cards import building

State = dict[str, Any]
Pending = dict[str, Any] | None


def _gain(goods: dict[str, int]) -> Callable[[State, int], Pending]:
    def effect(state: State, p: int) -> Pending:
        supply.gain(state, p, goods)
        return None
    return effect


def _choice(*options: str) -> Callable[[State, int], Pending]:
    def effect(state: State, p: int) -> Pending:
        return {"kind": "choice", "options": list(options)}
    return effect


def _tavern(state: State, p: int) -> Pending:
    if any(c is not None for row in state["workshop"] for c in row):
        return {"kind": "free_hire"}
    return None


def _watchtower(state: State, p: int) -> Pending:
    for q in range(len(state["players"])):
        if state["prison"][q] >= 3:
            virtue.change(state, q, -1)
    return None


def _captures(count: int, max_locs: int) -> Callable[[State, int], Pending]:
    def effect(state: State, p: int) -> Pending:
        return {"kind": "capture", "left": count, "locs": [], "max_locs": max_locs,
                "paid": False, "made": 0}
    return effect


def _betting_house(state: State, p: int) -> Pending:
    virtue.take_debt(state, p)
    return None


def _church(state: State, p: int) -> Pending:
    pl = supply.player(state, p)
    if pl["debts"]:
        pl["debts"] -= 1
    return None


def _hideout(state: State, p: int) -> Pending:
    captures.release_prison(state, p)
    return None


def _library(state: State, p: int) -> Pending:
    return {"kind": "library"} if supply.player(state, p)["hand"] else None


def _monument(state: State, p: int) -> Pending:
    for q in range(len(state["players"])):
        virtue.change(state, q, 1)
    return None


def _palace(state: State, p: int) -> Pending:
    supply.gain(state, p, {"gold": supply.player(state, p)["virtue"] // 4})
    return None


def _crane(state: State, p: int) -> Pending:
    return {"kind": "crane"} if supply.player(state, p)["workers"] else None


def _graveyard(state: State, p: int) -> Pending:
    return {"kind": "dismiss"} if supply.player(state, p)["apprentices"] else None


IMMEDIATE: dict[int, Callable[[State, int], Pending]] = {
    1: _gain({"stone": 4}),            # Smithy
    4: _tavern,                        # Tavern: hire any face-up Apprentice free
    5: _gain({"silver": 4}),           # Thieves' Den
    8: _choice("gold", "silver"),      # Treasury: 1 Gold or 3 Silver
    10: _watchtower,                   # Watchtower
    11: _gain({"clay": 4}),            # Well
    14: _captures(1, 1),               # Armoury
    15: _choice("capture", "release"),  # Barracks
    16: _betting_house,                # Betting House: take 1 Debt
    20: _church,                       # Church: destroy 1 unpaid Debt
    22: _choice("gold", "marble"),     # Clay Pit
    23: _gain({"building_cards": 2}),  # Drafting Room
    25: _gain({"marble": 2}),          # Factory
    26: _captures(2, 2),               # Fortress
    29: _hideout,                      # Hideout
    31: _library,                      # Library
    33: _gain({"wood": 4}),            # Lumber Camp
    36: _monument,                     # Monument
    38: _palace,                       # Palace
    41: _crane,                        # Crane (promo)
    42: _graveyard,                    # Graveyard (promo)
}

CHOICE_GOODS = {(8, "gold"): {"gold": 1}, (8, "silver"): {"silver": 3},
                (22, "gold"): {"gold": 1}, (22, "marble"): {"marble": 1}}


# -- end-game effects -----------------------------------------------------------------------
def _precious(pl: dict[str, Any], kind: str) -> int:
    """Gold or Marble held; Therese counts both as one resource."""
    if pl.get("character") == "Therese":
        return pl["gold"] + pl["marble"]
    return pl[kind]


def _strictly_most(state: State, p: int, key: str) -> bool:
    mine = state["players"][p][key]
    return all(mine > pl[key] for q, pl in enumerate(state["players"]) if q != p)


def _skill_count(pl: dict[str, Any], skill: str) -> int:
    from games.architects.cards import apprentice
    return sum(1 for cid in pl["apprentices"] if skill in apprentice(cid)["skills"])


# Virtue gained or lost before scoring (resolved first, in card order).
END_VIRTUE: dict[int, Callable[[State, int], int]] = {
    7: lambda s, p: sum(s["players"][p][k] for k in ("clay", "wood", "stone")) // 4,  # Trading Post
    18: lambda s, p: _precious(s["players"][p], "gold") // 2,                       # Castle
    19: lambda s, p: 2 if _strictly_most(s, p, "cathedral") else 0,                   # Chapel
    24: lambda s, p: -2,                                                              # Dungeon
    37: lambda s, p: _precious(s["players"][p], "marble") // 2,                     # Observatory
    39: lambda s, p: s["players"][p]["paid_debts"] // 2,                              # Reservoir
    43: lambda s, p: len(s["players"][p]["buildings"]) // 2,                          # Museum
}

# Extra VP at scoring time.
END_VP: dict[int, Callable[[State, int], int]] = {
    2: lambda s, p: 2 if _strictly_most(s, p, "cathedral") else 0,                   # Steeple
    3: lambda s, p: 2 if _strictly_most(s, p, "stone") else 0,                       # Stone Market
    6: lambda s, p: _skill_count(s["players"][p], "Tiling"),                         # Tiler's Hut
    9: lambda s, p: 2 if s["players"][p]["debts"] == 0 else 0,                       # University
    12: lambda s, p: 2 if _strictly_most(s, p, "wood") else 0,                       # Wood Market
    13: lambda s, p: len(s["players"][p]["buildings"]),                              # Aqueduct
    17: lambda s, p: _skill_count(s["players"][p], "Carpentry"),                     # Carpenter
    21: lambda s, p: 2 if _strictly_most(s, p, "clay") else 0,                       # Clay Market
    30: lambda s, p: sum(s["players"][p]["captured"]) // 3,                          # Keep
    32: lambda s, p: s["players"][p]["virtue"] // 4,                                 # Lighthouse
    34: lambda s, p: _skill_count(s["players"][p], "Masonry"),                       # Mason
    35: lambda s, p: s["players"][p]["paid_debts"],                                  # Moneylender
    40: lambda s, p: 2 if _strictly_most(s, p, "silver") else 0,                     # Silver Market
}

# VP per unpaid Debt modifiers: Fountain 1 less, Gambler's Den 1 more.
DEBT_VP_DELTA = {27: 1, 28: -1}


def debt_vp(pl: dict[str, Any]) -> int:
    """VP per unpaid Debt for this player (normally -2)."""
    return -2 + sum(DEBT_VP_DELTA.get(cid, 0) for cid in pl["buildings"])


# -- constructing ---------------------------------------------------------------------------
def build_options(state: State, p: int) -> list[tuple[int, dict[str, int]]]:
    """(card, payment) pairs the player can construct now."""
    pl = supply.player(state, p)
    have = apprentices.skills(pl)
    out = []
    for cid in pl["hand"]:
        card = building(cid)
        if not set(card["skills"]) <= have:
            continue
        for pay in payments.options(state, p, [card["cost"]]):
            out.append((cid, pay))
    return out


def construct(state: State, p: int, cid: int, pay: dict[str, int]) -> Pending:
    """Pay, display the Building, apply its Virtue flag and immediate effect."""
    pl = supply.player(state, p)
    pl["hand"].remove(cid)
    supply.pay(pl, pay)
    pl["buildings"].append(cid)
    virtue.change(state, p, building(cid)["virtue"])
    if pl.get("character") == "Clovis":
        supply.draw(state, p, 1)
    effect = IMMEDIATE.get(cid)
    return effect(state, p) if effect else None
