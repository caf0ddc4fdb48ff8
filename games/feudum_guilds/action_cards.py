"""The eight action cards (B5) and what playing each one asks and does."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import guilds, words, writs
from games.feudum_guilds.components import GOODS, GUILDS, REPEATABLE, C
from games.feudum_guilds.flow import log, options_for, pop, push, resolver_for, score
from games.feudum_guilds.haversack import can_pay, draw_goods, pay
from games.feudum_guilds.modules import favors, feast, monsters
from games.rng import GameRandom

State = dict[str, Any]
FORFEIT = {"type": "forfeit"}


def realm_slots_left(state: State) -> int:
    """Unused realm slots (22 locations may be ruled in all) [A-8]."""
    return C["realm_slots"] - sum(len(p["locations"]) for p in state["ps"])


def pawns_in_play(p: dict) -> int:
    """How many of the player's pawns are in play."""
    return sum(1 for pawn in p["pawns"] if pawn["guild"])


def count_kind(p: dict, kind: str) -> int:
    """How many locations of ``kind`` the player rules."""
    return sum(1 for loc in p["locations"] if loc["kind"] == kind)


def eligible_stacks(state: State) -> list[int]:
    """Region stacks whose top tile's epoch is at most the current epoch."""
    return [i for i, s in enumerate(state["stacks"]) if s and s[0] <= state["epoch"]]


def card_options(state: State, seat: int, card: str, repeat: bool) -> list[dict]:
    """The legal ways to resolve a played card (always including forfeit)."""
    p = state["ps"][seat]
    moves: list[dict] = []
    if card == "migrate":
        if any(pawn["guild"] is None for pawn in p["pawns"]) and can_pay(p, {"food": 1}):
            moves += [{"type": "migrate", "guild": g} for g in GUILDS]
        in_play = sorted({pawn["guild"] for pawn in p["pawns"] if pawn["guild"]})
        moves += [{"type": "retire", "guild": g} for g in in_play]
    elif card == "influence":
        most = min(max(1, pawns_in_play(p)), p["markers"], realm_slots_left(state))
        moves += [{"type": "influence", "count": k} for k in range(1, most + 1)]
    elif card == "improve":
        for loc in p["locations"]:
            if loc["kind"] == "outpost" and can_pay(p, {"wood": 1}):
                moves.append({"type": "improve", "location": loc["id"]})
            elif loc["kind"] == "farm" and can_pay(p, {"iron": 1}):
                moves.append({"type": "improve", "location": loc["id"]})
            elif loc["kind"] == "town" and p["seals"]:
                moves += [{"type": "improve", "location": loc["id"], "guild": g}
                          for g in GUILDS if state["feudums"][g]]
    elif card == "explore":
        if count_kind(p, "outpost"):
            moves.append({"type": "explore"})
    elif card == "harvest":
        for loc in p["locations"]:
            if loc["kind"] == "farm" and sum(loc["goods"].values()) < 10:
                if state["options"].get("favors"):
                    moves += [{"type": "harvest", "location": loc["id"], "favor": f}
                              for f in (False, True)]
                else:
                    moves.append({"type": "harvest", "location": loc["id"]})
    elif card == "tax":
        if count_kind(p, "town"):
            moves.append({"type": "tax"})
    elif card == "guild":
        exclude = p["guilds_used"] if repeat else []
        moves += guilds.available(state, seat, exclude)
        if state["options"].get("feast"):
            moves += feast.moves(state, seat, exclude)
        if state["options"].get("monsters") and "knight" not in exclude:
            moves += [{"type": "defeat", "monster": m} for m in guilds.can_defeat(state, seat)]
    elif card == "repeat":
        done = [c for c in p["played"] if c in REPEATABLE]
        moves += [{"type": "repeat", "card": c} for c in dict.fromkeys(done)]
    moves.append(FORFEIT)
    return moves


@options_for("card")
def _card_options(state: State, dec: dict) -> list[dict]:
    return card_options(state, dec["seat"], dec["card"], dec["repeat"])


@resolver_for("card")
def resolve_card(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Carry out the chosen way of resolving a played card."""
    pop(state)
    seat = dec["seat"]
    p = state["ps"][seat]
    kind = move["type"]
    if kind == "forfeit":
        log(state, words.line("forfeits", who=p["name"], card=dec["card"]))
    elif kind == "repeat":
        push(state, {"kind": "card", "seat": seat, "card": move["card"], "repeat": True})
    elif kind == "migrate":
        pay(state, p, {"food": 1})
        next(pawn for pawn in p["pawns"] if pawn["guild"] is None)["guild"] = move["guild"]
        log(state, words.line("migrates", who=p["name"], guild=move["guild"]))
    elif kind == "retire":
        pawn = next(pw for pw in p["pawns"] if pw["guild"] == move["guild"])
        retire_pawn(state, pawn)
        log(state, words.line("returns", who=p["name"], guild=move["guild"]))
    elif kind == "influence":
        for _ in range(move["count"]):
            add_location(p, "outpost")
            p["markers"] -= 1
        log(state, words.line("claims", who=p["name"], n=move["count"]))
    elif kind == "improve":
        improve(state, seat, move, rng)
    elif kind == "explore":
        extra = count_kind(p, "outpost") - 1 + count_kind(p, "feudum")
        writs.draw(state, seat, 2 + extra)
        log(state, words.line("explores", who=p["name"]))
    elif kind == "harvest":
        harvest(state, seat, move, rng)
    elif kind == "tax":
        gain = 2 + count_kind(p, "town") - 1 + count_kind(p, "feudum")
        p["shillings"] += gain
        log(state, words.line("taxes", who=p["name"], n=gain))
    elif kind == "guild":
        p["guilds_used"].append(move["guild"])
        guilds.start(state, seat, move["guild"], move["function"], rng)
    elif kind == "feast":
        p["guilds_used"].append(move["guild"])
        feast.perform(state, seat, move, rng)
    elif kind == "defeat":
        p["guilds_used"].append("knight")
        monsters.start_defeat(state, seat, move["monster"])


def retire_pawn(state: State, pawn: dict) -> None:
    """Return a pawn to supply; wine standing on it goes back to the haversack."""
    pawn["guild"] = None
    if pawn["wine"]:
        pawn["wine"] = False
        state["haversack"]["sulfur"] += 1


def add_location(p: dict, kind: str) -> dict:
    """A newly ruled location (with its influence marker)."""
    loc = {"id": p["next_location"], "kind": kind, "guild": None, "goods": {g: 0 for g in GOODS}}
    p["next_location"] += 1
    p["locations"].append(loc)
    return loc


def improve(state: State, seat: int, move: dict, rng: GameRandom) -> None:
    """Improve a location one step, then take an eligible region tile and score it [A-9]."""
    p = state["ps"][seat]
    loc = next(x for x in p["locations"] if x["id"] == move["location"])
    if loc["kind"] == "outpost":
        pay(state, p, {"wood": 1})
        loc["kind"] = "farm"
    elif loc["kind"] == "farm":
        pay(state, p, {"iron": 1})
        for g in GOODS:
            state["haversack"][g] += loc["goods"][g]
            loc["goods"][g] = 0
        loc["kind"] = "town"
    else:
        state["seal_supply"].insert(0, p["seals"].pop())  # the seal returns under the supply
        loc["kind"] = "feudum"
        loc["guild"] = move["guild"]
        state["feudums"][move["guild"]] -= 1
    log(state, words.line("improves", who=p["name"], location=loc["kind"]))
    stacks = eligible_stacks(state)
    if len(stacks) == 1:
        take_tile(state, seat, stacks[0], loc["kind"])
    elif stacks:
        push(state, {"kind": "tile", "seat": seat, "to": loc["kind"]})


def take_tile(state: State, seat: int, stack: int, kind: str) -> None:
    """Take a region tile (kept as a wild good) and score the chart for it."""
    epoch = state["stacks"][stack].pop(0)
    state["ps"][seat]["tiles"].append(epoch)
    score(state, seat, C["tile_chart"][kind][epoch - 1],
          words.why("tile", epoch=epoch, location=kind))


@options_for("tile")
def tile_options(state: State, dec: dict) -> list[dict]:
    """Region stacks whose top tile may be taken."""
    return [{"type": "tile", "stack": i} for i in eligible_stacks(state)]


@resolver_for("tile")
def tile(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Take the chosen region tile and score it."""
    pop(state)
    take_tile(state, dec["seat"], move["stack"], dec["to"])


def harvest(state: State, seat: int, move: dict, rng: GameRandom) -> None:
    """5 goods +1 per other farm or feudum + your bead values, at most 10, onto a farm; 1 vp."""
    p = state["ps"][seat]
    loc = next(x for x in p["locations"] if x["id"] == move["location"])
    total = 5 + count_kind(p, "farm") - 1 + count_kind(p, "feudum")
    total += sum(state["tokens"][t] for t in p["beads"])
    total = min(total, 10)
    to_farm, kickback = total, 0
    if move.get("favor"):
        to_farm, kickback = favors.split(total)
        favors.flip_beads(p)
    room = 10 - sum(loc["goods"].values())
    for good in draw_goods(state, min(to_farm, room), rng):
        loc["goods"][good] += 1
    for good in draw_goods(state, kickback, rng):
        p["goods"][good] += 1
    score(state, seat, 1, words.why("harvest"))
