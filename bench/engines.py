"""Engine speed of a game kind: whole random-bot games, in memory.

Plays ``--games`` whole games with ``games.bots.play_random_game`` (newest rules unless
``--rules``, default options), then replays each recorded game move by move and times
what the service pays per move: ``legal_moves`` for the mover, ``apply``, the mover's
``view`` and ``reveals`` (the take-back check every move pays).  The reference, measured
in the same run on the same states, is a JSON round trip of the state
(``json.loads(json.dumps(s))``), a fixed cost that the engine's code does not change.

The last lines, digests of every game's moves, tapes and final state and of every answer
timed (legal moves, views, take-back reasons), must not change when an engine gets
faster (the same rules draw the same tapes in the same order and answer the same).

    python bench/engines.py KIND [--games 5] [--players 4] [--seed 1] [--rules 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from common import ROOT  # noqa: F401  (puts the project on sys.path)

from games import registry
from games.bots import Record, play_random_game
from games.protocol import Game
from games.rng import TapePlayer

PARTS = ("legal_moves", "apply", "view", "reveals", "reference")


def replay_timed(game: Game, record: Record, totals: dict[str, float], answers) -> int:
    """Fold ``record`` again, adding each part's time to ``totals`` and every answer (legal
    moves, view, take-back reason) to the ``answers`` hash; the number of moves."""
    clock = time.perf_counter
    tape = TapePlayer(record.setup_tape)
    state = game.setup(list(record.players), json.loads(json.dumps(record.options)), tape)
    for seat, move, move_tape in record.moves:
        t0 = clock()
        legal = game.legal_moves(state, seat)
        t1 = clock()
        before = json.loads(json.dumps(state))  # the reference: a JSON round trip
        t2 = clock()
        game.apply(state, seat, json.loads(json.dumps(move)), TapePlayer(move_tape))
        t3 = clock()
        view = game.view(state, seat)
        t4 = clock()
        reason = game.reveals(before, state, seat, move)
        t5 = clock()
        answers.update(json.dumps([legal, view, reason], sort_keys=True).encode())
        totals["legal_moves"] += t1 - t0
        totals["reference"] += t2 - t1
        totals["apply"] += t3 - t2
        totals["view"] += t4 - t3
        totals["reveals"] += t5 - t4
    return len(record.moves)


def digest(record: Record, final: dict) -> str:
    """What must stay the same however fast the engine is: moves, tapes, final state."""
    data = json.dumps([record.setup_tape, record.moves, final], sort_keys=True)
    return hashlib.sha256(data.encode()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=[k for k in registry.KINDS if not k.startswith(
        ("test-", "bench-"))])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default=None, help="rules version (default: the newest)")
    args = parser.parse_args()

    newest = registry.get(args.kind)
    game = newest.for_rules(args.rules or newest.rules_version)
    totals = dict.fromkeys(PARTS, 0.0)
    moves = 0
    whole, answers = hashlib.sha256(), hashlib.sha256()
    start = time.perf_counter()
    for i in range(args.games):
        final, record = play_random_game(game, args.players, args.seed + i)
        whole.update(digest(record, final).encode())
        moves += replay_timed(game, record, totals, answers)
    wall = time.perf_counter() - start

    engine = totals["legal_moves"] + totals["apply"] + totals["reveals"]
    ref = totals["reference"]
    print(f"{game.name}, rules {game.rules_version}, {args.players} players: "
          f"{args.games} random-bot games, {moves} moves ({moves / args.games:.0f} a game), "
          f"{wall:.1f} s in all")
    print(f"{'part':<28}{'ms/game':>10}{'µs/move':>10}{'× reference':>13}")
    rows = [(name, totals[name]) for name in PARTS[:-1]]
    rows += [("engine (legal+apply+reveals)", engine), ("reference (JSON round trip)", ref)]
    for name, seconds in rows:
        print(f"{name:<28}{seconds * 1e3 / args.games:>10.1f}{seconds * 1e6 / moves:>10.1f}"
              f"{seconds / ref:>13.2f}")
    print(f"digest of the games (moves, tapes, final states): {whole.hexdigest()[:16]}")
    print(f"digest of the answers (legal moves, views, reasons): {answers.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
