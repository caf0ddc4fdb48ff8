"""Table talk over the web: the personal page's chat box, the JSON API and the admin's
Hide button (service/talk.py, service/admin.py).  One test per rule."""

from __future__ import annotations

import json

import pytest

from events import envelope as ev
from events import talk
from events.store import key
from service.openapi import build
from tests.service.test_admin_pages import sign_in as admin_sign_in
from tests.support import PLAYERS, admin_headers, bearer, csrf
from worker.links import rotate_api_token

LINK = "https://evil.example.com/x"


@pytest.fixture
def game(client):
    """A two-seat race made over the API: (id, [API token per seat])."""
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS, "options": {"target": 30}})
    assert reply.status_code == 201
    return reply.json["id"], [s["token"] for s in reply.json["seats"]]


def play_url(rt, gid: str, seat: int = 0) -> str:
    return "/play/" + rt.links.make(gid, seat, "play")


def post_page(client, url: str, text: str, token: str | None = None):
    return client.post(url + "/messages",
                       data={"text": text, "csrf_token": token or csrf(client, url)})


def said(rt, gid: str) -> list:
    return [e for e in rt.store.read(gid) if e.type == ev.SAID]


# -- the personal page -----------------------------------------------------------------------
def test_a_message_from_the_page_is_appended_and_shown_after_a_303(client, rt, game):
    gid, _ = game
    url = play_url(rt, gid)
    reply = post_page(client, url, "  Good luck, Bo!  ")
    assert reply.status_code == 303
    assert reply.headers["Location"].endswith(url + "#talk")
    [event] = said(rt, gid)
    assert event.data == {"seat": 0, "text": "Good luck, Bo!", "via": "page"}
    assert event.actor == "seat:0"
    page = client.get(url).get_data(as_text=True)
    assert 'id="talk"' in page and "Good luck, Bo!" in page


def test_the_other_seats_page_shows_the_message_too(client, rt, game):
    gid, _ = game
    post_page(client, play_url(rt, gid, 0), "Hello table")
    assert "Hello table" in client.get(play_url(rt, gid, 1)).get_data(as_text=True)


def test_the_page_form_needs_the_csrf_token(client, rt, game):
    gid, _ = game
    reply = client.post(play_url(rt, gid) + "/messages", data={"text": "hi"})
    assert reply.status_code == 400 and said(rt, gid) == []


def test_an_empty_message_from_the_page_shows_the_page_again_with_the_reason(client, rt, game):
    gid, _ = game
    reply = post_page(client, play_url(rt, gid), " \n\t ")
    body = reply.get_data(as_text=True)
    assert reply.status_code == 400
    assert "Your message was not sent: A message cannot be empty" in body
    assert 'id="talk"' in body and "Traceback" not in body
    assert said(rt, gid) == [] and rt.store.version(gid) == 1


def test_a_too_long_message_from_the_page_is_refused_and_its_text_kept(client, rt, game):
    gid, _ = game
    text = "word " * 120  # 599 characters
    reply = post_page(client, play_url(rt, gid), text)
    body = reply.get_data(as_text=True)
    assert reply.status_code == 400 and "at most 500 characters" in body
    assert text.strip() in body  # back in the chat box, to shorten
    assert said(rt, gid) == []


def test_a_message_needs_a_current_play_token(client, rt, game):
    gid, _ = game
    url = play_url(rt, gid)
    token = csrf(client, url)
    assert post_page(client, url[:-3] + "aaa", "hi", token).status_code == 403
    act = "/play/" + rt.links.make(gid, 0, "act", 1)  # an act token is not a play token
    assert post_page(client, act, "hi", token).status_code == 403
    rotate_api_token(rt.redis, rt.links, gid, 0)  # revokes every earlier link of the seat
    assert post_page(client, url, "hi", token).status_code == 403
    assert said(rt, gid) == []


def test_messages_are_plain_text_and_links_in_them_are_not_clickable(client, rt, game):
    gid, _ = game
    url = play_url(rt, gid)
    post_page(client, url, f'<b>bold</b> <script>alert(1)</script> see {LINK}')
    page = client.get(url).get_data(as_text=True)
    talk_box = page[page.index('id="talk"'):page.index("</section>", page.index('id="talk"'))]
    assert "&lt;b&gt;bold&lt;/b&gt;" in talk_box and "<script>alert(1)" not in page
    assert LINK in talk_box and f'href="{LINK}' not in page


def test_a_hidden_message_shows_as_hidden_on_every_page(client, rt, game):
    gid, _ = game
    url = play_url(rt, gid)
    post_page(client, url, "something rude")
    [event] = said(rt, gid)
    talk.hide(rt.games, gid, event.version)
    for seat in (0, 1):
        page = client.get(play_url(rt, gid, seat)).get_data(as_text=True)
        assert "something rude" not in page
        assert "(hidden by the admin)" in page and "A message was hidden by the admin" in page
    step = client.get(f"{url}/at/{event.version}").get_data(as_text=True)
    assert "something rude" not in step and "(hidden by the admin)" in step


def test_the_chat_box_is_only_on_the_personal_page(client, rt, game):
    gid, _ = game
    act = client.get("/m/" + rt.links.make(gid, 0, "act", 1)).get_data(as_text=True)
    assert 'id="talk"' not in act
    page = client.get(play_url(rt, gid)).get_data(as_text=True)
    assert 'id="talk"' in page and 'maxlength="500"' in page and ">Send<" in page


def test_a_message_is_projected_and_sends_no_email(client, rt, game):
    gid, tokens = game
    mails = len(rt.mail.list(limit=100))
    reply = client.post(f"/api/v1/games/{gid}/messages", headers=bearer(tokens[1]),
                        json={"text": "Anyone there?"})
    assert reply.status_code == 201
    assert rt.redis.get(key(gid, "projected")) == str(reply.json["version"])
    assert len(rt.mail.list(limit=100)) == mails
    assert not rt.redis.hgetall(key(gid, "pending"))


def test_an_act_link_emailed_before_a_message_still_acts_after_it(client, rt, game):
    gid, tokens = game
    act = "/m/" + rt.links.make(gid, 0, "act", 1)
    token = csrf(client, act)
    post_page(client, play_url(rt, gid, 1), "Ante up, Ada", token)
    client.post(f"/api/v1/games/{gid}/messages", headers=bearer(tokens[1]),
                json={"text": "Please?"})
    reply = client.post(act, data={"move": json.dumps({"type": "ante", "amount": 2}),
                                   "expected_version": 1, "csrf_token": token})
    assert reply.status_code == 303
    assert rt.games.load(gid).state["antes"][0] == 2 and rt.store.version(gid) == 4


def test_a_move_form_loaded_before_a_message_still_moves(client, rt, game):
    gid, _ = game
    url = play_url(rt, gid)
    token = csrf(client, url)
    post_page(client, play_url(rt, gid, 1), "hi", token)
    reply = client.post(url, data={"move": json.dumps({"type": "ante", "amount": 1}),
                                   "expected_version": 1, "csrf_token": token})
    assert reply.status_code == 303 and rt.games.load(gid).state["antes"][0] == 1


# -- the JSON API ------------------------------------------------------------------------------
def test_the_api_posts_a_message_as_the_tokens_seat(client, rt, game):
    gid, tokens = game
    reply = client.post(f"/api/v1/games/{gid}/messages", headers=bearer(tokens[1]),
                        json={"text": " Good luck! "})
    assert reply.status_code == 201
    assert {k: reply.json[k] for k in ("version", "seat", "text", "name", "via", "hidden")} \
        == {"version": 2, "seat": 1, "text": "Good luck!", "name": "Bo", "via": "api",
            "hidden": False}
    assert said(rt, gid)[0].data == {"seat": 1, "text": "Good luck!", "via": "api"}


@pytest.mark.parametrize("body", [
    b"{nope", b"[]", b'{"words": "hi"}', b'{"text": 5}', b'{"text": null}',
    b'{"text": "hi", "extra": 1}', b"{}"])
def test_the_api_refuses_a_malformed_body_with_400(client, rt, game, body):
    gid, tokens = game
    reply = client.post(f"/api/v1/games/{gid}/messages", data=body,
                        headers={**bearer(tokens[0]), "Content-Type": "application/json"})
    assert reply.status_code == 400 and reply.json["error"] == "bad_request"
    assert said(rt, gid) == []


def test_the_api_refuses_an_empty_or_too_long_text_with_422(client, rt, game):
    gid, tokens = game
    for text in ("", "   \n ", "x" * 501):
        reply = client.post(f"/api/v1/games/{gid}/messages", headers=bearer(tokens[0]),
                            json={"text": text})
        assert reply.status_code == 422, text
        assert reply.json["reason"]
    assert said(rt, gid) == []


def test_the_api_needs_a_current_token_of_this_game(client, rt, game):
    gid, tokens = game
    other, other_tokens = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS}).json["id"], None
    url = f"/api/v1/games/{gid}/messages"
    assert client.post(url, json={"text": "hi"}).status_code == 401
    assert client.get(url).status_code == 401
    assert client.post(url, json={"text": "hi"}, headers=bearer("x" * 40)).status_code == 403
    with client.application.app_context():
        foreign = rt.links.make(other, 0, "api")
    assert client.post(url, json={"text": "hi"}, headers=bearer(foreign)).status_code == 403
    assert client.post(url, json={"text": "hi"}, headers=admin_headers()).status_code == 403
    rotate_api_token(rt.redis, rt.links, gid, 0)
    assert client.post(url, json={"text": "hi"}, headers=bearer(tokens[0])).status_code == 401
    assert said(rt, gid) == [] and other_tokens is None


def test_the_api_lists_messages_with_hidden_ones_as_null_text(client, rt, game):
    gid, tokens = game
    url = f"/api/v1/games/{gid}/messages"
    for seat, text in ((0, "hello"), (1, "rude"), (0, "bye")):
        client.post(url, headers=bearer(tokens[seat]), json={"text": text})
    talk.hide(rt.games, gid, 3)
    listed = client.get(url, headers=bearer(tokens[1]))
    assert listed.status_code == 200
    assert [(m["version"], m["seat"], m["text"], m["hidden"]) for m in listed.json["messages"]] \
        == [(2, 0, "hello", False), (3, 1, None, True), (4, 0, "bye", False)]
    later = client.get(url + "?after=3", headers=bearer(tokens[1])).json["messages"]
    assert [m["text"] for m in later] == ["bye"]
    assert client.get(url + "?after=x", headers=bearer(tokens[1])).status_code == 400


# -- the rate limit --------------------------------------------------------------------------
def test_messages_past_the_seats_limit_are_refused_with_429_and_not_appended(make_app):
    app = make_app(TALK_LIMIT_PER_SEAT="2 per hour", INVITES_PER_DAY=10_000,
                   INVITES_PER_MONTH=10_000)
    client, rt = app.test_client(), app.extensions["ravenpost"]
    created = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS})
    gid, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    url = f"/api/v1/games/{gid}/messages"
    refused = client.post(url, headers=bearer(tokens[0]), json={"text": ""})
    assert refused.status_code == 422  # a refused message costs nothing
    page = "/play/" + rt.links.make(gid, 0, "play")
    assert post_page(client, page, "one").status_code == 303
    assert client.post(url, headers=bearer(tokens[0]), json={"text": "two"}).status_code == 201
    third = client.post(url, headers=bearer(tokens[0]), json={"text": "three"})
    assert third.status_code == 429 and int(third.headers["Retry-After"]) >= 1
    on_page = post_page(client, page, "four")
    assert on_page.status_code == 429 and "four" in on_page.get_data(as_text=True)
    assert "many messages" in on_page.get_data(as_text=True)
    assert [e.data["text"] for e in said(rt, gid)] == ["one", "two"]
    # the limit is per seat: the other seat may still write
    assert client.post(url, headers=bearer(tokens[1]), json={"text": "hi"}).status_code == 201


# -- the admin --------------------------------------------------------------------------------
def test_the_admin_hides_a_message_with_the_hide_button(client, rt, game):
    gid, tokens = game
    client.post(f"/api/v1/games/{gid}/messages", headers=bearer(tokens[0]),
                json={"text": "something rude"})
    admin_sign_in(client)
    page = client.get(f"/admin/games/{gid}").get_data(as_text=True)
    action = f"/admin/games/{gid}/messages/2/hide"
    assert f'action="{action}"' in page and ">Hide<" in page
    reply = client.post(action, data={"csrf_token": csrf(client, f"/admin/games/{gid}")})
    assert reply.status_code == 303 and reply.headers["Location"].endswith(f"/admin/games/{gid}#e2")
    last = rt.store.read(gid)[-1]
    assert last.type == ev.SAID_HIDDEN and last.data == {"version": 2} and last.actor == "admin"
    assert rt.redis.get(key(gid, "projected")) == str(last.version)
    after = client.get(f"/admin/games/{gid}").get_data(as_text=True)
    assert f'action="{action}"' not in after and "(hidden; the text stays in the log)" in after


def test_hiding_needs_the_admin_session_and_the_csrf_token(client, anon_client, rt, game):
    gid, tokens = game
    client.post(f"/api/v1/games/{gid}/messages", headers=bearer(tokens[0]), json={"text": "x"})
    token = csrf(anon_client, "/admin/sign-in")
    reply = anon_client.post(f"/admin/games/{gid}/messages/2/hide", data={"csrf_token": token})
    assert reply.status_code == 302 and "/admin/sign-in" in reply.headers["Location"]
    admin_sign_in(anon_client)
    assert anon_client.post(f"/admin/games/{gid}/messages/2/hide").status_code == 400
    assert rt.store.version(gid) == 2


def test_hiding_what_is_not_a_message_is_a_clear_error_and_changes_nothing(client, rt, game):
    gid, _ = game
    admin_sign_in(client)
    token = csrf(client, f"/admin/games/{gid}")
    reply = client.post(f"/admin/games/{gid}/messages/1/hide", data={"csrf_token": token})
    assert reply.status_code == 422 and "not a message" in reply.get_data(as_text=True)
    assert client.post("/admin/games/nope/messages/1/hide",
                       data={"csrf_token": token}).status_code == 404
    assert rt.store.version(gid) == 1


# -- the OpenAPI document ---------------------------------------------------------------------
def test_the_openapi_document_describes_both_message_paths(app):
    with app.app_context():
        doc = build()
    path = doc["paths"]["/api/v1/games/{game_id}/messages"]
    assert set(path) == {"get", "post"}
    assert path["post"]["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MessageIn"}
    assert {"201", "400", "401", "403", "404", "422", "429"} <= set(path["post"]["responses"])
    assert doc["components"]["schemas"]["MessageOut"]["properties"]["text"]["nullable"] is True
    assert doc["components"]["schemas"]["MessageIn"]["required"] == ["text"]
