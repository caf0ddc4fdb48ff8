"""Marshmallow schemas at the edges: what the JSON API accepts and returns."""

from __future__ import annotations

import math
import unicodedata
from datetime import UTC
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from marshmallow import (
    RAISE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)

from events import clocks, talk
from games.text import T
from games.text import Text as Said

# Messages people may meet in the lobby are games.text Texts (``T``): English strings, as
# the API has always answered, that a page says again in its reader's language.


class _SaidAsGiven:
    """A validator whose ``error`` is a Text keeps it as it is (marshmallow would make a
    plain ``str`` of it with ``str.format``), so a page can still translate it."""

    error: object

    def _format_error(self, value, message):
        if isinstance(self.error, Said):
            return self.error
        return super()._format_error(value, message)  # type: ignore[misc]


class Range(_SaidAsGiven, validate.Range):
    pass


class Length(_SaidAsGiven, validate.Length):
    pass


class StrictSchema(Schema):
    class Meta:
        unknown = RAISE


class JsonBool(fields.Boolean):
    """A JSON ``true`` or ``false`` only (marshmallow's Boolean takes 1, 0 and "yes")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class JsonNumber(fields.Float):
    """A JSON number only (marshmallow's Float also takes its text, "1", and booleans)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


# Bidi controls that can reorder what a reader sees (all of them are also category Cf).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                          "\u200e\u200f\u061c")
# Joiners some scripts need inside words (Persian, Indic); they move nothing around.
JOINERS = frozenset("\u200c\u200d")
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def refused_character(text: str) -> str | None:
    """The first character of ``text`` that may not appear in a name or a header value.

    Controls (Cc: CR, LF, NUL, tab...), format characters (Cf, which include the bidi
    overrides and isolates), surrogates, private-use and unassigned code points, and line
    or paragraph separators: each could break an email header or disguise a name.
    """
    for char in text:
        if char in BIDI_CONTROLS:
            return char
        if char not in JOINERS and unicodedata.category(char) in REFUSED_CATEGORIES:
            return char
    return None


class Text(fields.String):
    """Text a person typed that may reach an email header: NFC, stripped, 1..max
    characters, no control, format or bidi characters, not blank."""

    def __init__(self, *args, max_length: int = 40, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.max_length = max_length
        self.metadata.setdefault("minLength", 1)  # for the OpenAPI document
        self.metadata.setdefault("maxLength", max_length)

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        bad = refused_character(text)
        if bad is not None:
            raise ValidationError(T("must not contain the character U+%(code)s (control, "
                                    "format, bidi or line-break characters)",
                                    code=f"{ord(bad):04X}"))
        text = unicodedata.normalize("NFC", text).strip()
        if not text:
            raise ValidationError(T("must not be empty or only spaces"))
        if len(text) > self.max_length:
            raise ValidationError(T("must be at most %(n)s characters", n=self.max_length))
        return text


class Address(Text):
    """An email address: the checks of :class:`Text`, then marshmallow's email check."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, max_length=254, **kwargs)
        self.metadata.setdefault("format", "email")

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            validate.Email()(text)
        except ValidationError:
            raise ValidationError(T("not a valid email address")) from None
        return text


def _time_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(T("unknown time zone %(name)s (use e.g. 'Europe/Paris')",
                                name=repr(name))) from exc


LANGUAGES = ("en", "de")  # what a seat may be given (worker.players.LANGUAGES)


class PlayerIn(StrictSchema):
    name = Text(required=True)
    email = Address(required=True)
    tz = Text(load_default="UTC", max_length=64, validate=_time_zone)
    language = fields.String(validate=validate.OneOf(
        LANGUAGES, error=T("must be one of the languages listed (en, de)")), metadata={
        "description": "the language of this seat's emails and game page (en, de) unless "
                       "its player chose one in their own settings; left out: the "
                       "player's setting, else their browser's language"})


MAX_CLOCK_HOURS = 24 * 365  # a year: beyond that a clock means nothing in a game
MIN_CLOCK_HOURS = 1 / 3600  # a second: tests and demos use clocks of a few seconds


def _hours(minimum: float = MIN_CLOCK_HOURS, example: int = 72, **kwargs) -> fields.Float:
    """A number of hours from ``minimum`` (a second by default, else 0) to a year; the
    error says so in words, with ``example``."""
    most = f"{MAX_CLOCK_HOURS:g}"
    error = T("must be a positive number, e.g. %(example)s (at most %(most)s hours)",
              example=example, most=most) if minimum > 0 else \
        T("must be 0 or a positive number, e.g. %(example)s (at most %(most)s hours)",
          example=example, most=most)
    return JsonNumber(validate=Range(min=minimum, max=MAX_CLOCK_HOURS, error=error), **kwargs)


class TimeControlIn(StrictSchema):
    """A game's time control (see events.clocks); fractional hours allowed."""

    kind = fields.String(required=True, validate=validate.OneOf(clocks.KINDS))
    hours = _hours(metadata={"description": "per_move: the time for each turn"})
    bank_hours = _hours(example=48,
                        metadata={"description": "bank: each seat's bank at the start"})
    increment_hours = _hours(0, 12, metadata={"description": "bank: added when a turn ends"})
    cap_hours = _hours(example=96, metadata={"description": "bank: the most a bank may hold"})

    @validates_schema
    def complete(self, data, **_):
        kind = data.get("kind")
        if kind == "per_move" and "hours" not in data:
            raise ValidationError(T("must be a positive number, e.g. 72 (a per_move time "
                                    "control needs 'hours')"), "hours")
        if kind == "bank" and "bank_hours" not in data:
            raise ValidationError(T("must be a positive number, e.g. 48 (a bank time "
                                    "control needs 'bank_hours')"), "bank_hours")
        if kind == "bank" and data.get("cap_hours", math.inf) < data.get("bank_hours", 0):
            raise ValidationError(T("cap_hours must be at least bank_hours"), "cap_hours")
        if kind != "bank":
            extra = sorted({"bank_hours", "increment_hours", "cap_hours"} & set(data))
            if extra:
                raise ValidationError(T("only a bank time control takes %(field)s",
                                        field=extra[0]), extra[0])
        if kind == "none" and "hours" in data:
            raise ValidationError(T("a time control of kind none takes no hours"), "hours")


class RemindersIn(StrictSchema):
    """When reminders go out: at these fractions of a turn's time left, and these
    hours before the deadline (defaults: half, a quarter, and 24 hours)."""

    fractions = fields.List(JsonNumber(validate=Range(
        min=0, max=1, min_inclusive=False, max_inclusive=False,
        error=T("must be more than 0 and less than 1, e.g. 0.5"))),
        validate=Length(max=6, error=T("at most 6 of them")))
    hours_before = fields.List(_hours(example=24),
                               validate=Length(max=6, error=T("at most 6 of them")))


class PlatformIn(StrictSchema):
    """What ``options`` may carry besides the game's own options."""

    time_control = fields.Nested(TimeControlIn)
    on_timeout = fields.String(validate=validate.OneOf(clocks.POLICIES))
    bot_after = fields.Integer(strict=True, validate=Range(
        min=1, max=20, error=T("must be a whole number from 1 to 20")), metadata={
        "description": "on_timeout bot: time-outs in a row before the stand-in takes the "
                       "seat (default 2)"})
    reminders = fields.Nested(RemindersIn)


PLATFORM_OPTIONS = tuple(PlatformIn._declared_fields)


MAX_PLAYERS = 12
NO_PLAYERS = T("Fill in at least one player: a name and an email address")


class CreateGameIn(StrictSchema):
    game = Text(required=True, max_length=64)
    players = fields.List(fields.Nested(PlayerIn), required=True, validate=[
        Length(min=1, error=NO_PLAYERS),
        Length(max=MAX_PLAYERS, error=T("at most %(n)s players", n=MAX_PLAYERS))])
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "The game's options, and the platform's: time_control, on_timeout, "
                       "bot_after, reminders (see PlatformIn)"})
    deadline_hours = fields.Integer(load_default=None, allow_none=True,
                                    validate=validate.Range(min=1, max=24 * 60))

    @validates_schema
    def distinct_names(self, data, **_):
        """Every player's name differs from the others' (ignoring case; the names are
        already trimmed): the pages and emails tell the seats apart by name."""
        seen: dict[str, int] = {}
        for index, player in enumerate(data.get("players") or []):
            folded = player["name"].casefold()
            if folded in seen:
                raise ValidationError({"players": {index: {"name": [
                    T("%(name)s is already the name of player %(other)s: give each player "
                      "a different name", name=repr(player["name"]),
                      other=seen[folded] + 1)]}}})
            seen[folded] = index

    @post_load
    def split_platform(self, data, **_):
        """Take the platform's settings out of ``options`` (the game sees only its own),
        into ``platform``; errors name the field, e.g. ``options.time_control.kind``."""
        options = dict(data["options"])
        given = {name: options.pop(name) for name in PLATFORM_OPTIONS if name in options}
        try:
            platform = PlatformIn().load(given)
        except ValidationError as exc:
            raise ValidationError({"options": exc.messages}) from None
        if data.get("deadline_hours") and "time_control" in platform:
            raise ValidationError(T("give either deadline_hours or options.time_control"),
                                  "deadline_hours")
        return {**data, "options": options, "platform": platform}


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


FORCED_PENDING = (
    "true while this seat is in to_act only for a move the service is about to play for it "
    "(its only legal move, which draws and shows nothing, with the seat's forced moves on): "
    "legal_moves then holds that one move, and the position moves on without the client; "
    "a client should wait and read the game again rather than play it")


class MovedOut(Schema):
    version = fields.Integer()
    to_act = fields.List(fields.Integer())  # after a move: the new position, for the mover
    forced_move_pending = fields.Boolean(metadata={"description": FORCED_PENDING})
    view = fields.Dict()
    outcome = fields.Dict(allow_none=True)


class GameOut(Schema):
    id = fields.String()
    game = fields.String()
    version = fields.Integer()
    seat = fields.Integer()
    to_act = fields.List(fields.Integer())
    view = fields.Dict()
    legal_moves = fields.List(fields.Dict())
    forced_move_pending = fields.Boolean(metadata={"description": FORCED_PENDING})
    outcome = fields.Dict(allow_none=True)
    clocks = fields.Dict(keys=fields.String(), values=fields.Float(allow_none=True), metadata={
        "description": "seat -> seconds left on its clock (empty: no time control): the "
                       "running turn's, a bank's, or what a per-move turn starts with"})
    away = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "seat -> the end (ISO 8601, UTC) of its vacation under way or "
                       "next to come"})


class VacationIn(StrictSchema):
    from_ = fields.AwareDateTime(data_key="from", required=True, default_timezone=UTC,
                                 metadata={"description": "ISO 8601; UTC if no offset"})
    until = fields.AwareDateTime(required=True, default_timezone=UTC)


class VacationOut(Schema):
    version = fields.Integer()
    seat = fields.Integer()
    from_ = fields.String(data_key="from")
    until = fields.String()


class HistoryEventOut(Schema):
    version = fields.Integer()
    type = fields.String()
    at = fields.String()
    actor = fields.String()
    text = fields.String()
    undone = fields.Boolean()  # a later Rewound cut this change off (events.history)


class HistoryOut(Schema):
    events = fields.List(fields.Nested(HistoryEventOut))


class ErrorOut(Schema):
    error = fields.String(required=True)
    message = fields.String(required=True)
    reason = fields.String()
    version = fields.Integer()
    retry_after = fields.Integer()
    fields = fields.Dict()


class UndoAnswerIn(StrictSchema):
    accept = fields.Boolean(required=True, truthy={True}, falsy={False})


class RewindIn(StrictSchema):
    to = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class MigrateIn(StrictSchema):
    rules = fields.String(required=True, validate=validate.Length(min=1, max=20))
    expected_version = fields.Integer(load_default=None, strict=True,
                                      validate=validate.Range(min=1, max=2**53))


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


class TokenOut(Schema):
    token = fields.String()


class ResignIn(StrictSchema):
    """The body of a resignation (optional): the version the player decided on."""

    expected_version = fields.Integer(load_default=None, strict=True,
                                      validate=validate.Range(min=1, max=2**53))


class VoteIn(StrictSchema):
    """A vote: a yes with no vote open calls one; else it answers the open vote."""

    kind = fields.String(required=True, validate=validate.OneOf(
        ("abandon", "end"), error="must be 'abandon' or 'end'"))
    accept = JsonBool(required=True)
    expected_version = fields.Integer(load_default=None, strict=True,
                                      validate=validate.Range(min=1, max=2**53))


class VoteOut(Schema):
    version = fields.Integer(metadata={"description": "The version of its VoteCalled"})
    kind = fields.String(metadata={"enum": ["abandon", "end"]})
    seat = fields.Integer(metadata={"description": "Who called it"})
    called_at = fields.String()
    expires = fields.String()
    status = fields.String(metadata={"enum": ["open", "refused", "expired"]})
    needed = fields.Integer(metadata={"description": "Yes votes that carry it"})
    answers = fields.Dict(keys=fields.String(), values=fields.Boolean())
    waiting = fields.List(fields.Integer())


class VotedOut(Schema):
    version = fields.Integer()
    vote = fields.Nested(VoteOut, allow_none=True)
    outcome = fields.Dict(allow_none=True)


# -- the player's own settings (/api/v1/me) ------------------------------------------------
class LeaveIn(StrictSchema):
    from_ = fields.AwareDateTime(data_key="from", required=True, default_timezone=UTC,
                                 metadata={"description": "ISO 8601; UTC if no offset"})
    until = fields.AwareDateTime(required=True, default_timezone=UTC)


class MePatchIn(StrictSchema):
    """Any of the player's settings; the ones left out stay as they are."""

    zone = fields.String(validate=validate.Length(max=64),
                         metadata={"description": "IANA time zone, e.g. Europe/Berlin"})
    quiet = fields.String(validate=validate.Regexp(r"^(off|\d{1,2}-\d{1,2})$"),
                          metadata={"description": "local hours like 22-8, or off"})
    language = fields.String(allow_none=True, validate=validate.OneOf(["en", "de"]))
    digest = fields.Integer(allow_none=True, validate=validate.Range(0, 23),
                            metadata={"description": "local hour of the daily digest; "
                                                     "null: one email per turn"})
    forced = fields.Boolean(metadata={"description": "play my only move for me (new games)"})
    confirm_replies = fields.Boolean(metadata={
        "description": "confirm by email each move made by replying to an email"})
    channels = fields.List(fields.String(validate=validate.Length(max=500)),
                           validate=validate.Length(max=5),
                           metadata={"description": "Apprise notification URLs"})
    leave = fields.Nested(LeaveIn, metadata={"description": "take leave across all games"})


class LeaveOut(Schema):
    days_allowed = fields.Float()
    days_taken = fields.Float()
    days_left = fields.Float()
    periods = fields.List(fields.Dict())


class MeOut(Schema):
    address = fields.String()
    verified = fields.Boolean()
    zone = fields.String(allow_none=True)
    quiet = fields.String()
    language = fields.String(allow_none=True)
    digest = fields.Integer(allow_none=True)
    forced = fields.Boolean()
    confirm_replies = fields.Boolean()
    channels = fields.List(fields.String())
    leave = fields.Nested(LeaveOut)


# -- table talk (events.talk) --------------------------------------------------------------
class MessageIn(StrictSchema):
    """A message to the table.  Its length and content are judged by events.talk.clean
    (422 with the reason), so the page, the API and email replies refuse the same."""

    text = fields.String(required=True, metadata={
        "maxLength": talk.MAX_CHARS, "description": "Plain text (no markup), at most "
        f"{talk.MAX_CHARS} characters after surrounding spaces are stripped; line breaks "
        "are kept (at most one blank line in a row), control and bidi characters are "
        "dropped"})


class MessageOut(Schema):
    version = fields.Integer(metadata={"description": "The version of its Said event"})
    seat = fields.Integer()
    name = fields.String()
    text = fields.String(allow_none=True, metadata={"description": "null once hidden"})
    at = fields.String(metadata={"description": "ISO 8601, UTC"})
    via = fields.String(metadata={"enum": ["page", "api", "email"]})
    hidden = fields.Boolean(metadata={"description": "hidden by the admin"})


class MessagesOut(Schema):
    messages = fields.List(fields.Nested(MessageOut), metadata={"description": "Oldest first"})
