"""A request that starts a game, sent twice, starts one game.

A double click, a reload that posts the form again, or a client retrying after its
answer was lost: the copy that comes first claims the request's token, starts the game
and records its id under the token; a later copy finds the id and answers with that
game.  A copy that comes while the first is still at work is told so.  The claim lives
``STARTING_SECONDS`` (a process that dies holding it does not block the token for
long); the recorded game ``KEPT_SECONDS``.
"""

from __future__ import annotations

import secrets

import redis

from worker.lease import claim

STARTING = "starting"  # the claim's value while its game is being started
STARTING_SECONDS = 60
KEPT_SECONDS = 24 * 3600


def take(client: redis.Redis, key: str) -> str | None:
    """None if this request may start the game (it holds ``key`` now); else the id of
    the game a copy started ("" while that copy is still starting it)."""
    held = claim(client, key, STARTING_SECONDS, f"{STARTING}:{secrets.token_hex(6)}")
    if held is None:
        return None
    return held.removeprefix("game:") if held.startswith("game:") else ""


def started(client: redis.Redis, key: str, game_id: str) -> None:
    """Record the game the request that holds ``key`` started."""
    client.set(key, f"game:{game_id}", ex=KEPT_SECONDS)


def let_go(client: redis.Redis, key: str) -> None:
    """Give the claim back: nothing was started, the request may be sent again."""
    client.delete(key)
