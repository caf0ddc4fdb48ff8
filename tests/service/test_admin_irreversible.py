"""An admin rewind says what it undoes that players could never take back (a draw, a
reveal, the game's end, a time-out) and needs a ticked box for it (issue 29, item 6)."""

from __future__ import annotations

from events.irreversible import irreversible
from tests.service.test_admin_pages import csrf, sign_in
from tests.support import PLAYERS, a_finished_race


def antes(rt, *seats):
    """A two-seat race in which ``seats`` have anted 1, in that order; its id."""
    gid = rt.games.create("test-race", PLAYERS, {"target": 40}).game_id
    for seat in seats:
        rt.games.play(gid, seat, {"type": "ante", "amount": 1}, rt.store.version(gid))
    return gid


def play_first(rt, gid):
    table = rt.games.load(gid)
    seat = sorted(table.to_act())[0]
    rt.games.play(gid, seat, table.game.legal_moves(table.state, seat)[0], table.version)
    return seat


def rewind(client, gid, to, **form):
    sign_in(client)
    token = csrf(client, f"/admin/games/{gid}")
    return client.post(f"/admin/games/{gid}/rewind",
                       data={"csrf_token": token, "to": to, **form})


def test_the_confirmation_lists_what_players_could_not_take_back_in_words(client, rt):
    gid = antes(rt, 0, 1)  # Bo's ante (move 3) reveals both
    play_first(rt, gid)  # move 4: Ada plays a card and draws one
    reply = rewind(client, gid, 1, reason="misclick")
    page = reply.get_data(as_text=True)
    assert reply.status_code == 200 and rt.store.version(gid) == 4
    assert "2 things the players themselves could never take back" in page
    assert ("move 3: Bo antes — players could not take this back (it revealed every ante)"
            in page)
    assert "move 4: Ada plays " in page and "(it drew at random" in page
    assert "move 2: Ada antes — players" not in page  # a move that could be taken back
    assert 'type="checkbox" name="irreversible" value="yes" required' in page


def test_without_the_extra_box_a_confirmed_rewind_changes_nothing_and_says_why(client, rt):
    gid = antes(rt, 0, 1)
    reply = rewind(client, gid, 2, confirm="yes", expected_version=3)
    page = reply.get_data(as_text=True)
    assert reply.status_code == 400 and rt.store.version(gid) == 3
    assert rt.store.read(gid)[-1].type == "MovePlayed"
    assert "Nothing was changed: tick the box" in page
    assert "move 3: Bo antes" in page  # the page asks again, with what it would undo
    ticked = rewind(client, gid, 2, confirm="yes", expected_version=3, irreversible="yes")
    assert ticked.status_code == 302 and rt.store.read(gid)[-1].type == "Rewound"
    assert rt.games.load(gid).state["antes"] == [1, None]


def test_a_rewind_of_moves_players_could_take_back_needs_no_extra_box(client, rt):
    gid = antes(rt, 0)  # Ada's ante alone shows nothing
    rt.games.record(gid, "AdminNote", {"text": "a note after it"}, actor="admin")
    page = rewind(client, gid, 1).get_data(as_text=True)
    assert 'name="irreversible"' not in page and "could never take back" not in page
    reply = rewind(client, gid, 1, confirm="yes", expected_version=3)
    assert reply.status_code == 302 and rt.store.read(gid)[-1].type == "Rewound"


def test_a_stale_confirmation_is_a_conflict_before_anything_else(client, rt):
    gid = antes(rt, 0, 1)
    reply = rewind(client, gid, 1, confirm="yes", expected_version=2)
    assert reply.status_code == 409 and rt.store.version(gid) == 3


def test_a_time_out_and_the_games_end_are_listed(rt):
    gid = antes(rt, 0)
    rt.games.record(gid, "TimedOut", {"seat": 1, "turn": 1, "policy": "wait"})
    [item] = irreversible(rt.games, gid, 1)
    assert item.version == 3 and item.type == "TimedOut"
    assert item.text.startswith("Bo ran out of time; the game waits")
    assert item.reason.startswith("a time-out")
    ended = a_finished_race(rt)
    found = irreversible(rt.games, ended, 1)
    assert found[-1].type == "GameEnded" and "the game was over" in found[-1].reason
    assert any(i.type == "MovePlayed" and "drew at random" in i.reason for i in found)


def test_what_an_earlier_rewind_undid_already_is_not_listed_again(rt):
    gid = antes(rt, 0, 1)  # move 3 reveals both antes
    rt.games.rewind(gid, 2, "redo", "admin")  # move 4 takes it back
    rt.games.play(gid, 1, {"type": "ante", "amount": 2}, 4)  # move 5 reveals again
    assert [i.version for i in irreversible(rt.games, gid, 1)] == [5]
    assert [i.version for i in irreversible(rt.games, gid, 3)] == [5]
    assert irreversible(rt.games, gid, 5 - 1)[0].text == "Bo antes"
