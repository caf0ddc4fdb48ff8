"""A request body is read by orjson when it can be, and then reads exactly as json's
strict reading does: the same value, or the same refusal (service.bodies.parse_json)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.bodies import (
    _UNREAD,
    MAX_JSON_DEPTH,
    MAX_JSON_INT,
    _read_plainly,
    _read_strictly,
    parse_json,
)
from service.errors import ApiError


def reading(read, raw: bytes):
    """What ``read`` makes of ``raw``: ("value", it) or ("refused", the message)."""
    try:
        return "value", read(raw)
    except ApiError as exc:
        return "refused", exc.message


def nested(levels: int, inner: str = "") -> bytes:
    return ("[" * levels + inner + "]" * levels).encode()


def test_a_move_body_is_read_by_orjson():
    raw = b'{"move": {"type": "play", "card": 7}, "expected_version": 12}'
    assert _read_plainly(raw) == {"move": {"type": "play", "card": 7}, "expected_version": 12}


@pytest.mark.parametrize("inner", ["", "1", "{}", '{"a": []}', '"x"'])
@pytest.mark.parametrize("levels", range(MAX_JSON_DEPTH - 2, MAX_JSON_DEPTH + 3))
def test_nesting_is_counted_as_the_strict_reading_counts_it(levels, inner):
    raw = nested(levels, inner)
    assert reading(parse_json, raw) == reading(_read_strictly, raw)


@pytest.mark.parametrize("number", [MAX_JSON_INT, -MAX_JSON_INT, MAX_JSON_INT + 1,
                                    -MAX_JSON_INT - 1, 2**63, -(2**63) - 1, 2**64, 10**30])
def test_integers_at_and_past_the_limit_read_as_the_strict_reading_reads_them(number):
    raw = json.dumps({"move": {"type": "x", "n": number}}).encode()
    assert reading(parse_json, raw) == reading(_read_strictly, raw)
    if abs(number) > MAX_JSON_INT:
        assert _read_plainly(raw) is _UNREAD  # orjson's float of a big integer is never kept


@pytest.mark.parametrize("raw", [b"[1.5]", b"[1e400]", b"[-0.0]", b'["\\ud800"]', b"[NaN]",
                                 b'["\xed\xa0\x80"]',
                                 b"\xef\xbb\xbf[1]", '["ä"]'.encode("utf-16"), b"[1,]", b""])
def test_what_orjson_does_not_read_alone_is_left_to_the_strict_reading(raw):
    assert _read_plainly(raw) is _UNREAD
    assert reading(parse_json, raw) == reading(_read_strictly, raw)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=())),  # lone surrogates too
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(JSON, st.integers(min_value=0, max_value=MAX_JSON_DEPTH + 2), st.booleans())
def test_any_body_reads_as_the_strict_reading_reads_it(value, levels, escaped):
    text = json.dumps(value, ensure_ascii=escaped)  # escaped: lone surrogates as \uXXXX
    raw = nested(levels, text.encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
    assert reading(parse_json, raw) == reading(_read_strictly, raw)
