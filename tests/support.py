"""Constants and small helpers shared by the service and worker tests."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from service.config import DEFAULTS

ADMIN = "admin-token-for-tests"
# The defaults for a test that builds its own Runtime: no quiet hours, as the suite runs
# (tests/conftest.py), so that no test depends on the hour it runs at (22:00-08:00 would
# hold its emails); a test of quiet hours sets them.
TEST_DEFAULTS = {**DEFAULTS, "QUIET_HOURS": "off"}
PLAYERS = [{"name": "Ada", "email": "ada@example.com"},
           {"name": "Bo", "email": "bo@example.com"}]


def admin_headers() -> dict:
    return {"Authorization": f"Bearer {ADMIN}"}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def a_race_where_ada_can_play_a_pair(rt, at_least: int = 1) -> tuple[str, list[list[int]]]:
    """A two-seat race, antes in, whose first seat holds ``at_least`` pairs of cards
    adding up to 10 or less (deals are random: set games up until one does); its id and
    Ada's pairs."""
    for _ in range(200):
        table = rt.games.create("test-race", [
            {"name": "Ada", "email": "ada@example.com"},
            {"name": "Bo", "email": "bo@example.com"}], {"pairs": True})
        for seat in (0, 1):
            rt.games.play(table.game_id, seat, {"type": "ante", "amount": 1},
                          rt.store.version(table.game_id))
        now = rt.games.load(table.game_id)
        pairs = [m["cards"] for m in now.game.legal_moves(now.state, 0) if m["type"] == "pair"]
        if len(pairs) >= at_least:
            return table.game_id, pairs
    raise AssertionError(f"two hundred deals without {at_least} pairs")


ORGANISER = "organiser@example.com"


def sign_in(browser, address: str) -> str:
    """Sign the test client ``browser`` in as ``address`` (as its mailed link would, and
    with the address verified); the player's id."""
    from service import accounts
    from worker import players

    app = browser.application
    rt = app.extensions["ravenpost"]
    with app.test_request_context():
        pid = players.player_id(rt.redis, address)
        players.verify(rt.redis, pid)
        session_id = accounts.open_session(pid)
    with browser.session_transaction() as session:
        session[accounts.COOKIE_FIELD] = session_id
    return pid


def a_finished_race(rt) -> str:
    """A two-player test race played to its end (each seat's first legal move); its id."""
    table = rt.games.create("test-race", PLAYERS, {"target": 5})
    while not table.ended:
        seat = sorted(table.to_act())[0]
        rt.games.play(table.game_id, seat, table.game.legal_moves(table.state, seat)[0],
                      table.version)
        table = rt.games.load(table.game_id)
    return table.game_id


def csrf(client, url: str) -> str:
    """The CSRF token of the form on the page at ``url`` (a Flask test client)."""
    page = client.get(url)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert match, page.get_data(as_text=True)[:500]
    return match.group(1)


START = datetime(2030, 1, 7, 12, 0, tzinfo=UTC)  # a Monday


class Clock:
    """A clock the test moves by hand (set as the runtime's ``clock``)."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def at(self, hours: float) -> None:
        self.now = START + timedelta(hours=hours)


TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


def template_env(strict: bool = True) -> Any:
    """The templates as a page renders them in English (gettext marks with no catalog),
    for tests that render a game's template without the app."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined if strict else jinja2.Undefined,
                             extensions=["jinja2.ext.i18n"])
    env.install_null_translations(newstyle=True)
    from worker.runtime import names_of  # the page partials' filter
    env.filters["names_of"] = names_of
    return env
