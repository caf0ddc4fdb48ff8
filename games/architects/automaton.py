"""The solo opponent (Constantine, or Helena on hard) driven by Scheme cards.

Notes section 6.2 (invented, as no published Scheme card text exists) with the rulebook's
limits: the opponent never pays goods or cards for the Cathedral and may always advance
it or visit the Black Market whatever its Virtue; its Guildhall workers score instead of
Buildings; it sells captured Workers for 1 Marble in all; of all goods it collects only
Marble (the Marble shown at Black Market space A or C), which counts only for scoring.
Its "Stash" gates Guildhall building.  Under rules 3 its Tax Stand step leaves the Silver
on the stand (rules 2 emptied it into the Stash).
"""

from __future__ import annotations

from typing import Any

from games.architects import black_market, captures, cards, cathedral, guildhall, virtue
from games.architects.locations import take_guildhall_space
from games.rng import GameRandom

State = dict[str, Any]

# Each Scheme card is a priority list: the first feasible step is taken.
SCHEMES: dict[str, list[str]] = {
    "Build": ["cathedral", "build", "quarry"],
    "Arrest": ["arrest", "guardhouse", "forest"],
    "Gather": ["quarry", "forest", "mines"],
    "Gather (silver)": ["silversmith", "mines", "quarry"],
    "Hire": ["workshop", "storehouse", "silversmith"],
    "Smuggle": ["smuggle", "tax_stand", "forest"],
    "Jail": ["guardhouse", "arrest", "quarry"],
    "Steal": ["tax_stand", "black_market", "mines"],
    "Double Arrest": ["double_arrest", "guardhouse", "quarry"],
    "Rush": ["rush", "quarry"],
    "Bribe": ["bribe", "storehouse", "silversmith"],
}
STARTING = (["Build"] * 5 + ["Arrest"] * 4 + ["Gather"] * 3 + ["Gather (silver)"] * 2
            + ["Hire"] * 2 + ["Smuggle"] * 2 + ["Jail", "Steal"])
FUTURE = (["Build"] * 3 + ["Arrest"] * 2 + ["Double Arrest"] * 2
          + ["Rush", "Smuggle", "Bribe"])
GATHER_SPOTS = ("quarry", "forest", "mines", "silversmith", "storehouse")


def new(level: str, index: int, rng: GameRandom) -> dict[str, Any]:
    """The automaton's deck state (card ids index STARTING + FUTURE)."""
    return {"level": level, "index": index, "stash": 0,
            "deck": rng.shuffled(list(range(len(STARTING)))), "discard": [],
            "future": list(range(len(STARTING), len(STARTING) + len(FUTURE))),
            "last": None}


def scheme_name(card: int) -> Any:
    """The name of a Scheme card id (a Text)."""
    from games.architects.words import scheme
    return scheme((STARTING + FUTURE)[card])


def on_reset(state: State, rng: GameRandom) -> None:
    """The first Black Market Reset shuffles the Future Schemes into the deck."""
    auto = state["automaton"]
    if auto["future"]:
        auto["deck"] = rng.shuffled(auto["deck"] + auto["future"])
        auto["future"] = []


def _build_cost(auto: dict[str, Any]) -> int:
    return 3 if auto["level"] == "helena" else 4


def _groups(state: State, b: int) -> list[tuple[int, int, str, int]]:
    """Human worker groups at large locations: (size, total there, location, player)."""
    out = []
    for loc in captures.LARGE:
        total = sum(state["board"][loc])
        for q, n in enumerate(state["board"][loc]):
            if n and q != b:
                out.append((n, total, loc, q))
    return sorted(out, key=lambda g: (-g[0], -g[1], captures.LARGE.index(g[2]), g[3]))


def _feasible(state: State, b: int, step: str) -> bool:
    auto, pl = state["automaton"], state["players"][b]
    if step == "cathedral":
        return guildhall.may_place(state) and cathedral.has_space(state, pl["cathedral"] + 1)
    if step == "build":
        return guildhall.may_place(state) and auto["stash"] >= _build_cost(auto)
    if step == "rush":
        return guildhall.may_place(state) and auto["stash"] + 2 >= _build_cost(auto)
    if step in ("arrest", "double_arrest"):
        groups = _groups(state, b)
        return bool(groups) and (step == "double_arrest" or groups[0][0] >= 2)
    if step == "guardhouse":
        return bool(sum(pl["captured"])) or state["prison"][b] >= 3
    if step == "tax_stand":
        return state["tax"] >= 3
    if step in ("smuggle", "black_market"):
        free = None in state["black_market"]
        return free and (step == "black_market" or pl["virtue"] >= 3)
    if step in ("workshop", "bribe"):
        return state["workshop"][0][0] is not None
    return step in GATHER_SPOTS


def take_turn(state: State, b: int, rng: GameRandom) -> None:
    """One automaton turn: a recall when out of Workers, else the top Scheme card."""
    auto, pl = state["automaton"], state["players"][b]
    if pl["workers"] == 0:
        for loc in captures.LARGE:
            pl["workers"] += state["board"][loc][b]
            state["board"][loc][b] = 0
        captures.release_prison(state, b)
        captures.release_boards(state, b)
        auto["deck"] = rng.shuffled(auto["deck"] + auto["discard"])
        auto["discard"] = []
        auto["last"] = None
        return
    if not auto["deck"]:
        auto["deck"] = rng.shuffled(auto["discard"])
        auto["discard"] = []
    card = auto["deck"].pop(0)
    auto["discard"].append(card)
    auto["last"] = card
    steps = SCHEMES[scheme_name(card)]
    step = next((s for s in steps if _feasible(state, b, s)), "quarry")
    _act(state, b, step)


def _act(state: State, b: int, step: str) -> None:
    auto, pl = state["automaton"], state["players"][b]
    pl["workers"] -= 1
    if step in ("cathedral", "build", "rush"):
        take_guildhall_space(state, b)
        if step == "cathedral":
            pl["cathedral"] += 1
            if state["rewards"]:
                card = state["rewards"].pop(0)
                state["rewards_used"].append(card)
                virtue.change(state, b, cards.board()["reward_cards"][card]["virtue"])
            else:
                virtue.change(state, b, 1)
        else:
            auto["stash"] += 2 if step == "rush" else 0
            auto["stash"] -= _build_cost(auto)
        return
    if step in ("smuggle", "black_market"):
        space = state["black_market"].index(None)
        if space != 1:  # it collects the Marble shown (only for scoring), no other goods
            pl["marble"] += black_market.offer(state, space).get("marble", 0)
        state["black_market"][space] = b
        virtue.change(state, b, -1)
        auto["stash"] += 2
        if None not in state["black_market"]:
            state["reset_due"] = True
        return
    loc = {"arrest": "town_centre", "double_arrest": "town_centre", "bribe": "workshop",
           "smuggle": "black_market"}.get(step, step)
    state["board"][loc][b] += 1
    here = state["board"][loc][b]
    if loc in GATHER_SPOTS:
        auto["stash"] += 2 if here >= 3 else 1
    elif loc == "workshop":
        card = state["workshop"][0][0]
        state["workshop"][0][0] = None
        state["workshop_silver"][0][0] = 0
        state["app_deck"].append(card)
        from games.architects.workshop import refill
        refill(state, 0)
        if step == "bribe":
            auto["stash"] += 1
    elif loc == "town_centre":
        n = 2 if auto["level"] == "helena" or (step == "double_arrest" and here >= 2) else 1
        for _ in range(n):
            groups = _groups(state, b)
            if groups:
                captures.capture(state, b, groups[0][2], groups[0][3], None)
    elif loc == "guardhouse":
        if captures.send_to_prison(state, b):
            pl["silver"] = 0
            pl["marble"] += 1
        if state["prison"][b] >= 3:
            captures.release_prison(state, b)
    elif loc == "tax_stand":
        if state.get("rules", 2) < 3:
            auto["stash"] += state["tax"] // 2
            state["tax"] = 0
        # Rules 3: it "doesn't collect/use Silver" (rulebook, Solo Play), so the Tax stays
        # on the stand; its Worker is there and stealing still costs it 2 Virtue.
        virtue.change(state, b, -2)



