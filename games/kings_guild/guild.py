"""A player's guild: storage, hand size, rooms, specialist spaces and what it may gather."""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards

State = dict[str, Any]
TOP = "top"


def player(state: State, seat: int) -> dict[str, Any]:
    """The guild (player area) of ``seat``."""
    return state["guilds"][seat]


def has_specialist(state: State, seat: int, name: str) -> bool:
    """Whether ``seat`` has hired the specialist called ``name``."""
    sid = cards.specialist_ids()[name]
    for s in player(state, seat)["specialists"]:
        if s["id"] == sid:
            return True
    return False


def has_room(state: State, seat: int, name: str) -> bool:
    """Whether ``seat`` has the room called ``name`` in its guild."""
    return any(r["name"] == name for r in player(state, seat)["rooms"])


def storage_limit(state: State, seat: int) -> int:
    """Guild tile storage plus Warehouse, Courier and Peasant."""
    p = player(state, seat)
    limit = cards.guilds()[p["guild"]]["storage"]
    for room in p["rooms"]:
        limit += cards.rooms()[room["name"]].get("storage", 0)
    for name, extra in (("Courier", 1), ("Peasant", 2)):
        if has_specialist(state, seat, name):
            limit += extra
    return limit


def hand_limit(state: State, seat: int) -> int:
    """6 treasures, +3 with the Library, +2 with the Inventor."""
    limit = 6
    if has_room(state, seat, "Library"):
        limit += 3
    if has_specialist(state, seat, "Inventor"):
        limit += 2
    return limit


def stored(state: State, seat: int) -> int:
    """How many resources ``seat`` has in storage."""
    return sum(player(state, seat)["resources"].values())


def gatherable(state: State, seat: int) -> list[str]:
    """Resource types ``seat`` may gather or choose (gems/magic need a room or the Sorceress)."""
    kinds = list(cards.BASIC_RESOURCES)
    sorceress = has_specialist(state, seat, "Sorceress")
    if sorceress or has_room(state, seat, "Gem Workshop"):
        kinds.append("gem")
    if sorceress or has_room(state, seat, "Magic Arcaenum"):
        kinds.append("magic")
    return kinds


def gain_resource(state: State, seat: int, resource: str, amount: int = 1) -> int:
    """Take up to ``amount`` of ``resource`` from the supply (as far as stock allows)."""
    got = min(amount, state["supply"][resource])
    state["supply"][resource] -= got
    player(state, seat)["resources"][resource] += got
    return got


def lose_resource(state: State, seat: int, resource: str, amount: int = 1) -> int:
    """Return up to ``amount`` of ``resource`` from ``seat`` to the supply."""
    lost = min(amount, player(state, seat)["resources"][resource])
    player(state, seat)["resources"][resource] -= lost
    state["supply"][resource] += lost
    return lost


def occupied_cells(state: State, seat: int) -> set[tuple[int, int]]:
    """Board cells covered by the guild tile and rooms."""
    cells = {tuple(c) for c in cards.boards()["guild_cells"]}
    for room in player(state, seat)["rooms"]:
        cells.update(tuple(c) for c in room["cells"])
    return cells


def space_capacity(state: State, seat: int) -> dict[str, int]:
    """Specialist spaces: the four above the guild plus each chamber (and the Shrine)."""
    spaces = {TOP: cards.boards()["top_spaces"]}
    for room in player(state, seat)["rooms"]:
        n = cards.rooms()[room["name"]].get("chamber_spaces", 0)
        if n:
            spaces[room["name"]] = n
    return spaces


def space_use(state: State, seat: int) -> dict[str, int]:
    """How many places of each space are taken (specialists and the Aristocrat's baggage)."""
    p = player(state, seat)
    use = {name: 0 for name in space_capacity(state, seat)}
    for s in p["specialists"]:
        use[s["space"]] += 1
    if p["baggage"]:
        use[p["baggage"]] += 1
    return use


def free_spaces(state: State, seat: int) -> list[str]:
    """Spaces with at least one free place, top first."""
    cap = space_capacity(state, seat)
    use = space_use(state, seat)
    return [name for name in cap if use[name] < cap[name]]


def free_places(state: State, seat: int) -> int:
    """Total free specialist places."""
    cap = space_capacity(state, seat)
    use = space_use(state, seat)
    return sum(cap[n] - use[n] for n in cap)


def sigils_on_quests(state: State, seat: int) -> int:
    """Sigils of ``seat`` sitting on half-crafted quests."""
    count = 0
    for slot in state["quest_slots"]:
        if slot and slot["quest"] in cards.quests() and _has_sigil(slot, seat):
            count += 1
    return count


def _has_sigil(slot: dict[str, Any], seat: int) -> bool:
    crafted = slot["crafted"]
    return seat in crafted and None in crafted


def free_sigils(state: State, seat: int) -> int:
    """Sigils not on a quest and not on the Offering to the Council."""
    offered = 1 if player(state, seat)["offered"] else 0
    return 2 - sigils_on_quests(state, seat) - offered


def next_seat(state: State, seat: int) -> int:
    """The player on the left (clockwise)."""
    return (seat + 1) % state["n"]
