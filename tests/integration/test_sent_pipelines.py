"""A pipeline sent now and read later (events/sent.py) answers what ``execute`` would,
leaves its connection clean whatever the work in between does, and meets a lost reply
as redis-py's own pipeline does."""

from __future__ import annotations

import pytest
import redis

from events.sent import sent
from tests.lost_replies import LostReplies


def test_the_replies_are_those_execute_gives_a_failed_command_in_its_place(real_redis):
    def queued():
        pipe = real_redis.pipeline(transaction=False)
        pipe.set("k", "v")
        pipe.incr("k")  # not a number: a ResponseError in its place
        pipe.get("k")
        pipe.exists("k", "nothing")
        return pipe

    with sent(queued()) as trip:
        split = trip.replies()
    executed = queued().execute(raise_on_error=False)
    assert [type(r) for r in split] == [type(r) for r in executed]
    assert split[0] is True and split[2:] == ["v", 1] == executed[2:]
    assert isinstance(split[1], redis.ResponseError)


def test_the_commands_reach_redis_before_the_replies_are_asked_for(real_redis,
                                                                   real_redis_url):
    other = redis.Redis.from_url(real_redis_url, decode_responses=True)  # its own connection
    pipe = real_redis.pipeline(transaction=False)
    pipe.set("early", "1")
    with sent(pipe) as trip:
        seen = None
        for _ in range(1000):  # the server runs it while this side works
            seen = other.get("early")
            if seen is not None:
                break
        assert seen == "1"
        assert trip.replies() == [True]


def test_work_that_fails_before_the_replies_are_read_leaves_the_connection_clean(
        real_redis):
    pipe = real_redis.pipeline(transaction=False)
    pipe.set("written", "yes")
    pipe.get("written")
    with pytest.raises(KeyError), sent(pipe):
        {}["a view that failed"]  # noqa: B018
    # the write went out and its replies were read: the pooled connection is in step
    assert real_redis.get("written") == "yes"
    assert [real_redis.incr("n") for _ in range(3)] == [1, 2, 3]


@pytest.mark.parametrize("resend", [True, False], ids=["client-retries", "no-retries"])
def test_a_lost_reply_is_sent_again_only_by_a_client_that_retries(real_redis,
                                                                 real_redis_url, resend):
    lossy = LostReplies(real_redis_url)
    client = lossy.client(resend)
    lossy.arm(lambda command: "counted" in command)
    pipe = client.pipeline(transaction=False)
    pipe.incr("counted")
    if resend:
        with sent(pipe) as trip:
            assert trip.replies() == [2]  # run twice: what a resent INCR does
    else:
        with pytest.raises(redis.ConnectionError), sent(pipe) as trip:
            trip.replies()
    assert lossy.lost == ["INCRBY counted 1"]
    assert client.ping()  # the dropped connection was not given back in a bad state


def test_a_transaction_is_not_split_but_executed_when_its_replies_are_read(real_redis):
    pipe = real_redis.pipeline(transaction=True)
    pipe.set("t", "1")
    with sent(pipe) as trip:
        assert real_redis.get("t") is None  # nothing sent yet
        assert trip.replies() == [True]
    assert real_redis.get("t") == "1"


def test_a_command_that_cannot_be_packed_sends_nothing_and_keeps_no_connection(real_redis):
    pipe = real_redis.pipeline(transaction=False)
    pipe.set("never", "written")
    pipe.execute_command("SET", "bad", object())
    with pytest.raises(redis.DataError), sent(pipe):
        pass
    assert real_redis.get("never") is None
    pool = real_redis.connection_pool
    assert not pool._in_use_connections  # given back
