"""Email links and the player's pages: GET never changes state, POST applies once."""

from __future__ import annotations

import json
import re

import pytest
from itsdangerous import URLSafeTimedSerializer

from tests.support import PLAYERS, admin_headers, csrf


@pytest.fixture
def game(client, rt):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS, "options": {"target": 30}})
    return reply.json["id"]


def act_link(rt, gid, seat):
    return "/m/" + rt.links.make(gid, seat, "act", rt.store.version(gid))


def post_move(client, url, move, version, token=None):
    return client.post(url, data={"move": json.dumps(move), "expected_version": version,
                                  "csrf_token": token or csrf(client, url)})


def test_turn_email_links_open_a_confirm_page_that_changes_nothing(client, rt, game):
    mails = rt.mail.list()
    text = rt.mail.get(mails[0]["id"])["text"]
    url = re.search(r"http://localhost(/m/\S+)", text).group(1)
    for _ in range(3):
        page = client.get(url)
        assert page.status_code == 200
        assert "Ante 2" in page.get_data(as_text=True)
    assert rt.store.version(game) == 1


def test_posting_the_form_applies_the_move_and_redirects(client, rt, game):
    url = act_link(rt, game, 0)
    reply = post_move(client, url, {"type": "ante", "amount": 2}, 1)
    assert reply.status_code == 303 and "/play/" in reply.headers["Location"]
    assert rt.store.version(game) == 2
    page = client.get(reply.headers["Location"])
    assert "Your move was recorded" in page.get_data(as_text=True)


def test_a_one_shot_link_cannot_be_used_twice(client, rt, game):
    url = act_link(rt, game, 0)
    token = csrf(client, url)
    assert post_move(client, url, {"type": "ante", "amount": 2}, 1, token).status_code == 303
    again = post_move(client, url, {"type": "ante", "amount": 2}, 2, token)
    assert again.status_code == 409
    assert "already used" in again.get_data(as_text=True)
    assert rt.store.version(game) == 2


def test_a_refused_move_does_not_burn_the_link(client, rt, game):
    url = act_link(rt, game, 0)
    token = csrf(client, url)
    bad = post_move(client, url, {"type": "ante", "amount": 9}, 1, token)
    assert bad.status_code == 422 and "Not allowed" in bad.get_data(as_text=True)
    assert post_move(client, url, {"type": "ante", "amount": 1}, 1, token).status_code == 303


def test_a_stale_click_on_the_personal_page_gets_the_current_position(client, rt, game):
    ada, bo = ("/play/" + rt.links.make(game, s, "play") for s in (0, 1))
    token = csrf(client, ada)
    assert post_move(client, ada, {"type": "ante", "amount": 1}, 1, token).status_code == 303
    assert post_move(client, bo, {"type": "ante", "amount": 1}, 2, token).status_code == 303
    stale = post_move(client, ada, {"type": "play", "card": 1}, 2, token)
    assert stale.status_code == 409 and "moved on" in stale.get_data(as_text=True)
    assert rt.store.version(game) == 3


def test_tampered_expired_and_foreign_links_change_nothing(client, rt, game, app):
    url = act_link(rt, game, 0)
    token = csrf(client, url)
    tampered = url[:-3] + ("aaa" if not url.endswith("aaa") else "bbb")
    assert client.get(tampered).status_code == 403
    assert post_move(client, tampered, {"type": "ante", "amount": 1}, 1, token).status_code == 403
    expired = URLSafeTimedSerializer("test-secret", salt="ravenpost-link-act")
    old = expired.dumps({"g": game, "s": 0, "v": 1, "n": "x"})
    rt.links.max_age["act"] = -1  # every link is now past its age
    assert client.get(f"/m/{old}").status_code == 403
    rt.links.max_age["act"] = 3600
    foreign = URLSafeTimedSerializer("another-secret", salt="ravenpost-link-act").dumps(
        {"g": game, "s": 0, "v": 1, "n": "y"})
    assert client.get(f"/m/{foreign}").status_code == 403
    play_token_as_act = "/m/" + rt.links.make(game, 0, "play")
    assert client.get(play_token_as_act).status_code == 403
    assert rt.store.version(game) == 1


def test_forms_need_the_csrf_token(client, rt, game):
    url = act_link(rt, game, 0)
    reply = client.post(url, data={"move": json.dumps({"type": "ante", "amount": 1}),
                                   "expected_version": 1})
    assert reply.status_code == 400
    assert rt.store.version(game) == 1


def test_garbage_form_input_is_a_clear_error(client, rt, game):
    url = "/play/" + rt.links.make(game, 0, "play")
    token = csrf(client, url)
    reply = client.post(url, data={"move": "{nope", "expected_version": "x", "csrf_token": token})
    assert reply.status_code == 422
    assert "Traceback" not in reply.get_data(as_text=True)


def test_user_text_is_escaped(client, rt):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": [
            {"name": "<script>alert(1)</script>", "email": "x@example.com"}]})
    gid = reply.json["id"]
    page = client.get("/play/" + rt.links.make(gid, 0, "play")).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;" in page


def test_lobby_creates_a_game_from_the_form(client, rt):
    token = csrf(client, "/")
    reply = client.post("/games", data={
        "csrf_token": token, "game": "test-race", "name0": "Ada", "email0": "ada@example.com",
        "name1": "Bo", "email1": "bo@example.com", "deadline_hours": "48"})
    assert reply.status_code == 302
    gid = reply.headers["Location"].rsplit("/", 1)[1]
    assert rt.games.load(gid).names == ["Ada", "Bo"]
    lobby = client.get("/").get_data(as_text=True)
    assert gid in lobby


def test_lobby_form_passes_the_chosen_games_options(client, rt):
    token = csrf(client, "/")
    reply = client.post("/games", data={
        "csrf_token": token, "game": "test-race", "name0": "Ada", "email0": "ada@example.com",
        "opt_test-race_target": "25"})
    gid = reply.headers["Location"].rsplit("/", 1)[1]
    assert rt.games.load(gid).options["target"] == 25


def test_lobby_form_errors_are_shown_not_raised(client):
    token = csrf(client, "/")
    reply = client.post("/games", data={"csrf_token": token, "game": "test-race",
                                        "name0": "Ada", "email0": "not an email"})
    assert reply.status_code == 400
    assert "check the form" in reply.get_data(as_text=True)


def test_mute_link_stops_turn_emails(client, rt, game):
    url = "/mute/" + rt.links.make(game, 1, "mute")
    client.post(url, data={"muted": "1", "csrf_token": csrf(client, url)})
    assert rt.store.get_json(game, "seats")[1]["muted"] is True


def test_dev_mail_lists_and_shows_the_outbox(client, rt, game):
    index = client.get("/dev/mail/").get_data(as_text=True)
    assert "ada@example.com" in index
    mail_id = rt.mail.list()[0]["id"]
    assert client.get(f"/dev/mail/{mail_id}").status_code == 200
    assert "Make your move" in client.get(f"/dev/mail/{mail_id}/html").get_data(as_text=True)
    assert client.get("/dev/mail/nope").status_code == 404


def test_take_back_by_agreement_from_the_game_pages(client, rt, game):
    ada = "/play/" + rt.links.make(game, 0, "play")
    bo = "/play/" + rt.links.make(game, 1, "play")
    assert post_move(client, ada, {"type": "ante", "amount": 3}, 1).status_code == 303
    assert "Ask to take back my last move" in client.get(ada).get_data(as_text=True)
    token = csrf(client, ada)
    client.post(ada + "/undo", data={"csrf_token": token})
    assert "asks to take back" in client.get(bo).get_data(as_text=True)
    client.post(bo + "/undo/answer", data={"csrf_token": token, "accept": "1"})
    assert rt.games.load(game).state["antes"] == [None, None]
    undo_mails = [m for m in rt.mail.list() if "take back" in m["subject"]]
    assert [m["to"] for m in undo_mails] == ["bo@example.com"]


def test_the_page_offers_a_take_back_only_for_a_move_that_showed_nothing(client, rt, game):
    rt.games.play(game, 0, {"type": "ante", "amount": 1}, 1)
    page = client.get("/play/" + rt.links.make(game, 0, "play")).get_data(as_text=True)
    assert "Ask to take back my last move" in page
    rt.games.play(game, 1, {"type": "ante", "amount": 2}, 2)  # shows every ante
    page = client.get("/play/" + rt.links.make(game, 1, "play")).get_data(as_text=True)
    assert "Ask to take back my last move" not in page
    assert "Your last move cannot be taken back: it revealed every ante." in page
