"""Decisions inside a turn: for each kind of pending decision, its legal moves and how a
chosen move resolves it. The main turn menu lives in turn.py."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations_with_replacement
from typing import Any

from games.kings_guild import cards, guild, quests, rooms, specialists, treasures
from games.kings_guild.pending import pop, push
from games.rng import GameRandom

State = dict[str, Any]
Entry = dict[str, Any]
Move = dict[str, Any]
SKIP: Move = {"type": "skip"}
DONE: Move = {"type": "done"}


def _colors(state: State, exclude: str | None = None) -> list[Move]:
    return [{"type": "draw", "color": c} for c in treasures.available_colors(state) if c != exclude]


def _hand(state: State, seat: int) -> list[str]:
    return guild.player(state, seat)["hand"]


# -- moves per decision ----------------------------------------------------------------


def _m_start_resources(state: State, e: Entry) -> list[Move]:
    choices = cards.guilds()[guild.player(state, e["seat"])["guild"]]["bonus"]["choices"]
    return [{"type": "choose_resources", "resources": list(c)} for c in choices]


def _m_start_treasure(state: State, e: Entry) -> list[Move]:
    return [{"type": "choose_color", "color": c} for c in treasures.available_colors(state)]


def _m_place_room(state: State, e: Entry) -> list[Move]:
    return [{"type": "place", "room": e["room"], "x": x, "y": y}
            for x, y in rooms.positions(state, e["seat"], e["room"], e.get("expand", False))]


def _m_gather(state: State, e: Entry) -> list[Move]:
    moves = [{"type": "take", "resource": r}
             for r in quests.gather_picks(state, e["seat"], e["picks"])]
    if e["picks"]:
        moves.append(DONE)
    return moves


def _m_extra_craft(state: State, e: Entry) -> list[Move]:
    return quests.craft_options(state, e["seat"]) + [SKIP]


def _m_keep(state: State, e: Entry) -> list[Move]:
    return [{"type": "keep", "index": i} for i in range(len(e["cards"]))]


def _m_appraiser(state: State, e: Entry) -> list[Move]:
    return _colors(state) + [SKIP]


def _m_discard_one(state: State, e: Entry) -> list[Move]:
    return [{"type": "discard_treasure", "card": c} for c in _hand(state, e["seat"])]


def _m_hero_bonus(state: State, e: Entry) -> list[Move]:
    ok = guild.player(state, e["seat"])["coins"] >= 1 and treasures.available_colors(state)
    return ([{"type": "pay_for_treasure"}] if ok else []) + [SKIP]


def _m_thug(state: State, e: Entry) -> list[Move]:
    slots = [i for i, s in enumerate(state["quest_slots"]) if s and s["quest"] in cards.quests()]
    return [{"type": "move_thug", "slot": i} for i in slots] + [SKIP]


def _scrolls(state: State, seat: int) -> list[str]:
    return [c for c in _hand(state, seat) if cards.treasure(c)["category"] == "Scroll"]


def _m_warlock(state: State, e: Entry) -> list[Move]:
    return [{"type": "destroy_scroll", "card": c} for c in _scrolls(state, e["seat"])] + [SKIP]


def _m_contract(state: State, e: Entry) -> list[Move]:
    return specialists.hire_options(state, e["seat"], expand=False)


def _m_overseer(state: State, e: Entry) -> list[Move]:
    sid = specialists.oldest(state)
    if sid is None:
        return []
    places = specialists.placements(state, e["seat"], sid)
    return [{"type": "hire_oldest", "specialist": sid, **p} for p in places]


def _m_alchemist(state: State, e: Entry) -> list[Move]:
    held = guild.player(state, e["seat"])["resources"]
    moves = [
        {"type": "transmute", "give": a, "take": b}
        for a in cards.RESOURCES
        if held[a] > 0
        for b in cards.RESOURCES
        if b != a and state["supply"][b] > 0
    ]
    return moves + [DONE]


def _relics_in_discards(state: State) -> list[str]:
    return [c for color in cards.COLORS for c in state["discards"][color]
            if cards.treasure(c)["category"] == "Relic"]


def _m_curator(state: State, e: Entry) -> list[Move]:
    moves = []
    if guild.player(state, e["seat"])["coins"] >= 3:
        seen = set()
        for c in _relics_in_discards(state):
            name = cards.treasure_name(c)
            if name not in seen:
                seen.add(name)
                moves.append({"type": "buy_relic", "card": c})
    return moves + [DONE]


def _m_draw(state: State, e: Entry) -> list[Move]:
    return _colors(state)


def _m_merchant_discard(state: State, e: Entry) -> list[Move]:
    return [{"type": "discard_treasure", "card": c} for c in _hand(state, e["seat"])]


def _m_smuggler(state: State, e: Entry) -> list[Move]:
    moves = [
        {"type": "steal", "from": other, "resource": r}
        for other in range(state["n"])
        if other != e["seat"]
        for r in cards.RESOURCES
        if guild.player(state, other)["resources"][r] > 0
    ]
    return moves + [SKIP]


def _m_witch(state: State, e: Entry) -> list[Move]:
    return [{"type": "take_quest", "slot": i} for i in quests.witch_slots(state)]


def _m_plenty(state: State, e: Entry) -> list[Move]:
    return [{"type": "gain", "resource": r} for r in guild.gatherable(state, e["seat"])
            if state["supply"][r] > 0]


def _m_wonders_next(state: State, e: Entry) -> list[Move]:
    moves = []
    if guild.player(state, e["seat"])["coins"] >= 1:
        moves = _colors(state, e["exclude"])
    return moves + [{"type": "decline"}]


def _m_spoil(state: State, e: Entry) -> list[Move]:
    return [{"type": "spoil", "resource": r} for r in cards.RESOURCES]


def _m_map_discard(state: State, e: Entry) -> list[Move]:
    return [{"type": "discard_treasure", "card": c} for c in _hand(state, e["seat"])]


def _m_map_colors(state: State, e: Entry) -> list[Move]:
    colors = treasures.available_colors(state)
    return [{"type": "map_colors", "colors": list(pair)}
            for pair in combinations_with_replacement(colors, 2)]


def _m_bard(state: State, e: Entry) -> list[Move]:
    return bard_moves(state, e["seat"], e.get("seen")) + [DONE]


def arrangement(state: State, seat: int) -> list[str]:
    """Where ``seat``'s specialists sit, in the order they were hired."""
    return [s["space"] for s in guild.player(state, seat)["specialists"]]


def bard_moves(state: State, seat: int, seen: list[list[str]] | None = None) -> list[Move]:
    """The Bard: move one of your specialists to another free space (rules 4, ``seen``: not
    back to an arrangement already held this turn)."""
    p = guild.player(state, seat)
    free = guild.free_spaces(state, seat)
    done = set()
    out = []
    for k, s in enumerate(p["specialists"]):
        for space in free:
            key = (s["id"], space)
            if space != s["space"] and key not in done:
                done.add(key)
                if seen is not None:
                    after = arrangement(state, seat)
                    after[k] = space
                    if after in seen:
                        continue
                out.append({"type": "move_specialist", "specialist": s["id"], "space": space})
    return out


# -- resolving -------------------------------------------------------------------------


def _r_start_resources(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    for r in m["resources"]:
        guild.gain_resource(state, e["seat"], r)


def _r_start_treasure(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    treasures.draw_to_hand(state, e["seat"], m["color"], rng)


def _r_place_room(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    rooms.place(state, e["seat"], e["room"], m["x"], m["y"], e["price"], e.get("expand", False))


def _r_gather(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    if m["type"] == "take":
        e["picks"].append(m["resource"])
        if quests.gather_picks(state, e["seat"], e["picks"]):
            return
    pop(state)
    quests.finish_gather(state, e["seat"], e["picks"])


def _r_extra_craft(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    if m["type"] == "craft":
        quests.craft(state, e["seat"], m["slot"], m["items"], rng)


def _r_keep(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    card = e["cards"].pop(m["index"])
    _hand(state, e["seat"]).append(card)
    e["keep"] -= 1
    if e["keep"] <= 0:
        pop(state)
        _hand(state, e["partner"]).extend(e["cards"])
        e["cards"] = []


def _r_appraiser(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    if m["type"] == "draw":
        treasures.draw_to_hand(state, e["seat"], m["color"], rng)
        push(state, {"kind": "discard_one", "seat": e["seat"]})


def _r_discard_one(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    _hand(state, e["seat"]).remove(m["card"])
    treasures.discard(state, m["card"])


def _r_hero_bonus(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    if m["type"] == "pay_for_treasure":
        guild.player(state, e["seat"])["coins"] -= 1
        treasures.draw_to_hand(state, e["seat"], e["color"], rng)


def _r_thug(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    if m["type"] == "move_thug":
        state["thug"] = {"owner": e["seat"], "slot": m["slot"]}


def _r_warlock(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    if m["type"] == "destroy_scroll":
        _hand(state, e["seat"]).remove(m["card"])
        state["treasures_removed"].append(m["card"])
        treasures.SCROLLS[cards.treasure_name(m["card"])](state, e["seat"], both=True)


def _r_hire(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    """The Contract: hire without an action (so not with the Recruiter, an Expand ability)."""
    pop(state)
    specialists.hire(state, e["seat"], m, rng, expand=False)


def _r_overseer(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    specialists.hire_oldest(state, e["seat"], m, rng)


def _r_alchemist(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    if m["type"] == "done":
        pop(state)
        return
    guild.lose_resource(state, e["seat"], m["give"])
    guild.gain_resource(state, e["seat"], m["take"])


def _r_curator(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    if m["type"] == "done":
        pop(state)
        return
    card = m["card"]
    state["discards"][cards.treasure(card)["color"]].remove(card)
    guild.player(state, e["seat"])["coins"] -= 3
    _hand(state, e["seat"]).append(card)


def _r_merchant_draw(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    treasures.draw_to_hand(state, e["seat"], m["color"], rng)
    e["left"] -= 1
    if e["left"] <= 0:
        pop(state)


def _r_merchant_discard(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    _hand(state, e["seat"]).remove(m["card"])
    treasures.discard(state, m["card"])
    e["left"] -= 1
    if e["left"] <= 0:
        pop(state)


def _r_minstrel(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    treasures.draw_to_hand(state, e["seat"], m["color"], rng)


def _r_smuggler(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    if m["type"] == "steal":
        guild.player(state, m["from"])["resources"][m["resource"]] -= 1
        guild.player(state, e["seat"])["resources"][m["resource"]] += 1


def _r_witch(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    quests.take_quest(state, e["seat"], m["slot"])


def _r_plenty(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    guild.gain_resource(state, e["seat"], m["resource"], e["amount"])


def _r_wonders(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    treasures.draw_to_hand(state, e["seat"], m["color"], rng)
    below = state["pending"][-1] if state["pending"] else None
    if below and below["kind"] == "wonders_next" and below["exclude"] is None:
        below["exclude"] = m["color"]


def _r_wonders_next(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    if m["type"] == "draw":
        guild.player(state, e["seat"])["coins"] -= 1
        treasures.draw_to_hand(state, e["seat"], m["color"], rng)


def _r_spoil(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    for seat in range(state["n"]):
        guild.lose_resource(state, seat, m["resource"])


def _r_map_discard(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    _hand(state, e["seat"]).remove(m["card"])
    treasures.discard(state, m["card"])


def _r_map_colors(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    pop(state)
    for color in m["colors"]:
        treasures.draw_to_hand(state, e["seat"], color, rng)


def _r_substitute(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    """A colour was gone entirely: draw the chosen colour instead (into the hand, or among
    the treasures of a shared quest still to be split)."""
    pop(state)
    card = treasures.draw(state, m["color"], rng)
    if card is None:
        return
    if e["into"] == "hand":
        _hand(state, e["seat"]).append(card)
        return
    for entry in reversed(state["pending"]):
        if entry["kind"] == "keep_treasure" and entry["seat"] == e["seat"]:
            entry["cards"].append(card)
            return


def _r_bard(state: State, e: Entry, m: Move, rng: GameRandom) -> None:
    if m["type"] == "done":
        pop(state)
        return
    for s in guild.player(state, e["seat"])["specialists"]:
        if s["id"] == m["specialist"]:
            s["space"] = m["space"]
    if "seen" in e:
        e["seen"].append(arrangement(state, e["seat"]))
    if not bard_moves(state, e["seat"], e.get("seen")):
        pop(state)


DECISIONS: dict[str, tuple[Callable[[State, Entry], list[Move]],
                           Callable[[State, Entry, Move, GameRandom], None]]] = {
    "start_resources": (_m_start_resources, _r_start_resources),
    "start_treasure": (_m_start_treasure, _r_start_treasure),
    "place_room": (_m_place_room, _r_place_room),
    "gather": (_m_gather, _r_gather),
    "extra_craft": (_m_extra_craft, _r_extra_craft),
    "keep_treasure": (_m_keep, _r_keep),
    "appraiser": (_m_appraiser, _r_appraiser),
    "discard_one": (_m_discard_one, _r_discard_one),
    "hero_bonus": (_m_hero_bonus, _r_hero_bonus),
    "thug": (_m_thug, _r_thug),
    "warlock": (_m_warlock, _r_warlock),
    "contract": (_m_contract, _r_hire),
    "overseer": (_m_overseer, _r_overseer),
    "alchemist": (_m_alchemist, _r_alchemist),
    "curator": (_m_curator, _r_curator),
    "merchant_draw": (_m_draw, _r_merchant_draw),
    "merchant_discard": (_m_merchant_discard, _r_merchant_discard),
    "minstrel": (_m_draw, _r_minstrel),
    "smuggler": (_m_smuggler, _r_smuggler),
    "witch": (_m_witch, _r_witch),
    "plenty": (_m_plenty, _r_plenty),
    "wonders": (_m_draw, _r_wonders),
    "wonders_next": (_m_wonders_next, _r_wonders_next),
    "spoil": (_m_spoil, _r_spoil),
    "map_discard": (_m_map_discard, _r_map_discard),
    "map_colors": (_m_map_colors, _r_map_colors),
    "bard": (_m_bard, _r_bard),
    "substitute": (_m_draw, _r_substitute),
}
"""Pending decision kind -> (legal moves, resolve). ``refill`` is automatic (see turn.py)."""

HAND_CHECK_WAITS = {"merchant_draw", "merchant_discard", "discard_one", "map_colors"}
"""While one of these is open for a seat, its hand may briefly exceed the limit."""
