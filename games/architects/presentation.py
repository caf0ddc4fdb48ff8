"""Human text: move labels, log lines (redacted) and the email summary."""

from __future__ import annotations

from typing import Any

from games.architects import black_market, locations, views
from games.architects.automaton import scheme_name
from games.architects.cards import apprentice, building

State = dict[str, Any]
Move = dict[str, Any]
GUARD = {"send": "send captured Workers to Prison", "release_prison": "release from Prison",
         "pay_debt": "pay off 1 Debt (6 Silver, 3 Tax)"}


def goods(g: dict[str, int]) -> str:
    """'2 wood, 1 gold'."""
    return ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in g.items() if v) or "nothing"


def building_name(cid: int) -> str:
    """A Building's name."""
    return building(cid)["name"]


def apprentice_name(cid: int) -> str:
    """An Apprentice's name with its id (several share a name)."""
    card = apprentice(cid)
    return f"{card['name']} #{cid} ({'/'.join(card['skills'])})"


def label(state: State | None, move: Move, hidden: bool = False,
          names: list[str] | None = None) -> str:
    """A short label; ``hidden`` redacts secret cards (for other seats' logs); ``names``
    (by seat) name the players when there is no ``state`` to tell their colours."""
    t = move.get("type")
    if t == "draft":
        return "keeps a drafted Building card" if hidden else \
            f"Keep {building_name(move['card'])}"
    if t == "place":
        loc = move["location"]
        if loc == "mines":
            return f"Mines: take {move['take']}"
        if loc == "black_market":
            text = f"Black Market space {'ABC'[move['space']]}"
            if state is not None and move["space"] != 1:
                text += f" ({goods(black_market.offer(state, move['space']))})"
            return text
        if loc == "guildhall":
            return "Guildhall (construct a Building or work on the Cathedral)"
        return locations.NAMES[loc]
    if t == "build":
        return f"Construct {building_name(move['card'])} paying {goods(move['pay'])}"
    if t == "cathedral":
        return f"Advance the Cathedral paying {goods(move['pay'])}"
    if t == "trade":
        if move["trade"] == "apprentice":
            from games.architects.apprentices import ABILITIES
            pay, gain = ABILITIES[move["card"]]["trade"]
            return f"Trade {goods(pay)} for {goods(gain)}"
        return f"Trade {goods(move['pay'])} for 1 {move['trade']}"
    if t == "hire":
        text = ""
        if state is not None and state["workshop"][move["row"]][move["col"]] is not None:
            text = " " + apprentice_name(state["workshop"][move["row"]][move["col"]])
        text = f"Hire{text} (row {move['row'] + 1}, column {move['col'] + 1})"
        if "discard" in move:
            text += f", dismissing {apprentice_name(move['discard'])}"
        return text
    if t == "plans":
        return "Work on Building plans (draw cards)"
    if t == "keep":
        return "keeps 1 Building card" if hidden else f"Keep {building_name(move['card'])}"
    if t == "discard":
        return "discards a Building card" if hidden else \
            f"Discard {building_name(move['card'])}"
    if t == "capture":
        where = locations.NAMES[move["location"]]
        if state is not None:
            colour = state["players"][move["player"]]["colour"]
            return f"Capture the {colour} Workers at the {where}"
        return f"Capture {owner(move['player'], names)} Workers at the {where}"
    if t == "guard":
        if move["action"] == "release_boards":
            how = "5 Silver (2 Tax)" if move["by"] == "silver" else "1 Debt and 1 Virtue"
            return f"Release Workers from other boards for {how}"
        return GUARD[move["action"]].capitalize()
    if t == "choose":
        return {"gold": "Take 1 Gold", "silver": "Take 3 Silver", "marble": "Take 1 Marble",
                "capture": "Make 1 capture", "release": "Release your captured Workers"
                }[move["option"]]
    if t == "dismiss":
        return f"Dismiss {apprentice_name(move['card'])}"
    if t == "recall":
        loc = move.get("location")
        return f"Return 1 Worker from the {locations.NAMES.get(loc, str(loc))}"
    if t == "pass":
        return "Pass (no Worker can return)"
    if t == "done":
        return "Done"
    return str(move)


def owner(player: int, names: list[str] | None) -> str:
    """Whose Workers, for a log line (no state: the seats' names, and the Byzantine
    opponent, who sits after the seats): "Bo's", "the Byzantine opponent's"."""
    if names and 0 <= player < len(names):
        return f"{names[player]}'s"
    if names:
        return "the Byzantine opponent's"
    return f"player {player + 1}'s"


def sees_card(state: State, seat: int | None, move: Move) -> bool:
    """True unless ``move`` names a secret Building card that ``seat`` may not see."""
    if move.get("type") not in ("draft", "keep", "discard") or "card" not in move:
        return True
    if not isinstance(seat, int) or not 0 <= seat < state["n"]:
        return False
    card = move["card"]
    if move["type"] == "draft":
        draft = state.get("draft")
        return bool(draft) and card in draft["pools"][seat]
    if move["type"] == "keep":
        pend = state.get("pending") or {}
        return state.get("current") == seat and card in pend.get("cards", [])
    return card in state["players"][seat]["hand"]


def describe(event: dict[str, Any], seat: int | None) -> str:
    """One log line, with secret cards hidden from everyone but the actor."""
    actor = event.get("actor")
    names = event.get("names") or []
    name = names[actor] if isinstance(actor, int) and actor < len(names) else str(actor)
    move = (event.get("data") or {}).get("move") or {}
    hidden = seat != actor
    return f"{name}: {label(None, move, hidden=hidden, names=names)}"


def winners(state: State) -> list[int]:
    """Everyone in first place at the end, the Byzantine opponent included."""
    places = state["result"]["places"]
    return [q for q in range(len(state["players"])) if places[str(q)] == 1]


def result_line(state: State) -> str:
    """Who won, in one sentence: 'Constantine (the Byzantine opponent) wins with 26 VP.'"""
    def who(q: int) -> str:
        pl = state["players"][q]
        return f"{pl['name']} (the Byzantine opponent)" if pl["bot"] else pl["name"]

    top = winners(state)
    score = state["result"]["totals"][top[0]]
    if len(top) == 1:
        return f"{who(top[0])} wins with {score} VP."
    names = [who(q) for q in top]
    return f"Shared victory: {', '.join(names[:-1])} and {names[-1]}, {score} VP each."


def summary(state: State, seat: int | None) -> str:
    """A few plain-text lines for emails."""
    lines = []
    if state["phase"] == "draft":
        lines.append("Opening draft: keep 1 Building card and pass the rest.")
    elif state["phase"] == "play":
        cur = state["players"][state["current"]]["name"]
        gh = f"{len(state['guildhall'])}/{state['guildhall_size']}"
        lines.append(f"{cur} to play. Guildhall {gh}. Tax Stand {state['tax']} Silver.")
        if state["final_turns"] is not None:
            lines.append("Final round!")
        totals = views.running_scores(state)["totals"]
        lines.append("Score now: " + ", ".join(
            f"{pl['name']} {totals[q]} VP" for q, pl in enumerate(state["players"])) + ".")
    else:
        res = state["result"]
        lines.append("Game over. " + result_line(state))
        lines.append("Final scores: " + ", ".join(
            f"{res['places'][str(q)]}. {state['players'][q]['name']} {res['totals'][q]} VP"
            for q in res["order"]))
    for q, pl in enumerate(state["players"]):
        lines.append(
            f"{pl['name']} ({pl['colour']}): virtue {pl['virtue']}, silver {pl['silver']}, "
            f"clay {pl['clay']}, wood {pl['wood']}, stone {pl['stone']}, gold {pl['gold']}, "
            f"marble {pl['marble']}, debts {pl['debts']}, workers {pl['workers']}, "
            f"prison {state['prison'][q]}, cathedral {pl['cathedral']}, "
            f"buildings {len(pl['buildings'])}")
    if seat is not None and seat < state["n"]:
        hand = state["players"][seat]["hand"]
        lines.append("Your hand: " + (", ".join(building_name(c) for c in hand) or "empty"))
    if state.get("automaton") and state["automaton"]["last"] is not None:
        lines.append(f"Last Scheme: {scheme_name(state['automaton']['last'])}")
    return "\n".join(lines)




# -- labels for the move form and the picture ------------------------------------------------
TIMING = {"immediate": "now", "end": "at game end"}


def goods_title(g: dict[str, int]) -> str:
    """'2 Wood, 1 Gold, 3 Building cards' (resource names capitalised as on the cards)."""
    parts = []
    for k, v in g.items():
        if not v:
            continue
        if k == "building_cards":
            parts.append(plural(v, "Building card"))
        else:
            parts.append(f"{v} {k.replace('_', ' ').title()}")
    return ", ".join(parts) or "nothing"


def building_details(cid: int) -> str:
    """'Smithy: 3 VP; cost 4 Clay, 2 Wood; needs Masonry; +1 Virtue; now: Gain 4 Stone'."""
    card = building(cid)
    parts = [f"{card['vp']} VP", f"cost {goods_title(card['cost'])}"]
    if card["skills"]:
        parts.append("needs " + " and ".join(card["skills"]))
    if card["virtue"]:
        parts.append(f"{card['virtue']:+d} Virtue")
    parts.append(f"{TIMING.get(card['timing'], card['timing'])}: {card['effect']}")
    return f"{card['name']}: " + "; ".join(parts)


def apprentice_details(cid: int) -> str:
    """'Merchant #14 (Tiling): King's Storehouse trade: 1 Silver -> 3 Clay'."""
    card = apprentice(cid)
    text = f"{apprentice_name(cid)}"
    if card["virtue_on_hire"]:
        text += f", {card['virtue_on_hire']:+d} Virtue on hire"
    return f"{text}: {card['ability']}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """'1 Building card', '2 Building cards'."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def move_label(state: State, move: Move, hidden: bool = False) -> str:
    """The move form's label: the log's wording plus the details of an offered card."""
    t = move.get("type")
    if not hidden and t in ("draft", "keep", "discard") and "card" in move:
        verb = "Discard" if t == "discard" else "Keep"
        return f"{verb} {building_details(move['card'])}"
    if t == "build":
        return f"Construct {building_details(move['card'])} — paying {goods_title(move['pay'])}"
    if t == "plans" and state is not None:
        pend = state.get("pending") or {}
        if pend.get("kind") == "workshop":
            from games.architects.workshop import plans_count
            n = plans_count(pend["workers"])
            return f"Work on Building plans: draw {plural(n, 'Building card')}"
        return "Work on Building plans: draw 5 Building cards, keep 1"
    if t == "hire" and state is not None:
        card = state["workshop"][move["row"]][move["col"]]
        if card is not None:
            text = f"Hire {apprentice_details(card)} (row {move['row'] + 1}, " \
                   f"column {move['col'] + 1})"
            if "discard" in move:
                text += f", dismissing {apprentice_name(move['discard'])}"
            return text
    return label(state, move, hidden=hidden)
