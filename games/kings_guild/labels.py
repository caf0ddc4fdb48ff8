"""Short human words for moves: form labels (move_label) and log lines (describe)."""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards, guild, quests, rooms, specialists
from games.svg import plural

State = dict[str, Any]
Move = dict[str, Any]


def _cost(cost: dict[str, int]) -> str:
    return ", ".join(f"{n} {r}" for r, n in cost.items()) or "nothing"


def _card(card: Any) -> str:
    try:
        return cards.treasure_name(card)
    except (KeyError, ValueError, IndexError, TypeError):
        return "a treasure"


def _short(text: str, most: int = 90) -> str:
    """A card's effect cut to about ``most`` characters for a one-line label."""
    text = " ".join(str(text).split())
    return text if len(text) <= most else text[: most - 1].rsplit(" ", 1)[0] + "…"


def _spec_details(sid: int) -> str:
    s = cards.specialists()[sid]
    return f"{s['prestige']} prestige; {s['timing']}: {_short(s['text'])}"


def _treasure_details(card: str) -> str:
    t = cards.treasure(card)
    return _short(t["text"])


def _specialist(sid: Any) -> str:
    try:
        return cards.specialist_name(sid)
    except KeyError:
        return "a specialist"


def move_label(state: State, seat: int, move: Move) -> str:
    """A clear short label for one legal move of ``seat``."""
    kind = move.get("type")
    if kind == "craft":
        slot = state["quest_slots"][move["slot"]]
        quest = cards.quests()[slot["quest"]]
        names = " + ".join(quest["items"][i]["name"] for i in move["items"])
        cost = quests.total_cost(state, seat, slot["quest"], move["items"])
        coins = sum(quest["items"][i]["coins"] for i in move["items"])
        toll = quests.thug_toll(state, seat, move["slot"])
        extra = f", pay the Thug {plural(toll, 'coin')}" if toll else ""
        return (f"Craft {names} for {quest['name']} (pay {_cost(cost)}{extra}; "
                f"earn {plural(coins, 'coin')})")
    if kind == "build":
        room = cards.rooms()[move["room"]]
        text = f": {room['text']}" if room.get("text") else ""
        return (f"Build the {move['room']} ({plural(rooms.cost(move['room']), 'coin')}, "
                f"{room['prestige']} prestige{text})")
    if kind == "hire":
        sid = state["specialist_row"][move["index"]]["id"]
        where = "above your guild" if move["space"] == "top" else f"in your {move['space']}"
        bag = f", baggage in your {move['baggage']}" if "baggage" in move else ""
        contract = bool(state["pending"]) and state["pending"][-1]["kind"] == "contract"
        price = specialists.price(state, seat, move["index"], expand=not contract)
        return (f"Hire the {_specialist(sid)} for {plural(price, 'coin')}, {where}{bag} "
                f"({_spec_details(sid)})")
    if kind == "hire_oldest":
        sid = specialists.oldest(state)
        where = "above your guild" if move["space"] == "top" else f"in your {move['space']}"
        details = f" ({_spec_details(sid)})" if sid is not None else ""
        return f"Take the {_specialist(sid)} for free, {where}{details}"
    if kind == "place":
        pending = state["pending"][-1] if state["pending"] else {}
        room = pending.get("room", "room")
        bonus = cards.boards()["mats"][guild.player(state, seat)["mat"]].get(
            f"{move['x']}_{move['y']}")
        extra = f" (covers the {bonus} bonus)" if bonus else ""
        return f"Place the {room} at column {move['x'] + 1}, row {move['y'] + 1}{extra}"
    if kind == "play":
        return f"Play {_card(move['card'])} ({_treasure_details(move['card'])})"
    if kind == "sell":
        from games.kings_guild import treasures

        price = treasures.sell_price(state, seat, move["card"])
        return f"Sell {_card(move['card'])} for {plural(price, 'coin')}"
    if kind == "move_thug":
        slot = state["quest_slots"][move["slot"]]
        return f"Move the Thug to {cards.quest_name(slot['quest'])}"
    if kind == "take_quest":
        slot = state["quest_slots"][move["slot"]]
        return f"Take the quest {cards.quest_name(slot['quest'])}"
    if kind == "bid":
        return f"Bid {plural(move['amount'], 'coin')} for the King's Statue"
    if kind == "keep":
        entry = state["pending"][-1] if state["pending"] else {}
        drawn = entry.get("cards", []) if entry.get("seat") == seat else []
        if isinstance(move.get("index"), int) and 0 <= move["index"] < len(drawn):
            return f"Keep {_card(drawn[move['index']])} (pass the rest)"
    return plain_label(move)


def plain_label(move: Move) -> str:
    """A label that needs no state (also used in log lines)."""
    kind = move.get("type")
    simple = {
        "gather": "Gather resources",
        "done": "Done",
        "skip": "Skip",
        "decline": "Decline",
        "end_turn": "End your turn",
        "offer": "Make an offering to the Council (instead of an action)",
        "build_statue": "Build the King's Statue for 0 coins (uses your action)",
        "bard": "Move specialists with the Bard",
        "pay_for_treasure": "Pay 1 coin to draw a treasure",
    }
    if kind in simple:
        return simple[kind]
    if kind == "take":
        return f"Take 1 {move['resource']}"
    if kind == "choose_resources":
        return "Take " + " and ".join(move["resources"])
    if kind in ("choose_color", "draw"):
        return f"Draw a {move['color']} treasure"
    if kind == "map_colors":
        return "Draw " + " and ".join(move["colors"]) + " treasures"
    if kind == "keep":
        return f"Keep drawn treasure {move['index'] + 1}"
    if kind == "discard_treasure":
        return f"Discard {_card(move['card'])}"
    if kind == "discard_resource":
        return f"Discard 1 {move['resource']}"
    if kind == "destroy_scroll":
        return f"Destroy {_card(move['card'])} for both of its effects"
    if kind == "transmute":
        return f"Trade 1 {move['give']} for 1 {move['take']}"
    if kind == "buy_relic":
        return f"Buy {_card(move['card'])} from the discards for 3 coins"
    if kind == "steal":
        return f"Steal 1 {move['resource']} from seat {move['from'] + 1}"
    if kind == "gain":
        return f"Gain {move['resource']}"
    if kind == "spoil":
        return f"Spoil {move['resource']}: every player loses 1"
    if kind == "move_specialist":
        return f"Move the {_specialist(move['specialist'])} to {move['space']}"
    return str(kind)


def _items(move: Move) -> str:
    try:
        quest = cards.quests()[move["quest"]]
        names = " and ".join(quest["items"][i]["name"] for i in move["items"])
        return f"the {names} for {quest['name']}"
    except (KeyError, IndexError, TypeError):
        return "an item"


def describe(event: dict[str, Any], seat: int | None) -> str:
    """One log line; sealed bids and cards going into a hand stay hidden from others."""
    names = event.get("names") or []
    actor = event.get("actor")
    who = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else "Someone"
    move = (event.get("data") or {}).get("move") or {}
    kind = move.get("type")
    mine = seat is not None and seat == actor
    if kind == "bid":
        if mine:
            return f"{who} bid {move.get('amount')} coins (sealed)."
        return f"{who} placed a sealed bid for the King's Statue."
    if kind == "keep":
        if mine:
            return f"{who} kept drawn treasure {(move.get('index') or 0) + 1}."
        return f"{who} kept one treasure and passed the rest."
    if kind in ("choose_color", "draw"):
        return f"{who} drew a {move.get('color')} treasure."
    if kind == "map_colors":
        return f"{who} drew {' and '.join(move.get('colors', []))} treasures."
    if kind == "craft":
        return f"{who} crafted {_items(move)}."
    if kind == "build":
        return f"{who} chose to build the {move.get('room')}."
    if kind == "place":
        return (f"{who} placed the {move.get('room', 'room')} at column {move.get('x', 0) + 1}, "
                f"row {move.get('y', 0) + 1}.")
    if kind == "hire":
        where = "above the guild" if move.get("space") == "top" else f"in the {move.get('space')}"
        return f"{who} hired the {_specialist(move.get('specialist'))} {where}."
    if kind == "play":
        return f"{who} played {_card(move.get('card'))}."
    if kind == "sell":
        return f"{who} sold {_card(move.get('card'))}."
    if kind == "end_turn":
        return f"{who} ended the turn."
    if kind == "move_thug":
        return f"{who} moved the Thug to the quest in slot {(move.get('slot') or 0) + 1}."
    if kind == "take_quest":
        return f"{who} took the quest in slot {(move.get('slot') or 0) + 1} with the Witch."
    if kind == "hire_oldest":
        return f"{who} took the {_specialist(move.get('specialist'))} with the Overseer."
    return f"{who}: {plain_label(move)}."
