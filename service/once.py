"""A request that starts a game, sent twice, starts one game.

A double click, a reload that posts the form again, or a client retrying after its
answer was lost: the copy that comes first claims the request's token, starts the game
and records its id under the token; a later copy finds the id and answers with that
game.  A copy that comes while the first is still at work is told so.  The claim lives
``STARTING_SECONDS`` (a process that dies holding it does not block the token for
long); the recorded game ``KEPT_SECONDS``.  A caller that names what it asks for (a
fingerprint of the request) learns when the token comes back with another request:
that is not a copy, and it gets neither the first game nor a new one.
"""

from __future__ import annotations

import secrets

import redis

from worker.lease import claim

STARTING = "starting"  # the claim's value while its game is being started
STARTING_SECONDS = 60
KEPT_SECONDS = 24 * 3600


class OtherRequest(Exception):
    """The token was taken by a request that asked for something else."""


def take(client: redis.Redis, key: str, request: str = "") -> str | None:
    """None if this request may start the game (it holds ``key`` now); else the id of
    the game a copy started ("" while that copy is still starting it).  ``request``: a
    fingerprint of what is asked for (no ":"); OtherRequest if ``key`` was taken with
    another one (an empty fingerprint matches any)."""
    held = claim(client, key, STARTING_SECONDS,
                 f"{STARTING}:{secrets.token_hex(6)}:{request}")
    if held is None:
        return None
    state, _, rest = held.partition(":")
    found, _, theirs = rest.partition(":")
    if request and theirs and theirs != request:
        raise OtherRequest(key)
    return found if state == "game" else ""


def started(client: redis.Redis, key: str, game_id: str, request: str = "") -> None:
    """Record the game the request that holds ``key`` (with ``request``: see
    :func:`take`) started."""
    client.set(key, f"game:{game_id}:{request}", ex=KEPT_SECONDS)


def let_go(client: redis.Redis, key: str) -> None:
    """Give the claim back: nothing was started, the request may be sent again."""
    client.delete(key)
