"""Ways to pay a resource cost: Lothaire's discount and Therese's Gold/Marble swap."""

from __future__ import annotations

from typing import Any

from games.architects import supply

State = dict[str, Any]


def _clean(cost: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in sorted(cost.items()) if v}


def options(state: State, p: int, cost_options: list[dict[str, int]]) -> list[dict[str, int]]:
    """Every distinct payment the player could make for one of ``cost_options`` and can afford."""
    pl = supply.player(state, p)
    ways = [_clean(c) for c in cost_options]
    if pl.get("character") == "Lothaire":
        cut = []
        for c in ways:
            for k in ("wood", "stone"):
                if c.get(k):
                    cut.append(_clean({**c, k: c[k] - 1}))
        ways = cut or ways
    if pl.get("character") == "Therese":
        swapped = []
        for c in ways:
            precious = c.get("gold", 0) + c.get("marble", 0)
            for gold in range(precious + 1):
                swapped.append(_clean({**c, "gold": gold, "marble": precious - gold}))
        ways = swapped
    out: list[dict[str, int]] = []
    for c in ways:
        if c not in out and supply.has(pl, c):
            out.append(c)
    return out
