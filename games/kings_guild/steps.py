"""Every legal move as the choices a player makes, coarse to fine (``move_steps``).

The first step is the kind of action in the rulebook's words; the next ones narrow it down:
the quest, then its items; the specialist, then where it sits; the deck colours of a
Treasure Map. Unordered picks (the items of one quest crafted together, the two colours of
a Treasure Map, the starting resources) share a ``group`` so the page lets the player pick
them one at a time in any order. Two copies of one treasure in a hand are told apart by
their place among the copies ("Scroll of Riches, copy 2"), so distinct moves always have
distinct steps.
"""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards, guild, labels, quests, rooms, specialists, treasures
from games.kings_guild import words as w
from games.text import T, Text

State = dict[str, Any]
Move = dict[str, Any]
Step = dict[str, Any]


def _where(space: str) -> Text:
    return labels.where(space)


def _where_cap(space: str) -> Text:
    """``Above your guild`` or ``In your Kitchen``: a step of its own."""
    return T("Above your guild") if space == guild.TOP else T("In your %(room)s",
                                                               room=w.card(space))


def _copy(cards_in: list[str], card: str) -> Any:
    """The card's name, with ", copy k" when ``cards_in`` holds more than one of it."""
    name = cards.treasure_name(card)
    same = [c for c in cards_in if cards.treasure_name(c) == name]
    if len(same) > 1 and card in same:
        return T("%(card)s, copy %(n)s", card=w.card(name), n=same.index(card) + 1)
    return w.card(name)


def _treasure(card: str, cards_in: list[str], price: int | None = None) -> Text:
    t = cards.treasure(card)
    facts: list[Any] = [w.category(t["category"] or "treasure")]
    if price is not None:
        facts.append(T("sells for %(price)s", price=price))
    if t["prestige"]:
        facts.append(w.prestige(t["prestige"]))
    from games.text import join

    return T("%(card)s (%(facts)s): %(text)s", card=_copy(cards_in, card), facts=join(facts),
             text=w.card(t["text"]))


def _specialist(state: State, seat: int, sid: int, price: int | None) -> Text:
    s = cards.specialists()[sid]
    cost = T("free") if price is None else w.coins(price)
    return T("%(specialist)s (%(cost)s, %(prestige)s prestige): %(text)s",
             specialist=w.card(s["name"]), cost=cost, prestige=s["prestige"],
             text=w.card(s["text"]))


def _slot(state: State, slot: int) -> Text:
    return T("%(quest)s (slot %(n)s)", quest=w.card(cards.quest_name(
        state["quest_slots"][slot]["quest"])), n=slot + 1)


def steps(state: State, seat: int, move: Move) -> list[Step]:
    """The steps of one legal ``move`` of ``seat`` (see the module docstring)."""
    kind = move.get("type")
    hand = guild.player(state, seat)["hand"]
    top = state["pending"][-1] if state["pending"] else {}
    if kind == "craft":
        slot = state["quest_slots"][move["slot"]]
        quest = cards.quests()[slot["quest"]]
        toll = quests.thug_toll(state, seat, move["slot"])
        extra = T("; pay the Thug %(coins)s", coins=w.coins(toll)) if toll else ""
        out: list[Step] = [{"label": T("Craft")},
                           {"label": T("%(quest)s (slot %(n)s%(extra)s)",
                                       quest=w.card(quest["name"]), n=move["slot"] + 1,
                                       extra=extra)}]
        for i in sorted(move["items"]):
            item = quest["items"][i]
            cost = labels._cost(quests.item_cost(state, seat, slot["quest"], i))
            out.append({"label": T("%(item)s (%(type)s: pay %(cost)s; earn %(coins)s)",
                                   item=w.card(item["name"]), type=w.item_type(item["type"]),
                                   cost=cost, coins=w.coins(item["coins"])),
                        "group": "items"})
        return out
    if kind == "build":
        data = cards.rooms()[move["room"]]
        text = T(": %(text)s", text=w.card(data["text"])) if data.get("text") else ""
        return [{"label": T("Build a room")},
                {"label": T("%(room)s (%(cost)s, %(prestige)s prestige)%(text)s",
                            room=w.card(move["room"]), cost=w.coins(rooms.cost(move["room"])),
                            prestige=data["prestige"], text=text)}]
    if kind in ("hire", "hire_oldest"):
        if kind == "hire":
            contract = top.get("kind") == "contract"
            price: int | None = specialists.price(state, seat, move["index"],
                                                  expand=not contract)
            first = T("Hire a specialist (Contract)") if contract else T("Hire a specialist")
        else:
            price, first = None, T("Take the oldest specialist (Overseer)")
        out = [{"label": first}, {"label": _specialist(state, seat, move["specialist"], price)},
               {"label": _where_cap(move["space"])}]
        if "baggage" in move:
            out.append({"label": T("Baggage in your %(room)s", room=w.card(move["baggage"]))})
        return out
    if kind == "place":
        room = w.card(top["room"]) if "room" in top else T("room")
        return [{"label": T("Place the %(room)s", room=room)},
                {"label": T("Column %(x)s, row %(y)s%(extra)s", x=move["x"] + 1,
                            y=move["y"] + 1, extra=_bonus(state, seat, move))}]
    if kind in ("play", "sell"):
        price = treasures.sell_price(state, seat, move["card"]) if kind == "sell" else None
        first = T("Play a treasure") if kind == "play" else T("Sell a treasure")
        return [{"label": first}, {"label": _treasure(move["card"], hand, price)}]
    if kind in ("discard_treasure", "destroy_scroll"):
        first = T("Discard a treasure") if kind == "discard_treasure" else (
            T("Destroy a Scroll for both of its effects (Warlock)"))
        return [{"label": first}, {"label": _treasure(move["card"], hand)}]
    if kind == "keep":
        drawn = top.get("cards", []) if top.get("seat") == seat else []
        i = move["index"]
        what = _treasure(drawn[i], drawn) if 0 <= i < len(drawn) else T("treasure %(n)s",
                                                                          n=i + 1)
        return [{"label": T("Keep a treasure (pass the rest)")}, {"label": what}]
    if kind in ("draw", "choose_color"):
        return [{"label": T("Draw a treasure")}, {"label": w.COLOUR_DECKS[move["color"]]}]
    if kind == "map_colors":
        return [{"label": T("Draw two treasures (Treasure Map)")}] + [
            {"label": w.COLOUR_DECKS[c], "group": "colours"}
            for c in sorted(move["colors"], key=cards.COLORS.index)]
    if kind == "choose_resources":
        return [{"label": T("Choose your starting resources")}] + [
            {"label": w.resource(r), "group": "resources"}
            for r in sorted(move["resources"], key=cards.RESOURCES.index)]
    if kind == "take":
        return [{"label": T("Take a resource")}, {"label": w.amount(1, move["resource"])}]
    if kind == "gain":
        return [{"label": T("Gain a resource")}, {"label": w.resource(move["resource"])}]
    if kind == "spoil":
        return [{"label": T("Spoil a resource (every player loses 1)")},
                {"label": w.resource(move["resource"])}]
    if kind == "discard_resource":
        return [{"label": T("Discard a resource")}, {"label": w.amount(1, move["resource"])}]
    if kind == "transmute":
        return [{"label": T("Trade a resource (Alchemist)")},
                {"label": T("Give 1 %(resource)s", resource=w.resource(move["give"]))},
                {"label": T("Take 1 %(resource)s", resource=w.resource(move["take"]))}]
    if kind == "steal":
        return [{"label": T("Steal a resource (Smuggler)")},
                {"label": T("From %(name)s", name=state["names"][move["from"]])},
                {"label": w.resource(move["resource"])}]
    if kind == "move_thug":
        return [{"label": T("Move the Thug")}, {"label": _slot(state, move["slot"])}]
    if kind == "take_quest":
        return [{"label": T("Take a quest (Witch)")}, {"label": _slot(state, move["slot"])}]
    if kind == "buy_relic":
        return [{"label": T("Buy a relic from the discards (3 coins)")},
                {"label": w.card(cards.treasure_name(move["card"]))}]
    if kind == "move_specialist":
        return [{"label": T("Move a specialist (Bard)")},
                {"label": w.card(cards.specialist_name(move["specialist"]))},
                {"label": T("To %(where)s", where=_where(move["space"]))}]
    if kind == "bid":
        return [{"label": T("Bid for the King's Statue")},
                {"label": w.coins(move["amount"])}]
    return [{"label": labels.move_label(state, seat, move)}]


def _bonus(state: State, seat: int, move: Move) -> Any:
    bonus = labels.cell_bonus(state, seat, move)
    return T(" (covers the %(bonus)s bonus)", bonus=w.resource(bonus)) if bonus else ""
