"""The lobby form's errors in players' words, and its clock fields (review, issue 29)."""

from __future__ import annotations

import re

from tests.service.test_play import csrf

ADA = {"game": "test-race", "name0": "Ada", "email0": "ada@example.com"}


def post(client, **data):
    """The lobby form sent with ``data``: (status, page)."""
    reply = client.post("/games", data={"csrf_token": csrf(client, "/"), **data})
    return reply.status_code, reply.get_data(as_text=True)


def error(page: str) -> str:
    return re.search(r'<div class="card error">(.*?)</div>', page, re.S).group(1)


def said(page: str, field: str) -> str:
    return re.search(rf'id="err-{field}">(.*?)</span>', page).group(1)


def test_an_empty_lobby_form_asks_for_a_player(client, rt):
    status, page = post(client, game="test-race")
    assert status == 400
    assert error(page) == ("Please check the form: Fill in at least one player: a name and an "
                           "email address")
    assert "Length must be" not in page and rt.store.game_ids(0, 10) == []


def test_a_negative_clock_says_hours_per_move_must_be_positive(client):
    status, page = post(client, **ADA, tc_kind="per_move", tc_hours="-1")
    assert status == 400
    assert "Hours per move must be a positive number, e.g. 72" in error(page)
    assert said(page, "tc_hours").startswith("must be a positive number, e.g. 72")
    assert "0.000277" not in page


def test_a_per_move_clock_without_hours_says_what_to_fill_in(client):
    status, page = post(client, **ADA, tc_kind="per_move", tc_hours="")
    assert status == 400
    assert "Hours per move must be a positive number, e.g. 72" in error(page)


def hours_field(page: str) -> str:
    return re.search(r'<input name="tc_hours"[^>]*>', page).group(0)


def test_the_clock_fields_show_no_value_while_no_clock_is_chosen(client):
    assert 'value=""' in hours_field(client.get("/").get_data(as_text=True))
    _, page = post(client, game="test-race", tc_kind="none", tc_hours="72")
    assert 'value=""' in hours_field(page)
    _, page = post(client, game="test-race", tc_kind="per_move", tc_hours="30")
    assert 'value="30"' in hours_field(page)


def test_two_players_with_the_same_name_are_refused_by_the_lobby(client, rt):
    status, page = post(client, **ADA, name1=" ada", email1="bo@example.com")
    assert status == 400
    assert "player 2&#39;s name: &#39;ada&#39; is already the name of player 1: give each " \
           "player a different name" in error(page)
    assert said(page, "name1").startswith("&#39;ada&#39; is already the name of player 1")
    assert rt.store.game_ids(0, 10) == [] and rt.mail.list() == []
