"""Specialists: the row of five with its discount coins, hiring, and every on-hire effect."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.kings_guild import cards, guild, quests, treasures
from games.kings_guild.pending import push
from games.rng import GameRandom

State = dict[str, Any]
ROW = 5


def build_deck(per_deck: int, solo: bool, rng: GameRandom) -> tuple[list[int], list[int]]:
    """A on top of B on top of C, ``per_deck`` of each, and the cards left in the box."""
    removed = set(cards.setup_tables()["solo"]["remove_specialists"]) if solo else set()
    deck: list[int] = []
    boxed: list[int] = []
    for letter in "ABC":
        ids = [
            s["id"]
            for s in cards.specialists().values()
            if s["deck"] == letter and s["name"] not in removed
        ]
        boxed += [
            s["id"]
            for s in cards.specialists().values()
            if s["deck"] == letter and s["name"] in removed
        ]
        rng.shuffle(ids)
        deck += ids[:per_deck]
        boxed += ids[per_deck:]
    return deck, boxed


def refill_row(state: State) -> None:
    """Slide the specialists to the right into empty spaces, then draw new ones on the left."""
    row = state["specialist_row"]
    cards_left = [c for c in row if c is not None]
    row[:] = [None] * (ROW - len(cards_left)) + cards_left
    for i in range(ROW - 1, -1, -1):
        if row[i] is None and state["specialist_deck"]:
            row[i] = {"id": state["specialist_deck"].pop(0), "discount": 0}


def remove_oldest(state: State) -> None:
    """Remove the right-most specialist from the game and refill the row (solo rules)."""
    row = state["specialist_row"]
    for i in range(ROW - 1, -1, -1):
        if row[i] is not None:
            state["specialists_removed"].append(row[i]["id"])
            row[i] = None
            break
    refill_row(state)


def price(state: State, seat: int, index: int, expand: bool = True) -> int:
    """Cost minus discount coins (doubled with the Recruiter during an Expand action - its
    house icon), never below 0."""
    entry = state["specialist_row"][index]
    per = 2 if expand and guild.has_specialist(state, seat, "Recruiter") else 1
    return max(0, cards.specialists()[entry["id"]]["cost"] - per * entry["discount"])


def placements(state: State, seat: int, sid: int) -> list[dict[str, Any]]:
    """Where ``sid`` may go: ``{"space"}`` (plus ``"baggage"`` for the Aristocrat)."""
    name = cards.specialist_name(sid)
    spaces = guild.free_spaces(state, seat)
    if name == "Overseer" and guild.free_places(state, seat) < 2:
        return []
    if name != "Aristocrat":
        return [{"space": s} for s in spaces]
    cap = guild.space_capacity(state, seat)
    use = guild.space_use(state, seat)
    out = []
    for bag in spaces:
        if bag == guild.TOP:
            continue
        for s in spaces:
            if s != bag or cap[s] - use[s] >= 2:
                out.append({"space": s, "baggage": bag})
    return out


def hire_options(state: State, seat: int, expand: bool = True) -> list[dict[str, Any]]:
    """Every legal ``hire`` move for ``seat`` now (``expand``: as part of an Expand action)."""
    coins = guild.player(state, seat)["coins"]
    out = []
    for i, entry in enumerate(state["specialist_row"]):
        if entry is None or price(state, seat, i, expand) > coins:
            continue
        for place in placements(state, seat, entry["id"]):
            out.append({"type": "hire", "index": i, "specialist": entry["id"], **place})
    return out


def hire(state: State, seat: int, move: dict[str, Any], rng: GameRandom,
         expand: bool = True) -> int:
    """Hire the specialist at ``move["index"]``: pay, discount the ones to its right if paid at
    full price (not in solo), slide and refill the row, place it, resolve its on-hire effect."""
    row = state["specialist_row"]
    index = move["index"]
    entry = row[index]
    guild.player(state, seat)["coins"] -= price(state, seat, index, expand)
    full_price = entry["discount"] == 0
    row[index] = None
    if full_price and not state["solo"]:
        for j in range(index + 1, ROW):
            other = row[j]
            if other is None:
                continue
            other["discount"] += 1
            if other["discount"] >= cards.specialists()[other["id"]]["cost"]:
                state["specialists_removed"].append(other["id"])
                row[j] = None
    refill_row(state)
    place(state, seat, entry["id"], move, rng)
    return entry["id"]


def hire_oldest(state: State, seat: int, move: dict[str, Any], rng: GameRandom) -> None:
    """The Overseer: take the right-most specialist for free (no discounts are added)."""
    row = state["specialist_row"]
    index = max(i for i, e in enumerate(row) if e is not None)
    sid = row[index]["id"]
    row[index] = None
    refill_row(state)
    place(state, seat, sid, move, rng)


def oldest(state: State) -> int | None:
    """The right-most specialist in the row."""
    ids = [e["id"] for e in state["specialist_row"] if e is not None]
    return ids[-1] if ids else None


def place(state: State, seat: int, sid: int, move: dict[str, Any], rng: GameRandom) -> None:
    """Put a hired specialist into its space and resolve its on-hire (lightning) effect."""
    p = guild.player(state, seat)
    p["specialists"].append({"id": sid, "space": move["space"]})
    if "baggage" in move:
        p["baggage"] = move["baggage"]
    effect = ON_HIRE.get(cards.specialist_name(sid))
    if effect:
        effect(state, seat, rng)


# -- on-hire effects -------------------------------------------------------------------


def _adventurer(state: State, seat: int, rng: GameRandom) -> None:
    for color in cards.COLORS:
        treasures.draw_to_hand(state, seat, color, rng)


def _alchemist(state: State, seat: int, rng: GameRandom) -> None:
    push(state, {"kind": "alchemist", "seat": seat})


def _craftswoman(state: State, seat: int, rng: GameRandom) -> None:
    if quests.craft_options(state, seat):
        push(state, {"kind": "extra_craft", "seat": seat})


def _curator(state: State, seat: int, rng: GameRandom) -> None:
    push(state, {"kind": "curator", "seat": seat})


def _dealer(state: State, seat: int, rng: GameRandom) -> None:
    if quests.gather_picks(state, seat, []):
        push(state, {"kind": "gather", "seat": seat, "picks": []})


def _merchant(state: State, seat: int, rng: GameRandom) -> None:
    push(
        state,
        {"kind": "merchant_draw", "seat": seat, "left": 3},
        {"kind": "merchant_discard", "seat": seat, "left": 3},
    )


def _minstrel(state: State, seat: int, rng: GameRandom) -> None:
    if treasures.available_colors(state):
        push(state, {"kind": "minstrel", "seat": seat})


def _overseer(state: State, seat: int, rng: GameRandom) -> None:
    push(state, {"kind": "overseer", "seat": seat})


def _smuggler(state: State, seat: int, rng: GameRandom) -> None:
    push(state, {"kind": "smuggler", "seat": seat})


def _witch(state: State, seat: int, rng: GameRandom) -> None:
    if quests.witch_slots(state):
        push(state, {"kind": "witch", "seat": seat})


ON_HIRE: dict[str, Callable[[State, int, GameRandom], None]] = {
    "Adventurer": _adventurer,
    "Alchemist": _alchemist,
    "Craftswoman": _craftswoman,
    "Curator": _curator,
    "Dealer": _dealer,
    "Merchant": _merchant,
    "Minstrel": _minstrel,
    "Overseer": _overseer,
    "Smuggler": _smuggler,
    "Witch": _witch,
}
"""On-hire (lightning) effects keyed by specialist name; the Aristocrat's baggage is placed
with the hire move itself. Passive and triggered abilities are checked where they apply:
gather bonuses and the Laborer/Sorceress in quests.py, cost reducers, Fighter/Ranger/Wizard,
Thug, Warlock and Appraiser in quests.py, Courier/Peasant/Inventor in guild.py, Builder in
rooms.py, Recruiter above, Auctioneer in treasures.py, Bard and Vizier in turn.py, Oracle in
the view."""
