"""Helpers for The King's Guild rule tests: given a set-up game, put cards and resources
exactly where a test needs them (keeping every card in one place), then play moves."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.kings_guild import GAME, cards, guild
from games.rng import RecordingRandom


class Helpers:
    """Given/when helpers; every helper keeps the game's invariants."""

    game = GAME

    def new(self, n: int = 2, seed: int = 7, guilds: list[str] | None = None,
            options: dict[str, Any] | None = None, rules: str | None = None) -> dict[str, Any]:
        """A set-up game with plain guilds (no start choices) and the start bonuses undone;
        ``rules``: the rules version it is created under (default: the newest). The engine
        reads the version from the state, so the helpers' moves follow it."""
        game = GAME.for_rules(rules) if rules else GAME
        state = game.setup([f"P{i + 1}" for i in range(n)], dict(options or {}),
                           RecordingRandom(seed))
        state["pending"] = []
        names = guilds or ["Craft Collective"] * n
        for seat, name in enumerate(names):
            p = state["guilds"][seat]
            for r in cards.RESOURCES:
                self.set_resource(state, seat, r, 0)
            for c in list(p["hand"]):
                self.to_deck(state, c)
            p["rooms"] = []
            p["guild"] = name
            p["coins"] = 10
        return state

    # -- resources and coins ----------------------------------------------------------
    def set_resource(self, state, seat: int, resource: str, amount: int) -> None:
        p = state["guilds"][seat]
        delta = amount - p["resources"][resource]
        if delta > state["supply"][resource]:
            state["supply"][resource] += delta
            state["resource_totals"][resource] += delta
        state["supply"][resource] -= delta
        p["resources"][resource] = amount

    def give(self, state, seat: int, **resources: int) -> None:
        for r, n in resources.items():
            self.set_resource(state, seat, r, n)

    def res(self, state, seat: int) -> dict[str, int]:
        return {r: n for r, n in state["guilds"][seat]["resources"].items() if n}

    # -- treasures ---------------------------------------------------------------------
    def _take_card(self, state, card: str) -> None:
        for d in list(state["treasure_decks"].values()) + list(state["discards"].values()):
            if card in d:
                d.remove(card)
                return
        for p in state["guilds"]:
            if card in p["hand"]:
                p["hand"].remove(card)
                return
        for pile in (state["treasures_removed"], state["treasures_boxed"]):
            if card in pile:
                pile.remove(card)
                return
        raise AssertionError(f"{card} not found")

    def card(self, state, name: str, exclude: tuple[str, ...] = ()) -> str:
        """A card instance of ``name`` that is in a deck or discard pile."""
        for d in list(state["treasure_decks"].values()) + list(state["discards"].values()):
            for c in d:
                if cards.treasure_name(c) == name and c not in exclude:
                    return c
        raise AssertionError(f"no free {name}")

    def to_hand(self, state, seat: int, name: str) -> str:
        c = self.card(state, name)
        self._take_card(state, c)
        state["guilds"][seat]["hand"].append(c)
        return c

    def to_deck(self, state, c: str) -> None:
        self._take_card(state, c)
        state["treasure_decks"][cards.treasure(c)["color"]].append(c)

    def on_top(self, state, name: str) -> str:
        """Put a card of ``name`` on top of its deck (the next one drawn)."""
        c = self.card(state, name)
        self._take_card(state, c)
        state["treasure_decks"][cards.treasure(c)["color"]].append(c)
        return c

    def hand_names(self, state, seat: int) -> list[str]:
        return sorted(cards.treasure_name(c) for c in state["guilds"][seat]["hand"])

    # -- specialists, rooms, quests ------------------------------------------------------
    def _take_specialist(self, state, sid: int) -> None:
        for pile in (state["specialist_deck"], state["specialists_removed"],
                     state["specialists_boxed"]):
            if sid in pile:
                pile.remove(sid)
                return
        for i, e in enumerate(state["specialist_row"]):
            if e and e["id"] == sid:
                state["specialist_row"][i] = None
                return
        for p in state["guilds"]:
            for s in list(p["specialists"]):
                if s["id"] == sid:
                    p["specialists"].remove(s)
                    return
        raise AssertionError(sid)

    def hire(self, state, seat: int, name: str, space: str = "top") -> None:
        """Give ``seat`` a specialist directly (no cost, no effect)."""
        sid = cards.specialist_ids()[name]
        self._take_specialist(state, sid)
        state["guilds"][seat]["specialists"].append({"id": sid, "space": space})

    def row(self, state, names: list[str], discounts: list[int] | None = None) -> None:
        """Set the specialist row left to right (old row cards go back to the deck bottom)."""
        for e in state["specialist_row"]:
            if e:
                state["specialist_deck"].append(e["id"])
        state["specialist_row"] = [None] * 5
        for i, name in enumerate(names):
            sid = cards.specialist_ids()[name]
            self._take_specialist(state, sid)
            state["specialist_row"][i] = {"id": sid, "discount": (discounts or [0] * 5)[i]}

    def room(self, state, seat: int, name: str, x: int, y: int) -> None:
        """Put a room into a guild directly (no cost, no bonus, not from the supply)."""
        double = cards.rooms()[name]["double"]
        cells = [[x, y], [x + 1, y]] if double else [[x, y]]
        state["guilds"][seat]["rooms"].append({"name": name, "cells": cells})

    def _take_quest(self, state, qid: int) -> None:
        for pile in (state["quest_deck"], state["quests_removed"], state["quests_boxed"],
                     state["events_done"]):
            if qid in pile:
                pile.remove(qid)
                return
        for i, s in enumerate(state["quest_slots"]):
            if s and s["quest"] == qid:
                state["quest_slots"][i] = None
                return
        for p in state["guilds"]:
            if qid in p["quests"]:
                p["quests"].remove(qid)
                return
        raise AssertionError(qid)

    def slot(self, state, index: int, qid: int) -> None:
        """Put quest ``qid`` into slot ``index`` (the old one goes to the box)."""
        from games.kings_guild import quests

        old = state["quest_slots"][index]
        if old and old["quest"] == qid:
            return
        self._take_quest(state, qid)
        if old:
            state["quests_boxed"].append(old["quest"])
        state["quest_slots"][index] = quests.new_slot(qid)

    def next_quest(self, state, qid: int) -> None:
        """Make ``qid`` the top card of the quest deck."""
        self._take_quest(state, qid)
        state["quest_deck"].insert(0, qid)

    def owns_quest(self, state, seat: int, qid: int) -> None:
        self._take_quest(state, qid)
        state["guilds"][seat]["quests"].append(qid)

    def quest_id(self, name: str) -> int:
        return next(q["id"] for q in cards.quests().values() if q["name"] == name)

    # -- playing -------------------------------------------------------------------------
    def play(self, state, seat: int, move: Any, seed: int = 1) -> None:
        """Apply ``move``; a move missing only derived fields (the quest of a craft, the
        specialist of a hire, the room of a place) is completed from the legal moves."""
        GAME.apply(state, seat, self.complete(state, seat, move), RecordingRandom(seed))
        GAME.check_invariants(state)

    def complete(self, state, seat: int, move: Any) -> Any:
        """``move`` with its derived fields filled in from the one legal move it matches."""
        if isinstance(move, dict) and move not in GAME.legal_moves(state, seat):
            fuller = [m for m in GAME.legal_moves(state, seat)
                      if all(m.get(k, object()) == v for k, v in move.items())
                      and set(m) - set(move) <= {"quest", "specialist", "room"}]
            if len(fuller) == 1:
                return fuller[0]
        return move

    def take_back(self, state, seat: int, move: Any, seed: int = 1) -> str | None:
        """Play ``move`` (as :meth:`play`) and say why the platform would refuse to take it
        back: "it drew randomness" when its tape is not empty, else the game's ``reveals``
        reason; None when it can be taken back."""
        before = copy.deepcopy(state)
        rng = RecordingRandom(seed)
        move = self.complete(state, seat, move)
        GAME.apply(state, seat, move, rng)
        GAME.check_invariants(state)
        if rng.tape:
            return "it drew randomness"
        return GAME.reveals(before, state, seat, move)

    def moves(self, state, seat: int, kind: str | None = None) -> list[dict[str, Any]]:
        return [m for m in GAME.legal_moves(state, seat) if kind is None or m["type"] == kind]

    def top(self, state) -> dict[str, Any] | None:
        return state["pending"][-1] if state["pending"] else None

    def coins(self, state, seat: int) -> int:
        return state["guilds"][seat]["coins"]

    has_specialist = staticmethod(guild.has_specialist)


@pytest.fixture
def kg() -> Helpers:
    return Helpers()

