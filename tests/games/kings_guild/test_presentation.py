"""The game page partial, move labels, summary and rules text."""

from __future__ import annotations

from pathlib import Path

from games.bots import play_random_game
from games.kings_guild import GAME
from tests.support import template_env

BOTS = {"stall_breaker": True}  # random bots may deadlock; the house rule ends such games

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


ENV = template_env(strict=False)


def _render(state, seat):
    tpl = ENV.get_template(GAME.template())
    return tpl.render(view=GAME.view(state, seat), seat=seat, names=state["names"], game=GAME)


def test_presentation_template_renders_view_and_final_scores():
    state, _ = play_random_game(GAME, 3, 5, BOTS)
    html = _render(state, 0)
    assert "Final scores" in html and "Quests" in html and "Your hand" in html
    assert "<script" not in html
    assert "Final scores" in _render(state, None)


def test_presentation_template_renders_midgame_and_escapes_names():
    state = GAME.setup(["<b>Ann</b>", "Bob"], {}, __import__("games.rng").rng.RecordingRandom(1))
    html = _render(state, 1)
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html
    assert "Specialists for hire" in html and "Rooms for sale" in html
    assert "stall breaker (not in the rulebook)" in html
    off = GAME.setup(["Ann", "Bob"], {"stall_breaker": False},
                     __import__("games.rng").rng.RecordingRandom(1))
    assert "stall breaker" not in _render(off, 1)


def test_presentation_move_labels_for_every_legal_move():
    seen = set()

    def check(state):
        for seat in GAME.to_act(state):
            for move in GAME.legal_moves(state, seat):
                label = GAME.move_label(state, seat, move)
                assert label and "{" not in label
                seen.add(move["type"])

    for players in (1, 2, 4):
        play_random_game(GAME, players, 11, BOTS, check=check)
    assert {"gather", "take", "craft", "build", "place", "hire", "end_turn", "sell"} <= seen


def test_presentation_summary_and_rules_summary():
    state = GAME.setup(["A", "B"], {}, __import__("games.rng").rng.RecordingRandom(2))
    text = GAME.summary(state, 0)
    assert "Quests:" in text and "Your hand" in text
    assert "Gather" in GAME.rules_summary()


def test_presentation_template_renders_every_phase_of_random_games():
    calls = [0]

    def check(state):
        calls[0] += 1
        if calls[0] % 40 == 0 or state["over"] or state["funeral"]:
            for seat in (None, 0):
                assert "Quests" in _render(state, seat)

    for players in (1, 4):
        play_random_game(GAME, players, 21, BOTS, check=check)


def test_presentation_names_the_stall_breaker_of_the_games_own_rules():
    from games.rng import RecordingRandom
    new = _render(GAME.setup(["Ann", "Bob"], {}, RecordingRandom(1)), 1)
    assert "only when the table is stuck" in new
    old = _render(GAME.for_rules("2").setup(["Ann", "Bob"], {}, RecordingRandom(1)), 1)
    assert "only when the table is stuck" not in old
    assert "no quest leaves the board, the oldest quest is retired" in old
