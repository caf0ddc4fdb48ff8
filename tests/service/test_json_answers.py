"""JSON answers are written by orjson (service/answers.py): the same JSON as Flask's own
provider, keys sorted, names in UTF-8; what orjson refuses is written as before."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime

from flask import jsonify

from tests.support import admin_headers, bearer


def test_answers_are_the_json_flask_would_write_with_names_in_utf8(client):
    created = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "test-race", "options": {"target": 40},
        "players": [{"name": "Zoë", "email": "zoe@example.com"},
                    {"name": "Bjørn", "email": "bj@example.com"}]})
    assert "Zoë".encode() in created.data and b"\\u00eb" not in created.data
    token = created.json["seats"][0]["token"]
    for reply in (created, client.get(f"/api/v1/games/{created.json['id']}",
                                      headers=bearer(token)),
                  client.get("/api/v1/kinds")):
        assert reply.status_code in (200, 201) and reply.mimetype == "application/json"
        data = json.loads(reply.data)
        assert reply.data.decode() == json.dumps(
            data, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def test_what_orjson_refuses_is_written_by_flasks_provider(app):
    with app.test_request_context():
        big = jsonify({"big": 2**70, "keys": {1: "one"}})
        assert json.loads(big.data) == {"big": 2**70, "keys": {"1": "one"}}


def test_dates_and_dataclasses_are_written_as_flask_writes_them(app):
    @dataclass
    class Seat:
        name: str

    moment = datetime(2026, 12, 1, 12, 30, tzinfo=UTC)
    with app.test_request_context():
        data = json.loads(jsonify({"at": moment, "seat": Seat("Ada")}).data)
    assert data == {"at": "Tue, 01 Dec 2026 12:30:00 GMT", "seat": {"name": "Ada"}}


def test_a_float_that_is_not_a_number_is_null_not_invalid_json(app):
    with app.test_request_context():
        assert json.loads(jsonify({"x": math.nan}).data) == {"x": None}


def test_debug_answers_stay_indented_for_people(app):
    app.debug = True
    with app.test_request_context():
        assert jsonify({"b": 1, "a": 2}).data == b'{\n  "a": 2,\n  "b": 1\n}\n'
