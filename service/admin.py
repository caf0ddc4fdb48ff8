"""Admin tools: the JSON admin API and the replay pages for people.

The JSON API takes the admin token as a bearer token; the pages take it once in a
sign-in form and then keep a server-side session: a random id in the (signed) session
cookie, and under ``rp:admin-session:<sha256 of the id>`` in Redis a fingerprint of the
admin token it was opened with and its start time.  A session ends at sign-out (the key
is deleted, so a replayed cookie finds nothing), after ``ADMIN_SESSION_IDLE`` seconds
unused (the key's TTL), ``ADMIN_SESSION_MAX_AGE`` seconds after sign-in whatever its use,
and as soon as ``ADMIN_TOKEN`` changes (the fingerprint no longer matches).

Admin-token tries, in the form or as a bearer token, are throttled without ever locking
the real admin out.  The token is compared first (in constant time); the right one always
gets in, whatever the counters say, and is not counted.  A wrong one is counted (an atomic
INCR, so a burst of parallel guesses cannot all be answered within the bound) in three
counters whose window starts at their first wrong try:

- per client address and token prefix (the first 4 characters tried, kept in Redis only
  as an HMAC under SECRET_KEY): ``ADMIN_SIGN_IN_ATTEMPTS`` in ``ADMIN_SIGN_IN_WINDOW``;
- per client address: ``ADMIN_SIGN_IN_ADDRESS_ATTEMPTS`` in ``ADMIN_SIGN_IN_WINDOW``;
- over all addresses: ``ADMIN_SIGN_IN_GLOBAL_ATTEMPTS`` in ``ADMIN_SIGN_IN_GLOBAL_WINDOW``.

A wrong token past any of them is answered 429 with Retry-After (the longest wait of the
counters it is past) instead of 401/403.  So a guesser behind the admin's NAT, or anyone
flooding the global counter, slows down nobody but guessers; the price is that the
counters bound the answers wrong guesses get, not the chance of guessing the token, which
therefore must be long and random (``config.check`` wants 32 characters in production).
The client address is the peer's, or X-Forwarded-For's only from a peer in
``TRUSTED_PROXY_ADDRESSES`` (see service.limits).
"""

from __future__ import annotations

import math
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from events import envelope as ev
from events import history, talk
from events.audit import audit_tapes
from events.irreversible import irreversible
from events.refold import refold
from events.store import ConflictError
from games import registry
from games.text import P, T
from service import schemas
from service.auth import (
    ADMIN_SESSIONS,
    admin_session,
    bearer,
    end_admin_session,
    is_admin_token,
    keyed_hash,
    require_admin,
    start_admin_session,
)
from service.bodies import body
from service.current import after_append, rt
from service.errors import ApiError
from service.versions import at_version, steps

# Defaults of the settings above (any of them may be given in the app's configuration).
SETTINGS: dict[str, int] = {
    "ADMIN_SIGN_IN_ATTEMPTS": 5,  # wrong tokens per client address and token prefix ...
    "ADMIN_SIGN_IN_ADDRESS_ATTEMPTS": 20,  # ... and per client address, whatever the prefix
    "ADMIN_SIGN_IN_WINDOW": 15 * 60,  # ... in this many seconds
    "ADMIN_SIGN_IN_GLOBAL_ATTEMPTS": 30,  # wrong tokens from all addresses ...
    "ADMIN_SIGN_IN_GLOBAL_WINDOW": 60,  # ... in this many seconds
}
FAILURES_PREFIX = "rp:admin-sign-in:"
PREFIX_CHARS = 4  # characters of a tried token that name its throttle bucket


def setting(name: str) -> int:
    value = current_app.config.get(name)
    return int(SETTINGS[name] if value is None else value)


# -- server-side admin sessions: service.auth (its shape: service.sessions) -----------------
SESSION_PREFIX = ADMIN_SESSIONS.prefix
COOKIE_FIELD = ADMIN_SESSIONS.cookie_field
session_key = ADMIN_SESSIONS.key


# -- throttling wrong admin tokens --------------------------------------------------------
def _counters(token: str) -> list[tuple[str, int, int]]:
    """(key, bound, window) of each counter a wrong ``token`` from this client adds to."""
    address = request.remote_addr or "unknown"
    # Not the characters themselves: a mistyped admin token would show its own in Redis.
    prefix = keyed_hash(b"admin-sign-in-prefix", token[:PREFIX_CHARS])[:16]
    window = setting("ADMIN_SIGN_IN_WINDOW")
    return [(f"{FAILURES_PREFIX}prefix:{prefix}:{address}",
             setting("ADMIN_SIGN_IN_ATTEMPTS"), window),
            (f"{FAILURES_PREFIX}addr:{address}",
             setting("ADMIN_SIGN_IN_ADDRESS_ATTEMPTS"), window),
            (f"{FAILURES_PREFIX}all", setting("ADMIN_SIGN_IN_GLOBAL_ATTEMPTS"),
             setting("ADMIN_SIGN_IN_GLOBAL_WINDOW"))]


def _count(key: str, window: int) -> tuple[int, int]:
    """Add one to a counter whose window starts when it is created: (count, ttl)."""
    # SET NX EX then INCR in one MULTI (one key, so one cluster slot): never a counter
    # without an expiry, and no EXPIRE NX (Redis 7) needed.
    pipe = rt().redis.pipeline(transaction=True)
    pipe.set(key, 0, ex=window, nx=True)
    pipe.incr(key)
    pipe.ttl(key)
    _, count, ttl = pipe.execute()
    return int(count), int(ttl)


def take_try(token: str | None) -> tuple[bool, int | None]:
    """Look at one admin-token try: (right, wait).  The right token gets (True, None)
    whatever the counters say, and costs nothing; a wrong one is counted, and ``wait`` is
    then the seconds it must wait if that was one too many for a counter (answer 429),
    else None (answer 401/403).

    The comparison is constant-time; the count is an atomic INCR whose result alone
    decides, so of a burst of parallel guesses no more than the bound are answered.
    """
    if is_admin_token(token):
        return True, None
    waits = []
    for key, attempts, window in _counters(token or ""):
        count, ttl = _count(key, window)
        if count > attempts:
            waits.append(ttl if ttl > 0 else window)
    return False, max(waits, default=None)


def _too_many(wait: int) -> str:
    minutes = max(1, math.ceil(wait / 60))
    return P("Too many wrong admin tokens; try again in %(n)s minute.",
             "Too many wrong admin tokens; try again in %(n)s minutes.", minutes)


api_bp = Blueprint("admin_api", __name__, url_prefix="/api/v1/admin")
bp = Blueprint("admin", __name__, url_prefix="/admin")


# -- JSON API (bearer ADMIN_TOKEN) -------------------------------------------------------
@api_bp.before_request
def _admin_only() -> Any:
    if not bearer():
        require_admin()  # 401: nothing was guessed
    right, wait = take_try(bearer())
    if right:
        return None
    if wait is not None:
        reply = jsonify({"error": "too_many_requests", "message": _too_many(wait),
                         "retry_after": wait})
        return reply, 429, {"Retry-After": str(wait)}
    require_admin()  # 403: a wrong token, counted
    return None


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


@api_bp.get("/games/<game_id>/refold")
def admin_refold(game_id: str):
    """What another rules version would make of the game's moves (changes nothing): the
    fields of :class:`events.refold.RefoldReport`, with ``lines``, the text the CLI prints
    and the replay page shows."""
    rules = request.args.get("rules", "")
    try:
        report = refold(rt().store, game_id, rules)
    except KeyError as exc:
        raise ApiError(400, "bad_request", str(exc.args[0])) from None
    return jsonify(report.to_json())


@api_bp.post("/games/<game_id>/migrate")
def admin_migrate(game_id: str):
    data = body(schemas.MigrateIn())
    event = rt().games.migrate(game_id, data["rules"], "admin",
                               expected_version=data.get("expected_version"))
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
def sign_in() -> Any:
    error, status, headers = None, 200, {}
    if request.method == "POST":
        right, wait = take_try(request.form.get("token"))
        if right:
            start_admin_session()
            target = request.args.get("next", "")
            safe = target.startswith(("/admin", "/dev/mail")) and not target.startswith("//")
            return redirect(target if safe else url_for("admin.index"))
        if wait is not None:
            error, status, headers = _too_many(wait), 429, {"Retry-After": str(wait)}
        elif rt().config.get("ADMIN_TOKEN"):
            error, status = T("That is not the admin token."), 401
        else:
            error, status = T("This server has no ADMIN_TOKEN set, so the admin pages "
                              "are off."), 401
    return render_template("admin/sign_in.html", error=error), status, headers


@bp.post("/sign-out")
def sign_out() -> Response:
    end_admin_session()
    return redirect(url_for("lobby.index"))


@bp.get("/")
def index():
    runtime = rt()
    ids = runtime.store.game_ids(limit=200)
    summaries = [runtime.store.get_json(g, "summary") or {"id": g} for g in ids]
    return render_template("admin/index.html", games=summaries)


@bp.get("/games/<game_id>")
def replay(game_id: str):
    """The game at any version, as a spectator sees it (its picture beside its tables,
    the event that made the version, steps through the versions: service.versions, as a
    seat's history page has them), with the full log and tools."""
    runtime = rt()
    last = runtime.store.version(game_id)
    if last == 0:
        abort(404, T("There is no such game."))
    at = min(max(request.args.get("at", last, type=int), 1), last)
    moment = at_version(runtime.games, game_id, None, at, last)
    table = moment.table
    events = runtime.store.read(game_id)
    ok, count, problem = runtime.games.verify(game_id) if request.args.get("verify") else (
        None, last, "")
    latest = table if at == last else runtime.games.load(game_id)
    refold_rules = request.args.get("refold")
    report = None
    if refold_rules:
        try:
            report = refold(runtime.store, game_id, refold_rules)
        except KeyError as exc:
            abort(400, str(exc.args[0]))
    return render_template(
        "admin/game.html", table=table, game=table.game, at=at, last=last, events=events,
        latest=latest, rules_versions=registry.get(table.kind).rules_versions,
        refold_rules=refold_rules, refold_report=report,
        view=moment.view, seat=None, names=table.names, moment=moment,
        steps=steps(at, last, lambda n: url_for("admin.replay", game_id=game_id, at=n)),
        seats=runtime.games.seats(game_id), verified=ok, problem=problem,
        lines={e["version"]: e for e in history.lines(
            runtime.store, game_id, table.game, table.names, None)})


def _confirmed() -> bool:
    """A rewind or fork acts only on a POST that says ``confirm=yes``: the first POST of
    the form shows what it would do and asks (no script needed)."""
    return request.form.get("confirm") == "yes"


def _confirm_rewind(game_id: str, to: int, reason: str, last: int,
                    refused: bool = False) -> str:
    """The page asking to confirm a rewind to ``to`` decided on version ``last``: the
    moves it undoes and, apart, what among them players could never have taken back
    (:mod:`events.irreversible`), which needs a ticked box besides the button.
    ``refused``: the box was not ticked, and the page says that nothing changed."""
    runtime = rt()
    table = runtime.games.load(game_id)
    undone = [line for line in history.lines(runtime.store, game_id, table.game,
                                             table.names, None)
              if line["version"] > to and not line["undone"]
              and line["type"] not in ev.PASSIVE and line["type"] != ev.REWOUND]
    return render_template("admin/confirm.html", action="rewind", game=table.game,
                           game_id=game_id, to=to, reason=reason, last=last,
                           undone=undone, irreversible=irreversible(runtime.games, game_id, to),
                           refused=refused)


@bp.post("/games/<game_id>/rewind")
def rewind_page(game_id: str):
    """Rewind after a confirmation page; the rewind is decided on the version the
    confirmation showed (409 if the game moved on meanwhile).  If it undoes anything
    players could not take back (a draw, a reveal, the game's end, a time-out), the
    confirmation must also tick ``irreversible=yes``; without it nothing changes (400,
    the confirmation page again, saying why)."""
    runtime = rt()
    to = request.form.get("to", type=int)
    if to is None:
        abort(400, T("Say which version to rewind to."))
    last = runtime.store.version(game_id)
    if last == 0:
        abort(404, T("There is no such game."))
    if not 1 <= to < last:
        abort(400, T("Rewind to a version between 1 and %(last)s; nothing was changed.",
                      last=last - 1))
    reason = (request.form.get("reason") or "")[:500]
    if not _confirmed():
        return _confirm_rewind(game_id, to, reason, last)
    expected = request.form.get("expected_version", type=int)
    if expected is None:
        abort(400, T("The confirmation says which version it was made on; nothing was "
                      "changed."))
    if expected != last:
        raise ConflictError(last)
    if request.form.get("irreversible") != "yes" and irreversible(runtime.games, game_id, to):
        return _confirm_rewind(game_id, to, reason, last, refused=True), 400
    event = runtime.games.rewind(game_id, to, reason, "admin", expected_version=expected)
    after_append(game_id, event.version)
    return redirect(url_for("admin.replay", game_id=game_id))


@bp.post("/games/<game_id>/migrate")
def migrate_page(game_id: str):
    rules = request.form.get("rules", "")
    expected = request.form.get("expected_version", type=int)
    event = rt().games.migrate(game_id, rules, "admin", expected_version=expected)
    after_append(game_id, event.version)
    return redirect(url_for("admin.replay", game_id=game_id))


@bp.post("/games/<game_id>/note")
def note_page(game_id: str):
    text = (request.form.get("text") or "").strip()[:2000]
    if not text:
        abort(400, T("Write the note first."))
    event = rt().games.record(game_id, ev.ADMIN_NOTE, {"text": text}, actor="admin")
    after_append(game_id, event.version)
    return redirect(url_for("admin.replay", game_id=game_id))


@bp.post("/games/<game_id>/messages/<int:version>/hide")
def hide_message_page(game_id: str, version: int):
    """Hide the table-talk message at ``version`` (appends SaidHidden; the message stays
    in the log).  No confirmation page: nothing is lost, the admin still reads it here."""
    if not rt().store.exists(game_id):
        abort(404, T("There is no such game."))
    event = talk.hide(rt().games, game_id, version, by="admin")
    after_append(game_id, event.version)
    return redirect(url_for("admin.replay", game_id=game_id) + f"#e{version}", 303)


@bp.post("/games/<game_id>/fork")
def fork_page(game_id: str):
    """Fork after a confirmation page (a fork copies a fixed stretch of the log, so it
    does not depend on the version the admin saw)."""
    runtime = rt()
    at = request.form.get("at", type=int)
    if at is None:
        abort(400, T("Say at which version to fork."))
    last = runtime.store.version(game_id)
    if last == 0:
        abort(404, T("There is no such game."))
    if not 1 <= at <= last:
        abort(400, T("Fork at a version between 1 and %(last)s; nothing was changed.", last=last))
    if not _confirmed():
        table = runtime.games.load(game_id)
        return render_template("admin/confirm.html", action="fork", game=table.game,
                               game_id=game_id, at=at, last=last,
                               seats=runtime.games.seats(game_id))
    new_id = runtime.games.fork(game_id, at, "admin")
    after_append(new_id, runtime.store.version(new_id))
    return redirect(url_for("admin.replay", game_id=new_id))
