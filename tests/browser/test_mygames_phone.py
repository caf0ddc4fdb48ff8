"""The my-games page and the personal page's settings on a 390 px wide phone: no
sideways scroll, in real headless Chromium."""

from __future__ import annotations

import os
import shutil
import socket
import threading

import pytest
from werkzeug.serving import make_server

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def live_app(real_redis):
    from service import create_app
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    app = create_app({"REDIS_CLIENT": real_redis, "RUN_JOBS_INLINE": True,
                      "SECRET_KEY": "browser-test", "BASE_URL": base})
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base, app.extensions["ravenpost"]
    server.shutdown()


@pytest.fixture
def phone():
    if not CHROMIUM:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield browser.new_page(viewport=PHONE)
        browser.close()


def test_my_games_and_the_settings_fit_a_390_px_phone(live_app, phone):
    from worker import jobs, players
    base, rt = live_app
    long_name = "Adalberta Maximiliana von Longnamesburg-Overflowington"
    for _ in range(3):
        table = rt.games.create("test-race", [
            {"name": long_name, "email": "ada@example.com", "tz": "America/Argentina/Buenos_Aires"},
            {"name": "Bo", "email": "bo@example.com"}], {"target": 30})
        rt.store.put_json(table.game_id, "settings", {"deadline_hours": 30})
        jobs.project(table.game_id)
    me = players.me_token(rt.redis, rt.links, players.player_id("ada@example.com"))
    for path in (f"/me/{me}", f"/play/{rt.links.make(table.game_id, 0, 'play')}"):
        phone.goto(base + path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        if os.environ.get("RAVENPOST_SCREENSHOT_DIR"):
            phone.screenshot(path=os.path.join(os.environ["RAVENPOST_SCREENSHOT_DIR"],
                                               path.split("/")[1] + ".png"), full_page=True)
        assert width <= PHONE["width"], f"{path} is {width} px wide"
