"""A pipeline's commands written by hiredis directly (events/sent.py ``pack``) are the
very bytes redis-py's own packer writes, and what hiredis cannot take goes to redis-py."""

from __future__ import annotations

import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st
from redis.connection import Connection, PythonRespSerializer

from events import sent

WORDS = st.one_of(
    st.text(max_size=30), st.binary(max_size=30),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
)
NAMES = st.sampled_from(["EVAL", "XADD", "SET", "HSET", "ZADD", "XRANGE", "PING"])
COMMANDS = st.lists(st.tuples(NAMES, st.lists(WORDS, max_size=25)).map(
    lambda pair: (pair[0], *pair[1])), min_size=1, max_size=6)


def redis_py(commands) -> bytes:
    return b"".join(Connection().pack_commands(commands))


@given(COMMANDS)
def test_the_bytes_are_those_redis_py_writes(commands):
    assert b"".join(sent.pack(Connection(), commands)) == redis_py(commands)


def test_the_words_are_packed_by_hiredis_in_one_piece(monkeypatch):
    import hiredis
    calls = []

    class Counted:
        @staticmethod
        def pack_command(args):
            calls.append(args[0])
            return hiredis.pack_command(args)

    monkeypatch.setattr(sent, "hiredis", Counted)
    out = sent.pack(Connection(), [("SET", "k", "v" * 10_000), ("GET", "k")])
    assert calls == ["SET", "GET"] and len(out) == 1
    assert out[0].startswith(b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$10000\r\n")


@pytest.mark.parametrize("commands", [
    [("CLIENT SETNAME", "me")],  # a command of two words, which redis-py splits
    [("SET", "k", bytearray(b"v"))],  # a bytearray, which redis-py turns into bytes
    [("SET", "k", memoryview(b"v"))],
    [(b"SET", "k", "v")],  # a first word as bytes
], ids=["two-words", "bytearray", "memoryview", "bytes-name"])
def test_what_hiredis_does_not_take_as_it_is_goes_to_redis_py(commands):
    assert b"".join(sent.pack(Connection(), commands)) == redis_py(commands)


def test_a_word_redis_py_refuses_is_refused_as_before():
    with pytest.raises(redis.DataError):
        sent.pack(Connection(), [("SET", "k", None)])


def test_a_connection_with_another_packer_packs_its_own_way():
    conn = Connection(command_packer=PythonRespSerializer(6000, Connection().encoder.encode))
    assert b"".join(sent.pack(conn, [("SET", "k", 1)])) == \
        b"*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\n1\r\n"


def test_a_connection_class_with_its_own_pack_commands_is_left_to_it():
    class Counting(Connection):
        def pack_commands(self, commands):
            return [b"counted"]

    assert sent.pack(Counting(), [("SET", "k", 1)]) == [b"counted"]
