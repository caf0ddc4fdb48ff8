"""Clicks on the picture where shapes overlap, and the picture's tab stops.

A game's picture may draw one clickable shape over another (a King's Guild item on its
quest card).  A click on the shape on top that no move acts on must reach the one
beneath, as a player expects when clicking the card; and the keyboard stops only on
shapes some move acts on.
"""

from __future__ import annotations

import pytest

from games import svg
from tests.browser.test_picture_in_browser import builder_status
from tests.platform_game import CountingRace

pytestmark = pytest.mark.browser


def chips_under_a_dead_label(self, view, table) -> str:
    """Three ante chips, each with a label drawn on top of it that is a target of its own
    no move acts on (as a King's Guild item box sits on its quest card)."""
    d = svg.Drawing(640, 200, title="Antes")
    for i, amount in enumerate((1, 2, 3)):
        x = 20 + 200 * i
        with d.group(target=f"ante:{amount}", title=f"Ante {amount}"):
            d.rect(x, 20, 180, 160, fill="#ffffff")
        with d.group(target=f"label:{amount}", title=f"About ante {amount}"):
            d.rect(x + 20, 60, 140, 80, fill="#eeeeee")
            d.text(x + 90, 105, f"{amount}", anchor="middle")
    return d.render()


@pytest.fixture
def race(live, monkeypatch):
    monkeypatch.setattr(CountingRace, "picture", chips_under_a_dead_label)
    gid = live.rt.games.create("test-race", [{"name": "Ada", "email": "ada@example.com"},
                                             {"name": "Bo", "email": "bo@example.com"}]).game_id
    return live.base + "/play/" + live.rt.links.make(gid, 0, "play")


def test_a_click_on_a_shape_without_moves_reaches_the_shape_beneath(race, page):
    page.goto(race)
    # Playwright clicks the middle of the chip, where its label lies on top
    page.locator("#picture [data-target='ante:2']").click(force=True)
    assert "Your move: Ante 2" in builder_status(page)
    assert page.locator("#picture [data-target='ante:2'].picked").count() == 1


def test_only_shapes_a_move_acts_on_are_tab_stops(race, page):
    page.goto(race)
    assert page.get_attribute("#picture [data-target='label:2']", "tabindex") == "-1"
    assert page.get_attribute("#picture [data-target='ante:2']", "tabindex") == "0"
    page.locator("#picture [data-target='ante:1']").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('data-target')") == "ante:2"
