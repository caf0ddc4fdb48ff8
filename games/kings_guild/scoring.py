"""Final scoring, category by category, exactly as the rulebook's list."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.kings_guild import cards, guild

State = dict[str, Any]
CATEGORIES = ["charms", "charm_bonus", "relics", "quests", "specialists", "rooms", "offering"]


def relic_points(hand: list[str]) -> int:
    """Sets of different Relics: 1..6 different score 2/5/9/13/17/22; none counted twice."""
    counts = Counter(cards.treasure_name(c) for c in hand
                     if cards.treasure(c)["category"] == "Relic")
    table = cards.relic_set_prestige()
    total = 0
    while counts:
        total += table[len(counts)]
        counts = Counter({k: v - 1 for k, v in counts.items() if v > 1})
    return total


def charms(hand: list[str]) -> list[str]:
    """The Charms in a hand."""
    return [c for c in hand if cards.treasure(c)["category"] == "Charm"]


def _quest_icons(state: State, seat: int) -> tuple[Counter, Counter]:
    heroes: Counter = Counter()
    items: Counter = Counter()
    for qid in guild.player(state, seat)["quests"]:
        quest = cards.quests()[qid]
        heroes[quest["hero"]] += 1
        for item in quest["items"]:
            items[item["type"]] += 1
    return heroes, items


def room_points(state: State, seat: int) -> dict[str, int]:
    """Prestige of each room: printed value, chambers only if full, star rooms by formula."""
    p = guild.player(state, seat)
    heroes, items = _quest_icons(state, seat)
    # "chambers only score if occupied by specialists": the Aristocrat's baggage token takes
    # a place but is not a specialist
    use = {name: 0 for name in guild.space_capacity(state, seat)}
    for s in p["specialists"]:
        use[s["space"]] += 1
    cap = guild.space_capacity(state, seat)
    out = {}
    for room in p["rooms"]:
        name = room["name"]
        data = cards.rooms()[name]
        points = data["prestige"]
        if "occupied_prestige" in data and use.get(name, 0) >= cap.get(name, 0):
            points += data["occupied_prestige"]
        rule = data.get("scoring")
        if rule:
            points += _formula(state, seat, rule, heroes, items, room)
        out[name] = points
    return out


def _formula(state: State, seat: int, rule: dict[str, Any], heroes: Counter, items: Counter,
             room: dict[str, Any]) -> int:
    p = guild.player(state, seat)
    kind = rule["kind"]
    if kind == "coins":
        return p["coins"] * rule["per"]
    if kind == "next_to_statue":
        statue = [r for r in p["rooms"] if r["name"] == "King's Statue"]
        if statue and _adjacent(room["cells"], statue[0]["cells"]):
            return rule["bonus"]
        return 0
    if kind == "specialists":
        return len(p["specialists"]) * rule["per"]
    if kind == "hero":
        return heroes[rule["hero"]] * rule["per"]
    if kind == "hero_set":
        return min(heroes[h] for h in rule["heroes"]) * rule["per"]
    if kind == "item":
        return items[rule["item"]] * rule["per"]
    if kind == "item_set":
        return min(items["weapon"], items["armor"]) * rule["per"]
    if kind == "rooms":
        return len(p["rooms"]) * rule["per"]
    if kind == "resource_types":
        return sum(1 for n in p["resources"].values() if n > 0) * rule["per"]
    if kind == "scrolls":
        scrolls = [c for c in p["hand"] if cards.treasure(c)["category"] == "Scroll"]
        return len(scrolls) * rule["per"]
    raise ValueError(f"unknown scoring rule {kind}")


def _adjacent(a: list[list[int]], b: list[list[int]]) -> bool:
    return any(abs(x1 - x2) + abs(y1 - y2) == 1 for x1, y1 in a for x2, y2 in b)


def offering_points(state: State, seat: int) -> int:
    """2 + 1 per 3 coins (not with the Vault of Riches) + 1 per 2 resources."""
    p = guild.player(state, seat)
    if not p["offered"]:
        return 0
    coins = 0 if guild.has_room(state, seat, "Vault of Riches") else p["coins"] // 3
    return 2 + coins + guild.stored(state, seat) // 2


def score_sheet(state: State) -> list[dict[str, Any]]:
    """One row per seat: each category, the rooms in detail, and the total."""
    charm_counts = [len(charms(guild.player(state, s)["hand"])) for s in range(state["n"])]
    most = max(charm_counts)
    sheet = []
    for seat in range(state["n"]):
        p = guild.player(state, seat)
        rooms_detail = room_points(state, seat)
        row = {
            "charms": sum(cards.treasure(c)["prestige"] for c in charms(p["hand"])),
            "charm_bonus": 3 if (not state["solo"] and most > 0
                                 and charm_counts[seat] == most) else 0,
            "relics": relic_points(p["hand"]),
            "quests": len(p["quests"]),
            "specialists": sum(cards.specialists()[s["id"]]["prestige"]
                               for s in p["specialists"]),
            "rooms": sum(rooms_detail.values()),
            "offering": offering_points(state, seat),
        }
        row["total"] = sum(row[c] for c in CATEGORIES)
        row["room_detail"] = rooms_detail
        row["coins"] = p["coins"]
        sheet.append(row)
    return sheet


def solo_title(score: int) -> str:
    """The solo title table: RECRUIT, MEMBER, LEADER, KING, LEGEND."""
    title = ""
    for threshold, name in cards.setup_tables()["solo"]["titles"]:
        if score >= threshold:
            title = name
    return title


def outcome(state: State) -> dict[str, Any]:
    """Scores, ranking (ties broken by coins; still tied share a place) and the sheet."""
    sheet = score_sheet(state)
    scores = [row["total"] for row in sheet]
    coins = [row["coins"] for row in sheet]
    order = sorted(range(state["n"]), key=lambda s: (-scores[s], -coins[s], s))
    places = [1 + sum(1 for o in range(state["n"]) if (scores[o], coins[o]) > (scores[s], coins[s]))
              for s in range(state["n"])]
    result: dict[str, Any] = {
        "scores": scores,
        "ranking": order,
        "places": places,
        "tie_break": "most coins left",
        "coins": coins,
        "winners": [s for s in range(state["n"]) if places[s] == 1],
        "sheet": sheet,
    }
    if state["solo"]:
        result["title"] = solo_title(scores[0])
    return result
