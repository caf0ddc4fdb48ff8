"""Players own their address: consent before mail, settings only by the player, links
that die with "sign out everywhere", sign-in by a one-time link, one-click unsubscribe."""

from __future__ import annotations

import re

import pytest

from tests.support import PLAYERS, admin_headers, sign_in
from worker import consent, players

VICTIM = "victim@example.com"


@pytest.fixture
def strict_app(make_app):
    """An app with the real invitation limits of new addresses (3 a day, 10 in 30 days)."""
    return make_app()


def csrf(client, url: str) -> str:
    page = client.get(url)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert match, page.get_data(as_text=True)[:300]
    return match.group(1)


def mails_to(rt, address: str) -> list[dict]:
    return [m for m in rt.mail.list(limit=500) if address in m["to"]]


def test_one_seats_token_cannot_make_us_mail_a_stranger_more_than_3_times_a_day(strict_app):
    rt = strict_app.extensions["ravenpost"]
    client = strict_app.test_client()
    made = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": [{"name": "Mal", "email": "mal@example.com"},
                                         {"name": "Bo", "email": "bo@example.com"}],
        "options": {"target": 40}})
    token = made.json["seats"][0]["token"]
    for _ in range(6):  # each game: the attacker and the victim twice
        reply = client.post("/api/v1/games", headers={"Authorization": f"Bearer {token}"},
                            json={"game": "test-race", "options": {"target": 40}, "players": [
                                {"name": "Mal", "email": "mal@example.com"},
                                {"name": "V", "email": VICTIM}, {"name": "W", "email": VICTIM}]})
        assert reply.status_code == 201
    assert len(mails_to(rt, VICTIM)) == 3
    pid = players.player_id(rt.redis, VICTIM)
    # 12 invitations in 6 games: 3 went (games 1 and 2), the other 5 games are held for
    # the victim to see when they sign in
    assert len(consent.withheld(rt.redis, pid)) == 5


def test_a_withheld_invitations_game_never_mails_the_stranger_later(strict_app):
    rt = strict_app.extensions["ravenpost"]
    for _ in range(4):
        rt.games.create("test-race", [{"name": "V", "email": VICTIM}, *PLAYERS], {"target": 40})
    from worker import jobs, notify
    games = list(players.games_of(rt.redis, players.player_id(rt.redis, VICTIM))) or []
    for game_id in rt.store.game_ids(0, 10):
        jobs.project(game_id)
    sent_before = len(mails_to(rt, VICTIM))
    assert sent_before == 3
    last = [g for g in rt.store.game_ids(0, 10)
            if g in consent.withheld(rt.redis, players.player_id(rt.redis, VICTIM))]
    assert last and notify.send_turn(rt, last[0], 5, 0) is False  # a later turn: no mail
    assert len(mails_to(rt, VICTIM)) == sent_before and games is not None


def test_a_player_who_signed_in_gets_every_invitation(strict_app):
    rt = strict_app.extensions["ravenpost"]
    sign_in(strict_app.test_client(), VICTIM)
    from worker import jobs
    for _ in range(5):
        table = rt.games.create("test-race", [{"name": "V", "email": VICTIM}, *PLAYERS],
                                {"target": 40})
        jobs.project(table.game_id)
    assert len(mails_to(rt, VICTIM)) == 5


def test_a_lobby_form_does_not_change_another_addresss_settings(client, rt):
    pid = players.player_id(rt.redis, VICTIM)
    reply = client.post("/games", data={"csrf_token": csrf(client, "/"), "game": "test-race",
                                        "name0": "V", "email0": VICTIM, "quiet0": "13-12",
                                        "name1": "Bo", "email1": "bo@example.com"})
    assert reply.status_code == 302
    assert players.prefs(rt.redis, pid)["chosen"] is False


def test_an_anonymous_lobby_form_starts_nothing_until_its_creator_confirms(anon_client, rt):
    form = {"csrf_token": csrf(anon_client, "/"), "game": "test-race", "name0": "V",
            "email0": VICTIM, "name1": "Bo", "email1": "bo@example.com",
            "creator_email": "me@example.com"}
    assert anon_client.post("/games", data=form).status_code == 202
    assert rt.store.game_ids(0, 10) == [] and mails_to(rt, VICTIM) == []
    [mail] = mails_to(rt, "me@example.com")
    link = re.search(r"http://localhost(/sign-in/\S+)", rt.mail.get(mail["id"])["text"])[1]
    assert anon_client.get(link).status_code == 200 and rt.store.game_ids(0, 10) == []
    started = anon_client.post(link, data={"csrf_token": csrf(anon_client, link)})
    assert started.status_code == 302 and len(rt.store.game_ids(0, 10)) == 1
    assert anon_client.post(link, data={"csrf_token": csrf(anon_client, "/")}
                            ).status_code == 403  # used once
    assert len(rt.store.game_ids(0, 10)) == 1


def test_sign_in_by_a_mailed_link_used_once(anon_client, rt):
    reply = anon_client.post("/sign-in", data={"csrf_token": csrf(anon_client, "/sign-in"),
                                               "email": "ada@example.com"})
    assert reply.status_code == 200
    [mail] = mails_to(rt, "ada@example.com")
    link = re.search(r"http://localhost(/sign-in/\S+)", rt.mail.get(mail["id"])["text"])[1]
    assert anon_client.get("/me").status_code == 302  # not yet signed in
    assert anon_client.post(link, data={"csrf_token": csrf(anon_client, link)}
                            ).status_code == 303
    assert anon_client.get("/me").status_code == 200
    pid = players.player_id(rt.redis, "ada@example.com")
    assert players.is_verified(rt.redis, pid)


def test_after_sign_out_everywhere_a_harvested_play_link_is_403_and_yields_no_token(
        client, rt, new_game):
    game_id, tokens = new_game()
    from worker import jobs
    jobs.project(game_id)
    play = "/play/" + rt.links.make(game_id, 0, "play")
    assert client.get(play).status_code == 200
    ada = sign_in(client, PLAYERS[0]["email"])
    assert ada == players.player_id(rt.redis, PLAYERS[0]["email"])
    assert client.post("/me/signout-everywhere",
                       data={"csrf_token": csrf(client, "/me")}).status_code == 200
    refused = client.get(play)
    assert refused.status_code == 403 and 'id="fresh-links"' in refused.get_data(as_text=True)
    assert client.post(play + "/api-token", data={"csrf_token": csrf(client, "/")}
                       ).status_code == 403
    assert client.get(f"/api/v1/games/{game_id}",
                      headers={"Authorization": f"Bearer {tokens[0]}"}).status_code == 401
    assert client.get("/me").status_code == 302  # this browser is signed out too
    bo = "/play/" + rt.links.make(game_id, 1, "play")
    assert client.get(bo).status_code == 200  # another player's links are untouched


def test_every_email_carries_one_click_unsubscribe_and_a_post_stops_invitations(
        strict_app):
    rt = strict_app.extensions["ravenpost"]
    from worker import jobs
    table = rt.games.create("test-race", [{"name": "V", "email": VICTIM}, *PLAYERS],
                            {"target": 40})
    jobs.project(table.game_id)
    for item in rt.mail.list(limit=50):
        headers = rt.mail.get(item["id"])["headers"]
        assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert headers["List-Unsubscribe"].startswith("<http://localhost/unsubscribe/")
    [mail] = mails_to(rt, VICTIM)
    url = rt.mail.get(mail["id"])["headers"]["List-Unsubscribe"].strip("<>")
    client = strict_app.test_client()  # a mail client: no cookie, no CSRF token
    assert client.post(url.replace("http://localhost", ""),
                       data={"List-Unsubscribe": "One-Click"}).status_code == 200
    again = rt.games.create("test-race", [{"name": "V", "email": VICTIM}, *PLAYERS],
                            {"target": 40})
    jobs.project(again.game_id)
    assert len(mails_to(rt, VICTIM)) == 1


def test_a_blocked_inviter_never_invites_again(client, rt):
    reply = client.post("/games", data={"csrf_token": csrf(client, "/"), "game": "test-race",
                                        "name0": "V", "email0": VICTIM,
                                        "name1": "Bo", "email1": "bo@example.com"})
    assert reply.status_code == 302
    [mail] = mails_to(rt, VICTIM)
    block = re.search(r"http://localhost(/block/\S+)", rt.mail.get(mail["id"])["text"])[1]
    assert client.post(block, data={"csrf_token": csrf(client, block)}).status_code == 200
    client.post("/games", data={"csrf_token": csrf(client, "/"), "game": "test-race",
                                "name0": "V", "email0": VICTIM,
                                "name1": "Bo", "email1": "bo@example.com"})
    assert len(mails_to(rt, VICTIM)) == 1


def test_api_me_reads_and_changes_only_the_callers_settings(client, rt, new_game):
    game_id, tokens = new_game()
    auth = {"Authorization": f"Bearer {tokens[0]}"}
    assert client.patch("/api/v1/me", headers=auth, json={
        "zone": "Europe/Berlin", "quiet": "23-7", "language": "de", "digest": None,
        "forced": False}).status_code == 200
    me = client.get("/api/v1/me", headers=auth).json
    assert me["address"] == PLAYERS[0]["email"] and me["zone"] == "Europe/Berlin"
    assert me["quiet"] == "23-7" and me["language"] == "de" and me["forced"] is False
    bo = players.prefs(rt.redis, players.player_id(rt.redis, PLAYERS[1]["email"]))
    assert bo["chosen"] is False and bo["language"] is None
    assert client.patch("/api/v1/me", headers=auth, json={"quiet": "25-3"}).status_code == 400
    assert client.post("/api/v1/me/signout-everywhere", headers=auth).status_code == 200
    assert client.get("/api/v1/me", headers=auth).status_code == 401


def test_links_carry_no_address_nor_its_hash(client, rt, new_game):
    import base64
    import hashlib
    game_id, _ = new_game()
    pid = players.player_id(rt.redis, PLAYERS[0]["email"])
    token = players.me_token(rt.redis, rt.links, pid)
    payload = base64.urlsafe_b64decode(token.split(".")[0] + "==").decode()
    digest = hashlib.sha256(PLAYERS[0]["email"].encode()).hexdigest()
    assert digest not in payload and PLAYERS[0]["email"] not in payload and game_id


def test_the_forced_move_default_of_a_player_applies_where_a_seat_has_no_setting(
        client, rt, new_game):
    from worker import forced
    game_id, _ = new_game()
    ada = players.player_id(rt.redis, PLAYERS[0]["email"])
    assert forced.is_on(rt.redis, game_id, 0)
    players.save_prefs(rt.redis, ada, forced=False)
    assert not forced.is_on(rt.redis, game_id, 0) and forced.is_on(rt.redis, game_id, 1)
    forced.set_on(rt.redis, game_id, 0, True)  # the seat's own choice wins
    assert forced.is_on(rt.redis, game_id, 0)


def test_reindexing_marks_verified_whoever_played_before_addresses_were_verified(rt):
    table = rt.games.create("test-race", PLAYERS, {"target": 40})
    rt.games.play(table.game_id, 0, {"type": "ante", "amount": 1}, table.version)
    ada = players.player_id(rt.redis, PLAYERS[0]["email"])
    bo = players.player_id(rt.redis, PLAYERS[1]["email"])
    assert not players.is_verified(rt.redis, ada)
    players.rebuild(rt.redis, rt.store)
    assert players.is_verified(rt.redis, ada)  # Ada moved
    assert not players.is_verified(rt.redis, bo)  # Bo never did: still an invitee


def test_two_confirmed_copies_of_one_lobby_form_start_one_game(anon_client, rt):
    form = {"csrf_token": csrf(anon_client, "/"), "game": "test-race", "name0": "V",
            "email0": VICTIM, "name1": "Bo", "email1": "bo@example.com",
            "creator_email": "me@example.com", "form_once": "x" * 20}
    for _ in range(2):  # a double click: two links mailed
        assert anon_client.post("/games", data=form).status_code == 202
    links = [re.search(r"http://localhost(/sign-in/\S+)", rt.mail.get(m["id"])["text"])[1]
             for m in mails_to(rt, "me@example.com")]
    answers = [anon_client.post(link, data={"csrf_token": csrf(anon_client, "/")}).status_code
               for link in links]
    assert sorted(answers) == [302, 303] and len(rt.store.game_ids(0, 10)) == 1


def test_a_my_games_link_naming_an_addresss_hash_is_refused(client, rt, new_game):
    new_game()
    old_style = rt.links.make_me(players.legacy_id(PLAYERS[0]["email"]), 0)
    assert client.get(f"/me/{old_style}").status_code == 403
    current = players.me_token(rt.redis, rt.links,
                               players.player_id(rt.redis, PLAYERS[0]["email"]))
    assert client.get(f"/me/{current}").status_code == 200


def test_a_signed_in_player_changes_their_settings_and_is_told_why_leave_is_refused(
        anon_client, rt):
    pid = sign_in(anon_client, VICTIM)
    token = csrf(anon_client, "/me")
    saved = anon_client.post("/me/settings", data={
        "csrf_token": token, "quiet": "on", "quiet_start": "23", "quiet_end": "7",
        "tz": "Europe/Berlin", "digest": "off", "language": "de", "forced_default": "off"})
    assert saved.status_code == 303 and saved.headers["Location"].endswith("/me?done=saved")
    prefs = players.prefs(rt.redis, pid)
    assert prefs["quiet"] == (23, 7) and prefs["language"] == "de" and not prefs["forced"]
    refused = anon_client.post("/me/leave", data={"csrf_token": token,
                                                  "from": "2000-01-01T10:00",
                                                  "until": "2000-01-02T10:00"})
    # in German: the player chose it above
    assert refused.status_code == 422 and "Kein Urlaub eingetragen" in refused.get_data(
        as_text=True)
