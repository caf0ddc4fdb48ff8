"""Progress, the epoch check, the dawn of a new epoch (B7) and the final scoring (B8)."""

from __future__ import annotations

from itertools import product
from typing import Any

from games.feudum_guilds import guilds, words, writs
from games.feudum_guilds.board import colour_key
from games.feudum_guilds.components import GUILDS, C
from games.feudum_guilds.flow import log
from games.feudum_guilds.haversack import draw_goods, take_good
from games.feudum_guilds.modules import vassalage
from games.rng import GameRandom

State = dict[str, Any]


def progress(state: State, rng: GameRandom) -> None:
    """Remove the top tile of a random stack whose top epoch is at most the current epoch.

    Rerolling the d6 until an eligible stack comes up is the same as choosing uniformly
    among the eligible stacks, which is what is recorded [A-32].
    """
    eligible = [i for i, s in enumerate(state["stacks"]) if s and s[0] <= state["epoch"]]
    if eligible:
        stack = eligible[rng.below(len(eligible))]
        state["stacks"][stack].pop(0)
        log(state, words.line("progress", stack=stack + 1))


def triggered_epoch(state: State) -> int | None:
    """The epoch triggered this round, if any (at most one advance per round [A-14])."""
    if state["options"].get("fixed_length"):
        return C["fixed_length_dawns"].get(str(state["round"]))
    nxt = state["epoch"] + 1
    if nxt > 5:
        return None
    showing = sum(1 for s in state["stacks"] if (s[0] if s else 5) >= nxt)
    return nxt if showing >= C["epoch_triggers"][str(nxt)] else None


def dawn(state: State, epoch: int, rng: GameRandom) -> None:
    """Dawn of a new epoch: status vp, disloyalty, replenish (III), famine (II, IV)."""
    state["epoch"] = epoch
    log(state, words.line("dawn", epoch=epoch))
    gained = [0] * state["n"]
    for guild in GUILDS:
        for rank, seat in enumerate(state["guilds"][guild]["seats"]):
            if seat is not None:
                state["ps"][seat]["vp"] += C["status_vp"][rank]
                gained[seat] += C["status_vp"][rank]
    famine = epoch in (2, 4) and state["options"].get("famine", True)
    # what the page shows about the latest dawn (public)
    state["dawn"] = {"epoch": epoch, "round": state["round"], "status_vp": gained,
                     "replenished": epoch == 3, "famine": bool(famine)}
    if state["options"].get("vassalage"):
        vassalage.disloyalty(state, epoch)
    if epoch == 3:
        replenish(state, rng)
    if famine:
        famine_returns(state, rng)
        log(state, words.line("famine"))


def famine_returns(state: State, rng: GameRandom) -> None:
    """Famine [A-25]: the alms leave the chickens for the seal supply, red side up.

    Their values were shown on the chickens.  Rules 2 put them under the supply, so once
    the unseen seals ran out every draw had a value known to all; from rules 3 they are
    shuffled into the supply (a recorded draw), so a seal's value stays hidden while it is
    red side up (B11) [A-64].
    """
    returned = False
    for i, token in enumerate(state["chickens"]):
        if token is not None:
            state["seal_supply"].insert(0, token)
            state["chickens"][i] = None
            returned = True
    if returned and state.get("rules", 2) >= 3:
        rng.shuffle(state["seal_supply"])


def replenish(state: State, rng: GameRandom) -> None:
    """Dawn of III: refill each guild up to its setup pattern; extra resources stay."""
    for good, want in C["merchant_setup"].items():
        while state["market"][good] < want and take_good(state, good):
            state["market"][good] += 1
    for good, want in C["alchemist_setup"].items():
        while state["alchemist"][good] < want and take_good(state, good):
            state["alchemist"][good] += 1
    guilds.replenish_vessels(state, rng)
    for slot in C["scroll_setup"]:
        if state["scrolls"][slot] is None and state["seal_supply"]:
            state["scrolls"][slot] = state["seal_supply"].pop()
    while len(state["rosary"]) < C["rosary_setup"] and state["seal_supply"]:
        state["rosary"].append(state["seal_supply"].pop())
    if all(t is None for t in state["chickens"]) and state["seal_supply"]:
        state["chickens"][0] = state["seal_supply"].pop()
    room = C["barn_capacity"] - sum(state["barn"].values())
    for good in draw_goods(state, room, rng):
        state["barn"][good] += 1
    caps = C["knight_sections"]
    for row in state["knight_rows"]:
        key = colour_key(row["colour"])
        for i, want in enumerate(C["knight_setup"]):
            while row["sections"][i] < min(want, caps[i]) and state["marker_supply"][key]:
                row["sections"][i] += 1
                state["marker_supply"][key] -= 1
    log(state, words.line("replenished"))


def great_empire(p: dict) -> int:
    """1 vp per outpost, farm or town; 3 per feudum; +3 per set of 3 of a kind (feudum wild)."""
    kinds = ("outpost", "farm", "town")
    counts = [sum(1 for loc in p["locations"] if loc["kind"] == k) for k in kinds]
    wild = sum(1 for loc in p["locations"] if loc["kind"] == "feudum")
    best = 0
    for a, b in product(range(wild + 1), repeat=2):
        if a + b <= wild:
            c = wild - a - b
            best = max(best, (counts[0] + a) // 3 + (counts[1] + b) // 3 + (counts[2] + c) // 3)
    return sum(counts) + 3 * wild + 3 * best


def final_scoring(state: State) -> None:
    """Score the end of the game and record the outcome."""
    breakdown = []
    for seat, p in enumerate(state["ps"]):
        charters_vp, sealed = writs.sealed_charters(state, seat)
        lines = {
            "great_empire": great_empire(p),
            "shillings": p["shillings"] // 3,
            "charters": charters_vp,
            "vessels": 2 * sum(p["vessels"].values()),
        }
        p["vp"] += sum(lines.values())
        lines["sealed"] = sealed
        breakdown.append(lines)
    scores = [p["vp"] for p in state["ps"]]
    barrels = [p["barrel"] for p in state["ps"]]
    ranking = sorted(range(state["n"]), key=lambda s: (-scores[s], -barrels[s], s))
    top = (scores[ranking[0]], barrels[ranking[0]])
    winners = [s for s in ranking if (scores[s], barrels[s]) == top]
    state["phase"] = "over"
    state["stack"] = []
    state["outcome"] = {
        "scores": scores,
        "ranking": ranking,
        "tie_break": "most sulfur in the wine barrel; still tied: shared win",
        "winners": winners,
        "breakdown": breakdown,
    }
    log(state, words.line("over"))


def goods_total(state: State, good: str) -> int:
    """Every unit of ``good`` in the game (for the conservation check)."""
    total = state["haversack"][good] + state["barn"][good] + state["market"][good]
    total += state["alchemist"][good]
    for p in state["ps"]:
        total += p["goods"][good] + sum(loc["goods"][good] for loc in p["locations"])
        if good == "sulfur":
            total += p["barrel"] + sum(1 for pawn in p["pawns"] if pawn["wine"])
    return total
