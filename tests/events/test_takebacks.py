"""Take-backs and rewinds: linear to load, never a re-roll, never erasing a move."""

from __future__ import annotations

import hashlib
import json

import pytest

from events import envelope
from events.audit import audit_tapes, epochs
from events.history import describe
from events.replay import Replayer, surviving
from events.store import ConflictError, key
from games.protocol import IllegalMove
from games.rng import RecordingRandom, seed_for
from tests.events.test_replay import PLAYERS, play_randomly

THREE = PLAYERS + [{"name": "Cy", "email": "cy@example.com"}]


def take_back_agreed(service, gid, asker=0):
    """``asker`` asks to take back its last move and every other seat allows it."""
    service.request_undo(gid, asker)
    for other in range(len(service.load(gid).names)):
        if other != asker:
            service.answer_undo(gid, other, True)


def count_applies(monkeypatch, game):
    calls = []
    original = game.apply

    def counting(state, seat, move, rng):
        calls.append(seat)
        return original(state, seat, move, rng)

    monkeypatch.setattr(game, "apply", counting)
    return calls


# -- 1. loading stays linear ------------------------------------------------------------
def test_loading_applies_only_the_moves_that_survive_the_take_backs(service, monkeypatch):
    table = service.create("test-race", THREE, {"target": 500})
    gid = table.game_id
    for amount in [1, 2, 3] * 14:  # 42 take-backs, each of a fresh ante
        service.play(gid, 0, {"type": "ante", "amount": amount}, service.load(gid).version)
        take_back_agreed(service, gid)
    service.play(gid, 0, {"type": "ante", "amount": 2}, service.load(gid).version)
    calls = count_applies(monkeypatch, table.game)
    rebuilt = Replayer(service.store).load(gid, use_snapshot=False)
    assert rebuilt.state["antes"] == [2, None, None]
    assert rebuilt.version == 1 + 42 * 5 + 1
    assert calls == [0], "one surviving move, folded once (it was exponential before)"


def test_every_way_of_loading_agrees_after_many_take_backs(service):
    table = service.create("test-race", THREE, {"target": 500, "copies": 1})
    gid = table.game_id
    for i in range(6):
        play_randomly(service, gid, 4, seed=i)
        last = service.store.latest(gid, 1)[0]
        if last.type == envelope.MOVE_PLAYED and service.can_take_back(gid, last.data["seat"])[0]:
            take_back_agreed(service, gid, last.data["seat"])
        if i == 2:
            service.replayer.write_snapshot(service.load(gid))
    incremental = None
    fresh = Replayer(service.store)
    for event in service.store.iter(gid):  # the worker's projection path
        incremental = fresh.evolve(incremental, gid, event)
    scratch = Replayer(service.store).load(gid, use_snapshot=False)
    via_snapshot = Replayer(service.store).load(gid)
    assert incremental == scratch == via_snapshot
    for version in range(1, scratch.version + 1):
        assert Replayer(service.store).load(gid, at=version) == \
            Replayer(service.store).load(gid, at=version, use_snapshot=False)


def test_surviving_skips_the_taken_back_moves_and_jumps_below_the_floor_for_none():
    def e(version, type_=envelope.MOVE_PLAYED, **data):
        return envelope.Event(version=version, type=type_, actor="system", data=data)

    log = [e(1, envelope.GAME_CREATED), e(2), e(3), e(4, envelope.REWOUND, to=2), e(5),
           e(6, envelope.REWOUND, to=5), e(7)]
    assert [x.version for x in surviving(log, 0)] == [1, 2, 5, 7]
    assert surviving(log[3:], 3) is None  # the Rewound to 2 reaches below version 3


# -- 2. a take-back never erases an acknowledged move ----------------------------------
def test_an_answer_decided_on_an_old_version_is_refused(service):
    table = service.create("test-race", THREE, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.request_undo(gid, 0)
    service.answer_undo(gid, 1, True)
    version = service.store.version(gid)
    pending = service.pending_undo(gid, version)
    service.play(gid, 1, {"type": "ante", "amount": 3}, version)  # lands first
    with pytest.raises(ConflictError):  # the answer decided on `version` cannot append
        service.record(gid, envelope.UNDO_ANSWERED, {"seat": 2, "accept": True,
                                                     "request": pending["version"]},
                       actor="seat:2", expected_version=version)
    assert service.load(gid).state["antes"] == [1, 3, None]


def test_the_agreed_rewind_is_not_appended_over_a_move_made_meanwhile(service, monkeypatch):
    table = service.create("test-race", THREE, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.request_undo(gid, 0)
    service.answer_undo(gid, 1, True)
    original = service.record

    def record_then_a_move_lands(*args, **kwargs):
        event = original(*args, **kwargs)
        if args[1] == envelope.UNDO_ANSWERED:  # Bo's move lands between answer and rewind
            service.play(gid, 1, {"type": "ante", "amount": 3}, event.version)
        return event

    monkeypatch.setattr(service, "record", record_then_a_move_lands)
    service.answer_undo(gid, 2, True)
    assert service.load(gid).state["antes"] == [1, 3, None], "the move was kept"
    assert not any(e.type == envelope.REWOUND for e in service.store.read(gid))
    assert service.pending_undo(gid) is None


def test_a_reminder_between_the_last_answer_and_the_rewind_does_not_stop_it(service,
                                                                            monkeypatch):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.request_undo(gid, 0)
    original = service.record

    def record_then_a_reminder(*args, **kwargs):
        event = original(*args, **kwargs)
        if args[1] == envelope.UNDO_ANSWERED:
            original(gid, envelope.REMINDER_SENT, {"seat": 1, "turn": 2})
        return event

    monkeypatch.setattr(service, "record", record_then_a_reminder)
    service.answer_undo(gid, 1, True)
    assert service.store.read(gid)[-1].type == envelope.REWOUND
    assert service.load(gid).state["antes"] == [None, None]


# -- 3. a take-back is never a re-roll or a free look -----------------------------------
def test_a_move_that_drew_a_card_cannot_be_taken_back(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.play(gid, 1, {"type": "ante", "amount": 1}, 2)
    card = service.load(gid).state["hands"][0][0]
    event = service.play(gid, 0, {"type": "play", "card": card}, 3)
    assert event.tape, "the replacement card was drawn"
    assert event.data["final"] == "it drew at random (cards, dice or a shuffle)"
    with pytest.raises(IllegalMove, match="cannot be taken back: it drew at random"):
        service.request_undo(gid, 0)
    assert service.store.version(gid) == event.version, "the refusal changed nothing"


def test_a_solo_player_cannot_take_back_a_draw_either(service):
    table = service.create("test-race", PLAYERS[:1], {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    card = service.load(gid).state["hands"][0][0]
    service.play(gid, 0, {"type": "play", "card": card}, 2)
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        service.request_undo(gid, 0)


def test_a_move_that_revealed_hidden_choices_cannot_be_taken_back(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    event = service.play(gid, 1, {"type": "ante", "amount": 3}, 2)  # the antes are shown
    assert event.data["final"] == "it revealed every ante"
    with pytest.raises(IllegalMove, match="it revealed every ante"):
        service.request_undo(gid, 1)


def test_a_move_that_showed_nothing_can_be_taken_back_in_a_solo_game(service):
    table = service.create("test-race", PLAYERS[:1] * 1, {"target": 500, "copies": 1})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    while service.load(gid).state["deck"]:  # play until the deck is empty: no more draws
        table = service.load(gid)
        service.play(gid, 0, {"type": "play", "card": table.state["hands"][0][0]},
                     table.version)
    table = service.load(gid)
    before = table.state["total"]
    event = service.play(gid, 0, {"type": "play", "card": table.state["hands"][0][0]},
                         table.version)
    assert event.tape == [] and event.data["final"] is None
    rewound = service.request_undo(gid, 0)
    assert rewound.type == envelope.REWOUND
    assert service.load(gid).state["total"] == before


def test_the_history_says_why_a_move_cannot_be_taken_back(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    event = service.play(gid, 1, {"type": "ante", "amount": 3}, 2)
    line = describe(event, table.game, table.names, 0)
    assert line == "Bo antes (cannot be taken back: it revealed every ante)"


def test_moves_logged_before_the_rule_are_judged_from_their_states(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 1}, 1)
    service.play(gid, 1, {"type": "ante", "amount": 3}, 2)
    old = service.store.read(gid, 3, 3)[0]
    legacy = envelope.Event(version=3, type=old.type, actor=old.actor, tape=old.tape,
                            data={"seat": 1, "move": old.data["move"]})
    assert service.why_final(gid, legacy) == "it revealed every ante"


# -- 4. a rewind after the secret was revealed starts a new epoch ----------------------
def finished(service, players=PLAYERS):
    table = service.create("test-race", players, {"target": 12})
    play_randomly(service, table.game_id, 300)
    assert service.load(table.game_id).ended
    return table.game_id


def test_rewinding_a_finished_game_commits_a_new_secret(service):
    gid = finished(service)
    events = service.store.read(gid)
    rewound = service.rewind(gid, 4, "replay the ending", "admin")
    new_commitment = rewound.data["commitment"]
    assert new_commitment != events[0].data["commitment"]
    assert service.load(gid).commitment == new_commitment
    table = service.load(gid)
    seat = sorted(table.to_act())[0]
    move = next(m for m in table.game.legal_moves(table.state, seat) if m["type"] == "play")
    event = service.play(gid, seat, move, table.version)
    secret = service._secret(gid)
    assert hashlib.sha256(secret).hexdigest() == new_commitment
    fresh = RecordingRandom(seed_for(secret, event.version))
    table.game.apply(service.load(gid, at=event.version - 1).state, seat, dict(move), fresh)
    assert event.tape and fresh.tape == event.tape, "the draw came from the new secret"


def test_rewinding_a_running_game_keeps_its_sealed_secret(service):
    table = service.create("test-race", PLAYERS, {"target": 500})
    play_randomly(service, table.game_id, 6)
    rewound = service.rewind(table.game_id, 3, "misclick", "admin")
    assert "commitment" not in rewound.data


def test_the_audit_checks_each_epoch_with_its_own_secret(service):
    gid = finished(service)
    service.rewind(gid, 4, "replay the ending", "admin")
    play_randomly(service, gid, 300, seed=7)
    assert service.load(gid).ended
    events = service.store.read(gid)
    assert len(epochs(events)) == 2
    result = audit_tapes(service.store, gid)
    assert result.ok, result.problem
    draws = sum(1 for e in events if e.type in (envelope.GAME_CREATED, envelope.MOVE_PLAYED))
    assert result.checked == draws and result.sealed == 0


def test_a_game_rewound_after_its_end_is_sealed_again_until_it_ends(service):
    gid = finished(service)
    service.rewind(gid, 4, "replay the ending", "admin")
    result = audit_tapes(service.store, gid)
    assert not result.ok and "sealed" in result.problem


def test_a_fork_of_a_running_game_audits_its_own_epoch_and_counts_the_rest_sealed(service):
    table = service.create("test-race", PLAYERS, {"target": 40})
    play_randomly(service, table.game_id, 4)
    assert not service.load(table.game_id).ended
    fork = service.fork(table.game_id, 5, "admin")
    play_randomly(service, fork, 300, seed=3)
    assert service.load(fork).ended
    result = audit_tapes(service.store, fork)
    assert result.ok and result.sealed == 5 and result.checked > 0


def test_a_forged_draw_in_the_second_epoch_fails_the_audit(service):
    gid = finished(service)
    rewind = service.rewind(gid, 4, "replay the ending", "admin")
    play_randomly(service, gid, 300, seed=7)
    log = key(gid, "log")
    entries = service.store.redis.xrange(log)
    forged = False
    for entry_id, fields in entries:
        version = int(entry_id.split("-")[1])
        tape = json.loads(fields["tape"])
        if version > rewind.version and tape and not forged and fields["type"] == "MovePlayed":
            tape[0] = 0 if tape[0] else 1
            fields = {**fields, "tape": json.dumps(tape)}
            forged = True
        service.store.redis.xadd(log + ":copy", fields, id=entry_id)
    service.store.redis.rename(log + ":copy", log)
    result = audit_tapes(service.store, gid)
    assert forged and not result.ok


def test_the_epoch_secret_cannot_be_overwritten_by_a_failed_rewind(service):
    gid = finished(service)
    version = service.store.version(gid)
    with pytest.raises(ConflictError):
        service.rewind(gid, 4, "stale", "admin", expected_version=version - 1)
    assert service._secret(gid, service.load(gid).commitment)


def test_a_take_back_past_the_latest_snapshot_starts_from_the_one_before(service,
                                                                        monkeypatch):
    table = service.create("test-race", PLAYERS, {"target": 500})
    gid = table.game_id
    play_randomly(service, gid, 8)  # versions 2..9
    service.replayer.write_snapshot(service.load(gid, at=6))
    service.replayer.write_snapshot(service.load(gid, at=9))  # version 6 is kept as prev
    service.rewind(gid, 7, "misclick", "admin")  # back past the latest snapshot
    calls = count_applies(monkeypatch, table.game)
    loaded = Replayer(service.store).load(gid)
    assert calls == [service.store.read(gid, 7, 7)[0].data["seat"]], \
        "only move 7 is folded, on top of the snapshot at 6 (not every move from 1)"
    monkeypatch.undo()
    assert loaded == Replayer(service.store).load(gid, use_snapshot=False)
