"""End-game effects, every scoring line, and the tie-breaks."""

from __future__ import annotations

from typing import Any

from games.architects import buildings, cathedral, virtue
from games.architects.cards import building

State = dict[str, Any]


def end_effects(state: State) -> None:
    """Virtue changes of end-game Buildings (resolved before scoring, in card order)."""
    for q, pl in enumerate(state["players"]):
        for cid in sorted(pl["buildings"]):
            effect = buildings.END_VIRTUE.get(cid)
            if effect:
                virtue.change(state, q, effect(state, q))


def lines(state: State, q: int) -> dict[str, int]:
    """The scoring lines for one player (the automaton's own lines for it)."""
    pl = state["players"][q]
    if pl["bot"]:
        per = 3 if state["automaton"]["level"] == "helena" else 1
        return {
            "guildhall": per * (state["guildhall"] + state["guildhall_side"]).count(q),
            "cathedral": cathedral.vp(pl["cathedral"]),
            "virtue": virtue.end_vp(pl["virtue"]),
            "debts": -2 * pl["debts"],
            "gold_marble": pl["marble"],
            "silver": 0,
            "prison": -(state["prison"][q] // 2),
        }
    bonus = sum(buildings.END_VP[cid](state, q) for cid in pl["buildings"]
                if cid in buildings.END_VP)
    return {
        "buildings": sum(building(cid)["vp"] for cid in pl["buildings"]) + bonus,
        "cathedral": cathedral.vp(pl["cathedral"]),
        "virtue": virtue.end_vp(pl["virtue"]),
        "debts": buildings.debt_vp(pl) * pl["debts"],
        "gold_marble": pl["gold"] + pl["marble"],
        "silver": pl["silver"] // 10,
        "prison": -(state["prison"][q] // 2),
    }


def final(state: State) -> dict[str, Any]:
    """Resolve end effects, score everyone and rank: VP, then Virtue, then Silver."""
    end_effects(state)
    per_player = [lines(state, q) for q in range(len(state["players"]))]
    totals = [sum(x.values()) for x in per_player]
    keys = [(totals[q], pl["virtue"], pl["silver"]) for q, pl in enumerate(state["players"])]
    order = sorted(range(len(keys)), key=lambda q: keys[q], reverse=True)
    places, last, place = [], None, 0
    for i, q in enumerate(order):
        if keys[q] != last:
            place, last = i + 1, keys[q]
        places.append((q, place))
    return {"totals": totals, "lines": per_player, "order": order,
            "places": {str(q): pl for q, pl in places}}
