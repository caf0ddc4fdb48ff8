"""The turn: who must act now, the main menu (one action, treasures any time, end of turn),
applying moves, the end of a turn and the end of the game."""

from __future__ import annotations

from typing import Any

from games.kings_guild import (
    cards,
    decisions,
    funeral,
    guild,
    quests,
    rooms,
    scoring,
    specialists,
    stall,
    treasures,
)
from games.kings_guild import words as w
from games.kings_guild.pending import pop, push, top
from games.kings_guild.setup import new_turn
from games.protocol import IllegalMove
from games.rng import GameRandom
from games.text import T, Text

State = dict[str, Any]
Move = dict[str, Any]


def active(state: State) -> tuple[str, Any]:
    """What the game waits for: ``over``, ``funeral``, ``discard_resource`` (seat),
    ``sell_down`` (seat), ``pending`` (entry) or ``main`` (current seat)."""
    if state["over"]:
        return "over", None
    if state["funeral"]:
        return "funeral", None
    order = [(state["current"] + k) % state["n"] for k in range(state["n"])]
    for seat in order:
        stored = guild.stored(state, seat)
        if stored > 5 and stored > guild.storage_limit(state, seat):
            return "discard_resource", seat
    entry = top(state)
    for seat in order:
        held = len(guild.player(state, seat)["hand"])
        if held > 6 and held > guild.hand_limit(state, seat):
            kinds = decisions.HAND_CHECK_WAITS
            if not (entry and entry["seat"] == seat and entry["kind"] in kinds):
                return "sell_down", seat
    if entry:
        return "pending", entry
    return "main", state["current"]


def to_act(state: State) -> set[int]:
    """Seats whose input is awaited."""
    what, arg = active(state)
    if what == "over":
        return set()
    if what == "funeral":
        return funeral.bidders(state)
    if what == "pending":
        return {arg["seat"]}
    return {arg}


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every legal move for ``seat`` now."""
    return _legal(state, seat, active(state))


def _legal(state: State, seat: int, now: tuple[str, Any]) -> list[Move]:
    what, arg = now
    if what == "over":
        return []
    if what == "funeral":
        if seat not in funeral.bidders(state):
            return []
    elif seat != (arg["seat"] if what == "pending" else arg):
        return []
    if what == "funeral":
        return funeral.bid_options(state, seat)
    if what == "discard_resource":
        held = guild.player(state, seat)["resources"]
        return [{"type": "discard_resource", "resource": r} for r in cards.RESOURCES if held[r]]
    if what == "sell_down":
        return [{"type": "sell", "card": c} for c in guild.player(state, seat)["hand"]]
    if what == "pending":
        return decisions.DECISIONS[arg["kind"]][0](state, arg)
    return main_moves(state, seat)


def is_final_turn(state: State) -> bool:
    """After the Offering to the Council was drawn every player has one last turn."""
    return state["final_turns_left"] is not None


def action_moves(state: State, seat: int) -> list[Move]:
    """The action choices still open this turn (Gather, Craft, Expand parts, Offering)."""
    t = state["turn"]
    moves: list[Move] = []
    if t["action"] is None:
        if quests.gather_picks(state, seat, []):
            moves.append({"type": "gather"})
        moves += quests.craft_options(state, seat)
        if is_final_turn(state) and guild.free_sigils(state, seat) > 0 and not (
            guild.has_specialist(state, seat, "Vizier")
        ):
            moves.append({"type": "offer"})
        spot = quests.funeral_spot(state) if state["solo"] else None
        if spot is not None and rooms.positions(state, seat, rooms.STATUE, expand=False):
            moves.append({"type": "build_statue"})
    if t["action"] in (None, "expand"):
        if state["solo"]:
            can_build = can_hire = t["built"] + t["hired"] < 2 and not t.get("expand_done")
        else:
            can_build, can_hire = t["built"] == 0, t["hired"] == 0
        if can_build:
            moves += [{"type": "build", "room": r} for r in rooms.buildable(state, seat)]
        if can_hire:
            moves += specialists.hire_options(state, seat)
    return moves


def main_moves(state: State, seat: int) -> list[Move]:
    """The current player's menu: action choices, treasures, the Bard, end of turn."""
    hand = guild.player(state, seat)["hand"]
    moves = action_moves(state, seat)
    can_end = state["turn"]["action"] is not None or not moves
    moves += [{"type": "play", "card": c} for c in hand if treasures.can_play(state, seat, c)]
    moves += [{"type": "sell", "card": c} for c in hand if treasures.can_sell(state, seat, c)]
    if guild.has_specialist(state, seat, "Bard") and decisions.bard_moves(state, seat) and not (
        state["turn"].get("bard_used")  # rules 4: once per turn
    ):
        moves.append({"type": "bard"})
    if can_end:
        moves.append({"type": "end_turn"})
    return moves


# -- applying --------------------------------------------------------------------------


def apply(state: State, seat: int, move: Any, rng: GameRandom) -> None:
    """Validate ``move`` against the legal moves, then apply it and settle automatic steps."""
    check_shape(move)
    now = active(state)
    legal = _legal(state, seat, now)
    if not legal:
        raise IllegalMove(not_your_turn(state))
    if move not in legal:
        raise IllegalMove(explain(state, seat, move))
    what, arg = now
    if what == "funeral":
        funeral.place_bid(state, seat, move["amount"])
    elif what == "discard_resource":
        guild.lose_resource(state, seat, move["resource"])
    elif what == "sell_down":
        treasures.sell(state, seat, move["card"])
    elif what == "pending":
        decisions.DECISIONS[arg["kind"]][1](state, arg, move, rng)
    else:
        _apply_main(state, seat, move, rng)
    settle(state)
    if state.get("rules", 2) >= 4:
        if what == "main" and move["type"] == "end_turn" and stall.count_frozen_turn(state):
            quests.retire_stale_quest(state)  # a whole round frozen: the stall breaker
            settle(state)
        remember_oracle(state)
    t = state["turn"]
    if t["built"] + t["hired"] >= 2 and not state["pending"]:
        close_expand(state)  # the second purchase, its placement and on-hire effects done


def remember_oracle(state: State) -> None:
    """Rules 4: the quest cards the Oracle shows its owner on their turn stay known to them
    while they lie on the deck (``oracle_seen``), so a later turn end that shows the owner
    the same cards again reveals nothing (take-backs)."""
    seat = state["current"]
    if state["over"] or not guild.has_specialist(state, seat, "Oracle"):
        return
    deck = state["quest_deck"]
    seen = state.setdefault("oracle_seen", {})
    known = [q for q in seen.get(str(seat), []) if q in deck]
    known += [q for q in deck[:2] if q not in known]
    seen[str(seat)] = known


def close_expand(state: State) -> None:
    """Solo, rules 3: "After every expand action, remove the right-most specialist from the
    game" - at once when the Expand action ends (its second purchase is resolved, or the
    player makes any other move after one purchase), so nothing later in the turn (a
    Contract) can hire it. Rules 2 removed it at the end of the turn."""
    t = state["turn"]
    if (state["solo"] and state.get("rules", 2) >= 3 and t["action"] == "expand"
            and not t.get("expand_done")):
        t["expand_done"] = True
        specialists.remove_oldest(state)


def check_shape(move: Any) -> None:
    """Malformed moves: not an object, no string ``type``, or booleans/floats as numbers."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise IllegalMove(T("A move must be an object with a string 'type'."))
    for key, value in move.items():
        if not isinstance(key, str):
            raise IllegalMove(T("Move fields must have string names."))
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, bool) or isinstance(v, float) or isinstance(v, dict):
                raise IllegalMove(T("Field '%(key)s' has the wrong type.", key=key))


def _apply_main(state: State, seat: int, move: Move, rng: GameRandom) -> None:
    t = state["turn"]
    p = guild.player(state, seat)
    kind = move["type"]
    if kind not in ("build", "hire"):
        close_expand(state)
    if kind == "gather":
        t["action"] = "gather"
        push(state, {"kind": "gather", "seat": seat, "picks": []})
    elif kind == "craft":
        t["action"] = "craft"
        quests.craft(state, seat, move["slot"], move["items"], rng)
    elif kind == "build":
        t["action"] = "expand"
        t["built"] += 1
        rooms.take_from_supply(state, move["room"])
        push(state, {"kind": "place_room", "seat": seat, "room": move["room"],
                     "price": rooms.cost(move["room"]), "expand": True})
    elif kind == "hire":
        t["action"] = "expand"
        t["hired"] += 1
        specialists.hire(state, seat, move, rng)
    elif kind == "offer":
        t["action"] = "offering"
        p["offered"] = True
    elif kind == "build_statue":
        t["action"] = "statue"
        spot = quests.funeral_spot(state)
        state["quest_slots"][spot] = None
        state["events_done"].append(cards.FUNERAL)
        push(state, {"kind": "place_room", "seat": seat, "room": rooms.STATUE, "price": 0})
    elif kind == "play":
        treasures.play(state, seat, move["card"], rng)
    elif kind == "sell":
        treasures.sell(state, seat, move["card"])
    elif kind == "bard":
        if state.get("rules", 2) >= 4:
            t["bard_used"] = True  # once per turn, and never back to an arrangement
            push(state, {"kind": "bard", "seat": seat,
                         "seen": [decisions.arrangement(state, seat)]})
        else:
            push(state, {"kind": "bard", "seat": seat})
    elif kind == "end_turn":
        end_turn(state)


def settle(state: State) -> None:
    """Run automatic steps (refilling a quest slot) and drop decisions with nothing to choose."""
    while not state["over"] and not state["funeral"]:
        entry = top(state)
        if entry is None:
            return
        if entry["kind"] == "refill":
            pop(state)
            quests.refill(state, entry["slot"])
            continue
        if not decisions.DECISIONS[entry["kind"]][0](state, entry):
            pop(state)
            continue
        return


def end_turn(state: State) -> None:
    """Vizier offering, solo upkeep (specialist row, quest conveyor), final turns, next seat."""
    seat = state["current"]
    p = guild.player(state, seat)
    if is_final_turn(state) and guild.has_specialist(state, seat, "Vizier") and (
        not p["offered"] and guild.free_sigils(state, seat) > 0
    ):
        p["offered"] = True
    if state["solo"]:
        t = state["turn"]
        if t["action"] == "expand" and state.get("rules", 2) < 3 and not t.get("expand_done"):
            specialists.remove_oldest(state)  # rules 3: close_expand did it already
        quests.solo_conveyor(state)
    if state["final_turns_left"] is not None:
        state["final_turns_left"] -= 1
        if state["final_turns_left"] <= 0:
            finish(state)
            return
    elif state["council_drawn"]:
        state["final_turns_left"] = state["n"]
    state["current"] = guild.next_seat(state, seat)
    state["round_turn"] += 1
    state["turn"] = new_turn()
    if not state["solo"] and state.get("options", {}).get("stall_breaker"):
        state["stale_turns"] += 1
        if state["stale_turns"] >= quests.STALE_ROUNDS * state["n"] and (
            state.get("rules", 2) < 3 or stall.stuck(state)
        ):
            quests.retire_stale_quest(state)


def finish(state: State) -> None:
    """Quests still carrying a sigil go to their owners (no treasure); score the game."""
    for i, slot in enumerate(state["quest_slots"]):
        owner = quests.sigil_owner(slot) if slot else None
        if owner is not None:
            guild.player(state, owner)["quests"].append(slot["quest"])
            state["quest_slots"][i] = None
    state["thug"] = None
    state["over"] = True
    state["turn"] = new_turn()
    state["outcome"] = scoring.outcome(state)


# -- reasons ---------------------------------------------------------------------------


def not_your_turn(state: State) -> Text:
    """The reason given to a seat that is not awaited."""
    if state["over"]:
        return T("The game is over.")
    waiting = sorted(to_act(state))
    names = ", ".join(state["names"][s] for s in waiting)
    return T("It is not your turn: waiting for %(names)s.", names=names)


PENDING_WORDS = {
    "start_resources": T("start resources"),
    "start_treasure": T("start treasure"),
    "place_room": T("place room"),
    "gather": T("gather"),
    "extra_craft": T("extra craft"),
    "keep_treasure": T("keep treasure"),
    "appraiser": T("appraiser"),
    "discard_one": T("discard one"),
    "hero_bonus": T("hero bonus"),
    "thug": T("thug"),
    "warlock": T("warlock"),
    "contract": T("contract"),
    "overseer": T("overseer"),
    "alchemist": T("alchemist"),
    "curator": T("curator"),
    "merchant_draw": T("merchant draw"),
    "merchant_discard": T("merchant discard"),
    "minstrel": T("minstrel"),
    "smuggler": T("smuggler"),
    "witch": T("witch"),
    "plenty": T("plenty"),
    "wonders": T("wonders"),
    "wonders_next": T("wonders next"),
    "spoil": T("spoil"),
    "map_discard": T("map discard"),
    "map_colors": T("map colors"),
    "bard": T("bard"),
    "substitute": T("substitute"),
}
"""The decisions waiting on the stack, named as ``First finish: ...`` says them."""


def explain(state: State, seat: int, move: Move) -> Text:
    """A clear reason why ``move`` is not legal now."""
    kind = move["type"]
    what, arg = active(state)
    legal_types = {m["type"] for m in legal_moves(state, seat)}
    p = guild.player(state, seat)
    if what == "discard_resource":
        return T("You are over your storage limit: discard resources first.")
    if what == "sell_down":
        return T("You hold more treasures than your hand size: sell treasures first.")
    if what == "pending" and kind not in legal_types:
        step = PENDING_WORDS.get(arg["kind"], arg["kind"].replace("_", " "))
        return T("First finish: %(step)s.", step=step)
    if kind == "end_turn":
        return T("Take an action (Gather, Craft or Expand) before ending your turn.")
    if kind in ("gather", "craft", "offer", "build_statue") and state["turn"]["action"]:
        return T("You have already taken your action this turn.")
    if kind == "craft":
        return T("You cannot craft that: check the quest, its resources, your sigils and "
                 "the Thug.")
    if kind == "build":
        room = move.get("room")
        if room not in cards.rooms():
            return T("There is no room called %(room)s.", room=repr(room))
        said = w.card(room)
        if guild.has_room(state, seat, room):
            return T("You already have a %(room)s.", room=said)
        if not rooms.in_supply(state, room):
            return T("No %(room)s is left for sale.", room=said)
        if p["coins"] < rooms.cost(room):
            return T("The %(room)s costs %(cost)s coins; you have %(coins)s.", room=said,
                     cost=rooms.cost(room), coins=p["coins"])
        return T("You cannot build the %(room)s now.", room=said)
    if kind == "hire":
        return T("You cannot hire that specialist: check the cost, your free spaces and the "
                 "row.")
    if kind == "play":
        return T("That treasure cannot be played now.")
    if kind == "sell":
        return T("That treasure cannot be sold (not in your hand, or it has no sell price).")
    if kind == "bid":
        return T("Bid a whole number of coins from 0 to %(coins)s.", coins=p["coins"])
    if kind not in legal_types:
        return T("A '%(kind)s' move is not possible now.", kind=kind)
    return T("That %(kind)s move is not legal now.", kind=kind)
