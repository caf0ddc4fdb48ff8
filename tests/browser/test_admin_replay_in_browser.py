"""The admin's replay page in a browser: the spectator's picture beside the tables, the
arrow keys step through the versions, and a rewind over a reveal asks for the extra box
(issue 29, items 3 and 6).  Screenshots in ``test-artifacts/screenshots/``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.support import ADMIN, PLAYERS

pytestmark = pytest.mark.browser

FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def a_race(rt) -> str:
    gid = rt.games.create("test-race", PLAYERS, {"target": 40}).game_id
    for seat, amount in ((0, 2), (1, 3)):
        rt.games.play(gid, seat, {"type": "ante", "amount": amount}, rt.store.version(gid))
    table = rt.games.load(gid)
    rt.games.play(gid, 0, table.game.legal_moves(table.state, 0)[0], table.version)
    return gid


def admin(tab, base: str) -> None:
    tab.goto(base + "/admin/sign-in")
    tab.fill("input[name=token]", ADMIN)
    tab.click("button[type=submit]")


def test_the_replay_steps_through_the_spectators_pictures(live, browser, shots):
    gid = a_race(live.rt)
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    admin(tab, live.base)
    tab.goto(live.base + f"/admin/games/{gid}?at=3")
    expect(tab.locator("#picture svg")).to_be_visible()
    expect(tab.locator("#event-line")).to_contain_text("Move 3: Bo antes")
    tab.screenshot(path=str(shots / "admin-replay-at-3.png"), full_page=False)
    tab.keyboard.press("ArrowLeft")
    tab.wait_for_url(f"**/admin/games/{gid}?at=2")
    expect(tab.locator("#event-line")).to_contain_text("Move 2: Ada antes")
    tab.keyboard.press("ArrowRight")
    tab.wait_for_url(f"**/admin/games/{gid}?at=3")
    expect(tab.locator("#event-line")).to_contain_text("Move 3: Bo antes")
    # the rewind form's number field keeps its own arrow keys
    tab.goto(live.base + f"/admin/games/{gid}?at=4")
    tab.fill("input[name=to]", "1")
    tab.click("form:has(input[name=to]) button[type=submit]")
    expect(tab.locator("#irreversible")).to_contain_text("move 3: Bo antes")
    tab.screenshot(path=str(shots / "admin-rewind-confirm.png"), full_page=True)
    tab.click("button[name=confirm]")  # the box is required: the browser will not send
    assert live.rt.store.version(gid) == 4
    tab.check("input[name=irreversible]")
    tab.click("button[name=confirm]")
    tab.wait_for_url(f"**/admin/games/{gid}")
    assert live.rt.store.read(gid)[-1].type == "Rewound"


def test_the_replay_fits_a_phone(live, browser, shots):
    gid = a_race(live.rt)
    tab = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                           has_touch=True)
    admin(tab, live.base)
    tab.goto(live.base + f"/admin/games/{gid}?at=3")
    expect(tab.locator("#picture svg")).to_be_visible()
    tab.screenshot(path=str(shots / "phone-admin-replay-at-3.png"), full_page=True)
    assert tab.evaluate(FITS)
