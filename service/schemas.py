"""Marshmallow schemas at the edges: what the JSON API accepts and returns."""

from __future__ import annotations

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


def _time_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(f"unknown time zone {name!r} (use e.g. 'Europe/Paris')") from exc


class PlayerIn(StrictSchema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    email = fields.Email(required=True)
    tz = fields.String(load_default="UTC", validate=[validate.Length(max=64), _time_zone])


class CreateGameIn(StrictSchema):
    game = fields.String(required=True)
    players = fields.List(fields.Nested(PlayerIn), required=True,
                          validate=validate.Length(min=1, max=12))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    deadline_hours = fields.Integer(load_default=None, allow_none=True,
                                    validate=validate.Range(min=1, max=24 * 60))


class SeatOut(Schema):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String()


class CreatedOut(Schema):
    id = fields.String()
    version = fields.Integer()
    seats = fields.List(fields.Nested(SeatOut))


class KindOut(Schema):
    kind = fields.String()
    name = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()


class MoveIn(StrictSchema):
    move = fields.Dict(required=True)
    expected_version = fields.Integer(required=True, strict=True,
                                      validate=validate.Range(min=1))

    @validates_schema
    def move_has_type(self, data, **_):
        if not isinstance(data.get("move", {}).get("type"), str):
            raise ValidationError("a move needs a string 'type'", "move")


class MovedOut(Schema):
    version = fields.Integer()


class GameOut(Schema):
    id = fields.String()
    game = fields.String()
    version = fields.Integer()
    seat = fields.Integer()
    to_act = fields.List(fields.Integer())
    view = fields.Dict()
    legal_moves = fields.List(fields.Dict())
    outcome = fields.Dict(allow_none=True)


class HistoryEventOut(Schema):
    version = fields.Integer()
    type = fields.String()
    at = fields.String()
    actor = fields.String()
    text = fields.String()


class HistoryOut(Schema):
    events = fields.List(fields.Nested(HistoryEventOut))


class ErrorOut(Schema):
    error = fields.String(required=True)
    message = fields.String(required=True)
    reason = fields.String()
    version = fields.Integer()
    fields = fields.Dict()


class UndoAnswerIn(StrictSchema):
    accept = fields.Boolean(required=True, truthy={True}, falsy={False})


class RewindIn(StrictSchema):
    to = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class ForkIn(StrictSchema):
    at = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))


class VerifyOut(Schema):
    ok = fields.Boolean()
    events = fields.Integer()
    problem = fields.String()


class AuditOut(Schema):
    ok = fields.Boolean()
    checked = fields.Integer()
    problem = fields.String()
