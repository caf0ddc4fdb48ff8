"""JSON API v1 (OpenAPI at /api/openapi.json), authenticated by bearer tokens."""

from __future__ import annotations

import hmac

from flask import Blueprint, current_app, jsonify, request
from marshmallow import Schema

from events.history import describe
from events.replay import Table
from games import registry
from service import schemas
from service.current import after_append, rt
from service.errors import ApiError
from service.links import Link

bp = Blueprint("api", __name__, url_prefix="/api/v1")
admin_bp = Blueprint("admin", __name__, url_prefix="/api/v1/admin")


def _body(schema: Schema) -> dict:
    data = request.get_json(silent=True)
    if data is None:
        raise ApiError(400, "bad_request", "The body must be a JSON object "
                       "(Content-Type: application/json).")
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "The body must be a JSON object.")
    return schema.load(data)


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def is_admin() -> bool:
    expected = current_app.config.get("ADMIN_TOKEN")
    given = _bearer()
    return bool(expected and given and hmac.compare_digest(given, expected))


def require_admin() -> None:
    if not _bearer():
        raise ApiError(401, "unauthorized", "This needs the admin token as a bearer token.")
    if not is_admin():
        raise ApiError(403, "forbidden", "That is not the admin token.")


def player(game_id: str) -> Link:
    """The seat whose API token came with the request, for this game."""
    token = _bearer()
    if not token:
        raise ApiError(401, "unauthorized", "Send your player token as 'Authorization: Bearer'.")
    link = rt().links.check(token, "api")
    if link.game_id != game_id:
        raise ApiError(403, "forbidden", "That token is for another game.")
    return link


def create_game(data: dict) -> Table:
    """Create a game from validated input and remember its seats and settings."""
    runtime = rt()
    table = runtime.games.create(data["game"], data["players"], data["options"])
    runtime.store.put_json(table.game_id, "settings",
                           {"deadline_hours": data.get("deadline_hours")})
    seats = runtime.store.get_json(table.game_id, "seats")
    for seat, p in zip(seats, data["players"], strict=True):
        seat["tz"] = p.get("tz", "UTC")
    runtime.store.put_json(table.game_id, "seats", seats)
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


@bp.post("/games")
def post_game():
    data = _body(schemas.CreateGameIn())
    table = create_game(data)
    admin = is_admin()
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
    data = _body(schemas.MoveIn())
    event = rt().games.play(game_id, link.seat, data["move"], data["expected_version"])
    after_append(game_id, event.version)
    return jsonify({"version": rt().store.version(game_id)}), 201


@bp.get("/games/<game_id>/history")
def history(game_id: str):
    link = player(game_id)
    return jsonify({"events": history_lines(game_id, link.seat)})


def history_lines(game_id: str, seat: int | None) -> list[dict]:
    runtime = rt()
    table = runtime.games.load(game_id)
    return [{"version": e.version, "type": e.type, "at": e.at, "actor": e.actor,
             "text": describe(e, table.game, table.names, seat)}
            for e in runtime.store.iter(game_id)]


# -- admin -----------------------------------------------------------------------------
@admin_bp.before_request
def _admin_only() -> None:
    require_admin()


@admin_bp.get("/games/<game_id>/state")
def admin_state(game_id: str):
    at = request.args.get("at", type=int)
    table = rt().games.load(game_id, at=at)
    return jsonify({"id": game_id, "game": table.kind, "version": table.version,
                    "names": table.names, "to_act": sorted(table.to_act()),
                    "ended": table.ended, "state": table.state,
                    "outcome": table.outcome()})


@admin_bp.get("/games/<game_id>/verify")
def admin_verify(game_id: str):
    ok, count, problem = rt().store.verify(game_id)
    if count == 0:
        raise ApiError(404, "not_found", "There is no such game.")
    if ok:  # the chain holds; check that the events also fold
        try:
            rt().games.replayer.load(game_id, use_snapshot=False)
        except Exception as exc:  # a fold failure is what verify exists to report
            ok, problem = False, f"the events do not fold: {exc}"
    return jsonify({"ok": ok, "events": count, "problem": problem})


@admin_bp.post("/games/<game_id>/rewind")
def admin_rewind(game_id: str):
    data = _body(schemas.RewindIn())
    event = rt().games.rewind(game_id, data["to"], data["reason"], "admin")
    after_append(game_id, event.version)
    return jsonify({"version": event.version}), 201


@admin_bp.post("/games/<game_id>/fork")
def admin_fork(game_id: str):
    data = _body(schemas.ForkIn())
    if not rt().store.exists(game_id):
        raise ApiError(404, "not_found", "There is no such game.")
    new_id = rt().games.fork(game_id, data["at"], "admin")
    after_append(new_id, rt().store.version(new_id))
    return jsonify({"id": new_id}), 201


@admin_bp.get("/games/<game_id>/history")
def admin_history(game_id: str):
    return jsonify({"events": history_lines(game_id, None)})

