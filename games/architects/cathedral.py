"""Advancing work on the Cathedral: level costs, spaces, discard and Reward cards."""

from __future__ import annotations

from typing import Any

from games.architects import apprentices, cards, payments, supply, virtue

State = dict[str, Any]


def levels() -> list[dict[str, Any]]:
    """The 5 Cathedral levels (cost options, VP, spaces)."""
    return cards.board()["cathedral"]


def vp(level: int) -> int:
    """End-game VP for a Cathedral level (0 below the first level)."""
    return levels()[level - 1]["vp"] if level else 0


def has_space(state: State, level: int) -> bool:
    """True if a marker may still move into ``level`` (1-5)."""
    if level > len(levels()):
        return False
    here = sum(1 for pl in state["players"] if pl["cathedral"] == level)
    return here < levels()[level - 1]["spaces"]


def payment_options(state: State, p: int) -> list[dict[str, int]]:
    """Payments that let the player advance now ([] if not allowed at all)."""
    pl = supply.player(state, p)
    nxt = pl["cathedral"] + 1
    if not has_space(state, nxt) or not virtue.may_work_on_cathedral(pl["virtue"]):
        return []
    if not pl["hand"] and pl.get("character") != "Frederick":
        return []
    return payments.options(state, p, levels()[nxt - 1]["cost_options"])


def advance(state: State, p: int, pay: dict[str, int]) -> bool:
    """Pay and move the marker up; True if a Building card must now be discarded."""
    pl = supply.player(state, p)
    supply.pay(pl, pay)
    pl["cathedral"] += 1
    if pl.get("character") == "Frederick":
        reward(state, p)
        return False
    return True


def discard(state: State, p: int, card: int) -> None:
    """Discard a Building card face down to the bottom of the pile, then take the reward."""
    pl = supply.player(state, p)
    pl["hand"].remove(card)
    state["deck"].append(card)
    reward(state, p)


def reward(state: State, p: int) -> None:
    """Reveal the top Reward card (or gain 1 Virtue if none are left); Acolyte bonuses."""
    if state["rewards"]:
        card = state["rewards"].pop(0)
        state["rewards_used"].append(card)
        supply.gain(state, p, cards.board()["reward_cards"][card])
    else:
        supply.gain(state, p, {"virtue": 1})
    bonus = apprentices.goods_bonus(supply.player(state, p), "cathedral")
    if bonus:
        supply.gain(state, p, bonus)
