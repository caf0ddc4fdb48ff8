"""The Virtue track: its icons, Debts below 0 and destroyed Debts above 14."""

from __future__ import annotations

from typing import Any

State = dict[str, Any]
TOP = 14

VP = {0: -9, 1: -8, 2: -7, 3: -5, 4: -3, 5: -1, 6: 0, 7: 0, 8: 0, 9: 0,
      10: 1, 11: 2, 12: 3, 13: 5, 14: 7}


def tax_relief(level: int) -> int:
    """Tax ignored on every cost: 2 at Virtue 0-1, 1 at 2-3, else 0."""
    if level <= 1:
        return 2
    if level <= 3:
        return 1
    return 0


def may_use_black_market(level: int) -> bool:
    """Virtue 10 or more bans the Black Market."""
    return level < 10


def may_work_on_cathedral(level: int) -> bool:
    """Virtue 4 or less bans work on the Cathedral."""
    return level > 4


def end_vp(level: int) -> int:
    """VP for the final position on the track."""
    return VP[level]


def change(state: State, p: int, amount: int) -> None:
    """Move the marker; above 14 destroys unpaid Debts, below 0 takes Debts."""
    pl = state["players"][p]
    level = pl["virtue"] + amount
    if level > TOP:
        excess = level - TOP
        pl["debts"] -= min(excess, pl["debts"])
        level = TOP
    elif level < 0:
        for _ in range(-level):
            take_debt(state, p)
        level = 0
    pl["virtue"] = level


def take_debt(state: State, p: int) -> None:
    """Take 1 unpaid Debt (Hugo pays 2 Silver instead when he can)."""
    pl = state["players"][p]
    if pl.get("character") == "Hugo" and pl["silver"] >= 2:
        pl["silver"] -= 2
        return
    pl["debts"] += 1
