"""Admin replay pages: sign-in, any version of any game, verify, rewind and fork."""

from __future__ import annotations

import re

from tests.support import ADMIN


def csrf(client, url):
    return re.search(r'name="csrf_token" value="([^"]+)"',
                     client.get(url).get_data(as_text=True)).group(1)


def sign_in(client, admin_token=ADMIN):
    token = csrf(client, "/admin/sign-in")
    reply = client.post("/admin/sign-in", data={"csrf_token": token, "token": admin_token})
    assert reply.status_code == 302


def test_admin_pages_need_the_admin_token(client):
    assert client.get("/admin/").status_code == 302
    token = csrf(client, "/admin/sign-in")
    wrong = client.post("/admin/sign-in", data={"csrf_token": token, "token": "nope"})
    assert wrong.status_code == 401
    assert client.get("/admin/").status_code == 302


def test_replay_shows_any_version_and_the_full_log(client, new_game):
    gid, tokens = new_game()
    client.post(f"/api/v1/games/{gid}/moves", headers={"Authorization": f"Bearer {tokens[0]}"},
                json={"move": {"type": "ante", "amount": 3}, "expected_version": 1})
    sign_in(client)
    assert gid in client.get("/admin/").get_data(as_text=True)
    at1 = client.get(f"/admin/games/{gid}?at=1").get_data(as_text=True)
    assert "Version 1 of 2" in at1
    latest = client.get(f"/admin/games/{gid}?verify=1").get_data(as_text=True)
    assert "Version 2 of 2" in latest and "Hash chain intact" in latest
    assert "&#34;amount&#34;: 3" in latest or '"amount": 3' in latest


def test_rewind_and_fork_from_the_replay_page(client, new_game, rt):
    gid, tokens = new_game()
    for seat in (0, 1):
        client.post(f"/api/v1/games/{gid}/moves",
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                    json={"move": {"type": "ante", "amount": 1}, "expected_version": 1 + seat})
    sign_in(client)
    token = csrf(client, f"/admin/games/{gid}")
    client.post(f"/admin/games/{gid}/rewind", data={"csrf_token": token, "to": 2,
                                                    "reason": "misclick", "confirm": "yes",
                                                    "expected_version": 3,
                                                    "irreversible": "yes"})
    assert rt.store.read(gid)[-1].type == "Rewound"
    assert rt.games.load(gid).state["antes"] == [1, None]
    reply = client.post(f"/admin/games/{gid}/fork", data={"csrf_token": token, "at": 3,
                                                          "confirm": "yes"})
    new_id = reply.headers["Location"].rsplit("/", 1)[1]
    assert rt.games.load(new_id).state["antes"] == [1, 1]


def test_the_outbox_is_admin_only_in_production(fake_redis):
    from service import create_app
    admin = "a-production-admin-token-of-32-chars-or-more"
    app = create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True,
                      "RAVENPOST_ENV": "production", "REDIS_URL": "redis://unused",
                      "SECRET_KEY": "a-long-random-production-secret-key-0123456789",
                      "ADMIN_TOKEN": admin})
    client = app.test_client()
    assert client.get("/dev/mail/").status_code == 302
    sign_in(client, admin)
    assert client.get("/dev/mail/").status_code == 200
    token = csrf(client, "/admin/")
    client.post("/admin/sign-out", data={"csrf_token": token})
    assert client.get("/dev/mail/").status_code == 302  # the same session check as /admin


def test_an_admin_note_goes_into_every_players_history(client, new_game, rt):
    gid, tokens = new_game()
    sign_in(client)
    token = csrf(client, f"/admin/games/{gid}")
    client.post(f"/admin/games/{gid}/note", data={"csrf_token": token,
                                                  "text": "Bo is away until Monday"})
    texts = [e["text"] for e in client.get(f"/api/v1/games/{gid}/history", headers={
        "Authorization": f"Bearer {tokens[0]}"}).json["events"]]
    assert texts[-1] == "Note: Bo is away until Monday"
    # a note changes no position: a move made before it is still on time
    reply = client.post(f"/api/v1/games/{gid}/moves", headers={
        "Authorization": f"Bearer {tokens[0]}"}, json={"move": {"type": "ante", "amount": 1},
                                                        "expected_version": 1})
    assert reply.status_code == 201


def test_the_replay_page_refolds_under_other_rules_and_migrates(client, rt, monkeypatch):
    from games import registry
    from tests.events.test_rules_versions import GAME
    from tests.support import PLAYERS
    monkeypatch.setattr(registry.get(GAME.kind), "rules_version", "1")
    gid = rt.games.create(GAME.kind, PLAYERS, {"target": 500}).game_id
    monkeypatch.undo()
    rt.games.play(gid, 0, {"type": "ante", "amount": 3}, 1)
    sign_in(client)
    page = client.get(f"/admin/games/{gid}?refold=2").get_data(as_text=True)
    assert "plays rules version <strong>1</strong>" in page
    assert "move 2 (seat 0) became illegal" in page and "Migrate to rules 2" in page
    token = csrf(client, f"/admin/games/{gid}?refold=2")
    client.post(f"/admin/games/{gid}/migrate",
                data={"csrf_token": token, "rules": "2", "expected_version": 2})
    assert rt.games.load(gid).rules_version == "2"
    assert "Rules changed from version 1 to 2 by admin" in client.get(
        f"/admin/games/{gid}").get_data(as_text=True)
