"""Folding: snapshot + tail equals rebuild from event 1; rewind; fork; secret commitment."""

from __future__ import annotations

import hashlib
import random

import pytest

from events import envelope
from events.store import ConflictError
from games.protocol import IllegalMove

PLAYERS = [{"name": "Ada", "email": "ada@example.com"}, {"name": "Bo", "email": "bo@example.com"}]


def play_randomly(service, game_id, moves, seed=1):
    chooser = random.Random(seed)
    for _ in range(moves):
        table = service.load(game_id)
        if table.ended:
            return
        seat = chooser.choice(sorted(table.to_act()))
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        service.play(game_id, seat, move, table.version)


def test_created_game_publishes_the_secret_commitment(service):
    table = service.create("test-race", PLAYERS, {"target": 40})
    (created,) = service.store.read(table.game_id)
    assert created.type == envelope.GAME_CREATED
    secret = service._secret(table.game_id)
    assert created.data["commitment"] == hashlib.sha256(secret).hexdigest()
    assert created.tape, "the setup shuffle is recorded on the tape"


def test_game_end_reveals_the_secret(service):
    table = service.create("test-race", PLAYERS, {"target": 5})
    play_randomly(service, table.game_id, 200)
    events = service.store.read(table.game_id)
    assert events[-1].type == envelope.GAME_ENDED
    secret = bytes.fromhex(events[-1].data["secret"])
    assert hashlib.sha256(secret).hexdigest() == events[0].data["commitment"]
    assert service.load(table.game_id).ended


def test_snapshot_plus_tail_equals_rebuild_from_event_one_for_a_long_game(service):
    table = service.create("test-race", PLAYERS * 2, {"target": 100_000, "copies": 30})
    gid = table.game_id
    for round_ in range(6):
        play_randomly(service, gid, 30, seed=round_)
        service.replayer.write_snapshot(service.load(gid))
    play_randomly(service, gid, 17, seed=99)
    via_snapshot = service.replayer.load(gid)
    from_scratch = service.replayer.load(gid, use_snapshot=False)
    assert via_snapshot.version == from_scratch.version > 150
    assert via_snapshot == from_scratch


def test_rebuild_at_any_version(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    play_randomly(service, table.game_id, 10)
    at5 = service.load(table.game_id, at=5)
    assert at5.version == 5
    assert at5 == service.replayer.load(table.game_id, at=5, use_snapshot=False)


def test_rewound_resets_to_the_earlier_state_and_keeps_history(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    play_randomly(service, gid, 8)
    at4 = service.load(gid, at=4)
    service.rewind(gid, 4, "misclick", "admin")
    after = service.load(gid)
    assert after.version == 10 and after.state == at4.state
    assert len(service.store.read(gid)) == 10  # nothing deleted
    play_randomly(service, gid, 3, seed=7)
    assert service.load(gid) == service.replayer.load(gid, use_snapshot=False)


def test_fork_copies_the_history_into_a_new_game(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    play_randomly(service, table.game_id, 6)
    new_id = service.fork(table.game_id, 5, "admin")
    forked = service.load(new_id)
    assert forked.version == 6 and forked.state == service.load(table.game_id, at=5).state
    assert service.store.verify(new_id)[0]
    assert service.store.read(new_id)[-1].type == envelope.FORKED
    play_randomly(service, new_id, 3)


def test_stale_expected_version_is_a_conflict(service):
    table = service.create("test-race", PLAYERS, {"target": 50})
    with pytest.raises(ConflictError):
        service.play(table.game_id, 0, {"type": "ante", "amount": 1}, 0)


def test_illegal_move_appends_nothing(service):
    table = service.create("test-race", PLAYERS, {"target": 50})
    with pytest.raises(IllegalMove):
        service.play(table.game_id, 0, {"type": "ante", "amount": 9}, 1)
    assert service.store.version(table.game_id) == 1


def test_tampered_tape_fails_loudly_on_fold(service):
    from events.store import key
    table = service.create("test-race", PLAYERS, {"target": 50})
    log = key(table.game_id, "log")
    ((entry_id, fields),) = service.store.redis.xrange(log)
    fields["tape"] = "[]"
    service.store.redis.delete(log)
    service.store.redis.xadd(log, fields, id=entry_id)
    with pytest.raises(Exception, match="tape"):
        service.replayer.load(table.game_id, use_snapshot=False)


def test_a_process_cache_never_hides_events_appended_elsewhere(store):
    from events.gameplay import GameService
    here, elsewhere = GameService(store), GameService(store)
    table = here.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    assert here.load(gid).version == 1
    play_randomly(elsewhere, gid, 9)
    assert here.load(gid) == elsewhere.replayer.load(gid, use_snapshot=False)
    loaded = here.load(gid)
    loaded.state["total"] = -1  # a caller mutating its copy does not touch the cache
    assert here.load(gid).state["total"] != -1
    assert here.load(gid, at=3) == here.replayer.load(gid, at=3, use_snapshot=False)


def test_take_back_needs_every_other_players_agreement(service):
    players = PLAYERS + [{"name": "Cy", "email": "cy@example.com"}]
    table = service.create("test-race", players, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.play(gid, 1, {"type": "ante", "amount": 2}, 2)
    with pytest.raises(IllegalMove):
        service.request_undo(gid, 0)  # not the last move any more
    service.request_undo(gid, 1)
    with pytest.raises(IllegalMove):
        service.answer_undo(gid, 1, True)  # the asker does not answer
    service.answer_undo(gid, 0, True)
    assert service.load(gid).state["antes"][1] == 2
    service.answer_undo(gid, 2, True)
    assert service.load(gid).state["antes"] == [1, None, None]
    assert service.store.read(gid)[-1].type == envelope.REWOUND
    assert service.pending_undo(gid) is None


def test_a_refused_take_back_changes_nothing(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.request_undo(gid, 0)
    service.answer_undo(gid, 1, False)
    assert service.pending_undo(gid) is None
    assert service.load(gid).state["antes"] == [1, None]


def test_a_move_made_meanwhile_closes_the_request(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.request_undo(gid, 0)
    service.play(gid, 1, {"type": "ante", "amount": 2}, 2)  # still on time: requests are passive
    assert service.pending_undo(gid) is None
    with pytest.raises(IllegalMove):
        service.answer_undo(gid, 1, True)


def test_a_move_that_crashes_the_rules_is_refused_and_changes_nothing(service, monkeypatch):
    table = service.create("test-race", PLAYERS, {"target": 500})

    def crash(state, seat, move, rng):
        state["total"] = 99  # half-applied before the crash
        raise KeyError("amount")

    monkeypatch.setattr(table.game, "apply", crash)
    with pytest.raises(IllegalMove, match="not one of the legal moves"):
        service.play(table.game_id, 0, {"type": "ante", "amount": [1]}, 1)
    monkeypatch.undo()
    assert service.load(table.game_id).state["total"] == 0
    assert service.store.version(table.game_id) == 1
