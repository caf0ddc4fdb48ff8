"""What each seat may see, log lines, move labels and the email summary.

Hidden: seal values (supply, scrolls, players' seals), the contents of each fist (only the
divider sees them), writ hands and writs being drawn (only their owner), the writ deck
order, and selected action cards and boosts until played (only their owner).  Token ids are
never shown, so nothing can be inferred from them.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import status
from games.feudum_guilds import words as w
from games.feudum_guilds.components import CARDS, GUILDS, WRITS, C
from games.feudum_guilds.guilds import chicken_sum, merchant_price, rosary_sum
from games.text import P, T, Text, join

State = dict[str, Any]
CARD_TEXT = {c["name"]: w.card_text(c["text"]) for c in CARDS}
RANKS = ["master", "journeyman", "apprentice"]
PUBLIC_DECISION_FIELDS = ("kind", "seat", "card", "fn", "left", "guild", "function", "to",
                          "monster", "repeat")


def _name(state: State, seat: int | None) -> str:
    return state["ps"][seat]["name"] if seat is not None else "-"


def colour_name(state: State, colour: int | str) -> str:
    """The owner of a Knight row: a player's name, or a dummy colour (``neutral``, and from
    rules 3 ``neutral 1`` / ``neutral 2``)."""
    return state["ps"][colour]["name"] if isinstance(colour, int) \
        else w.dummy(colour.replace("-", " "))


def writ_card(wid: str) -> dict[str, Any]:
    """A writ as shown to its owner."""
    wr = WRITS[wid]
    out = {"id": wid, "name": w.writ(wr["name"]), "kind": w.writ_kind(wr["kind"])}
    if wr["kind"] == "charter":
        vp = "/".join(map(str, wr["vp"]))
        out["scores"] = (T("%(vp)s vp for stars in the %(guild)s guild", vp=vp,
                           guild=w.guild_name(wr["guild"]))
                         if "guild" in wr else T("%(vp)s vp", vp=vp))
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
        "pawns": [{"guild": w.guild(pw["guild"]), "wine": pw["wine"]} for pw in p["pawns"]],
        "locations": [{"id": loc["id"], "kind": w.location(loc["kind"]),
                       "guild": w.guild(loc["guild"]),
                       "goods": dict(loc["goods"])} for loc in p["locations"]],
        "beads": [state["tokens"][t] for t in p["beads"]],
        "seals": len(p["seals"]),
        "vessels": dict(p["vessels"]),
        "tiles": list(p["tiles"]),
        "reeves": list(p["reeves"]),
        "military_service": p["service"],
        "monsters_slain": p["slain"],
        "writs": len(p["hand"]),
        "played": [w.card(c) for c in p["played"]],
        "committed": p["committed"],
        "stars": dict(stars),
    }
    if revealed or mine:
        out["boost"] = w.boost(p["boost"])
        out["cards_left"] = len(p["selected"]) - len(p["played"])
    if mine:
        out["hand"] = [dict(writ_card(w), sealed=w in p["sealed"]) for w in p["hand"]]
        out["selected"] = [w.card(c) for c in p["selected"]]
    return out


PROMPTS = {
    "setup_goods": T("take 3 different goods"),
    "setup_pawn": T("put the starting pawn into play"),
    "turn": T("play an action card"),
    "card": T("resolve the played card"),
    "transfer": T("move goods one at a time"),
    "send_farm": T("send a farm's goods to the barn"),
    "buy_goods": T("buy goods at the market"),
    "buy_vessel": T("buy a vessel"),
    "buy_seals": T("buy king's seals"),
    "invent": T("make inventions"),
    "seal_scrolls": T("turn influence markers into seals on the scrolls"),
    "flip_seals": T("flip seals onto the rosary"),
    "fist_divide": T("secretly divide two beads between the fists"),
    "fist_pick": T("pick a fist"),
    "writ_keep": T("keep one Royal Writ"),
    "writ_discard": T("discard down to 3 Royal Writs"),
    "tile": T("take a region tile"),
    "tame": T("tame a monster or decline"),
    "pilfer": T("pilfer a good with the monster"),
    "reeve": T("leave a reeve or not"),
    "tribute": T("pay tribute or not"),
    "seal_charters": T("place king's seals on charters"),
    "nourish": T("choose which pawns drink wine and which eat food"),
}


def _pending(state: State, viewer: int | None) -> dict[str, Any] | None:
    if not state["stack"]:
        return None
    dec = state["stack"][-1]
    out = {k: dec[k] for k in PUBLIC_DECISION_FIELDS if k in dec}
    for key, say in (("card", w.card), ("guild", w.guild), ("function", w.function)):
        if key in out:
            out[key] = say(out[key])
    prompt = PROMPTS.get(dec["kind"], dec["kind"].replace("_", " "))
    if "fn" in dec:
        prompt = T("%(prompt)s (%(function)s)", prompt=prompt,
                   function=w.guild_function(dec["fn"].replace("_", " ")))
    out["prompt"] = prompt
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
            "patron": w.patron(g),
            "seats": [{"rank": w.rank(RANKS[i]), "seat": s,
                       "name": _name(state, s) if s is not None else None}
                      for i, s in enumerate(seats)],
            "reeves": list(state["guilds"][g]["reeves"]),
        }
    to_act = sorted(_to_act(state))
    table = status.star_table(state)
    return {
        "kind": "feudum-guilds",
        "seat": seat,
        "phase": w.phase(state["phase"]),
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
        "log": [w.read_log(line) for line in state["log"]],
        "dawn": dict(state["dawn"]) if state.get("dawn") else None,
        "outcome": _outcome(state["outcome"]),
    }


TIE_BREAK = T("most sulfur in the wine barrel; still tied: shared win")


def _outcome(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """The outcome with its tie-break rule said as a Text."""
    if not outcome:
        return outcome
    if outcome.get("tie_break") == TIE_BREAK:
        return {**outcome, "tie_break": TIE_BREAK}
    return outcome


def _to_act(state: State) -> set[int]:
    if state["phase"] == "over":
        return set()
    if state["phase"] == "select":
        return {s for s, p in enumerate(state["ps"]) if not p["committed"]}
    return {state["stack"][-1]["seat"]} if state["stack"] else set()


# -- labels -----------------------------------------------------------------------------------

GUILD_TITLE = w.GUILD_TITLES
GUILD_MOVE = {
    "trade": T("Trade at the %(guild)s"),
    "pull": T("Pull into the %(guild)s"),
    "push": T("Push out of the %(guild)s"),
}
BOOST_TEXT = {"none": T("No boost: 4 cards"), "extra": T("Spend 1 saltpeter: 5 cards"),
              "double": T("Spend 1 sulfur: one double turn")}


def _nice(word: str) -> str:
    return str(word).replace("_", " ")


def label(move: dict[str, Any], state: State | None = None) -> Text:
    """A short human label for a move (state-free parts only)."""
    t = move.get("type")
    if t == "setup_goods":
        goods = w.goods_list(move["goods"], T("nothing"))
        if "sulfur_to" in move:
            return T("Take %(goods)s (sulfur into your %(place)s)", goods=goods,
                     place=_sulfur_place(move["sulfur_to"]))
        return T("Take %(goods)s", goods=goods)
    if t == "start_pawn":
        return T("Start with your pawn in the %(guild)s", guild=GUILD_TITLE[move["guild"]])
    if t == "boost":
        return BOOST_TEXT[move["boost"]]
    if t == "select":
        return T("Select %(cards)s", cards=w.cards_list(move["cards"]))
    if t == "play":
        return T("Play %(card)s", card=w.card_title(move["card"]))
    if t == "double":
        return T("Take your double turn now (play 2 cards)")
    if t == "fill_barrel":
        return T("Put 1 sulfur from your supply into your wine barrel")
    if t == "mandate":
        return T("Play mandate %(writ)s (%(option)s)", writ=w.writ(WRITS[move["writ"]]["name"]),
                 option=_mandate_option(move))
    if t == "forfeit":
        return T("Forfeit this card's action")
    if t == "migrate":
        return T("Migrate: pay 1 food, a new pawn in the %(guild)s",
                 guild=GUILD_TITLE[move["guild"]])
    if t == "retire":
        return T("Migrate: return your pawn from the %(guild)s", guild=GUILD_TITLE[move["guild"]])
    if t == "influence":
        return T("Claim %(outposts)s",
                 outposts=P("%(n)s outpost", "%(n)s outposts", move["count"]))
    if t == "improve":
        if "guild" in move:
            return T("Improve location #%(id)s into a %(guild)s feudum", id=move["location"],
                     guild=w.guild_name(move["guild"]))
        return T("Improve location #%(id)s", id=move["location"])
    if t == "explore":
        return T("Explore: draw Royal Writs")
    if t == "harvest":
        if move.get("favor"):
            return T("Harvest onto farm #%(id)s and take the favor", id=move["location"])
        return T("Harvest onto farm #%(id)s", id=move["location"])
    if t == "tax":
        return T("Tax your towns")
    if t == "guild":
        return Text(GUILD_MOVE[move["function"]].msgid, {"guild": GUILD_TITLE[move["guild"]]})
    if t == "feast":
        return T("Feast: %(function)s at the %(guild)s (1 wine)",
                 function=w.function(move["function"]), guild=GUILD_TITLE[move["guild"]])
    if t == "defeat":
        return T("Defeat the %(monster)s (1 saltpeter, 1 food)", monster=w.monster(move["monster"]))
    if t == "repeat":
        return T("Repeat %(card)s", card=w.card_title(move["card"]))
    if t == "send_farm":
        return T("Send farm #%(id)s's goods to the barn for %(food)s food, the rest in shillings",
                 id=move["location"], food=move["food"])
    if t == "buy":
        if state:
            return T("Buy 1 %(good)s for %(price)ss", good=w.good(move["good"]),
                     price=merchant_price(state, move["good"]))
        return T("Buy 1 %(good)s", good=w.good(move["good"]))
    if t == "done":
        return T("Done")
    if t == "buy_vessel":
        return T("Buy a %(vessel)s for 3s", vessel=w.vessel(move["vessel"]))
    if t == "buy_seals":
        return T("Buy %(seals)s for %(price)ss",
                 seals=P("%(n)s king's seal", "%(n)s king's seals", move["count"]),
                 price=3 * move["count"])
    if t == "move_good":
        return T("Move 1 %(good)s", good=w.good(move["good"]))
    if t == "invent":
        if move["what"] == "barrel":
            return T("Invent a krud barrel")
        return T("Invent a %(vessel)s", vessel=w.vessel(move["what"]))
    if t == "seal":
        colour = colour_name(state, state["knight_rows"][move["row"]]["colour"]) if state else "?"
        return T("Marker from row %(row)s (%(colour)s), seal onto scroll S%(scroll)s",
                 row=move["row"] + 1, colour=colour, scroll=move["scroll"] + 1)
    if t == "flip":
        return T("Flip the seal on scroll S%(scroll)s onto the rosary", scroll=move["scroll"] + 1)
    if t == "divide":
        if move["left"] == "low":
            return T("Low/high: low bead in the left fist, high in the right")
        return T("Low/high: high bead in the left fist, low in the right")
    if t == "pick":
        return T("Pick the %(fist)s fist", fist=w.FISTS.get(move["fist"], move["fist"]))
    if t == "keep_writ":
        return T("Keep %(writ)s", writ=w.writ(WRITS[move["writ"]]["name"]))
    if t == "discard_writ":
        return T("Discard %(writ)s", writ=w.writ(WRITS[move["writ"]]["name"]))
    if t == "nourish":
        if move["wine"]:
            return T("Feed %(pawns)s with wine from the barrel, the others with food",
                     pawns=P("%(n)s pawn", "%(n)s pawns", move["wine"]))
        return T("Feed the pawns with food (no wine)")
    if t == "seal_charter":
        return T("Place a king's seal on the charter %(writ)s",
                 writ=w.writ(WRITS[move["writ"]]["name"]))
    if t == "tile":
        top = state["stacks"][move["stack"]][0] if state else "?"
        return T("Take the epoch %(epoch)s tile of stack %(stack)s", epoch=top,
                 stack=move["stack"] + 1)
    if t == "tame":
        return T("Tame the %(monster)s", monster=w.monster(move["monster"]))
    if t == "decline":
        return T("Decline")
    if t == "pilfer":
        if move["from"] == "market":
            return T("Pilfer 1 %(good)s from the market", good=w.good(move["good"]))
        return T("Pilfer 1 %(good)s from the Alchemist", good=w.good(move["good"]))
    if t == "reeve":
        return T("Leave a reeve in this guild") if move["place"] else T("Keep your reeve")
    if t == "tribute":
        return T("Pay 1 saltpeter tribute") if move["pay"] else T("Pay no tribute")
    return str(t)


SULFUR_PLACES = {"barrel": T("barrel"), "supply": T("supply")}


def _sulfur_place(code: Any) -> Any:
    """Where a starting sulfur goes: ``barrel`` or ``supply``."""
    return SULFUR_PLACES.get(code, code) if isinstance(code, str) else code


GAINS = {"markers": T("%(n)s markers"), "shillings": T("%(n)s shillings")}


def _gain(key: str, value: Any) -> Any:
    if isinstance(value, str):
        return w.vessel(value)
    if key in GAINS:
        return Text(GAINS[key].msgid, {"n": value})
    return f"{value} {key}"


def _mandate_option(move: dict[str, Any]) -> Text:
    writ = WRITS[move["writ"]]
    if "options" in writ:
        opt = writ["options"][int(move["option"])]
        cost = join([w.amount(n, g) for g, n in opt["cost"].items()]) if opt["cost"] \
            else T("free")
        gain = join([_gain(k, v) for k, v in opt["gain"].items()])
        return T("%(cost)s -> %(gain)s", cost=cost, gain=gain)
    guild, _, kind = move["option"].partition(":")
    status_text = w.writ(writ["status"][guild])
    if kind:
        return T("%(guild)s: %(reward)s (%(vessel)s)", guild=w.guild_name(guild),
                 reward=status_text, vessel=w.vessel(kind))
    return T("%(guild)s: %(reward)s", guild=w.guild_name(guild), reward=status_text)


def move_label(state: State, seat: int, move: dict[str, Any]) -> Text:
    """A clear short label for one legal move."""
    if move.get("type") == "send_farm":
        farm = next((loc for loc in state["ps"][seat]["locations"]
                     if loc["id"] == move.get("location")), None)
        if farm is not None:
            pairs = sum(farm["goods"].values()) // 2
            return T("Send farm #%(id)s's %(n)s goods to the barn for %(food)s food and "
                     "%(shillings)s", id=farm["id"], n=sum(farm["goods"].values()),
                     food=move["food"],
                     shillings=P("%(n)s shilling", "%(n)s shillings", pairs - move["food"]))
    return label(move, state)


THIRD_PERSON = {
    "play": lambda m, who: T("%(who)s plays %(card)s.", who=who, card=w.card_title(m["card"])),
    "double": lambda m, who: T("%(who)s takes a double turn.", who=who),
    "fill_barrel": lambda m, who: T("%(who)s puts 1 sulfur into the wine barrel.", who=who),
    "forfeit": lambda m, who: T("%(who)s forfeits the card's action.", who=who),
    "pick": lambda m, who: T("%(who)s picks the %(fist)s fist.", who=who,
                        fist=w.FISTS.get(m["fist"], m["fist"])),
    "nourish": lambda m, who: T("%(who)s feeds %(pawns)s with wine, the others with food.", who=who,
                           pawns=P("%(n)s pawn", "%(n)s pawns", m["wine"])),
    "start_pawn": lambda m, who: T("%(who)s starts with a pawn in the %(guild)s guild.", who=who,
                              guild=w.guild_name(m["guild"])),
    "setup_goods": lambda m, who: T("%(who)s takes %(goods)s.", who=who,
                               goods=w.goods_list(m["goods"], T("no goods"))),
    "boost": lambda m, who: T("%(who)s chooses: %(boost)s.", who=who, boost=label(m)),
    "select": lambda m, who: T("%(who)s selects %(cards)s.", who=who,
                               cards=w.cards_list(m["cards"])),
    "keep_writ": lambda m, who: T("%(who)s keeps %(writ)s.", who=who,
                                  writ=w.writ(WRITS[m["writ"]]["name"])),
    "discard_writ": lambda m, who: T("%(who)s discards %(writ)s.", who=who,
                                writ=w.writ(WRITS[m["writ"]]["name"])),
    "tile": lambda m, who: T("%(who)s takes a region tile from stack %(stack)s.", who=who,
                        stack=m["stack"] + 1),
    "seal": lambda m, who: T("%(who)s moves a marker from Knight row %(row)s and seals scroll "
                        "S%(scroll)s.", who=who, row=m["row"] + 1, scroll=m["scroll"] + 1),
}

SECRET_FOR_OTHERS = {
    "boost": T("%(who)s is choosing action cards."),
    "select": T("%(who)s has chosen action cards."),
    "keep_writ": T("%(who)s keeps a Royal Writ."),
    "discard_writ": T("%(who)s discards a Royal Writ."),
    "seal_charter": T("%(who)s places a king's seal on a charter."),
    "divide": T("%(who)s divides two beads between closed fists."),
}


def _with(text: Text, **values: Any) -> Text:
    """``text`` with more values (a line's actor)."""
    return Text(text.msgid, {**text.values, **values}, text.plural, text.n)


def describe(event: dict[str, Any], seat: int | None) -> Text:
    """One log line for a MovePlayed event, redacted for ``seat``."""
    names = event.get("names") or []
    actor = event.get("actor")
    who = names[actor] if isinstance(actor, int) and 0 <= actor < len(names) else str(actor)
    move = (event.get("data") or {}).get("move") or {}
    t = move.get("type")
    if t in SECRET_FOR_OTHERS and seat != actor:
        return _with(SECRET_FOR_OTHERS[t], who=who)
    if t == "divide":
        return T("You divided the beads: %(bead)s bead in the left fist.",
                 bead=w.BEADS.get(move["left"], move["left"]))
    if t in THIRD_PERSON:
        try:
            return THIRD_PERSON[t](move, who)
        except (KeyError, TypeError, ValueError):
            return T("%(who)s: %(move)s.", who=who, move=t)
    try:
        text = label(move)
    except (KeyError, TypeError, ValueError):
        text = str(t)
    return T("%(who)s: %(move)s.", who=who, move=text)


def summary(state: State, seat: int | None) -> Text:
    """A few plain-text lines about the position (for emails)."""
    lines: list[Any] = [T("Feudum: the guild economy -- round %(round)s, epoch %(epoch)s.",
                          round=state["round"], epoch=state["epoch"])]
    if state["outcome"]:
        out = state["outcome"]
        final = [T("%(name)s %(vp)s vp", name=state["ps"][s]["name"], vp=out["scores"][s])
                 for s in out["ranking"]]
        lines.append(T("Game over. %(scores)s", scores=join(final)))
        return join(lines, "\n")
    scores = [T("%(name)s %(vp)s", name=p["name"], vp=p["vp"]) for p in state["ps"]]
    lines.append(T("Scores: %(scores)s", scores=join(scores)))
    if seat is not None:
        p = state["ps"][seat]
        held = [w.amount(n, g) for g, n in p["goods"].items() if n]
        goods = join(held) if held else T("no goods")
        lines.append(T("You: %(shillings)s, %(goods)s, %(markers)s, %(writs)s.",
                       shillings=P("%(n)s shilling", "%(n)s shillings", p["shillings"]),
                       goods=goods, markers=P("%(n)s marker", "%(n)s markers", p["markers"]),
                       writs=P("%(n)s writ", "%(n)s writs", len(p["hand"]))))
        seats = [T("%(rank)s of the %(guild)s guild", rank=w.rank(RANKS[i]),
                   guild=w.guild_name(g)) for g in GUILDS
                 for i, s in enumerate(state["guilds"][g]["seats"]) if s == seat]
        lines.append(T("Your seats: %(seats)s", seats=join(seats) if seats else T("none")))
    pending = _pending(state, seat)
    waiting = sorted(_to_act(state))
    if state["phase"] == "select":
        lines.append(T("Everyone is secretly choosing action cards."))
    elif pending:
        lines.append(T("Waiting for %(name)s to %(prompt)s.", name=_name(state, pending["seat"]),
                       prompt=pending["prompt"]))
    if seat is not None and seat in waiting:
        lines.append(T("It is your move."))
    return join(lines, "\n")
