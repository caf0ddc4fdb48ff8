"""The game page partial, move labels, log lines, the email summary and the rules text."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

from games.bots import play_random_game
from games.feudum_guilds import ALL_MODULES, GAME
from tests.support import template_env

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


@cache
def _template() -> jinja2.Template:
    env = template_env()
    return env.get_template(GAME.template())


def _render(state: dict, seat: int | None) -> str:
    template = _template()
    names = [p["name"] for p in state["ps"]]
    return template.render(view=GAME.view(state, seat), seat=seat, names=names, game=GAME)


def test_template_renders_for_players_and_spectators_and_escapes_names(table):
    t = table(4, reeves=True, monsters=True)
    t.state["ps"][1]["name"] = "<b>Eve</b>"
    t.state["writ_deck"].remove("C3")
    t.p(0)["hand"] = ["C3"]
    for seat in (0, 1, None):
        html = _render(t.state, seat)
        assert "Farmer guild" in html and "Rosary" in html and "Chickens" in html
        assert "&lt;b&gt;Eve&lt;/b&gt;" in html and "<b>Eve</b>" not in html
    assert "Eastern Kingdom" in _render(t.state, 0)
    assert "Eastern Kingdom" not in _render(t.state, 1)


def test_template_renders_a_finished_game():
    state, _ = play_random_game(GAME, 3, 11, options=ALL_MODULES)
    html = _render(state, 2)
    assert "Final scoring" in html and "Great Empire" in html


def test_move_labels_describe_lines_and_summary_for_every_move_of_a_game():
    state, record = play_random_game(GAME, 3, 12, options=ALL_MODULES)
    names = [p["name"] for p in state["ps"]]
    for version, (seat, move, _) in enumerate(record.moves, start=1):
        event = {"version": version, "actor": seat, "data": {"move": move}, "names": names}
        for viewer in (seat, (seat + 1) % 3, None):
            line = GAME.describe(event, viewer)
            assert names[seat] in line or line.startswith("You")
        assert "{" not in GAME.describe(event, seat)
    text = GAME.summary(state, 0)
    assert "Game over" in text


def test_move_labels_are_short_and_readable(table):
    t = table(3, feast=True, monsters=True, favors=True)
    t.seat("knight", [0, 1])
    t.location(0, "farm")
    t.turn(0)
    labels = [GAME.move_label(t.state, 0, m) for m in t.moves(0)]
    assert "Trade at the Knight guild" in labels and "Push out of the Knight guild" in labels
    assert all(0 < len(label) < 80 and "{" not in label for label in labels)
    t.turn(0, "harvest")
    assert any("favor" in GAME.move_label(t.state, 0, m) for m in t.moves(0))


def test_summary_tells_the_seat_what_is_asked(table):
    t = table(3)
    t.turn(1, "tax")
    text = GAME.summary(t.state, 1)
    assert "It is your move." in text and "Waiting for P1" in text
    assert "It is your move." not in GAME.summary(t.state, 0)


def test_rules_summary_and_option_fields():
    rules = GAME.rules_summary()
    assert "Guild functions" in rules and "divide" in rules
    names = {f["name"] for f in GAME.option_fields()}
    assert {"reeves", "feast", "monsters", "vassalage", "favors", "fixed_length"} <= names
    assert GAME.normalize_options({}, 3)["monsters"] is False


def test_template_shows_the_fists_only_to_the_divider(table):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(2, 5)
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "monk", "function": "trade"})
    t.do(0, {"type": "divide", "left": "high"})
    assert "You put 5 in the left fist" in _render(t.state, 0)
    for seat in (1, 2, None):
        html = _render(t.state, seat)
        assert "Beads in the fists: 2 and 5" in html and "You put" not in html


def _readable(html: str) -> None:
    assert "None" not in html and "{{" not in html and "{%" not in html
    assert "Undefined" not in html


def test_template_renders_every_phase_readably_with_autoescape(table):
    from games.feudum_guilds import epochs, rounds

    t = table(3, monsters=True, reeves=True)
    t.state["ps"][2]["name"] = "Zed & <i>Co</i>"
    # setup
    fresh = table(3)
    fresh.state["phase"] = "setup"
    fresh.state["stack"] = [{"kind": "setup_pawn", "seat": 1}]
    html = _render(fresh.state, 1)
    _readable(html)
    assert "Setup: choose goods and a starting pawn" in html
    # selection: seat 0 has chosen, the others are still choosing
    t.state["phase"] = "select"
    t.do(0, {"type": "boost", "boost": "none"})
    t.do(0, {"type": "select", "cards": ["influence", "explore", "tax", "guild"]})
    for seat in (0, 1, None):
        html = _render(t.state, seat)
        _readable(html)
        assert "secretly choosing action cards" in html
        assert "Zed &amp; &lt;i&gt;Co&lt;/i&gt;" in html and "<i>Co" not in html
        assert ("Influence, Explore" in html or "influence, explore" in html) == (seat == 0)
    assert "Choose your boost, then your 4 action cards" in _render(t.state, 1)
    # acting
    t.seat("monk", [0, 1])
    t.rosary(2, 5)
    t.turn(2)
    html = _render(t.state, 2)
    _readable(html)
    assert "Waiting for Zed &amp; &lt;i&gt;Co&lt;/i&gt; to resolve the played card (guild)" in html
    # fist division: the divider and the picker
    t.do(2, {"type": "guild", "guild": "monk", "function": "trade"})
    html = _render(t.state, 1)
    _readable(html)
    assert "secretly puts the beads 2 and 5 one in each closed fist" in html
    t.do(0, {"type": "divide", "left": "low"})
    for seat in (0, 2, None):
        html = _render(t.state, seat)
        _readable(html)
        assert "Beads in the fists: 2 and 5" in html and "to pick a fist" in html
        assert ("You put 2 in the left fist" in html) == (seat == 0)
    # epoch dawn
    t.state["stack"] = []
    t.state["phase"] = "select"
    epochs.dawn(t.state, 3, t.rng)
    t.state["round"] += 1
    html = _render(t.state, None)
    _readable(html)
    assert "Epoch III dawned at the end of round" in html and "replenished" in html
    # nourish choice
    t.act_phase(("tax",))
    t.seat("farmer", [1])
    t.state["haversack"]["sulfur"] += t.p(1)["barrel"] - 1
    t.p(1)["barrel"] = 1
    for q in t.state["ps"]:
        q["played"] = ["tax"]
    rounds.advance(t.state, t.rng)
    assert t.state["phase"] == "nourish"
    html = _render(t.state, 2)
    _readable(html)
    assert "Nourish: the pawns eat." in html and "which pawns drink wine" in html
    # the end: sealing charters, then the final scoring
    t2 = table(2)
    t2.seat("merchant", [1])
    t2.state["writ_deck"].remove("C4")
    t2.p(1)["hand"] = ["C4"]
    t2.p(1)["seals"].append(t2.state["seal_supply"].pop())
    t2.state["epoch"] = 4
    t2.state["stacks"] = [[4]] * 6
    t2.act_phase(("tax",))
    for q in t2.state["ps"]:
        q["played"] = ["tax"]
    rounds.advance(t2.state, t2.rng)
    while t2.state["phase"] == "nourish":
        seat = next(iter(GAME.to_act(t2.state)))
        t2.do(seat, t2.moves(seat)[0])
    assert t2.state["phase"] == "end"
    html = _render(t2.state, 0)
    _readable(html)
    assert "Epoch V has dawned: the game ends" in html and "Western Kingdom" not in html
    assert "Epoch V dawned" in html
    html = _render(t2.state, 1)
    assert "place king&#39;s seals on charters" in html and "Western Kingdom" in html
    t2.do(1, {"type": "seal_charter", "writ": "C4"})
    html = _render(t2.state, None)
    _readable(html)
    assert "Game over." in html and "Final scoring" in html
