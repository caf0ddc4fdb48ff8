"""A picture wider than a phone: shown whole, and full size on request without the page
scrolling sideways (the small print of a scaled-down Feudum table is unreadable)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP

pytestmark = pytest.mark.browser

FITS = "document.documentElement.scrollWidth <= window.innerWidth"
SHOWN = "document.querySelector('#picture svg').getBoundingClientRect().width"


@pytest.fixture
def feudum(live) -> str:
    gid = live.rt.games.create("feudum-guilds", [
        {"name": n, "email": f"{n.lower()}@example.com"} for n in ("Ann", "Bob", "Cy")]).game_id
    return live.base + "/play/" + live.rt.links.make(gid, 0, "play")


def test_a_wide_picture_on_a_phone_is_shown_full_size_on_request(feudum, phone, shots):
    phone.goto(feudum)
    natural = float(phone.get_attribute("#picture svg", "width"))
    assert phone.evaluate(SHOWN) < 0.75 * natural  # scaled to fit: the small print is tiny
    zoom = phone.locator("#picture button.zoom")
    zoom.click()
    assert phone.evaluate(SHOWN) == natural
    assert zoom.get_attribute("aria-pressed") == "true"
    assert phone.evaluate(FITS)  # the picture scrolls inside its box, the page does not
    phone.screenshot(path=str(shots / "feudum-zoomed-390.png"), full_page=True)
    zoom.click()
    assert phone.evaluate(SHOWN) < 0.75 * natural
    assert phone.evaluate(FITS)


def test_a_picture_that_fits_offers_no_zoom(feudum, browser):
    page = browser.new_page(viewport=DESKTOP)
    page.goto(feudum)
    assert page.locator("#picture button.zoom").is_hidden()



def test_the_lobby_form_fits_a_phone_inside_its_own_box(live, phone):
    # the page cannot scroll sideways (its cards scroll inside): the form must not either
    phone.goto(live.base + "/")
    phone.select_option("select[name=on_timeout]", "bot")  # the longest option
    assert phone.evaluate("(() => { const f = document.querySelector('form.card');"
                          " return f.scrollWidth <= f.clientWidth; })()")
