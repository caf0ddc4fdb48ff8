"""Bot policies for The King's Guild (``ravenpost bots --policy``).

A policy is a pure function ``(game, state, seat, chooser) -> move`` (see games/bots.py): it
never changes the state, and its only randomness is one ``chooser.choice`` among the moves
it prefers, so a game is repeatable from its seed.

* ``random``: a uniform legal move.
* ``crafter`` ("crafts when it can"): among the legal moves it prefers, in this order,
  crafting (first a craft that completes its quest, then one whose quest's other items
  need only resources it can gather: a sigil on a quest it can never finish is lost);
  gathering, and taking, the resources an open quest item still lacks (first those of the
  items nearest to being crafted); hiring a specialist or building a room; else a uniform
  legal move - except that, made to discard, it keeps what an open item lacks.
"""

from __future__ import annotations

import random
from typing import Any

from games.kings_guild import cards, guild, quests
from games.kings_guild.pending import top
from games.protocol import Game, Move, State

GATHERING = ("take", "gain")  # a resource picked in a Gather action, or gained for free
EXPANDING = ("hire", "build")


def random_move(game: Game, state: State, seat: int, chooser: random.Random) -> Move:
    """A uniform legal move."""
    return chooser.choice(_legal(game, state, seat))


def crafter_move(game: Game, state: State, seat: int, chooser: random.Random) -> Move:
    """Craft, else gather what an open quest item needs, else hire or build, else random."""
    moves = _legal(game, state, seat)
    crafts = [m for m in moves if m["type"] == "craft"]
    if crafts:
        return chooser.choice([m for m in crafts if completes(state, m)]
                              or [m for m in crafts if finishable(state, seat, m)] or crafts)
    target, lacking, wanted = needed_resources(state, seat)
    for resources in (lacking, wanted):
        picks = [m for m in moves if m["type"] in GATHERING and m["resource"] in resources]
        if picks:
            return chooser.choice(picks)
    gathering = [m for m in moves if m["type"] == "gather"] if wanted else []
    done = [m for m in moves if m["type"] == "done" and _gathering(state, seat) is not None]
    expanding = [m for m in moves if m["type"] in EXPANDING]
    held = guild.player(state, seat)["resources"]
    spare = [m for m in moves if m["type"] == "discard_resource"
             and held[m["resource"]] > target.get(m["resource"], 0)]
    return chooser.choice(gathering or done or expanding or spare or moves)


def completes(state: State, move: Move) -> bool:
    """Whether a ``craft`` move crafts every item its quest still lacks."""
    open_items = [c for c in state["quest_slots"][move["slot"]]["crafted"] if c is None]
    return len(move["items"]) == len(open_items)


def finishable(state: State, seat: int, move: Move) -> bool:
    """Whether the items a ``craft`` move leaves open on its quest cost only resources that
    ``seat`` can gather."""
    slot = state["quest_slots"][move["slot"]]
    gatherable = set(guild.gatherable(state, seat))
    return all(set(quests.item_cost(state, seat, slot["quest"], item)) <= gatherable
               for item, crafter in enumerate(slot["crafted"])
               if crafter is None and item not in move["items"])


def needed_resources(state: State, seat: int) -> tuple[dict[str, int], set[str], set[str]]:
    """The cost of the open quest item ``seat`` is nearest to (the fewest resources lacking,
    counting the picks of a Gather under way), the resources it lacks for that item, and
    those it lacks for any open item.

    Only items it could craft once it had their resources count: every resource of theirs
    gatherable, those it lacks still in the supply, the whole cost fitting its storage, and
    a free sigil to start a quest of two items."""
    held = dict(guild.player(state, seat)["resources"])
    supply = dict(state["supply"])
    entry = _gathering(state, seat)
    for r in entry["picks"] if entry else []:
        held[r] = held.get(r, 0) + 1
        supply[r] -= 1
    gatherable = set(guild.gatherable(state, seat))
    room = guild.storage_limit(state, seat)
    sigil = guild.free_sigils(state, seat) > 0
    best: tuple[int, dict[str, int], set[str]] | None = None
    wanted: set[str] = set()
    for slot in state["quest_slots"]:
        if not slot or slot["quest"] not in cards.quests():
            continue
        starts = len(slot["crafted"]) == 2 and slot["crafted"] == [None, None]
        for item, crafter in enumerate(slot["crafted"]):
            if crafter is not None or (starts and not sigil):
                continue
            cost = quests.item_cost(state, seat, slot["quest"], item)
            short = {r: n - held.get(r, 0) for r, n in cost.items() if n > held.get(r, 0)}
            if (not short or not set(cost) <= gatherable or sum(cost.values()) > room
                    or any(n > supply[r] for r, n in short.items())):
                continue
            wanted |= set(short)
            if best is None or sum(short.values()) < best[0]:
                best = (sum(short.values()), cost, set(short))
    return (best[1], best[2], wanted) if best else ({}, set(), wanted)


def _gathering(state: State, seat: int) -> dict[str, Any] | None:
    entry = top(state)
    return entry if entry and entry["kind"] == "gather" and entry["seat"] == seat else None


def _legal(game: Game, state: State, seat: int) -> list[Move]:
    moves = game.legal_moves(state, seat)
    if not moves:
        raise RuntimeError(f"seat {seat} is to act but has no legal move")
    return moves


POLICIES = {"random": random_move, "crafter": crafter_move}
