"""Counting Race with a pass at every turn of play, for the "skip" time-out policy."""

from __future__ import annotations

from typing import Any

from games.protocol import Move, State
from tests.platform_game import CountingRace


class CountingRaceWithPass(CountingRace):
    kind = "test-clock"
    name = "Counting Race with passes (test game)"

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        moves = super().legal_moves(state, seat)
        if moves and moves[0]["type"] == "play":
            moves.append({"type": "pass"})
        return moves

    def pass_move(self, state: State, seat: int) -> Move | None:
        return {"type": "pass"} if {"type": "pass"} in self.legal_moves(state, seat) else None

    def option_fields(self) -> list[dict[str, Any]]:
        return []


GAME = CountingRaceWithPass()
