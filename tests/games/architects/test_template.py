"""The game page partial renders every part of the view, escaped, for players and spectators."""

from __future__ import annotations

from pathlib import Path

import jinja2
import markupsafe

from games.architects import GAME

ROOT = Path(__file__).resolve().parents[3] / "templates"


def render(state, seat):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(ROOT), autoescape=True,
                             undefined=jinja2.StrictUndefined)
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
