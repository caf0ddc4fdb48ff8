"""What each seat may see, log lines, move labels and the email summary.

Hidden: seal values (supply, scrolls, players' seals), the contents of each fist (only the
divider sees them), writ hands and writs being drawn (only their owner), the writ deck
order, and selected action cards and boosts until played (only their owner).  Token ids are
never shown, so nothing can be inferred from them.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import status
from games.feudum_guilds.components import CARDS, GUILDS, WRITS, C
from games.feudum_guilds.guilds import chicken_sum, merchant_price, rosary_sum
from games.svg import plural

State = dict[str, Any]
CARD_TEXT = {c["name"]: c["text"] for c in CARDS}
RANKS = ["master", "journeyman", "apprentice"]
PUBLIC_DECISION_FIELDS = ("kind", "seat", "card", "fn", "left", "guild", "function", "to",
                          "monster", "repeat")


def _name(state: State, seat: int | None) -> str:
    return state["ps"][seat]["name"] if seat is not None else "-"


def colour_name(state: State, colour: int | str) -> str:
    """The owner of a Knight row: a player's name, or a dummy colour (``neutral``, and from
    rules 3 ``neutral 1`` / ``neutral 2``)."""
    return state["ps"][colour]["name"] if isinstance(colour, int) else colour.replace("-", " ")


def writ_card(wid: str) -> dict[str, Any]:
    """A writ as shown to its owner."""
    w = WRITS[wid]
    out = {"id": wid, "name": w["name"], "kind": w["kind"]}
    if w["kind"] == "charter":
        out["scores"] = (f"{'/'.join(map(str, w['vp']))} vp"
                         + (f" for stars in the {w['guild'].title()} guild"
                            if "guild" in w else ""))
    return out


def _player(state: State, seat: int, viewer: int | None, stars: dict[str, int]) -> dict[str, Any]:
    p = state["ps"][seat]
    revealed = state["phase"] != "select"
    mine = viewer == seat
    out = {
        "seat": seat,
        "name": p["name"],
        "vp": p["vp"],
        "shillings": p["shillings"],
        "goods": dict(p["goods"]),
        "wine_barrel": p["barrel"],
        "markers": p["markers"],
        "pawns": [{"guild": pw["guild"], "wine": pw["wine"]} for pw in p["pawns"]],
        "locations": [{"id": loc["id"], "kind": loc["kind"], "guild": loc["guild"],
                       "goods": dict(loc["goods"])} for loc in p["locations"]],
        "beads": [state["tokens"][t] for t in p["beads"]],
        "seals": len(p["seals"]),
        "vessels": dict(p["vessels"]),
        "tiles": list(p["tiles"]),
        "reeves": list(p["reeves"]),
        "military_service": p["service"],
        "monsters_slain": p["slain"],
        "writs": len(p["hand"]),
        "played": list(p["played"]),
        "committed": p["committed"],
        "stars": dict(stars),
    }
    if revealed or mine:
        out["boost"] = p["boost"]
        out["cards_left"] = len(p["selected"]) - len(p["played"])
    if mine:
        out["hand"] = [dict(writ_card(w), sealed=w in p["sealed"]) for w in p["hand"]]
        out["selected"] = list(p["selected"])
    return out


PROMPTS = {
    "setup_goods": "take 3 different goods",
    "setup_pawn": "put the starting pawn into play",
    "turn": "play an action card",
    "card": "resolve the played card",
    "transfer": "move goods one at a time",
    "send_farm": "send a farm's goods to the barn",
    "buy_goods": "buy goods at the market",
    "buy_vessel": "buy a vessel",
    "buy_seals": "buy king's seals",
    "invent": "make inventions",
    "seal_scrolls": "turn influence markers into seals on the scrolls",
    "flip_seals": "flip seals onto the rosary",
    "fist_divide": "secretly divide two beads between the fists",
    "fist_pick": "pick a fist",
    "writ_keep": "keep one Royal Writ",
    "writ_discard": "discard down to 3 Royal Writs",
    "tile": "take a region tile",
    "tame": "tame a monster or decline",
    "pilfer": "pilfer a good with the monster",
    "reeve": "leave a reeve or not",
    "tribute": "pay tribute or not",
    "seal_charters": "place king's seals on charters",
    "nourish": "choose which pawns drink wine and which eat food",
}


def _pending(state: State, viewer: int | None) -> dict[str, Any] | None:
    if not state["stack"]:
        return None
    dec = state["stack"][-1]
    out = {k: dec[k] for k in PUBLIC_DECISION_FIELDS if k in dec}
    out["prompt"] = PROMPTS.get(dec["kind"], dec["kind"].replace("_", " "))
    if "fn" in dec:
        out["prompt"] += f" ({dec['fn'].replace('_', ' ')})"
    values = state["tokens"]
    if dec["kind"] == "fist_divide":
        out["beads"] = sorted(values[t] for t in dec["beads"])
        out["actor"] = dec["actor"]
    elif dec["kind"] == "fist_pick":
        out["beads"] = sorted(values[t] for t in dec["fists"])
        if viewer == dec["divider"]:
            out["fists"] = {"left": values[dec["fists"][0]], "right": values[dec["fists"][1]]}
    elif dec["kind"] == "writ_keep":
        out["count"] = len(dec["cards"])
        if viewer == dec["seat"]:
            out["cards"] = [writ_card(w) for w in dec["cards"]]
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The information state of ``seat`` (``None``: a spectator)."""
    values = state["tokens"]
    guild_view = {}
    for g in GUILDS:
        seats = state["guilds"][g]["seats"]
        guild_view[g] = {
            "patron": C["patrons"][g],
            "seats": [{"rank": RANKS[i], "seat": s,
                       "name": _name(state, s) if s is not None else None}
                      for i, s in enumerate(seats)],
            "reeves": list(state["guilds"][g]["reeves"]),
        }
    to_act = sorted(_to_act(state))
    table = status.star_table(state)
    return {
        "kind": "feudum-guilds",
        "seat": seat,
        "phase": state["phase"],
        "round": state["round"],
        "epoch": state["epoch"],
        "start_player": state["start_player"],
        "to_act": to_act,
        "options": dict(state["options"]),
        "guilds": guild_view,
        "farmer": {"barn": dict(state["barn"]), "capacity": C["barn_capacity"],
                   "chickens": [values[t] if t is not None else None for t in state["chickens"]],
                   "chicken_sum": chicken_sum(state), "purse": state["purse"]},
        "merchant": {"market": {g: {"count": state["market"][g],
                                    "prices": C["merchant_prices"][g],
                                    "price_now": (merchant_price(state, g)
                                                  if state["market"][g] else None)}
                                for g in C["merchant_rows"]}},
        "alchemist": {"carts": dict(state["alchemist"]), "capacity": C["alchemist_capacity"],
                      "vessel_space": dict(state["vessel_space"]),
                      "vessel_supply": dict(state["vessel_supply"])},
        "knight": {"rows": [{"colour": colour_name(state, r["colour"]), "seat": r["colour"],
                             "sections": list(r["sections"])} for r in state["knight_rows"]],
                   "monsters": {m: owner for m, owner in state["monsters"].items()}},
        "noble": {"scrolls": [t is not None for t in state["scrolls"]],
                  "seal_supply": len(state["seal_supply"])},
        "monk": {"rosary": [values[t] for t in state["rosary"]], "rosary_sum": rosary_sum(state),
                 "coffer": state["coffer"]},
        "haversack": dict(state["haversack"]),
        "stacks": [list(s) for s in state["stacks"]],
        "feudums": dict(state["feudums"]),
        "writ_deck": len(state["writ_deck"]),
        "players": [_player(state, s, seat, table[s]) for s in range(state["n"])],
        "pending": _pending(state, seat),
        "log": list(state["log"]),
        "dawn": dict(state["dawn"]) if state.get("dawn") else None,
        "outcome": state["outcome"],
    }


def _to_act(state: State) -> set[int]:
    if state["phase"] == "over":
        return set()
    if state["phase"] == "select":
        return {s for s, p in enumerate(state["ps"]) if not p["committed"]}
    return {state["stack"][-1]["seat"]} if state["stack"] else set()


# -- labels -----------------------------------------------------------------------------------

GUILD_TITLE = {g: f"{g.title()} guild" for g in GUILDS}
FUNCTION_TEXT = {"trade": "Trade at", "pull": "Pull into", "push": "Push out of"}
TRANSFER_TEXT = {"farmer_push": "barn to market", "merchant_pull": "barn to market",
                 "merchant_push": "market to Alchemist", "alchemist_pull": "market to Alchemist"}


def _nice(word: str) -> str:
    return str(word).replace("_", " ")


def label(move: dict[str, Any], state: State | None = None) -> str:
    """A short human label for a move (state-free parts only)."""
    t = move.get("type")
    if t == "setup_goods":
        goods = ", ".join(move["goods"]) or "nothing"
        extra = f" (sulfur into your {move['sulfur_to']})" if "sulfur_to" in move else ""
        return f"Take {goods}{extra}"
    if t == "start_pawn":
        return f"Start with your pawn in the {GUILD_TITLE[move['guild']]}"
    if t == "boost":
        return {"none": "No boost: 4 cards", "extra": "Spend 1 saltpeter: 5 cards",
                "double": "Spend 1 sulfur: one double turn"}[move["boost"]]
    if t == "select":
        return "Select " + ", ".join(c.title() for c in move["cards"])
    if t == "play":
        return f"Play {move['card'].title()}"
    if t == "double":
        return "Take your double turn now (play 2 cards)"
    if t == "fill_barrel":
        return "Put 1 sulfur from your supply into your wine barrel"
    if t == "mandate":
        return f"Play mandate {WRITS[move['writ']]['name']} ({_mandate_option(move)})"
    if t == "forfeit":
        return "Forfeit this card's action"
    if t == "migrate":
        return f"Migrate: pay 1 food, a new pawn in the {GUILD_TITLE[move['guild']]}"
    if t == "retire":
        return f"Migrate: return your pawn from the {GUILD_TITLE[move['guild']]}"
    if t == "influence":
        return f"Claim {plural(move['count'], 'outpost')}"
    if t == "improve":
        to = f" into a {move['guild'].title()} feudum" if "guild" in move else ""
        return f"Improve location #{move['location']}{to}"
    if t == "explore":
        return "Explore: draw Royal Writs"
    if t == "harvest":
        favor = " and take the favor" if move.get("favor") else ""
        return f"Harvest onto farm #{move['location']}{favor}"
    if t == "tax":
        return "Tax your towns"
    if t == "guild":
        return f"{FUNCTION_TEXT[move['function']]} the {GUILD_TITLE[move['guild']]}"
    if t == "feast":
        return f"Feast: {move['function']} at the {GUILD_TITLE[move['guild']]} (1 wine)"
    if t == "defeat":
        return f"Defeat the {_nice(move['monster'])} (1 saltpeter, 1 food)"
    if t == "repeat":
        return f"Repeat {move['card'].title()}"
    if t == "send_farm":
        return (f"Send farm #{move['location']}'s goods to the barn for {move['food']} food, "
                "the rest in shillings")
    if t == "buy":
        price = f" for {merchant_price(state, move['good'])}s" if state else ""
        return f"Buy 1 {move['good']}{price}"
    if t == "done":
        return "Done"
    if t == "buy_vessel":
        return f"Buy a {_nice(move['vessel'])} for 3s"
    if t == "buy_seals":
        return "Buy " + plural(move["count"], "king's seal") + f" for {3 * move['count']}s"
    if t == "move_good":
        return f"Move 1 {move['good']}"
    if t == "invent":
        if move["what"] == "barrel":
            return "Invent a krud barrel"
        return f"Invent a {_nice(move['what'])}"
    if t == "seal":
        colour = colour_name(state, state["knight_rows"][move["row"]]["colour"]) if state else "?"
        return (f"Marker from row {move['row'] + 1} ({colour}), "
                f"seal onto scroll S{move['scroll'] + 1}")
    if t == "flip":
        return f"Flip the seal on scroll S{move['scroll'] + 1} onto the rosary"
    if t == "divide":
        other = "high" if move["left"] == "low" else "low"
        return f"Low/high: {move['left']} bead in the left fist, {other} in the right"
    if t == "pick":
        return f"Pick the {move['fist']} fist"
    if t == "keep_writ":
        return f"Keep {WRITS[move['writ']]['name']}"
    if t == "discard_writ":
        return f"Discard {WRITS[move['writ']]['name']}"
    if t == "nourish":
        return (f"Feed {plural(move['wine'], 'pawn')} with wine from the barrel, "
                "the others with food"
                if move["wine"] else "Feed the pawns with food (no wine)")
    if t == "seal_charter":
        return f"Place a king's seal on the charter {WRITS[move['writ']]['name']}"
    if t == "tile":
        top = state["stacks"][move["stack"]][0] if state else "?"
        return f"Take the epoch {top} tile of stack {move['stack'] + 1}"
    if t == "tame":
        return f"Tame the {_nice(move['monster'])}"
    if t == "decline":
        return "Decline"
    if t == "pilfer":
        where = "market" if move["from"] == "market" else "Alchemist"
        return f"Pilfer 1 {move['good']} from the {where}"
    if t == "reeve":
        return "Leave a reeve in this guild" if move["place"] else "Keep your reeve"
    if t == "tribute":
        return "Pay 1 saltpeter tribute" if move["pay"] else "Pay no tribute"
    return str(t)


def _mandate_option(move: dict[str, Any]) -> str:
    writ = WRITS[move["writ"]]
    if "options" in writ:
        opt = writ["options"][int(move["option"])]
        cost = ", ".join(f"{n} {g}" for g, n in opt["cost"].items()) or "free"
        gain = ", ".join(_nice(v) if isinstance(v, str) else f"{v} {k}"
                         for k, v in opt["gain"].items())
        return f"{cost} -> {gain}"
    guild, _, kind = move["option"].partition(":")
    return f"{guild.title()}: {writ['status'][guild]}" + (f" ({_nice(kind)})" if kind else "")


def move_label(state: State, seat: int, move: dict[str, Any]) -> str:
    """A clear short label for one legal move."""
    if move.get("type") == "send_farm":
        farm = next((loc for loc in state["ps"][seat]["locations"]
                     if loc["id"] == move.get("location")), None)
        if farm is not None:
            pairs = sum(farm["goods"].values()) // 2
            return (f"Send farm #{farm['id']}'s {sum(farm['goods'].values())} goods to the barn "
                    f"for {move['food']} food and {plural(pairs - move['food'], 'shilling')}")
    return label(move, state)


THIRD_PERSON = {
    "play": lambda m: f"plays {m['card'].title()}",
    "double": lambda m: "takes a double turn",
    "fill_barrel": lambda m: "puts 1 sulfur into the wine barrel",
    "forfeit": lambda m: "forfeits the card's action",
    "pick": lambda m: f"picks the {m['fist']} fist",
    "nourish": lambda m: f"feeds {plural(m['wine'], 'pawn')} with wine, the others with food",
    "start_pawn": lambda m: f"starts with a pawn in the {m['guild'].title()} guild",
    "setup_goods": lambda m: f"takes {', '.join(m['goods']) or 'no goods'}",
    "boost": lambda m: f"chooses: {label(m)}",
    "select": lambda m: "selects " + ", ".join(c.title() for c in m["cards"]),
    "keep_writ": lambda m: f"keeps {WRITS[m['writ']]['name']}",
    "discard_writ": lambda m: f"discards {WRITS[m['writ']]['name']}",
    "tile": lambda m: f"takes a region tile from stack {m['stack'] + 1}",
    "seal": lambda m: (f"moves a marker from Knight row {m['row'] + 1} and seals scroll "
                       f"S{m['scroll'] + 1}"),
}

SECRET_FOR_OTHERS = {
    "boost": "is choosing action cards",
    "select": "has chosen action cards",
    "keep_writ": "keeps a Royal Writ",
    "discard_writ": "discards a Royal Writ",
    "seal_charter": "places a king's seal on a charter",
    "divide": "divides two beads between closed fists",
}


def describe(event: dict[str, Any], seat: int | None) -> str:
    """One log line for a MovePlayed event, redacted for ``seat``."""
    names = event.get("names") or []
    actor = event.get("actor")
    who = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else str(actor)
    move = (event.get("data") or {}).get("move") or {}
    t = move.get("type")
    if t in SECRET_FOR_OTHERS and seat != actor:
        return f"{who} {SECRET_FOR_OTHERS[t]}."
    if t == "divide":
        return f"You divided the beads: {move['left']} bead in the left fist."
    if t in THIRD_PERSON:
        try:
            return f"{who} {THIRD_PERSON[t](move)}."
        except (KeyError, TypeError, ValueError):
            return f"{who}: {t}."
    try:
        text = label(move)
    except (KeyError, TypeError, ValueError):
        text = str(t)
    return f"{who}: {text}."


def summary(state: State, seat: int | None) -> str:
    """A few plain-text lines about the position (for emails)."""
    lines = [f"Feudum: the guild economy -- round {state['round']}, epoch {state['epoch']}."]
    if state["outcome"]:
        out = state["outcome"]
        lines.append("Game over. " + ", ".join(f"{state['ps'][s]['name']} {out['scores'][s]} vp"
                                               for s in out["ranking"]))
        return "\n".join(lines)
    lines.append("Scores: " + ", ".join(f"{p['name']} {p['vp']}" for p in state["ps"]))
    if seat is not None:
        p = state["ps"][seat]
        goods = ", ".join(f"{n} {g}" for g, n in p["goods"].items() if n) or "no goods"
        lines.append(f"You: {plural(p['shillings'], 'shilling')}, {goods}, "
                     f"{plural(p['markers'], 'marker')}, {plural(len(p['hand']), 'writ')}.")
        seats = [f"{RANKS[i]} of the {g.title()} guild" for g in GUILDS
                 for i, s in enumerate(state["guilds"][g]["seats"]) if s == seat]
        lines.append("Your seats: " + (", ".join(seats) if seats else "none"))
    pending = _pending(state, seat)
    waiting = sorted(_to_act(state))
    if state["phase"] == "select":
        lines.append("Everyone is secretly choosing action cards.")
    elif pending:
        lines.append(f"Waiting for {_name(state, pending['seat'])} to {pending['prompt']}.")
    if seat is not None and seat in waiting:
        lines.append("It is your move.")
    return "\n".join(lines)
