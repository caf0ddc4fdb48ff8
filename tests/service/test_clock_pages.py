"""Clocks in the lobby form and on the game page: time control, vacation, "I'm back"."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from tests.service.test_play import csrf
from tests.support import admin_headers

START = datetime(2030, 1, 7, 12, 0, tzinfo=UTC)


def _lobby(client, **fields):
    token = csrf(client, "/")
    return client.post("/games", data={
        "csrf_token": token, "game": "test-race", "name0": "Ada", "email0": "ada@example.com",
        "name1": "Bo", "email1": "bo@example.com", **fields})


def test_the_lobby_form_sets_the_time_control_policy_and_reminders(client, rt):
    reply = _lobby(client, tc_kind="bank", tc_bank_hours="48", tc_increment_hours="12",
                   tc_cap_hours="96", on_timeout="auto", remind_fractions="0.5",
                   remind_hours_before="")
    assert reply.status_code == 302
    gid = reply.headers["Location"].rsplit("/", 1)[1]
    platform = rt.store.read(gid)[0].data["platform"]
    assert platform["time_control"] == {"kind": "bank", "bank_hours": 48.0,
                                        "increment_hours": 12.0, "cap_hours": 96.0}
    assert platform["on_timeout"] == "auto"
    assert platform["reminders"] == {"fractions": [0.5], "hours_before": []}


def test_a_bad_clock_in_the_lobby_form_is_a_400_naming_the_field(client):
    reply = _lobby(client, tc_kind="per_move", tc_hours="soon")
    assert reply.status_code == 400
    assert "hours" in reply.get_data(as_text=True)


def _game_with_clock(client, rt):
    rt.clock = lambda: START
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "options": {"target": 40, "time_control": {
            "kind": "per_move", "hours": 48}},
        "players": [{"name": "Ada", "email": "ada@example.com", "tz": "Europe/Paris"},
                    {"name": "Bo", "email": "bo@example.com"}]})
    return reply.json["id"]


def test_the_game_page_shows_the_clocks_and_who_is_away(client, rt):
    gid = _game_with_clock(client, rt)
    ada = "/play/" + rt.links.make(gid, 0, "play")
    page = client.get(ada).get_data(as_text=True)
    assert 'id="clocks"' in page and "48 hours per move" in page
    reply = client.post(ada + "/vacation", data={
        "csrf_token": csrf(client, ada), "from": "2030-01-07T14:00",
        "until": "2030-01-07T20:00"})  # Ada's time zone: Paris
    assert reply.status_code == 303, reply.get_data(as_text=True)[:500]
    (declared,) = [e for e in rt.store.read(gid) if e.type == "VacationDeclared"]
    assert declared.data["until"] == "2030-01-07T19:00:00+00:00"
    bo = client.get("/play/" + rt.links.make(gid, 1, "play")).get_data(as_text=True)
    assert re.search(r"away until Mon 07 Jan 2030, 19:00 UTC", bo)


def test_a_booked_vacation_is_confirmed_on_the_page_after_the_redirect(client, rt):
    gid = _game_with_clock(client, rt)
    ada = "/play/" + rt.links.make(gid, 0, "play")
    reply = client.post(ada + "/vacation", data={
        "csrf_token": csrf(client, ada), "from": "2030-01-07T14:00",
        "until": "2030-01-07T20:00"})  # Ada's time zone: Paris
    assert reply.status_code == 303
    page = client.get(reply.headers["Location"]).get_data(as_text=True)
    assert ("Your vacation is booked: from Monday 07 January 2030, 14:00 CET to "
            "Monday 07 January 2030, 20:00 CET.") in page
    bo = "/play/" + rt.links.make(gid, 1, "play")  # not Bo's vacation: no confirmation
    version = reply.headers["Location"].rsplit("=", 1)[1]
    assert "vacation is booked" not in client.get(f"{bo}?vacation={version}").get_data(
        as_text=True)
    assert "vacation is booked" not in client.get(f"{ada}?vacation=1").get_data(as_text=True)


def test_a_vacation_refused_on_the_page_says_why(client, rt):
    gid = _game_with_clock(client, rt)
    ada = "/play/" + rt.links.make(gid, 0, "play")
    until = (START + timedelta(days=40)).strftime("%Y-%m-%dT%H:%M")
    reply = client.post(ada + "/vacation", data={
        "csrf_token": csrf(client, ada), "from": "2030-01-08T10:00", "until": until})
    assert reply.status_code == 422
    assert "days of vacation are left" in reply.get_data(as_text=True)


def test_the_openapi_document_describes_clocks_vacations_and_back(client):
    doc = client.get("/api/openapi.json").json
    assert {"/api/v1/games/{game_id}/vacation", "/api/v1/games/{game_id}/back"} <= set(
        doc["paths"])
    schemas = doc["components"]["schemas"]
    options = schemas["CreateGameIn"]["properties"]["options"]["properties"]
    assert options["on_timeout"]["enum"] == ["wait", "skip", "auto", "bot", "forfeit"]
    assert schemas["TimeControlIn"]["properties"]["kind"]["enum"] == [
        "none", "per_move", "bank"]
    assert {"clocks", "away"} <= set(schemas["GameOut"]["properties"])
