"""The my-games page and the personal page's settings on a 390 px wide phone: no
sideways scroll, in real headless Chromium."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def test_my_games_and_the_settings_fit_a_390_px_phone(live, phone, shots):
    from worker import jobs, players
    base, rt = live.base, live.rt
    long_name = "Adalberta Maximiliana von Longnamesburg-Overflowington"
    for _ in range(3):
        table = rt.games.create("test-race", [
            {"name": long_name, "email": "ada@example.com", "tz": "America/Argentina/Buenos_Aires"},
            {"name": "Bo", "email": "bo@example.com"}], {"target": 30})
        rt.store.put_json(table.game_id, "settings", {"deadline_hours": 30})
        jobs.project(table.game_id)
    me = players.me_token(rt.redis, rt.links, players.player_id(rt.redis, "ada@example.com"))
    for path in (f"/me/{me}", f"/play/{rt.links.make(table.game_id, 0, 'play')}"):
        phone.goto(base + path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        phone.screenshot(path=shots / f"mygames-{path.split('/')[1]}.png", full_page=True)
        assert width <= PHONE["width"], f"{path} is {width} px wide"
