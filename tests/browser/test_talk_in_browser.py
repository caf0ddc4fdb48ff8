"""Table talk on the personal page in real headless Chromium, at 1280 and 390 px: a
message posted from the chat box shows as plain text (a link in it is not clickable),
and the box neither scrolls sideways nor shrinks its text below 12 px."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

LONG = ("Look at https://example.com/a/very/long/path/that/does/not/break/anywhere/at/all "
        "and Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichen!")


@pytest.mark.parametrize("width", ["desk", "phone"])
def test_a_message_from_the_chat_box_shows_as_plain_text_and_fits(live, page, phone, shots,
                                                                     width):
    from worker import jobs
    tab, viewport = (page, DESKTOP) if width == "desk" else (phone, PHONE)
    rt = live.rt
    table = rt.games.create("architects", [{"name": "Ann", "email": "ann@example.com"},
                                           {"name": "Ben", "email": "ben@example.com"}], {})
    jobs.project(table.game_id)
    tab.goto(live.base + f"/play/{rt.links.make(table.game_id, 0, 'play')}")
    tab.fill("#talk-text", LONG)
    tab.click("#talk button[type=submit]")
    tab.wait_for_selector("#talk li .said")
    said = tab.locator("#talk li .said").first
    assert said.inner_text() == LONG
    assert said.locator("a").count() == 0  # shown, never made clickable
    tab.locator("#talk").scroll_into_view_if_needed()
    tab.screenshot(path=shots / f"talk-{width}.png", full_page=False)
    assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    smallest = tab.evaluate("""() => Math.min(...[...document.querySelectorAll('#talk *')]
        .filter(e => e.innerText && e.innerText.trim())
        .map(e => parseFloat(getComputedStyle(e).fontSize)))""")
    assert smallest >= 12, f"text of {smallest} px in the chat box"
