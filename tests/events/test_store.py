"""The event store: explicit versions, optimistic concurrency, the hash chain, upcasting."""

from __future__ import annotations

import pytest

from events import envelope
from events.envelope import Event
from events.store import ConflictError, key


def note(text: str) -> Event:
    return Event(version=0, type=envelope.ADMIN_NOTE, actor="admin", data={"text": text})


def test_entries_use_explicit_version_ids(store):
    store.append("g1", 0, note("a"))
    store.append("g1", 1, note("b"))
    ids = [entry_id for entry_id, _ in store.redis.xrange(key("g1", "log"))]
    assert ids == ["0-1", "0-2"]
    assert store.version("g1") == 2


def test_append_with_stale_expected_version_is_a_conflict_and_writes_nothing(store):
    store.append("g1", 0, note("a"))
    with pytest.raises(ConflictError) as err:
        store.append("g1", 0, note("b"))
    assert err.value.version == 1
    assert [e.data["text"] for e in store.read("g1")] == ["a"]


def test_append_ahead_of_the_stream_is_a_conflict(store):
    with pytest.raises(ConflictError):
        store.append("g1", 3, note("a"))
    assert store.version("g1") == 0


def test_events_are_chained_by_hash(store):
    first = store.append("g1", 0, note("a"))
    second = store.append("g1", 1, note("b"))
    assert first.prev == envelope.GENESIS
    assert second.prev == first.hash
    assert store.verify("g1") == (True, 2, "")


def test_verify_detects_an_edited_entry(store):
    for i in range(3):
        store.append("g1", i, note(str(i)))
    log = key("g1", "log")
    fields = store.redis.xrange(log, "0-2", "0-2")[0][1]
    fields["data"] = '{"text":"forged"}'
    # rebuild the stream with the forged middle entry
    entries = store.redis.xrange(log)
    store.redis.delete(log)
    for entry_id, f in entries:
        store.redis.xadd(log, fields if entry_id == "0-2" else f, id=entry_id)
    ok, count, problem = store.verify("g1")
    assert not ok and count == 2 and "hash" in problem


def test_old_event_shapes_are_upcast_on_read_and_never_rewritten(store, monkeypatch):
    store.append("g1", 0, Event(version=0, type=envelope.ADMIN_NOTE, actor="admin",
                                data={"note": "old shape"}))
    monkeypatch.setitem(envelope.CURRENT_V, envelope.ADMIN_NOTE, 2)
    monkeypatch.setitem(envelope.UPCASTERS, (envelope.ADMIN_NOTE, 1),
                        lambda d: {"text": d["note"]})
    (event,) = store.read("g1")
    assert event.v == 2 and event.data == {"text": "old shape"}
    (raw,) = store.read("g1", raw=True)
    assert raw.v == 1 and raw.data == {"note": "old shape"}
    assert store.verify("g1")[0]


def test_reading_a_long_stream_in_batches(store):
    for i in range(25):
        store.append("g1", i, note(str(i)))
    events = list(store.iter("g1", 3, 20, batch=4))
    assert [e.version for e in events] == list(range(3, 21))


def test_append_marks_the_game_for_projection(store):
    store.append("g1", 0, note("a"))
    assert store.redis.zscore("rp:dirty", "g1") is not None
    assert store.game_ids() == ["g1"]
