"""When a player does not answer: each game's pass and stand-in (the time-out policies),
and its RULES.md saying which policies it supports."""

from __future__ import annotations

from pathlib import Path

import pytest

from games import registry
from games.rng import RecordingRandom

KINDS = ("kings-guild", "architects", "feudum-guilds")
GAMES = Path(__file__).resolve().parents[2] / "games"


def _table(kind: str, n: int = 2):
    game = registry.get(kind)
    state = game.setup([f"P{i}" for i in range(n)], game.normalize_options({}, n),
                       RecordingRandom(b"s" * 32))
    return game, state


@pytest.mark.parametrize("kind", KINDS)
def test_rules_say_which_time_out_policies_the_game_supports(kind):
    text = (GAMES / kind.replace("-", "_") / "RULES.md").read_text()
    section = text.split("## When a player does not answer", 1)[1]
    for policy in ("wait", "skip", "auto", "bot", "forfeit"):
        assert policy in section


@pytest.mark.parametrize("kind", KINDS)
def test_the_stand_in_plays_legal_moves_and_every_turn_it_plays_ends(kind):
    game, state = _table(kind)
    for step in range(300):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        moves_in_a_row = 0
        while seat in game.to_act(state) and game.outcome(state) is None:
            move = game.stand_in_move(state, seat)
            assert move in game.legal_moves(state, seat)
            game.apply(state, seat, move, RecordingRandom(bytes([step % 256]) * 32))
            moves_in_a_row += 1
            if kind != "kings-guild" or moves_in_a_row > 40:
                break  # the others hand over (or keep the seat) by their own rules
        assert moves_in_a_row <= 40, "a stand-in turn that never ends"


def test_kings_guild_stand_in_ends_the_turn_as_soon_as_the_rules_allow():
    game, state = _table("kings-guild")
    for _ in range(100):
        seat = min(game.to_act(state))
        if "end_turn" in {m["type"] for m in game.legal_moves(state, seat)}:
            break
        game.apply(state, seat, game.stand_in_move(state, seat), RecordingRandom(b"t" * 32))
    assert game.stand_in_move(state, seat) == {"type": "end_turn"}


def test_kings_guild_and_feudum_have_no_pass():
    for kind in ("kings-guild", "feudum-guilds"):
        game, state = _table(kind)
        assert game.pass_move(state, min(game.to_act(state))) is None


def test_architects_pass_is_offered_only_when_the_rules_allow_it():
    game, state = _table("architects")
    seat = min(game.to_act(state))
    assert game.pass_move(state, seat) is None  # drafting: no pass
    from games.architects import absent
    assert absent.pass_move([{"type": "place", "location": "x"}]) is None
    assert absent.pass_move([{"type": "pass"}]) == {"type": "pass"}
