"""The eighteen guild functions (B6): trade (anyone), pull (journeyman), push (master).

A function starts with :func:`start`; functions that need choices put a decision on the
stack (move goods one at a time, invent one thing at a time, place one seal at a time),
and finish with their scoring.  Below every function sits an ``after_guild`` entry for the
module hooks (reeves, vassal tribute, monster pilfer).
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import fists, status, words, writs
from games.feudum_guilds.board import colour_key, place_random_vessel
from games.feudum_guilds.components import GOODS, GUILDS, VESSELS, C, line_vp, threshold_vp
from games.feudum_guilds.flow import log, options_for, pop, push, resolver_for, score
from games.feudum_guilds.haversack import can_pay, pay, take_good
from games.feudum_guilds.trading import pay_shares, split_box
from games.rng import GameRandom

State = dict[str, Any]
ROLE = {"pull": 1, "push": 0}
MARKET_CAP = 4
ALCH_CAP = C["alchemist_capacity"]
# transfer functions: source, destination, how many goods
TRANSFERS = {
    "farmer_push": ("barn", "market", 5),
    "merchant_pull": ("barn", "market", 3),
    "merchant_push": ("market", "alchemist", 4),
    "alchemist_pull": ("market", "alchemist", 2),
}


# -- availability -------------------------------------------------------------------------


def seat_holds(state: State, seat: int, guild: str, function: str) -> bool:
    """Whether the seat holds the seat a pull (journeyman) or push (master) needs."""
    return status.holder(state, guild, ROLE[function]) == seat


def possible(state: State, seat: int, guild: str, function: str) -> bool:
    """Whether the function can be performed by ``seat`` as far as resources go.

    Pushes and pulls may move nothing and score nothing (B11) except the fist functions,
    which are impossible without a bead or a free chicken.  Trades need the price and at
    least one item.
    """
    p = state["ps"][seat]
    empty_chicken = None in state["chickens"]
    if function == "trade":
        if guild == "farmer":
            return any(_farm_goods(loc) for loc in p["locations"] if loc["kind"] == "farm")
        if guild == "merchant":
            return any(state["market"][g] and merchant_price(state, g) <= p["shillings"]
                       for g in GOODS)
        if guild == "alchemist":
            return p["shillings"] >= 3 and sum(state["vessel_space"].values()) > 0
        if guild == "knight":
            return p["shillings"] >= 3 and sum(own_row(state, seat)["sections"]) > 0
        if guild == "noble":
            return p["shillings"] >= 3 and bool(state["seal_supply"] or any_scroll(state))
        if guild == "monk":
            return p["shillings"] >= 3 and bool(state["rosary"])
    if (guild, function) in (("farmer", "pull"), ("monk", "push")):
        return bool(state["rosary"]) and empty_chicken
    return True


def available(state: State, seat: int, exclude: list[str]) -> list[dict]:
    """Every guild function the seat may perform with a Guild card (not at ``exclude`` guilds)."""
    moves = []
    for guild in GUILDS:
        if guild in exclude:
            continue
        for function in ("trade", "pull", "push"):
            if function != "trade" and not seat_holds(state, seat, guild, function):
                continue
            if possible(state, seat, guild, function):
                moves.append({"type": "guild", "guild": guild, "function": function})
    return moves


def _farm_goods(loc: dict) -> int:
    return sum(loc["goods"].values())


def own_row(state: State, seat: int) -> dict:
    """The player's own row at the Knight guild."""
    return next(r for r in state["knight_rows"] if r["colour"] == seat)


def any_scroll(state: State) -> bool:
    """Whether any seal lies on the Noble scrolls."""
    return any(t is not None for t in state["scrolls"])


def merchant_price(state: State, good: str) -> int:
    """The printed price under the rightmost occupied bin of the good's row [A-22]."""
    return C["merchant_prices"][good][state["market"][good] - 1]


# -- start ----------------------------------------------------------------------------------


def start(state: State, seat: int, guild: str, function: str, rng: GameRandom,
          feast: bool = False) -> None:
    """Begin a guild function for ``seat`` (a feaster acts in the seat-holder's place)."""
    push(state, {"kind": "after_guild", "seat": seat, "guild": guild, "function": function,
                 "feast": feast, "stage": 0})
    name = state["ps"][seat]["name"]
    log(state, words.line("feasts" if feast else "function", who=name, function=function,
                          guild_name=guild))
    key = f"{guild}_{function}"
    if key in TRANSFERS:
        _continue_transfer(state, {"kind": "transfer", "seat": seat, "fn": key,
                                   "left": TRANSFERS[key][2], "placed": []}, rng)
    elif key == "farmer_trade":
        push(state, {"kind": "send_farm", "seat": seat})
    elif key == "merchant_trade":
        push(state, {"kind": "buy_goods", "seat": seat, "bought": 0, "paid": 0})
    elif key == "alchemist_trade":
        push(state, {"kind": "buy_vessel", "seat": seat})
    elif key == "noble_trade":
        push(state, {"kind": "buy_seals", "seat": seat})
    elif key == "knight_trade":
        _knight_trade(state, seat)
    elif key == "monk_trade":
        pay_shares(state, seat, "monk", 3)
        fists.offer(state, seat, "monk_trade", {}, rng)
    elif key == "farmer_pull":
        fists.offer(state, seat, "farmer_pull", {}, rng)
    elif key == "monk_push":
        fists.offer(state, seat, "monk_push", {}, rng)
    elif key == "alchemist_push":
        cap = max(sum(1 for i, n in enumerate(r["sections"]) if n < C["knight_sections"][i])
                  for r in state["knight_rows"])
        _continue_invent(state, {"kind": "invent", "seat": seat, "fn": key, "left": 3,
                                 "made": [], "barrel_cap": cap}, rng)
    elif key == "knight_pull":
        _continue_invent(state, {"kind": "invent", "seat": seat, "fn": key, "left": 1,
                                 "made": [], "barrel_cap": 1}, rng)
    elif key in ("knight_push", "noble_pull"):
        _continue_seals(state, {"kind": "seal_scrolls", "seat": seat, "fn": key,
                                "left": 3 if key == "knight_push" else 2,
                                "colours": [], "placed": []}, rng)
    elif key in ("noble_push", "monk_pull"):
        _continue_flip(state, {"kind": "flip_seals", "seat": seat, "fn": key,
                               "left": 2 if key == "noble_push" else 1, "moved": 0}, rng)
    else:  # pragma: no cover - every key is handled above
        raise AssertionError(key)


# -- transfers of goods (Farmer push, Merchant pull/push, Alchemist pull) ----------------


def transfer_goods(state: State, fn: str) -> list[str]:
    """Goods that can be moved now by a transfer function (there is room at the destination)."""
    src, dst, _ = TRANSFERS[fn]
    cap = MARKET_CAP if dst == "market" else ALCH_CAP
    return [g for g in GOODS if state[src][g] > 0 and state[dst][g] < cap]


@options_for("transfer")
def transfer_options(state: State, dec: dict) -> list[dict]:
    """Goods that can move one at a time for this transfer."""
    return [{"type": "move_good", "good": g} for g in transfer_goods(state, dec["fn"])]


@resolver_for("transfer")
def transfer_step(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Move one good into the leftmost empty bin or space of its row or cart."""
    pop(state)
    src, dst, _ = TRANSFERS[dec["fn"]]
    good = move["good"]
    state[src][good] -= 1
    dec["placed"].append([good, state[dst][good]])
    state[dst][good] += 1
    dec["left"] -= 1
    _continue_transfer(state, dec, rng)


def _continue_transfer(state: State, dec: dict, rng: GameRandom) -> None:
    if dec["left"] > 0 and transfer_goods(state, dec["fn"]):
        push(state, dec)
        return
    seat, fn, placed = dec["seat"], dec["fn"], dec["placed"]
    if TRANSFERS[fn][1] == "market":
        completed = market_lines_completed(state, placed)
    else:
        completed = alchemist_groups_completed(state, placed)
    if fn == "farmer_push":
        score(state, seat, line_vp(completed), words.guild_function("Farmer push"))
        master, journeyman = split_box(state, "purse", "farmer", seat)
        log(state, words.line("purse", master=master, journeyman=journeyman))
    elif fn == "merchant_push":
        score(state, seat, line_vp(completed), words.guild_function("Merchant push"))
    elif completed >= 1:
        writs.reward_pull(state, seat, words.guild_function(fn.replace("_", " ")))


def market_lines_completed(state: State, placed: list[list]) -> int:
    """Rows (one per good) or columns (one per price tier) filled by this function [A-18]."""
    rows = {g for g, _ in placed if state["market"][g] == MARKET_CAP}
    tiers = {b for _, b in placed if all(state["market"][g] > b for g in GOODS)}
    return max(len(rows), len(tiers))


def alchemist_groups_completed(state: State, placed: list[list]) -> int:
    """Carts and piles that this function filled."""
    return len({g for g, _ in placed if state["alchemist"][g] == ALCH_CAP})


# -- trades ---------------------------------------------------------------------------------


@options_for("send_farm")
def send_farm_options(state: State, dec: dict) -> list[dict]:
    """Farms with goods, and how many of the pairs pay food (the others pay shillings) [A-41]."""
    p = state["ps"][dec["seat"]]
    moves = []
    for loc in p["locations"]:
        if loc["kind"] == "farm" and _farm_goods(loc):
            pairs = _farm_goods(loc) // 2
            most_food = min(pairs, state["haversack"]["food"])
            moves += [{"type": "send_farm", "location": loc["id"], "food": k}
                      for k in range(most_food + 1)]
    return moves


@resolver_for("send_farm")
def send_farm(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Farmer trade: send all goods of one farm to the barn; 1 food or 1 shilling per 2.

    The fragment: "acquired food and/or shillings" -- each pair pays food or a shilling, as
    the player chose in the move (``food`` pairs pay food, the rest shillings) [A-41].
    """
    pop(state)
    p = state["ps"][dec["seat"]]
    loc = next(x for x in p["locations"] if x["id"] == move["location"])
    sent = [g for g in GOODS for _ in range(loc["goods"][g])]
    for g in GOODS:
        loc["goods"][g] = 0
    rng.shuffle(sent)  # the order goods go into the barn decides which overflow
    room = C["barn_capacity"] - sum(state["barn"].values())
    for good in sent[:max(0, room)]:
        state["barn"][good] += 1
    overflow = sent[max(0, room):]
    spill = sum(state["tokens"][t] for t in state["chickens"] if t is not None)
    for i, good in enumerate(overflow):
        if i < spill and state["market"][good] < MARKET_CAP:
            state["market"][good] += 1
        elif i < spill and state["alchemist"][good] < ALCH_CAP:
            state["alchemist"][good] += 1
        else:
            state["haversack"][good] += 1
    pairs = len(sent) // 2
    food = 0
    for _ in range(move["food"]):
        if take_good(state, "food"):  # always there: the food was counted before sending
            food += 1
    p["goods"]["food"] += food
    p["shillings"] += pairs - food
    log(state, words.line("sends", who=p["name"], n=len(sent), food=food,
                          shillings=pairs - food))


@options_for("buy_goods")
def buy_goods_options(state: State, dec: dict) -> list[dict]:
    """Goods affordable now, and done after the first."""
    p = state["ps"][dec["seat"]]
    moves = [{"type": "buy", "good": g} for g in GOODS
             if state["market"][g] and merchant_price(state, g) <= p["shillings"]]
    if dec["bought"] >= 1:
        moves.append({"type": "done"})
    return moves


@resolver_for("buy_goods")
def buy_good(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Merchant trade: buy 1-3 goods, each at the price under its rightmost occupied bin."""
    pop(state)
    if move["type"] == "done":
        return
    seat, good = dec["seat"], move["good"]
    price = merchant_price(state, good)
    pay_shares(state, seat, "merchant", price, dec["paid"])
    state["market"][good] -= 1
    state["ps"][seat]["goods"][good] += 1
    dec["paid"] += price
    dec["bought"] += 1
    if dec["bought"] < 3 and buy_goods_options(state, dec):
        push(state, dec)


@options_for("buy_vessel")
def buy_vessel_options(state: State, dec: dict) -> list[dict]:
    """Vessel kinds on the vessel space."""
    return [{"type": "buy_vessel", "vessel": k} for k in VESSELS if state["vessel_space"][k]]


@resolver_for("buy_vessel")
def buy_vessel(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Alchemist trade: 1 vessel from the vessel space for 3 shillings."""
    pop(state)
    pay_shares(state, dec["seat"], "alchemist", 3)
    state["vessel_space"][move["vessel"]] -= 1
    state["ps"][dec["seat"]]["vessels"][move["vessel"]] += 1


@options_for("buy_seals")
def buy_seals_options(state: State, dec: dict) -> list[dict]:
    """1 or 2 seals, if affordable and available."""
    p = state["ps"][dec["seat"]]
    stock = len(state["seal_supply"]) + sum(1 for t in state["scrolls"] if t is not None)
    return [{"type": "buy_seals", "count": k} for k in (1, 2)
            if stock >= k and p["shillings"] >= 3 * k]


@resolver_for("buy_seals")
def buy_seals(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Noble trade: 1 or 2 seals for 3/6 shillings, from the supply, then the scrolls [A-24]."""
    pop(state)
    seat = dec["seat"]
    pay_shares(state, seat, "noble", 3 * move["count"])
    for _ in range(move["count"]):
        if state["seal_supply"]:
            token = state["seal_supply"].pop()
        else:
            slot = next(i for i, t in enumerate(state["scrolls"]) if t is not None)
            token, state["scrolls"][slot] = state["scrolls"][slot], None
        state["ps"][seat]["seals"].append(token)


def _knight_trade(state: State, seat: int) -> None:
    """Knight trade: pay 3 shillings and take every marker in your own row."""
    pay_shares(state, seat, "knight", 3)
    row = own_row(state, seat)
    taken = sum(row["sections"])
    row["sections"] = [0, 0, 0]
    state["ps"][seat]["markers"] += taken
    if state["options"].get("monsters") and taken >= 3:
        if any(owner is None for owner in state["monsters"].values()):
            push(state, {"kind": "tame", "seat": seat})


# -- fists: Farmer pull, Monk trade, Monk push ---------------------------------------------


def chicken_sum(state: State) -> int:
    """The sum of the beads (alms) on the chickens."""
    return sum(state["tokens"][t] for t in state["chickens"] if t is not None)


def rosary_sum(state: State) -> int:
    """The sum of the beads on the rosary."""
    return sum(state["tokens"][t] for t in state["rosary"])


def _to_chicken(state: State, bead: int) -> None:
    slot = state["chickens"].index(None)
    state["chickens"][slot] = bead


def _farmer_pull(state: State, actor: int, bead: int, ctx: dict, rng: GameRandom) -> None:
    _to_chicken(state, bead)
    log(state, words.line("alms", bead=state["tokens"][bead]))
    if chicken_sum(state) >= C["pull_chicken_threshold"]:
        writs.reward_pull(state, actor, words.guild_function("Farmer pull"))


def _monk_trade(state: State, actor: int, bead: int, ctx: dict, rng: GameRandom) -> None:
    state["ps"][actor]["beads"].append(bead)
    log(state, words.line("collects", who=state["ps"][actor]["name"],
                          bead=state["tokens"][bead]))


def _monk_push(state: State, actor: int, bead: int, ctx: dict, rng: GameRandom) -> None:
    _to_chicken(state, bead)
    log(state, words.line("alms", bead=state["tokens"][bead]))
    score(state, actor, threshold_vp(chicken_sum(state), C["push_chicken_thresholds"]),
          words.guild_function("Monk push"))
    master, journeyman = split_box(state, "coffer", "monk", actor)
    log(state, words.line("coffer", master=master, journeyman=journeyman))


fists.RESOLVERS.update({"farmer_pull": _farmer_pull, "monk_trade": _monk_trade,
                        "monk_push": _monk_push})


# -- inventions: Alchemist push, Knight pull ------------------------------------------------


def invent_choices(state: State, dec: dict) -> list[str]:
    """Inventions affordable from the Alchemist's carts and piles now."""
    out = []
    for kind in VESSELS:
        if state["vessel_supply"][kind] and _affordable(state, C["production"][kind]):
            out.append(kind)
    barrels = sum(1 for m in dec["made"] if m == "barrel")
    if barrels < dec["barrel_cap"] and barrels < len(C["barrels"]):
        cost = C["barrels"][barrels] if dec["fn"] == "alchemist_push" else C["barrels"][0]
        if _affordable(state, cost) and _barrel_room(state):
            out.append("barrel")
    return out


def _affordable(state: State, cost: dict[str, int]) -> bool:
    return all(state["alchemist"][g] >= n for g, n in cost.items())


def _barrel_room(state: State) -> bool:
    caps = C["knight_sections"]
    return any(n < caps[i] for r in state["knight_rows"] for i, n in enumerate(r["sections"]))


@options_for("invent")
def invent_options(state: State, dec: dict) -> list[dict]:
    """Affordable inventions, and done after the first (Alchemist push)."""
    moves = [{"type": "invent", "what": w} for w in invent_choices(state, dec)]
    if dec["made"]:
        moves.append({"type": "done"})
    return moves


@resolver_for("invent")
def invent_step(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Make one invention (or stop) and pay its goods to the haversack."""
    pop(state)
    if move["type"] == "done":
        dec["left"] = 0
    else:
        what = move["what"]
        if what == "barrel":
            ordinal = sum(1 for m in dec["made"] if m == "barrel")
            cost = C["barrels"][ordinal] if dec["fn"] == "alchemist_push" else C["barrels"][0]
            _spend_alchemist(state, cost)
            fill_barrel(state)
        else:
            _spend_alchemist(state, C["production"][what])
            state["vessel_supply"][what] -= 1
            state["vessel_space"][what] += 1
        dec["made"].append(what)
        dec["left"] -= 1
    _continue_invent(state, dec, rng)


def _spend_alchemist(state: State, cost: dict[str, int]) -> None:
    for good, n in cost.items():
        state["alchemist"][good] -= n
        state["haversack"][good] += n


def fill_barrel(state: State) -> None:
    """A krud barrel fills the leading non-full section of every row from the marker supply."""
    caps = C["knight_sections"]
    for row in state["knight_rows"]:
        for i, n in enumerate(row["sections"]):
            if n < caps[i]:
                key = colour_key(row["colour"])
                put = min(caps[i] - n, state["marker_supply"][key])
                row["sections"][i] += put
                state["marker_supply"][key] -= put
                break


def _continue_invent(state: State, dec: dict, rng: GameRandom) -> None:
    if dec["left"] > 0 and invent_choices(state, dec):
        push(state, dec)
        return
    made = len(dec["made"])
    if dec["fn"] == "alchemist_push":
        score(state, dec["seat"], line_vp(made), words.guild_function("Alchemist push"))
    elif made:
        writs.reward_pull(state, dec["seat"], words.guild_function("Knight pull"))


# -- seals onto the scrolls: Knight push, Noble pull --------------------------------------


def _row_colour(row: dict) -> str:
    return colour_key(row["colour"])


@options_for("seal_scrolls")
def seal_options(state: State, dec: dict) -> list[dict]:
    """A marker of a colour not used yet and an empty scroll for its seal."""
    moves = []
    if state["seal_supply"]:
        empty = [i for i, t in enumerate(state["scrolls"]) if t is None]
        for r, row in enumerate(state["knight_rows"]):
            if sum(row["sections"]) and _row_colour(row) not in dec["colours"]:
                moves += [{"type": "seal", "row": r, "scroll": s} for s in empty]
    if moves and dec["fn"] == "knight_push" and dec["placed"]:
        moves.append({"type": "done"})
    return moves


@resolver_for("seal_scrolls")
def seal_step(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Send one marker to the supply and put a seal, unseen, on a scroll."""
    pop(state)
    if move["type"] == "done":
        dec["left"] = 0
    else:
        row = state["knight_rows"][move["row"]]
        last = max(i for i, n in enumerate(row["sections"]) if n)
        row["sections"][last] -= 1
        state["marker_supply"][_row_colour(row)] += 1
        state["scrolls"][move["scroll"]] = state["seal_supply"].pop()
        dec["colours"].append(_row_colour(row))
        dec["placed"].append(move["scroll"])
        dec["left"] -= 1
    _continue_seals(state, dec, rng)


def scroll_lines_completed(state: State, placed: list[int]) -> int:
    """Rows or columns of the scroll staircase filled by this function [A-10][A-18]."""
    full = [t is not None for t in state["scrolls"]]

    def count(lines: list[list[int]]) -> int:
        """Lines that are full and hold a seal placed by this function."""
        return sum(1 for line in lines if all(full[i] for i in line) and set(line) & set(placed))

    return max(count(C["scroll_rows"]), count(C["scroll_columns"]))


def _continue_seals(state: State, dec: dict, rng: GameRandom) -> None:
    if dec["left"] > 0 and seal_options(state, dec):
        push(state, dec)
        return
    completed = scroll_lines_completed(state, dec["placed"])
    if dec["fn"] == "knight_push":
        score(state, dec["seat"], line_vp(completed), words.guild_function("Knight push"))
    elif completed:
        writs.reward_pull(state, dec["seat"], words.guild_function("Noble pull"))


# -- seals flipped onto the rosary: Noble push, Monk pull ---------------------------------


@options_for("flip_seals")
def flip_options(state: State, dec: dict) -> list[dict]:
    """Seals on the scrolls that can be flipped onto the rosary (cap 7)."""
    if len(state["rosary"]) >= C["rosary_capacity"]:
        return []
    return [{"type": "flip", "scroll": i} for i, t in enumerate(state["scrolls"]) if t is not None]


@resolver_for("flip_seals")
def flip_step(state: State, dec: dict, move: dict, rng: GameRandom) -> None:
    """Flip one seal from the scrolls onto the rosary."""
    pop(state)
    token = state["scrolls"][move["scroll"]]
    state["scrolls"][move["scroll"]] = None
    state["rosary"].append(token)
    log(state, words.line("flipped", bead=state["tokens"][token]))
    dec["left"] -= 1
    dec["moved"] += 1
    _continue_flip(state, dec, rng)


def _continue_flip(state: State, dec: dict, rng: GameRandom) -> None:
    if dec["left"] > 0 and flip_options(state, dec):
        push(state, dec)
        return
    if not dec["moved"]:
        return  # a function that moved nothing scores nothing
    total = rosary_sum(state)
    if dec["fn"] == "noble_push":
        score(state, dec["seat"], threshold_vp(total, C["push_rosary_thresholds"]),
              words.guild_function("Noble push"))
    elif total >= C["pull_rosary_threshold"]:
        writs.reward_pull(state, dec["seat"], words.guild_function("Monk pull"))


# -- helpers used by modules ----------------------------------------------------------------


def can_defeat(state: State, seat: int) -> list[str]:
    """Monsters another player controls that ``seat`` may defeat (1 saltpeter + 1 food)."""
    if not can_pay(state["ps"][seat], {"saltpeter": 1, "food": 1}):
        return []
    return [m for m, owner in state["monsters"].items() if owner is not None and owner != seat]


def defeat(state: State, seat: int, monster: str) -> None:
    """Defeat a monster: it returns to the Knight guild and its owner gets the marker back."""
    pay(state, state["ps"][seat], {"saltpeter": 1, "food": 1})
    owner = state["monsters"][monster]
    state["monsters"][monster] = None
    state["ps"][owner]["markers"] += 1
    state["ps"][seat]["slain"] += 1
    log(state, words.line("defeats", who=state["ps"][seat]["name"], monster=monster))


def replenish_vessels(state: State, rng: GameRandom, target: int = 2) -> None:
    """Top the vessel space up to ``target`` random vessels (dawn of epoch III)."""
    while sum(state["vessel_space"].values()) < target and place_random_vessel(state, rng):
        pass
