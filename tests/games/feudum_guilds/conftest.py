"""Helpers for the Feudum guild-economy rule tests: given a table, when a move, then ..."""

from __future__ import annotations

import copy

import pytest

from games.feudum_guilds import GAME
from games.feudum_guilds import status as status_mod
from games.feudum_guilds.action_cards import add_location
from games.feudum_guilds.components import GUILDS
from games.protocol import IllegalMove
from games.rng import RecordingRandom


class Table:
    """A game state plus helpers to arrange positions directly (the state is plain data)."""

    def __init__(self, n: int = 3, seed: int = 7, rules: str | None = None, **options) -> None:
        """A table of ``n`` players under rules version ``rules`` (default: the newest)."""
        self.game = GAME.for_rules(rules) if rules else GAME
        self.rng = RecordingRandom(seed)
        opts = self.game.normalize_options(options, n)
        self.state = self.game.setup([f"P{i}" for i in range(n)], opts, self.rng)
        while self.state["phase"] == "setup":
            seat = next(iter(self.game.to_act(self.state)))
            self.game.apply(self.state, seat, self.game.legal_moves(self.state, seat)[0],
                            self.rng)
        self.blank()

    # -- arranging --------------------------------------------------------------------------
    def blank(self) -> None:
        """No pawns in play and no seats: every player holds 7 markers."""
        s = self.state
        for g in GUILDS:
            for seat in s["guilds"][g]["seats"]:
                if seat is not None:
                    s["ps"][seat]["markers"] += 1
            s["guilds"][g]["seats"] = [None] * len(s["guilds"][g]["seats"])
        for p in s["ps"]:
            for pawn in p["pawns"]:
                pawn["guild"] = None

    def p(self, seat: int) -> dict:
        return self.state["ps"][seat]

    def seat(self, guild: str, seats: list[int]) -> None:
        """Give each listed player a pawn of the guild and seat them in this order."""
        s = self.state
        for seat in seats:
            pawns = self.p(seat)["pawns"]
            if not any(pw["guild"] == guild for pw in pawns):
                next(pw for pw in pawns if pw["guild"] is None)["guild"] = guild
        for old in s["guilds"][guild]["seats"]:
            if old is not None:
                self.p(old)["markers"] += 1
        for seat in seats:
            self.p(seat)["markers"] -= 1
        size = len(s["guilds"][guild]["seats"])
        s["guilds"][guild]["seats"] = list(seats) + [None] * (size - len(seats))
        status_mod.update_all(s)

    def location(self, seat: int, kind: str, **goods) -> dict:
        """Add a ruled location (taking its marker from the player)."""
        loc = add_location(self.p(seat), kind)
        self.p(seat)["markers"] -= 1
        for g, n in goods.items():
            self.state["haversack"][g] -= n
            loc["goods"][g] += n
        return loc

    def loc(self, seat: int, loc_id: int) -> dict:
        """A location as it is now (apply replaces the state's contents)."""
        return next(x for x in self.p(seat)["locations"] if x["id"] == loc_id)

    def give(self, seat: int, **goods) -> None:
        """Move goods from the haversack to a player's supply."""
        for g, n in goods.items():
            self.state["haversack"][g] -= n
            self.p(seat)["goods"][g] += n

    def act_phase(self, cards: tuple[str, ...] = ("guild", "tax", "explore", "harvest")) -> None:
        """Jump into the act phase with every player holding these cards unplayed."""
        s = self.state
        s["phase"] = "act"
        s["stack"] = []
        s["act"] = {"current": None, "again": False}
        for p in s["ps"]:
            p.update(selected=list(cards), played=[], boost="none", committed=True)

    def turn(self, seat: int, card: str = "guild") -> None:
        """Make it ``seat``'s turn with ``card`` already played (its choice is asked next)."""
        if self.state["phase"] != "act":
            self.act_phase()
        p = self.p(seat)
        if card not in p["selected"]:
            p["selected"].append(card)
        p["played"].append(card)
        self.state["act"]["current"] = seat
        self.state["stack"] = [{"kind": "card", "seat": seat, "card": card, "repeat": False}]

    def chickens(self, *values: int) -> None:
        """Put beads of these values on the chickens (taken from wherever they are)."""
        self._place("chickens", values)

    def rosary(self, *values: int) -> None:
        self._place("rosary", values)

    def _place(self, where: str, values) -> None:
        s = self.state
        # return every token of that place to the supply first
        if where == "chickens":
            for i, t in enumerate(s["chickens"]):
                if t is not None:
                    s["seal_supply"].append(t)
                    s["chickens"][i] = None
        else:
            s["seal_supply"].extend(s["rosary"])
            s["rosary"] = []
        for i, v in enumerate(values):
            t = self._token(v, keep=where)
            s["seal_supply"].remove(t)
            if where == "chickens":
                s["chickens"][i] = t
            else:
                s["rosary"].append(t)

    def _token(self, value: int, keep: str) -> int:
        """A supply token of ``value``, swapping one in from the scrolls or the other place."""
        s = self.state
        for t in s["seal_supply"]:
            if s["tokens"][t] == value:
                return t
        spare = s["seal_supply"][0]
        for i, t in enumerate(s["scrolls"]):
            if t is not None and s["tokens"][t] == value:
                s["scrolls"][i], s["seal_supply"][0] = spare, t
                return t
        other = "rosary" if keep == "chickens" else None
        if other:
            for i, t in enumerate(s["rosary"]):
                if s["tokens"][t] == value:
                    s["rosary"][i], s["seal_supply"][0] = spare, t
                    return t
        raise LookupError(value)

    # -- acting -----------------------------------------------------------------------------
    def do(self, seat: int, move: dict) -> None:
        self.game.apply(self.state, seat, move, self.rng)

    def decide(self, seat: int, move: dict) -> tuple[str | None, list[int]]:
        """Play ``move`` as the platform decides it: why it cannot be taken back, and its tape
        (a non-empty tape means it drew randomness, which is never taken back either)."""
        before = copy.deepcopy(self.state)
        rng = RecordingRandom(len(self.rng.tape) + 1)
        self.game.apply(self.state, seat, move, rng)
        return self.game.reveals(before, self.state, seat, move), rng.tape

    def moves(self, seat: int) -> list[dict]:
        return self.game.legal_moves(self.state, seat)

    def top(self) -> dict:
        return self.state["stack"][-1]

    def illegal(self, seat: int, move: dict) -> str:
        before = copy.deepcopy(self.state)
        with pytest.raises(IllegalMove) as err:
            self.do(seat, move)
        assert self.state == before, "an illegal move changed the state"
        return err.value.reason

    def check(self) -> None:
        self.game.check_invariants(self.state)


@pytest.fixture
def table():
    """A factory: ``table(n=3, **options)``."""
    return Table


def assert_no_leaks(state: dict) -> None:
    """No view shows another seat's hidden information or any seal value."""
    values = state["tokens"]
    face_up = list(state["rosary"]) + [c for c in state["chickens"] if c is not None]
    for p in state["ps"]:
        face_up += p["beads"]
    for viewer in [None, *range(state["n"])]:
        view = GAME.view(state, viewer)
        assert "tokens" not in view and isinstance(view["noble"]["seal_supply"], int)
        for seat, pv in enumerate(view["players"]):
            if seat != viewer:
                assert "hand" not in pv and "selected" not in pv
                if state["phase"] == "select":
                    assert "boost" not in pv and "cards_left" not in pv
            assert isinstance(pv["seals"], int)
        assert all(isinstance(x, bool) for x in view["noble"]["scrolls"])
        shown = sorted(view["monk"]["rosary"] + [c for c in view["farmer"]["chickens"] if c]
                       + [b for pv in view["players"] for b in pv["beads"]])
        assert shown == sorted(values[t] for t in face_up)
        pending = view["pending"]
        if pending and state["stack"]:
            top = state["stack"][-1]
            if top["kind"] == "fist_pick" and viewer != top["divider"]:
                assert "fists" not in pending
            if top["kind"] == "writ_keep" and viewer != top["seat"]:
                assert "cards" not in pending


@pytest.fixture
def no_leaks():
    """The view leak check: ``no_leaks(state)``."""
    return assert_no_leaks
