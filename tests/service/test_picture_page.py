"""The game page draws the table and embeds the moves; the scrubber shows the past as the
seat saw it then, never a later view, redacted for that seat."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from events.picture import picture_for
from tests.support import PLAYERS, a_race_where_ada_can_play_a_pair, admin_headers


@pytest.fixture
def game(client, rt):
    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS[:2], "options": {"target": 60, "pairs": True}})
    return reply.json["id"]


def personal(rt, gid: str, seat: int) -> str:
    return "/play/" + rt.links.make(gid, seat, "play")


def play(rt, gid: str, seat: int, move: dict) -> None:
    rt.games.play(gid, seat, move, rt.store.version(gid))


def moves_data(page: str) -> list[dict]:
    found = re.search(r'<script type="application/json" id="moves-data"[^>]*>(.*?)</script>',
                      page, re.S)
    assert found, "no embedded moves"
    return json.loads(found.group(1))


def ante_all(rt, gid: str) -> None:
    for seat in (0, 1):
        play(rt, gid, seat, {"type": "ante", "amount": 2 + seat})


def test_the_page_inlines_the_pictures_svg_above_the_tables(client, rt, game):
    page = client.get(personal(rt, game, 0)).get_data(as_text=True)
    assert '<figure class="card picture" id="picture"><svg' in page
    assert page.index('id="picture"') < page.index("<pre>")  # the position's detail follows
    assert 'data-target="ante:2"' in page


def test_the_page_embeds_every_legal_move_with_its_steps_and_targets(client, rt):
    game, _ = a_race_where_ada_can_play_a_pair(rt)  # deals are random: one with a pair
    page = client.get(personal(rt, game, 0)).get_data(as_text=True)
    embedded = moves_data(page)
    table = rt.games.load(game)
    legal = table.game.legal_moves(table.state, 0)
    assert [json.loads(m["value"]) for m in embedded] == legal
    pair = next(m for m in embedded if json.loads(m["value"])["type"] == "pair")
    assert [s["group"] for s in pair["steps"]] == [None, "cards", "cards"]
    assert all(t.startswith("card:") for t in pair["targets"])
    radios = {unescape(v) for v in re.findall(r'name="move" value="([^"]+)"', page)}
    assert {m["value"] for m in embedded} == radios  # the builder fills the radio list


def test_the_embedded_moves_cannot_close_their_script_block(client, rt, game):
    page = client.get(personal(rt, game, 0)).get_data(as_text=True)
    block = re.search(r'id="moves-data"[^>]*>(.*?)</script>', page, re.S).group(1)
    assert "<" not in block and ">" not in block


def test_a_seat_that_does_not_act_gets_no_moves_block(client, rt, game):
    play(rt, game, 0, {"type": "ante", "amount": 1})
    page = client.get(personal(rt, game, 0)).get_data(as_text=True)
    assert "moves-data" not in page and 'id="picture"' in page


def test_the_picture_shows_only_the_viewers_hand(rt, game):
    ante_all(rt, game)
    state = rt.games.load(game).state
    mine, theirs = state["hands"][0], state["hands"][1]
    svg = picture_for(rt, game, 0)
    cards = {t for t in re.findall(r'data-target="([^"]+)"', svg) if t.startswith("card:")}
    assert cards == {f"card:{c}" for c in mine}
    assert len(re.findall(r'<rect [^>]*fill="#6b3e26"', svg)) == len(theirs)  # backs only


def test_the_deadline_is_shown_in_the_viewers_time_zone(client, rt):
    players = [dict(PLAYERS[0], tz="Asia/Tokyo"), dict(PLAYERS[1], tz="America/New_York")]
    gid = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": players, "deadline_hours": 24}).json["id"]
    tokyo = client.get(personal(rt, gid, 0)).get_data(as_text=True)
    new_york = client.get(personal(rt, gid, 1)).get_data(as_text=True)
    assert re.search(r'id="deadline">Your move is due by [^<]* JST', tokyo)
    assert re.search(r'id="deadline">Your move is due by [^<]* E[SD]T', new_york)


def test_the_scrubber_shows_a_past_version_as_that_seat_saw_it(client, rt, game):
    ante_all(rt, game)
    at = rt.store.version(game)
    before = rt.games.load(game, at=at)
    mine = list(before.state["hands"][0])
    card = mine[0]
    play(rt, game, 0, {"type": "play", "card": card})
    page = client.get(f"{personal(rt, game, 0)}/at/{at}").get_data(as_text=True)
    for c in mine:  # the hand as it was, the played card still in it
        assert f'data-target="card:{c}"' in page
    assert f"move {at} of {at + 1}" in page
    assert 'rel="next"' in page


def test_the_scrubber_is_redacted_for_the_seat_that_asks(client, rt, game):
    play(rt, game, 0, {"type": "ante", "amount": 3})
    at = rt.store.version(game)
    theirs = client.get(f"{personal(rt, game, 1)}/at/{at}").get_data(as_text=True)
    mine = client.get(f"{personal(rt, game, 0)}/at/{at}").get_data(as_text=True)
    assert "ante 3" in mine and "Ada antes 3" in mine
    assert "ante 3" not in theirs and "ante hidden" in theirs and "antes 3" not in theirs


def test_the_scrubber_never_shows_a_later_version(client, rt, game):
    last = rt.store.version(game)
    assert client.get(f"{personal(rt, game, 0)}/at/{last + 1}").status_code == 404
    assert client.get(f"{personal(rt, game, 0)}/at/0").status_code == 404
    page = client.get(f"{personal(rt, game, 0)}/at/{last}").get_data(as_text=True)
    assert 'rel="next"' not in page


def test_the_scrubber_needs_a_personal_link(client, rt, game):
    act = rt.links.make(game, 0, "act", rt.store.version(game))
    assert client.get(f"/play/{act}/at/1").status_code in (401, 403)


def test_a_finished_game_shows_a_chart_of_the_scores(client, rt):
    gid = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "players": PLAYERS[:2], "options": {"target": 12}}).json["id"]
    ante_all(rt, gid)
    while not rt.games.load(gid).ended:
        table = rt.games.load(gid)
        [seat] = table.to_act()
        play(rt, gid, seat, table.game.legal_moves(table.state, seat)[0])
    page = client.get(personal(rt, gid, 0)).get_data(as_text=True)
    assert 'id="score-chart"><svg' in page
    scores = rt.games.load(gid).outcome()["scores"]
    assert f"Ada ended on {scores[0]}" in page


def test_the_lobby_shows_a_bad_email_beside_its_field(client):
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    reply = client.post("/games", data={"csrf_token": token, "game": "test-race",
                                        "name0": "Ada", "email0": "not an email",
                                        "name1": "Bo", "email1": "bo@example.com",
                                        "tz1": "Mars/Olympus"})
    page = reply.get_data(as_text=True)
    assert reply.status_code == 400
    assert re.search(r'name="email0"[^>]*aria-invalid="true"[^>]*>'
                     r'<span class="field-error" id="err-email0">not a valid email', page)
    assert re.search(r'<span class="field-error" id="err-tz1">[^<]*Mars/Olympus', page)
    assert "err-email1" not in page


def test_the_lobby_offers_every_time_zone(client):
    page = client.get("/").get_data(as_text=True)
    assert '<option value="Europe/Paris">' in page and 'list="time-zones"' in page


def test_the_picture_highlights_what_changed_since_the_seats_last_move(rt, game):
    ante_all(rt, game)
    table = rt.games.load(game)
    play(rt, game, 0, {"type": "play", "card": table.state["hands"][0][0]})
    assert 'class="changed"' not in picture_for(rt, game, 0)  # its own move is the latest
    table = rt.games.load(game)
    play(rt, game, 1, {"type": "play", "card": table.state["hands"][1][0]})
    assert 'class="changed"' in picture_for(rt, game, 0)  # Bo's card moved the total


def test_the_table_facts_are_those_of_the_version_drawn(rt, game):
    from events.picture import table_for
    play(rt, game, 0, {"type": "ante", "amount": 1})
    at = rt.store.version(game)
    play(rt, game, 1, {"type": "ante", "amount": 2})
    then = table_for(rt.games, rt.games.load(game, at=at), 0, latest=False)
    assert then["version"] == at and then["to_act"] == [1] and then["deadline"] is None
    assert then["names"] == ["Ada", "Bo"] and then["seat"] == 0
    assert then["previous"] is None  # Ada's ante is the version drawn


def test_the_worker_and_the_page_draw_the_same_picture(rt, game):
    assert picture_for(rt.games, game, 1) == picture_for(rt, game, 1)
    assert picture_for(rt, game, 1, at=1) is not None


def test_a_game_without_a_picture_draws_none(rt, monkeypatch):
    from games.protocol import Game
    from tests.platform_game import CountingRace
    monkeypatch.setattr(CountingRace, "picture", Game.picture)
    gid = rt.games.create("test-race", PLAYERS).game_id
    assert picture_for(rt, gid, 0) is None


@pytest.mark.parametrize("view, scores", [
    ({"scores": [3, 5]}, [3.0, 5.0]),
    ({"scores": {"totals": [7, 2, 9], "final": False}}, [7.0, 2.0]),  # an automaton last
    ({"scores": {"0": 1, "1": 4}}, [1.0, 4.0]),
    ({"players": [{"prestige": 6}, {"prestige": 0}]}, [6.0, 0.0]),
    ({"guilds": [{"vp": 1}, {"vp": 2}], "specialist_row": [{"prestige": 9}] * 2}, [1.0, 2.0]),
    ({"players": [{"name": "Ada"}, {"name": "Bo"}]}, None),
    ({"scores": [True, "x"]}, None),
])
def test_the_chart_reads_the_public_scores_a_view_shows(view, scores):
    from service.picture import view_scores
    assert view_scores(view, 2) == scores


def test_a_taken_back_move_is_not_the_one_changes_are_shown_since(rt, game):
    from events.picture import previous_view
    play(rt, game, 0, {"type": "ante", "amount": 1})
    first = rt.games.load(game).game.view(rt.games.load(game).state, 0)
    play(rt, game, 1, {"type": "ante", "amount": 2})
    table = rt.games.load(game)
    play(rt, game, 0, {"type": "play", "card": table.state["hands"][0][0]})
    rt.games.rewind(game, rt.store.version(game) - 1, "test", "admin",
                    expected_version=rt.store.version(game))
    assert previous_view(rt.games, rt.games.load(game), 0) == first  # the ante, not the card


def test_the_lobby_shows_bad_quiet_hours_beside_their_row(client):
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    reply = client.post("/games", data={"csrf_token": token, "game": "test-race",
                                        "name0": "Ada", "email0": "ada@example.com",
                                        "name1": "Bo", "email1": "bo@example.com",
                                        "quiet1": "25-3"})
    assert reply.status_code == 400
    assert re.search(r'<span class="field-error" id="err-quiet1">write them as two different',
                     reply.get_data(as_text=True))


def test_favicon_ico_leads_to_the_sites_icon(client):
    reply = client.get("/favicon.ico")
    assert reply.status_code == 301 and reply.location.endswith("/static/favicon.svg")


def test_a_forks_invitation_tells_the_seat_to_act_that_it_is_its_move(rt):
    from worker import jobs
    gid = rt.games.create("test-race", PLAYERS[:2]).game_id
    play(rt, gid, 0, {"type": "ante", "amount": 1})
    play(rt, gid, 1, {"type": "ante", "amount": 2})
    fork = rt.games.fork(gid, 3, "admin")
    jobs.project(fork)
    to_act = rt.games.load(fork).to_act()
    mails = [rt.mail.get(m["id"]) for m in rt.mail.list(limit=50)]
    invitations = {m["to"]: m["text"] for m in mails if m["key"].startswith(f"turn:{fork}:1:")}
    assert len(invitations) == 2
    for seat, player in enumerate(PLAYERS[:2]):
        text = " ".join(invitations[player["email"]].split())
        assert "Others move first" not in text  # the fork is well under way
        assert "You have been invited to a fork of Counting Race (test game)" in text
        assert ("It is your move" in text) == (seat in to_act)
        assert f"This game is a fork of Counting Race (test game) {gid} at move 3." in text


def a_kings_guild_game_at_a_forced_move(rt) -> tuple[str, int]:
    """A King's Guild game whose seat to act has one move, safe to play for it (ending
    the turn), which no worker has played yet; the game and that seat."""
    import random

    from worker import forced
    gid = rt.games.create("kings-guild", PLAYERS[:2]).game_id
    chooser = random.Random(4)
    for _ in range(200):
        table = rt.games.load(gid)
        for seat in sorted(table.to_act()):
            if forced.forced_move(table, seat) is not None:
                return gid, seat
        seat = min(table.to_act())
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        rt.games.play(gid, seat, move, table.version)
    raise AssertionError("no forced move in 200 moves")


def test_a_move_about_to_be_played_for_the_seat_gets_no_form(client, rt):
    gid, seat = a_kings_guild_game_at_a_forced_move(rt)
    page = client.get(personal(rt, gid, seat)).text
    assert 'id="played-for-you"' in page and "is being played for you" in page
    assert 'id="move-form"' not in page  # it would be out of date before it was sent


def test_a_player_who_keeps_their_only_moves_gets_the_form(client, rt):
    from worker import forced
    gid, seat = a_kings_guild_game_at_a_forced_move(rt)
    forced.set_on(rt.redis, gid, seat, False)
    page = client.get(personal(rt, gid, seat)).text
    assert 'id="move-form"' in page and 'id="played-for-you"' not in page


def lobby_form(client, **fields) -> dict:
    """The lobby's form for two players with a clock of 48 hours a move, as the page
    fills it in, with ``fields`` changed."""
    page = client.get("/").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    return {"csrf_token": token, "game": "test-race", "name0": "Ada",
            "email0": "ada@example.com", "name1": "Bo", "email1": "bo@example.com",
            "tc_kind": "per_move", "tc_hours": "48", "on_timeout": "wait", "bot_after": "2",
            "remind_fractions": "0.5, 0.25", "remind_hours_before": "24", **fields}


def test_the_lobby_starts_a_game_with_a_clock(client, rt):
    reply = client.post("/games", data=lobby_form(client))
    assert reply.status_code == 302  # the form's own "2" time-outs was refused as text
    gid = reply.location.rsplit("/", 1)[-1]
    assert rt.games.load(gid).version == 1


def test_the_lobby_shows_a_bad_clock_field_beside_it(client):
    reply = client.post("/games", data=lobby_form(client, tc_hours="-3", bot_after="x"))
    page = reply.get_data(as_text=True)
    assert reply.status_code == 400
    assert re.search(r'name="tc_hours"[^>]*aria-invalid="true"[^>]*></label>'
                     r'<span class="field-error" id="err-tc_hours">', page)
    assert re.search(r'<span class="field-error" id="err-bot_after">Not a valid integer', page)


def test_a_solo_games_chart_draws_the_automaton_beside_the_player(client, rt):
    import random
    gid = rt.games.create("architects", PLAYERS[:1]).game_id
    chooser = random.Random(5)
    for _ in range(3000):
        table = rt.games.load(gid)
        if table.ended:
            break
        seat = min(table.to_act())
        play(rt, gid, seat, chooser.choice(table.game.legal_moves(table.state, seat)))
    outcome = rt.games.load(gid).outcome()
    assert len(outcome["names"]) == 2  # the player and the Byzantine opponent
    page = unescape(client.get(personal(rt, gid, 0)).get_data(as_text=True))
    chart = page[page.index('id="score-chart"'):]
    for name, score in zip(outcome["names"], outcome["scores"], strict=True):
        assert f"{name} ended on {score}" in chart


def test_a_wide_pictures_email_png_keeps_its_pixels_and_is_shown_at_mail_width(
        rt, monkeypatch):
    from games.svg import Drawing
    from tests.platform_game import CountingRace
    from worker.picture_mail import EMAIL_WIDTH, mail_picture

    def wide(self, view, table):  # as wide as Feudum's table
        d = Drawing(820, 410, title="wide")
        d.text(10, 20, "small print", size=10)
        return d.render()

    monkeypatch.setattr(CountingRace, "picture", wide)
    gid = rt.games.create("test-race", PLAYERS[:2]).game_id
    board = mail_picture(rt.games, rt.games.load(gid), 0)
    png = board.image.data
    assert int.from_bytes(png[16:20], "big") == 820  # no pixel of the small print lost
    assert (board.width, board.height) == (EMAIL_WIDTH, 320)  # shown at the mail's width
