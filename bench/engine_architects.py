"""Engine speed of Architects of the West Kingdom: whole random-bot games in memory.

Plays ``--games`` whole games with ``games.bots.play_random_game`` (4 players, the newest
rules) and times, per move of the live game, the engine's ``legal_moves``, ``apply``,
``view`` (the next seat to act) and ``reveals`` (the take-back check every move pays).
The reference, measured in the same run on the same states, is a fixed cost this work
does not change: ``json.loads(json.dumps(state))`` after every move.  Not a test: no
assertion on time.

    python bench/engine_architects.py [--games 20] [--players 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.architects import GAME  # noqa: E402
from games.bots import play_random_game  # noqa: E402
from games.protocol import Game, Move, State  # noqa: E402
from games.rng import GameRandom  # noqa: E402

ENGINE = ("legal_moves", "apply", "reveals")


class Timed:
    """A game whose calls on the live state are timed (the final fold's are not)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.live: State | None = None
        self.seconds: dict[str, float] = defaultdict(float)
        self.moves = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        state = self.game.setup(players, options, rng)
        if self.live is None:  # later setups are play_random_game's fold from scratch
            self.live = state
        return state

    def _time(self, name: str, fn: Any, *args: Any) -> Any:
        start = time.perf_counter()
        result = fn(*args)
        self.seconds[name] += time.perf_counter() - start
        return result

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if state is not self.live:
            return self.game.legal_moves(state, seat)
        return self._time("legal_moves", self.game.legal_moves, state, seat)

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        if state is not self.live:
            self.game.apply(state, seat, move, rng)
            return
        before = copy.deepcopy(state)  # the service has the state before the move too
        self._time("apply", self.game.apply, state, seat, move, rng)
        self._time("reveals", self.game.reveals, before, state, seat, move)
        for viewer in sorted(self.game.to_act(state))[:1]:
            self._time("view", self.game.view, state, viewer)
        self._time("reference", lambda s: json.loads(json.dumps(s)), state)
        self.moves += 1


def run(games: int, players: int, seed: int) -> dict[str, float]:
    """Play ``games`` games; seconds per game of each timed call, and moves per game."""
    totals: dict[str, float] = defaultdict(float)
    moves = 0
    for k in range(games):
        timed = Timed(GAME)
        play_random_game(timed, players, seed + k)  # type: ignore[arg-type]
        for name, seconds in timed.seconds.items():
            totals[name] += seconds
        moves += timed.moves
    out = {name: seconds / games for name, seconds in totals.items()}
    out["moves"] = moves / games
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    r = run(args.games, args.players, args.seed)
    engine = sum(r[name] for name in ENGINE)
    print(f"Architects rules {GAME.rules_version}, {args.players} players, {args.games} "
          f"random-bot games, {r['moves']:.0f} moves per game")
    print(f"{'call':<12} {'ms/game':>9} {'µs/move':>9} {'/ reference':>12}")
    for name in (*ENGINE, "view", "reference"):
        print(f"{name:<12} {r[name] * 1e3:9.1f} {r[name] / r['moves'] * 1e6:9.1f} "
              f"{r[name] / r['reference']:12.2f}")
    print(f"{'engine':<12} {engine * 1e3:9.1f} {engine / r['moves'] * 1e6:9.1f} "
          f"{engine / r['reference']:12.2f}   (legal_moves + apply + reveals)")


if __name__ == "__main__":
    main()
