"""The haversack (bag of goods): random draws and returns, and paying goods costs."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.components import GOODS
from games.rng import GameRandom

State = dict[str, Any]


def draw_good(state: State, rng: GameRandom) -> str | None:
    """Draw one random good from the haversack (None when it is empty)."""
    bag = state["haversack"]
    total = sum(bag.values())
    if total == 0:
        return None
    pick = rng.below(total)
    for good in GOODS:
        if pick < bag[good]:
            bag[good] -= 1
            return good
        pick -= bag[good]
    raise AssertionError("unreachable")


def draw_goods(state: State, count: int, rng: GameRandom) -> list[str]:
    """Draw up to ``count`` random goods (fewer if the haversack runs out)."""
    drawn = []
    for _ in range(count):
        good = draw_good(state, rng)
        if good is None:
            break
        drawn.append(good)
    return drawn


def take_good(state: State, good: str) -> bool:
    """Take one specific good from the haversack; False if none is left."""
    if state["haversack"][good] <= 0:
        return False
    state["haversack"][good] -= 1
    return True


def can_pay(player: dict[str, Any], cost: dict[str, int]) -> bool:
    """Whether the player can pay ``cost``; region tiles act as wild goods [A-33]."""
    short = sum(max(0, n - player["goods"][g]) for g, n in cost.items())
    return short <= len(player["tiles"])


def pay(state: State, player: dict[str, Any], cost: dict[str, int]) -> None:
    """Pay ``cost`` into the haversack; missing goods are paid with region tiles (lowest first)."""
    for good, n in cost.items():
        real = min(n, player["goods"][good])
        player["goods"][good] -= real
        state["haversack"][good] += real
        for _ in range(n - real):
            player["tiles"].sort()
            player["tiles"].pop(0)
            state["tiles_spent"] += 1


def empty_goods() -> dict[str, int]:
    """A goods dict with every good at zero."""
    return {g: 0 for g in GOODS}
