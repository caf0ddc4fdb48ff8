"""Auditing the randomness of a finished game from its revealed secret."""

from __future__ import annotations

import json

from events.audit import audit_tapes
from events.store import key
from tests.events.test_replay import PLAYERS, play_randomly


def finished_game(service):
    table = service.create("test-race", PLAYERS, {"target": 25})
    play_randomly(service, table.game_id, 300)
    assert service.load(table.game_id).ended
    return table.game_id


def test_an_honest_game_passes_the_audit(service):
    gid = finished_game(service)
    result = audit_tapes(service.store, gid)
    assert result.ok and result.checked == sum(
        1 for e in service.store.read(gid) if e.type in ("GameCreated", "MovePlayed"))


def test_a_running_game_cannot_be_audited_yet(service):
    table = service.create("test-race", PLAYERS, {"target": 25})
    assert not audit_tapes(service.store, table.game_id).ok


def test_a_forged_draw_fails_the_audit(service):
    gid = finished_game(service)
    log = key(gid, "log")
    entries = service.store.redis.xrange(log)
    # rig a draw: the server "chose" a different card than the secret dealt
    forged = []
    for entry_id, fields in entries:
        tape = json.loads(fields["tape"])
        if entry_id != "0-1" and tape and not forged:
            tape[0] = (tape[0] + 1) % 2
            fields = {**fields, "tape": json.dumps(tape)}
            forged.append(entry_id)
        service.store.redis.xadd(log + ":copy", fields, id=entry_id)
    service.store.redis.rename(log + ":copy", log)
    result = audit_tapes(service.store, gid)
    assert not result.ok and "differ" in result.problem
