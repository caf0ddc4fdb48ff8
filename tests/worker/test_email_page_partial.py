"""A turn email whose PNG could not be drawn carries the game's page partial instead:
it renders outside the web app, in English and German, for every game."""

from __future__ import annotations

import pytest

from worker import notify

KINDS = ("kings-guild", "architects", "feudum-guilds")


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_games_page_partial_renders_in_an_email(rt, kind, language):
    table = rt.games.create(kind, [{"name": n, "email": f"{n.lower()}@example.com"}
                                   for n in ("Ann", "Bob", "Cy")], {})
    html = notify._picture(rt, rt.games.load(table.game_id), 0, language)
    assert html is not None and "Ann" in html
