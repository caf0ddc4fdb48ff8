"""My games, one page: a signed, sign-in-less, revocable link in every email listing all of
a player's games, most urgent first, with their settings."""

from __future__ import annotations

import json
import re

import pytest

from events.store import key
from tests.support import PLAYERS, csrf
from worker import forced, jobs, players

ADA = PLAYERS[0]["email"]


def make_game(rt, deadline_hours=None, players_=PLAYERS):
    table = rt.games.create("test-race", players_, {"target": 30})
    rt.store.put_json(table.game_id, "settings", {"deadline_hours": deadline_hours})
    jobs.project(table.game_id)
    return table.game_id


def play(rt, game_id, seat, move):
    rt.games.play(game_id, seat, move, rt.store.version(game_id))
    jobs.project(game_id)


def me_url(rt, address=ADA):
    return f"/me/{players.me_token(rt.redis, rt.links, players.player_id(rt.redis, address))}"


def listed(client, url):
    page = client.get(url)
    assert page.status_code == 200
    return re.findall(r'data-game="([^"]+)"', page.get_data(as_text=True))


def test_every_email_carries_the_my_games_link(rt):
    make_game(rt)
    for mail in rt.mail.list(limit=50):
        body = rt.mail.get(mail["id"])
        assert "/me/" in body["text"] and "/me/" in body["html"]


def test_the_page_lists_every_game_of_the_address_most_urgent_first(client, rt):
    later = make_game(rt, deadline_hours=48)  # Ada's ante awaited, deadline in two days
    sooner = make_game(rt, deadline_hours=2)  # Ada's ante awaited, deadline in two hours
    theirs = make_game(rt)
    play(rt, theirs, 0, {"type": "ante", "amount": 1})  # only Bo's ante is awaited now
    over = make_game(rt)
    rt.games.end_early(over, "abandoned", rt.store.version(over))
    jobs.project(over)
    assert listed(client, me_url(rt)) == [sooner, later, theirs, over]


def test_each_game_shows_the_players_whose_turn_and_a_link_to_the_personal_page(client, rt):
    game_id = make_game(rt, deadline_hours=5)
    page = client.get(me_url(rt)).get_data(as_text=True)
    assert "Ada, Bo" in page and "Your move." in page and "Move by" in page
    link = re.search(r'href="http://localhost(/play/[^"]+)"', page).group(1)
    assert client.get(link).status_code == 200
    assert rt.links.check(link.rsplit("/", 1)[1], "play").game_id == game_id


def test_another_address_sees_only_its_own_games(client, rt):
    make_game(rt)
    mine = make_game(rt, players_=[{"name": "Cy", "email": "cy@example.com"}])
    assert listed(client, me_url(rt, "cy@example.com")) == [mine]


def test_the_link_needs_no_sign_in_but_a_tampered_one_is_refused(client, rt):
    make_game(rt)
    url = me_url(rt)
    assert client.get(url).status_code == 200
    assert client.get(url[:-3] + "abc").status_code == 403
    forged = rt.links.make("some-game", 0, "play")  # another purpose's token
    assert client.get(f"/me/{forged}").status_code == 403


def test_revoking_refuses_every_older_link_and_hands_over_a_new_one(client, rt):
    make_game(rt)
    old = me_url(rt)
    reply = client.post(f"{old}/revoke", data={"csrf_token": csrf(client, old)})
    assert reply.status_code == 303
    new = reply.headers["Location"]
    assert client.get(old).status_code == 403
    assert client.get(new).status_code == 200
    assert "revoked" in client.get(new).get_data(as_text=True)


def test_settings_are_saved_from_the_page_form(client, rt):
    make_game(rt)
    url = me_url(rt)
    reply = client.post(f"{url}/settings", data={
        "csrf_token": csrf(client, url), "quiet": "on", "quiet_start": "23",
        "quiet_end": "7", "tz": "Europe/Paris", "digest": "9"})
    assert reply.status_code == 303
    prefs = players.prefs(rt.redis, players.player_id(rt.redis, ADA))
    assert (prefs["quiet"], prefs["tz"], prefs["digest"]) == ((23, 7), "Europe/Paris", 9)


def test_bad_settings_are_a_clear_400_and_change_nothing(client, rt):
    make_game(rt)
    url = me_url(rt)
    for bad in ({"digest": "25"}, {"tz": "Mars/Olympus"},
                {"quiet": "on", "quiet_start": "8", "quiet_end": "8"},
                {"quiet": "on", "quiet_start": "x", "quiet_end": "7"}):
        reply = client.post(f"{url}/settings", data={"csrf_token": csrf(client, url)} | bad)
        assert reply.status_code == 400
        assert "Traceback" not in reply.get_data(as_text=True)
    assert rt.redis.exists(players.pkey(players.player_id(rt.redis, ADA), "prefs")) == 0


def test_the_forms_need_the_csrf_token(client, rt):
    make_game(rt)
    url = me_url(rt)
    assert client.post(f"{url}/settings", data={"digest": "9"}).status_code == 400
    assert client.post(f"{url}/revoke").status_code == 400
    assert client.get(url).status_code == 200  # still valid: nothing was revoked


def test_the_personal_page_sets_forced_moves_for_its_seat_and_links_my_games(client, rt):
    game_id = make_game(rt)
    url = "/play/" + rt.links.make(game_id, 1, "play")
    page = client.get(url).get_data(as_text=True)
    assert 'id="my-settings"' in page and "/me/" in page
    reply = client.post(f"{url}/settings", data={"csrf_token": csrf(client, url),
                                                 "quiet": "on", "quiet_start": "21",
                                                 "quiet_end": "9"})
    assert reply.status_code == 303
    assert not forced.is_on(rt.redis, game_id, 1)  # the box was left unticked
    assert forced.is_on(rt.redis, game_id, 0)
    assert players.prefs(rt.redis, players.player_id(rt.redis, "bo@example.com"))["quiet"] \
        == (21, 9)


def test_a_get_of_the_page_changes_no_game_state(client, rt):
    game_id = make_game(rt)
    version = rt.store.version(game_id)
    client.get(me_url(rt))
    client.get("/play/" + rt.links.make(game_id, 0, "play"))
    assert rt.store.version(game_id) == version


def test_the_index_is_a_read_model_rebuilt_idempotently(rt):
    first, second = make_game(rt), make_game(rt)
    pid = players.player_id(rt.redis, ADA)
    before = players.games_of(rt.redis, pid)
    assert set(before) == {first, second}
    rt.redis.delete(players.pkey(pid, "games"))
    assert players.rebuild(rt.redis, rt.store) == 2
    assert players.rebuild(rt.redis, rt.store) == 2
    assert players.games_of(rt.redis, pid) == before


def test_the_address_is_matched_whatever_its_case_and_never_stored_as_a_key(rt):
    make_game(rt, players_=[{"name": "Ada", "email": "Ada@Example.com "}])
    assert players.games_of(rt.redis, players.player_id(rt.redis, "ada@example.com"))
    assert not [k for k in rt.redis.keys("rp:player:*") if "example" in k]


@pytest.mark.parametrize("width", [390])
def test_the_page_has_no_fixed_width_wider_than_a_phone(client, rt, width):
    """The browser test checks the real layout; this one the markup it relies on."""
    make_game(rt, deadline_hours=3)
    page = client.get(me_url(rt)).get_data(as_text=True)
    assert 'name="viewport" content="width=device-width' in page
    assert "<table" not in page
    assert not [w for w in re.findall(r"width:\s*(\d+)px", page) if int(w) > width]


def test_clock_data_in_the_turn_read_model_is_shown(client, rt):
    game_id = make_game(rt)
    raw = json.loads(rt.redis.hget(key(game_id, "awaiting"), "0"))
    rt.redis.hset(key(game_id, "awaiting"), "0", json.dumps(raw | {"bank_left": "3h 20m"}))
    assert "bank left: 3h 20m" in client.get(me_url(rt)).get_data(as_text=True)


def clocked_game(rt, **platform):
    table = rt.games.create("test-race", PLAYERS, {"target": 30}, platform=platform)
    jobs.project(table.game_id)
    return table.game_id


def test_a_banked_clock_shows_the_time_left_on_it(client, rt):
    from datetime import timedelta
    start = rt.now()
    rt.clock = lambda: start  # a controllable clock for the events and the page
    game_id = clocked_game(rt, time_control={"kind": "bank", "bank_hours": 3})
    rt.clock = lambda: start + timedelta(minutes=50)
    page = client.get(me_url(rt)).get_data(as_text=True)
    assert "Left on your clock: 2 h 10 min." in page
    play(rt, game_id, 0, {"type": "ante", "amount": 1})  # Ada answered; her clock stands
    rt.clock = lambda: start + timedelta(hours=2)
    assert "Left on your clock: 2 h 10 min." in client.get(me_url(rt)).get_data(as_text=True)


def test_a_turn_whose_time_ran_out_says_so_instead_of_move_by(client, rt):
    from datetime import timedelta

    from worker import timeouts
    start = rt.now()
    rt.clock = lambda: start
    game_id = clocked_game(rt, time_control={"kind": "per_move", "hours": 1},
                           reminders={"fractions": [], "hours_before": []})
    rt.clock = lambda: start + timedelta(hours=1)
    assert "TimedOut" in timeouts.check_game(rt, game_id)
    jobs.project(game_id)
    page = client.get(me_url(rt)).get_data(as_text=True)
    assert "Your time ran out" in page and "Move by" not in page
    assert "Left on your clock" not in page  # per move: the deadline says it all


def lobby_form(client, **rows):
    data = {"csrf_token": csrf(client, "/"), "game": "test-race",
            "name0": "Ada", "email0": ADA, "tz0": "Europe/Paris",
            "name1": "Bo", "email1": "bo@example.com", "tz1": "UTC"}
    return client.post("/games", data=data | rows)


def test_the_lobby_sets_quiet_hours_of_its_own_game_only_never_a_players_settings(
        client, rt):
    from worker import quiet
    players.save_prefs(rt.redis, players.player_id(rt.redis, "bo@example.com"), quiet=(23, 6))
    assert lobby_form(client, quiet0="21-7", quiet1="off").status_code == 302
    ada = players.prefs(rt.redis, players.player_id(rt.redis, ADA))
    assert not ada["chosen"] and ada["quiet"] == (22, 8)  # Ada's settings: untouched
    assert players.prefs(rt.redis, players.player_id(rt.redis, "bo@example.com"))["quiet"] \
        == (23, 6)
    [game_id] = [g for g in players.games_of(rt.redis, players.player_id(rt.redis, ADA))]
    seats = rt.store.get_json(game_id, "seats")
    assert quiet.player_quiet(ada, rt.config, seats[0]) == (21, 7)  # in that game
    bo = players.prefs(rt.redis, players.player_id(rt.redis, "bo@example.com"))
    assert quiet.player_quiet(bo, rt.config, seats[1]) == (23, 6)  # Bo's own choice wins


def test_bad_quiet_hours_in_the_lobby_are_a_400_naming_the_player_and_start_nothing(
        client, rt):
    reply = lobby_form(client, quiet1="late")
    assert reply.status_code == 400
    assert "player 2" in reply.get_data(as_text=True)
    assert rt.store.game_ids() == []


def test_the_admin_command_writes_the_index_of_games_made_before_it(real_redis_url,
                                                                     real_redis, monkeypatch):
    from click.testing import CliRunner

    from events.gameplay import GameService
    from events.store import EventStore
    from service.cli import main
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    gid = GameService(EventStore(real_redis)).create("test-race", PLAYERS, {}).game_id
    result = CliRunner().invoke(main, ["admin", "reindex-players"])
    assert result.exit_code == 0 and "indexed 1 games" in result.output
    assert players.games_of(real_redis, players.player_id(real_redis, ADA)) == {gid: [0]}


def test_a_fork_is_told_apart_from_its_original(client, rt):
    original = make_game(rt)
    play(rt, original, 0, {"type": "ante", "amount": 1})
    fork = rt.games.fork(original, 2, "admin")
    jobs.project(fork)
    page = client.get(me_url(rt)).get_data(as_text=True)
    rows = dict(re.findall(r'data-game="([^"]+)">(.*?)</li>', page, re.S))
    assert set(rows) == {original, fork}
    assert f"A fork: a copy of your game {original} as it stood at move 2" in rows[fork]
    assert "A fork" not in rows[original]


def test_the_page_speaks_the_language_the_player_chose(client, rt):
    make_game(rt, deadline_hours=5)
    pid = players.player_id(rt.redis, ADA)
    browser = client.get(me_url(rt), headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Deine Spiele" in browser  # no choice yet: the browser's language
    players.save_prefs(rt.redis, pid, language="en")
    chosen = client.get(me_url(rt), headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Your games" in chosen and "Deine Spiele" not in chosen
    players.save_prefs(rt.redis, pid, language="de")
    german = client.get(me_url(rt)).get_data(as_text=True)
    assert "Deine Spiele" in german and "Du bist am Zug." in german
    assert "Your settings" not in german
