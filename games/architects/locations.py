"""Placing a Worker at each board location and resolving what it does at once."""

from __future__ import annotations

from typing import Any

from games.architects import (
    apprentices,
    black_market,
    buildings,
    captures,
    cathedral,
    guildhall,
    supply,
    virtue,
    words,
    workshop,
)

State = dict[str, Any]
Pending = dict[str, Any] | None
Move = dict[str, Any]

GATHER = {"quarry": "stone", "forest": "wood", "silversmith": "silver"}
NAMES = words.LOCATIONS  # keys to display names (Texts), board order


def workers_at(state: State, p: int, loc: str) -> int:
    """p's Workers at a large location."""
    return state["board"][loc][p]


def guildhall_choices(state: State, p: int) -> list[Move]:
    """What a Guildhall Worker can do: construct a Building or advance the Cathedral."""
    out: list[Move] = [{"type": "build", "card": cid, "pay": pay}
                       for cid, pay in buildings.build_options(state, p)]
    out += [{"type": "cathedral", "pay": pay} for pay in cathedral.payment_options(state, p)]
    return out


def guildhall_moves(state: State, p: int) -> list[Move]:
    """The Guildhall placement, offered only when there is something to construct."""
    if not guildhall.may_place(state) or not supply.player(state, p)["workers"]:
        return []
    return [{"type": "place", "location": "guildhall"}] if guildhall_choices(state, p) else []


def place_moves(state: State, p: int) -> list[Move]:
    """Every Worker placement open to ``p`` now."""
    if not supply.player(state, p)["workers"]:
        return []
    out: list[Move] = [{"type": "place", "location": loc}
                       for loc in ("quarry", "forest", "silversmith", "storehouse", "workshop",
                                   "town_centre", "guardhouse")]
    out.append({"type": "place", "location": "mines", "take": "clay"})
    if (workers_at(state, p, "mines") + 1) // 2 >= 1:
        out.append({"type": "place", "location": "mines", "take": "gold"})
    if state["tax"] > 0:
        out.append({"type": "place", "location": "tax_stand"})
    for space in range(black_market.SPACES):
        if black_market.may_place(state, p, space):
            out.append({"type": "place", "location": "black_market", "space": space})
    return out + guildhall_moves(state, p)


def place(state: State, p: int, move: Move) -> Pending:
    """Put the Worker down and resolve the location; return a pending choice, if any."""
    pl = supply.player(state, p)
    loc = move["location"]
    pl["workers"] -= 1
    if loc == "black_market":
        black_market.take_space(state, p, move["space"])
        return {"kind": "bm_b"} if move["space"] == 1 else None
    if loc == "guildhall":
        return _guildhall(state, p, move)
    state["board"][loc][p] += 1
    n = state["board"][loc][p]
    if loc in GATHER:
        goods = {GATHER[loc]: n + (0 if loc == "forest" else 1)}
        supply.gain(state, p, goods)
        bonus = apprentices.goods_bonus(pl, loc)
        if bonus:
            supply.gain(state, p, bonus)
        return None
    if loc == "mines":
        supply.gain(state, p, {"clay": n + 1} if move["take"] == "clay" else {"gold": n // 2})
        bonus = apprentices.goods_bonus(pl, "mines")
        if bonus:
            supply.gain(state, p, bonus)
        return None
    if loc == "storehouse":
        return {"kind": "storehouse", "left": n + apprentices.count(pl, "storehouse_extra")}
    if loc == "workshop":
        return {"kind": "workshop", "workers": n}
    if loc == "town_centre":
        return {"kind": "capture", "left": n, "locs": [],
                "max_locs": captures.max_locations(state), "paid": True, "made": 0}
    if loc == "tax_stand":
        pl["silver"] += state["tax"]
        state["tax"] = 0
        virtue.change(state, p, -max(0, 2 - apprentices.count(pl, "tax_stand_virtue")))
        bonus = apprentices.goods_bonus(pl, "tax_stand")
        if bonus:
            supply.gain(state, p, bonus)
        return None
    if loc == "guardhouse":
        return {"kind": "guardhouse", "left": n}
    raise AssertionError(loc)  # pragma: no cover


def take_guildhall_space(state: State, p: int) -> None:
    """Fill the next Guildhall space (or the side in the final round) with its effects."""
    n_players = len(state["players"])
    if guildhall.open_spaces(state) <= 0:
        state["guildhall_side"].append(p)
        return
    state["guildhall"].append(p)
    k = len(state["guildhall"])
    if k in guildhall.cull_spaces(n_players):
        workshop.cull(state)
    if k in guildhall.reset_spaces(n_players):
        state["reset_due"] = True
    if k == state["guildhall_size"]:
        state["final_turns"] = len(state["players"]) + 1


def _guildhall(state: State, p: int, move: Move) -> Pending:
    take_guildhall_space(state, p)
    return {"kind": "guildhall"}


def guildhall_work(state: State, p: int, move: Move) -> Pending:
    """Construct the chosen Building or advance the Cathedral with the chosen payment."""
    if move["type"] == "cathedral":
        if cathedral.advance(state, p, move["pay"]):
            return {"kind": "cathedral_discard"}
        return None
    return buildings.construct(state, p, move["card"], move["pay"])
