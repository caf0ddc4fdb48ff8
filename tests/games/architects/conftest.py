"""Helpers for the Architects rule tests: a game past the draft, and move shortcuts."""

from __future__ import annotations

from typing import Any

import pytest

from games.architects import GAME
from games.protocol import Game
from games.rng import RecordingRandom


class Table:
    """A game in its play phase with shortcuts to set it up and play moves."""

    def __init__(self, n: int = 2, seed: int = 1, game: Game = GAME, **options: Any) -> None:
        self.game = game  # GAME.for_rules("2") plays an older rules version
        opts = game.normalize_options(options, n)
        self.state = game.setup([f"P{i}" for i in range(n)], opts, RecordingRandom(seed))
        while self.state["phase"] == "draft":
            for seat in sorted(game.to_act(self.state)):
                self.play(seat, game.legal_moves(self.state, seat)[0])
        self.seed = seed

    def turn_to(self, p: int) -> None:
        """Make it p's turn (no pending choice)."""
        self.state["current"] = p
        self.state["turn_index"] = self.state["order"].index(p)
        self.state["pending"] = None

    def player(self, p: int) -> dict[str, Any]:
        return self.state["players"][p]

    def give(self, p: int, **goods: int) -> None:
        for k, v in goods.items():
            self.player(p)[k] = v

    def play(self, seat: int, move: dict[str, Any], seed: int = 7) -> None:
        self.game.apply(self.state, seat, move, RecordingRandom(seed))

    def moves(self, seat: int) -> list[dict[str, Any]]:
        return self.game.legal_moves(self.state, seat)

    def place(self, p: int, location: str, **extra: Any) -> None:
        self.turn_to(p)
        self.play(p, {"type": "place", "location": location, **extra})


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def make_table():
    return Table
