"""Admin tools: the JSON admin API and the replay pages for people.

The JSON API takes the admin token as a bearer token; the pages take it once in a
sign-in form and keep the sign-in in the (signed) session cookie.
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, request, session, url_for

from events import envelope as ev
from events import history
from events.audit import audit_tapes
from service import schemas
from service.api import body
from service.auth import admin_session, is_admin_token, require_admin
from service.current import after_append, rt
from service.errors import ApiError

api_bp = Blueprint("admin_api", __name__, url_prefix="/api/v1/admin")
bp = Blueprint("admin", __name__, url_prefix="/admin")


# -- JSON API (bearer ADMIN_TOKEN) -------------------------------------------------------
@api_bp.before_request
def _admin_only() -> None:
    require_admin()


@api_bp.get("/games/<game_id>/state")
def admin_state(game_id: str):
    at = request.args.get("at", type=int)
    if at is not None and at < 1:
        raise ApiError(400, "bad_request", "'at' is a version number, 1 or more.")
    table = rt().games.load(game_id, at=at)
    return jsonify({"id": game_id, "game": table.kind, "version": table.version,
                    "names": table.names, "to_act": sorted(table.to_act()),
                    "ended": table.ended, "state": table.state,
                    "outcome": table.outcome()})


@api_bp.get("/games/<game_id>/verify")
def admin_verify(game_id: str):
    ok, count, problem = rt().games.verify(game_id)
    if count == 0:
        raise ApiError(404, "not_found", "There is no such game.")
    if ok and rt().games.load(game_id).ended:  # the secret is out: check every draw too
        tapes = audit_tapes(rt().store, game_id)
        ok, problem = tapes.ok, tapes.problem
    return jsonify({"ok": ok, "events": count, "problem": problem})


@api_bp.post("/games/<game_id>/rewind")
def admin_rewind(game_id: str):
    data = body(schemas.RewindIn())
    event = rt().games.rewind(game_id, data["to"], data["reason"], "admin")
    after_append(game_id, event.version)
    return jsonify({"version": event.version}), 201


@api_bp.post("/games/<game_id>/fork")
def admin_fork(game_id: str):
    data = body(schemas.ForkIn())
    if not rt().store.exists(game_id):
        raise ApiError(404, "not_found", "There is no such game.")
    new_id = rt().games.fork(game_id, data["at"], "admin")
    after_append(new_id, rt().store.version(new_id))
    return jsonify({"id": new_id}), 201


@api_bp.get("/games/<game_id>/history")
def admin_history(game_id: str):
    table = rt().games.load(game_id)
    return jsonify({"events": history.lines(rt().store, game_id, table.game, table.names,
                                            None)})


# -- pages for people ---------------------------------------------------------------------
@bp.before_request
def _signed_in() -> None:
    if request.endpoint not in ("admin.sign_in",) and not admin_session():
        return redirect(url_for("admin.sign_in", next=request.path))
    return None


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    error = None
    if request.method == "POST":
        if is_admin_token(request.form.get("token")):
            session["admin"] = True
            target = request.args.get("next", "")
            safe = target.startswith(("/admin", "/dev/mail")) and not target.startswith("//")
            return redirect(target if safe else url_for("admin.index"))
        error = "That is not the admin token." if rt().config.get("ADMIN_TOKEN") else \
            "This server has no ADMIN_TOKEN set, so the admin pages are off."
    return render_template("admin/sign_in.html", error=error), 401 if error else 200


@bp.post("/sign-out")
def sign_out():
    session.pop("admin", None)
    return redirect(url_for("lobby.index"))


@bp.get("/")
def index():
    runtime = rt()
    ids = runtime.store.game_ids(limit=200)
    summaries = [runtime.store.get_json(g, "summary") or {"id": g} for g in ids]
    return render_template("admin/index.html", games=summaries)


@bp.get("/games/<game_id>")
def replay(game_id: str):
    """The game at any version, as a spectator sees it, with the full log and tools."""
    runtime = rt()
    last = runtime.store.version(game_id)
    if last == 0:
        abort(404, "There is no such game.")
    at = min(max(request.args.get("at", last, type=int), 1), last)
    table = runtime.games.load(game_id, at=at)
    events = runtime.store.read(game_id)
    ok, count, problem = runtime.games.verify(game_id) if request.args.get("verify") else (
        None, last, "")
    return render_template(
        "admin/game.html", table=table, game=table.game, at=at, last=last, events=events,
        view=table.game.view(table.state, None), seat=None, names=table.names,
        seats=runtime.games.seats(game_id), verified=ok, problem=problem,
        lines={e["version"]: e["text"] for e in history.lines(
            runtime.store, game_id, table.game, table.names, None)})


@bp.post("/games/<game_id>/rewind")
def rewind_page(game_id: str):
    to = request.form.get("to", type=int)
    if to is None:
        abort(400, "Say which version to rewind to.")
    event = rt().games.rewind(game_id, to, request.form.get("reason", ""), "admin")
    after_append(game_id, event.version)
    return redirect(url_for("admin.replay", game_id=game_id))


@bp.post("/games/<game_id>/note")
def note_page(game_id: str):
    text = (request.form.get("text") or "").strip()[:2000]
    if not text:
        abort(400, "Write the note first.")
    event = rt().games.record(game_id, ev.ADMIN_NOTE, {"text": text}, actor="admin")
    after_append(game_id, event.version)
    return redirect(url_for("admin.replay", game_id=game_id))


@bp.post("/games/<game_id>/fork")
def fork_page(game_id: str):
    at = request.form.get("at", type=int)
    if at is None:
        abort(400, "Say at which version to fork.")
    new_id = rt().games.fork(game_id, at, "admin")
    after_append(new_id, rt().store.version(new_id))
    return redirect(url_for("admin.replay", game_id=new_id))

