"""legal_moves completeness: apply accepts exactly the listed moves, for the seat to act,
and refuses everything else with IllegalMove, leaving the state unchanged."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games.bots import play_random_game
from games.feudum_guilds import ALL_MODULES, GAME
from games.protocol import IllegalMove
from games.rng import RecordingRandom, TapeError, TapePlayer


def _key(move: dict) -> str:
    return json.dumps(move, sort_keys=True)


def _mutations(move: dict) -> list[dict]:
    """Near misses: each field changed to a wrong value, one field dropped, one added."""
    out = []
    for field, value in move.items():
        if field == "type":
            continue
        wrong = {bool: "yes", int: 99, str: "nonsense", list: ["nonsense"]}.get(type(value), None)
        out.append({**move, field: wrong})
        out.append({k: v for k, v in move.items() if k != field})
    out.append({**move, "extra": 1})
    return out


def test_legal_moves_are_exactly_the_moves_apply_accepts():
    chooser = random.Random(3)
    pool: dict[str, dict] = {}
    checked = {"states": 0, "refused": 0}

    def check(state: dict) -> None:
        if chooser.random() > 0.06:
            return
        checked["states"] += 1
        acting = GAME.to_act(state)
        for seat in range(state["n"]):
            legal = GAME.legal_moves(state, seat)
            assert bool(legal) == (seat in acting)
            keys = {_key(m) for m in legal}
            assert len(keys) == len(legal), "a move is listed twice"
            for move in chooser.sample(legal, min(3, len(legal))):
                work = copy.deepcopy(state)
                GAME.apply(work, seat, copy.deepcopy(move), RecordingRandom(5))
            candidates = chooser.sample(list(pool.values()), min(10, len(pool)))
            for move in legal[:3]:
                candidates += _mutations(move)
            for move in candidates:
                if _key(move) in keys:
                    continue
                before = copy.deepcopy(state)
                with pytest.raises(IllegalMove):
                    GAME.apply(state, seat, copy.deepcopy(move), RecordingRandom(5))
                assert state == before, f"refused {move} but changed the state"
                checked["refused"] += 1
            for move in legal[:6]:
                pool[_key(move)] = move

    play_random_game(GAME, 3, 21, options=ALL_MODULES, check=check)
    assert checked["states"] > 10 and checked["refused"] > 300
    assert {"boost", "select", "play", "guild"} <= {m["type"] for m in pool.values()}


def test_legal_moves_empty_for_a_seat_not_to_act_and_for_a_bool_seat(table):
    t = table(3)
    t.turn(1, "tax")
    assert t.moves(0) == [] and t.moves(2) == []
    assert "not your turn" in t.illegal(0, {"type": "forfeit"})
    assert "no such seat" in t.illegal(True, {"type": "forfeit"})


def test_a_move_that_fails_halfway_leaves_the_state_as_it_was():
    """A move whose randomness runs out part way through (its tape is empty) raises, and
    the state is exactly what it was before: apply never leaves half a move behind."""
    _, record = play_random_game(GAME, 3, 8)
    state = GAME.setup(list(record.players), dict(record.options),
                       TapePlayer(record.setup_tape))
    failed = 0
    for seat, move, tape in record.moves:
        if tape:
            before = copy.deepcopy(state)
            with pytest.raises(TapeError):
                GAME.apply(state, seat, copy.deepcopy(move), TapePlayer(tape[:-1]))
            assert state == before, f"{move} failed halfway and changed the state"
            failed += 1
        GAME.apply(state, seat, copy.deepcopy(move), TapePlayer(tape))
    assert failed >= 10
