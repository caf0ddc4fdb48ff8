"""A picture wider than a phone: shown whole, and full size on request without the page
scrolling sideways (the small print of a scaled-down Feudum table is unreadable)."""

from __future__ import annotations

import pytest

from tests.browser.conftest import DESKTOP

pytestmark = pytest.mark.browser

FITS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def feudum(live) -> str:
    gid = live.rt.games.create("feudum-guilds", [
        {"name": n, "email": f"{n.lower()}@example.com"} for n in ("Ann", "Bob", "Cy")]).game_id
    return live.base + "/play/" + live.rt.links.make(gid, 0, "play")


SHOWN_SVG = "[...document.querySelectorAll('#picture svg')].find(s => s.getClientRects().length)"
SMALLEST = f"""(() => {{ const svg = {SHOWN_SVG}; const k = svg.getScreenCTM().a;
  return Math.min(...[...svg.querySelectorAll('text')].map(
    t => parseFloat(getComputedStyle(t).fontSize) * k)); }})()"""
ROOM = "document.querySelector('#picture').clientWidth"


def test_a_phone_is_shown_the_narrow_board_at_a_size_its_text_can_be_read(feudum, phone,
                                                                          shots):
    phone.goto(feudum)
    shown = phone.evaluate(f"{SHOWN_SVG}.getAttribute('width')")
    assert float(shown) < 500  # the game's narrow layout (the email's), not the 820 wide one
    assert phone.evaluate(SMALLEST) >= 11  # larger than the screen if it must be
    assert phone.evaluate(FITS)  # the picture pans inside its box, the page does not
    zoom = phone.locator("#picture button.zoom")
    if zoom.is_hidden():
        return  # the narrow layout fits the phone with its text legible: nothing to offer
    zoom.click()  # the whole board at once
    assert zoom.get_attribute("aria-pressed") == "true"
    assert phone.evaluate(f"{SHOWN_SVG}.getBoundingClientRect().width") <= phone.evaluate(ROOM)
    assert phone.evaluate(FITS)
    phone.screenshot(path=str(shots / "feudum-whole-390.png"), full_page=True)
    zoom.click()
    assert phone.evaluate(SMALLEST) >= 11
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
