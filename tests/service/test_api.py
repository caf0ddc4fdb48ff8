"""The JSON API v1 contract."""

from __future__ import annotations

import json

from tests.support import PLAYERS, admin_headers, bearer


def test_kinds_lists_registered_games(client):
    kinds = client.get("/api/v1/kinds").json
    race = next(k for k in kinds if k["kind"] == "test-race")
    assert race == {"kind": "test-race", "name": "Counting Race (test game)",
                    "min_players": 1, "max_players": 4}


def test_creating_a_game_needs_the_admin_or_a_players_token(client, new_game, rt):
    body = {"game": "test-race", "players": PLAYERS, "options": {}}
    anonymous = client.post("/api/v1/games", json=body)
    assert anonymous.status_code == 401 and anonymous.json["error"] == "unauthorized"
    assert client.post("/api/v1/games", json=body,
                       headers=bearer("garbage")).status_code == 403
    assert rt.mail.list() == []  # nobody was emailed by a refused request
    _, tokens = new_game()
    by_player = client.post("/api/v1/games", json=body, headers=bearer(tokens[1]))
    assert by_player.status_code == 201


def test_create_game_returns_seats_and_tokens_only_for_admin(client, new_game):
    body = {"game": "test-race", "players": PLAYERS, "options": {}}
    _, tokens = new_game()
    by_player = client.post("/api/v1/games", json=body, headers=bearer(tokens[0]))
    assert by_player.status_code == 201
    assert by_player.json["version"] == 1
    assert by_player.json["seats"] == [{"seat": 0, "name": "Ada"}, {"seat": 1, "name": "Bo"}]
    admin = client.post("/api/v1/games", json=body, headers=admin_headers())
    assert all("token" in s for s in admin.json["seats"])


def test_create_game_sends_invitations(client, rt):
    client.post("/api/v1/games", json={"game": "test-race", "players": PLAYERS},
                headers=admin_headers())
    to = sorted(m["to"] for m in rt.mail.list())
    assert to == ["ada@example.com", "bo@example.com"]


def test_create_game_rejects_bad_input(client):
    cases = [
        ({"game": "test-race"}, 400),
        ({"game": "test-race", "players": [{"name": "A", "email": "not-an-email"}]}, 400),
        ({"game": "nope", "players": PLAYERS}, 422),
        ({"game": "test-race", "players": [{"name": f"P{i}", "email": f"p{i}@example.com"}
                                           for i in range(6)]}, 422),  # too many for it
        ({"game": "test-race", "players": PLAYERS + [PLAYERS[0]]}, 400),  # the same name
        ({"game": "test-race", "players": PLAYERS, "options": {"target": "x"}}, 422),
        ({"game": "test-race", "players": PLAYERS, "surprise": 1}, 400),
    ]
    for body, status in cases:
        reply = client.post("/api/v1/games", json=body, headers=admin_headers())
        assert reply.status_code == status, (body, reply.json)
        assert "error" in reply.json


def test_malformed_json_is_a_400_with_no_trace(client):
    reply = client.post("/api/v1/games", data="{not json", content_type="application/json",
                        headers=admin_headers())
    assert reply.status_code == 400 and reply.json["error"] == "bad_request"
    reply = client.post("/api/v1/games", data="[1,2]", content_type="application/json",
                        headers=admin_headers())
    assert reply.status_code == 400


def test_get_game_shows_the_callers_view(client, new_game):
    gid, tokens = new_game()
    reply = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0]))
    assert reply.status_code == 200
    body = reply.json
    assert set(body) == {"id", "game", "version", "seat", "to_act", "view", "legal_moves",
                         "forced_move_pending", "outcome", "clocks", "away"}
    assert body["seat"] == 0 and body["to_act"] == [0, 1] and body["outcome"] is None
    assert {"type": "ante", "amount": 2} in body["legal_moves"]


def test_tokens_missing_bad_or_foreign_are_refused(client, new_game):
    gid, tokens = new_game()
    other, other_tokens = new_game()
    assert client.get(f"/api/v1/games/{gid}").status_code == 401
    assert client.get(f"/api/v1/games/{gid}", headers=bearer("garbage")).status_code == 403
    assert client.get(f"/api/v1/games/{gid}",
                      headers=bearer(tokens[0][:-2] + "xx")).status_code == 403
    assert client.get(f"/api/v1/games/{gid}", headers=bearer(other_tokens[0])).status_code == 403


def test_move_applies_conflicts_and_illegal_moves(client, new_game, rt):
    gid, tokens = new_game()
    url = f"/api/v1/games/{gid}/moves"
    ok = client.post(url, headers=bearer(tokens[0]),
                     json={"move": {"type": "ante", "amount": 2}, "expected_version": 1})
    assert ok.status_code == 201 and ok.json["version"] == 2
    assert ok.json["to_act"] == [1] and ok.json["view"]["antes"] == [2, False]  # the new
    assert ok.json["outcome"] is None                                       # position
    stale = client.post(url, headers=bearer(tokens[1]),
                        json={"move": {"type": "ante", "amount": 1}, "expected_version": 1})
    assert stale.status_code == 409 and stale.json["error"] == "conflict"
    assert stale.json["version"] == 2
    illegal = client.post(url, headers=bearer(tokens[1]),
                          json={"move": {"type": "ante", "amount": 7}, "expected_version": 2})
    assert illegal.status_code == 422 and illegal.json["error"] == "illegal_move"
    assert illegal.json["reason"]
    not_yours = client.post(url, headers=bearer(tokens[0]),
                            json={"move": {"type": "ante", "amount": 1}, "expected_version": 2})
    assert not_yours.status_code == 422
    assert rt.store.version(gid) == 2


def test_move_with_malformed_body_is_a_400(client, new_game, rt):
    gid, tokens = new_game()
    url = f"/api/v1/games/{gid}/moves"
    for body in [{"move": {"type": "ante"}}, {"expected_version": 1},
                 {"move": "ante", "expected_version": 1},
                 {"move": {"amount": 1}, "expected_version": 1},
                 {"move": {"type": "ante"}, "expected_version": "1"}]:
        reply = client.post(url, headers=bearer(tokens[0]), json=body)
        assert reply.status_code == 400, body
    reply = client.post(url, headers=bearer(tokens[0]), data="nope",
                        content_type="application/json")
    assert reply.status_code == 400
    assert rt.store.version(gid) == 1


def test_history_is_redacted_for_the_caller(client, new_game):
    gid, tokens = new_game()
    client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]),
                json={"move": {"type": "ante", "amount": 3}, "expected_version": 1})
    mine = client.get(f"/api/v1/games/{gid}/history", headers=bearer(tokens[0])).json
    theirs = client.get(f"/api/v1/games/{gid}/history", headers=bearer(tokens[1])).json
    assert mine["events"][-1]["text"] == "Ada antes 3"
    assert theirs["events"][-1]["text"] == "Ada antes"
    assert set(mine["events"][0]) == {"version", "type", "at", "actor", "text", "undone"}


def test_whole_game_over_the_api_ends_with_an_outcome(client, new_game):
    gid, tokens = new_game(options={"target": 20})
    for _ in range(200):
        state = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
        if state["outcome"]:
            break
        seat = state["to_act"][0]
        mine = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[seat])).json
        reply = client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]), json={
            "move": mine["legal_moves"][0], "expected_version": mine["version"]})
        assert reply.status_code == 201
    assert state["outcome"] and state["to_act"] == []
    assert len(state["outcome"]["scores"]) == 2


def test_admin_endpoints_need_the_admin_token(client, new_game):
    gid, tokens = new_game()
    assert client.get(f"/api/v1/admin/games/{gid}/verify").status_code == 401
    assert client.get(f"/api/v1/admin/games/{gid}/verify",
                      headers=bearer(tokens[0])).status_code == 403


def test_admin_state_verify_rewind_fork(client, new_game):
    gid, tokens = new_game()
    for seat, amount in [(0, 1), (1, 2)]:
        client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]),
                    json={"move": {"type": "ante", "amount": amount},
                          "expected_version": 1 + seat})
    at2 = client.get(f"/api/v1/admin/games/{gid}/state?at=2", headers=admin_headers()).json
    assert at2["version"] == 2 and at2["state"]["antes"] == [1, None]
    assert client.get(f"/api/v1/admin/games/{gid}/verify", headers=admin_headers()).json == {
        "ok": True, "events": 3, "problem": ""}
    rewound = client.post(f"/api/v1/admin/games/{gid}/rewind", headers=admin_headers(),
                          json={"to": 2, "reason": "misclick"})
    assert rewound.status_code == 201
    now = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[1])).json
    assert now["to_act"] == [1] and now["version"] == 4
    fork = client.post(f"/api/v1/admin/games/{gid}/fork", headers=admin_headers(),
                       json={"at": 3})
    assert fork.status_code == 201
    forked = client.get(f"/api/v1/admin/games/{fork.json['id']}/state",
                        headers=admin_headers()).json
    assert forked["state"]["antes"] == [1, 2]


def test_openapi_document_describes_the_api(client):
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    for path in ["/api/v1/kinds", "/api/v1/games", "/api/v1/games/{game_id}",
                 "/api/v1/games/{game_id}/moves", "/api/v1/games/{game_id}/history",
                 "/api/v1/admin/games/{game_id}/verify"]:
        assert path in doc["paths"], path
    assert "MoveIn" in doc["components"]["schemas"]
    json.dumps(doc)


def test_openapi_document_lists_the_refusals_of_creating_a_game(client):
    post = client.get("/api/openapi.json").json["paths"]["/api/v1/games"]["post"]
    assert {"201", "400", "401", "403", "413", "422", "429"} <= set(post["responses"])
    assert "Retry-After" in post["responses"]["429"]["headers"]
    assert post["security"] == [{"bearer": []}]


def test_take_back_over_the_api(client, new_game):
    gid, tokens = new_game()
    client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[0]),
                json={"move": {"type": "ante", "amount": 3}, "expected_version": 1})
    assert client.post(f"/api/v1/games/{gid}/undo", headers=bearer(tokens[1])).status_code == 422
    assert client.post(f"/api/v1/games/{gid}/undo", headers=bearer(tokens[0])).status_code == 201
    bad = client.post(f"/api/v1/games/{gid}/undo/answer", headers=bearer(tokens[1]),
                      json={"accept": "yes"})
    assert bad.status_code == 400
    ok = client.post(f"/api/v1/games/{gid}/undo/answer", headers=bearer(tokens[1]),
                     json={"accept": True})
    assert ok.status_code == 201
    view = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
    assert view["view"]["antes"][0] is None
    texts = [e["text"] for e in client.get(f"/api/v1/games/{gid}/history",
                                           headers=bearer(tokens[1])).json["events"]]
    assert "Ada asks to take back their last move" in texts
    assert "Bo allows the take-back" in texts


def test_text_that_is_not_valid_unicode_is_a_400(client):
    body = '{"game": "test-race", "players": [{"name": "a\\ud800", "email": "a@example.com"}]}'
    reply = client.post("/api/v1/games", data=body, content_type="application/json",
                        headers=admin_headers())
    assert reply.status_code == 400 and "Unicode" in reply.json["message"]


def test_players_can_audit_the_draws_once_the_game_is_over(client, new_game):
    gid, tokens = new_game(options={"target": 10})
    early = client.get(f"/api/v1/games/{gid}/audit", headers=bearer(tokens[0])).json
    assert early["ok"] is False and "sealed" in early["problem"]
    for _ in range(200):
        state = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[0])).json
        if state["outcome"]:
            break
        seat = state["to_act"][0]
        mine = client.get(f"/api/v1/games/{gid}", headers=bearer(tokens[seat])).json
        client.post(f"/api/v1/games/{gid}/moves", headers=bearer(tokens[seat]), json={
            "move": mine["legal_moves"][0], "expected_version": mine["version"]})
    audit = client.get(f"/api/v1/games/{gid}/audit", headers=bearer(tokens[1])).json
    assert audit["ok"] is True and audit["checked"] > 2
    verify = client.get(f"/api/v1/admin/games/{gid}/verify", headers=admin_headers()).json
    assert verify["ok"] is True
    from flask import current_app
    with client.application.app_context():
        play_token = current_app.extensions["ravenpost"].links.make(gid, 0, "play")
    page = client.get(f"/play/{play_token}").get_data(as_text=True)
    assert "matches the secret revealed in the history" in page
