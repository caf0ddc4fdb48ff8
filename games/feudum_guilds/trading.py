"""The trading procedure and its shares (A5, B6), the farmer's purse and the church coffer."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.components import C
from games.feudum_guilds.status import holder

State = dict[str, Any]


def charity_box(guild: str) -> str:
    """Where a trade's charity share goes [A-21]: ``coffer`` or ``purse``."""
    return C["charity"][guild]


def pay_shares(state: State, buyer: int, guild: str, price: int, paid_before: int = 0) -> None:
    """Pay ``price`` shillings 1 at a time to master, journeyman, charity, master, ...

    ``paid_before`` continues the cycle of an earlier part of the same trade.  An absent
    master's or journeyman's share goes to the general supply; charity is always paid.
    The buyer must hold the whole price (a member pays himself, but must have it all).
    """
    p = state["ps"][buyer]
    if p["shillings"] < price:
        raise AssertionError("buyer cannot pay")
    p["shillings"] -= price
    for i in range(paid_before, paid_before + price):
        share = i % 3
        if share == 2:
            state[charity_box(guild)] += 1
            continue
        receiver = holder(state, guild, share)
        if receiver is not None:
            state["ps"][receiver]["shillings"] += 1


def split_box(state: State, box: str, guild: str, beneficiary: int) -> tuple[int, int]:
    """Split the purse/coffer: the beneficiary (the master, or a feaster) keeps the odd shilling.

    The journeyman takes the other half; with no journeyman that half stays in the box.
    Returns (master share, journeyman share).
    """
    total = state[box]
    master_share = (total + 1) // 2
    journey_share = total // 2
    journeyman = holder(state, guild, 1)
    state["ps"][beneficiary]["shillings"] += master_share
    state[box] = 0
    if journeyman is None:
        state[box] = journey_share
        journey_share = 0
    else:
        state["ps"][journeyman]["shillings"] += journey_share
    return master_share, journey_share
