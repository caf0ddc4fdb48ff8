"""Royal Writs (B9): draws (draw 2, keep 1), the hand limit, mandates and sealed charters."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import status, words
from games.feudum_guilds.components import HAND_LIMIT, VESSELS, WRITS
from games.feudum_guilds.flow import log, options_for, pop, push, resolver_for
from games.feudum_guilds.haversack import can_pay, draw_goods, pay
from games.rng import GameRandom

State = dict[str, Any]


def draw(state: State, seat: int, count: int) -> None:
    """Draw ``count`` writs from the top of the deck; keep 1, the rest go to the bottom."""
    cards = state["writ_deck"][:count]
    del state["writ_deck"][:count]
    if cards:
        push(state, {"kind": "writ_keep", "seat": seat, "cards": cards})


def reward_pull(state: State, seat: int, why: str) -> None:
    """A successful pull: 3 vp and draw 2 writs, keep 1."""
    state["ps"][seat]["vp"] += 3
    log(state, words.line("draws", who=state["ps"][seat]["name"], why=why))
    draw(state, seat, 2)


@options_for("writ_keep")
def keep_options(state: State, dec: dict) -> list[dict]:
    """Keep one of the drawn writs."""
    return [{"type": "keep_writ", "writ": w} for w in dec["cards"]]


@resolver_for("writ_keep")
def keep(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Keep one writ; the others go to the bottom of the deck."""
    pop(state)
    p = state["ps"][dec["seat"]]
    p["hand"].append(move["writ"])
    state["writ_deck"].extend(w for w in dec["cards"] if w != move["writ"])
    if len(p["hand"]) > HAND_LIMIT:
        push(state, {"kind": "writ_discard", "seat": dec["seat"]})


@options_for("writ_discard")
def discard_options(state: State, dec: dict) -> list[dict]:
    """Discard a writ from hand."""
    return [{"type": "discard_writ", "writ": w} for w in state["ps"][dec["seat"]]["hand"]]


@resolver_for("writ_discard")
def discard(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Discard a writ to the bottom of the deck (until the hand is at the limit)."""
    pop(state)
    p = state["ps"][dec["seat"]]
    p["hand"].remove(move["writ"])
    state["writ_deck"].append(move["writ"])
    if len(p["hand"]) > HAND_LIMIT:
        push(state, {"kind": "writ_discard", "seat": dec["seat"]})


def discard_voluntarily(state: State, seat: int, wid: str) -> None:
    """Discard an unused writ to the bottom of the deck at the start of a turn [A-60]."""
    p = state["ps"][seat]
    p["hand"].remove(wid)
    state["writ_deck"].append(wid)
    log(state, words.line("discards", who=p["name"]))


# -- mandates -------------------------------------------------------------------------------


def mandate_moves(state: State, seat: int) -> list[dict]:
    """Mandates the player can play now (at the start of any of their turns) [A-34]."""
    p = state["ps"][seat]
    moves = []
    for wid in p["hand"]:
        writ = WRITS[wid]
        if writ["kind"] != "mandate":
            continue
        if "options" in writ:
            for i, opt in enumerate(writ["options"]):
                if can_pay(p, opt["cost"]) and _gain_possible(state, seat, opt["gain"]):
                    moves.append({"type": "mandate", "writ": wid, "option": str(i)})
        else:
            for guild in writ["status"]:
                if status.stars(state, seat, guild) < 3:
                    continue
                for option in _status_options(state, guild):
                    moves.append({"type": "mandate", "writ": wid, "option": option})
    return moves


def _gain_possible(state: State, seat: int, gain: dict) -> bool:
    if "markers" in gain:
        return state["marker_supply"][str(seat)] > 0
    if "vessel" in gain:
        return state["vessel_supply"][gain["vessel"]] > 0
    return True


def _status_options(state: State, guild: str) -> list[str]:
    if guild == "alchemist":
        return [f"alchemist:{k}" for k in VESSELS if state["vessel_supply"][k] > 0]
    if guild in ("noble", "monk"):
        return [guild] if state["seal_supply"] else []
    return [guild]


def play_mandate(state: State, seat: int, move: dict, rng: GameRandom) -> None:
    """Play a mandate from hand; it goes to the bottom of the deck."""
    p = state["ps"][seat]
    writ = WRITS[move["writ"]]
    option = move["option"]
    p["hand"].remove(move["writ"])
    state["writ_deck"].append(move["writ"])
    if "options" in writ:
        opt = writ["options"][int(option)]
        pay(state, p, opt["cost"])
        gain = opt["gain"]
    else:
        guild, _, kind = option.partition(":")
        gain = {"farmer": {"goods": 3}, "merchant": {"shillings": 3}, "alchemist": {"vessel": kind},
                "knight": {"markers": 3}, "noble": {"seal": 1}, "monk": {"bead": 1}}[guild]
    _gain(state, seat, gain, rng)
    log(state, words.line("mandate", who=p["name"], writ=writ["name"]))


def _gain(state: State, seat: int, gain: dict, rng: GameRandom) -> None:
    p = state["ps"][seat]
    key = str(seat)
    if "markers" in gain:
        got = min(gain["markers"], state["marker_supply"][key])
        state["marker_supply"][key] -= got
        p["markers"] += got
    if "shillings" in gain:
        p["shillings"] += gain["shillings"]
    if "vessel" in gain and state["vessel_supply"][gain["vessel"]] > 0:
        state["vessel_supply"][gain["vessel"]] -= 1
        p["vessels"][gain["vessel"]] += 1
    if "goods" in gain:
        for good in draw_goods(state, gain["goods"], rng):
            p["goods"][good] += 1
    if "seal" in gain and state["seal_supply"]:
        p["seals"].append(state["seal_supply"].pop())
    if "bead" in gain and state["seal_supply"]:
        p["beads"].append(state["seal_supply"].pop())


# -- charters -------------------------------------------------------------------------------


def charter_value(state: State, seat: int, wid: str) -> int:
    """What a charter would score for this player if sealed now."""
    writ = WRITS[wid]
    p = state["ps"][seat]
    if writ["score"] == "barrel":
        return {2: writ["vp"][0], 3: writ["vp"][1]}.get(p["barrel"], 0)
    if writ["score"] == "monster":
        return writ["vp"][0] if p["slain"] else 0
    count = status.stars(state, seat, writ["guild"])
    if count == 0:
        return 0
    return writ["vp"][min(count, len(writ["vp"])) - 1]


def unsealed_charters(state: State, seat: int) -> list[str]:
    """Charters in hand that do not carry a king's seal yet."""
    p = state["ps"][seat]
    return [w for w in dict.fromkeys(p["hand"])
            if WRITS[w]["kind"] == "charter" and w not in p["sealed"]]


def wants_sealing(state: State, seat: int) -> bool:
    """Whether the player still has a free king's seal and an unsealed charter."""
    p = state["ps"][seat]
    return len(p["sealed"]) < len(p["seals"]) and bool(unsealed_charters(state, seat))


def start_sealing(state: State, order: list[int]) -> None:
    """End of the game (B8.3): in turn order, each player places seals on charters [A-35]."""
    for seat in reversed(order):
        if wants_sealing(state, seat):
            push(state, {"kind": "seal_charters", "seat": seat})


@options_for("seal_charters")
def seal_charter_options(state: State, dec: dict) -> list[dict]:
    """Seal one more charter in hand, or stop."""
    moves: list[dict] = [{"type": "seal_charter", "writ": w}
                         for w in unsealed_charters(state, dec["seat"])]
    return moves + [{"type": "done"}]


@resolver_for("seal_charters")
def seal_charter(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Place one of the player's king's seals on a charter (one seal per charter)."""
    pop(state)
    if move["type"] == "done":
        return
    p = state["ps"][dec["seat"]]
    p["sealed"].append(move["writ"])
    log(state, words.line("seals", who=p["name"]))
    if wants_sealing(state, dec["seat"]):
        push(state, dec)


def sealed_charters(state: State, seat: int) -> tuple[int, list[str]]:
    """The charters the player sealed and what they score: (vp, charters sealed)."""
    sealed = [w for w in state["ps"][seat]["sealed"] if w in state["ps"][seat]["hand"]]
    return sum(charter_value(state, seat, w) for w in sealed), sealed
