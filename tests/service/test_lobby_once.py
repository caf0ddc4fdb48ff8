"""The lobby form starts one game however often it is sent (a double click, a reload that
posts again, a retry after a lost answer): the copies land on the game it started."""

from __future__ import annotations

import re

import pytest

from service import create_app
from tests.support import ADMIN


def the_form(client) -> dict:
    """The lobby form's hidden fields, as a browser would send them back."""
    page = client.get("/").get_data(as_text=True)
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]+)"', page))


def filled(hidden: dict, **over) -> dict:
    return {**hidden, "game": "test-race", "name0": "Ada", "email0": "ada@example.com",
            "name1": "Bo", "email1": "bo@example.com", **over}


def test_the_same_form_sent_twice_starts_one_game(client, rt):
    form = filled(the_form(client))
    first = client.post("/games", data=form)
    again = client.post("/games", data=form)
    assert first.status_code == 302
    assert again.status_code == 303  # to the very game the first one started
    assert again.headers["Location"] == first.headers["Location"]
    assert len(rt.store.game_ids()) == 1
    invited = [m["to"] for m in rt.mail.list()]
    assert sorted(invited) == ["ada@example.com", "bo@example.com"]  # once each


def test_each_rendering_of_the_form_starts_a_game_of_its_own(client, rt):
    assert client.post("/games", data=filled(the_form(client))).status_code == 302
    assert client.post("/games", data=filled(the_form(client))).status_code == 302
    assert len(rt.store.game_ids()) == 2


def test_a_form_refused_for_a_mistake_can_be_corrected_and_sent_again(client, rt):
    hidden = the_form(client)
    wrong = client.post("/games", data=filled(hidden, email1="not an address"))
    assert wrong.status_code == 400
    assert client.post("/games", data=filled(hidden)).status_code == 302
    assert len(rt.store.game_ids()) == 1


def test_a_form_sent_while_its_first_copy_is_still_starting_the_game_says_so(client, rt):
    hidden = the_form(client)
    from service import lobby
    from service import once as started_once
    rt.redis.set(lobby.once_key(hidden[lobby.FORM_ONCE]), started_once.STARTING, ex=60)
    reply = client.post("/games", data=filled(hidden))
    assert reply.status_code == 409
    assert "already sent" in reply.get_data(as_text=True)
    assert rt.store.game_ids() == []


def test_a_copy_does_not_count_against_the_addresss_allowance(fake_redis):
    app = create_app({"REDIS_CLIENT": fake_redis, "RUN_JOBS_INLINE": True, "TESTING": True,
                      "SECRET_KEY": "test-secret", "ADMIN_TOKEN": ADMIN,
                      "BASE_URL": "http://localhost", "LOBBY_LIMIT_PER_CLIENT": "2/hour"})
    client = app.test_client()
    from tests.support import ORGANISER, sign_in
    sign_in(client, ORGANISER)
    form = filled(the_form(client))
    assert [client.post("/games", data=form).status_code for _ in range(4)] == \
        [302, 303, 303, 303]
    assert client.post("/games", data=filled(the_form(client))).status_code == 302


@pytest.mark.parametrize("once", ["", "short", "x" * 200, "bad chars!"])
def test_a_form_without_a_good_once_token_still_starts_its_game(client, rt, once):
    hidden = the_form(client)
    from service import lobby
    form = filled(hidden, **{lobby.FORM_ONCE: once})
    assert client.post("/games", data=form).status_code == 302
    assert len(rt.store.game_ids()) == 1
