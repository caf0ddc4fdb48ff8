"""Quests and the two resource actions: Gather, Craft (shared quests, sigils, completing a
quest, refilling the slot) and the solo quest conveyor."""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards, guild, treasures
from games.kings_guild.pending import push
from games.rng import GameRandom

State = dict[str, Any]

GATHER_BONUS = {"Miner": "metal", "Lumberjack": "wood", "Tanner": "leather", "Weaver": "cloth"}
COST_REDUCERS = {
    "Blacksmith": ("weapon", "metal"),
    "Woodworker": ("weapon", "wood"),
    "Leatherworker": ("armor", "leather"),
    "Tailor": ("armor", "cloth"),
}
STALE_ROUNDS = 5
HERO_SPECIALISTS = {"warrior": ("Fighter", "red"), "rogue": ("Ranger", "yellow"),
                    "mage": ("Wizard", "blue")}


def new_slot(qid: int) -> dict[str, Any]:
    """A quest card face up in a slot, nothing crafted yet."""
    items = len(cards.quests()[qid]["items"]) if qid in cards.quests() else 0
    return {"quest": qid, "crafted": [None] * items, "since": 0}


def has_sigil(slot: dict[str, Any] | None) -> bool:
    """Whether a guild sigil sits on this (half-crafted) quest."""
    return bool(slot) and None in slot["crafted"] and any(c is not None for c in slot["crafted"])


def sigil_owner(slot: dict[str, Any]) -> int | None:
    """The seat whose sigil sits on a half-crafted quest."""
    if not has_sigil(slot):
        return None
    return next(c for c in slot["crafted"] if c is not None)


# -- gather ----------------------------------------------------------------------------


def gather_picks(state: State, seat: int, picks: list[str]) -> list[str]:
    """Resource types that may be taken next: 3 of one kind or 2 different (Laborer: any 3)."""
    if len(picks) >= 3:
        return []
    kinds = [r for r in guild.gatherable(state, seat) if state["supply"][r] > picks.count(r)]
    if guild.has_specialist(state, seat, "Laborer"):
        return kinds
    if not picks:
        return kinds
    if len(picks) == 1:
        return kinds
    if picks[0] == picks[1]:
        return [r for r in kinds if r == picks[0]]
    return []


def finish_gather(state: State, seat: int, picks: list[str]) -> None:
    """Store the gathered resources, then the Miner/Lumberjack/Tanner/Weaver extras."""
    for r in picks:
        guild.gain_resource(state, seat, r)
    for name, resource in GATHER_BONUS.items():
        if guild.has_specialist(state, seat, name):
            guild.gain_resource(state, seat, resource)


# -- craft -----------------------------------------------------------------------------


def item_cost(state: State, seat: int, qid: int, item: int) -> dict[str, int]:
    """An item's resource cost after the Blacksmith/Woodworker/Leatherworker/Tailor."""
    data = cards.quests()[qid]["items"][item]
    cost = dict(data["cost"])
    for name, (kind, resource) in COST_REDUCERS.items():
        if data["type"] == kind and cost.get(resource) and guild.has_specialist(state, seat, name):
            cost[resource] -= 1
    return {r: n for r, n in cost.items() if n > 0}


def total_cost(state: State, seat: int, qid: int, items: list[int]) -> dict[str, int]:
    """Resources to craft ``items`` of a quest together."""
    total: dict[str, int] = {}
    for i in items:
        for r, n in item_cost(state, seat, qid, i).items():
            total[r] = total.get(r, 0) + n
    return total


def thug_toll(state: State, seat: int, index: int) -> int:
    """2 coins to the Thug's owner for crafting on the quest the Thug token is on."""
    thug = state["thug"]
    if thug and thug["slot"] == index and thug["owner"] != seat:
        return 2
    return 0


def craft_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Every legal ``craft`` move: one open item or both items of a quest."""
    p = guild.player(state, seat)
    out = []
    for index, slot in enumerate(state["quest_slots"]):
        if not slot or slot["quest"] not in cards.quests():
            continue
        if p["coins"] < thug_toll(state, seat, index):
            continue
        open_items = [i for i, c in enumerate(slot["crafted"]) if c is None]
        choices = [[i] for i in open_items]
        if len(open_items) == 2:
            choices.append(open_items)
        for items in choices:
            starts = len(slot["crafted"]) == 2 and len(open_items) == 2 and len(items) == 1
            if starts and guild.free_sigils(state, seat) <= 0:
                continue
            cost = total_cost(state, seat, slot["quest"], items)
            if all(p["resources"][r] >= n for r, n in cost.items()):
                out.append({"type": "craft", "slot": index, "quest": slot["quest"],
                            "items": items})
    return out


def craft(state: State, seat: int, index: int, items: list[int], rng: GameRandom) -> None:
    """Pay for and craft ``items`` of the quest in ``index``; earn their coins (Fortune Potion
    doubles one item each, best first); complete the quest if nothing is left; then queue the
    craft triggers (Thug, Warlock)."""
    p = guild.player(state, seat)
    slot = state["quest_slots"][index]
    qid = slot["quest"]
    quest = cards.quests()[qid]
    toll = thug_toll(state, seat, index)
    if toll:
        p["coins"] -= toll
        guild.player(state, state["thug"]["owner"])["coins"] += toll
    for r, n in total_cost(state, seat, qid, items).items():
        guild.lose_resource(state, seat, r, n)
    values = sorted((quest["items"][i]["coins"] for i in items), reverse=True)
    for value in values:
        if state["turn"]["fortune"] > 0 and state["current"] == seat:
            state["turn"]["fortune"] -= 1
            value *= 2
        p["coins"] += value
    for i in items:
        slot["crafted"][i] = seat
    state["stale_turns"] = 0
    triggers: list[dict[str, Any]] = []
    if guild.has_specialist(state, seat, "Thug"):
        triggers.append({"kind": "thug", "seat": seat})
    if guild.has_specialist(state, seat, "Warlock"):
        triggers.append({"kind": "warlock", "seat": seat})
    if None not in slot["crafted"]:
        triggers = complete(state, seat, index, rng) + triggers
    push(state, *triggers)


def complete(state: State, seat: int, index: int, rng: GameRandom) -> list[dict[str, Any]]:
    """The quest in ``index`` is complete: hand out the card and the treasures, return the
    sigil and the Thug token, and return the decisions that follow (keep a treasure,
    Fighter/Ranger/Wizard, the Appraiser, refilling the slot)."""
    slot = state["quest_slots"][index]
    qid = slot["quest"]
    others = [c for c in slot["crafted"] if c is not None and c != seat]
    partner = others[0] if others else None
    owner = partner if partner is not None else seat
    guild.player(state, owner)["quests"].append(qid)
    state["quest_slots"][index] = None
    state["stale_turns"] = 0
    if state["thug"] and state["thug"]["slot"] == index:
        state["thug"] = None
    colors = list(cards.quests()[qid]["reward"])
    lucky = state["turn"]["lucky"] and state["current"] == seat
    if lucky:
        state["turn"]["lucky"] = False
        colors = colors * 2
    follow: list[dict[str, Any]] = []
    if partner is None:
        for color in colors:
            treasures.draw_to_hand(state, seat, color, rng, follow)
        receivers = [seat]
    else:
        drawn = []
        for color in colors:
            card = treasures.draw(state, color, rng)
            if card is not None:
                drawn.append(card)
            elif treasures.available_colors(state):
                follow.append(treasures.substitute(seat, color, "keep"))
        total = len(drawn) + len(follow)
        keep = total // 2 if total > 1 else total
        follow.append({"kind": "keep_treasure", "seat": seat, "cards": drawn, "keep": keep,
                       "partner": partner})
        receivers = [seat, partner]
    hero_name, color = HERO_SPECIALISTS[cards.quests()[qid]["hero"]]
    for who in receivers:
        # Fighter/Ranger/Wizard: "When you gain treasure from a quest of the indicated hero
        # type" - the finisher and the starter of a shared quest, once per quest
        if guild.has_specialist(state, who, hero_name):
            follow.append({"kind": "hero_bonus", "seat": who, "color": color,
                           "specialist": hero_name})
    for who in receivers:
        if guild.has_specialist(state, who, "Appraiser"):
            follow.append({"kind": "appraiser", "seat": who})
    if not state["solo"]:
        follow.append({"kind": "refill", "seat": seat, "slot": index})
    return follow


def refill(state: State, index: int) -> None:
    """Draw the next quest card into an empty slot; the Funeral starts the bidding and the
    Offering to the Council triggers the end of the game."""
    if not state["quest_deck"] or state["quest_slots"][index] is not None:
        return
    qid = state["quest_deck"].pop(0)
    if qid == cards.COUNCIL:
        state["events_done"].append(qid)
        state["council_drawn"] = True
    elif qid == cards.FUNERAL:
        state["events_done"].append(qid)
        state["funeral"] = {"bids": {}, "slot": index}
    else:
        state["quest_slots"][index] = new_slot(qid)
        state["quest_slots"][index]["since"] = state["round_turn"]


def retire_stale_quest(state: State) -> None:
    """Option ``stall_breaker`` (not in the rulebook): after ``STALE_ROUNDS`` rounds in which
    nobody crafted and no quest left the board, the oldest quest without a sigil leaves the
    game (if every quest carries a sigil, the oldest goes to its sigil owner, without
    treasure) and the slot is refilled, so the deck keeps moving towards the Offering to the
    Council."""
    filled = [i for i, s in enumerate(state["quest_slots"]) if s]
    if not filled:
        return
    free = [i for i in filled if not has_sigil(state["quest_slots"][i])]
    index = min(free or filled, key=lambda i: state["quest_slots"][i]["since"])
    slot = state["quest_slots"][index]
    owner = sigil_owner(slot)
    if owner is None:
        state["quests_removed"].append(slot["quest"])
    else:
        guild.player(state, owner)["quests"].append(slot["quest"])
    state["quest_slots"][index] = None
    if state["thug"] and state["thug"]["slot"] == index:
        state["thug"] = None
    state["stale_turns"] = 0
    push(state, {"kind": "refill", "seat": state["current"], "slot": index})


def witch_slots(state: State) -> list[int]:
    """Slots holding a quest card with only one item."""
    return [
        i
        for i, s in enumerate(state["quest_slots"])
        if s and s["quest"] in cards.quests() and len(s["crafted"]) == 1
    ]


def take_quest(state: State, seat: int, index: int) -> None:
    """The Witch: take a one-item quest card (no coins, no treasure)."""
    slot = state["quest_slots"][index]
    guild.player(state, seat)["quests"].append(slot["quest"])
    state["quest_slots"][index] = None
    state["stale_turns"] = 0
    if state["thug"] and state["thug"]["slot"] == index:
        state["thug"] = None
    if not state["solo"]:
        push(state, {"kind": "refill", "seat": seat, "slot": index})


# -- solo conveyor ---------------------------------------------------------------------


def solo_conveyor(state: State) -> None:
    """End of a solo turn: with all six spots full remove the oldest card without a sigil,
    slide the quests away from the deck into the gaps, and reveal a new card next to it."""
    from games.kings_guild import specialists

    slots = state["quest_slots"]
    if all(s is not None for s in slots):
        for i in range(len(slots) - 1, -1, -1):
            if not has_sigil(slots[i]):
                _remove_from_board(state, slots[i])
                slots[i] = None
                break
    kept = [s for s in slots if s is not None]
    slots[:] = [None] * (len(slots) - len(kept)) + kept
    if slots[0] is not None or not state["quest_deck"]:
        return
    qid = state["quest_deck"].pop(0)
    if qid == cards.COUNCIL:
        state["events_done"].append(qid)
        state["council_drawn"] = True
    elif qid == cards.FUNERAL:
        specialists.remove_oldest(state)
        slots[0] = new_slot(qid)
    else:
        slots[0] = new_slot(qid)


def _remove_from_board(state: State, slot: dict[str, Any]) -> None:
    if slot["quest"] == cards.FUNERAL:
        state["events_done"].append(slot["quest"])
    else:
        state["quests_removed"].append(slot["quest"])


def funeral_spot(state: State) -> int | None:
    """Solo: the spot where the King's Funeral card lies, if it is on the board."""
    for i, s in enumerate(state["quest_slots"]):
        if s and s["quest"] == cards.FUNERAL:
            return i
    return None

