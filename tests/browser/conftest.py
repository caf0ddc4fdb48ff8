"""Headless Chromium against a live app on a real Redis: the fixtures every browser test
shares.  Screenshots go to ``test-artifacts/screenshots/`` (or RAVENPOST_SCREENSHOTS)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from werkzeug.serving import make_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ROOT = Path(__file__).resolve().parents[2]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@dataclass
class Live:
    """The running app: its base URL and its runtime (for what a test sets up directly)."""

    base: str
    rt: object


@pytest.fixture
def live(real_redis):
    from service import create_app
    from tests.support import ADMIN
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    app = create_app({"REDIS_CLIENT": real_redis, "RUN_JOBS_INLINE": True,
                      "SECRET_KEY": "browser-test", "BASE_URL": base, "ADMIN_TOKEN": ADMIN})
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield Live(base, app.extensions["ravenpost"])
    server.shutdown()


@pytest.fixture
def live_server(live):
    return live.base


@pytest.fixture
def browser():
    if not CHROMIUM:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium is not installed")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield chromium
        chromium.close()


ORGANISER = "organiser@example.com"


def sign_in(tab, live, address: str = ORGANISER) -> None:
    """Sign the browser tab in as a person would: ask for a link, open the mail's link
    (read from the outbox), press the button."""
    import re
    tab.goto(live.base + "/sign-in")
    tab.fill("#sign-in-email", address)
    tab.click("#sign-in button[type=submit]")
    tab.wait_for_selector("#check-mail")
    mail = next(m for m in live.rt.mail.list(limit=50) if address in m["to"])
    link = re.search(r"(http://\S+/sign-in/\S+)", live.rt.mail.get(mail["id"])["text"])[1]
    tab.goto(link)
    tab.click("#sign-in-confirm button[type=submit]")
    tab.wait_for_url(live.base + "/me")


@pytest.fixture
def page(browser, request):
    """A desktop tab; signed in as the organiser when a live server runs (the lobby starts
    games at once for a signed-in player)."""
    tab = browser.new_page(viewport=DESKTOP)
    if "live" in request.fixturenames or "live_server" in request.fixturenames:
        sign_in(tab, request.getfixturevalue("live"))
    return tab


@pytest.fixture
def phone(browser, request):
    tab = browser.new_page(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                           has_touch=True)
    if "live" in request.fixturenames or "live_server" in request.fixturenames:
        sign_in(tab, request.getfixturevalue("live"))
    return tab


@pytest.fixture
def shots() -> Path:
    """Where screenshots are saved (kept after the run, for people to look at)."""
    folder = Path(os.environ.get("RAVENPOST_SCREENSHOTS", ROOT / "test-artifacts" / "screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
