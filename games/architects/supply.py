"""Resources, Silver, Tax and Building-card draws for one player."""

from __future__ import annotations

from typing import Any

from games.architects import virtue

RESOURCES = ("clay", "wood", "stone", "gold", "marble", "silver")
State = dict[str, Any]


def player(state: State, p: int) -> dict[str, Any]:
    """The player record at index ``p`` (the automaton, if any, is the last index)."""
    return state["players"][p]


def has(pl: dict[str, Any], goods: dict[str, int]) -> bool:
    """True if the player holds at least these resources."""
    return all(pl[k] >= v for k, v in goods.items() if v)


def pay(pl: dict[str, Any], goods: dict[str, int]) -> None:
    """Return these resources to the supply (caller checked ``has``)."""
    for k, v in goods.items():
        pl[k] -= v
        assert pl[k] >= 0, f"negative {k}"


def gain(state: State, p: int, goods: dict[str, int]) -> None:
    """Gain resources, Virtue (with track icons) and Building cards."""
    pl = player(state, p)
    for k, v in goods.items():
        if k in RESOURCES:
            pl[k] += v
        elif k == "virtue":
            virtue.change(state, p, v)
        elif k == "building_cards":
            draw(state, p, v)
        else:  # pragma: no cover - data error
            raise KeyError(k)


def draw(state: State, p: int, count: int) -> list[int]:
    """Draw Building cards from the top of the pile into the hand (fewer if it runs out)."""
    drawn = state["deck"][:count]
    del state["deck"][:count]
    player(state, p)["hand"].extend(drawn)
    return drawn


def tax_relief(state: State, p: int) -> int:
    """How many Tax this player ignores on every cost (Virtue track icons, Ada)."""
    pl = player(state, p)
    relief = virtue.tax_relief(pl["virtue"])
    if pl.get("character") == "Ada":
        relief += 1
    return relief


def silver_cost(state: State, p: int, plain: int, tax: int) -> tuple[int, int]:
    """(Silver to the supply, Silver to the Tax Stand) after tax relief."""
    return max(0, plain), max(0, tax - tax_relief(state, p))


def can_pay_silver(state: State, p: int, plain: int, tax: int) -> bool:
    """True if the player can pay this Silver cost."""
    a, b = silver_cost(state, p, plain, tax)
    return player(state, p)["silver"] >= a + b


def pay_silver(state: State, p: int, plain: int, tax: int) -> None:
    """Pay a Silver cost: the Tax part goes above the Tax Stand."""
    a, b = silver_cost(state, p, plain, tax)
    pl = player(state, p)
    pl["silver"] -= a + b
    assert pl["silver"] >= 0
    state["tax"] += b
