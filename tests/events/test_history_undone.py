"""The history marks what a take-back or a rewind undid, and a take-back request says
which move it takes back."""

from __future__ import annotations

from events import envelope as ev
from events import history
from events.store import key
from tests.events.test_takebacks import THREE, take_back_agreed
from tests.support import PLAYERS


def lines_of(service, gid, seat=None, last=None):
    table = service.load(gid)
    return history.lines(service.store, gid, table.game, table.names, seat, last=last)


def undone_versions(lines):
    return [line["version"] for line in lines if line["undone"]]


def anted(service, players=THREE):
    """A game where seat 0 anted 1 (version 2)."""
    gid = service.create("test-race", players, {"target": 500}).game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    return gid


def test_a_move_taken_back_is_marked_undone_and_the_request_and_answers_are_not(service):
    gid = anted(service)
    take_back_agreed(service, gid)
    lines = lines_of(service, gid)
    assert [(line["type"], line["undone"]) for line in lines] == [
        (ev.GAME_CREATED, False), (ev.MOVE_PLAYED, True), (ev.UNDO_REQUESTED, False),
        (ev.UNDO_ANSWERED, False), (ev.UNDO_ANSWERED, False), (ev.REWOUND, False)]


def test_an_admin_rewind_marks_every_move_after_its_target_and_none_played_since(service):
    gid = anted(service)
    service.play(gid, 1, {"type": "ante", "amount": 2}, 2)
    service.rewind(gid, 1, "misclick", "admin")  # version 4
    service.play(gid, 0, {"type": "ante", "amount": 3}, 4)
    assert undone_versions(lines_of(service, gid)) == [2, 3]


def test_a_rewind_past_an_earlier_rewind_marks_the_moves_of_both_branches(service):
    gid = anted(service)
    service.play(gid, 1, {"type": "ante", "amount": 2}, 2)
    service.rewind(gid, 2, "", "admin")  # version 4: undoes 3
    service.play(gid, 1, {"type": "ante", "amount": 3}, 4)  # version 5
    service.rewind(gid, 1, "", "admin")  # version 6: undoes 2 and 5
    assert undone_versions(lines_of(service, gid)) == [2, 3, 5]


def test_the_latest_lines_know_a_rewind_that_reaches_back_before_them(service):
    gid = anted(service)
    service.play(gid, 1, {"type": "ante", "amount": 2}, 2)
    for i in range(5):
        service.record(gid, ev.ADMIN_NOTE, {"text": f"note {i}"}, actor="admin")
    service.play(gid, 2, {"type": "ante", "amount": 1}, 8)  # version 9
    service.rewind(gid, 1, "", "admin")  # version 10
    assert undone_versions(lines_of(service, gid, last=3)) == [9]
    assert undone_versions(lines_of(service, gid)) == [2, 3, 9]


def test_an_older_history_page_marks_the_moves_a_later_rewind_undid(service):
    gid = anted(service)
    service.play(gid, 1, {"type": "ante", "amount": 2}, 2)
    for i in range(5):
        service.record(gid, ev.ADMIN_NOTE, {"text": f"note {i}"}, actor="admin")
    service.rewind(gid, 2, "", "admin")  # version 9: undoes 3
    table = service.load(gid)
    events, older = history.page(service.store, gid, table.game, table.names, 0,
                                 before=5, limit=3)
    assert [(e["version"], e["undone"]) for e in events] == [(2, False), (3, True),
                                                             (4, False)]
    assert older == 2


def test_the_open_request_says_which_move_it_takes_back_redacted_for_the_reader(service):
    gid = anted(service)
    service.request_undo(gid, 0)
    assert service.pending_undo(gid)["move"] == "Ada antes"  # a spectator's line
    assert service.pending_undo(gid, reader=1)["move"] == "Ada antes"
    assert service.pending_undo(gid, reader=0)["move"] == "Ada antes 1"
    assert service.pending_undo(gid)["to"] == 1


def test_the_personal_page_shows_the_move_in_question_and_struck_through_undone_moves(
        rt, client):
    gid = anted(rt.games, PLAYERS)
    rt.games.request_undo(gid, 0)
    page = client.get(f"/play/{rt.links.make(gid, 1, 'play')}").get_data(as_text=True)
    assert "The move it takes back: move 2, Ada antes." in page
    rt.games.answer_undo(gid, 1, True)
    page = client.get(f"/play/{rt.links.make(gid, 1, 'play')}").get_data(as_text=True)
    assert "<s>Ada antes</s> <span class=\"muted\">(undone)</span>" in page


def test_a_fork_knows_the_game_and_move_it_was_forked_from_and_keeps_the_answer(service):
    gid = anted(service)
    fork = service.fork(gid, 2, "admin")
    assert history.forked_from(service.store, fork) == {"from": gid, "at": 2}
    assert service.store.get_json(fork, "forked_from") == {"from": gid, "at": 2}
    grandchild = service.fork(fork, 3, "admin")  # its log holds both Forked events
    assert history.forked_from(service.store, grandchild) == {"from": fork, "at": 3}


def test_a_game_that_is_no_fork_is_remembered_as_such_for_a_bounded_time(service):
    gid = anted(service)
    assert history.forked_from(service.store, gid) is None
    ttl = service.store.redis.ttl(key(gid, "forked_from"))
    assert 0 < ttl <= history.NOT_A_FORK_SECONDS
