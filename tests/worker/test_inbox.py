"""The inbox: inbound messages stored once (by Message-ID), pending until handled, and
handed to the worker again by the sweep when their job was lost."""

from __future__ import annotations

import fakeredis
import pytest
from rq import Queue

from worker import inbox
from worker.queue import Enqueuer

RAW = (b"Message-ID: <abc@mail.example.com>\r\nFrom: ada@example.com\r\n"
       b"To: play+tok@reply.ravenpost.localhost\r\nSubject: Re: turn\r\n\r\nante 3\r\n")


@pytest.fixture
def queued():
    return fakeredis.FakeRedis()


@pytest.fixture
def rt(app, queued):
    runtime = app.extensions["ravenpost"]
    runtime.enqueuer = Enqueuer(queued)  # jobs are queued, not run
    return runtime


def job_ids(queued) -> list[str]:
    return Queue("ravenpost", connection=queued).job_ids


def test_a_message_is_stored_once_by_its_message_id(fake_redis):
    key, new = inbox.store(fake_redis, door="smtp", raw=RAW, envelope_to=["a@b"],
                           received_at=1000.0)
    assert new and len(key) == 32
    again = RAW.replace(b"ante 3", b"ante 4")  # the same Message-ID: a retry
    assert inbox.store(fake_redis, door="sendgrid", raw=again) == (key, False)
    stored = inbox.load(fake_redis, key)
    assert stored == {"door": "smtp", "raw": RAW, "fields": None, "envelope_to": ["a@b"],
                      "received_at": 1000.0, "done": False}
    assert fake_redis.zrange(inbox.PENDING, 0, -1, withscores=True) == [(key, 1000.0)]
    assert 3 * 24 * 3600 < fake_redis.ttl(inbox.message_key(key)) <= inbox.TTL


def test_both_doors_find_the_same_key_for_one_message():
    headers = RAW.split(b"\r\n\r\n")[0].decode() + "\r\n"
    assert inbox.key_for(raw=RAW) == inbox.key_for(fields={"headers": headers}) == \
        inbox.key_for(fields={"email": RAW.decode()})


def test_without_a_message_id_the_content_is_the_key(fake_redis):
    one = b"From: a@example.com\r\n\r\nante 3\r\n"
    two = b"From: a@example.com\r\n\r\nante 4\r\n"
    assert inbox.store(fake_redis, door="smtp", raw=one)[1]
    assert inbox.store(fake_redis, door="smtp", raw=two)[1]
    assert not inbox.store(fake_redis, door="smtp", raw=one)[1]


def test_raw_bytes_of_any_charset_come_back_exactly(fake_redis):
    raw = b"Message-ID: <x@y>\r\n\r\n" + bytes(range(256))
    key, _ = inbox.store(fake_redis, door="smtp", raw=raw)
    assert inbox.load(fake_redis, key)["raw"] == raw


def test_too_large_or_empty_messages_store_nothing(fake_redis):
    with pytest.raises(inbox.TooLarge):
        inbox.store(fake_redis, door="smtp", raw=b"x" * (inbox.MAX_BYTES + 1))
    with pytest.raises(inbox.TooLarge):
        inbox.store(fake_redis, door="sendgrid", fields={"text": "é" * inbox.MAX_BYTES})
    with pytest.raises(ValueError):
        inbox.store(fake_redis, door="sendgrid", fields={})
    assert fake_redis.dbsize() == 0


def test_done_keeps_the_record_so_a_retry_stores_nothing(fake_redis):
    key, _ = inbox.store(fake_redis, door="smtp", raw=RAW)
    inbox.done(fake_redis, key)
    assert inbox.is_done(fake_redis, key) and not inbox.is_pending(fake_redis, key)
    assert inbox.store(fake_redis, door="smtp", raw=RAW) == (key, False)
    assert not inbox.is_pending(fake_redis, key)
    assert inbox.load(fake_redis, key)["done"]


def test_done_after_the_record_expired_makes_no_record_for_ever(fake_redis):
    inbox.done(fake_redis, "0" * 32)
    assert not fake_redis.exists(inbox.message_key("0" * 32))
    assert inbox.load(fake_redis, "0" * 32) is None and not inbox.is_done(fake_redis, "0" * 32)


def test_a_message_stored_but_not_made_pending_is_made_pending_by_its_retry(fake_redis):
    key, _ = inbox.store(fake_redis, door="smtp", raw=RAW, received_at=5.0)
    fake_redis.zrem(inbox.PENDING, key)  # the door died between its two writes
    assert inbox.store(fake_redis, door="smtp", raw=RAW) == (key, False)
    assert fake_redis.zscore(inbox.PENDING, key) == 5.0


def test_enqueue_puts_the_reply_job_by_name_under_the_message_id(rt, queued):
    key, _ = inbox.store(rt.redis, door="smtp", raw=RAW)
    inbox.enqueue(rt, key)
    inbox.enqueue(rt, key)  # a waiting job of that id is kept
    assert job_ids(queued) == [f"inbound-{key}"]
    from rq.job import Job
    job = Job.fetch(f"inbound-{key}", connection=queued)
    assert (job.func_name, job.args) == ("worker.replies.handle", (key,))


def test_the_sweep_enqueues_again_a_message_pending_over_a_minute(rt, queued):
    now = rt.now().timestamp()
    old, _ = inbox.store(rt.redis, door="smtp", raw=RAW, received_at=now - 120)
    fresh, _ = inbox.store(rt.redis, door="smtp", raw=RAW.replace(b"<abc@", b"<new@"),
                           received_at=now - 5)
    handled, _ = inbox.store(rt.redis, door="smtp", raw=RAW.replace(b"<abc@", b"<old@"),
                             received_at=now - 300)
    rt.redis.hset(inbox.message_key(handled), "done", "1")  # done, but still listed
    assert inbox.sweep(rt) == 1
    assert job_ids(queued) == [f"inbound-{old}"]
    assert not inbox.is_pending(rt.redis, handled)
    assert inbox.is_pending(rt.redis, fresh)
    # its next try is a minute later, not at every sweep
    assert rt.redis.zscore(inbox.PENDING, old) >= now
    Queue("ravenpost", connection=queued).empty()
    assert inbox.sweep(rt) == 0
    assert inbox.sweep(rt, now=now + 61) == 2  # old again, and fresh by now


def test_the_sweep_forgets_a_pending_message_whose_record_expired(rt, queued):
    key, _ = inbox.store(rt.redis, door="smtp", raw=RAW, received_at=0.0)
    rt.redis.delete(inbox.message_key(key))
    assert inbox.sweep(rt) == 0
    assert not inbox.is_pending(rt.redis, key) and job_ids(queued) == []


def test_the_periodic_sweep_hands_over_lost_inbound_messages(rt, queued):
    from worker import jobs
    from worker.runtime import set_runtime
    key, _ = inbox.store(rt.redis, door="smtp", raw=RAW,
                         received_at=rt.now().timestamp() - 120)
    set_runtime(rt)
    jobs.sweep()
    assert f"inbound-{key}" in job_ids(queued)


def test_a_job_that_fails_inline_does_not_stop_the_sweep(app, monkeypatch):
    rt = app.extensions["ravenpost"]  # jobs run inline here
    calls = []

    def handle(key: str) -> str:
        calls.append(key)
        raise RuntimeError("parser bug")
    monkeypatch.setattr("worker.replies.handle", handle)
    first, _ = inbox.store(rt.redis, door="smtp", raw=RAW, received_at=0.0)
    second, _ = inbox.store(rt.redis, door="smtp", raw=RAW.replace(b"<abc@", b"<b@"),
                            received_at=0.0)
    inbox.sweep(rt)
    assert sorted(calls) == sorted([first, second])
    assert inbox.is_pending(rt.redis, first) and inbox.is_pending(rt.redis, second)
