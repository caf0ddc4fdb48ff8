"""The history scrub page (/play/<token>/at/<version>): the past versions a seat's play
link opens are limited (HISTORY_VERSIONS_PER_LINK); opening one again costs nothing."""

from __future__ import annotations

from events import envelope as ev
from tests.support import PLAYERS, admin_headers


def scrub_game(make_app, limit="3 per minute"):
    app = make_app(HISTORY_VERSIONS_PER_LINK=limit, INVITES_PER_DAY=10_000,
                   INVITES_PER_MONTH=10_000)
    client, rt = app.test_client(), app.extensions["ravenpost"]
    created = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS})
    gid = created.json["id"]
    for i in range(9):
        rt.games.record(gid, ev.ADMIN_NOTE, {"text": f"note {i}"}, actor="admin")
    return client, rt, gid


def test_new_versions_past_the_links_limit_answer_429_with_retry_after_and_a_clear_page(
        make_app):
    client, rt, gid = scrub_game(make_app)
    token = rt.links.make(gid, 0, "play")
    for version in (2, 3, 4):
        assert client.get(f"/play/{token}/at/{version}").status_code == 200
    # opened again within the minute: free, as stepping back and forth is
    assert client.get(f"/play/{token}/at/3").status_code == 200
    refused = client.get(f"/play/{token}/at/5")
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    page = refused.get_data(as_text=True)
    assert "Please slow down" in page and "past positions" in page
    assert "try again in about 1 minute" in page
    # a token minted later for the same seat's link (the game page mints one per view)
    # is the same link: still refused
    again = rt.links.make(gid, 0, "play")
    assert client.get(f"/play/{again}/at/6").status_code == 429
    assert client.get(f"/play/{again}/at/2").status_code == 200  # opened before: free
    # the latest version is the game page's own position: never limited
    assert client.get(f"/play/{token}/at/{rt.store.version(gid)}").status_code == 200
    # another seat's link has its own count
    assert client.get(f"/play/{rt.links.make(gid, 1, 'play')}/at/5").status_code == 200


def test_a_refused_version_is_not_counted_and_a_404_costs_nothing(make_app):
    client, rt, gid = scrub_game(make_app, limit="2 per minute")
    token = rt.links.make(gid, 0, "play")
    assert client.get(f"/play/{token}/at/99").status_code == 404
    assert client.get(f"/play/{token}/at/0").status_code == 404
    assert client.get(f"/play/{token}/at/2").status_code == 200
    assert client.get(f"/play/{token}/at/3").status_code == 200
    assert client.get(f"/play/{token}/at/4").status_code == 429
    assert client.get(f"/play/{token}/at/4").status_code == 429
    assert client.get(f"/play/{token}/at/2").status_code == 200


def test_without_the_rate_limiter_nothing_is_counted(make_app):
    client, rt, gid = scrub_game(make_app, limit="1 per minute")
    client.application.extensions["ravenpost_limiter"].enabled = False
    token = rt.links.make(gid, 0, "play")
    for version in range(1, 10):
        assert client.get(f"/play/{token}/at/{version}").status_code == 200
