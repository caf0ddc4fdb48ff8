"""The admin's replay page shows the picture at each version as a spectator sees it,
beside its tables, and steps through the versions like a seat's history page (issue 29,
item 3)."""

from __future__ import annotations

import re

from tests.service.test_admin_pages import sign_in
from tests.support import PLAYERS


def a_race(rt):
    """Both seats ante (move 3 reveals them); Ada plays a card from her hidden hand."""
    gid = rt.games.create("test-race", PLAYERS, {"target": 40}).game_id
    for seat, amount in ((0, 2), (1, 3)):
        rt.games.play(gid, seat, {"type": "ante", "amount": amount}, rt.store.version(gid))
    table = rt.games.load(gid)
    rt.games.play(gid, 0, table.game.legal_moves(table.state, 0)[0], table.version)
    return gid


def test_each_version_shows_the_spectators_picture_and_steps_to_its_neighbours(client, rt):
    gid = a_race(rt)
    sign_in(client)
    page = client.get(f"/admin/games/{gid}?at=2").get_data(as_text=True)
    assert 'id="picture"' in page and "<svg" in page
    assert "as a spectator saw it after move 2" in page
    assert 'id="event-line"' in page and "Move 2:</strong> Ada antes" in page
    assert f'href="/admin/games/{gid}?at=1" rel="prev"' in page
    assert f'href="/admin/games/{gid}?at=3" rel="next"' in page
    assert f'href="/admin/games/{gid}?at=4" rel="last"' in page
    assert "scrub.js" in page and "picture-zoom.js" in page
    assert "ante hidden" in page  # Ada's ante, hidden from a spectator until both are in
    latest = client.get(f"/admin/games/{gid}").get_data(as_text=True)
    assert 'rel="next"' not in latest and 'rel="prev"' in latest
    assert "Version 4 of 4" in latest


def test_the_picture_is_the_spectators_never_a_seats(client, rt):
    gid = a_race(rt)
    sign_in(client)
    page = client.get(f"/admin/games/{gid}").get_data(as_text=True)
    [svg] = re.findall(r'<figure class="card picture" id="picture">(.*?)</figure>', page,
                       re.S)
    assert "Your card" not in svg  # no seat's hand is face up
    table = rt.games.load(gid)
    hand = table.state["hands"][0]
    assert not any(f'data-target="card:{c}"' in svg for c in hand)
