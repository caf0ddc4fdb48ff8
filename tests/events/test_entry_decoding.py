"""Stored entries decode exactly as ``json.loads`` reads them, whichever decoder runs
(events.envelope reads with orjson where it can, for speed)."""

from __future__ import annotations

import json

import pytest

from events.envelope import Event

ENTRY = {"type": "MovePlayed", "v": "1", "at": "2026-11-30T19:00:00.000000Z",
         "actor": "seat:0", "tape": "[3,1]", "prev": "0" * 64, "hash": "ab" * 32}


@pytest.mark.parametrize("data", [
    '{"move":{"type":"ante","amount":1},"seat":0,"final":null}',
    '{"text":"caf\\u00e9 \\ud83d\\ude00","f":1.5}',
    '{"big":123456789012345678901234567890}',  # beyond 64 bits: orjson refuses it
    '{"x":NaN}',  # not JSON, but json.dumps could once write it
    '{"lone":"\\ud800"}',  # a lone surrogate: orjson refuses it
])
def test_an_entry_decodes_as_json_loads_reads_it(data):
    event = Event.from_entry("0-7", {**ENTRY, "data": data})
    expected = json.loads(data)
    assert json.dumps(event.data, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert event.tape == [3, 1] and event.version == 7
