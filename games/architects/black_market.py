"""The Black Market: its 3 spaces and the Black Market Reset."""

from __future__ import annotations

from typing import Any

from games.architects import apprentices, captures, cards, supply, virtue
from games.rng import GameRandom

State = dict[str, Any]
SPACES = 3


def offer(state: State, space: int) -> dict[str, int]:
    """Goods at space A (0: Small Market card) or C (2: Large Market card), else printed."""
    printed = cards.board()["black_market_printed_on_board"]
    market = cards.board()["black_market_cards"]
    if space == 0:
        return market[state["bm_small"][0]]["small"] if state["bm_small"] else printed["A"]
    return market[state["bm_large"][0]]["large"] if state["bm_large"] else printed["C"]


def price(state: State, p: int, space: int) -> int:
    """Silver for a space: 1, 2 or 3 (Trickster 1 less)."""
    pl = supply.player(state, p)
    return max(0, space + 1 - apprentices.count(pl, "bm_discount"))


def may_place(state: State, p: int, space: int) -> bool:
    """Space free, Virtue below 10 (automaton exempt), Silver to pay, something to take."""
    pl = supply.player(state, p)
    if state["black_market"][space] is not None:
        return False
    if not pl["bot"] and not virtue.may_use_black_market(pl["virtue"]):
        return False
    if pl["silver"] < price(state, p, space):
        return False
    if space == 1:
        face_up = any(c is not None for row in state["workshop"] for c in row)
        return face_up or bool(state["deck"])
    return True


def take_space(state: State, p: int, space: int) -> None:
    """Place the Worker and pay; gain A/C goods and bonuses (B continues as a choice)."""
    pl = supply.player(state, p)
    state["black_market"][space] = p
    pl["silver"] -= price(state, p, space)
    if not apprentices.count(pl, "bm_no_virtue"):
        virtue.change(state, p, -1)
    bonus = apprentices.goods_bonus(pl, "black_market")
    if bonus:
        supply.gain(state, p, bonus)
    if pl.get("character") == "Caroline":
        supply.draw(state, p, 1)
    if space != 1:
        supply.gain(state, p, offer(state, space))
    if all(s is not None for s in state["black_market"]):
        state["reset_due"] = True


def reset(state: State, rng: GameRandom) -> None:
    """The five steps of a Black Market Reset."""
    # 1. Workers in the Black Market go to Prison.
    for space, q in enumerate(state["black_market"]):
        if q is not None:
            state["prison"][q] += 1
            state["black_market"][space] = None
    # 2. Turn the top Small Market card over onto the Large Market.
    if not state["bm_small"]:
        state["bm_small"] = rng.shuffled(state["bm_large"])
        state["bm_large"] = []
    if state["bm_small"]:
        state["bm_large"].insert(0, state["bm_small"].pop(0))
    # 3. Reset apprentices and characters.
    for q, pl in enumerate(state["players"]):
        release = apprentices.count(pl, "reset_release")
        if pl.get("character") == "Fara":
            release += 1
        if release:
            captures.release_prison(state, q, release)
        gain = apprentices.goods_bonus(pl, "reset_gain")
        if gain:
            supply.gain(state, q, gain)
        if state["prison"][q] == 0:
            bonus = apprentices.goods_bonus(pl, "reset_if_free")
            if bonus:
                supply.gain(state, q, bonus)
    # 4. Three or more in Prison: lose 1 Virtue.
    for q in range(len(state["players"])):
        if state["prison"][q] >= 3:
            virtue.change(state, q, -1)
    # 5. Most Workers in Prison: take 1 Debt each.
    most = max(state["prison"])
    if most > 0:
        for q, n in enumerate(state["prison"]):
            if n == most:
                virtue.take_debt(state, q)
    state["resets"] += 1
    if state.get("automaton") is not None:
        from games.architects import automaton
        automaton.on_reset(state, rng)
