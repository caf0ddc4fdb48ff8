"""A player's turn: the pending choices after a placement, end of turn and end of game."""

from __future__ import annotations

from typing import Any

from games.architects import (
    apprentices,
    black_market,
    buildings,
    captures,
    cathedral,
    locations,
    scoring,
    supply,
    workshop,
)
from games.protocol import IllegalMove
from games.rng import GameRandom
from games.text import T

State = dict[str, Any]
Move = dict[str, Any]
HAND_LIMIT = 6
DONE = {"type": "done"}


# -- legal moves ----------------------------------------------------------------------------
def _trade_moves(state: State, p: int) -> list[Move]:
    pl = supply.player(state, p)
    out: list[Move] = []
    basic = ("clay", "wood", "stone")
    for i, a in enumerate(basic):
        for b in basic[i:]:
            pay = {a: 1, b: 1} if a != b else {a: 2}
            if supply.has(pl, pay):
                out.append({"type": "trade", "trade": "virtue", "pay": dict(sorted(pay.items()))})
    for wood in range(4):
        pay = {k: v for k, v in (("stone", 3 - wood), ("wood", wood)) if v}
        if supply.has(pl, pay):
            out.append({"type": "trade", "trade": "marble", "pay": pay})
    seen = []
    for cid, (pay, gain) in apprentices.trades(pl).items():
        if supply.has(pl, pay) and (pay, gain) not in seen:
            seen.append((pay, gain))
            out.append({"type": "trade", "trade": "apprentice", "card": cid})
    return out


def _workshop_hires(state: State, p: int, workers: int) -> list[Move]:
    plain, tax = workshop.hire_cost(state, p)
    base_plain, base_tax = supply.silver_cost(state, p, plain, tax)
    out = []
    for target in workshop.hire_targets(state, p):
        skips = workshop.skips_needed(workers, target["col"])
        if supply.player(state, p)["silver"] >= base_plain + base_tax + skips:
            out.append({"type": "hire", **target})
    return out


def pending_moves(state: State, p: int) -> list[Move]:
    """The moves that answer the current pending choice."""
    pend = state["pending"]
    kind = pend["kind"]
    pl = supply.player(state, p)
    if kind == "storehouse":
        return _trade_moves(state, p) + [DONE]
    if kind == "workshop":
        return _workshop_hires(state, p, pend["workers"]) + [{"type": "plans"}]
    if kind == "capture":
        return captures.targets(state, p, pend) + [DONE]
    if kind == "guardhouse":
        return captures.guard_moves(state, p) + [DONE]
    if kind == "bm_b":
        out = [{"type": "hire", **t} for t in workshop.hire_targets(state, p)]
        return out + ([{"type": "plans"}] if state["deck"] else [])
    if kind == "free_hire":
        return [{"type": "hire", **t} for t in workshop.hire_targets(state, p)]
    if kind == "keep":
        return [{"type": "keep", "card": c} for c in pend["cards"]]
    if kind in ("cathedral_discard", "hand_limit"):
        return [{"type": "discard", "card": c} for c in pl["hand"]]
    if kind == "library":
        return [{"type": "discard", "card": c} for c in pl["hand"]] + [DONE]
    if kind == "choice":
        return [{"type": "choose", "option": o} for o in pend["options"]]
    if kind == "crane":
        return locations.guildhall_moves(state, p) + [DONE]
    if kind == "guildhall":
        return locations.guildhall_choices(state, p)
    if kind == "dismiss":
        return [{"type": "dismiss", "card": c} for c in pl["apprentices"]]
    if kind == "recall":
        return recall_moves(state, p)
    raise AssertionError(kind)  # pragma: no cover


def recall_moves(state: State, p: int) -> list[Move]:
    """Workers that may come back on a turn that starts with none on the board.

    The rulebook: any 1 Worker from the Main Board, never from the Guildhall, the Black
    Market, the Prison or an opposing player's board.  With no Worker at a large
    location the turn is spent doing nothing (``pass``).
    """
    out: list[Move] = [{"type": "recall", "location": loc} for loc in captures.LARGE
                       if state["board"][loc][p]]
    return out or [{"type": "pass"}]


def moves_for(state: State, p: int) -> list[Move]:
    """Every legal move for player index ``p`` in the play phase."""
    if state["phase"] != "play" or state["current"] != p:
        return []
    if state["pending"] is not None:
        return pending_moves(state, p)
    return locations.place_moves(state, p)


# -- resolving moves ------------------------------------------------------------------------
def _close_if_idle(state: State, p: int) -> None:
    """Drop an optional step that has nothing left to do (only 'done' would remain)."""
    pend = state["pending"]
    if pend is None:
        return
    if pend["kind"] in ("storehouse", "capture", "guardhouse") and pend["left"] <= 0:
        state["pending"] = None
    elif pend["kind"] in ("storehouse", "capture", "guardhouse", "crane", "library") and \
            pending_moves(state, p) == [DONE]:
        state["pending"] = None
    elif pend["kind"] == "free_hire" and not pending_moves(state, p):
        state["pending"] = None


def resolve(state: State, p: int, move: Move, rng: GameRandom) -> None:
    """Apply a legal move (already checked) and carry the turn on."""
    kind = move["type"]
    pend = state["pending"]
    pl = supply.player(state, p)
    if kind == "place":
        state["pending"] = locations.place(state, p, move)
    elif kind in ("build", "cathedral"):
        state["pending"] = locations.guildhall_work(state, p, move)
    elif kind == "done":
        state["pending"] = None
    elif kind == "trade":
        _trade(state, p, move)
        pend["left"] -= 1
    elif kind == "hire":
        if pend["kind"] == "workshop":
            plain, tax = workshop.hire_cost(state, p)
            skips = workshop.skips_needed(pend["workers"], move["col"])
            supply.pay_silver(state, p, plain, tax)
            workshop.place_skip_silver(state, p, move["row"], skips)
        workshop.hire(state, p, move["row"], move["col"], move.get("discard"))
        state["pending"] = None
    elif kind == "plans":
        if pend["kind"] == "workshop":
            supply.draw(state, p, workshop.plans_count(pend["workers"]))
            state["pending"] = None
        else:
            drawn = state["deck"][:5]
            del state["deck"][:5]
            state["pending"] = {"kind": "keep", "cards": drawn}
    elif kind == "keep":
        pl["hand"].append(move["card"])
        state["deck"].extend(c for c in pend["cards"] if c != move["card"])
        state["pending"] = None
    elif kind == "capture":
        captures.capture(state, p, move["location"], move["player"], pend)
    elif kind == "guard":
        captures.guard(state, p, move["action"], move.get("by"))
        pend["left"] -= 1
    elif kind == "discard":
        if pend["kind"] == "cathedral_discard":
            state["pending"] = None
            cathedral.discard(state, p, move["card"])
        else:
            pl["hand"].remove(move["card"])
            state["deck"].append(move["card"])
            if pend["kind"] == "library":
                supply.gain(state, p, {"gold": 2})
                state["pending"] = None
            elif len(pl["hand"]) <= HAND_LIMIT:
                state["pending"] = None
                end_turn(state, rng)
                return
    elif kind == "choose":
        _choose(state, p, move["option"])
    elif kind == "dismiss":
        pl["apprentices"].remove(move["card"])
        state["app_deck"].append(move["card"])
        state["pending"] = None
    elif kind == "recall":
        state["board"][move["location"]][p] -= 1
        pl["workers"] += 1
        state["pending"] = None
    elif kind == "pass":
        state["pending"] = None
    else:  # pragma: no cover - legal_moves never offers anything else
        raise IllegalMove(T("unknown move type %(type)s", type=repr(kind)))
    _close_if_idle(state, p)
    action_done(state, rng)


def _trade(state: State, p: int, move: Move) -> None:
    pl = supply.player(state, p)
    if move["trade"] == "apprentice":
        pay, gain = apprentices.ABILITIES[move["card"]]["trade"]
    else:
        pay, gain = move["pay"], ({"virtue": 1} if move["trade"] == "virtue" else {"marble": 1})
    supply.pay(pl, pay)
    supply.gain(state, p, gain)


def _choose(state: State, p: int, option: str) -> None:
    card = supply.player(state, p)["buildings"][-1]
    state["pending"] = None
    if option == "capture":
        state["pending"] = {"kind": "capture", "left": 1, "locs": [], "max_locs": 1,
                            "paid": False, "made": 0}
    elif option == "release":
        captures.release_boards(state, p)
    else:
        supply.gain(state, p, buildings.CHOICE_GOODS[(card, option)])


# -- turn flow ------------------------------------------------------------------------------
def action_done(state: State, rng: GameRandom) -> None:
    """After an action: run a due Reset, enforce the hand limit, then end the turn."""
    if state["pending"] is not None or state["phase"] != "play":
        return
    if state["reset_due"]:
        state["reset_due"] = False
        black_market.reset(state, rng)
    p = state["current"]
    if len(supply.player(state, p)["hand"]) > HAND_LIMIT:
        state["pending"] = {"kind": "hand_limit"}
        return
    end_turn(state, rng)


def end_turn(state: State, rng: GameRandom) -> None:
    """Pass the turn on (running the automaton's turns); finish the game when due."""
    from games.architects import automaton

    while True:
        state["turns"] += 1
        if state["final_turns"] is not None:
            state["final_turns"] -= 1
            if state["final_turns"] <= 0:
                finish(state)
                return
        if state["turns"] >= state["turn_limit"]:
            finish(state)
            return
        state["turn_index"] = (state["turn_index"] + 1) % len(state["order"])
        p = state["order"][state["turn_index"]]
        state["current"] = p
        if supply.player(state, p)["bot"]:
            automaton.take_turn(state, p, rng)
            if state["reset_due"]:
                state["reset_due"] = False
                black_market.reset(state, rng)
            continue
        start_turn(state)
        return


def start_turn(state: State) -> None:
    """The special rule: with no Workers on the board, the turn is a recall."""
    p = state["current"]
    state["pending"] = None
    if supply.player(state, p)["workers"] == 0:
        state["pending"] = {"kind": "recall"}


def finish(state: State) -> None:
    """End-game building effects and final scoring."""
    state["phase"] = "over"
    state["pending"] = None
    state["current"] = None
    state["result"] = scoring.final(state)
