"""Random legal-move bots and the fold check, for soak tests and ``ravenpost bots``.

This drives a game purely (no store): it records every move's tape the way the service
does, then folds the recorded moves from scratch with tape players and checks that the
result equals the live state.  The service's own bot runner goes through the event store.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.protocol import Game, Move, State
from games.rng import RecordingRandom, TapePlayer


@dataclass
class Record:
    """What a game's event log would hold: setup tape and (seat, move, tape) per move."""

    players: list[str]
    options: dict[str, Any]
    setup_tape: list[int]
    moves: list[tuple[int, Move, list[int]]] = field(default_factory=list)


def fold(game: Game, record: Record, upto: int | None = None) -> State:
    """Rebuild the state from a record, using only the tapes (no seeds)."""
    tape = TapePlayer(record.setup_tape)
    state = game.setup(list(record.players), copy.deepcopy(record.options), tape)
    tape.finish()
    for seat, move, move_tape in record.moves[:upto]:
        player = TapePlayer(move_tape)
        game.apply(state, seat, copy.deepcopy(move), player)
        player.finish()
    return state


def choose_seat_and_move(game: Game, state: State, chooser: random.Random) -> tuple[int, Move]:
    """A uniformly random seat among those to act, and a uniform legal move for it."""
    seats = sorted(game.to_act(state))
    if not seats:
        raise RuntimeError("no seat to act but the game has no outcome")
    seat = chooser.choice(seats)
    moves = game.legal_moves(state, seat)
    if not moves:
        raise RuntimeError(f"seat {seat} is to act but has no legal move")
    return seat, chooser.choice(moves)


def play_random_game(
    game: Game,
    n_players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_moves: int = 20000,
    check: Callable[[State], None] | None = None,
    check_fold_every: int = 0,
) -> tuple[State, Record]:
    """Play one whole game with random legal moves.

    ``check`` runs after setup and after every move (invariants, views); with
    ``check_fold_every`` = k, every k-th move the record is folded from scratch and
    compared with the live state.  The final state is always compared.
    """
    chooser = random.Random(seed)
    players = [f"Bot {i + 1}" for i in range(n_players)]
    opts = game.normalize_options(dict(options or {}), n_players)
    rng = RecordingRandom(chooser.getrandbits(64))
    state = game.setup(players, copy.deepcopy(opts), rng)
    record = Record(players, opts, rng.tape)
    _check_json(state)
    if check:
        check(state)
    while game.outcome(state) is None:
        if len(record.moves) >= max_moves:
            raise RuntimeError(f"game did not end within {max_moves} moves")
        seat, move = choose_seat_and_move(game, state, chooser)
        rng = RecordingRandom(chooser.getrandbits(64))
        game.apply(state, seat, copy.deepcopy(move), rng)
        record.moves.append((seat, move, rng.tape))
        _check_json(state)
        if check:
            check(state)
        if check_fold_every and len(record.moves) % check_fold_every == 0:
            assert fold(game, record) == state, f"fold differs after move {len(record.moves)}"
    assert game.to_act(state) == set(), "seats still to act after the game ended"
    assert fold(game, record) == state, "fold from scratch differs from the live state"
    return state, record


def _check_json(state: State) -> None:
    assert json.loads(json.dumps(state)) == state, "state does not round-trip through JSON"
