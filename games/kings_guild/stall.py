"""Rules 3 stall breaker: is the table stuck?

Under rules 3 the breaker (option ``stall_breaker``) retires a quest only when :func:`stuck`
holds. The test asks, for every seat, whether some sequence of that seat's own legal moves
- over any number of its turns, the rest of the table standing still - could let it craft
something; the table is stuck when no seat can. It over-approximates what a seat can do:
every way the engine lets a seat gain a resource or a coin is counted in the seat's favour,
so when it still finds nothing, that seat cannot craft by its own moves (proof in RULES.md,
"Rules versions"). Everything it reads is public except the hands; :func:`hands_decide`
says when the hands changed the verdict.

``wealth(s)``, an upper bound on the coins ``s`` can ever spend: its coins, plus for each
treasure in its hand the best of its sell price (4 for Relics, Charms and Scrolls with the
Auctioneer) and the coins playing it gives (Scroll of Riches 4, Scroll of Wonders 1), plus
2 for every Scroll of Riches in another hand (its "next player" part). It is unbounded when
a treasure that draws unseen cards (Scroll of Wonders, Treasure Map) is in any hand, or when
``s`` can pay for a specialist in the row whose on-hire effect draws or takes treasures or
takes a quest (Adventurer, Merchant, Minstrel, Curator, Witch). Building adds no coins: the
cheapest room for sale costs 4, a coin bonus space pays 2 (4 with the Builder).

``s`` *can gather* ``r``: ``r`` is basic, or ``s`` may gather it already (Gem Workshop,
Magic Arcaenum, Sorceress), or ``s`` can pay for the Sorceress or the Alchemist in the row
(or is the Alchemist's owner), or for the Gem Workshop / Magic Arcaenum still for sale
(two players: not if ``s`` owns the other one). ``reach(s, r)`` is then every ``r`` in the
game (supply and every storage: a Spoiling Potion or a discard can return them to the
supply); otherwise what ``s`` holds, plus what its hand gives (Brilliant Diamonds 2 gems,
Bottle of Faerie Dust 2 magic) and every other seat's ``r`` if ``s`` owns or can pay for the
Smuggler. A seat that could hire once and then pay for a Sorceress, Alchemist, Smuggler or
drawing specialist not yet seen (specialist deck or box) reaches everything.

``s`` *may craft* a choice of items on a quest in a slot: one open item (if it does not start
a two-item quest, or ``s`` has a free sigil - sigils come back only when a quest is
completed) or both open items together, where ``wealth(s)`` covers the Thug's 2-coin toll.
The cost is lowered by 1 for every cost reducer of the item's type (Blacksmith, Woodworker,
Leatherworker, Tailor), whoever has it. The table is stuck when no seat may craft a choice
whose total cost is within its reach.
"""

from __future__ import annotations

import math
from typing import Any

from games.kings_guild import cards, guild, quests, rooms, specialists

State = dict[str, Any]

HAND_GAINS: dict[str, dict[str, int]] = {
    "Brilliant Diamonds": {"gem": 2},
    "Bottle of Faerie Dust": {"magic": 2},
}
"""Gems and magic a treasure in the hand gives when played (basics are always gatherable,
so every basic in the game already counts)."""

PLAY_COINS = {"Scroll of Riches": 4, "Scroll of Wonders": 1}
DRAWING_TREASURES = {"Scroll of Wonders", "Treasure Map"}
DRAWING_SPECIALISTS = {"Adventurer", "Merchant", "Minstrel", "Curator", "Witch"}
ACCESS_SPECIALISTS = {"Sorceress", "Alchemist", "Smuggler"}
GATHER_ROOMS = {"gem": "Gem Workshop", "magic": "Magic Arcaenum"}
OTHER_ROOM = {"gem": "Magic Arcaenum", "magic": "Gem Workshop"}


def wealth(state: State, seat: int, hands: bool = True) -> float:
    """An upper bound on the coins ``seat`` can spend (``inf``: unbounded); ``hands=False``
    leaves every hand out (the public part of the bound)."""
    p = guild.player(state, seat)
    coins: float = p["coins"]
    if hands:
        if any(cards.treasure_name(c) in DRAWING_TREASURES for o in state["guilds"]
               for c in o["hand"]):
            return math.inf
        auctioneer = guild.has_specialist(state, seat, "Auctioneer")
        for card in p["hand"]:
            t = cards.treasure(card)
            sell = 4 if auctioneer and t["category"] in ("Relic", "Charm", "Scroll") else t["sell"]
            coins += max(sell, PLAY_COINS.get(cards.treasure_name(card), 0))
        if state["n"] > 1:
            coins += 2 * sum(1 for i, o in enumerate(state["guilds"]) if i != seat
                             for c in o["hand"] if cards.treasure_name(c) == "Scroll of Riches")
    if any(_affords(state, seat, name, coins) for name in DRAWING_SPECIALISTS):
        return math.inf
    return coins


def _affords(state: State, seat: int, name: str, coins: float) -> bool:
    """Specialist ``name`` lies in the row at a price ``seat`` can pay, or is the right-most
    one there while the seat can pay for an Overseer in the row (who takes it for free)."""
    for i, entry in enumerate(state["specialist_row"]):
        if entry and cards.specialist_name(entry["id"]) == name:
            if specialists.price(state, seat, i) <= coins and _has_place(
                state, seat, coins - specialists.price(state, seat, i)
            ):
                return True
            if name != "Overseer" and specialists.oldest(state) == entry["id"] and (
                _affords(state, seat, "Overseer", coins)
            ):
                return True
    return False


def _has_place(state: State, seat: int, coins: float) -> bool:
    """Rules 4: ``seat`` has a free specialist place, or may build a chamber for ``coins``
    (a specialist never leaves a guild, so otherwise it can hire nobody). Rules 3: True."""
    if state.get("rules", 2) < 4 or guild.free_places(state, seat) > 0:
        return True
    return any(cards.rooms()[r].get("chamber_spaces") and rooms.in_supply(state, r)
               and not guild.has_room(state, seat, r) and rooms.cost(r) <= coins
               for r in cards.rooms())


def _unseen_hope(state: State, seat: int, coins: float) -> bool:
    """The seat could hire one specialist now and then pay for a useful one not yet seen."""
    seen = ({e["id"] for e in state["specialist_row"] if e} | set(state["specialists_removed"])
            | {s["id"] for p in state["guilds"] for s in p["specialists"]})
    useful = [s["cost"] for sid, s in cards.specialists().items()
              if sid not in seen and s["name"] in ACCESS_SPECIALISTS | DRAWING_SPECIALISTS]
    prices = [specialists.price(state, seat, i) for i, e in enumerate(state["specialist_row"])
              if e]
    return bool(useful and prices and state["specialist_deck"]) and (
        min(prices) + min(useful) <= coins
    )


def can_gather(state: State, seat: int, resource: str, coins: float) -> bool:
    """Whether ``seat`` may gather ``resource`` now or after paying for what unlocks it."""
    if resource in guild.gatherable(state, seat):
        return True
    if guild.has_specialist(state, seat, "Alchemist") and state.get("rules", 2) < 4:
        return True  # rules 4: the Alchemist trades once, when hired
    if _affords(state, seat, "Sorceress", coins) or _affords(state, seat, "Alchemist", coins):
        return True
    if state["n"] == 2 and guild.has_room(state, seat, OTHER_ROOM[resource]):
        return False  # two players: nobody may own both rooms
    room = GATHER_ROOMS[resource]
    return state["room_supply"].get(room, 0) > 0 and cards.rooms()[room]["cost"] <= coins


def reach(state: State, seat: int, hands: bool = True) -> dict[str, float]:
    """The most of each resource ``seat`` could hold (see the module docstring)."""
    p = guild.player(state, seat)
    coins = wealth(state, seat, hands)
    totals = state["resource_totals"]
    if _unseen_hope(state, seat, coins):
        return {r: totals[r] for r in cards.RESOURCES}
    smuggler = (guild.has_specialist(state, seat, "Smuggler") and state.get("rules", 2) < 4) or (
        _affords(state, seat, "Smuggler", coins))  # rules 4: the Smuggler steals when hired
    held = _releasable(state, hands) if state.get("rules", 2) >= 4 else None
    out: dict[str, float] = {}
    for r in cards.RESOURCES:
        if can_gather(state, seat, r, coins):
            out[r] = totals[r] if held is None else state["supply"][r] + sum(
                o["resources"][r] for i, o in enumerate(state["guilds"]) if i == seat or held[i])
            continue
        out[r] = p["resources"][r]
        if smuggler:
            out[r] += sum(o["resources"][r] for i, o in enumerate(state["guilds"]) if i != seat)
        if hands:
            for card in p["hand"]:
                out[r] += HAND_GAINS.get(cards.treasure_name(card), {}).get(r, 0)
    return out


def _releasable(state: State, hands: bool) -> list[bool] | None:
    """Rules 4: which seats may ever put what they store back into the supply (None: all
    of them - some hand holds a treasure, and a Spoiling Potion or a gain may do it).

    A seat's storage changes only when it gains (then it may have to discard) or crafts,
    or through a hire (Alchemist, Smuggler, Dealer), a bonus space or a treasure. So a seat
    counts when it may pay for a room or a specialist, or may gather a resource that is in
    the supply or that another counted seat stores. Crafting is left out: a seat that may
    craft makes the table not stuck anyway."""
    if hands and any(p["hand"] for p in state["guilds"]):
        return None
    n = state["n"]
    out = [False] * n
    loose = {r for r in cards.RESOURCES if state["supply"][r] > 0}
    for seat in range(n):
        coins = wealth(state, seat, hands)
        rooms_for_sale = [rooms.cost(r) for r in cards.rooms()
                          if rooms.in_supply(state, r) and not guild.has_room(state, seat, r)]
        row = [specialists.price(state, seat, i) for i, e in enumerate(state["specialist_row"])
               if e]
        out[seat] = coins == math.inf or min(rooms_for_sale + row, default=math.inf) <= coins
    changed = True
    while changed:
        changed = False
        for seat in range(n):
            if out[seat]:
                loose |= {r for r, k in guild.player(state, seat)["resources"].items() if k}
        for seat in range(n):
            if not out[seat] and any(can_gather(state, seat, r, wealth(state, seat, hands))
                                     for r in loose):
                out[seat] = changed = True
    return out


def craft_choices(state: State, seat: int, hands: bool = True) -> list[list[dict[str, Any]]]:
    """What ``seat`` may craft once it has the resources: lists of item data crafted
    together (the Thug's toll within its wealth; a free sigil to start a two-item quest with
    one item)."""
    coins = wealth(state, seat, hands)
    out = []
    for index, slot in enumerate(state["quest_slots"]):
        if not slot or slot["quest"] not in cards.quests():
            continue
        if quests.thug_toll(state, seat, index) > coins:
            continue
        items = cards.quests()[slot["quest"]]["items"]
        open_items = [i for i, c in enumerate(slot["crafted"]) if c is None]
        starts = len(items) == 2 and len(open_items) == 2
        if not starts or guild.free_sigils(state, seat) > 0:
            out += [[items[i]] for i in open_items]
        if len(open_items) == 2:
            out.append([items[i] for i in open_items])
    return out


def reducers(state: State, seat: int, hands: bool = True) -> set[str]:
    """Rules 4: the cost reducers ``seat`` has or may still hire - not another seat's (a
    specialist never changes guilds) nor one out of the game - if it can pay for any
    specialist in the row at all (hiring is how a card further down the deck comes up)."""
    owned = {cards.specialist_name(x["id"]) for i, p in enumerate(state["guilds"])
             if i != seat for x in p["specialists"]}
    gone = {cards.specialist_name(i) for i in state["specialists_removed"]}
    mine = {name for name in quests.COST_REDUCERS if guild.has_specialist(state, seat, name)}
    coins = wealth(state, seat, hands)
    prices = [specialists.price(state, seat, i) for i, e in enumerate(state["specialist_row"])
              if e]
    if not prices or min(prices) > coins:
        return mine
    return mine | (set(quests.COST_REDUCERS) - owned - gone)


def least_cost(choice: list[dict[str, Any]], names: set[str] | None = None) -> dict[str, int]:
    """The resources a choice of items costs together, every cost reducer applied (``names``:
    only those)."""
    need: dict[str, int] = {}
    for item in choice:
        less = {res for name, (kind, res) in quests.COST_REDUCERS.items()
                if kind == item["type"] and (names is None or name in names)}
        for r, n in item["cost"].items():
            need[r] = need.get(r, 0) + max(0, n - (1 if r in less else 0))
    return need


def may_craft(state: State, seat: int, hands: bool = True) -> bool:
    """Whether ``seat`` may reach the cost of anything it may craft."""
    have = reach(state, seat, hands)
    names = reducers(state, seat, hands) if state.get("rules", 2) >= 4 else None
    return any(all(have[r] >= n for r, n in least_cost(choice, names).items())
               for choice in craft_choices(state, seat, hands))


def stuck(state: State, hands: bool = True) -> bool:
    """No seat may craft anything by its own moves (``hands=False``: the hands left out, a
    verdict every player can compute)."""
    return not any(may_craft(state, s, hands) for s in range(state["n"]))


def hands_decide(state: State) -> bool:
    """Whether the verdict of :func:`stuck` depends on the hands: stuck without them and some
    hand holds a card (hands only add coins and resources, so otherwise they cannot)."""
    return any(p["hand"] for p in state["guilds"]) and stuck(state, hands=False)


def check_used_hands(before: State, after: State) -> bool:
    """Whether the move from ``before`` to ``after`` ended a turn at which the rules 3 stall
    check ran and its verdict could depend on the hands (then whether it fired tells the
    table something about them, so the move cannot be taken back)."""
    if after.get("rules", 2) < 3 or after["solo"] or not after["options"].get("stall_breaker"):
        return False
    if before["round_turn"] == after["round_turn"]:
        return False
    if before["stale_turns"] + 1 < quests.STALE_ROUNDS * after["n"]:
        return False
    if after["stale_turns"] == 0:  # it fired: the board changed since the check
        return any(p["hand"] for p in after["guilds"])
    return hands_decide(after)


# -- rules 4: a frozen round -------------------------------------------------------------

NO_CHANGE = frozenset({"end_turn", "bard"})
"""The only main-menu moves that change no resource, coin, card, quest or the supply: ending
the turn and the Bard's rearrangement of one's own specialists."""

HAND_MOVES = frozenset({"play", "sell"})


def bard_could_hire(state: State, seat: int) -> bool:
    """Whether ``seat`` could hire a specialist after a Bard rearrangement that it cannot hire
    now. A rearrangement changes where the free places are, never how many: every hire but
    the Aristocrat's needs only a count of free places (one, two for the Overseer). The
    Aristocrat also needs a free chamber place for its baggage: some arrangement has one
    when the seat has a chamber and at least two free places (move a specialist out of a
    full chamber into a free place elsewhere), so it is counted then, at its price."""
    if not guild.has_specialist(state, seat, "Bard") or guild.free_places(state, seat) < 2:
        return False
    if not any(space != guild.TOP for space in guild.space_capacity(state, seat)):
        return False
    coins = guild.player(state, seat)["coins"]
    return any(entry and cards.specialist_name(entry["id"]) == "Aristocrat"
               and specialists.price(state, seat, i) <= coins
               for i, entry in enumerate(state["specialist_row"]))


def frozen_seat(state: State, seat: int, hands: bool = True) -> bool:
    """Rules 4: ``seat``, at the start of its turn, has no move that changes anything but the
    places of its own specialists (``hands=False``: its treasures left out, the verdict every
    player can compute). Exact: the menu at the start of a turn lists every move the seat may
    make first; if they are only ending the turn and the Bard, the rest of the turn can only
    be Bard moves and the end, and :func:`bard_could_hire` covers every arrangement."""
    from games.kings_guild import turn  # turn imports this module

    what, current = turn.active(state)
    if what != "main" or current != seat or state["turn"]["action"] is not None:
        return False
    kinds = {m["type"] for m in turn.main_moves(state, seat)}
    if not hands:
        kinds -= HAND_MOVES
    return kinds <= NO_CHANGE and not bard_could_hire(state, seat)


def count_frozen_turn(state: State) -> bool:
    """Rules 4, at the start of every turn (option ``stall_breaker``, not solo): count the
    turns in a row whose seat was frozen (:func:`frozen_seat`); True when a whole round was,
    i.e. the table is frozen for good - nothing any seat can do changes anything any seat
    can do next - and the breaker retires a quest (the count then starts again)."""
    if state["over"] or state["solo"] or not state["options"].get("stall_breaker"):
        return False
    if not frozen_seat(state, state["current"]):
        state["frozen_turns"] = 0
        return False
    state["frozen_turns"] = state.get("frozen_turns", 0) + 1
    if state["frozen_turns"] < state["n"]:
        return False
    state["frozen_turns"] = 0
    return True


def frozen_check_used_hands(before: State, after: State) -> bool:
    """Whether the move from ``before`` to ``after`` ended a turn at which the rules 4 frozen
    check looked at a hand: the new current seat holds treasures and is frozen once they are
    left out (its treasures then decided the verdict, and whether the breaker fires later
    tells the table something about them)."""
    if after.get("rules", 2) < 4 or after["solo"] or after["over"]:
        return False
    if not after["options"].get("stall_breaker") or before["round_turn"] == after["round_turn"]:
        return False
    seat = after["current"]
    return bool(guild.player(after, seat)["hand"]) and frozen_seat(after, seat, hands=False)
