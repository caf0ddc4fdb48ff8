"""Setup for 1-6 players by the rulebook's tables."""

from __future__ import annotations

from typing import Any

from games.kings_guild import cards, guild, rooms, specialists, treasures
from games.kings_guild.pending import push
from games.rng import GameRandom

State = dict[str, Any]


def quest_deck(n: int, rng: GameRandom) -> tuple[list[int], list[int]]:
    """Age I (both kinds shuffled together), the Funeral, Age II, the Council; and the box."""
    table = cards.setup_tables()["by_players"][str(n)]
    by_deck: dict[str, list[int]] = {"I-basic": [], "I-gem-magic": [], "II": []}
    for q in cards.quests().values():
        by_deck[q["deck"]].append(q["id"])
    boxed: list[int] = []
    chosen = {}
    for name, count in (("I-basic", table["age1_each"]), ("I-gem-magic", table["age1_each"]),
                        ("II", table["age2"])):
        ids = rng.shuffled(by_deck[name])
        chosen[name] = ids[:count]
        boxed += ids[count:]
    age1 = rng.shuffled(chosen["I-basic"] + chosen["I-gem-magic"])
    return age1 + [cards.FUNERAL] + chosen["II"] + [cards.COUNCIL], boxed


def new_state(players: list[str], rng: GameRandom) -> State:
    """The initial state; guild starting bonuses that need a choice are queued in seat order."""
    n = len(players)
    solo = n == 1
    table = cards.setup_tables()["by_players"][str(n)]
    masters = rng.shuffled(cards.MASTER_ROOMS)
    supply = {r: table["basic_resources"] for r in cards.BASIC_RESOURCES}
    supply.update({r: table["advanced_resources"] for r in ("gem", "magic")})
    spec_deck, spec_boxed = specialists.build_deck(table["specialists_per_deck"], solo, rng)
    qdeck, qboxed = quest_deck(n, rng)
    tdecks, tboxed = treasures.build_decks(solo, rng)
    mats = rng.shuffled(sorted(cards.boards()["mats"]))[:n]
    guild_names = rng.shuffled([g["name"] for g in cards.boards()["guilds"]])[:n]
    state: State = {
        "names": list(players),
        "n": n,
        "solo": solo,
        "over": False,
        "outcome": None,
        "current": 0,
        "round_turn": 1,
        "stale_turns": 0,
        "supply": supply,
        "resource_totals": dict(supply),
        "room_supply": {
            "Warehouse": table["warehouse_library"],
            "Library": table["warehouse_library"],
            "Gem Workshop": table["gem_magic_rooms"],
            "Magic Arcaenum": table["gem_magic_rooms"],
            "Bedchamber / Kitchen": table["chamber_tiles"],
            "Great Hall / Barracks": table["chamber_tiles"],
        },
        "master_rooms": sorted(masters[: table["master_rooms"]]),
        "masters_boxed": sorted(masters[table["master_rooms"]:]),
        "specialist_deck": spec_deck,
        "specialist_row": [None] * specialists.ROW,
        "specialists_removed": [],
        "specialists_boxed": spec_boxed,
        "quest_deck": qdeck,
        "quest_slots": [None] * table["quest_slots"],
        "quests_removed": [],
        "quests_boxed": qboxed,
        "events_done": [],
        "treasure_decks": tdecks,
        "discards": {c: [] for c in cards.COLORS},
        "treasures_removed": [],
        "treasures_boxed": tboxed,
        "thug": None,
        "funeral": None,
        "funeral_result": None,
        "council_drawn": False,
        "final_turns_left": None,
        "turn": new_turn(),
        "pending": [],
        "guilds": [],
    }
    specialists.refill_row(state)
    for i in range(len(state["quest_slots"])):
        from games.kings_guild import quests

        state["quest_slots"][i] = quests.new_slot(state["quest_deck"].pop(0))
    start_coins = cards.setup_tables()["starting_coins"]
    for seat in range(n):
        state["guilds"].append({
            "guild": guild_names[seat],
            "mat": mats[seat],
            "coins": start_coins[seat],
            "resources": {r: 0 for r in cards.RESOURCES},
            "hand": [],
            "rooms": [],
            "specialists": [],
            "baggage": None,
            "quests": [],
            "offered": False,
        })
    entries = []
    for seat in range(n):
        bonus = cards.guilds()[guild_names[seat]]["bonus"]
        if bonus["kind"] == "coins":
            guild.player(state, seat)["coins"] += bonus["coins"]
        elif bonus["kind"] == "resources":
            entries.append({"kind": "start_resources", "seat": seat})
        elif bonus["kind"] == "treasure":
            entries.append({"kind": "start_treasure", "seat": seat})
        elif bonus["kind"] == "shrine":
            entries.append({"kind": "place_room", "seat": seat, "room": rooms.SHRINE, "price": 0})
    push(state, *entries)
    return state


def new_turn() -> dict[str, Any]:
    """Per-turn bookkeeping: the action taken, purchases, active potions."""
    return {"action": None, "built": 0, "hired": 0, "fortune": 0, "lucky": False}
