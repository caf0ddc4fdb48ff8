"""Every page in German, in real headless Chromium, on a 390 px phone and a 1280 px desk:
no sideways scroll (German words are long), and a screenshot of each for people to look
at (test-artifacts/screenshots/de-*.png)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

SCREENS = {"390": PHONE, "1280": DESKTOP}
KINDS = ("kings-guild", "architects", "feudum-guilds")


def _tab(browser, size: str):
    """A German-speaking browser tab (Accept-Language: de-DE) of the given width."""
    options = {"viewport": SCREENS[size], "locale": "de-DE"}
    if size == "390":
        options |= {"device_scale_factor": 2, "is_mobile": True, "has_touch": True}
    return browser.new_context(**options).new_page()


def _pages(live) -> dict[str, str]:
    """The pages to look at (name -> path): one table of each game, its seats German."""
    from worker import jobs, players
    rt = live.rt
    names = ("Adalberta von Langenhausen", "Bo", "Cy")
    pages = {"lobby": "/", "sign-in": "/sign-in"}
    for kind in KINDS:
        table = rt.games.create(kind, [
            {"name": name, "email": f"{name.split()[0].lower()}@example.com",
             "tz": "Europe/Berlin", "language": "de"} for name in names], {})
        jobs.project(table.game_id)
        play = rt.links.make(table.game_id, 0, "play")
        pages[f"game-{kind}"] = f"/play/{play}"
        pages[f"rules-{kind}"] = f"/rules/{kind}"
    pages["history"] = f"/play/{play}/at/1"
    pid = players.player_id(rt.redis, "adalberta@example.com")
    pages["mygames"] = "/me/" + players.me_token(rt.redis, rt.links, pid)
    return pages


@pytest.mark.parametrize("size", sorted(SCREENS))
def test_every_page_in_german_fits_without_sideways_scroll(live, browser, shots, size):
    tab = _tab(browser, size)
    too_wide = {}
    for name, path in _pages(live).items():
        reply = tab.goto(live.base + path)
        assert reply.ok, (name, reply.status)
        assert tab.evaluate("document.documentElement.lang") == "de", name
        tab.wait_for_load_state("networkidle")
        width, inner = tab.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]")
        tab.screenshot(path=shots / f"de-{name}-{size}.png", full_page=True)
        if width > inner:
            too_wide[name] = width
    tab.context.close()
    assert too_wide == {}, f"wider than {SCREENS[size]['width']} px: {too_wide}"
