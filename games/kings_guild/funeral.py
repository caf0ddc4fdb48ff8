"""The King's Funeral: a secret simultaneous bid for the King's Statue."""

from __future__ import annotations

from typing import Any

from games.kings_guild import guild, rooms
from games.kings_guild.pending import push

State = dict[str, Any]


def bidders(state: State) -> set[int]:
    """Seats that have not bid yet (all of them when the Funeral is drawn)."""
    funeral = state["funeral"]
    return {s for s in range(state["n"]) if str(s) not in funeral["bids"]}


def bid_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Any amount from 0 up to the coins ``seat`` has."""
    return [{"type": "bid", "amount": a} for a in range(guild.player(state, seat)["coins"] + 1)]


def place_bid(state: State, seat: int, amount: int) -> None:
    """Record a sealed bid; when the last one is in, reveal and resolve."""
    state["funeral"]["bids"][str(seat)] = amount
    if not bidders(state):
        _resolve(state)


def _resolve(state: State) -> None:
    """The single highest bidder pays and builds the Statue; a tie builds nothing. Then the
    empty quest slot is refilled."""
    funeral = state["funeral"]
    bids = {int(s): a for s, a in funeral["bids"].items()}
    best = max(bids.values())
    top = [s for s, a in bids.items() if a == best]
    winner = top[0] if len(top) == 1 else None
    if winner is not None and not rooms.positions(state, winner, rooms.STATUE, expand=False):
        winner = None
    state["funeral_result"] = {"bids": [bids[s] for s in range(state["n"])], "winner": winner,
                               "tie": len(top) > 1}
    state["funeral"] = None
    entries: list[dict[str, Any]] = []
    if winner is not None:
        entries.append({"kind": "place_room", "seat": winner, "room": rooms.STATUE,
                        "price": best})
    entries.append({"kind": "refill", "seat": state["current"], "slot": funeral["slot"]})
    push(state, *entries)
