"""Who is asking: bearer tokens for the API, the admin token, the admin's browser session
(a server-side session, service.sessions)."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from flask import current_app, request

from events.replay import Table
from service.current import rt
from service.errors import ApiError
from service.sessions import ServerSessions
from worker.links import Link

T = TypeVar("T")


def same_secret(given: str | None, expected: str | None) -> bool:
    """Constant-time comparison that takes any text (compare_digest refuses non-ASCII str)."""
    if not given or not expected:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"),
                               expected.encode("utf-8", "surrogatepass"))


def bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def is_admin_token(given: str | None) -> bool:
    expected = current_app.config.get("ADMIN_TOKEN")
    return same_secret(given, expected)


def is_admin() -> bool:
    """The request carries the admin bearer token."""
    return is_admin_token(bearer())


def require_admin() -> None:
    if not bearer():
        raise ApiError(401, "unauthorized", "This needs the admin token as a bearer token.")
    if not is_admin():
        raise ApiError(403, "forbidden", "That is not the admin token.")


ADMIN_SESSIONS = ServerSessions("rp:admin-session:", "admin_session", "ADMIN_SESSION_IDLE",
                                "ADMIN_SESSION_MAX_AGE")


def keyed_hash(purpose: bytes, text: str) -> str:
    """HMAC-SHA-256 of ``text`` under SECRET_KEY, for ``purpose``: names a secret (or a
    part of one) in Redis without storing it."""
    key = current_app.config["SECRET_KEY"]
    key = key if isinstance(key, bytes) else str(key).encode("utf-8", "surrogatepass")
    return hmac.new(key, purpose + b"\0" + text.encode("utf-8", "surrogatepass"),
                    hashlib.sha256).hexdigest()


def admin_token_fingerprint(token: str) -> str:
    """Tells a change of the admin token without storing it."""
    return keyed_hash(b"admin-session", token)


def start_admin_session() -> str:
    """Sign this browser in as the admin, with today's admin token."""
    return ADMIN_SESSIONS.start(
        {"fingerprint": admin_token_fingerprint(current_app.config["ADMIN_TOKEN"])})


def admin_session() -> bool:
    """The browser signed in on /admin with today's admin token, in a session that is still
    open in Redis (it expires, and sign-out or a new token ends it)."""
    token = current_app.config.get("ADMIN_TOKEN")
    if not token:
        return False
    fingerprint = admin_token_fingerprint(token)
    return ADMIN_SESSIONS.find(
        lambda found: same_secret(found.get("fingerprint"), fingerprint)) is not None


def end_admin_session() -> None:
    ADMIN_SESSIONS.end()


def player(game_id: str) -> Link:
    """The seat whose API token came with the request, for this game."""
    from worker.links import api_generation

    link = signed(game_id)
    refuse_revoked(link, api_generation(rt().redis, game_id, link.seat))
    return link


def player_table(game_id: str, also: Sequence[tuple[Any, ...]] = (), seen: bool = False,
                 work: Callable[[Table, int], T] | None = None,
                 ) -> tuple[Link, Table, list[Any], T | None]:
    """:func:`player` and the game's latest table in one round trip to Redis: the token's
    generation is read in the load's own pipeline, and checked before anything is folded
    (so a revoked token is refused at once, as by :func:`player`).  ``also``: more reads
    on the game's keys for that round trip; returns ``(link, table, their replies, what
    work made)``.  ``seen``: also note that the seat looked (:func:`worker.quiet.seen`),
    in the same command as the generation's read and only if the token is current (and
    only if this process has not noted it lately: then the round trip writes nothing).
    ``work(table, seat)`` is done while Redis answers, as
    :meth:`events.replay.Replayer.load_along` says (None: not done, or not on the
    latest table); nothing it made is returned for a token that is refused."""
    from worker import quiet
    from worker.links import generation_command, generation_of, generation_then_set

    link = signed(game_id)
    notes = rt().seen_notes
    write_seen = seen and notes.due(game_id, link.seat)
    first = (generation_then_set(game_id, link.seat, link.generation,
                                 quiet.seen_entry(game_id, link.seat))
             if write_seen else generation_command(game_id, link.seat))

    def check(replies: list[Any]) -> None:
        if isinstance(replies[0], Exception):  # a server without scripting: two trips
            refuse_revoked(link, generation_of(rt().redis.hget(*generation_command(
                game_id, link.seat)[1:])))
            if write_seen:
                quiet.seen(rt().redis, game_id, link.seat, notes)
            return
        refuse_revoked(link, generation_of(replies[0]))
        if write_seen:
            notes.written(game_id, link.seat)

    table, replies, made = rt().games.replayer.load_along(
        game_id, [first, *also], check,
        None if work is None else (lambda table: work(table, link.seat)))
    return link, table, replies[1:], made


def signed(game_id: str) -> Link:
    """The link of the request's bearer token, signed by us for this game; whether it
    is revoked is not checked here (no Redis): :func:`refuse_revoked` does."""
    token = bearer()
    if not token:
        raise ApiError(401, "unauthorized", "Send your player token as 'Authorization: Bearer'.")
    link = rt().links.check(token, "api")
    if link.game_id != game_id:
        raise ApiError(403, "forbidden", "That token is for another game.")
    return link


def refuse_revoked(link: Link, generation: int) -> None:
    """Refuse a token of an older generation than the seat's ``generation`` (revoked)."""
    if link.generation != generation:
        raise ApiError(401, "revoked", "This token was revoked; your game page issues the "
                       "current one.")
