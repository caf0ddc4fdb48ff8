"""Turn emails as the outbox shows them, in headless Chromium at phone width: the
picture loads, and nothing scrolls sideways at 390 px.  Screenshots are kept in
``RAVENPOST_ARTEFACTS`` (a directory) if set, else in pytest's temporary directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.test_play_in_browser import live_server, page  # noqa: F401  (fixtures)
from tests.platform_game import CountingRace
from tests.test_picture_mail import race_picture
from worker.picture_mail import SHARP_WIDTH

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def artefacts(tmp_path: Path) -> Path:
    where = Path(os.environ.get("RAVENPOST_ARTEFACTS") or tmp_path)
    where.mkdir(parents=True, exist_ok=True)
    return where


def start(page, base: str, kind: str) -> None:  # noqa: F811  (the page fixture)
    page.goto(base + "/")
    page.select_option("select[name=game]", kind)
    for i, name in enumerate(["Ada", "Bo", "Cy"][:3 if kind != "test-race" else 2]):
        page.fill(f"input[name=name{i}]", name)
        page.fill(f"input[name=email{i}]", f"{name.lower()}@example.com")
    page.click("button[type=submit]")
    assert "has begun" in page.content()


def open_first_turn_email(page, base: str) -> None:  # noqa: F811
    page.goto(base + "/dev/mail/")
    page.locator("a", has_text="Your move").first.click()
    page.goto(base + page.locator("iframe.mail").get_attribute("src"))  # the HTML part


def sideways(page) -> int:  # noqa: F811
    """How many pixels the document is wider than the viewport."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_the_turn_email_shows_its_picture_and_fits_a_phone(live_server, page, tmp_path,  # noqa: F811
                                                           monkeypatch):
    monkeypatch.setattr(CountingRace, "picture", race_picture)
    page.set_viewport_size(PHONE)
    start(page, live_server, "test-race")
    open_first_turn_email(page, live_server)
    image = page.locator("img[alt*='Counting Race']")
    # a picture wider than the mail keeps its pixels up to SHARP_WIDTH, shown at 640 at most
    assert image.evaluate("img => img.complete && img.naturalWidth") == SHARP_WIDTH
    assert image.get_attribute("width") == "640"
    assert image.evaluate("img => img.getBoundingClientRect().width") <= 390
    assert sideways(page) <= 0
    page.screenshot(path=str(artefacts(tmp_path) / "email-test-race-390.png"), full_page=True)


@pytest.mark.parametrize("kind", ["kings-guild", "architects", "feudum-guilds"])
def test_each_game_s_turn_email_fits_a_phone(live_server, page, tmp_path, kind):  # noqa: F811
    page.set_viewport_size(PHONE)
    start(page, live_server, kind)
    open_first_turn_email(page, live_server)
    assert sideways(page) <= 0
    page.screenshot(path=str(artefacts(tmp_path) / f"email-{kind}-390.png"), full_page=True)
