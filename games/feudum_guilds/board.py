"""Setup (B2): the six guild boards, the tokens, the region stacks and the players."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.components import GOODS, GUILDS, NEUTRAL, VESSELS, WRITS, C
from games.feudum_guilds.haversack import draw_goods, empty_goods, take_good
from games.rng import GameRandom

State = dict[str, Any]


def seat_count(n_players: int) -> int:
    """Guild seats: master and journeyman, plus apprentice with 4-5 players (B3)."""
    return 3 if n_players >= 4 else 2


def colour_key(colour: int | str) -> str:
    """The JSON key of an influence-marker colour (a seat number or a dummy colour)."""
    return str(colour)


def dummy_colours(n_players: int, rules: int) -> list[str]:
    """The colours of the dummy Knight rows that bring the board up to 4 colours [A-3].

    Rules 2 gave every dummy row the one neutral colour, so a 2-player board had 4 rows but
    only 3 colours; from rules 3 each dummy row has a colour of its own (``neutral-1``,
    ``neutral-2``), as the markers of a player colour nobody plays, 20 of each.
    """
    count = max(0, 4 - n_players)
    if rules < 3:
        return [NEUTRAL] * count
    return [f"{NEUTRAL}-{i + 1}" for i in range(count)]


def new_player(name: str) -> dict[str, Any]:
    """A player's starting supply (B2.1) before the three chosen goods."""
    start = C["start"]
    return {
        "name": name,
        "shillings": start["shillings"],
        "vp": 0,
        "goods": empty_goods(),
        "barrel": 0,
        "markers": start["markers"],
        "pawns": [{"guild": None, "wine": False} for _ in range(start["pawns"])],
        "locations": [],
        "next_location": 1,
        "beads": [],
        "seals": [],
        "sealed": [],
        "vessels": {k: 0 for k in VESSELS},
        "hand": [],
        "tiles": [],
        "reeves": [],
        "service": 0,
        "slain": 0,
        "selected": [],
        "played": [],
        "boost": None,
        "committed": False,
        "double_used": False,
        "guilds_used": [],
    }


def setup_state(players: list[str], options: dict[str, Any], rng: GameRandom,
                rules: int = 2) -> State:
    """The initial state; players then choose their goods and starting pawn in turn order.

    ``rules`` is the rules version; from 3 on it is kept in the state (``state["rules"]``)
    for the functions that see only the state, and a rules-2 state stays as it was.
    """
    n = len(players)
    state: State = {
        "n": n,
        "options": options,
        "phase": "setup",
        "round": 1,
        "epoch": 1,
        "start_player": rng.below(n),
        "haversack": dict(C["haversack"]),
        "tokens": rng.shuffled(C["bead_values"]),
        "seal_supply": [],
        "guilds": {g: {"seats": [None] * seat_count(n), "reeves": []} for g in GUILDS},
        "barn": empty_goods(),
        "chickens": [None] * C["chickens"],
        "purse": 0,
        "market": {g: 0 for g in GOODS},
        "alchemist": {g: 0 for g in GOODS},
        "vessel_space": {k: 0 for k in VESSELS},
        "vessel_supply": dict(C["vessels"]),
        "knight_rows": [],
        "monsters": {m: None for m in C["monsters"]},
        "monster_used": {m: False for m in C["monsters"]},
        "scrolls": [None] * C["scrolls"],
        "rosary": [],
        "coffer": 0,
        "marker_supply": {},
        "feudums": {g: C["feudums_per_guild"] for g in GUILDS},
        "stacks": [[1, 2, 3, 4] for _ in range(6)],
        "tiles_spent": 0,
        "writ_deck": [],
        "writs_removed": [],
        "ps": [new_player(name) for name in players],
        "stack": [],
        "act": {"current": None, "again": False},
        "log": [],
        "dawn": None,
        "outcome": None,
    }
    per_colour = C["markers_per_colour"]
    for seat in range(n):
        state["marker_supply"][colour_key(seat)] = per_colour - C["start"]["markers"]
    dummies = dummy_colours(n, rules)
    if rules >= 3:
        state["rules"] = rules
        for colour in dummies:
            state["marker_supply"][colour] = per_colour
    else:
        state["marker_supply"][NEUTRAL] = per_colour
    # Knight rows: one per player, dummy rows until at least 4 colours are present.
    colours: list[int | str] = [*range(n), *dummies]
    for colour in colours:
        row = {"colour": colour, "sections": [0, 0, 0]}
        for i, want in enumerate(C["knight_setup"]):
            key = colour_key(colour)
            put = min(want, state["marker_supply"][key])
            row["sections"][i] += put
            state["marker_supply"][key] -= put
        state["knight_rows"].append(row)
    # Merchant and Alchemist as shown.
    for good, count in C["merchant_setup"].items():
        for _ in range(count):
            if take_good(state, good):
                state["market"][good] += 1
    for good, count in C["alchemist_setup"].items():
        for _ in range(count):
            if take_good(state, good):
                state["alchemist"][good] += 1
    # Two random vessels on the vessel space.
    for _ in range(2):
        place_random_vessel(state, rng)
    # Seals: 4 onto the scrolls, 4 beads on the rosary, 1 bead on chicken 1, the rest in supply.
    tokens = list(range(len(state["tokens"])))
    for slot in C["scroll_setup"]:
        state["scrolls"][slot] = tokens.pop()
    for _ in range(C["rosary_setup"]):
        state["rosary"].append(tokens.pop())
    state["chickens"][0] = tokens.pop()
    state["seal_supply"] = tokens
    # Farmer barn: 10 random goods.
    for good in draw_goods(state, C["barn_capacity"], rng):
        state["barn"][good] += 1
    # Royal writ deck: the monster charter only with the Monsters module.
    deck = [w for w in WRITS if w != "C2" or options.get("monsters")]
    state["writs_removed"] = [w for w in WRITS if w not in deck]
    state["writ_deck"] = rng.shuffled(deck)
    # Players take their food; then choose 3 different goods and a starting pawn.
    for p in state["ps"]:
        for _ in range(C["start"]["food"]):
            if take_good(state, "food"):
                p["goods"]["food"] += 1
    order = turn_order(state)
    decisions = [{"kind": "setup_goods", "seat": s} for s in order]
    decisions += [{"kind": "setup_pawn", "seat": s} for s in order]
    state["stack"] = list(reversed(decisions))
    return state


def place_random_vessel(state: State, rng: GameRandom) -> bool:
    """Move a random vessel from the general supply to the Alchemist vessel space."""
    pool = [k for k in VESSELS for _ in range(state["vessel_supply"][k])]
    if not pool:
        return False
    kind = rng.choice(pool)
    state["vessel_supply"][kind] -= 1
    state["vessel_space"][kind] += 1
    return True


def turn_order(state: State) -> list[int]:
    """Seats clockwise from the start player."""
    n, start = state["n"], state["start_player"]
    return [(start + i) % n for i in range(n)]


def next_clockwise(state: State, seat: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % state["n"]
