"""A past version's page carries the game's phone picture beside the desk one, as the
live page does, so that a phone shows the board at a legible size without panning."""

from __future__ import annotations

import pytest

from tests.support import PLAYERS

KINDS = ("kings-guild", "architects", "feudum-guilds")


@pytest.mark.parametrize("kind", KINDS)
def test_the_history_page_and_the_live_page_both_carry_the_phone_picture(client, rt, kind):
    players = [*PLAYERS, {"name": "Cy", "email": "cy@example.com"}]
    table = rt.games.create(kind, players, {})
    for _ in range(3):
        table = rt.games.load(table.game_id)
        seat = min(table.to_act())
        rt.games.play(table.game_id, seat, table.game.legal_moves(table.state, seat)[0],
                      table.version)
    token = rt.links.make(table.game_id, 0, "play")
    live = client.get(f"/play/{token}").get_data(as_text=True)
    past = client.get(f"/play/{token}/at/2").get_data(as_text=True)
    assert 'class="board-phone"' in live
    assert 'class="board-phone"' in past
