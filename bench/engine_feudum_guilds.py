"""Engine speed of the Feudum guild economy: whole random-bot games, in memory.

Plays ``--games`` whole games with ``games.bots.play_random_game`` (4 players, newest
rules, default options), then replays each recorded game move by move and times what
the service pays per move: ``legal_moves`` for the mover, ``apply``, the mover's
``view`` and ``reveals`` (the take-back check).  The reference, measured in the same
run on the same states, is a JSON round trip of the state (``json.loads(json.dumps(s))``),
a fixed cost that the engine's code does not change.

    python bench/engine_feudum_guilds.py [--games 5] [--players 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import play_random_game  # noqa: E402
from games.feudum_guilds import FeudumGuilds  # noqa: E402
from games.rng import TapePlayer  # noqa: E402

PARTS = ("legal_moves", "apply", "view", "reveals", "reference")


def replay_timed(game: FeudumGuilds, record, totals: dict[str, float]) -> int:
    """Fold ``record`` again, adding each part's time to ``totals``; the number of moves."""
    clock = time.perf_counter
    tape = TapePlayer(record.setup_tape)
    state = game.setup(list(record.players), json.loads(json.dumps(record.options)), tape)
    for seat, move, move_tape in record.moves:
        t0 = clock()
        game.legal_moves(state, seat)
        t1 = clock()
        before = json.loads(json.dumps(state))  # the reference: a JSON round trip
        t2 = clock()
        game.apply(state, seat, json.loads(json.dumps(move)), TapePlayer(move_tape))
        t3 = clock()
        game.view(state, seat)
        t4 = clock()
        game.reveals(before, state, seat, move)
        t5 = clock()
        totals["legal_moves"] += t1 - t0
        totals["reference"] += t2 - t1
        totals["apply"] += t3 - t2
        totals["view"] += t4 - t3
        totals["reveals"] += t5 - t4
    return len(record.moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = FeudumGuilds()  # newest rules
    totals = dict.fromkeys(PARTS, 0.0)
    moves = 0
    start = time.perf_counter()
    for i in range(args.games):
        _, record = play_random_game(game, args.players, args.seed + i)
        moves += replay_timed(game, record, totals)
    wall = time.perf_counter() - start

    engine = totals["legal_moves"] + totals["apply"] + totals["reveals"]
    ref = totals["reference"]
    print(f"Feudum guild economy, rules {game.rules_version}, {args.players} players: "
          f"{args.games} random-bot games, {moves} moves ({moves / args.games:.0f} a game), "
          f"{wall:.1f} s in all")
    print(f"{'part':<28}{'ms/game':>10}{'µs/move':>10}{'× reference':>13}")
    rows = [(name, totals[name]) for name in PARTS[:-1]]
    rows += [("engine (legal+apply+reveals)", engine), ("reference (JSON round trip)", ref)]
    for name, seconds in rows:
        print(f"{name:<28}{seconds * 1e3 / args.games:>10.1f}{seconds * 1e6 / moves:>10.1f}"
              f"{seconds / ref:>13.2f}")


if __name__ == "__main__":
    main()
