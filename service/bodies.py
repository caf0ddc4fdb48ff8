"""Request bodies of the JSON API: read strictly (depth, number range, valid Unicode) and
checked by a marshmallow schema; anything else is a 400 naming what is wrong."""

from __future__ import annotations

import json
import math

from flask import request
from marshmallow import Schema
from orjson import JSONDecodeError as _FastDecodeError
from orjson import loads as _fast_loads

from service.errors import ApiError

MAX_JSON_DEPTH = 32  # moves and options are a few levels deep; recursion starts near 1,000
MAX_JSON_INT = 2**53 - 1  # what every JSON client can represent exactly


def _number_error(text: str) -> ValueError:
    return ValueError(f"the number {text[:20]}{'...' if len(text) > 20 else ''} is out of range")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > 16 or abs(int(text)) > MAX_JSON_INT:
        raise _number_error(text)
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _number_error(text)
    return value


def _constant(text: str):
    raise ValueError(f"{text} is not a JSON number")


def _levels(value, limit: int = MAX_JSON_DEPTH):
    """The items of ``value`` one level of nesting at a time, the top first, for at most
    ``limit + 1`` levels (no recursion): items in the last are ``limit`` levels down."""
    level = [value]
    for _ in range(limit + 1):
        if not level:
            return
        yield level
        level = [c for v in level if isinstance(v, dict | list)
                 for c in (v.values() if isinstance(v, dict) else v)]


def too_deep(value, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels."""
    for depth, level in enumerate(_levels(value, limit)):
        if depth == limit:
            return any(isinstance(v, dict | list) for v in level)
    return False


def parse_json(raw: bytes):
    """A request body as JSON, refusing what the service could choke on later (ApiError 400):
    nesting deeper than MAX_JSON_DEPTH, integers beyond 2**53, NaN and infinities, and
    escaped lone surrogates, which no store or email can carry."""
    data = _read_plainly(raw)
    return _read_strictly(raw) if data is _UNREAD else data


_UNREAD = object()


def _read_plainly(raw: bytes):
    """``raw`` read by orjson, if that passes :func:`parse_json`'s checks with nothing
    to look at twice (a move's body, always; a fifth of the time json's reading takes,
    measured); else _UNREAD, and :func:`_read_strictly` reads it and says what is wrong.

    orjson refuses what json refuses, and more (lone surrogates, invalid UTF-8, NaN,
    infinities, more than 1,024 levels), so only what it reads is looked at: its depth,
    and its numbers, since an integer past 64 bits comes out as a float (every float is
    left to json, which reads it from the text)."""
    try:
        value = _fast_loads(raw)
    except _FastDecodeError:
        return _UNREAD
    for depth, level in enumerate(_levels(value)):
        for item in level:
            if isinstance(item, dict | list):
                if depth == MAX_JSON_DEPTH:
                    return _UNREAD  # nested too deeply
            elif isinstance(item, float) or (
                    isinstance(item, int) and not -MAX_JSON_INT <= item <= MAX_JSON_INT):
                return _UNREAD
    return value


def _read_strictly(raw: bytes):
    """:func:`parse_json` by json, with a check of every number as it is read."""
    try:
        data = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise ApiError(400, "bad_request", "The JSON body is nested too deeply.") from None
    except ValueError as exc:  # includes UnicodeDecodeError
        reason = str(exc) if "out of range" in str(exc) or "JSON number" in str(exc) else \
            "it is not valid JSON"
        raise ApiError(400, "bad_request", f"The body is malformed: {reason}.") from None
    if too_deep(data):
        raise ApiError(400, "bad_request", "The JSON body is nested too deeply "
                       f"(at most {MAX_JSON_DEPTH} levels).")
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "bad_request", "The body holds text that is not valid Unicode.") \
            from None
    return data


def body(schema: Schema) -> dict:
    """The request's JSON object, checked by ``schema`` (ApiError / ValidationError: 400)."""
    if not request.is_json:
        raise ApiError(400, "bad_request", "The body must be a JSON object "
                       "(Content-Type: application/json).")
    data = parse_json(request.get_data(cache=True))
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "The body must be a JSON object.")
    return schema.load(data)
