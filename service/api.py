"""JSON API v1 (OpenAPI at /api/openapi.json), authenticated by bearer tokens."""

from __future__ import annotations

import contextlib
import hashlib
import json
from datetime import datetime

from flask import Blueprint, jsonify, request

from events import history, votes
from events.audit import audit_tapes
from events.envelope import seat_actor
from events.guarded import GuardFailed
from events.replay import Table
from events.store import ConflictError, keyed_writer_token
from games import registry
from service import away, limits, schemas
from service import once as started_once
from service.auth import bearer, is_admin, player, player_table, refuse_revoked, signed
from service.bodies import body
from service.current import after_append, rt
from service.errors import ApiError
from worker import forced, jobs, players
from worker.links import Link, api_token, generation_guard, generation_of, rotate_api_token
from worker.notify import vote_time

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def create_game(data: dict, creator: str | None = None) -> Table:
    """Create a game from validated input and remember its seats and settings;
    ``creator``: the player who created it (None: the admin), whom an invitee may block.
    Each seat is given its player (worker.players), made on first sight of an address."""
    runtime = rt()
    data = {**data, "players": [
        {**p, "player": players.player_id(runtime.redis, p["email"])} if p.get("email")
        else p for p in data["players"]]}
    platform = dict(data.get("platform") or {})
    if data.get("deadline_hours") and "time_control" not in platform:
        # the older setting, kept in the log as what it means (events.clocks)
        platform["time_control"] = {"kind": "per_move", "hours": data["deadline_hours"]}
    table = runtime.games.create(data["game"], data["players"], data["options"],
                                 platform=platform or None)
    runtime.store.put_json(table.game_id, "settings",
                           {"deadline_hours": data.get("deadline_hours"), "creator": creator})
    after_append(table.game_id, table.version)
    return table


_READ_NOW = object()


def game_json(table: Table, seat: int, clocks: object = _READ_NOW,
              position: dict | None = None) -> dict:
    """The API view of ``table`` for ``seat``; ``clocks``: the clocks' read model (its
    stored text, or None: none) if the caller read it already (see :func:`get_game`);
    ``position``: :func:`position_json` of the table, if the caller made it already."""
    clocks_away = (away.clocks_json(table.game_id) if clocks is _READ_NOW
                   else away.clocks_json_of(clocks))
    return {**(position or position_json(table, seat)),
            **dict(zip(("clocks", "away"), clocks_away, strict=True))}


def position_json(table: Table, seat: int) -> dict:
    """What the rules say of ``table`` for ``seat``: :func:`game_json` without the clocks."""
    game = table.game
    to_act = table.to_act()
    return {
        "id": table.game_id, "game": table.kind, "version": table.version, "seat": seat,
        "to_act": sorted(to_act), "view": game.view(table.state, seat),
        "legal_moves": game.legal_moves(table.state, seat) if seat in to_act else [],
        "forced_move_pending": seat in to_act and not table.ended
        and forced.pending(rt().redis, table, seat) is not None,
        "outcome": table.outcome() if table.ended else None,
    }


@bp.get("/kinds")
def kinds():
    return jsonify([{"kind": g.kind, "name": g.name, "min_players": g.min_players,
                     "max_players": g.max_players} for g in registry.kinds()])


def creator_of(link: Link) -> str:
    """The player who holds ``link``'s seat: a game's creator is a person, not a seat, so
    the seats of games they created give them no more games."""
    seats = rt().store.get_json(link.game_id, "seats") or []
    info = seats[link.seat] if link.seat < len(seats) else {}
    pid = players.seat_player(rt().redis, info)
    if pid is None:
        raise ApiError(403, "forbidden", "That seat has no player address, so it cannot "
                       "create games.")
    return pid


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
    runtime = rt()
    once_key, asked = _start_once_key(link), ""
    if once_key is not None:  # a retry of a request that started its game answers it
        asked = _fingerprint(data)
        try:
            earlier = started_once.take(runtime.redis, once_key, asked)
        except started_once.OtherRequest:
            raise ApiError(422, "key_reused", f"This {IDEMPOTENCY_KEY} was used for "
                           "another game (the body differs): send a new key for a new "
                           "game, or the same body to retry.") from None
        if earlier:
            return _created(runtime.games.load(earlier), link is None), 201, \
                {"Idempotent-Replayed": "true"}
        if earlier == "":
            raise ApiError(409, "conflict", f"A request with this {IDEMPOTENCY_KEY} is "
                           "still starting its game: ask again in a moment.")
    try:
        creator_id = None if link is None else creator_of(link)
        if creator_id is not None:
            limits.take_creator_quota(creator_id)
        table = create_game(data, creator_id)
    except Exception:
        if once_key is not None:  # nothing was started: the request may be sent again
            with contextlib.suppress(Exception):
                started_once.let_go(runtime.redis, once_key)
        raise
    if once_key is not None:
        started_once.started(runtime.redis, once_key, table.game_id, asked)
    return _created(table, link is None), 201


def _fingerprint(data: dict) -> str:
    """What a creation asks for, in short: its retries send the same (in any key order)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _start_once_key(link: Link | None) -> str | None:
    """The key of this creation's claim (service/once.py) if it carries an
    ``Idempotency-Key``: per key and caller (the admin, or a seat of a game), so the
    same key from another caller is another request."""
    key = _idempotency_key()
    if key is None:
        return None
    caller = "admin" if link is None else f"{link.game_id}:{link.seat}"
    return "rp:api:once:" + hashlib.sha256(f"{caller}\n{key}".encode()).hexdigest()


def _created(table: Table, admin: bool):
    """A created game's answer: its seats, with their API tokens for the admin."""
    seats = []
    for seat, name in enumerate(table.names):
        entry = {"seat": seat, "name": name}
        if admin:
            entry["token"] = api_token(rt().redis, rt().links, table.game_id, seat)
        seats.append(entry)
    return jsonify({"id": table.game_id, "version": table.version, "seats": seats})


@bp.get("/games/<game_id>")
def get_game(game_id: str):
    # one round trip: the token's generation with the "seen" mark (no reminder for who
    # just looked), the log's tail and the clocks
    # (the position is made while Redis answers, on the table this process holds)
    link, table, (clocks,), position = player_table(
        game_id, [away.read_model_command(game_id)], seen=True, work=position_json)
    if isinstance(clocks, Exception):
        raise clocks
    return jsonify(game_json(table, link.seat, clocks, position))


# made once: a schema keeps no state between loads, and making one was a tenth of a move
_MOVE_IN = schemas.MoveIn()


@bp.post("/games/<game_id>/moves")
def post_move(game_id: str):
    # Round trips: one when this process holds the table at the expected version (the
    # dirty mark, the append guarded by the token's generation and the projection job,
    # put unless one waits, in one pipeline), else two (the token's generation with the
    # load; then that pipeline with a plain append); one more if two projections of
    # the game were running (or the queue is on another Redis).
    link = signed(game_id)
    data = body(_MOVE_IN)
    enqueuer, games = rt().enqueuer, rt().games
    writer = _keyed_writer(link)

    def then(version: int) -> list:
        command = jobs.projection_command(enqueuer, game_id)
        return [command] if command else []

    try:
        played = games.play_cached(game_id, link.seat, data["move"],
                                   data["expected_version"], generation_guard(link), then,
                                   writer, answer=lambda table: _moved(table, link.seat))
    except GuardFailed as exc:
        refuse_revoked(link, generation_of(exc.current))
        raise
    answer = None
    if played is not None:
        *played, answer = played  # the answer, made while Redis took the move
    else:  # the usual path; it refuses what the one above would not decide
        secrets = games.secrets_command(game_id)  # a process's first move in this game
        link, table, replies, _ = player_table(game_id, [secrets] if secrets else [])
        if secrets:
            games.keep_secrets(game_id, replies[0])
        try:
            played = games.play_move_then(game_id, link.seat, data["move"],
                                          data["expected_version"], table=table, then=then,
                                          writer=writer)
        except ConflictError:
            if writer is None or games.recorded_move(
                    game_id, link.seat, data["move"], data["expected_version"],
                    writer) is None:
                raise
            # this request was made before and landed (its answer lost): answer as then,
            # with the game as it stands now
            table = games.load(game_id)
            return _moved(table, link.seat), 201, {"Idempotent-Replayed": "true"}
    event, table, replies = played
    after_append(game_id, event.version, replies[0] if replies else None)
    # the new position as the mover sees it, from the table the move was decided on: a
    # client needs no GET (the version is the GameEnded's when the move ended the game)
    return (answer if answer is not None else _moved(table, link.seat)), 201


def _moved(table: Table, seat: int):
    """A move's answer: the position as the mover sees it."""
    to_act = table.to_act()
    return jsonify({"version": table.version, "to_act": sorted(to_act),
                    "forced_move_pending": seat in to_act and not table.ended
                    and forced.pending(rt().redis, table, seat) is not None,
                    "view": table.game.view(table.state, seat),
                    "outcome": table.outcome() if table.ended else None})


IDEMPOTENCY_KEY = "Idempotency-Key"


def _idempotency_key() -> str | None:
    """The request's ``Idempotency-Key`` header (None without one); ApiError 400 for a
    key that is not 1 to 255 visible ASCII characters."""
    value = request.headers.get(IDEMPOTENCY_KEY)
    if value is not None and (not 1 <= len(value) <= 255
                              or not all("!" <= c <= "~" for c in value)):
        raise ApiError(400, "bad_request", f"The {IDEMPOTENCY_KEY} header must be 1 to 255 "
                       "visible ASCII characters (no spaces).")
    return value


def _keyed_writer(link: Link) -> str | None:
    """The writer token of this request's ``Idempotency-Key`` (None without one): every
    retry of a move sent with the same key finds the move its first try made."""
    value = _idempotency_key()
    return None if value is None else keyed_writer_token(seat_actor(link.seat), value)


@bp.post("/games/<game_id>/token")
def post_token(game_id: str):
    """Revoke the caller's API token and answer a new one (a leaked token dies at once)."""
    link = player(game_id)
    return jsonify({"token": rotate_api_token(rt().redis, rt().links, game_id,
                                              link.seat)}), 201


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


@bp.post("/games/<game_id>/vacation")
def post_vacation(game_id: str):
    """Declare a vacation in advance: the caller's clock stands from ``from`` to
    ``until`` (within the allowance; see events.clocks)."""
    link = player(game_id)
    data = body(schemas.VacationIn())
    event = away.declare_vacation(game_id, link.seat, data["from_"], data["until"])
    return jsonify({"version": event.version, "seat": link.seat, "from": event.data["from"],
                    "until": event.data["until"]}), 201


@bp.post("/games/<game_id>/back")
def post_back(game_id: str):
    """"I'm back": the stand-in that took the caller's seat after time-outs stops."""
    link = player(game_id)
    event = away.come_back(game_id, link.seat)
    return jsonify({"version": event.version}), 201


@bp.get("/games/<game_id>/audit")
def get_audit(game_id: str):
    """After the game: re-derive every draw from the revealed secret."""
    player(game_id)
    result = audit_tapes(rt().store, game_id)
    return jsonify({"ok": result.ok, "checked": result.checked, "problem": result.problem})


@bp.get("/games/<game_id>/history")
def get_history(game_id: str):
    """A page of the log, redacted for the caller: ``?before=<version>&limit=N``
    (default the latest 100), with ``next``, the ``before`` of the older page."""
    link = player(game_id)
    before = _query_int("before", None, 1, None)
    limit = _query_int("limit", history.PAGE_LIMIT, 1, history.MAX_PAGE_LIMIT)
    table = rt().games.load(game_id)
    events, older = history.page(rt().store, game_id, table.game, table.names, link.seat,
                                 before, limit)
    return jsonify({"events": events, "next": older})


def _query_int(name: str, default: int | None, low: int, high: int | None) -> int | None:
    """The query parameter ``name`` as a whole number in ``low..high`` (400 otherwise)."""
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or len(raw) > 16 or int(raw) < low \
            or (high is not None and int(raw) > high):
        bound = f"from {low} to {high}" if high is not None else f"of at least {low}"
        raise ApiError(400, "bad_request", f"{name} must be a whole number {bound}.")
    return int(raw)


# -- resign and table votes (rules: events.votes) ----------------------------------------
def request_time() -> datetime:
    """The time a resignation or vote is judged at (see worker.notify.vote_time)."""
    return vote_time(rt())


def vote_hours() -> float:
    """How long a vote stays open: the ``VOTE_HOURS`` setting, default 72."""
    return float(rt().config.get("VOTE_HOURS") or votes.VOTE_HOURS)


def vote_json(game_id: str, n_seats: int) -> dict | None:
    """The latest vote of the game as the API shows it (None: none since the last end)."""
    at = request_time()
    vote = rt().games.latest_vote(game_id)
    return vote.to_json(n_seats, at) if vote else None


def _voted(game_id: str) -> dict:
    """The answer to a resignation or vote: the version, the latest vote, the result."""
    table = rt().games.load(game_id)
    return {"version": table.version, "vote": vote_json(game_id, len(table.names)),
            "outcome": table.outcome() if table.ended else None}


@bp.post("/games/<game_id>/resign")
def post_resign(game_id: str):
    link = player(game_id)
    data = body(schemas.ResignIn()) if request.get_data(cache=True) else {}
    event = rt().games.resign(game_id, link.seat, data.get("expected_version"))
    after_append(game_id, event.version)
    return jsonify(_voted(game_id)), 201


@bp.get("/games/<game_id>/votes")
def get_votes(game_id: str):
    player(game_id)
    return jsonify(_voted(game_id))


@bp.post("/games/<game_id>/votes")
def post_vote(game_id: str):
    link = player(game_id)
    data = body(schemas.VoteIn())
    event = rt().games.vote(game_id, link.seat, data["kind"], data["accept"],
                            data["expected_version"], now=request_time(),
                            hours=vote_hours())
    after_append(game_id, event.version)
    return jsonify(_voted(game_id)), 201
