"""Short human words for moves: form labels (move_label) and log lines (describe)."""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards, guild, quests, rooms, specialists
from games.kings_guild import words as w
from games.text import T, Text, join

State = dict[str, Any]
Move = dict[str, Any]


def _cost(cost: dict[str, int]) -> Text:
    return w.cost(cost)


def _card(card: Any) -> Any:
    try:
        return w.card(cards.treasure_name(card))
    except (KeyError, ValueError, IndexError, TypeError):
        return T("a treasure")


def _spec_details(sid: int) -> Text:
    s = cards.specialists()[sid]
    return T("%(prestige)s prestige; %(timing)s: %(text)s", prestige=s["prestige"],
             timing=w.timing(s["timing"]), text=w.short(s["text"]))


def _treasure_details(card: str) -> Any:
    t = cards.treasure(card)
    return w.short(t["text"])


def _specialist(sid: Any) -> Any:
    try:
        return w.card(cards.specialist_name(sid))
    except KeyError:
        return T("a specialist")


def where(space: str) -> Text:
    """Where a hired specialist goes: above the guild or in a chamber."""
    return T("above your guild") if space == guild.TOP else T("in your %(room)s",
                                                               room=w.card(space))


def cell(move: Move, bonus: str | None) -> Text:
    """``column 2, row 1 (covers the wood bonus)``."""
    extra = T(" (covers the %(bonus)s bonus)", bonus=w.resource(bonus)) if bonus else ""
    return T("column %(x)s, row %(y)s%(extra)s", x=move["x"] + 1, y=move["y"] + 1,
             extra=extra)


def cell_bonus(state: State, seat: int, move: Move) -> str | None:
    return cards.boards()["mats"][guild.player(state, seat)["mat"]].get(
        f"{move['x']}_{move['y']}")


def move_label(state: State, seat: int, move: Move) -> Text:
    """A clear short label for one legal move of ``seat``."""
    kind = move.get("type")
    if kind == "craft":
        slot = state["quest_slots"][move["slot"]]
        quest = cards.quests()[slot["quest"]]
        names = join([w.card(quest["items"][i]["name"]) for i in move["items"]], " + ")
        cost = quests.total_cost(state, seat, slot["quest"], move["items"])
        coins = sum(quest["items"][i]["coins"] for i in move["items"])
        toll = quests.thug_toll(state, seat, move["slot"])
        extra = T(", pay the Thug %(coins)s", coins=w.coins(toll)) if toll else ""
        return T("Craft %(items)s for %(quest)s (pay %(cost)s%(extra)s; earn %(coins)s)",
                 items=names, quest=w.card(quest["name"]), cost=_cost(cost), extra=extra,
                 coins=w.coins(coins))
    if kind == "build":
        room = cards.rooms()[move["room"]]
        text = T(": %(text)s", text=w.card(room["text"])) if room.get("text") else ""
        return T("Build the %(room)s (%(cost)s, %(prestige)s prestige%(text)s)",
                 room=w.card(move["room"]), cost=w.coins(rooms.cost(move["room"])),
                 prestige=room["prestige"], text=text)
    if kind == "hire":
        sid = state["specialist_row"][move["index"]]["id"]
        bag = T(", baggage in your %(room)s", room=w.card(move["baggage"])) \
            if "baggage" in move else ""
        contract = bool(state["pending"]) and state["pending"][-1]["kind"] == "contract"
        price = specialists.price(state, seat, move["index"], expand=not contract)
        return T("Hire the %(specialist)s for %(price)s, %(where)s%(baggage)s (%(details)s)",
                 specialist=_specialist(sid), price=w.coins(price),
                 where=where(move["space"]), baggage=bag, details=_spec_details(sid))
    if kind == "hire_oldest":
        sid = specialists.oldest(state)
        details = T(" (%(details)s)", details=_spec_details(sid)) if sid is not None else ""
        return T("Take the %(specialist)s for free, %(where)s%(details)s",
                 specialist=_specialist(sid), where=where(move["space"]), details=details)
    if kind == "place":
        pending = state["pending"][-1] if state["pending"] else {}
        room = w.card(pending["room"]) if "room" in pending else T("room")
        return T("Place the %(room)s at %(cell)s", room=room,
                 cell=cell(move, cell_bonus(state, seat, move)))
    if kind == "play":
        return T("Play %(card)s (%(text)s)", card=_card(move["card"]),
                 text=_treasure_details(move["card"]))
    if kind == "sell":
        from games.kings_guild import treasures

        price = treasures.sell_price(state, seat, move["card"])
        return T("Sell %(card)s for %(price)s", card=_card(move["card"]), price=w.coins(price))
    if kind == "move_thug":
        slot = state["quest_slots"][move["slot"]]
        return T("Move the Thug to %(quest)s", quest=w.card(cards.quest_name(slot["quest"])))
    if kind == "take_quest":
        slot = state["quest_slots"][move["slot"]]
        return T("Take the quest %(quest)s", quest=w.card(cards.quest_name(slot["quest"])))
    if kind == "bid":
        return T("Bid %(coins)s for the King's Statue", coins=w.coins(move["amount"]))
    if kind == "keep":
        entry = state["pending"][-1] if state["pending"] else {}
        drawn = entry.get("cards", []) if entry.get("seat") == seat else []
        if isinstance(move.get("index"), int) and 0 <= move["index"] < len(drawn):
            return T("Keep %(card)s (pass the rest)", card=_card(drawn[move["index"]]))
    return plain_label(move)


SIMPLE = {
    "gather": T("Gather resources"),
    "done": T("Done"),
    "skip": T("Skip"),
    "decline": T("Decline"),
    "end_turn": T("End your turn"),
    "offer": T("Make an offering to the Council (instead of an action)"),
    "build_statue": T("Build the King's Statue for 0 coins (uses your action)"),
    "bard": T("Move specialists with the Bard"),
    "pay_for_treasure": T("Pay 1 coin to draw a treasure"),
}


def plain_label(move: Move) -> Any:
    """A label that needs no state (also used in log lines)."""
    kind = move.get("type")
    if kind in SIMPLE:
        return SIMPLE[kind]
    if kind == "take":
        return T("Take 1 %(resource)s", resource=w.resource(move["resource"]))
    if kind == "choose_resources":
        return T("Take %(resources)s",
                 resources=w.and_list([w.resource(r) for r in move["resources"]]))
    if kind in ("choose_color", "draw"):
        return T("Draw a %(colour)s treasure", colour=w.colour(move["color"]))
    if kind == "map_colors":
        return T("Draw %(colours)s treasures",
                 colours=w.and_list([w.colour(c) for c in move["colors"]]))
    if kind == "keep":
        return T("Keep drawn treasure %(n)s", n=move["index"] + 1)
    if kind == "discard_treasure":
        return T("Discard %(card)s", card=_card(move["card"]))
    if kind == "discard_resource":
        return T("Discard 1 %(resource)s", resource=w.resource(move["resource"]))
    if kind == "destroy_scroll":
        return T("Destroy %(card)s for both of its effects", card=_card(move["card"]))
    if kind == "transmute":
        return T("Trade 1 %(give)s for 1 %(take)s", give=w.resource(move["give"]),
                 take=w.resource(move["take"]))
    if kind == "buy_relic":
        return T("Buy %(card)s from the discards for 3 coins", card=_card(move["card"]))
    if kind == "steal":
        return T("Steal 1 %(resource)s from seat %(seat)s",
                 resource=w.resource(move["resource"]), seat=move["from"] + 1)
    if kind == "gain":
        return T("Gain %(resource)s", resource=w.resource(move["resource"]))
    if kind == "spoil":
        return T("Spoil %(resource)s: every player loses 1",
                 resource=w.resource(move["resource"]))
    if kind == "move_specialist":
        return T("Move the %(specialist)s to %(space)s",
                 specialist=_specialist(move["specialist"]), space=w.space(move["space"]))
    return str(kind)


def _items(move: Move) -> Any:
    try:
        quest = cards.quests()[move["quest"]]
        names = w.and_list([w.card(quest["items"][i]["name"]) for i in move["items"]])
        return T("the %(items)s for %(quest)s", items=names, quest=w.card(quest["name"]))
    except (KeyError, IndexError, TypeError):
        return T("an item")


def describe(event: dict[str, Any], seat: int | None) -> Any:
    """One log line; sealed bids and cards going into a hand stay hidden from others."""
    names = event.get("names") or []
    actor = event.get("actor")
    who = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else T("Someone")
    move = (event.get("data") or {}).get("move") or {}
    kind = move.get("type")
    mine = seat is not None and seat == actor
    if kind == "bid":
        if mine:
            return T("%(who)s bid %(amount)s coins (sealed).", who=who, amount=move.get("amount"))
        return T("%(who)s placed a sealed bid for the King's Statue.", who=who)
    if kind == "keep":
        if mine:
            return T("%(who)s kept drawn treasure %(n)s.", who=who,
                     n=(move.get("index") or 0) + 1)
        return T("%(who)s kept one treasure and passed the rest.", who=who)
    if kind in ("choose_color", "draw"):
        return T("%(who)s drew a %(colour)s treasure.", who=who,
                 colour=w.colour(move.get("color")))
    if kind == "map_colors":
        return T("%(who)s drew %(colours)s treasures.", who=who,
                 colours=w.and_list([w.colour(c) for c in move.get("colors", [])]))
    if kind == "craft":
        return T("%(who)s crafted %(items)s.", who=who, items=_items(move))
    if kind == "build":
        return T("%(who)s chose to build the %(room)s.", who=who, room=w.card(move.get("room")))
    if kind == "place":
        room = w.card(move["room"]) if "room" in move else T("room")
        return T("%(who)s placed the %(room)s at column %(x)s, row %(y)s.", who=who, room=room,
                 x=move.get("x", 0) + 1, y=move.get("y", 0) + 1)
    if kind == "hire":
        space = move.get("space")
        place = T("above the guild") if space == "top" else T("in the %(room)s",
                                                             room=w.card(space))
        return T("%(who)s hired the %(specialist)s %(where)s.", who=who,
                 specialist=_specialist(move.get("specialist")), where=place)
    if kind == "play":
        return T("%(who)s played %(card)s.", who=who, card=_card(move.get("card")))
    if kind == "sell":
        return T("%(who)s sold %(card)s.", who=who, card=_card(move.get("card")))
    if kind == "end_turn":
        return T("%(who)s ended the turn.", who=who)
    if kind == "move_thug":
        return T("%(who)s moved the Thug to the quest in slot %(slot)s.", who=who,
                 slot=(move.get("slot") or 0) + 1)
    if kind == "take_quest":
        return T("%(who)s took the quest in slot %(slot)s with the Witch.", who=who,
                 slot=(move.get("slot") or 0) + 1)
    if kind == "hire_oldest":
        return T("%(who)s took the %(specialist)s with the Overseer.", who=who,
                 specialist=_specialist(move.get("specialist")))
    return T("%(who)s: %(move)s.", who=who, move=plain_label(move))
