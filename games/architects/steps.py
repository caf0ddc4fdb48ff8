"""Moves as clicks on the picture (``targets``) and as choices made one by one (``steps``).

Target names, as the picture draws them:

* ``loc:<location>`` a large location on the main board (and ``loc:guildhall``);
* ``bm:<0|1|2>`` a Black Market space (A, B, C);
* ``workers:<location>:<player>`` one colour's Workers at a large location;
* ``ws:<row>:<col>`` a Workshop space; ``app:<card>`` a hired Apprentice;
* ``card:<card>`` a Building card the viewer may see (draft pool, drawn cards, hand);
* ``deck:buildings`` the Building pile; ``cathedral`` the Cathedral;
* ``mine:captured``, ``mine:prison``, ``mine:debts`` the viewer's own captured Workers,
  Prisoners and unpaid Debts (a picture is drawn for one seat, so "mine" is enough).
"""

from __future__ import annotations

from typing import Any

from games.architects import apprentices, black_market, locations, presentation
from games.architects import words as w
from games.architects.cards import apprentice
from games.architects.presentation import goods_title
from games.text import T

State = dict[str, Any]
Move = dict[str, Any]
RESOURCE_ORDER = ("silver", "clay", "wood", "stone", "gold", "marble")
GUARD_STEP = {
    "send": T("Send your captured Workers to Prison (gain 1 Silver each)"),
    "release_prison": T("Release your Workers from Prison"),
    "release_boards_silver": T("Release your Workers from other boards for 5 Silver (2 Tax)"),
    "release_boards_debt": T("Release your Workers from other boards for 1 Debt and 1 "
                             "Virtue"),
    "pay_debt": T("Pay off 1 Debt for 6 Silver (3 Tax); +1 Virtue"),
}
GUARD_TARGET = {"send": "mine:captured", "release_prison": "mine:prison",
                "pay_debt": "mine:debts"}


def targets(move: Move) -> list[str]:
    """The picture shapes ``move`` acts on ([] for Done, Pass and a Building's choice)."""
    t = move.get("type")
    if t == "place":
        if move["location"] == "black_market":
            return [f"bm:{move['space']}"]
        return [f"loc:{move['location']}"]
    if t == "recall":
        return [f"loc:{move['location']}"]
    if t == "capture":
        return [f"workers:{move['location']}:{move['player']}"]
    if t == "hire":
        out = [f"ws:{move['row']}:{move['col']}"]
        if "discard" in move:
            out.append(f"app:{move['discard']}")
        return out
    if t == "plans":
        return ["deck:buildings"]
    if t in ("draft", "keep", "discard", "build"):
        return [f"card:{move['card']}"]
    if t == "cathedral":
        return ["cathedral"]
    if t == "trade":
        if move["trade"] == "apprentice":
            return [f"app:{move['card']}"]
        return ["loc:storehouse"]
    if t == "guard":
        extra = GUARD_TARGET.get(move["action"])
        return ["loc:guardhouse"] + ([extra] if extra else [])
    if t == "dismiss":
        return [f"app:{move['card']}"]
    return []


def payment_steps(pay: dict[str, int]) -> list[dict[str, Any]]:
    """A payment as one unordered pick: one step per resource ("3 Stone", "1 Wood")."""
    return [{"label": w.fmt("%(n)s %(what)s", n=pay[k], what=w.resource_title(k)),
             "group": "pay"} for k in RESOURCE_ORDER if pay.get(k)]


def _space_label(state: State, space: int) -> Any:
    letter = "ABC"[space]
    if space == 1:
        return T("Space %(space)s: 2 Silver, hire any Apprentice or draw 5 Building cards",
                 space=letter)
    return T("Space %(space)s: %(price)s Silver for %(goods)s", space=letter,
             price=space + 1, goods=goods_title(black_market.offer(state, space)))


def steps(state: State, seat: int, move: Move) -> list[dict[str, Any]]:
    """``move`` as the choices a player makes, coarse to fine.  The first step is the
    kind of action; resource payments are one ``pay`` group picked in any order."""
    t = move.get("type")
    if t == "place":
        loc = move["location"]
        first = {"label": T("Place a Worker")}
        if loc == "black_market":
            return [first, {"label": locations.NAMES[loc]},
                    {"label": _space_label(state, move["space"])}]
        if loc == "mines":
            take = T("Take Clay (1 + 1 Clay per Worker)") if move["take"] == "clay" else \
                T("Take Gold (1 Gold per 2 Workers)")
            return [first, {"label": locations.NAMES[loc]}, {"label": take}]
        return [first, {"label": locations.NAMES[loc]}]
    if t == "build":
        return [{"label": T("Construct a Building")},
                {"label": presentation.building_details(move["card"])},
                *payment_steps(move["pay"])]
    if t == "cathedral":
        level = state["players"][seat]["cathedral"] + 1
        from games.architects.cathedral import vp
        return [{"label": T("Work on the Cathedral")},
                {"label": T("Level %(level)s (%(vp)s VP)", level=level, vp=vp(level))},
                *payment_steps(move["pay"])]
    if t == "trade":
        first = {"label": T("Trade at the King's Storehouse")}
        if move["trade"] == "apprentice":
            pay, gain = apprentices.ABILITIES[move["card"]]["trade"]
            name = apprentice(move["card"])["name"]
            return [first, {"label": T("%(name)s's trade: %(pay)s for %(gain)s", name=name,
                                       pay=goods_title(pay), gain=goods_title(gain))}]
        gain = T("For 1 Virtue") if move["trade"] == "virtue" else T("For 1 Marble")
        return [first, {"label": gain}, *payment_steps(move["pay"])]
    if t == "hire":
        card = state["workshop"][move["row"]][move["col"]]
        what = presentation.apprentice_details(card) if card is not None else \
            T("an Apprentice")
        out = [{"label": T("Hire an Apprentice")},
               {"label": w.fmt("%(what)s (%(where)s)", what=what, where=T(
                   "row %(row)s, column %(col)s", row=move["row"] + 1, col=move["col"] + 1))}]
        if "discard" in move:
            out.append({"label": T("Dismiss %(card)s to make room",
                                   card=presentation.apprentice_name(move["discard"]))})
        return out
    if t in ("draft", "keep"):
        first = T("Keep a drafted Building card") if t == "draft" else \
            T("Keep a drawn Building card")
        return [{"label": first}, {"label": presentation.building_details(move["card"])}]
    if t == "discard":
        return [{"label": T("Discard a Building card")},
                {"label": presentation.building_details(move["card"])}]
    if t == "capture":
        pl = state["players"][move["player"]]
        n = state["board"][move["location"]][move["player"]]
        workers = w.workers(n)
        whose = T("Your own %(workers)s (back to your supply)", workers=workers) \
            if move["player"] == seat else \
            T("%(colour)s (%(name)s): %(workers)s", colour=w.colour_title(pl["colour"]),
              name=pl["name"], workers=workers)
        return [{"label": T("Capture Workers")},
                {"label": w.AT_TITLE[move["location"]]}, {"label": whose}]
    if t == "guard":
        action = GUARD_STEP[move["action"]] if move["action"] != "release_boards" else \
            GUARD_STEP[f"release_boards_{move['by']}"]
        return [{"label": T("Guardhouse action")}, {"label": action}]
    if t == "choose":
        return [{"label": T("Choose the Building's effect")},
                {"label": presentation.label(state, move)}]
    if t == "dismiss":
        return [{"label": T("Dismiss an Apprentice")},
                {"label": presentation.apprentice_details(move["card"])}]
    if t == "recall":
        return [{"label": T("Return a Worker")},
                {"label": w.FROM_TITLE[move["location"]]}]
    if t == "plans":
        return [{"label": presentation.move_label(state, move)}]
    return [{"label": presentation.label(state, move)}]
