"""Consent before mail: what the service may send to an address that never asked for it.

An address whose player never signed in nor acted through a link mailed to it
(``players.is_verified``) is an *invitee*.  Each game that invites it takes one
*invitation* (the sorted set ``invites``: ``<game>:<seat>`` -> unix time); at most
``INVITES_PER_DAY`` in 24 hours and ``INVITES_PER_MONTH`` in 30 days, from every inviter,
lobby, API or fork alike, since the count is kept where the mail is sent (the worker).
An invitation over the limit is *withheld* (the sorted set ``withheld``): never sent,
and shown to the person when they sign in.  Every later email of a game goes to an
invitee only if that game's invitation went; so a game cannot reach a stranger by
making their first turn come later.

Opting out (``optout`` hash): ``invitations`` (one-click on an invitation: no invitation
is ever sent again, and no mail of a game whose invitation did not go), ``everything``
(no email of any kind), and per inviter (the set ``blocked``: player ids whose games
never invite this address).  A verified player is sent everything but what they opted
out of.

The count and the check are one script on the player's own keys (one cluster slot):
asked twice for the same invitation (a retried job) it answers the same and counts once.
"""

from __future__ import annotations

import time

from worker import players

INVITES_PER_DAY = 3
INVITES_PER_MONTH = 10
DAY = 24 * 3600
MONTH = 30 * DAY

SEND, WITHHELD, REFUSED = "send", "withheld", "refused"

# KEYS: invites, withheld.  ARGV: member, now, per day, per month, invitation (1/0), game.
# An invitation takes a slot if one is free, else is withheld; any other mail of the game
# goes only if its invitation went.
_INVITE = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 'send' end
if ARGV[5] ~= '1' then return 'refused' end
local now = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 2592000)
local day = redis.call('ZCOUNT', KEYS[1], now - 86400, '+inf')
local month = redis.call('ZCARD', KEYS[1])
if day >= tonumber(ARGV[3]) or month >= tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[2], 'NX', now, ARGV[6])
  return 'withheld'
end
redis.call('ZADD', KEYS[1], now, ARGV[1])
return 'send'
"""


def may_mail(client, pid: str, game_id: str, seat: int, *, invitation: bool,
             inviter: str | None = None, config: dict | None = None,
             now: float | None = None) -> str:
    """Whether an email of ``game_id`` may go to ``seat``'s player ``pid``: ``send``,
    ``withheld`` (an invitation over the invitee's limit, kept for their sign-in) or
    ``refused`` (opted out, blocked inviter, or an invitee whose invitation did not go)."""
    config = config or {}
    pipe = client.pipeline(transaction=False)
    pipe.hgetall(players.pkey(pid, "optout"))
    pipe.sismember(players.pkey(pid, "blocked"), inviter or "")
    pipe.hget(players.pkey(pid, "account"), "verified")
    optout, blocked, verified = pipe.execute()
    if optout.get("everything") or (inviter and blocked):
        return REFUSED
    if verified:
        return REFUSED if invitation and optout.get("invitations") else SEND
    if optout.get("invitations"):
        return REFUSED
    return client.eval(_INVITE, 2, players.pkey(pid, "invites"),
                       players.pkey(pid, "withheld"), f"{game_id}:{seat}",
                       f"{now or time.time():.3f}",
                       int(config.get("INVITES_PER_DAY") or INVITES_PER_DAY),
                       int(config.get("INVITES_PER_MONTH") or INVITES_PER_MONTH),
                       "1" if invitation else "0", game_id)


def withheld(client, pid: str) -> list[str]:
    """Games whose invitation to ``pid`` was withheld, oldest first."""
    return client.zrange(players.pkey(pid, "withheld"), 0, -1)


def opt_out(client, pid: str, what: str) -> None:
    """Stop ``what``: ``invitations`` or ``everything``."""
    client.hset(players.pkey(pid, "optout"), what, f"{time.time():.0f}")


def opt_in(client, pid: str, what: str) -> None:
    client.hdel(players.pkey(pid, "optout"), what)


def opted_out(client, pid: str) -> set[str]:
    return set(client.hkeys(players.pkey(pid, "optout")))


def block(client, pid: str, inviter: str) -> None:
    """Never again an invitation to ``pid`` from a game ``inviter`` created."""
    client.sadd(players.pkey(pid, "blocked"), inviter)


def unblock(client, pid: str, inviter: str) -> None:
    client.srem(players.pkey(pid, "blocked"), inviter)


def blocked(client, pid: str) -> set[str]:
    return client.smembers(players.pkey(pid, "blocked"))


def set_muted(store, game_id: str, seat: int, muted: bool = True) -> dict:
    """Stop (or start again) every email of ``game_id`` to ``seat`` (the seat's ``muted``
    flag, which :func:`worker.notify.recipient` reads); the seat's entry, {} if none."""
    seats = store.get_json(game_id, "seats") or []
    if not 0 <= seat < len(seats):
        return {}
    if bool(seats[seat].get("muted")) != muted:
        seats[seat]["muted"] = muted
        store.put_json(game_id, "seats", seats)
    return seats[seat]
