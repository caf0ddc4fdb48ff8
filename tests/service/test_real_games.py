"""Every shipped game through the whole service: API moves, game pages, history, emails."""

from __future__ import annotations

import json
import random
import re

import pytest

from events import history
from games import registry
from tests.support import admin_headers, bearer

SHIPPED = [k for k in registry.KINDS if not k.startswith("test-")]


def whole_history(client, gid: str, token: str) -> list[dict]:
    """Every event of the game through ``GET .../history``, page by page (forced moves
    and stand-ins can take a game past one page), oldest first."""
    events: list[dict] = []
    query = ""
    while True:
        page = client.get(f"/api/v1/games/{gid}/history{query}", headers=bearer(token)).json
        events = page["events"] + events
        if page["next"] is None:
            return events
        query = f"?before={page['next']}"


@pytest.mark.parametrize("kind", SHIPPED)
def test_a_shipped_game_plays_through_the_api_and_pages(client, rt, kind):
    game = registry.get(kind)
    n = max(game.min_players, 2)
    players = [{"name": f"P{i}", "email": f"p{i}@example.com"} for i in range(n)]
    created = client.post("/api/v1/games", headers=admin_headers(),
                          json={"game": kind, "players": players, "options": {}})
    assert created.status_code == 201, created.json
    gid, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    chooser = random.Random(1)
    for step in range(80):
        seen = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
        if seen["outcome"] is not None:
            break
        seat = chooser.choice(seen["to_act"])
        mine = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[seat])).json
        assert mine["legal_moves"], f"seat {seat} is to act but has no legal move"
        reply = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]), json={
            "move": chooser.choice(mine["legal_moves"]), "expected_version": mine["version"]})
        assert reply.status_code == 201, reply.json
        if step % 20 == 0:
            for s in range(n):  # every seat's page renders, with the game's own template
                page = client.get("/play/" + rt.links.make(gid, s, "play"))
                assert page.status_code == 200
                html = page.get_data(as_text=True)
                assert game.name.replace("'", "&#39;") in html
    events = whole_history(client, gid, tokens[1])
    assert [e["version"] for e in events] == list(range(1, rt.store.version(gid) + 1))
    assert all(isinstance(e["text"], str) and e["text"] for e in events)
    assert rt.games.verify(gid)[0]
    assert rt.games.replayer.load(gid, use_snapshot=False) == rt.games.load(gid)
    mails = rt.mail.list(limit=500)
    assert {m["to"] for m in mails} >= {p["email"] for p in players}


@pytest.mark.parametrize("kind", SHIPPED)
def test_a_shipped_games_move_form_posts_a_legal_move(client, rt, kind):
    game = registry.get(kind)
    n = max(game.min_players, 2)
    table = rt.games.create(kind, [{"name": f"P{i}", "email": ""} for i in range(n)], {})
    seat = sorted(table.to_act())[0]
    url = "/play/" + rt.links.make(table.game_id, seat, "play")
    html = client.get(url).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    values = re.findall(r'(?:value)="(\{[^"]*\})"', html)
    assert values, "the page offers the legal moves"
    move = json.loads(values[0].replace("&#34;", '"').replace("&quot;", '"'))
    reply = client.post(url, data={"move": json.dumps(move), "expected_version": table.version,
                                   "csrf_token": token})
    assert reply.status_code == 303
    assert rt.store.version(table.game_id) == table.version + 1


def test_a_finished_solo_game_page_says_who_won_the_automaton_included(client, rt):
    players = [{"name": "Gwen", "email": "gwen@example.com"}]
    table = rt.games.create("architects", players, {})
    gid, chooser = table.game_id, random.Random(4)
    while not table.ended:
        seat = chooser.choice(sorted(table.to_act()))
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        rt.games.play(gid, seat, move, table.version)
        table = rt.games.load(gid)
    outcome = table.outcome()
    page = client.get("/play/" + rt.links.make(gid, 0, "play")).get_data(as_text=True)
    assert outcome["winner"] in page
    first = outcome["names"][outcome["ranking"][0]]
    assert re.search(rf"<td>1</td><td>{re.escape(first)}</td>", page)
    lines = [e["text"] for e in history.lines(rt.store, gid, table.game, table.names, 0)]
    assert any(line.startswith(f"Game over. {outcome['winner']}") for line in lines)
