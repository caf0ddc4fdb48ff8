"""A game ended before its rules end it (resigned, forfeit, abandoned): one GameEnded."""

from __future__ import annotations

import pytest

from events.history import describe
from events.replay import Replayer
from events.store import ConflictError
from games.protocol import IllegalMove
from tests.events.test_replay import PLAYERS, play_randomly


def test_ending_early_records_the_reason_and_ranks_the_seat_last(service):
    gid = service.create("kings-guild", PLAYERS, {}).game_id
    play_randomly(service, gid, 5)
    version = service.load(gid).version
    event = service.end_early(gid, "resigned", version, seats=[0], by="seat:0")
    table = service.load(gid)
    assert table.ended and table.to_act() == set()
    assert table.outcome()["ended"] == "resigned"
    assert table.outcome()["ranking"] == [[1], [0]]
    assert "resigned (Ada)" in describe(event, table.game, table.names, None)


def test_ending_early_is_decided_on_the_expected_version(service):
    gid = service.create("kings-guild", PLAYERS, {}).game_id
    version = service.load(gid).version
    play_randomly(service, gid, 1)
    with pytest.raises(ConflictError):
        service.end_early(gid, "abandoned", version)
    assert not service.load(gid).ended


def test_an_ended_game_cannot_end_again(service):
    gid = service.create("kings-guild", PLAYERS, {}).game_id
    service.end_early(gid, "abandoned", service.load(gid).version)
    with pytest.raises(IllegalMove):
        service.end_early(gid, "abandoned", service.load(gid).version)


def test_the_early_result_survives_a_fold_from_event_one(service):
    gid = service.create("kings-guild", PLAYERS, {}).game_id
    service.end_early(gid, "forfeit", service.load(gid).version, seats=[1])
    table = Replayer(service.store).load(gid, use_snapshot=False)
    assert table.outcome()["ended"] == "forfeit"
    assert table.outcome()["seats"] == [1]
