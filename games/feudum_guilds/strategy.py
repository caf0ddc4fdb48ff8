"""Simple bot policies and the experiment behind the strategy notes in RULES.md.

    python -m games.feudum_guilds.strategy [--games 50] [--players 3] [--seed 1]

A policy is a pure function ``(game, state, seat, chooser) -> move``: it never changes the
state, and its only randomness comes from ``chooser`` (a seeded :class:`random.Random`), so
an experiment is repeatable from its seed.

* :func:`random_move`: a uniform legal move.
* :func:`greedy_move`: the legal move that leaves the mover with the most vp after one step
  (each candidate is applied to a copy of the state with the same lookahead seed); ties,
  which are most moves that score nothing at once, are broken by a seeded choice.  Where
  the result hangs on hidden values (a pick between closed fists, which face-down seal to
  flip onto the rosary) it is a plain seeded choice: looking ahead would peek at them.
* :func:`master_seat_move`: greedy, except that it puts pawns into play (the starting pawn,
  and Migrate, which it selects whenever it has a pawn, a food and a marker for the seat)
  only in a guild whose master seat is free, and never takes a pawn out of play.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.feudum_guilds.components import GUILDS
from games.protocol import Game, Move, State
from games.rng import RecordingRandom

Policy = Callable[[Game, State, int, random.Random], Move]
# decisions whose vp hang on hidden seal values: no lookahead there
HIDDEN_CHOICES = frozenset({"fist_pick", "flip_seals"})


def random_move(game: Game, state: State, seat: int, chooser: random.Random) -> Move:
    """A uniform legal move."""
    return chooser.choice(game.legal_moves(state, seat))


def score_after(game: Game, state: State, seat: int, move: Move, seed: int) -> int:
    """The mover's vp after ``move`` (applied to a copy; randomness from ``seed``)."""
    work = json.loads(json.dumps(state))
    game.apply(work, seat, copy.deepcopy(move), RecordingRandom(seed))
    return work["ps"][seat]["vp"]


def _greedy_among(game: Game, state: State, seat: int, moves: list[Move],
                  chooser: random.Random) -> Move:
    if len(moves) == 1:
        return moves[0]
    if state["stack"] and state["stack"][-1]["kind"] in HIDDEN_CHOICES:
        return chooser.choice(moves)
    seed = chooser.getrandbits(64)  # the same luck for every candidate
    scores = [score_after(game, state, seat, m, seed) for m in moves]
    best = max(scores)
    return chooser.choice([m for m, s in zip(moves, scores, strict=True) if s == best])


def greedy_move(game: Game, state: State, seat: int, chooser: random.Random) -> Move:
    """The legal move that maximises the mover's vp after one step; ties by ``chooser``."""
    return _greedy_among(game, state, seat, game.legal_moves(state, seat), chooser)


def free_master_guilds(state: State, seat: int) -> set[str]:
    """Guilds whose master seat nobody holds (so a new pawn there would take it)."""
    return {g for g in GUILDS if state["guilds"][g]["seats"][0] is None}


def master_seat_move(game: Game, state: State, seat: int, chooser: random.Random) -> Move:
    """Greedy, but pawns go into play only where a master seat is free, and Migrate is
    selected whenever a pawn, a food, a marker and such a guild are at hand; it never
    retires a pawn."""
    moves = game.legal_moves(state, seat)
    free = free_master_guilds(state, seat)
    p = state["ps"][seat]
    pawn_moves = [m for m in moves if m["type"] in ("start_pawn", "migrate")]
    if pawn_moves:
        wanted = [m for m in pawn_moves if m["guild"] in free]
        if wanted:
            return _greedy_among(game, state, seat, wanted, chooser)
    # it never takes a pawn out of play, nor puts one where no master seat is free
    moves = [m for m in moves if m["type"] not in ("migrate", "retire")] or moves
    can_migrate = (free and p["goods"]["food"] > 0 and p["markers"] > 0
                   and any(pawn["guild"] is None for pawn in p["pawns"]))
    selects = [m for m in moves if m["type"] == "select"]
    if selects and can_migrate:
        moves = [m for m in selects if "migrate" in m["cards"]] or moves
    return _greedy_among(game, state, seat, moves, chooser)


POLICIES: dict[str, Policy] = {"random": random_move, "greedy": greedy_move,
                               "master_seat": master_seat_move}


@dataclass
class GameStats:
    """What one game showed: scores, winners, dawn status vp and guild functions used."""

    policies: list[str]
    scores: list[int]
    winners: list[int]
    dawn_vp: int = 0
    dawn_vp_by_seat: list[int] = field(default_factory=list)
    pulls: int = 0
    pushes: int = 0
    moves: int = 0
    pulls_by_policy: dict[str, int] = field(default_factory=dict)


def play(game: Game, policies: list[str], seed: int, options: dict[str, Any] | None = None,
         max_moves: int = 20000) -> GameStats:
    """One whole game, seat i playing ``policies[i]``; everything drawn from ``seed``."""
    chooser = random.Random(seed)
    n = len(policies)
    opts = game.normalize_options(dict(options or {}), n)
    state = game.setup([f"Bot {i + 1}" for i in range(n)], opts,
                       RecordingRandom(chooser.getrandbits(64)))
    stats = GameStats(policies=list(policies), scores=[], winners=[], dawn_vp_by_seat=[0] * n,
                      pulls_by_policy=dict.fromkeys(policies, 0))
    dawn = state["dawn"]
    while game.outcome(state) is None:
        if stats.moves >= max_moves:
            raise RuntimeError(f"game {seed} did not end within {max_moves} moves")
        seat = chooser.choice(sorted(game.to_act(state)))
        move = POLICIES[policies[seat]](game, state, seat, chooser)
        game.apply(state, seat, move, RecordingRandom(chooser.getrandbits(64)))
        stats.moves += 1
        if move["type"] in ("guild", "feast") and move.get("function") == "pull":
            stats.pulls += 1
            stats.pulls_by_policy[policies[seat]] += 1
        elif move["type"] in ("guild", "feast") and move.get("function") == "push":
            stats.pushes += 1
        if state["dawn"] != dawn:
            dawn = state["dawn"]
            stats.dawn_vp += sum(dawn["status_vp"])
            for s, vp in enumerate(dawn["status_vp"]):
                stats.dawn_vp_by_seat[s] += vp
    outcome = game.outcome(state)
    stats.scores, stats.winners = outcome["scores"], outcome["winners"]
    return stats


def experiment(game: Game, lineup: list[str], n_games: int, seed: int) -> dict[str, Any]:
    """``n_games`` games of ``lineup`` (rotated one seat per game, so every policy sits in
    every seat); the figures the strategy notes quote."""
    games = []
    for i in range(n_games):
        shift = i % len(lineup)
        games.append(play(game, lineup[shift:] + lineup[:shift], seed + i))
    total = sum(sum(g.scores) for g in games)
    wins: dict[str, float] = dict.fromkeys(lineup, 0.0)
    for g in games:
        for w in g.winners:
            wins[g.policies[w]] += 1 / len(g.winners)
    seats = {name: lineup.count(name) for name in lineup}
    # games won by the (or a) player who scored the most at the dawns
    dawn_leader_won = sum(1 for g in games
                          if any(g.dawn_vp_by_seat[w] == max(g.dawn_vp_by_seat)
                                 for w in g.winners))
    return {
        "lineup": lineup, "games": n_games, "seed": seed,
        "dawn_share_of_all_vp": round(sum(g.dawn_vp for g in games) / total, 3),
        "pulls_per_game": round(sum(g.pulls for g in games) / n_games, 2),
        "games_without_a_pull": sum(1 for g in games if g.pulls == 0),
        "dawn_leader_won": round(dawn_leader_won / n_games, 3),
        "pushes_per_game": round(sum(g.pushes for g in games) / n_games, 2),
        "pulls_per_game_by_policy": {k: round(sum(g.pulls_by_policy[k] for g in games)
                                              / n_games, 2) for k in seats},
        # a policy's share of the wins, per seat it holds (fair share: 1 / players)
        "win_rate_per_seat": {k: round(wins[k] / n_games / seats[k], 3) for k in seats},
        "mean_score": {k: round(sum(s for g in games for s, p in zip(g.scores, g.policies,
                                                                       strict=True) if p == k)
                                / n_games / seats[k], 1) for k in seats},
        "mean_dawn_vp": {k: round(sum(v for g in games for v, p in zip(
            g.dawn_vp_by_seat, g.policies, strict=True) if p == k) / n_games / seats[k], 1)
            for k in seats},
        "mean_moves": round(sum(g.moves for g in games) / n_games, 1),
    }


def main(argv: list[str] | None = None) -> None:
    """Print the strategy figures as JSON lines, one per line-up."""
    from games.feudum_guilds import GAME
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rest = args.players - 1
    for lineup in (["greedy"] + ["random"] * rest, ["master_seat"] + ["greedy"] * rest):
        print(json.dumps(experiment(GAME, lineup, args.games, args.seed)), flush=True)


if __name__ == "__main__":
    main()
