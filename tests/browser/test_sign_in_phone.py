"""Sign-in by a mailed link on a 390 px phone, in real headless Chromium: the pages a
person meets on the way (sign-in, check your mail, the link's button, /me with its
settings) fit the phone, with text no smaller than 12 CSS px."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE, sign_in

pytestmark = pytest.mark.browser

SMALLEST_TEXT = """() => Math.min(...[...document.querySelectorAll('body *')]
  .filter(e => e.offsetParent !== null && [...e.childNodes].some(
      n => n.nodeType === 3 && n.textContent.trim()))
  .map(e => parseFloat(getComputedStyle(e).fontSize)))"""


def looks_right(tab, shots, name: str, width: int) -> None:
    tab.screenshot(path=shots / f"{name}-{width}.png", full_page=True)
    wide = tab.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"{name} is {wide} px wide at {width}"
    assert tab.evaluate(SMALLEST_TEXT) >= 12, f"{name}: text under 12 px"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_sign_in_by_a_mailed_link_works_and_fits(live, browser, shots, viewport):
    from worker import jobs
    rt = live.rt
    table = rt.games.create("test-race", [{"name": "Ada", "email": "ada@example.com"},
                                          {"name": "Bo", "email": "bo@example.com"}],
                            {"target": 30})
    jobs.project(table.game_id)
    tab = browser.new_page(viewport=viewport, is_mobile=viewport is PHONE,
                           has_touch=viewport is PHONE)
    tab.goto(live.base + "/")  # not signed in: the lobby asks for the organiser's address
    assert tab.locator("input[name=creator_email]").is_visible()
    tab.screenshot(path=shots / f"lobby-anonymous-{viewport['width']}.png", full_page=True)
    tab.goto(live.base + "/me")  # not signed in: sent to the sign-in page
    assert tab.url.endswith("/sign-in")
    looks_right(tab, shots, "sign-in", viewport["width"])
    sign_in(tab, live, "ada@example.com")
    assert tab.locator(f'[data-game="{table.game_id}"]').count() == 1
    assert tab.locator("#settings").is_visible() and tab.locator("#leave").is_visible()
    looks_right(tab, shots, "me-signed-in", viewport["width"])
    tab.click("#sign-out button")
    tab.goto(live.base + "/me")
    assert tab.url.endswith("/sign-in")  # signed out
