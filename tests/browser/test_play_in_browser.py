"""A person's path in real headless Chromium: lobby → outbox → move link → move made."""

from __future__ import annotations

import os

import pytest

# The fixtures live in conftest.py; named here too for tests that import them from this
# module (test_email_in_browser.py does).
from tests.browser import conftest as _fixtures

live_server, page = _fixtures.live_server, _fixtures.page

pytestmark = pytest.mark.browser


def test_start_a_game_and_move_through_the_email_link(live_server, page, tmp_path):
    page.goto(live_server + "/")
    page.select_option("select[name=game]", "test-race")
    page.fill("input[name=name0]", "Ada")
    page.fill("input[name=email0]", "ada@example.com")
    page.fill("input[name=name1]", "Bo")
    page.fill("input[name=email1]", "bo@example.com")
    page.click("button[type=submit]")
    assert "has begun" in page.content()

    page.goto(live_server + "/dev/mail/")
    page.click("text=Your move in Counting Race >> nth=0")
    move_link = page.locator("pre a[href*='/m/']").first.get_attribute("href")
    page.goto(move_link)
    assert "Your move" in page.content()
    page.check("input[name=move] >> nth=1")
    page.click("button:has-text('Make this move')")
    page.wait_for_selector("text=Your move was recorded")
    page.screenshot(path=os.environ.get("RAVENPOST_SCREENSHOT", str(tmp_path / "move.png")),
                    full_page=True)

    page.goto(move_link)  # the same link again: it shows the game, waiting for the other
    assert "Waiting for" in page.content()
    assert page.locator("input[name=move]").count() == 0


@pytest.mark.parametrize("kind", [k for k in ("kings-guild", "architects", "feudum-guilds")])
def test_each_shipped_game_starts_in_the_lobby_and_takes_a_move_from_the_email(
        live_server, page, phone, shots, kind):
    page.goto(live_server + "/")
    page.select_option("select[name=game]", kind)
    for i, name in enumerate(["Ada", "Bo", "Cy"]):
        page.fill(f"input[name=name{i}]", name)
        page.fill(f"input[name=email{i}]", f"{name.lower()}@example.com")
    page.click("button[type=submit]")
    assert "has begun" in page.content()
    page.goto(live_server + "/dev/mail/")
    page.locator("a", has_text="Your move").first.click()
    link = page.locator("pre a[href*='/m/']").first.get_attribute("href")
    page.goto(link)
    page.screenshot(path=str(shots / f"{kind}-1280.png"), full_page=True)
    phone.goto(link)
    phone.screenshot(path=str(shots / f"{kind}-390.png"), full_page=True)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if page.locator("input[name=move]").count():
        page.locator("input[name=move]").first.check()
    else:
        page.select_option("select[name=move]", index=0)
    page.click("button:has-text('Make this move')")
    page.wait_for_selector("text=Your move was recorded")
