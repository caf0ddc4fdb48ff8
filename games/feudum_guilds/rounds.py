"""The round (B4): setup choices, secret card selection, the act phase, nourish, progress,
the epoch check, and :func:`advance`, which runs everything automatic between questions."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.feudum_guilds import epochs, status, words, writs
from games.feudum_guilds.action_cards import retire_pawn
from games.feudum_guilds.board import turn_order
from games.feudum_guilds.components import CARD_NAMES, CARDS_PER_ROUND, GOODS, GUILDS, C
from games.feudum_guilds.flow import AUTO, log, options_for, pop, push, resolver_for
from games.feudum_guilds.haversack import take_good
from games.rng import GameRandom

State = dict[str, Any]


# -- setup choices (B2.1, B2.4) -------------------------------------------------------------


@options_for("setup_goods")
def setup_goods_options(state: State, dec: dict) -> list[dict]:
    """Every set of 3 different goods, with the sulfur's destination."""
    moves = []
    for trio in combinations(GOODS, 3):
        if any(state["haversack"][g] == 0 for g in trio):
            continue
        places = ("barrel", "supply") if "sulfur" in trio else (None,)
        for place in places:
            move: dict[str, Any] = {"type": "setup_goods", "goods": list(trio)}
            if place:
                move["sulfur_to"] = place
            moves.append(move)
    return moves or [{"type": "setup_goods", "goods": []}]


@resolver_for("setup_goods")
def setup_goods(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Take 3 different goods; a sulfur goes into the wine barrel or the personal supply."""
    pop(state)
    p = state["ps"][dec["seat"]]
    for good in move["goods"]:
        take_good(state, good)
        if good == "sulfur" and move.get("sulfur_to") == "barrel":
            p["barrel"] += 1
        else:
            p["goods"][good] += 1


@options_for("setup_pawn")
def setup_pawn_options(state: State, dec: dict) -> list[dict]:
    """Guilds with a free seat for the starting pawn."""
    moves = [{"type": "start_pawn", "guild": g} for g in GUILDS
             if None in state["guilds"][g]["seats"]]
    return moves or [{"type": "start_pawn", "guild": g} for g in GUILDS]


@resolver_for("setup_pawn")
def setup_pawn(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Put the starting pawn into play; its marker takes the best free seat [A-12]."""
    pop(state)
    state["ps"][dec["seat"]]["pawns"][0]["guild"] = move["guild"]


# -- secret selection -------------------------------------------------------------------------


def cards_wanted(p: dict) -> int:
    """4 cards, or 5 with the extra-action boost."""
    return CARDS_PER_ROUND + (1 if p["boost"] == "extra" else 0)


def select_moves(state: State, seat: int) -> list[dict]:
    """The secret selection: a boost choice, then the whole set of cards in one move."""
    p = state["ps"][seat]
    if p["committed"]:
        return []
    if p["boost"] is None:
        moves = [{"type": "boost", "boost": "none"}]
        if p["goods"]["saltpeter"]:
            moves.append({"type": "boost", "boost": "extra"})
        if p["goods"]["sulfur"]:
            moves.append({"type": "boost", "boost": "double"})
        return moves
    return [{"type": "select", "cards": list(cards)}
            for cards in combinations(CARD_NAMES, cards_wanted(p))]


def canonical_cards(cards: list) -> list:
    """A selection in the printed card order (the order a player lists them in is free)."""
    if all(isinstance(c, str) and c in CARD_NAMES for c in cards):
        return sorted(cards, key=CARD_NAMES.index)
    return cards


def apply_select(state: State, seat: int, move: dict) -> None:
    """Record the boost, then the whole selection in one move (which commits it).

    Every player makes exactly two selection moves (boost, cards) whatever the boost, so
    the number of moves in the history never reveals a 5th card before the reveal.
    """
    p = state["ps"][seat]
    if move["type"] == "boost":
        p["boost"] = move["boost"]
    else:
        p["selected"] = list(move["cards"])
        p["committed"] = True
    if all(q["committed"] for q in state["ps"]):
        reveal(state)


def reveal(state: State) -> None:
    """All have committed: pay the boosts ("Long live the King!") and start the act phase."""
    for p in state["ps"]:
        if p["boost"] in ("extra", "double"):
            good = "saltpeter" if p["boost"] == "extra" else "sulfur"
            p["goods"][good] -= 1
            state["haversack"][good] += 1
    state["phase"] = "act"
    state["act"] = {"current": None, "again": False}
    log(state, words.line("chosen", round=state["round"]))


# -- the act phase ------------------------------------------------------------------------


def cards_left(p: dict) -> list[str]:
    """Selected cards not yet played this round."""
    return [c for c in p["selected"] if c not in p["played"]]


@options_for("turn")
def turn_options(state: State, dec: dict) -> list[dict]:
    """Play a chosen card, play a mandate, discard a writ, or declare the double turn."""
    seat = dec["seat"]
    p = state["ps"][seat]
    left = cards_left(p)
    moves = [{"type": "play", "card": c} for c in left]
    moves += writs.mandate_moves(state, seat)
    moves += [{"type": "discard_writ", "writ": w} for w in dict.fromkeys(p["hand"])]
    if p["goods"]["sulfur"] and p["barrel"] < C["start"]["barrel"]:
        moves.append({"type": "fill_barrel"})
    if (p["boost"] == "double" and not p["double_used"] and len(left) >= 2
            and not state["act"]["again"]):
        moves.append({"type": "double"})
    return moves


@resolver_for("turn")
def turn(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Play a mandate, discard a writ, fill the barrel, declare the double turn, or play a card."""
    seat = dec["seat"]
    p = state["ps"][seat]
    if move["type"] == "mandate":
        writs.play_mandate(state, seat, move, rng)
    elif move["type"] == "discard_writ":
        writs.discard_voluntarily(state, seat, move["writ"])
    elif move["type"] == "fill_barrel":
        p["goods"]["sulfur"] -= 1
        p["barrel"] += 1
        log(state, words.line("fills", who=p["name"]))
    elif move["type"] == "double":
        p["double_used"] = True
        state["act"]["again"] = True
        log(state, words.line("double", who=p["name"]))
    else:
        pop(state)
        p["played"].append(move["card"])
        log(state, words.line("plays", who=p["name"], card=move["card"]))
        push(state, {"kind": "card", "seat": seat, "card": move["card"], "repeat": False})


def next_turn(state: State) -> int | None:
    """Whose turn is next (clockwise, skipping players with no cards left)."""
    act = state["act"]
    current = act["current"]
    with_cards = [s for s in range(state["n"]) if cards_left(state["ps"][s])]
    if not with_cards:
        return None
    if current is None:
        return next(s for s in turn_order(state) if s in with_cards)
    if act["again"] and current in with_cards:
        act["again"] = False
        return current
    act["again"] = False
    for i in range(1, state["n"] + 1):
        seat = (current + i) % state["n"]
        if seat in with_cards:
            return seat
    return None


# -- end of round ---------------------------------------------------------------------------


def hungry_pawns(p: dict) -> list[dict]:
    """Pawns in play with no wine standing on them (they need food or wine now)."""
    return [pawn for pawn in p["pawns"] if pawn["guild"] is not None and not pawn["wine"]]


def wine_range(p: dict) -> tuple[int, int]:
    """The fewest and most hungry pawns the player may feed with wine from the barrel.

    Fewest: those food cannot feed; most: as many as the barrel holds.  Every pawn that
    can be fed is fed (food or wine) [A-62].
    """
    need = len(hungry_pawns(p))
    low = max(0, need - p["goods"]["food"])
    high = min(need, p["barrel"])
    return min(low, high), high


def start_nourish(state: State) -> None:
    """Nourish (B4.3): players with a real choice between food and wine are asked [A-62]."""
    state["phase"] = "nourish"
    for seat in reversed(turn_order(state)):
        low, high = wine_range(state["ps"][seat])
        if high > low:
            push(state, {"kind": "nourish", "seat": seat})


@options_for("nourish")
def nourish_options(state: State, dec: dict) -> list[dict]:
    """How many hungry pawns drink wine from the barrel (the others eat food)."""
    low, high = wine_range(state["ps"][dec["seat"]])
    return [{"type": "nourish", "wine": k} for k in range(low, high + 1)]


@resolver_for("nourish")
def choose_nourish(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Record the choice; everyone eats together when all have chosen."""
    pop(state)
    state["ps"][dec["seat"]]["wine_choice"] = move["wine"]


def nourish(state: State) -> None:
    """Each pawn in play eats: wine standing on it; else wine from the barrel (as many pawns
    as the player chose, A-62) or 1 food; with neither it starves [A-40]."""
    for p in state["ps"]:
        wine = p.pop("wine_choice", None)
        if wine is None:
            wine = wine_range(p)[0]
        hungry = hungry_pawns(p)
        for pawn in p["pawns"]:
            if pawn["guild"] is not None and pawn["wine"]:
                pawn["wine"] = False
                state["haversack"]["sulfur"] += 1
        for i, pawn in enumerate(hungry):
            if i >= len(hungry) - wine and p["barrel"]:  # the last ``wine`` pawns drink
                p["barrel"] -= 1
                pawn["wine"] = True
            elif p["goods"]["food"]:
                p["goods"]["food"] -= 1
                state["haversack"]["food"] += 1
            elif p["barrel"]:
                p["barrel"] -= 1
                pawn["wine"] = True
            else:
                log(state, words.line("starves", who=p["name"], guild=pawn["guild"]))
                retire_pawn(state, pawn)
    status.update_all(state)


def end_round(state: State, rng: GameRandom) -> None:
    """Nourish (with the players' choices), progress, the epoch check and the next round."""
    nourish(state)
    epochs.progress(state, rng)
    epoch = epochs.triggered_epoch(state)
    if epoch is not None:
        epochs.dawn(state, epoch, rng)
        if epoch == 5:
            # B8: the players place their king's seals on charters, then the final scoring.
            state["phase"] = "end"
            writs.start_sealing(state, turn_order(state))
            return
    state["start_player"] = (state["start_player"] + 1) % state["n"]
    state["round"] += 1
    state["phase"] = "select"
    state["monster_used"] = {m: False for m in state["monster_used"]}
    for p in state["ps"]:
        p.update(selected=[], played=[], boost=None, committed=False, double_used=False,
                 guilds_used=[])


def advance(state: State, rng: GameRandom) -> None:
    """Run automatic steps until a seat must answer (or the game is over)."""
    while True:
        status.update_all(state)
        if state["phase"] == "over":
            return
        stack = state["stack"]
        if stack:
            top = stack[-1]
            if top["kind"] in AUTO:
                AUTO[top["kind"]](state, top, rng)
                continue
            return
        if state["phase"] == "setup":
            state["phase"] = "select"
            return
        if state["phase"] == "select":
            return
        if state["phase"] == "end":
            epochs.final_scoring(state)
            continue
        if state["phase"] == "nourish":
            end_round(state, rng)
            continue
        # act phase with an empty stack: the next turn, or the end of the round
        seat = next_turn(state)
        if seat is None:
            start_nourish(state)
            continue
        state["act"]["current"] = seat
        push(state, {"kind": "turn", "seat": seat})
