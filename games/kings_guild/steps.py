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
from games.svg import plural

State = dict[str, Any]
Move = dict[str, Any]
Step = dict[str, Any]


def _where(space: str) -> str:
    return "above your guild" if space == guild.TOP else f"in your {space}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _copy(cards_in: list[str], card: str) -> str:
    """The card's name, with ", copy k" when ``cards_in`` holds more than one of it."""
    name = cards.treasure_name(card)
    same = [c for c in cards_in if cards.treasure_name(c) == name]
    if len(same) > 1 and card in same:
        return f"{name}, copy {same.index(card) + 1}"
    return name


def _treasure(card: str, cards_in: list[str], price: int | None = None) -> str:
    t = cards.treasure(card)
    facts = [t["category"] or "treasure"]
    if price is not None:
        facts.append(f"sells for {price}")
    if t["prestige"]:
        facts.append(f"{t['prestige']} prestige")
    return f"{_copy(cards_in, card)} ({', '.join(facts)}): {t['text']}"


def _specialist(state: State, seat: int, sid: int, price: int | None) -> str:
    s = cards.specialists()[sid]
    cost = "free" if price is None else plural(price, "coin")
    return f"{s['name']} ({cost}, {s['prestige']} prestige): {s['text']}"


def steps(state: State, seat: int, move: Move) -> list[Step]:
    """The steps of one legal ``move`` of ``seat`` (see the module docstring)."""
    kind = move.get("type")
    hand = guild.player(state, seat)["hand"]
    top = state["pending"][-1] if state["pending"] else {}
    if kind == "craft":
        slot = state["quest_slots"][move["slot"]]
        quest = cards.quests()[slot["quest"]]
        toll = quests.thug_toll(state, seat, move["slot"])
        extra = f"; pay the Thug {plural(toll, 'coin')}" if toll else ""
        out: list[Step] = [{"label": "Craft"},
                           {"label": f"{quest['name']} (slot {move['slot'] + 1}{extra})"}]
        for i in sorted(move["items"]):
            item = quest["items"][i]
            cost = labels._cost(quests.item_cost(state, seat, slot["quest"], i))
            out.append({"label": f"{item['name']} ({item['type']}: pay {cost}; earn "
                                 f"{plural(item['coins'], 'coin')})", "group": "items"})
        return out
    if kind == "build":
        data = cards.rooms()[move["room"]]
        text = f": {data['text']}" if data.get("text") else ""
        return [{"label": "Build a room"},
                {"label": f"{move['room']} ({plural(rooms.cost(move['room']), 'coin')}, "
                          f"{data['prestige']} prestige){text}"}]
    if kind in ("hire", "hire_oldest"):
        if kind == "hire":
            contract = top.get("kind") == "contract"
            price: int | None = specialists.price(state, seat, move["index"],
                                                  expand=not contract)
            first = "Hire a specialist" + (" (Contract)" if contract else "")
        else:
            price, first = None, "Take the oldest specialist (Overseer)"
        out = [{"label": first}, {"label": _specialist(state, seat, move["specialist"], price)},
               {"label": _cap(_where(move["space"]))}]
        if "baggage" in move:
            out.append({"label": f"Baggage in your {move['baggage']}"})
        return out
    if kind == "place":
        return [{"label": f"Place the {top.get('room', 'room')}"},
                {"label": _cap(labels.move_label(state, seat, move).split(" at ", 1)[-1])}]
    if kind in ("play", "sell"):
        price = treasures.sell_price(state, seat, move["card"]) if kind == "sell" else None
        first = "Play a treasure" if kind == "play" else "Sell a treasure"
        return [{"label": first}, {"label": _treasure(move["card"], hand, price)}]
    if kind in ("discard_treasure", "destroy_scroll"):
        first = "Discard a treasure" if kind == "discard_treasure" else (
            "Destroy a Scroll for both of its effects (Warlock)")
        return [{"label": first}, {"label": _treasure(move["card"], hand)}]
    if kind == "keep":
        drawn = top.get("cards", []) if top.get("seat") == seat else []
        i = move["index"]
        what = _treasure(drawn[i], drawn) if 0 <= i < len(drawn) else f"treasure {i + 1}"
        return [{"label": "Keep a treasure (pass the rest)"}, {"label": what}]
    if kind in ("draw", "choose_color"):
        return [{"label": "Draw a treasure"}, {"label": f"{move['color'].capitalize()} deck"}]
    if kind == "map_colors":
        return [{"label": "Draw two treasures (Treasure Map)"}] + [
            {"label": f"{c.capitalize()} deck", "group": "colours"}
            for c in sorted(move["colors"], key=cards.COLORS.index)]
    if kind == "choose_resources":
        return [{"label": "Choose your starting resources"}] + [
            {"label": r, "group": "resources"}
            for r in sorted(move["resources"], key=cards.RESOURCES.index)]
    if kind == "take":
        return [{"label": "Take a resource"}, {"label": f"1 {move['resource']}"}]
    if kind == "gain":
        return [{"label": "Gain a resource"}, {"label": move["resource"]}]
    if kind == "spoil":
        return [{"label": "Spoil a resource (every player loses 1)"},
                {"label": move["resource"]}]
    if kind == "discard_resource":
        return [{"label": "Discard a resource"}, {"label": f"1 {move['resource']}"}]
    if kind == "transmute":
        return [{"label": "Trade a resource (Alchemist)"}, {"label": f"Give 1 {move['give']}"},
                {"label": f"Take 1 {move['take']}"}]
    if kind == "steal":
        return [{"label": "Steal a resource (Smuggler)"},
                {"label": f"From {state['names'][move['from']]}"},
                {"label": move["resource"]}]
    if kind == "move_thug":
        return [{"label": "Move the Thug"},
                {"label": cards.quest_name(state["quest_slots"][move["slot"]]["quest"])
                 + f" (slot {move['slot'] + 1})"}]
    if kind == "take_quest":
        return [{"label": "Take a quest (Witch)"},
                {"label": cards.quest_name(state["quest_slots"][move["slot"]]["quest"])
                 + f" (slot {move['slot'] + 1})"}]
    if kind == "buy_relic":
        return [{"label": "Buy a relic from the discards (3 coins)"},
                {"label": cards.treasure_name(move["card"])}]
    if kind == "move_specialist":
        return [{"label": "Move a specialist (Bard)"},
                {"label": cards.specialist_name(move["specialist"])},
                {"label": f"To {_where(move['space'])}"}]
    if kind == "bid":
        return [{"label": "Bid for the King's Statue"},
                {"label": plural(move["amount"], "coin")}]
    return [{"label": labels.move_label(state, seat, move)}]
