"""The OpenAPI document of the JSON API, built from the marshmallow schemas."""

from __future__ import annotations

import copy

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, jsonify

from events import history
from games import registry
from service import schemas

bp = Blueprint("openapi", __name__)

GAME = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
IDEMPOTENCY = {"name": "Idempotency-Key", "in": "header", "required": False,
               "description": "Any 1 to 255 visible ASCII characters, new for each request "
                              "and the same for its retries (e.g. a UUID)",
               "schema": {"type": "string", "minLength": 1, "maxLength": 255,
                          "pattern": "^[!-~]+$"}}



_DIVERGENCE = {"type": "object", "nullable": True, "description": "a move: version, seat, "
               "the move, its history line and why it parts (refused, other state, draws)"}
REFOLD_REPORT = {"type": "object", "properties": {
    "id": {"type": "string"}, "played_under": {"type": "string"},
    "rules": {"type": "string"},
    "kept": {"type": "array", "items": {"type": "object"}, "description":
             "rules kept as played before the last migration: [{rules, to}]"},
    "setup_problem": {"type": "string"},
    "options_added": {"type": "object", "description": "options the new rules add, at "
                      "their defaults: not differences"},
    "options_left_out": {"type": "object"},
    "moves": {"type": "integer"}, "total": {"type": "integer"},
    "first": _DIVERGENCE,
    "differences": {"type": "array", "items": {"type": "string"},
                    "description": "played -> refolded, at the first divergence"},
    "more_differences": {"type": "integer"},
    "later": {"type": "integer", "description": "later moves that differ"},
    "later_illegal": {"type": "integer"},
    "illegal": {"type": "array", "items": {"type": "object"}},
    "draws": _DIVERGENCE,
    "final_differences": {"type": "integer"}, "result": {"type": "string"},
    "lines": {"type": "array", "items": {"type": "string"},
              "description": "the report as the CLI and the replay page show it"}}}

def _json(schema: str | dict) -> dict:
    return {"content": {"application/json": {"schema": schema}}}


def _body(schema: str) -> dict:
    return {"required": True, **_json(schema)}


ERRORS = {400: "Malformed input", 401: "No token", 403: "Bad or foreign token",
          404: "No such game", 409: "Stale expected_version",
          413: "The body is larger than the service accepts (MAX_CONTENT_LENGTH)",
          422: "Refused by the rules (the reason says why)",
          429: "Quota used up; the Retry-After header says in how many seconds to retry"}
RETRY_AFTER = {"Retry-After": {"description": "Seconds until the quota allows another try",
                               "schema": {"type": "integer", "minimum": 1}}}


def _errors(*codes: int) -> dict:
    return {str(code): {"description": ERRORS[code], **_json("ErrorOut"),
                        **({"headers": RETRY_AFTER} if code == 429 else {})}
            for code in codes}


def _responses(ok: tuple[int, str, str], *errors: int) -> dict:
    return {str(ok[0]): {"description": ok[1], **_json(ok[2])}, **_errors(*errors)}


def _described(responses: dict, descriptions: dict[int, str]) -> dict:
    """``responses`` with the generic descriptions of some codes replaced."""
    for code, text in descriptions.items():
        responses[str(code)] = {**responses[str(code)], "description": text}
    return responses


def build() -> dict:
    spec = APISpec(title="Ravenpost", version="1.0.0", openapi_version="3.0.3",
                   plugins=[MarshmallowPlugin()],
                   info={"description": "Slow board games by email: the JSON API."})
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for name in ("KindOut", "CreateGameIn", "CreatedOut", "GameOut", "MoveIn", "MovedOut",
                 "HistoryOut", "ErrorOut", "RewindIn", "ForkIn", "VerifyOut", "UndoAnswerIn",
                 "AuditOut", "TokenOut", "MigrateIn", "TimeControlIn", "PlatformIn",
                 "VacationIn", "VacationOut", "MePatchIn", "MeOut"):
        spec.components.schema(name, schema=getattr(schemas, name))
    sec = [{"bearer": []}]
    spec.path("/api/v1/kinds", operations={"get": {
        "summary": "The game kinds on offer", "responses": {"200": {
            "description": "Kinds", "content": {"application/json": {"schema": {
                "type": "array", "items": "KindOut"}}}}}}})
    spec.path("/api/v1/games", operations={"post": {
        "summary": "Create a game and email the invitations",
        "description": "Needs a bearer token: the admin token (no quota; each seat of the "
                       "new game also gets its API token in the answer), or a player's API "
                       "token of an existing game, which may create a limited number of "
                       "games a day (API_CREATE_QUOTA, counted per person, lobby and API "
                       "together; 429 beyond it). "
                       "With an Idempotency-Key, a retry of a request that started its "
                       "game (its answer lost) answers that game again (201, header "
                       "Idempotent-Replayed: true; 409 while it is still being started) "
                       "for 24 hours: nobody is invited twice. The same key with another "
                       "body is refused (422 key_reused) and starts nothing. "
                       "Each player may carry a language, \"en\" or \"de\": that seat's "
                       "emails and game page are in it unless the player chose a language "
                       "in their own settings (left out: their setting, else their "
                       "browser's); any other value is refused (400).",
        "parameters": [IDEMPOTENCY], "requestBody": _body("CreateGameIn"), "security": sec,
        "responses": _described(
            _responses((201, "Created", "CreatedOut"), 400, 401, 403, 409, 413, 422, 429),
            {409: "A request with this Idempotency-Key is still starting its game",
             422: "Options the game refuses, or an Idempotency-Key used with another "
                  "body"})}})
    spec.path("/api/v1/games/{game_id}", operations={"get": {
        "summary": "Your view of the game", "parameters": [GAME], "security": sec,
        "responses": _responses((200, "The game", "GameOut"), 401, 403, 404)}})
    spec.path("/api/v1/games/{game_id}/moves", operations={"post": {
        "summary": "Play a move",
        "description": "Send an Idempotency-Key to retry safely: a retry of a move whose "
                       "answer was lost (a timeout, a 503) finds the move its first try "
                       "made and answers 201 again, with the game as it stands now and "
                       "the header Idempotent-Replayed: true, instead of a 409.",
        "parameters": [GAME, IDEMPOTENCY], "security": sec,
        "requestBody": _body("MoveIn"),
        "responses": _responses((201, "Applied", "MovedOut"), 400, 401, 403, 404, 409, 413,
                                422)}})
    spec.path("/api/v1/games/{game_id}/undo", operations={"post": {
        "summary": "Ask to take back your last move (every other player must agree)",
        "parameters": [GAME], "security": sec,
        "responses": _responses((201, "Requested", "MovedOut"), 401, 403, 404, 409, 413, 422)}})
    spec.path("/api/v1/games/{game_id}/undo/answer", operations={"post": {
        "summary": "Allow or refuse the open take-back request", "parameters": [GAME],
        "security": sec, "requestBody": _body("UndoAnswerIn"),
        "responses": _responses((201, "Answered", "MovedOut"), 400, 401, 403, 404, 409, 413,
                                422)}})
    spec.path("/api/v1/games/{game_id}/token", operations={"post": {
        "summary": "Revoke your API token (every earlier one is refused at once) and get a "
                   "new one", "parameters": [GAME], "security": sec,
        "responses": _responses((201, "The new token", "TokenOut"), 401, 403, 404, 413)}})
    spec.path("/api/v1/games/{game_id}/vacation", operations={"post": {
        "summary": "Declare a vacation in advance: your clock stands while you are away",
        "description": "Drawn from your yearly leave (LEAVE_DAYS_PER_YEAR, across all your "
                       "games; a seat with no address: a day at the start, a day more per 7 "
                       "days of play, at most 14). 422 beyond it, for a 'from' in the past, "
                       "or overlapping a vacation already declared.",
        "parameters": [GAME], "security": sec, "requestBody": _body("VacationIn"),
        "responses": _responses((201, "Declared", "VacationOut"), 400, 401, 403, 404, 409,
                                413, 422)}})
    me_auth = [{"bearer": []}, {"session": []}]
    spec.components.security_scheme("session", {
        "type": "apiKey", "in": "cookie", "name": "session",
        "description": "A signed-in player's browser session (sign in at /sign-in)"})
    spec.path("/api/v1/me", operations={
        "get": {"summary": "Your settings and leave (you: the player of the token's seat, "
                           "or the signed-in session)", "security": me_auth,
                "responses": _responses((200, "You", "MeOut"), 401, 403)},
        "patch": {"summary": "Change some of your settings, or take leave across all your "
                             "games (only you can; a lobby form never does)",
                  "description": "Fields left out stay as they are. 'leave' pauses every "
                                 "clock of yours in every game; 422 beyond your yearly "
                                 "allowance or overlapping leave already taken (then "
                                 "nothing else is changed).",
                  "security": me_auth, "requestBody": _body("MePatchIn"),
                  "responses": _responses((200, "Saved", "MeOut"), 400, 401, 403, 413,
                                          422)}})
    spec.path("/api/v1/me/signout-everywhere", operations={"post": {
        "summary": "Sign out everywhere: every play, move and my-games link, every API token "
                   "(this one too) and every session of yours is refused from now on",
        "security": me_auth,
        "responses": {"200": {"description": "Signed out", **_json({
            "type": "object", "properties": {"signed_out": {"type": "boolean"}}})},
            **_errors(401, 403)}}})
    spec.path("/api/v1/games/{game_id}/back", operations={"post": {
        "summary": "I'm back: the stand-in that took your seat after time-outs in a row "
                   "(on_timeout bot) stops playing for you", "parameters": [GAME],
        "security": sec,
        "responses": _responses((201, "Back", "MovedOut"), 401, 403, 404, 409, 413, 422)}})
    spec.path("/api/v1/games/{game_id}/audit", operations={"get": {
        "summary": "After the game ends: check every shuffle and draw against the revealed "
                   "secret", "parameters": [GAME], "security": sec,
        "responses": _responses((200, "Audit", "AuditOut"), 401, 403, 404)}})
    spec.components.schema("HistoryPageOut", {
        "type": "object", "required": ["events", "next"], "properties": {
            "events": {"type": "array", "description": "Oldest first",
                       "items": {"$ref": "#/components/schemas/HistoryEventOut"}},
            "next": {"type": "integer", "nullable": True, "minimum": 2,
                     "description": "Pass as `before` for the page of older events; null "
                                    "when this page starts at the first event"}}})
    before = {"name": "before", "in": "query", "required": False,
              "description": "Only events before this version (default: up to the latest)",
              "schema": {"type": "integer", "minimum": 1}}
    limit = {"name": "limit", "in": "query", "required": False,
             "description": "Events per page", "schema": {
                 "type": "integer", "minimum": 1, "maximum": history.MAX_PAGE_LIMIT,
                 "default": history.PAGE_LIMIT}}
    spec.path("/api/v1/games/{game_id}/history", operations={"get": {
        "summary": "The log, redacted for you, a page at a time (newest page first)",
        "parameters": [GAME, before, limit], "security": sec,
        "responses": _responses((200, "A page of the history", "HistoryPageOut"), 400, 401,
                                403, 404)}})
    at = {"name": "at", "in": "query", "required": False,
          "schema": {"type": "integer", "minimum": 1}}
    spec.path("/api/v1/admin/games/{game_id}/state", operations={"get": {
        "summary": "Admin: the full state at version N", "parameters": [GAME, at],
        "security": sec,
        "responses": {"200": {"description": "State", **_json({"type": "object"})},
                      **_errors(400, 401, 403, 404)}}})
    spec.path("/api/v1/admin/games/{game_id}/verify", operations={"get": {
        "summary": "Admin: check the hash chain and that the events fold",
        "parameters": [GAME], "security": sec,
        "responses": _responses((200, "Result", "VerifyOut"), 401, 403, 404)}})
    spec.path("/api/v1/admin/games/{game_id}/rewind", operations={"post": {
        "summary": "Admin: rewind to version N (appends Rewound)", "parameters": [GAME],
        "security": sec, "requestBody": _body("RewindIn"),
        "responses": _responses((201, "Rewound", "MovedOut"), 400, 401, 403, 404, 409, 413,
                                422)}})
    spec.path("/api/v1/admin/games/{game_id}/refold", operations={"get": {
        "summary": "Admin: replay the game's moves under another rules version (changes "
                   "nothing): where the versions first part, with the states' differences "
                   "there, how many later moves differ, and where the new rules would "
                   "draw what the recorded draws cannot supply",
        "parameters": [GAME, {"name": "rules", "in": "query", "required": True,
                              "schema": {"type": "string"}}],
        "security": sec,
        "responses": {"200": {"description": "Report", **_json(REFOLD_REPORT)},
                      **_errors(400, 401, 403, 404)}}})
    spec.path("/api/v1/admin/games/{game_id}/migrate", operations={"post": {
        "summary": "Admin: the game plays another rules version from now on (appends "
                   "RulesMigrated)", "parameters": [GAME], "security": sec,
        "requestBody": _body("MigrateIn"),
        "responses": _responses((201, "Migrated", "MovedOut"), 400, 401, 403, 404, 409, 413,
                                422)}})
    spec.path("/api/v1/admin/games/{game_id}/fork", operations={"post": {
        "summary": "Admin: copy events 1..at into a new game", "parameters": [GAME],
        "security": sec, "requestBody": _body("ForkIn"),
        "responses": {"201": {"description": "The new game's id", **_json({
            "type": "object", "properties": {"id": {"type": "string"}}})},
            **_errors(400, 401, 403, 404, 413, 422)}}})
    # resign and table votes (events.votes)
    for name in ("ResignIn", "VoteIn", "VoteOut", "VotedOut"):
        spec.components.schema(name, schema=getattr(schemas, name))
    spec.path("/api/v1/games/{game_id}/resign", operations={"post": {
        "summary": "Resign: the game ends at once, the result says who resigned",
        "description": "Appends one GameEnded (early: \"resigned\"). With two players the "
                       "other wins; with more, the resigner ranks last and the others by "
                       "the game's public scores at that moment where the game has them "
                       "(else equal): see the game's RULES.md, \"Resigning and votes\". "
                       "The body is optional; with `expected_version` the resignation is "
                       "refused (409) if the game changed since (reminders aside). After "
                       "the end (a second resignation included): 422.",
        "parameters": [GAME], "security": sec,
        "requestBody": {"required": False, **_json("ResignIn")},
        "responses": _responses((201, "Resigned: the game is over", "VotedOut"), 400, 401,
                                403, 404, 409, 413, 422)}})
    spec.path("/api/v1/games/{game_id}/votes", operations={
        "get": {"summary": "The latest vote to abandon or end the game early, open or "
                           "not (`status`); null if none was called",
                "parameters": [GAME], "security": sec,
                "responses": _responses((200, "The latest vote", "VotedOut"), 401, 403,
                                        404)},
        "post": {
            "summary": "Vote to abandon the game or to end it early",
            "description": "With no open vote, `accept: true` calls one (your yes); "
                           "otherwise it answers the open vote, which must be of the same "
                           "kind. `abandon` needs every player and ends with no winner; "
                           "`end` needs a majority (more than half of the seats) and ends "
                           "with the current public scores deciding. One refusal ends a "
                           "vote. A vote expires VOTE_HOURS (default 72) after it was "
                           "called: an answer after that finds no open vote (a yes calls a "
                           "new one). The yes that carries a vote ends the game (the answer's "
                           "`outcome`). With `expected_version`, refused (409) if the game or "
                           "the votes changed since.",
            "parameters": [GAME], "security": sec, "requestBody": _body("VoteIn"),
            "responses": _responses((201, "Recorded", "VotedOut"), 400, 401, 403, 404, 409,
                                    413, 422)}})
    # table talk (events.talk)
    for name in ("MessageIn", "MessageOut", "MessagesOut"):
        spec.components.schema(name, schema=getattr(schemas, name))
    after = {"name": "after", "in": "query", "required": False,
             "description": "Only messages after this version (default 0: all)",
             "schema": {"type": "integer", "minimum": 0}}
    spec.path("/api/v1/games/{game_id}/messages", operations={
        "get": {"summary": "The messages at the table, oldest first",
                "description": "Public to every seat. A message the admin hid has "
                               "`hidden: true` and `text: null`.",
                "parameters": [GAME, after], "security": sec,
                "responses": _responses((200, "The messages", "MessagesOut"), 400, 401,
                                        403, 404)},
        "post": {"summary": "Write a message to the whole table",
                 "description": "Appends a `Said` event: every seat reads it, no email is "
                                "sent for it, and it leaves the game as it is (a move "
                                "decided on the version before it still goes through). "
                                "At most TALK_LIMIT_PER_SEAT messages per seat (default 20 "
                                "an hour, 100 a day; 429 beyond); a refused message does "
                                "not count.",
                 "parameters": [GAME], "security": sec, "requestBody": _body("MessageIn"),
                 "responses": _described(
                     _responses((201, "Sent", "MessageOut"), 400, 401, 403, 404, 413, 422,
                                429),
                     {422: "The text is empty or longer than 500 characters (the reason "
                           "says which)"})}})
    doc = spec.to_dict()
    # options carries the platform's settings next to the game's own (see PlatformIn)
    doc["components"]["schemas"]["CreateGameIn"]["properties"]["options"][
        "additionalProperties"] = True
    doc["components"]["schemas"]["CreateGameIn"]["properties"]["options"]["properties"] = \
        copy.deepcopy(doc["components"]["schemas"]["PlatformIn"]["properties"])
    # the kinds on offer are known only at run time
    doc["components"]["schemas"]["CreateGameIn"]["properties"]["game"]["enum"] = list(
        registry.KINDS)
    return doc


@bp.get("/api/openapi.json")
def openapi_json():
    return jsonify(build())
