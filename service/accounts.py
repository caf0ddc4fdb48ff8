"""Players signing in: a one-time link mailed to their address, then a server-side session.

No passwords.  ``POST /sign-in`` with an address mails it a link (``/sign-in/<token>``)
that lives ``SIGN_IN_SECONDS`` (15 minutes) and works once: the token is random, and
Redis keeps only its SHA-256 (``rp:sign-in:<sha>``, with the address and what the link
is for), deleted by the one request that uses it.  Opening the link shows a button (a
GET changes nothing: mail scanners open links); pressing it signs the browser in.
Asking for links is limited per address and per client (``SIGN_IN_LIMIT_PER_ADDRESS``,
``SIGN_IN_LIMIT_PER_CLIENT``), and the answer never says whether the address is known.

The same one-time links confirm a lobby form sent by someone not signed in: the game
starts only when its creator opens the link mailed to the address they gave
(service.lobby), which signs them in as well.

A session is like the admin's (service.sessions): a random id in the signed cookie and,
under ``rp:player-session:<sha256 of the id>``, the player, the player's generation at
sign-in and the start time.  It ends at sign-out, after ``PLAYER_SESSION_IDLE`` seconds
unused (the key's TTL), ``PLAYER_SESSION_MAX_AGE`` after sign-in, and when the player
signs out everywhere (the generation no longer matches).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from games.text import T
from service.current import rt
from service.i18n import select_language
from service.sessions import ServerSessions
from worker import i18n, players
from worker.sending import render

SIGN_IN_SECONDS = 15 * 60


def _hashed(prefix: str, secret: str) -> str:
    return prefix + hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


# -- one-time links ----------------------------------------------------------------------
def make_link(address: str, purpose: str = "sign-in", data: dict[str, Any] | None = None
              ) -> str:
    """A one-time token for ``address`` (``purpose``: ``sign-in`` or ``create``, with
    ``data``: the game to start), valid ``SIGN_IN_SECONDS``."""
    token = secrets.token_urlsafe(32)
    name = _hashed("rp:sign-in:", token)
    pipe = rt().redis.pipeline(transaction=True)  # never a link without its expiry
    pipe.hset(name, mapping={"address": address.strip(), "purpose": purpose,
                             "data": json.dumps(data or {})})
    pipe.expire(name, SIGN_IN_SECONDS)
    pipe.execute()
    return token


def peek_link(token: str) -> dict[str, Any] | None:
    """What a one-time link is for, if it is still valid (nothing is used up)."""
    found = rt().redis.hgetall(_hashed("rp:sign-in:", token))
    return _link(found)


def take_link(token: str) -> dict[str, Any] | None:
    """Use a one-time link up: its ``address``, ``purpose`` and ``data``; None if it
    was used, expired or never made.  Two requests at once: one gets it."""
    name = _hashed("rp:sign-in:", token)
    pipe = rt().redis.pipeline(transaction=True)
    pipe.hgetall(name)
    pipe.delete(name)
    found, deleted = pipe.execute()
    return _link(found) if deleted else None


def _link(found: dict[str, str]) -> dict[str, Any] | None:
    if not found or not found.get("address"):
        return None
    return {"address": found["address"], "purpose": found.get("purpose", "sign-in"),
            "data": json.loads(found.get("data") or "{}")}


def mail_link(address: str, token: str, purpose: str, game_name: str = "") -> None:
    """Send the one-time link to ``address`` (now, from the web process: it is asked for
    by a person waiting for it).  It carries one-click unsubscribe like every email, and
    speaks the player's chosen language, else the one of the page that asked for it."""
    runtime = rt()
    pid = players.player_id(runtime.redis, address)
    url = runtime.url(f"/sign-in/{token}")
    unsubscribe = runtime.url("/unsubscribe/" + runtime.links.make_player(
        "unsubscribe", pid, what="invitations"))
    context = {"url": url, "purpose": purpose, "game_name": game_name,
               "minutes": SIGN_IN_SECONDS // 60, "unsubscribe_url": unsubscribe}
    subject = (T("Confirm your new game of %(game)s", game=game_name) if purpose == "create"
               else T("Your Ravenpost sign-in link"))
    chosen = players.prefs(runtime.redis, pid)["language"]
    language = i18n.language_of(chosen) if chosen else select_language()
    runtime.mail.send(render(runtime, "sign_in", subject, address,
                             _hashed("sign-in:", token), context, unsubscribe,
                             language=language))


# -- sessions ----------------------------------------------------------------------------
PLAYER_SESSIONS = ServerSessions("rp:player-session:", "player_session",
                                 "PLAYER_SESSION_IDLE", "PLAYER_SESSION_MAX_AGE")
COOKIE_FIELD = PLAYER_SESSIONS.cookie_field


def _fields(pid: str) -> dict[str, str | int]:
    return {"pid": pid, "gen": players.me_generation(rt().redis, pid)}


def open_session(pid: str) -> str:
    """A new server-side session of ``pid``; its id (for the cookie)."""
    return PLAYER_SESSIONS.open(_fields(pid))


def start_session(pid: str) -> None:
    """Sign this browser in as ``pid`` (a fresh session: nothing before carries over)."""
    PLAYER_SESSIONS.start(_fields(pid))


def current_player() -> str | None:
    """The player this browser is signed in as, if its session is still open (and the
    player has not signed out everywhere since)."""
    found = PLAYER_SESSIONS.find(lambda found: bool(found.get("pid")) and found.get("gen")
                                 == str(players.me_generation(rt().redis, found["pid"])))
    return found["pid"] if found else None


def end_session() -> None:
    """Sign out this browser."""
    PLAYER_SESSIONS.end()


def sign_in(address: str) -> str:
    """The holder of a one-time link for ``address`` proved it: the player, verified,
    signed in on this browser."""
    client = rt().redis
    pid = players.player_id(client, address)
    players.verify(client, pid)
    start_session(pid)
    return pid
