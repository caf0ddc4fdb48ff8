"""Legal-move bots and the fold check, for soak tests and ``ravenpost bots``.

This drives a game purely (no store): it records every move's tape the way the service
does, then folds the recorded moves from scratch with tape players and checks that the
result equals the live state.  The service's own bot runner goes through the event store.

A bot plays a *policy*: ``(game, state, seat, chooser) -> move``, one of the legal moves of
``seat``, never changing the state and drawing its only randomness from ``chooser`` (so a
game is repeatable from its seed).  :func:`random_move` suits every kind; a game may offer
more next to its rules (:data:`POLICY_MODULES`), found by name with :func:`policy`.  A game
that has not ended after ``max_moves`` moves stops with :class:`MoveCapReached`.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from games.protocol import Game, Move, State
from games.rng import RecordingRandom, TapePlayer

Policy = Callable[[Game, State, int, random.Random], Move]
MAX_MOVES = 20_000  # moves after which a bot game counts as one that does not end
POLICY_MODULES: dict[str, str] = {
    "feudum-guilds": "games.feudum_guilds.strategy:POLICIES",
    "kings-guild": "games.kings_guild.policy:POLICIES",
}
"""Where a kind's own policies live ("module:attribute", a dict of name -> policy)."""


class UnknownPolicy(ValueError):
    """A policy name the game kind does not offer."""


class MoveCapReached(RuntimeError):
    """A game that had not ended after ``moves`` moves (the cap): its seed and last moves."""

    def __init__(self, seed: int | None, moves: int, last_types: list[str]) -> None:
        self.seed, self.moves, self.last_types = seed, moves, last_types
        super().__init__(f"game did not end within {moves} moves (seed {seed}); "
                         f"last moves: {', '.join(last_types)}")


def last_move_types(moves: Sequence[Move], count: int = 8) -> list[str]:
    """The types of the last ``count`` moves, oldest first."""
    return [str(m.get("type")) for m in moves[-count:]] if count > 0 else []


def random_move(game: Game, state: State, seat: int, chooser: random.Random) -> Move:
    """A uniform legal move."""
    moves = game.legal_moves(state, seat)
    if not moves:
        raise RuntimeError(f"seat {seat} is to act but has no legal move")
    return chooser.choice(moves)


def policies(kind: str) -> dict[str, Policy]:
    """The policies bots may play ``kind`` with, by name: ``random``, then the game's own
    (their names spelt with hyphens)."""
    found: dict[str, Policy] = {"random": random_move}
    if kind in POLICY_MODULES:
        module_name, _, attribute = POLICY_MODULES[kind].partition(":")
        for name, chosen in getattr(import_module(module_name), attribute).items():
            found.setdefault(name.replace("_", "-"), chosen)
    return found


def policy(kind: str, name: str) -> Policy:
    """The policy ``name`` of ``kind`` (``master_seat`` and ``master-seat`` alike);
    :class:`UnknownPolicy`, naming the known ones, if the kind has no such policy."""
    known = policies(kind)
    chosen = known.get(name.replace("_", "-"))
    if chosen is None:
        raise UnknownPolicy(f"unknown policy {name!r} for {kind}; one of {', '.join(known)}")
    return chosen


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


def choose_seat_and_move(game: Game, state: State, chooser: random.Random,
                         policy: Policy = random_move) -> tuple[int, Move]:
    """A uniformly random seat among those to act, and the policy's move for it."""
    seats = sorted(game.to_act(state))
    if not seats:
        raise RuntimeError("no seat to act but the game has no outcome")
    seat = chooser.choice(seats)
    return seat, policy(game, state, seat, chooser)


def play_random_game(
    game: Game,
    n_players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_moves: int = MAX_MOVES,
    check: Callable[[State], None] | None = None,
    check_fold_every: int = 0,
    policy: Policy = random_move,
) -> tuple[State, Record]:
    """Play one whole game, every seat playing ``policy`` (default: random legal moves).

    ``check`` runs after setup and after every move (invariants, views); with
    ``check_fold_every`` = k, every k-th move the record is folded from scratch and
    compared with the live state.  The final state is always compared.  A game not over
    after ``max_moves`` moves raises :class:`MoveCapReached`.
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
            raise MoveCapReached(seed, len(record.moves),
                                 last_move_types([m for _, m, _ in record.moves[-8:]]))
        seat, move = choose_seat_and_move(game, state, chooser, policy)
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
