"""Server-side browser sessions: the admin's (service.auth) and players' (service.accounts).

The signed Flask cookie holds only a random session id; Redis keeps, under
``<prefix><sha256 of the id>``, what the session stands for and when it started.  A
session ends when it is deleted (sign-out: the cookie then opens nothing), after its
idle limit unused (the key's TTL, renewed on each use), at its absolute limit after it
started, and whenever its owner's ``still_good`` check says no (the admin token changed,
the player signed out everywhere).
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from flask import current_app, session

from service.current import rt


@dataclass(frozen=True)
class ServerSessions:
    """One kind of session: its Redis key prefix, its cookie field and the names of the
    settings that hold its idle and absolute limits (seconds)."""

    prefix: str
    cookie_field: str
    idle_setting: str
    max_age_setting: str

    def key(self, session_id: str) -> str:
        """Redis key of a session: the id is hashed so that the keys alone open nothing."""
        return self.prefix + hashlib.sha256(
            session_id.encode("utf-8", "surrogatepass")).hexdigest()

    def _limits(self) -> tuple[int, int]:
        return (int(current_app.config[self.idle_setting]),
                int(current_app.config[self.max_age_setting]))

    def open(self, fields: dict[str, str | int]) -> str:
        """A new session holding ``fields`` (and its start time) in Redis; its id."""
        session_id = secrets.token_urlsafe(32)
        idle, max_age = self._limits()
        pipe = rt().redis.pipeline(transaction=True)  # never a session key without a TTL
        pipe.hset(self.key(session_id), mapping={**fields, "started": repr(time.time())})
        pipe.expire(self.key(session_id), min(idle, max_age))
        pipe.execute()
        return session_id

    def start(self, fields: dict[str, str | int]) -> str:
        """Sign this browser in: a fresh Flask session (nothing set before it, a CSRF
        token too, carries over) holding only the new session's id."""
        session_id = self.open(fields)
        session.clear()
        session[self.cookie_field] = session_id
        return session_id

    def find(self, still_good: Callable[[dict[str, str]], bool]) -> dict[str, str] | None:
        """The browser's open session (what it holds), renewing its idle limit; None if
        it has none, or it is too old or no longer ``still_good`` (then it is deleted)."""
        session_id = session.get(self.cookie_field)
        if not isinstance(session_id, str):
            return None
        key = self.key(session_id)
        found = rt().redis.hgetall(key)
        if not found:
            return None
        idle, max_age = self._limits()
        try:
            left = float(found.get("started", "")) + max_age - time.time()
        except ValueError:
            left = 0
        if left <= 0 or not still_good(found):
            rt().redis.delete(key)
            return None
        rt().redis.expire(key, max(1, min(idle, math.floor(left))))
        return found

    def end(self) -> None:
        """Sign out: the session is deleted in Redis, so its cookie is worth nothing."""
        session_id = session.get(self.cookie_field)
        if isinstance(session_id, str):
            rt().redis.delete(self.key(session_id))
        session.clear()
