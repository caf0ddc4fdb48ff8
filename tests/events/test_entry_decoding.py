"""Stored entries decode exactly as ``json.loads`` reads them, whichever decoder runs
(events.envelope reads with orjson where it can, for speed)."""

from __future__ import annotations

import json

import pytest

from events.envelope import ENTRY_FIELDS, Event
from events.store import key

ENTRY = {"type": "MovePlayed", "v": "1", "at": "2026-11-30T19:00:00.000000Z",
         "actor": "seat:0", "tape": "[3,1]", "prev": "0" * 64, "hash": "ab" * 32}


@pytest.mark.parametrize("data", [
    '{"move":{"type":"ante","amount":1},"seat":0,"final":null}',
    '{"text":"caf\\u00e9 \\ud83d\\ude00","f":1.5}',
    '{"big":123456789012345678901234567890}',  # beyond 64 bits: orjson reads a float
    '{"at":[18446744073709551616,-9223372036854775809,9223372036854775807]}',
    '{"big": 123456789012345678901234567890}',  # not as canonical() writes it
    '{"f":1e-07,"g":1e+16,"h":0.1}',  # floats json writes otherwise than orjson
    '{"x":NaN}',  # not JSON, but json.dumps could once write it
    '{"lone":"\\ud800"}',  # a lone surrogate: orjson refuses it
])
def test_an_entry_decodes_as_json_loads_reads_it(data):
    event = Event.from_entry("0-7", {**ENTRY, "data": data})
    expected = json.loads(data)
    assert json.dumps(event.data, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert event.tape == [3, 1] and event.version == 7


def test_a_long_tape_of_big_numbers_decodes_exactly():
    tape = [2**64 + i for i in range(50)] + [2**63 - 1]
    event = Event.from_entry("0-7", {**ENTRY, "data": "{}",
                                     "tape": json.dumps(tape, separators=(",", ":"))})
    assert event.tape == tape and all(isinstance(n, int) for n in event.tape)


def test_an_entry_as_redis_sends_it_decodes_as_its_fields_do():
    fields = {**ENTRY, "data": '{"seat":0}', "w": "17"}
    pairs = [part for name in ENTRY_FIELDS for part in (name, fields[name])]
    assert Event.from_reply("0-7", pairs) == Event.from_entry("0-7", fields)


def test_an_entry_written_in_another_order_or_without_a_writer_still_decodes():
    fields = {**ENTRY, "data": '{"seat":0}'}
    expected = Event.from_entry("0-7", fields)
    reordered = [part for item in reversed(fields.items()) for part in item]
    assert Event.from_reply("0-7", reordered) == expected
    assert Event.from_reply("0-7", dict(fields)) == expected  # redis-py's own decoding


def test_appends_write_their_fields_in_the_order_the_fast_decoding_expects(store):
    created = store.append("g1", 0, Event(version=1, type="GameCreated", actor="system",
                                          data={"kind": "x"}))
    entries = store.redis.xrange(key("g1", "log"))
    assert list(entries[0][1]) == ENTRY_FIELDS
    assert store.read("g1") == store.latest("g1") == [created]
