"""The game page partial renders every part of the view, escaped, for players and spectators."""

from __future__ import annotations

from pathlib import Path

import markupsafe

from games.architects import GAME
from tests.support import template_env

ROOT = Path(__file__).resolve().parents[3] / "templates"


ENV = template_env()


def render(state, seat):
    env = ENV
    names = [pl["name"] for pl in state["players"]]
    return env.get_template("games/architects.html").render(
        view=GAME.view(state, seat), seat=seat, names=names, game=GAME)


def test_template_renders_view_and_own_hand(make_table):
    t = make_table(3)
    t.player(0)["name"] = "<b>Eve</b>"
    html = render(t.state, 1)
    assert "&lt;b&gt;Eve&lt;/b&gt;" in html and "<b>Eve</b>" not in html
    own = GAME.building_card(t.player(1)["hand"][0])["name"]
    assert "Your hand" in html and own.replace("'", "&#39;") in html
    for word in ("Quarry", "Workshop", "Black Market", "Guildhall", "Cathedral", "Tax Stand"):
        assert word in html
    assert "Your hand" not in render(t.state, None)


def test_template_renders_finished_game():
    from games.bots import play_random_game
    state, _ = play_random_game(GAME, 1, seed=3)
    assert "Final scores" in render(state, 0)


def test_template_apprentice_ability_text_is_never_as_above(make_table):
    """Second copies (Conspirator, Jeweller, Miner, Stonecutter, Woodcutter) show their text."""
    from games.architects import cards
    for cid, card in cards.apprentices().items():
        assert "as above" not in card["ability"], cid
    assert cards.apprentice(40)["ability"] == cards.apprentice(39)["ability"]
    assert "Wood" in cards.apprentice(40)["ability"]
    t = make_table(2)
    t.state["workshop"][0] = [5, 12, 20, 30]
    html = render(t.state, 0)
    assert "as above" not in html
    for cid in (5, 12, 20, 30):
        assert str(markupsafe.escape(cards.apprentice(cid)["ability"])) in html


def test_template_renders_draft_phase_with_own_choices_only():
    from games.rng import RecordingRandom
    state = GAME.setup(["Ann", "Bob"], {}, RecordingRandom(5))
    mine = [GAME.building_card(c)["name"] for c in state["draft"]["pools"][0]]
    theirs = [GAME.building_card(c)["name"] for c in state["draft"]["pools"][1]]
    html = render(state, 0)
    assert "Opening draft" in html and "Draft choices" in html
    for name in mine:
        assert str(markupsafe.escape(name)) in html
    for name in set(theirs) - set(mine):
        assert str(markupsafe.escape(name)) not in html
    spectator = render(state, None)
    assert "Draft choices" not in spectator and "Your hand" not in spectator


def test_template_renders_pending_step_and_hides_black_market_draw(make_table):
    t = make_table(2)
    t.give(0, silver=5)
    t.place(0, "black_market", space=1)
    t.play(0, {"type": "plans"})
    drawn = t.state["pending"]["cards"]
    names = {GAME.building_card(c)["name"] for c in drawn}
    hands = {GAME.building_card(c)["name"] for pl in t.state["players"] for c in pl["hand"]}
    own = render(t.state, 0)
    assert "keeping 1 of the drawn Building cards" in own and "Drawn at the Black Market" in own
    other = render(t.state, 1)
    assert "Drawn at the Black Market" not in other
    for name in names - hands:
        assert str(markupsafe.escape(name)) not in other


def test_template_renders_solo_end_of_game_with_readable_lines():
    from games.bots import play_random_game
    state, _ = play_random_game(GAME, 1, seed=5, options={"solo_level": "helena"})
    html = render(state, 0)
    assert "Game over" in html and "Final scores" in html
    assert "Gold and Marble" in html and "Guildhall Workers" in html
    assert "gold_marble" not in html and "Helena" in html
    assert "Final scores" in render(state, None)


def test_template_renders_every_phase_of_random_games():
    """Draft, every pending step of normal turns, and the end: render for each seat."""
    from games.bots import play_random_game
    kinds = set()

    def check(state):
        if state["phase"] == "play" and state["pending"]:
            if state["pending"]["kind"] in kinds:
                return
            kinds.add(state["pending"]["kind"])
        elif state["phase"] == "play" and state["turns"] % 100:
            return
        for seat in (None, *range(state["n"])):
            html = render(state, seat)
            assert '<section class="architects">' in html

    play_random_game(GAME, 2, seed=11, options={"promos": True}, check=check)
    assert {"storehouse", "workshop", "guildhall"} <= kinds
