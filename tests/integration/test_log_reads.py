"""Reading a game's log from a real Redis: the next batch is asked for before the last one
is handed out (Redis gathers it while this process decodes), and a read stopped early
gives its connection back in step."""

from __future__ import annotations

from typing import Any

import redis

from events import envelope
from events.envelope import Event
from events.store import EventStore


def note(text: str) -> Event:
    return Event(version=0, type=envelope.ADMIN_NOTE, actor="admin", data={"text": text})


class Recording(redis.Connection):
    """A connection that notes the first words of every command it sends."""

    sent: list[tuple[str, ...]] = []

    def send_command(self, *args: Any, **kwargs: Any) -> None:
        Recording.sent.append(tuple(str(a) for a in args[:3]))
        super().send_command(*args, **kwargs)

    def pack_commands(self, commands: Any) -> list[bytes]:
        Recording.sent.extend(tuple(str(a) for a in c[:3]) for c in commands)
        return super().pack_commands(commands)


def _appended(client: redis.Redis, count: int) -> EventStore:
    store = EventStore(client)
    for version in range(count):
        store.append("g1", version, note(str(version)))
    return store


def test_the_next_batch_is_asked_for_before_the_last_one_is_handed_out(real_redis,
                                                                        real_redis_url):
    _appended(real_redis, 10)
    client = redis.Redis.from_url(real_redis_url, decode_responses=True,
                                  connection_class=Recording)
    Recording.sent = []
    events = EventStore(client).iter("g1", batch=4)
    first = next(events)
    assert first.version == 1
    ranges = [words for words in Recording.sent if words[0] == "XRANGE"]
    assert [words[2] for words in ranges] == ["0-1", "0-5"]  # batch 2 is on its way
    assert [e.version for e in events] == list(range(2, 11))
    assert [words[2] for words in Recording.sent if words[0] == "XRANGE"] == \
        ["0-1", "0-5", "0-9"]  # 9-10 came short of a batch: nothing more was asked


def test_a_read_of_exactly_whole_batches_ends_on_an_empty_one(real_redis):
    store = _appended(real_redis, 8)
    assert [e.data["text"] for e in store.iter("g1", batch=4)] == [str(i) for i in range(8)]
    assert [e.version for e in store.iter("g1", 3, 8, batch=3)] == list(range(3, 9))


def test_a_read_stopped_early_gives_its_connection_back_in_step(real_redis):
    store = _appended(real_redis, 10)
    events = store.iter("g1", batch=4)
    assert next(events).version == 1  # the second batch is on its way now
    events.close()
    pool = real_redis.connection_pool
    assert not pool._in_use_connections  # redis-py's record of connections handed out
    assert store.version("g1") == 10  # the reply read is this command's, not the XRANGE's
    assert [real_redis.incr("n") for _ in range(3)] == [1, 2, 3]
    assert [e.version for e in store.iter("g1", 9)] == [9, 10]
