"""Signed links and tokens (itsdangerous): who a request is, for which game and seat.

Purposes, each with its own salt so one can never stand in for another:
``act`` (the one-shot link in a turn email, tied to the version it was sent for),
``play`` (a player's personal page, many uses) and ``api`` (a player's API bearer token);
also ``mute`` and ``me`` (a player's page across all their games: it names a player by the
SHA-256 of their address, not a game or seat, see :mod:`worker.players`).
One-shot links are burned in Redis (``SET NX``) by the request that uses them; the marker
expires with the link's own life (``LINK_MAX_AGE``), after which the link is refused anyway.

Every seat token (play, act, mute and API) carries the seat's *generation* (``gen``); the
current one is kept per game in the hash ``api-gen`` (seat -> int; the name is from when
only API tokens had one).  Rotating a seat's links raises it, and so does its player's
"sign out everywhere" (worker.players), so every token made before is refused at once
(:func:`check_current`).  Tokens without ``gen`` (made before generations existed) count
as generation 0, so they keep working until their seat's first rotation.

A write whose reply was lost may run twice (the cluster client sends it again by itself):
a burn writes a value of its own and recognises it, and a generation is raised to one
above the generation read (:func:`raise_generation`) rather than incremented, so that
neither comes out of a second run as "used" or with a token already revoked.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from events.store import LRU, key
from games.text import T, Text
from worker.lease import claim

PURPOSES = ("act", "play", "api", "mute", "me", "unsubscribe", "block")
CHECKED_KEPT = 4096  # API tokens found valid, kept per process


class LinkError(Exception):
    """A token that is tampered, expired, of the wrong kind or already used."""

    def __init__(self, message: str | Text, status: int = 403, revoked: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.revoked = revoked  # refused for its generation: the page offers fresh links


@dataclass(frozen=True)
class Link:
    game_id: str
    seat: int
    purpose: str
    version: int | None = None
    nonce: str = ""
    generation: int = 0


class Links:
    """Makes and checks tokens with the app's secret key."""

    def __init__(self, secret_key: str, max_age: int, play_max_age: int) -> None:
        self._secret = secret_key
        self.max_age = {"act": max_age, "play": play_max_age, "api": play_max_age,
                        "mute": play_max_age, "me": play_max_age,
                        "unsubscribe": play_max_age, "block": play_max_age}
        # one serializer per purpose, made once: each keeps no state between calls, and
        # making one per token was a tenth of an API request's time
        self._serializers = {purpose: URLSafeTimedSerializer(
            secret_key, salt=f"ravenpost-link-{purpose}") for purpose in PURPOSES}
        self._checked = LRU(CHECKED_KEPT)  # API token -> (Link, signed at)

    def _serializer(self, purpose: str) -> URLSafeTimedSerializer:
        return self._serializers[purpose]

    def make(self, game_id: str, seat: int, purpose: str, version: int | None = None,
             generation: int = 0) -> str:
        """A signed token; ``version`` for act links; ``generation``: the seat's."""
        payload: dict = {"g": game_id, "s": seat}
        if purpose == "act":
            payload |= {"v": version, "n": secrets.token_urlsafe(8)}
        if generation or purpose == "api":
            payload["gen"] = generation
        return self._serializer(purpose).dumps(payload)

    def check(self, token: str, purpose: str) -> Link:
        """The link a token stands for; LinkError if it is not valid for ``purpose``.

        API tokens come with every request of a client: the ones found valid are kept
        (a bounded LRU, with the time they were signed), so the signature is checked
        once per process and only their age again.  Whether a token is revoked is not
        this check's business (see service.auth): it is read from Redis every time."""
        if purpose == "api":
            kept = self._checked.get(token)
            if kept is not None and time.time() - kept[1] <= self.max_age["api"]:
                return kept[0]
        link = self._check(token, purpose)
        if purpose == "api":
            self._checked[token] = (link, self._signed_at(token))
        return link

    def _signed_at(self, token: str) -> float:
        """When a token that checked as valid was signed (its timestamp)."""
        serializer = self._serializers["api"]
        _, signed_at = serializer.loads(token, return_timestamp=True)
        return signed_at.timestamp()

    def _check(self, token: str, purpose: str) -> Link:
        try:
            data = self._serializer(purpose).loads(token, max_age=self.max_age[purpose])
        except SignatureExpired:
            raise LinkError(T("This link has expired. A fresh one comes with your next turn "
                              "email, or ask the game's organiser."), 403) from None
        except BadSignature:
            raise LinkError(T("This link is not valid (it may have been cut or altered)."),
                            403) from None
        if not isinstance(data, dict) or not isinstance(data.get("g"), str) \
                or not isinstance(data.get("s"), int):
            raise LinkError(T("This link is not valid."), 403)
        generation = data.get("gen", 0)
        if not isinstance(generation, int) or isinstance(generation, bool) or generation < 0:
            raise LinkError(T("This link is not valid."), 403)
        return Link(data["g"], data["s"], purpose, data.get("v"), data.get("n", ""),
                    generation)


    # -- reply addresses ----------------------------------------------------------------
    # An email address's local part holds at most 64 characters and some mail systems
    # fold its case, so a reply token is short and lower-case: the game id in base32, the
    # seat, version and generation in base 36, and 80 bits of HMAC, joined by "-".

    def make_reply(self, game_id: str, seat: int, version: int, generation: int = 0) -> str:
        """The token of a turn email's reply address: ``seat``'s answer to the turn as it
        stood at ``version``, valid while the seat's link generation is ``generation``."""
        body = "-".join((_b32(game_id.encode()), _b36(seat), _b36(version), _b36(generation)))
        return f"{body}-{self._reply_mac(body)}"

    def check_reply(self, token: str) -> Link:
        """The link (purpose ``reply``) a reply token stands for; LinkError if it is not
        one of ours (its age is the turn's business: see worker.replies)."""
        parts = token.strip().lower().split("-")
        if len(parts) != 5 or not hmac.compare_digest(
                parts[4], self._reply_mac("-".join(parts[:4]))):
            raise LinkError(T("This reply address is not valid."), 403)
        try:
            game_id = base64.b32decode(parts[0].upper() + "=" * (-len(parts[0]) % 8)).decode()
            seat, version, generation = (int(p, 36) for p in parts[1:4])
        except (ValueError, UnicodeDecodeError):
            raise LinkError(T("This reply address is not valid."), 403) from None
        return Link(game_id, seat, "reply", version, "", generation)

    def _reply_mac(self, body: str) -> str:
        digest = hmac.new(self._secret.encode(), b"ravenpost-reply|" + body.encode(),
                          hashlib.sha256).digest()[:10]
        return _b32(digest)

    def make_me(self, player: str, generation: int = 0) -> str:
        """A "my games" token for a player id (see :mod:`worker.players`), no game or seat."""
        return self.make_player("me", player, gen=generation)

    def check_me(self, token: str) -> tuple[str, int]:
        """The (player id, generation) of a "my games" token; LinkError if not valid."""
        data = self.check_player(token, "me")
        generation = data.get("gen")
        if not isinstance(generation, int) or isinstance(generation, bool) or generation < 0:
            raise LinkError(T("This link is not valid."), 403)
        return data["p"], generation

    def make_player(self, purpose: str, player: str, **extra: Any) -> str:
        """A token naming a player (an opaque id), not a seat: ``me``, ``unsubscribe``
        (``extra``: what it stops) and ``block`` (``extra``: whom)."""
        return self._serializer(purpose).dumps({"p": player, **extra})

    def check_player(self, token: str, purpose: str) -> dict[str, Any]:
        """The payload of a :meth:`make_player` token; LinkError if not valid."""
        try:
            data = self._serializer(purpose).loads(token, max_age=self.max_age[purpose])
        except SignatureExpired:
            raise LinkError(T("This link has expired. The next email from Ravenpost carries "
                              "a fresh one."), 403) from None
        except BadSignature:
            raise LinkError(T("This link is not valid (it may have been cut or altered)."),
                            403) from None
        if not isinstance(data, dict) or not isinstance(data.get("p"), str):
            raise LinkError(T("This link is not valid."), 403)
        return data


def _b32(data: bytes) -> str:
    return base64.b32encode(data).decode().rstrip("=").lower()


def _b36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


_REPLY_ADDRESS = re.compile(r"^(?P<prefix>[^+@\s]+)\+(?P<token>[a-z0-9-]+)@(?P<domain>[^@\s]+)$",
                            re.IGNORECASE)


def reply_address(config: dict[str, Any], token: str) -> str:
    """The Reply-To of an email whose answer goes to ``token`` (INBOUND_PREFIX and
    INBOUND_DOMAIN: ``play+<token>@reply.example.com``)."""
    return f"{config['INBOUND_PREFIX']}+{token}@{config['INBOUND_DOMAIN']}"


def reply_token_of(config: dict[str, Any], addresses) -> str | None:
    """The reply token of the first of ``addresses`` that is one of our reply
    addresses (our prefix and domain), else None."""
    for address in addresses:
        found = _REPLY_ADDRESS.match(address.strip())
        if found and found["prefix"].lower() == str(config["INBOUND_PREFIX"]).lower() \
                and found["domain"].lower() == str(config["INBOUND_DOMAIN"]).lower():
            return found["token"].lower()
    return None


def burn(redis_client, link: Link, ttl: int) -> bool:
    """Mark a one-shot link used; False if it was used before."""
    return claim(redis_client, key(link.game_id, f"used:{link.nonce}"), ttl) is None


def unburn(redis_client, link: Link) -> None:
    """Give a one-shot link back when the move it carried was refused (nothing happened)."""
    redis_client.delete(key(link.game_id, f"used:{link.nonce}"))


def is_used(redis_client, link: Link) -> bool:
    """True if a one-shot link was used already (read only: burns nothing)."""
    return bool(redis_client.exists(key(link.game_id, f"used:{link.nonce}")))


def _generations(game_id: str) -> str:
    return key(game_id, "api-gen")


def api_generation(redis_client, game_id: str, seat: int) -> int:
    """The seat's current API token generation (0 until its first revocation)."""
    return generation_of(redis_client.hget(*generation_command(game_id, seat)[1:]))


def generation_command(game_id: str, seat: int) -> tuple[str, str, str]:
    """The Redis command reading the seat's API token generation, for a caller's
    pipeline on the game's keys (its reply goes to :func:`generation_of`)."""
    return ("HGET", _generations(game_id), str(seat))


# Reads the seat's generation and, only if the token's is that one (not revoked), writes
# what the caller asks (the seat's "seen" mark): one round trip, on the game's keys only.
_GENERATION_THEN_SET = """
local current = redis.call('HGET', KEYS[1], ARGV[1])
if (current or '0') == ARGV[2] then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]) end
return current
"""


def generation_then_set(game_id: str, seat: int, generation: int,
                        entry: tuple[str, str, int]) -> tuple[Any, ...]:
    """Like :func:`generation_command` (same reply), and the same command writes
    ``entry`` = ``(key, value, seconds to live)`` if the seat's generation is
    ``generation``: a revoked token reads but writes nothing.  ``key`` must be one of
    the game's own keys (a Redis Cluster keeps them in one slot)."""
    name, value, ttl = entry
    return ("EVAL", _GENERATION_THEN_SET, 2, _generations(game_id), name, str(seat),
            str(generation), value, ttl)


def generation_guard(link: Link) -> tuple[str, str, str]:
    """``(hash, field, value)`` that holds while ``link``'s API token is not revoked,
    for :func:`events.guarded.append_if` (the hash named as :func:`key` names it)."""
    return ("api-gen", str(link.seat), str(link.generation))


def generation_of(reply: str | bytes | None) -> int:
    """The generation a :func:`generation_command` reply stands for."""
    return int(reply) if reply is not None else 0


SEAT_REVOKED = T("This link was revoked: its player signed out everywhere or asked for new "
                 "links. Sign in with your email address to get fresh ones.")


def seat_token(redis_client, links: Links, game_id: str, seat: int, purpose: str,
               version: int | None = None) -> str:
    """A fresh ``purpose`` token for the seat, of its current generation."""
    return links.make(game_id, seat, purpose, version,
                      generation=api_generation(redis_client, game_id, seat))


def check_current(redis_client, links: Links, token: str, purpose: str) -> Link:
    """The link a token stands for, if it is valid for ``purpose`` and of its seat's
    current generation; LinkError (403, ``revoked``) for one made before a rotation."""
    link = links.check(token, purpose)
    if link.generation != api_generation(redis_client, link.game_id, link.seat):
        raise LinkError(SEAT_REVOKED, 403, revoked=True)
    return link


def raise_seat_generation(redis_client, game_id: str, seat: int) -> int:
    """Refuse every token of the seat made so far; the seat's generation now."""
    return raise_generation(redis_client, _generations(game_id), str(seat),
                            api_generation(redis_client, game_id, seat) + 1)


def api_token(redis_client, links: Links, game_id: str, seat: int) -> str:
    """A fresh API token for the seat, of its current generation."""
    return links.make(game_id, seat, "api",
                      generation=api_generation(redis_client, game_id, seat))


def rotate_api_token(redis_client, links: Links, game_id: str, seat: int) -> str:
    """Revoke every token of the seat (at once: API tokens, play, move and mute links)
    and return an API token of the new generation."""
    generation = raise_seat_generation(redis_client, game_id, seat)
    return links.make(game_id, seat, "api", generation=generation)


# KEYS: the key.  ARGV: the hash field ('' for a plain key), the generation to reach.
_RAISE = """
local now
if ARGV[1] == '' then now = redis.call('GET', KEYS[1]) else
  now = redis.call('HGET', KEYS[1], ARGV[1]) end
now = tonumber(now or '0')
local wanted = tonumber(ARGV[2])
if now >= wanted then return now end
if ARGV[1] == '' then redis.call('SET', KEYS[1], wanted) else
  redis.call('HSET', KEYS[1], ARGV[1], wanted) end
return wanted
"""


def raise_generation(redis_client, name: str, field: str, at_least: int) -> int:
    """Raise the generation kept at ``name`` (its hash field ``field``; ``""``: the key
    itself) to ``at_least`` unless it is there already; the generation now.

    Run twice (a lost reply, sent again), it raises once; run by two revocations at once,
    both read the same generation and share the next; and it never goes back, so a token
    revoked by a third revocation meanwhile stays revoked."""
    return int(redis_client.eval(_RAISE, 1, name, field, at_least))
