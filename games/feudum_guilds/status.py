"""Guild status (B3): status stars and the seats of master, journeyman and apprentice."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.components import GUILDS, C

State = dict[str, Any]
SEAT_NAMES = ["master", "journeyman", "apprentice"]
LINKED: dict[str, str] = C["linked_location"]  # guild -> the location kind linked to it


def stars(state: State, seat: int, guild: str) -> int:
    """Pawns of the guild's character +1, its feudums +3; linked locations +1 once primary."""
    p = state["ps"][seat]
    primary = sum(1 for pawn in p["pawns"] if pawn["guild"] == guild)
    primary += 3 * sum(1 for loc in p["locations"]
                       if loc["kind"] == "feudum" and loc["guild"] == guild)
    if primary == 0:
        return 0
    linked = C["linked_location"][guild]
    return primary + sum(1 for loc in p["locations"] if loc["kind"] == linked)


def holder(state: State, guild: str, rank: int) -> int | None:
    """The seat holding rank 0 (master), 1 (journeyman) or 2 (apprentice), or None."""
    seats = state["guilds"][guild]["seats"]
    return seats[rank] if rank < len(seats) else None


def rank_of(state: State, seat: int, guild: str) -> int | None:
    """The rank a seat holds in a guild, or None."""
    seats = state["guilds"][guild]["seats"]
    return seats.index(seat) if seat in seats else None


def star_table(state: State) -> list[dict[str, int]]:
    """Stars of every seat in every guild (one pass over pawns and locations)."""
    table = []
    for p in state["ps"]:
        primary = {g: 0 for g in GUILDS}
        kinds = {"outpost": 0, "farm": 0, "town": 0}
        for pawn in p["pawns"]:
            if pawn["guild"]:
                primary[pawn["guild"]] += 1
        for loc in p["locations"]:
            if loc["kind"] == "feudum":
                primary[loc["guild"]] += 3
            else:
                kinds[loc["kind"]] += 1
        table.append({g: primary[g] + kinds[LINKED[g]] if primary[g] else 0 for g in GUILDS})
    return table


def update_guild(state: State, guild: str, table: list[dict[str, int]] | None = None) -> None:
    """The ranking update: surpass (never tie) to move up; 0 stars leaves the track."""
    table = table or star_table(state)
    track = state["guilds"][guild]["seats"]
    size = len(track)
    seated = [s for s in track if s is not None]
    if not seated and not any(row[guild] for row in table):
        return  # nobody holds a seat or a star here: nothing to rank (most guilds, early)
    st = {s: table[s][guild] for s in range(state["n"])}
    for s in list(seated):
        if st[s] == 0:
            seated.remove(s)
            state["ps"][s]["markers"] += 1
    seated.sort(key=lambda s: -st[s])  # stable: ties never displace
    order = [(state["start_player"] + i) % state["n"] for i in range(state["n"])]
    candidates = [s for s in order
                  if s not in seated and st[s] > 0 and state["ps"][s]["markers"] > 0]
    candidates.sort(key=lambda s: -st[s])
    for s in candidates:
        if len(seated) < size:
            seated.append(s)
        elif st[s] > st[seated[-1]]:
            bumped = seated.pop()
            state["ps"][bumped]["markers"] += 1
            seated.append(s)
        else:
            continue
        state["ps"][s]["markers"] -= 1
        seated.sort(key=lambda x: -st[x])
    state["guilds"][guild]["seats"] = seated + [None] * (size - len(seated))


def update_all(state: State) -> None:
    """Run the ranking update in every guild (after every state change, B11)."""
    table = star_table(state)
    for guild in GUILDS:
        update_guild(state, guild, table)
