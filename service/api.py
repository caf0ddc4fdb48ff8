"""JSON API v1 (OpenAPI at /api/openapi.json), authenticated by bearer tokens."""

from __future__ import annotations

import json

from flask import Blueprint, jsonify, request
from marshmallow import Schema

from events import history
from events.audit import audit_tapes
from events.replay import Table
from games import registry
from service import limits, schemas
from service.auth import bearer, is_admin, player
from service.current import after_append, rt
from service.errors import ApiError
from service.links import Link

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def body(schema: Schema) -> dict:
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError(400, "bad_request", "The body must be a JSON object "
                       "(Content-Type: application/json).")
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "The body must be a JSON object.")
    try:  # JSON may escape lone surrogates, which no store or email can carry
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "bad_request", "The body holds text that is not valid Unicode.") \
            from None
    return schema.load(data)


def create_game(data: dict) -> Table:
    """Create a game from validated input and remember its seats and settings."""
    runtime = rt()
    table = runtime.games.create(data["game"], data["players"], data["options"])
    runtime.store.put_json(table.game_id, "settings",
                           {"deadline_hours": data.get("deadline_hours")})
    after_append(table.game_id, table.version)
    return table


def game_json(table: Table, seat: int) -> dict:
    game = table.game
    to_act = table.to_act()
    return {
        "id": table.game_id, "game": table.kind, "version": table.version, "seat": seat,
        "to_act": sorted(to_act), "view": game.view(table.state, seat),
        "legal_moves": game.legal_moves(table.state, seat) if seat in to_act else [],
        "outcome": table.outcome() if table.ended else None,
    }


@bp.get("/kinds")
def kinds():
    return jsonify([{"kind": g.kind, "name": g.name, "min_players": g.min_players,
                     "max_players": g.max_players} for g in registry.kinds()])


def creator() -> Link | None:
    """Who may create a game: the admin (None) or a player of an existing game (its seat).

    Anyone else gets 401 (no token) or 403: a game emails every address it is given, so
    nobody without a stake in the service may make it do that.
    """
    token = bearer()
    if not token:
        raise ApiError(401, "unauthorized", "Creating a game needs a bearer token: the admin "
                       "token, or the API token of a seat in one of your games.")
    if is_admin():
        return None
    link = player(rt().links.check(token, "api").game_id)  # revoked tokens are refused
    if not rt().store.exists(link.game_id):
        raise ApiError(403, "forbidden", "That token's game does not exist.")
    return link


@bp.post("/games")
def post_game():
    link = creator()
    data = body(schemas.CreateGameIn())
    if link is not None:
        limits.take_creator_quota(link.game_id, link.seat)
    table = create_game(data)
    admin = link is None
    seats = []
    for seat, name in enumerate(table.names):
        entry = {"seat": seat, "name": name}
        if admin:
            entry["token"] = rt().links.make(table.game_id, seat, "api")
        seats.append(entry)
    return jsonify({"id": table.game_id, "version": table.version, "seats": seats}), 201


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    link = player(game_id)
    return jsonify(game_json(rt().games.load(game_id), link.seat))


@bp.post("/games/<game_id>/moves")
def post_move(game_id: str):
    link = player(game_id)
    data = body(schemas.MoveIn())
    event = rt().games.play(game_id, link.seat, data["move"], data["expected_version"])
    after_append(game_id, event.version)
    return jsonify({"version": rt().store.version(game_id)}), 201


@bp.post("/games/<game_id>/undo")
def post_undo(game_id: str):
    link = player(game_id)
    event = rt().games.request_undo(game_id, link.seat)
    after_append(game_id, event.version)
    return jsonify({"version": rt().store.version(game_id)}), 201


@bp.post("/games/<game_id>/undo/answer")
def post_undo_answer(game_id: str):
    link = player(game_id)
    data = body(schemas.UndoAnswerIn())
    event = rt().games.answer_undo(game_id, link.seat, data["accept"])
    after_append(game_id, event.version)
    return jsonify({"version": rt().store.version(game_id)}), 201


@bp.get("/games/<game_id>/audit")
def get_audit(game_id: str):
    """After the game: re-derive every draw from the revealed secret."""
    player(game_id)
    result = audit_tapes(rt().store, game_id)
    return jsonify({"ok": result.ok, "checked": result.checked, "problem": result.problem})


@bp.get("/games/<game_id>/history")
def get_history(game_id: str):
    link = player(game_id)
    return jsonify({"events": history_lines(game_id, link.seat)})


def history_lines(game_id: str, seat: int | None) -> list[dict]:
    table = rt().games.load(game_id)
    return history.lines(rt().store, game_id, table.game, table.names, seat)
