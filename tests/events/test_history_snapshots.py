"""History snapshots (events/history_snapshots.py): any past version from a stored table
at most K-1 folds back, the same Table as a fold from event 1, take-backs, rewinds and
ended games included; snapshots of other rules are ignored."""

from __future__ import annotations

import random

import pytest

from events import envelope
from events.history_snapshots import HistorySnapshots, history_key, parse_index
from events.replay import Replayer
from tests.events.test_replay import PLAYERS
from tests.events.test_takebacks import THREE, take_back_agreed

K = 7  # small, so that a short game holds many snapshots and many jumps over them


def scratch(service, gid, version):
    return Replayer(service.store).load(gid, at=version, use_snapshot=False)


def eventful_game(service, seed: int, moves: int = 90):
    """A game of random moves with take-backs of the mover's last move (some right after
    one another), admin rewinds short and long, notes, and an ending and a rewind after
    it (a new epoch's commitment, a revealed secret).  The deck is shuffled from a fresh
    secret, so each run plays a different game."""
    chooser = random.Random(seed)
    gid = service.create("test-race", THREE, {"target": 60, "copies": 2}).game_id
    for _ in range(moves):
        table = service.load(gid)
        if table.ended:
            if chooser.random() < 0.5:
                service.rewind(gid, chooser.randint(max(1, table.version - 30),
                                                    table.version - 1), "again", "admin")
                continue
            break
        roll = chooser.random()
        last = service.store.latest(gid, 1)[0]
        if roll < 0.25 and last.type == envelope.MOVE_PLAYED \
                and service.can_take_back(gid, last.data["seat"])[0]:
            take_back_agreed(service, gid, last.data["seat"])
            continue
        if roll < 0.32 and table.version > 3:
            service.rewind(gid, chooser.randint(max(1, table.version - 25),
                                                table.version - 1), "test", "admin")
            continue
        if roll < 0.36:
            service.record(gid, envelope.ADMIN_NOTE, {"text": "note"}, actor="admin")
            continue
        if not table.to_act():  # rewound to just before a GameEnded: end it again
            service.end_if_over(gid)
            continue
        seat = chooser.choice(sorted(table.to_act()))
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        service.play(gid, seat, move, table.version)
        service.end_if_over(gid)
    return gid


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_version_loads_as_a_fold_from_event_1_in_at_most_k_minus_1_folds(service, seed):
    gid = eventful_game(service, seed)
    last = service.store.version(gid)
    types = {e.type for e in service.store.read(gid)}
    assert envelope.REWOUND in types, "the game holds take-backs or rewinds"
    truth = {v: scratch(service, gid, v) for v in range(1, last + 1)}
    history = HistorySnapshots(Replayer(service.store), every=K)
    order = list(range(1, last + 1))
    random.Random(seed).shuffle(order)
    for version in order:  # a cold path first, then any order: the snapshots so far
        assert history.load(gid, version) == truth[version], version
    for version in range(1, last + 1):  # every snapshot on every path now written
        assert history.load(gid, version) == truth[version], version
        assert history.folded <= K - 1, version
    # and a fresh process (no decoded snapshot kept) reads the same from Redis
    fresh = HistorySnapshots(Replayer(service.store), every=K)
    for version in range(last, 0, -1):
        assert fresh.load(gid, version) == truth[version], version
        assert fresh.folded <= K - 1


def test_a_take_back_right_after_a_snapshot_does_not_lengthen_the_fold(service):
    """A snapshot every K *versions* would be jumped over by the take-back of the move
    at a multiple of K; kept every K folds of the path, one is met within K-1 folds."""
    gid = service.create("test-race", THREE, {"target": 500}).game_id
    history = HistorySnapshots(Replayer(service.store), every=K)
    for amount in [1, 2, 3] * 10:
        service.play(gid, 0, {"type": "ante", "amount": amount}, service.load(gid).version)
        take_back_agreed(service, gid)  # 5 versions, one fold
        service.record(gid, envelope.ADMIN_NOTE, {"text": "n"}, actor="admin")
    last = service.store.version(gid)
    for version in range(1, last + 1):
        history.load(gid, version)
    for version in range(1, last + 1):
        assert history.load(gid, version) == scratch(service, gid, version)
        assert history.folded <= K - 1


def test_the_replayer_loads_far_past_versions_through_history_snapshots(service):
    gid = service.create("test-race", PLAYERS, {"target": 10_000, "copies": 40}).game_id
    chooser = random.Random(5)
    for _ in range(150):
        table = service.load(gid)
        seat = chooser.choice(sorted(table.to_act()))
        service.play(gid, seat, chooser.choice(table.game.legal_moves(table.state, seat)),
                     table.version)
    replayer = Replayer(service.store)
    every = replayer.history.every
    assert replayer.load(gid, at=140) == scratch(service, gid, 140)
    index, _ = parse_index(service.store.redis.hkeys(history_key(gid)))
    assert sorted(index) == list(range(every, 141, every))
    assert replayer.load(gid, at=every + 3) == scratch(service, gid, every + 3)
    assert replayer.history.folded == 3


def test_snapshots_written_by_other_rules_are_ignored_and_dropped(service, monkeypatch):
    gid = eventful_game(service, seed=4, moves=40)
    last = service.store.version(gid)
    history = HistorySnapshots(Replayer(service.store), every=K)
    history.load(gid, last)
    names = service.store.redis.hkeys(history_key(gid))
    assert names and all(n.endswith(":test-race@1") for n in names), names
    # Poison every stored table: the rules that wrote them are not this code's any more.
    redis = service.store.redis
    for name in names:
        redis.hset(history_key(gid), name, b"not a table")
    from tests.platform_game import GAME
    monkeypatch.setattr(type(GAME), "rules_version", "2")
    index, stale = parse_index(names)
    assert index == {} and sorted(stale) == sorted(names)
    fresh = HistorySnapshots(Replayer(service.store), every=K)
    for version in range(last, 0, -3):
        assert fresh.load(gid, version) == scratch(service, gid, version)
    after = redis.hkeys(history_key(gid))
    assert after and not set(after) & set(names), "the old rules' snapshots are dropped"
    assert all(n.endswith(":test-race@2") for n in after)


def test_a_version_past_the_end_or_before_the_start_is_unknown(service):
    from events.store import UnknownGame
    gid = service.create("test-race", PLAYERS, {"target": 40}).game_id
    history = HistorySnapshots(Replayer(service.store), every=K)
    for version in (0, 2, 50):
        with pytest.raises(UnknownGame):
            history.load(gid, version)
    with pytest.raises(UnknownGame):
        history.load("nosuchgame", 3)
