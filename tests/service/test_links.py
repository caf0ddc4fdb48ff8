"""Email act links act only on the turn they were emailed for; API tokens are not handed out.

Counting Race (tests/platform_game.py): both seats ante in secret at once (versions 1-3),
then seats take turns playing a card, seat 0 first.
"""

from __future__ import annotations

import json
import re

import pytest
from itsdangerous import URLSafeTimedSerializer

from events import envelope as ev
from events.store import key
from tests.support import PLAYERS, admin_headers, bearer


@pytest.fixture
def game(client):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS, "options": {"target": 30}})
    assert reply.status_code == 201, reply.json
    return reply.json["id"]


def csrf(client, url: str) -> str:
    page = client.get(url).get_data(as_text=True)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert match, page[:500]
    return match.group(1)


def act_url(rt, gid: str, seat: int) -> str:
    """The act link a turn email sends now (as worker/notify.py makes it)."""
    return "/m/" + rt.links.make(gid, seat, "act", rt.store.version(gid))


def play_url(rt, gid: str, seat: int) -> str:
    return "/play/" + rt.links.make(gid, seat, "play")


def a_legal_move(rt, gid: str, seat: int) -> dict:
    table = rt.games.load(gid)
    return table.game.legal_moves(table.state, seat)[0]


def post(client, url: str, move: dict, expected_version: int, token: str):
    return client.post(url, data={"move": json.dumps(move), "csrf_token": token,
                                  "expected_version": expected_version})


def play_antes(rt, gid: str) -> None:
    rt.games.play(gid, 0, {"type": "ante", "amount": 2}, 1)
    rt.games.play(gid, 1, {"type": "ante", "amount": 1}, 2)


def is_read_only_out_of_date(html: str) -> bool:
    """Says so, links to the personal page, and offers no form to act (no move, no undo)."""
    return ("This link is out of date" in html and "/play/" in html
            and 'name="move"' not in html and 'action="/m/' not in html and "/undo" not in html)


def tokens_in(html: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9_.\-]{40,}", html)


def valid_api_tokens(rt, html: str) -> list[str]:
    found = []
    for candidate in tokens_in(html):
        try:
            rt.links.check(candidate, "api")
        except Exception:
            continue
        found.append(candidate)
    return found


def marker(rt, url: str) -> str:
    link = rt.links.check(url.removeprefix("/m/"), "act")
    return key(link.game_id, f"used:{link.nonce}")


# -- point 5: an act link acts only on the turn it was emailed for ---------------------

def test_an_unused_link_from_an_earlier_turn_cannot_move_when_the_turn_comes_round(
        client, rt, game):
    play_antes(rt, game)
    old = act_url(rt, game, 0)  # seat 0's first turn, at version 3; never clicked
    rt.games.play(game, 0, a_legal_move(rt, game, 0), 3)  # played from the personal page
    rt.games.play(game, 1, a_legal_move(rt, game, 1), 4)
    assert 0 in rt.games.load(game).to_act()  # seat 0's turn has come round again
    token = csrf(client, play_url(rt, game, 0))
    # The form's current expected_version does not revive the link.
    reply = post(client, old, a_legal_move(rt, game, 0), 5, token)
    assert reply.status_code == 409
    html = reply.get_data(as_text=True)
    assert is_read_only_out_of_date(html) and "moved on" in html
    assert rt.store.version(game) == 5
    assert not rt.redis.exists(marker(rt, old))  # a refused stale click burns nothing


def test_an_out_of_date_links_page_shows_the_position_read_only(client, rt, game):
    play_antes(rt, game)
    old = act_url(rt, game, 0)
    rt.games.play(game, 0, a_legal_move(rt, game, 0), 3)
    rt.games.play(game, 1, a_legal_move(rt, game, 1), 4)
    reply = client.get(old)
    html = reply.get_data(as_text=True)
    assert reply.status_code == 200
    assert is_read_only_out_of_date(html) and "moved on" in html
    assert "move 5 ·" in html  # the current position
    personal = re.search(r'href="(/play/[^"]+)"', html).group(1)
    assert 'name="move"' in client.get(personal).get_data(as_text=True)


def test_a_used_links_page_is_read_only(client, rt, game):
    url = act_url(rt, game, 0)
    token = csrf(client, url)
    assert post(client, url, {"type": "ante", "amount": 2}, 1, token).status_code == 303
    html = client.get(url).get_data(as_text=True)
    assert is_read_only_out_of_date(html) and "already used" in html


def test_a_used_link_stays_used_when_its_seat_must_act_again(client, rt, game):
    url = act_url(rt, game, 0)
    token = csrf(client, url)
    assert post(client, url, {"type": "ante", "amount": 2}, 1, token).status_code == 303
    rt.games.play(game, 1, {"type": "ante", "amount": 1}, 2)
    assert 0 in rt.games.load(game).to_act()
    again = post(client, url, a_legal_move(rt, game, 0), 3, token)
    assert again.status_code == 409
    assert is_read_only_out_of_date(again.get_data(as_text=True))
    assert rt.store.version(game) == 3


def test_a_reminder_in_between_does_not_make_the_link_stale(client, rt, game):
    url = act_url(rt, game, 0)
    rt.games.record(game, ev.REMINDER_SENT, {"seat": 0, "turn": 1})
    html = client.get(url).get_data(as_text=True)
    assert 'name="move"' in html and "out of date" not in html
    token = csrf(client, url)
    assert post(client, url, {"type": "ante", "amount": 3}, 1, token).status_code == 303
    assert rt.games.load(game).state["antes"][0] == 3


def test_another_seats_choice_in_a_simultaneous_step_does_not_make_the_link_stale(
        client, rt, game):
    ada, bo = act_url(rt, game, 0), act_url(rt, game, 1)  # both emailed at version 1
    token = csrf(client, ada)
    assert post(client, ada, {"type": "ante", "amount": 2}, 1, token).status_code == 303
    assert 'name="move"' in client.get(bo).get_data(as_text=True)
    assert post(client, bo, {"type": "ante", "amount": 1}, 1, token).status_code == 303
    assert rt.games.load(game).state["antes"] == [2, 1]


def test_the_one_shot_marker_expires_with_the_link(client, rt, app, game):
    url = act_url(rt, game, 0)
    token = csrf(client, url)
    assert post(client, url, {"type": "ante", "amount": 2}, 1, token).status_code == 303
    ttl = rt.redis.ttl(marker(rt, url))
    assert 0 < ttl <= app.config["LINK_MAX_AGE"] == rt.links.max_age["act"]


# -- point 6: no long-lived credential handed out unasked ------------------------------

def test_the_act_page_shows_no_api_token(client, rt, game):
    html = client.get(act_url(rt, game, 0)).get_data(as_text=True)
    assert valid_api_tokens(rt, html) == []
    assert "API token" not in html


def test_the_personal_page_shows_the_api_token_only_after_asking(client, rt, game):
    url = play_url(rt, game, 0)
    page = client.get(url)
    assert valid_api_tokens(rt, page.get_data(as_text=True)) == []
    assert "Show my API token" in page.get_data(as_text=True)
    shown = client.post(url + "/api-token", data={"csrf_token": csrf(client, url)})
    assert shown.status_code == 200
    assert "no-store" in shown.headers["Cache-Control"]
    [api] = valid_api_tokens(rt, shown.get_data(as_text=True))
    assert client.get(f"/api/v1/games/{game}", headers=bearer(api)).json["seat"] == 0


def test_showing_the_api_token_needs_the_csrf_token(client, rt, game):
    reply = client.post(play_url(rt, game, 0) + "/api-token")
    assert reply.status_code == 400
    assert valid_api_tokens(rt, reply.get_data(as_text=True)) == []


def test_a_revoked_token_is_refused_at_once_and_the_new_one_works(client, rt, game):
    url = play_url(rt, game, 0)
    token = csrf(client, url)
    [old] = valid_api_tokens(rt, client.post(url + "/api-token", data={
        "csrf_token": token}).get_data(as_text=True))
    rotated = client.post(url + "/api-token/rotate", data={"csrf_token": token})
    assert rotated.status_code == 200 and "no-store" in rotated.headers["Cache-Control"]
    [new] = valid_api_tokens(rt, rotated.get_data(as_text=True))
    assert client.get(f"/api/v1/games/{game}", headers=bearer(old)).status_code == 401
    assert client.post(f"/api/v1/games/{game}/moves", headers=bearer(old), json={
        "move": {"type": "ante", "amount": 1}, "expected_version": 1}).status_code == 401
    assert rt.store.version(game) == 1
    assert client.get(f"/api/v1/games/{game}", headers=bearer(new)).status_code == 200
    assert client.get(url).status_code == 403  # the seat's old page link went with it
    from worker.links import seat_token
    url = "/play/" + seat_token(rt.redis, rt.links, game, 0, "play")
    assert url in rotated.get_data(as_text=True)  # the page shows its new address
    shown = client.post(url + "/api-token", data={"csrf_token": token})
    [again] = valid_api_tokens(rt, shown.get_data(as_text=True))
    assert client.get(f"/api/v1/games/{game}", headers=bearer(again)).status_code == 200


def test_revoking_one_seats_token_leaves_the_others_alone(client, rt, game):
    bo = rt.links.make(game, 1, "api")
    url = play_url(rt, game, 0)
    client.post(url + "/api-token/rotate", data={"csrf_token": csrf(client, url)})
    assert client.get(f"/api/v1/games/{game}", headers=bearer(bo)).status_code == 200


def test_a_token_made_before_generations_works_until_its_seat_revokes(client, rt, game):
    legacy = URLSafeTimedSerializer("test-secret", salt="ravenpost-link-api").dumps(
        {"g": game, "s": 0})
    assert client.get(f"/api/v1/games/{game}", headers=bearer(legacy)).status_code == 200
    url = play_url(rt, game, 0)
    client.post(url + "/api-token/rotate", data={"csrf_token": csrf(client, url)})
    assert client.get(f"/api/v1/games/{game}", headers=bearer(legacy)).status_code == 401


def test_a_player_rotates_their_api_token_over_the_api(client, new_game):
    gid, tokens = new_game()
    reply = client.post(f"/api/v1/games/{gid}/token", headers=bearer(tokens[0]))
    assert reply.status_code == 201
    fresh = reply.json["token"]
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).status_code == 401
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(fresh)).status_code == 200
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[1])).status_code == 200
