"""Human text: move labels, log lines (redacted) and the email summary."""

from __future__ import annotations

from typing import Any

from games.architects import black_market, locations, views
from games.architects import words as w
from games.architects.automaton import scheme_name
from games.architects.cards import apprentice, building
from games.text import T, Text, join

State = dict[str, Any]
Move = dict[str, Any]
# (the log has always written these three in lower case after the first letter)
GUARD = {"send": T("Send captured workers to prison"),
         "release_prison": T("Release from prison"),
         "pay_debt": T("Pay off 1 debt (6 silver, 3 tax)")}
CHOOSE = {"gold": T("Take 1 Gold"), "silver": T("Take 3 Silver"),
          "marble": T("Take 1 Marble"), "capture": T("Make 1 capture"),
          "release": T("Release your captured Workers")}


def goods(g: dict[str, int]) -> Text:
    """'2 wood, 1 gold'."""
    return w.goods(g)


def building_name(cid: int) -> Text:
    """A Building's name."""
    return building(cid)["name"]


def apprentice_name(cid: int) -> Text:
    """An Apprentice's name with its id (several share a name)."""
    card = apprentice(cid)
    return w.fmt("%(name)s #%(id)s (%(skills)s)", name=card["name"], id=cid,
                 skills=join(list(card["skills"]), "/"))


def label(state: State | None, move: Move, hidden: bool = False,
          names: list[str] | None = None) -> Any:
    """A short label; ``hidden`` redacts secret cards (for other seats' logs); ``names``
    (by seat) name the players when there is no ``state`` to tell their colours."""
    t = move.get("type")
    if t == "draft":
        return T("keeps a drafted Building card") if hidden else \
            T("Keep %(card)s", card=building_name(move["card"]))
    if t == "place":
        loc = move["location"]
        if loc == "mines":
            return T("Mines: take %(what)s", what=w.resource(move["take"]))
        if loc == "black_market":
            letter = "ABC"[move["space"]]
            if state is not None and move["space"] != 1:
                return T("Black Market space %(space)s (%(goods)s)", space=letter,
                         goods=goods(black_market.offer(state, move["space"])))
            return T("Black Market space %(space)s", space=letter)
        if loc == "guildhall":
            return T("Guildhall (construct a Building or work on the Cathedral)")
        return locations.NAMES[loc]
    if t == "build":
        return T("Construct %(card)s paying %(goods)s", card=building_name(move["card"]),
                 goods=goods(move["pay"]))
    if t == "cathedral":
        return T("Advance the Cathedral paying %(goods)s", goods=goods(move["pay"]))
    if t == "trade":
        if move["trade"] == "apprentice":
            from games.architects.apprentices import ABILITIES
            pay, gain = ABILITIES[move["card"]]["trade"]
            return T("Trade %(pay)s for %(gain)s", pay=goods(pay), gain=goods(gain))
        return T("Trade %(pay)s for %(gain)s", pay=goods(move["pay"]),
                 gain=w.fmt("1 %(what)s", what=w.resource(move["trade"])))
    if t == "hire":
        where = {"row": move["row"] + 1, "col": move["col"] + 1}
        card = None
        if state is not None:
            card = state["workshop"][move["row"]][move["col"]]
        text = T("Hire %(card)s (row %(row)s, column %(col)s)",
                 card=apprentice_name(card), **where) if card is not None else \
            T("Hire (row %(row)s, column %(col)s)", **where)
        if "discard" in move:
            text = T("%(hire)s, dismissing %(card)s", hire=text,
                     card=apprentice_name(move["discard"]))
        return text
    if t == "plans":
        return T("Work on Building plans (draw cards)")
    if t == "keep":
        return T("keeps 1 Building card") if hidden else \
            T("Keep %(card)s", card=building_name(move["card"]))
    if t == "discard":
        return T("discards a Building card") if hidden else \
            T("Discard %(card)s", card=building_name(move["card"]))
    if t == "capture":
        at = w.AT[move["location"]]
        if state is not None:
            colour = state["players"][move["player"]]["colour"]
            return T("Capture %(whose)s %(at)s",
                     whose=w.COLOUR_WORKERS.get(colour, f"the {colour} Workers"), at=at)
        return T("Capture %(whose)s %(at)s", whose=owner(move["player"], names), at=at)
    if t == "guard":
        if move["action"] == "release_boards":
            if move["by"] == "silver":
                return T("Release Workers from other boards for 5 Silver (2 Tax)")
            return T("Release Workers from other boards for 1 Debt and 1 Virtue")
        return GUARD[move["action"]]
    if t == "choose":
        return CHOOSE[move["option"]]
    if t == "dismiss":
        return T("Dismiss %(card)s", card=apprentice_name(move["card"]))
    if t == "recall":
        loc = move.get("location")
        return T("Return 1 Worker %(from)s",
                 **{"from": w.FROM.get(loc, f"from the {loc}")})
    if t == "pass":
        return T("Pass (no Worker can return)")
    if t == "done":
        return T("Done")
    return str(move)


def owner(player: int, names: list[str] | None) -> Text:
    """Whose Workers, for a log line (no state: the seats' names, and the Byzantine
    opponent, who sits after the seats): "Bo's Workers", "the Byzantine opponent's
    Workers"."""
    if names and 0 <= player < len(names):
        return T("%(name)s's Workers", name=names[player])
    if names:
        return T("the Byzantine opponent's Workers")
    return T("player %(n)s's Workers", n=player + 1)


def sees_card(state: State, seat: int | None, move: Move) -> bool:
    """True unless ``move`` names a secret Building card that ``seat`` may not see."""
    if move.get("type") not in ("draft", "keep", "discard") or "card" not in move:
        return True
    if not isinstance(seat, int) or not 0 <= seat < state["n"]:
        return False
    card = move["card"]
    if move["type"] == "draft":
        draft = state.get("draft")
        return bool(draft) and card in draft["pools"][seat]
    if move["type"] == "keep":
        pend = state.get("pending") or {}
        return state.get("current") == seat and card in pend.get("cards", [])
    return card in state["players"][seat]["hand"]


def describe(event: dict[str, Any], seat: int | None) -> Text:
    """One log line, with secret cards hidden from everyone but the actor."""
    actor = event.get("actor")
    names = event.get("names") or []
    name = names[actor] if isinstance(actor, int) and actor < len(names) else str(actor)
    move = (event.get("data") or {}).get("move") or {}
    hidden = seat != actor
    return w.fmt("%(name)s: %(label)s", name=name,
                 label=label(None, move, hidden=hidden, names=names))


def winners(state: State) -> list[int]:
    """Everyone in first place at the end, the Byzantine opponent included."""
    places = state["result"]["places"]
    return [q for q in range(len(state["players"])) if places[str(q)] == 1]


def result_line(state: State) -> Text:
    """Who won, in one sentence: 'Constantine (the Byzantine opponent) wins with 26 VP.'"""
    def who(q: int) -> Any:
        pl = state["players"][q]
        return T("%(name)s (the Byzantine opponent)", name=pl["name"]) if pl["bot"] \
            else pl["name"]

    top = winners(state)
    score = state["result"]["totals"][top[0]]
    if len(top) == 1:
        return T("%(who)s wins with %(vp)s VP.", who=who(top[0]), vp=score)
    names = [who(q) for q in top]
    return T("Shared victory: %(names)s and %(last)s, %(vp)s VP each.",
             names=join(names[:-1]), last=names[-1], vp=score)


def summary(state: State, seat: int | None) -> Text:
    """A few plain-text lines for emails."""
    lines: list[Any] = []
    if state["phase"] == "draft":
        lines.append(T("Opening draft: keep 1 Building card and pass the rest."))
    elif state["phase"] == "play":
        cur = state["players"][state["current"]]["name"]
        lines.append(T("%(who)s to play. Guildhall %(filled)s/%(size)s. Tax Stand %(tax)s "
                       "Silver.", who=cur, filled=len(state["guildhall"]),
                       size=state["guildhall_size"], tax=state["tax"]))
        if state["final_turns"] is not None:
            lines.append(T("Final round!"))
        totals = views.running_scores(state)["totals"]
        scores = [_score(pl["name"], totals[q]) for q, pl in enumerate(state["players"])]
        lines.append(T("Score now: %(scores)s.", scores=join(scores)))
    else:
        res = state["result"]
        lines.append(T("Game over. %(result)s", result=result_line(state)))
        scores = [_placed(res["places"][str(q)], state["players"][q]["name"],
                          res["totals"][q]) for q in res["order"]]
        lines.append(T("Final scores: %(scores)s", scores=join(scores)))
    for q, pl in enumerate(state["players"]):
        lines.append(T(
            "%(name)s (%(colour)s): virtue %(virtue)s, silver %(silver)s, clay %(clay)s, "
            "wood %(wood)s, stone %(stone)s, gold %(gold)s, marble %(marble)s, debts "
            "%(debts)s, workers %(workers)s, prison %(prison)s, cathedral %(cathedral)s, "
            "buildings %(buildings)s", name=pl["name"], colour=w.colour(pl["colour"]),
            virtue=pl["virtue"], silver=pl["silver"], clay=pl["clay"], wood=pl["wood"],
            stone=pl["stone"], gold=pl["gold"], marble=pl["marble"], debts=pl["debts"],
            workers=pl["workers"], prison=state["prison"][q], cathedral=pl["cathedral"],
            buildings=len(pl["buildings"])))
    if seat is not None and seat < state["n"]:
        hand = state["players"][seat]["hand"]
        lines.append(T("Your hand: %(cards)s", cards=join([building_name(c) for c in hand])
                       if hand else T("empty")))
    if state.get("automaton") and state["automaton"]["last"] is not None:
        lines.append(T("Last Scheme: %(scheme)s",
                       scheme=scheme_name(state["automaton"]["last"])))
    return join(lines, "\n")


def _score(who: str, vp: int) -> Text:
    return T("%(name)s %(vp)s VP", name=who, vp=vp)


def _placed(place: int, who: str, vp: int) -> Text:
    return T("%(place)s. %(name)s %(vp)s VP", place=place, name=who, vp=vp)


# -- labels for the move form and the picture ------------------------------------------------
TIMING = w.TIMING


def goods_title(g: dict[str, int]) -> Text:
    """'2 Wood, 1 Gold, 3 Building cards' (resource names capitalised as on the cards)."""
    return w.goods_title(g)


def building_details(cid: int) -> Text:
    """'Smithy: 3 VP; cost 4 Clay, 2 Wood; needs Masonry; +1 Virtue; now: Gain 4 Stone'."""
    card = building(cid)
    parts: list[Any] = [T("%(vp)s VP", vp=card["vp"]),
                        T("cost %(goods)s", goods=goods_title(card["cost"]))]
    if card["skills"]:
        parts.append(T("needs %(skills)s", skills=w.and_list(list(card["skills"]))))
    if card["virtue"]:
        parts.append(T("%(n)s Virtue", n=w.signed(card["virtue"])))
    parts.append(w.fmt("%(when)s: %(effect)s",
                       when=TIMING.get(card["timing"], card["timing"]), effect=card["effect"]))
    return w.fmt("%(name)s: %(details)s", name=card["name"], details=join(parts, "; "))


def apprentice_details(cid: int) -> Text:
    """'Merchant #14 (Tiling): King's Storehouse trade: 1 Silver -> 3 Clay'."""
    card = apprentice(cid)
    text: Any = apprentice_name(cid)
    if card["virtue_on_hire"]:
        text = T("%(card)s, %(n)s Virtue on hire", card=text,
                 n=w.signed(card["virtue_on_hire"]))
    return w.fmt("%(card)s: %(ability)s", card=text, ability=card["ability"])


def move_label(state: State, move: Move, hidden: bool = False) -> Any:
    """The move form's label: the log's wording plus the details of an offered card."""
    t = move.get("type")
    if not hidden and t in ("draft", "keep", "discard") and "card" in move:
        # (their own messages: German puts the verb first before a card's details)
        if t == "discard":
            return T("Discard %(details)s", details=building_details(move["card"]))
        return T("Keep %(details)s", details=building_details(move["card"]))
    if t == "build":
        return T("Construct %(details)s — paying %(goods)s",
                 details=building_details(move["card"]), goods=goods_title(move["pay"]))
    if t == "plans" and state is not None:
        pend = state.get("pending") or {}
        if pend.get("kind") == "workshop":
            from games.architects.workshop import plans_count
            n = plans_count(pend["workers"])
            return T("Work on Building plans: draw %(cards)s", cards=w.building_cards(n))
        return T("Work on Building plans: draw 5 Building cards, keep 1")
    if t == "hire" and state is not None:
        card = state["workshop"][move["row"]][move["col"]]
        if card is not None:
            text = T("Hire %(details)s (row %(row)s, column %(col)s)",
                     details=apprentice_details(card), row=move["row"] + 1,
                     col=move["col"] + 1)
            if "discard" in move:
                text = T("%(hire)s, dismissing %(card)s", hire=text,
                         card=apprentice_name(move["discard"]))
            return text
    return label(state, move, hidden=hidden)
