"""What each seat may see: the board, every guild in public, and only its own hand."""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards, funeral, guild, quests, rooms, scoring, specialists, turn
from games.kings_guild import words as w

State = dict[str, Any]


def treasure_card(card: str) -> dict[str, Any]:
    """A treasure card for display."""
    t = cards.treasure(card)
    return {"card": card, "name": w.card(t["name"]), "color": w.colour(t["color"]),
            "category": w.category(t["category"]), "sell": t["sell"],
            "prestige": t["prestige"], "text": w.card(t["text"])}


def quest_card(qid: int) -> dict[str, Any]:
    """A quest card (or event card) for display."""
    if qid in cards.events():
        e = cards.events()[qid]
        return {"id": qid, "name": w.card(e["name"]), "event": True}
    q = cards.quests()[qid]
    return {"id": qid, "name": w.card(q["name"]), "hero": w.hero(q["hero"]),
            "reward": [w.colour(c) for c in q["reward"]],
            "items": [dict(i, name=w.card(i["name"]), type=w.item_type(i["type"]))
                      for i in q["items"]], "event": False}


def specialist_card(sid: int) -> dict[str, Any]:
    """A specialist for display."""
    s = cards.specialists()[sid]
    return {"id": sid, "name": w.card(s["name"]), "cost": s["cost"],
            "prestige": s["prestige"], "timing": w.timing(s["timing"]),
            "text": w.card(s["text"]), "deck": s["deck"]}


def _slot(state: State, index: int) -> dict[str, Any] | None:
    slot = state["quest_slots"][index]
    if slot is None:
        return None
    card = quest_card(slot["quest"])
    for item, crafted in zip(card.get("items", []), slot["crafted"], strict=False):
        item["crafted_by"] = crafted
    thug = state["thug"]
    return {"index": index, "quest": card, "sigil": quests.sigil_owner(slot),
            "thug": thug["owner"] if thug and thug["slot"] == index else None}


def _guild(state: State, seat: int) -> dict[str, Any]:
    p = guild.player(state, seat)
    board = cards.boards()
    grid = [[None] * board["columns"] for _ in range(board["rows"])]
    for x, y in board["guild_cells"]:
        grid[y][x] = {"room": w.card(p["guild"]), "guild": True}
    for room in p["rooms"]:
        for x, y in room["cells"]:
            grid[y][x] = {"room": w.card(room["name"]), "guild": False}
    for x, y, bonus in cards.mat_bonuses(p["mat"]):
        if grid[y][x] is None:
            grid[y][x] = {"bonus": bonus}
    return {
        "seat": seat,
        "name": state["names"][seat],
        "guild": w.card(p["guild"]),
        "guild_text": w.card(cards.guilds()[p["guild"]]["text"]),
        "mat": p["mat"],
        "coins": p["coins"],
        "resources": dict(p["resources"]),
        "stored": guild.stored(state, seat),
        "storage_limit": guild.storage_limit(state, seat),
        "hand_count": len(p["hand"]),
        "hand_limit": guild.hand_limit(state, seat),
        "rooms": [{"name": w.card(r["name"]), "cells": r["cells"],
                   "prestige": cards.rooms()[r["name"]]["prestige"]} for r in p["rooms"]],
        "board": grid,
        "specialists": [_hired(s) for s in p["specialists"]],
        "baggage": w.card(p["baggage"]),
        "spaces": guild.space_capacity(state, seat),
        "quests": [_done_quest(q) for q in p["quests"]],
        "sigils_free": guild.free_sigils(state, seat),
        "offered": p["offered"],
        "prestige": public_prestige(state, seat),
    }


def public_prestige(state: State, seat: int) -> int:
    """The prestige everyone can count on the table now: quests, specialists, rooms (as the
    final scoring counts them) and the offering. Treasures in hand are hidden, so Charms,
    Relics and the Library's Scrolls are left out; the final scores add them."""
    p = guild.player(state, seat)
    rooms_total = sum(scoring.room_points(state, seat).values())
    for room in p["rooms"]:
        rule = cards.rooms()[room["name"]].get("scoring")
        if rule and rule["kind"] == "scrolls":  # counts Scrolls in the (hidden) hand
            scrolls = sum(1 for c in p["hand"] if cards.treasure(c)["category"] == "Scroll")
            rooms_total -= scrolls * rule["per"]
    specialists_total = sum(cards.specialists()[s["id"]]["prestige"] for s in p["specialists"])
    return (len(p["quests"]) + specialists_total + rooms_total
            + scoring.offering_points(state, seat))


def _hired(entry: dict[str, Any]) -> dict[str, Any]:
    s = cards.specialists()[entry["id"]]
    return {"id": entry["id"], "name": w.card(s["name"]), "prestige": s["prestige"],
            "timing": w.timing(s["timing"]), "space": w.space(entry["space"])}


def _done_quest(qid: int) -> dict[str, Any]:
    q = cards.quests()[qid]
    return {"id": qid, "name": w.card(q["name"]), "hero": w.hero(q["hero"]),
            "items": [w.item_type(i["type"]) for i in q["items"]]}


def _rooms_for_sale(state: State) -> list[dict[str, Any]]:
    out = []
    for name, r in cards.rooms().items():
        if r["category"] not in ("basic", "master") or not rooms.in_supply(state, name):
            continue
        key = rooms.supply_key(name)
        left = state["room_supply"][key] if key else 1
        out.append({"name": w.card(name), "cost": r["cost"], "prestige": r["prestige"],
                    "category": r["category"], "text": w.card(r.get("text", "")), "left": left,
                    "tile": r.get("tile")})
    return out


def _decision(state: State, seat: int | None) -> dict[str, Any] | None:
    what, arg = turn.active(state)
    if what == "pending":
        info: dict[str, Any] = {"kind": arg["kind"], "seat": arg["seat"]}
        if arg["kind"] == "place_room":
            info["room"] = arg["room"]
            # where it may go (public: the board and the rules decide), for the picture
            info["cells"] = [list(c) for c in rooms.positions(
                state, arg["seat"], arg["room"], arg.get("expand", False))]
        if arg["kind"] == "keep_treasure":
            info["keep"] = arg["keep"]
            info["partner"] = arg["partner"]
            if seat == arg["seat"]:
                info["cards"] = [treasure_card(c) for c in arg["cards"]]
        if arg["kind"] == "substitute":
            info["instead_of"] = arg["missing"]
        if arg["kind"] == "gather":
            info["picks"] = list(arg["picks"])
        return info
    if what in ("discard_resource", "sell_down"):
        return {"kind": what, "seat": arg}
    if what == "funeral":
        return {"kind": "funeral_bid", "seats": sorted(funeral.bidders(state))}
    return None


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The information state of ``seat`` (``None``: a spectator). While the King's Funeral
    bids are open, players hide their coins: other guilds show ``coins: None``."""
    row = []
    for i, entry in enumerate(state["specialist_row"]):
        if entry is None:
            row.append(None)
            continue
        card = specialist_card(entry["id"])
        card.update(index=i, discount=entry["discount"])
        card["price"] = specialists.price(state, seat, i) if seat is not None else max(
            0, card["cost"] - entry["discount"])
        row.append(card)
    out: dict[str, Any] = {
        "seat": seat,
        "names": list(state["names"]),
        "solo": state["solo"],
        "options": dict(state.get("options", {})),
        "rules": state.get("rules", 2),  # the rules version the game plays (templates)
        "current": state["current"],
        # round_turn counts turns from 1; a round is one turn of every player
        "round": (state["round_turn"] - 1) // state["n"] + 1,
        "to_act": sorted(turn.to_act(state)),
        "over": state["over"],
        "supply": dict(state["supply"]),
        "quest_slots": [_slot(state, i) for i in range(len(state["quest_slots"]))],
        "quest_deck_count": len(state["quest_deck"]),
        "specialist_row": row,
        "specialist_deck_count": len(state["specialist_deck"]),
        "rooms_for_sale": _rooms_for_sale(state),
        "treasure_deck_counts": {c: len(d) for c, d in state["treasure_decks"].items()},
        "discards": {c: [w.card(cards.treasure_name(x)) for x in d]
                     for c, d in state["discards"].items()},
        "treasures_removed": [w.card(cards.treasure_name(x))
                              for x in state["treasures_removed"]],
        "thug": state["thug"],
        "council_drawn": state["council_drawn"],
        "final_turns_left": state["final_turns_left"],
        "funeral_result": state["funeral_result"],
        "turn": {"action": state["turn"]["action"], "fortune": state["turn"]["fortune"],
                 "lucky": state["turn"]["lucky"]},
        "decision": _decision(state, seat),
        "guilds": [_guild(state, s) for s in range(state["n"])],
        "hand": [],
        "outcome": _outcome(state["outcome"]),
    }
    if state["funeral"]:
        for g in out["guilds"]:
            if g["seat"] != seat:
                g["coins"] = None
                g["prestige"] = None  # the Vault of Riches and the offering count coins
        bids = state["funeral"]["bids"]
        out["funeral"] = {"has_bid": sorted(int(s) for s in bids),
                          "your_bid": bids.get(str(seat)) if seat is not None else None}
    else:
        out["funeral"] = None
    # running scores by seat (public prestige; the final scores once the game is over)
    out["scores"] = (list(state["outcome"]["scores"]) if state["outcome"]
                     else [g["prestige"] for g in out["guilds"]])
    if seat is not None:
        out["hand"] = [treasure_card(c) for c in guild.player(state, seat)["hand"]]
        if sees_oracle(state, seat):
            out["oracle"] = [quest_card(q) for q in oracle_peek(state, seat)]
    return out


def _outcome(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """The outcome with its words said as Texts (the tie break, a solo title)."""
    if not outcome:
        return outcome
    out = dict(outcome, tie_break=w.TIE_BREAK.get(outcome.get("tie_break"),
                                                  outcome.get("tie_break")))
    if "title" in out:
        out["title"] = w.title(out["title"])
    return out


def sees_oracle(state: State, seat: int | None) -> bool:
    """The Oracle's owner looks at the top of the quest deck on their own turn."""
    return (seat is not None and state["current"] == seat
            and guild.has_specialist(state, seat, "Oracle"))


def oracle_peek(state: State, seat: int | None) -> list[int]:
    """The quest cards on the deck that ``seat`` sees now (the Oracle: the top two)."""
    return state["quest_deck"][:2] if sees_oracle(state, seat) else []
