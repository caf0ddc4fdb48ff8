"""Town Centre captures, the Guardhouse actions and the Prison."""

from __future__ import annotations

from typing import Any

from games.architects import apprentices, supply, virtue

State = dict[str, Any]

# The "large open circle" locations: open to everyone and targets for captures.
LARGE = ("quarry", "forest", "mines", "silversmith", "storehouse", "workshop",
         "town_centre", "tax_stand", "guardhouse")


def max_locations(state: State) -> int:
    """Captures may come from 2 locations with 1-3 players, 1 with 4+."""
    return 2 if len(state["players"]) <= 3 else 1


def capture_price(state: State, p: int, made: int) -> tuple[int, int]:
    """(plain, tax) Silver for the next Town Centre capture (first one is 1 Tax)."""
    if made == 0:
        return 0, 1
    return max(0, 1 - apprentices.count(supply.player(state, p), "capture_discount")), 0


def targets(state: State, p: int, pending: dict[str, Any]) -> list[dict[str, Any]]:
    """Legal capture moves for a capture step (``pending`` holds locs, max_locs, paid)."""
    out = []
    for loc in LARGE:
        if loc not in pending["locs"] and len(pending["locs"]) >= pending["max_locs"]:
            continue
        for q, n in enumerate(state["board"][loc]):
            if n:
                out.append({"type": "capture", "location": loc, "player": q})
    if out and pending["paid"]:
        plain, tax = capture_price(state, p, pending["made"])
        if not supply.can_pay_silver(state, p, plain, tax):
            return []
    return out


def capture(state: State, p: int, loc: str, q: int, pending: dict[str, Any] | None) -> None:
    """Take every Worker of colour ``q`` at ``loc``: to ``p``'s board, or home if own."""
    if pending is not None:
        if pending["paid"]:
            supply.pay_silver(state, p, *capture_price(state, p, pending["made"]))
        pending["made"] += 1
        pending["left"] -= 1
        if loc not in pending["locs"]:
            pending["locs"].append(loc)
    n = state["board"][loc][q]
    state["board"][loc][q] = 0
    if q == p:
        supply.player(state, p)["workers"] += n
    else:
        supply.player(state, p)["captured"][q] += n


def held_elsewhere(state: State, p: int) -> int:
    """How many of ``p``'s Workers sit captured on other players' boards."""
    return sum(pl["captured"][p] for pl in state["players"])


# -- Guardhouse -----------------------------------------------------------------------------
RELEASE_COST = (3, 2)
PAY_DEBT_COST = (3, 3)


def guard_moves(state: State, p: int) -> list[dict[str, Any]]:
    """The Guardhouse actions available now."""
    pl = supply.player(state, p)
    out = []
    if sum(pl["captured"]):
        out.append({"type": "guard", "action": "send"})
    if state["prison"][p]:
        out.append({"type": "guard", "action": "release_prison"})
    if held_elsewhere(state, p):
        if supply.can_pay_silver(state, p, *RELEASE_COST):
            out.append({"type": "guard", "action": "release_boards", "by": "silver"})
        out.append({"type": "guard", "action": "release_boards", "by": "debt"})
    if pl["debts"] and supply.can_pay_silver(state, p, *PAY_DEBT_COST):
        out.append({"type": "guard", "action": "pay_debt"})
    return out


def send_to_prison(state: State, p: int) -> int:
    """Send all captured Workers on p's board to Prison, 1 Silver each (Bertha +2)."""
    pl = supply.player(state, p)
    sent = sum(pl["captured"])
    for q, n in enumerate(pl["captured"]):
        state["prison"][q] += n
        pl["captured"][q] = 0
    pl["silver"] += sent
    if pl.get("character") == "Bertha" and sent:
        pl["silver"] += 2
    bonus = apprentices.goods_bonus(pl, "send_prison")
    if bonus and sent:
        supply.gain(state, p, bonus)
    return sent


def release_prison(state: State, p: int, count: int | None = None) -> int:
    """Release (up to ``count``, default all) of p's Workers from Prison to the board."""
    n = state["prison"][p] if count is None else min(count, state["prison"][p])
    state["prison"][p] -= n
    supply.player(state, p)["workers"] += n
    return n


def release_boards(state: State, p: int) -> int:
    """Bring all of p's Workers back from other players' boards."""
    total = 0
    for pl in state["players"]:
        total += pl["captured"][p]
        pl["captured"][p] = 0
    supply.player(state, p)["workers"] += total
    return total


def guard(state: State, p: int, action: str, by: str | None) -> None:
    """Resolve one Guardhouse action."""
    pl = supply.player(state, p)
    if action == "send":
        send_to_prison(state, p)
    elif action == "release_prison":
        release_prison(state, p)
    elif action == "release_boards":
        if by == "silver":
            supply.pay_silver(state, p, *RELEASE_COST)
        else:
            virtue.take_debt(state, p)
            virtue.change(state, p, -1)
        release_boards(state, p)
    elif action == "pay_debt":
        supply.pay_silver(state, p, *PAY_DEBT_COST)
        pl["debts"] -= 1
        pl["paid_debts"] += 1
        virtue.change(state, p, 1)
        bonus = apprentices.goods_bonus(pl, "pay_debt")
        if bonus:
            supply.gain(state, p, bonus)
