"""What the page's scripts write is in the reader's language (issue 31): the move
builder, the players' tabs, the countdown and the board's zoom button take their words
from the page (#page-words, service/static/words.js), so a German page, used as a player
uses it, shows none of the scripts' English, on a 390 px phone and a 1280 px desk."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

SCREENS = {"390": PHONE, "1280": DESKTOP}
SCRIPTS_TEXT = """(() => {
  const seen = [document.body.innerText];
  document.querySelectorAll('[aria-label], [title]').forEach(el => seen.push(
    el.getAttribute('aria-label') || '', el.closest('svg') ? '' : el.getAttribute('title') || ''));
  document.querySelectorAll('button.zoom').forEach(b => seen.push(b.textContent));
  return seen.join(' \\n ');
})()"""


def english_fragments(words: dict) -> set[str]:
    """The English of every text the scripts write, cut at its placeholders: the pieces
    a German page must not show (those German says the same way left out)."""
    pieces = set()
    for english, said in words.items():
        german = " ".join(said) if isinstance(said, list) else said
        for piece in re.split(r"%\(\w+\)s", english):
            piece = piece.strip(" :;,.()")
            if len(piece) > 2 and piece not in german:
                pieces.add(piece)
    return pieces


def _tab(browser, size: str):
    options = {"viewport": SCREENS[size], "locale": "en-GB"}  # the seat's language decides
    if size == "390":
        options |= {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
    return browser.new_context(**options).new_page()


@pytest.mark.parametrize("size", sorted(SCREENS))
def test_the_scripts_write_german_on_a_german_game_page(live, browser, shots, size):
    from worker import jobs
    rt = live.rt
    table = rt.games.create("kings-guild", [
        {"name": n, "email": f"{n.lower()}@example.com", "tz": "Europe/Berlin",
         "language": "de"} for n in ("Ada", "Bo", "Cy")], {},
        platform={"time_control": {"kind": "per_move", "hours": 50}})
    jobs.project(table.game_id)  # the deadline, as the API's inline jobs would
    seat = min(table.to_act())  # the seat to act has the builder
    tab = _tab(browser, size)
    tab.goto(live.base + "/play/" + rt.links.make(table.game_id, seat, "play"))
    assert tab.evaluate("document.documentElement.lang") == "de"
    words = json.loads(tab.evaluate("document.getElementById('page-words').textContent"))
    english = english_fragments(words)
    assert {"Undo this step", "Start over", "Show the whole board", "min left"} <= english

    def shown_english() -> list[str]:
        text = tab.evaluate(SCRIPTS_TEXT)
        return sorted(e for e in english if re.search(rf"(?<!\w){re.escape(e)}(?!\w)", text))

    # the countdown (script-written: the local due time and its title) and the tabs
    tab.wait_for_selector("#local-due:not(:empty)")
    assert re.search(r"\d", tab.inner_text("#countdown")) and "noch" in tab.inner_text(
        "#countdown")
    assert tab.inner_text("#local-due").startswith(words["due %(when)s"].split("%")[0])
    assert shown_english() == []
    tabs = tab.locator("#panels [role=tab]")
    assert tabs.count() == 3
    tabs.nth(1).click()
    assert tabs.nth(1).get_attribute("aria-selected") == "true"
    assert tab.get_attribute("#panels [role=tablist]", "aria-label") == words["Players"]
    assert shown_english() == []
    # the move builder: a target on the board, then a step back
    status = tab.locator(".builder .status")
    assert re.search(r"\d", status.inner_text())
    tab.locator("#picture [data-target].live >> visible=true").first.click(force=True)
    expect(tab.locator(".builder .path")).to_contain_text(
        words["on the board: %(target)s"].split("%")[0])
    assert shown_english() == []
    tab.click(".builder button[data-act=back]")
    assert tab.inner_text(".builder button[data-act=back]") == words["Undo this step"]
    assert shown_english() == []
    # the zoom: offered on a phone whose board would print too small
    zoom = tab.locator("#picture button.zoom")
    assert zoom.first.text_content() == words["Show the whole board"]
    if zoom.first.is_visible():
        zoom.first.click()
        assert zoom.first.text_content() == words["Show the board larger, to read it"]
    assert shown_english() == []
    tab.screenshot(path=shots / f"de-scripts-{size}.png", full_page=True)
    tab.context.close()


def test_the_checker_sees_the_scripts_english_on_an_english_page(live, browser):
    """The check above would pass on a page whose scripts wrote nothing: here it finds
    the English the same scripts write for an English seat."""
    table = live.rt.games.create("kings-guild", [
        {"name": n, "email": f"{n.lower()}@example.com", "language": "en"}
        for n in ("Ada", "Bo", "Cy")], {})
    tab = _tab(browser, "1280")
    tab.goto(live.base + "/play/" + live.rt.links.make(table.game_id, min(table.to_act()),
                                                        "play"))
    german = _tab(browser, "1280")
    seat = live.rt.games.create("kings-guild", [
        {"name": n, "email": f"{n.lower()}2@example.com", "language": "de"}
        for n in ("Ada", "Bo", "Cy")], {})
    german.goto(live.base + "/play/" + live.rt.links.make(seat.game_id, 0, "play"))
    words = json.loads(german.evaluate("document.getElementById('page-words').textContent"))
    text = tab.evaluate(SCRIPTS_TEXT)
    found = {e for e in english_fragments(words) if e in text}
    assert {"Undo this step", "Start over", "Players"} <= found
    tab.context.close()
    german.context.close()
