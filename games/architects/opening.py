"""Setup: cards, board, starting silver and characters, and the opening Building draft."""

from __future__ import annotations

from typing import Any

from games.architects import automaton, captures, cards, guildhall, supply, turn, workshop
from games.rng import GameRandom

State = dict[str, Any]
COLOURS = ("blue", "green", "purple", "red", "yellow")
RESOURCE_MARKETS = (3, 12, 21, 40)
WORKERS = 20


def _player(name: str, seat: int | None, colour: str, total: int) -> dict[str, Any]:
    return {"name": name, "seat": seat, "bot": seat is None, "colour": colour,
            "character": None, "silver": 0, "clay": 0, "wood": 0, "stone": 0, "gold": 0,
            "marble": 0, "virtue": 7, "debts": 0, "paid_debts": 0, "workers": WORKERS,
            "captured": [0] * total, "hand": [], "buildings": [], "apprentices": [],
            "cathedral": 0}


def characters_in_play(options: dict[str, Any]) -> list[str]:
    """Rules 3: the rulebook's five character boards, or all ten with ``extra_characters``
    (Lothaire, Hugo, Clovis, Fara and Bertha are not in the rulebook: notes section 5)."""
    return sorted(name for name, c in cards.characters().items()
                  if c["base_box"] or options.get("extra_characters"))


def setup(players: list[str], options: dict[str, Any], rng: GameRandom,
          rules: int = 2) -> State:
    """The state after setup under rules version ``rules``; the game opens with the
    Building draft."""
    n = len(players)
    with_bot = n == 1 or options.get("bot_opponent", False)
    total = n + (1 if with_bot else 0)
    people = [_player(name, i, COLOURS[i], total) for i, name in enumerate(players)]
    if with_bot:
        people.append(_player(options.get("solo_level", "constantine").title(), None,
                              "grey", total))
    deck = cards.base_ids(cards.buildings(), options.get("promos", False))
    if n == 1:
        deck = [c for c in deck if c not in RESOURCE_MARKETS]
    rewards = rng.shuffled(list(range(len(cards.board()["reward_cards"]))))
    n_rewards = 2 * max(2, total) + 1
    state: State = {
        "options": options, "n": n, "players": people,
        "automaton": None,
        "board": {loc: [0] * total for loc in captures.LARGE},
        "black_market": [None, None, None],
        "guildhall": [], "guildhall_side": [], "guildhall_size": guildhall.size(total),
        "prison": [0] * total, "tax": 4,
        "deck": rng.shuffled(deck),
        "app_deck": rng.shuffled(cards.base_ids(cards.apprentices(), options.get("promos", False))),
        "workshop": [[None] * 4, [None] * 4], "workshop_silver": [[0] * 4, [0] * 4],
        "bm_small": rng.shuffled(list(range(len(cards.board()["black_market_cards"])))),
        "bm_large": [],
        "rewards": rewards[:n_rewards], "rewards_used": [], "rewards_box": rewards[n_rewards:],
        "phase": "draft", "draft": None, "order": [], "turn_index": 0, "current": None,
        "pending": None, "reset_due": False, "final_turns": None, "turns": 0,
        "turn_limit": 1000 * total, "resets": 0, "result": None,
    }
    if rules >= 3:  # only then, so that a rules 2 state stays byte for byte as it was
        state["rules"] = rules
    for row in range(2):
        workshop.refill(state, row)
    if with_bot:
        state["automaton"] = automaton.new(options.get("solo_level", "constantine"), n, rng)
    # Characters (Variable Setup) and the first player.
    if options.get("variable_setup"):
        if rules >= 3:
            deal_boards(state, options, rng)
        else:
            chosen = options.get("characters") or []
            taken = set(chosen[:n])
            for i in range(n):
                if i < len(chosen):
                    name = chosen[i]
                else:
                    # One of the two boards of this seat's colour; never one already taken.
                    free = sorted(c["name"] for c in cards.characters().values()
                                  if c["name"] not in taken)
                    pair = [c for c in free if cards.characters()[c]["colour"] == COLOURS[i]]
                    name = rng.choice(pair or free)
                    taken.add(name)
                apply_character(state, i, name)
        top = max(pl["virtue"] for pl in people[:n])
        start = rng.choice([i for i in range(n) if people[i]["virtue"] == top])
    else:
        start = rng.below(n)
    state["order"] = [(start + k) % total for k in range(total)]
    if not options.get("variable_setup"):
        for k, i in enumerate([q for q in state["order"] if q < n]):
            people[i]["silver"] = 3 + k
    # The opening draft: deal 4 (solo: 5) to each player.
    hand = 5 if n == 1 else 4
    pools = [state["deck"][i * hand:(i + 1) * hand] for i in range(n)]
    del state["deck"][:hand * n]
    state["draft"] = {"round": 0, "pools": pools, "picked": [False] * n}
    return state


def deal_boards(state: State, options: dict[str, Any], rng: GameRandom) -> None:
    """Rules 3 Variable Setup: each player takes one of the boards in play, side 2 up
    (the ones named in ``characters`` first, the rest at random), and plays its colour.
    A board has one colour, so no colour is dealt twice."""
    chosen = list(options.get("characters") or [])
    colour = {name: c["colour"] for name, c in cards.characters().items()}
    for i in range(state["n"]):
        if i >= len(chosen):
            used = {colour[c] for c in chosen}
            chosen.append(rng.choice([c for c in characters_in_play(options)
                                      if colour[c] not in used]))
        state["players"][i]["colour"] = colour[chosen[i]]
        apply_character(state, i, chosen[i])


def apply_character(state: State, p: int, name: str) -> None:
    """Side 2 of the player board: starting Prisoners, Silver, Virtue, goods and Debts."""
    char = cards.characters()[name]
    pl = state["players"][p]
    pl["character"] = name
    pl["silver"] = char["silver"]
    pl["virtue"] = char["virtue"]
    for k, v in char["resources"].items():
        pl[k] += v
    pl["debts"] += char["debts"]
    pl["workers"] -= char["prison"]
    state["prison"][p] += char["prison"]


def draft_pick(state: State, seat: int, card: int, rng: GameRandom) -> None:
    """Keep one card from the pool; when all have kept, pass left (or finish the draft)."""
    draft = state["draft"]
    draft["pools"][seat].remove(card)
    state["players"][seat]["hand"].append(card)
    draft["picked"][seat] = True
    if not all(draft["picked"]):
        return
    draft["round"] += 1
    draft["picked"] = [False] * state["n"]
    if draft["round"] < 3:
        if state["n"] > 1:
            pools = draft["pools"]
            draft["pools"] = [pools[(i - 1) % state["n"]] for i in range(state["n"])]
        return
    for pool in draft["pools"]:
        state["deck"].extend(pool)
    state["draft"] = None
    for i, pl in enumerate(state["players"][:state["n"]]):
        if pl["character"]:
            supply.draw(state, i, cards.characters()[pl["character"]]["extra_cards"])
    state["phase"] = "play"
    state["turn_index"] = 0
    state["current"] = state["order"][0]
    turn.start_turn(state)
