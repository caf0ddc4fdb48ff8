"""The global indexes in buckets (events/shards.py), and their readers, on fakeredis with
the cluster's bucket count."""

from __future__ import annotations

import fakeredis
import pytest

from events import shards
from events.store import DIRTY, GAMES_INDEX, EventStore


@pytest.fixture
def sharded(monkeypatch):
    monkeypatch.setattr(shards, "PLAIN_BUCKETS", shards.CLUSTER_BUCKETS)
    return fakeredis.FakeRedis(decode_responses=True)


def slot_of(name: str) -> str:
    """What Redis Cluster hashes: the hash tag if the key has one."""
    start = name.find("{")
    end = name.find("}", start + 1)
    return name[start + 1:end] if start != -1 and end > start + 1 else name


def test_on_one_server_an_index_is_one_key_under_its_own_name(fake_redis):
    assert shards.all_buckets(fake_redis, "rp:dirty") == ["rp:dirty"]
    assert shards.bucket_key(fake_redis, "rp:dirty", "g1") == "rp:dirty"


def test_on_a_cluster_each_bucket_has_a_hash_tag_of_its_own(sharded):
    buckets = shards.all_buckets(sharded, "rp:dirty")
    assert len(buckets) == shards.CLUSTER_BUCKETS == 16
    assert len({slot_of(b) for b in buckets}) == len(buckets)
    assert all(b.startswith("rp:dirty:{") for b in buckets)


def test_a_member_always_lands_in_the_same_bucket(sharded):
    first = shards.bucket_key(sharded, "rp:lobby", "abc123")
    assert shards.bucket_key(sharded, "rp:lobby", "abc123") == first
    assert first in shards.all_buckets(sharded, "rp:lobby")
    # CRC-32, not Python's salted hash(): every process (and every release) agrees
    assert shards.bucket_of("abc123", 16) == 12


def test_members_spread_over_the_buckets(sharded):
    for i in range(400):
        sharded.sadd(shards.bucket_key(sharded, "rp:pending", f"game{i}"), f"game{i}")
    counts = [sharded.scard(b) for b in shards.all_buckets(sharded, "rp:pending")]
    assert sum(counts) == 400 and min(counts) > 0
    assert shards.smembers(sharded, "rp:pending") == {f"game{i}" for i in range(400)}


def test_the_top_of_an_index_is_merged_across_buckets_by_score(sharded):
    for i in range(50):
        sharded.zadd(shards.bucket_key(sharded, "rp:lobby", f"g{i}"), {f"g{i}": i})
    assert shards.ztop(sharded, "rp:lobby", 0, 5) == ["g49", "g48", "g47", "g46", "g45"]
    assert shards.ztop(sharded, "rp:lobby", 5, 3) == ["g44", "g43", "g42"]
    assert shards.ztop(sharded, "rp:lobby", 0, 3, highest_first=False) == ["g0", "g1", "g2"]
    assert shards.zcard(sharded, "rp:lobby") == 50
    assert sorted(shards.zmembers(sharded, "rp:lobby")) == sorted(
        (f"g{i}", float(i)) for i in range(50))


def test_an_append_marks_its_game_in_the_buckets_and_the_admin_list_reads_them(sharded):
    store = EventStore(sharded)
    from events.envelope import Event
    for gid in ("a1", "b2", "c3"):
        store.append(gid, 0, Event(version=0, type="GameCreated", actor="system",
                                   data={}, tape=[]))
    assert not sharded.exists(DIRTY) and not sharded.exists(GAMES_INDEX)
    assert {m for m, _ in shards.zmembers(sharded, DIRTY)} == {"a1", "b2", "c3"}
    assert sorted(store.game_ids()) == ["a1", "b2", "c3"]


def test_the_lobby_lists_games_from_every_bucket(sharded):
    from service import create_app
    from tests.support import PLAYERS
    app = create_app({"REDIS_CLIENT": sharded, "RUN_JOBS_INLINE": True, "TESTING": True,
                      "SECRET_KEY": "test-secret", "BASE_URL": "http://localhost"})
    rt = app.extensions["ravenpost"]
    ids = {rt.games.create("test-race", PLAYERS, {"target": 30}).game_id for _ in range(6)}
    from worker.projection import lobby_summaries, project_game
    for gid in ids:
        project_game(rt, gid, deliver=lambda *_: None)
    assert {s["id"] for s in lobby_summaries(rt, 50)} == ids
    assert len({shards.bucket_key(sharded, "rp:lobby", g) for g in ids}) > 1


def test_the_most_overdue_come_first_across_buckets_up_to_the_limit(sharded):
    for i in range(40):
        sharded.zadd(shards.bucket_key(sharded, "rp:due", f"g{i}"), {f"g{i}": 100 + i})
    due = shards.zrangebyscore(sharded, "rp:due", "-inf", 110, limit=5)
    assert due == [(f"g{i}", 100.0 + i) for i in range(5)]
    assert len(shards.zrangebyscore(sharded, "rp:due", "-inf", 110)) == 11


def test_the_due_index_is_read_across_its_buckets(sharded):
    from worker import due
    for i in range(20):
        due.set_due(sharded, f"g{i}", 1000 + i)
    due.set_due(sharded, "g3", None)
    assert due.due_games(sharded, 1005) == ["g0", "g1", "g2", "g4", "g5"]
    assert due.due_games(sharded, 1005, limit=2) == ["g0", "g1"]
    assert due.due_at(sharded, "g7") == 1007 and due.due_at(sharded, "g3") is None
