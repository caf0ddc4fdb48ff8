"""Players: the person behind an email address, across every game they sit in.

A player is an opaque random id (``pid``), never derived from the address, so no link
that names a player says anything about their address.  The keys:

- ``rp:address:{a:<sha256 of the address>}`` -> pid: the one way from an address to its
  player (written once, ``SET NX``: two first sightings at once agree on one id);
- ``rp:player:{p:<pid>}:account`` (hash): ``address``, ``created`` and ``verified`` (the
  unix time the address was first proven: a sign-in by a mailed link, or an action
  taken through a link mailed to it);
- ``...:games`` (hash: game id -> JSON list of the player's seats in it), the "my games"
  index, a read model written when a game is first projected (:func:`index_game`) and
  rebuilt by :func:`rebuild`;
- ``...:prefs`` (hash): the player's settings (quiet hours, time zone, digest, language,
  forced moves, confirmations of moves made by reply, notification channels), written
  only by the player (a signed-in session or a link mailed to their address; see
  service.mygames and service.api);
- ``...:me-gen``: the player's *generation*.  Every session and my-games link carries it;
  :func:`sign_out_everywhere` raises it and every seat generation of the player's games
  (worker.links), so every link, token and session made before is refused at once.

The keys of one player share the hash tag ``{p:<pid>}`` (one Redis Cluster slot).  Players
from before ids were random were keyed by the address's SHA-256; :func:`player_id`
carries their settings and index over the first time it meets the address again.

This module is imported by the web, the lobby and the worker and imports none of them.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from events.store import key
from games.text import T
from worker.links import LinkError, Links, raise_generation, raise_seat_generation

DEFAULT_QUIET = (22, 8)  # local hours: quiet from 22:00 until 08:00
LANGUAGES = ("en", "de")  # what a player may choose (rendering: see the languages issue)
MAX_CHANNELS = 5  # notification URLs per player


def normalize(address: str) -> str:
    """An address as the service compares it: trimmed, lower case."""
    return address.strip().lower()


def legacy_id(address: str) -> str:
    """The id players had before ids were random: SHA-256 of the normalised address (it
    appears only in old keys, never in a link made today)."""
    return hashlib.sha256(normalize(address).encode("utf-8")).hexdigest()


def address_key(address: str) -> str:
    return f"rp:address:{{a:{legacy_id(address)}}}"


def pkey(pid: str, name: str) -> str:
    """A per-player key, e.g. ``rp:player:{p:<pid>}:games``."""
    return f"rp:player:{{p:{pid}}}:{name}"


# -- identity ----------------------------------------------------------------------------
def lookup(client, address: str) -> str | None:
    """The player of ``address``, if the service has met it (nothing is written)."""
    return client.get(address_key(address)) if address and address.strip() else None


def player_id(client, address: str) -> str:
    """The player of ``address``, made on first sight (an unverified player: an invitee).

    The account is written before the address points to it, so an address never leads
    to a player without one; a loser of a race leaves an unused account (deleted)."""
    found = lookup(client, address)
    if found:
        return found
    pid = secrets.token_urlsafe(15)
    client.hset(pkey(pid, "account"), mapping={"address": address.strip(),
                                               "created": f"{time.time():.0f}"})
    if not client.set(address_key(address), pid, nx=True):
        client.delete(pkey(pid, "account"))
        return client.get(address_key(address))
    _adopt_legacy(client, address, pid)
    return pid


def _adopt_legacy(client, address: str, pid: str) -> None:
    """Carry a player's settings and index from their address-derived id to ``pid``."""
    old = legacy_id(address)
    for name in ("prefs", "games"):
        found = client.hgetall(pkey(old, name))
        if found:
            client.hset(pkey(pid, name), mapping=found)
    if client.srem(DIGEST_PLAYERS, old):
        client.sadd(DIGEST_PLAYERS, pid)


DIGEST_PLAYERS = "rp:digest:players"  # set of player ids who take the daily digest


def account(client, pid: str) -> dict[str, Any]:
    """``address``, ``created`` and ``verified`` (unix times; verified 0: never)."""
    raw = client.hgetall(pkey(pid, "account"))
    return {"address": raw.get("address") or None,
            "created": float(raw.get("created") or 0),
            "verified": float(raw.get("verified") or 0)}


def address_of(client, pid: str) -> str | None:
    return client.hget(pkey(pid, "account"), "address") or None


def is_verified(client, pid: str) -> bool:
    return bool(client.hget(pkey(pid, "account"), "verified"))


def verify(client, pid: str, at: float | None = None) -> None:
    """The address is proven (signed in, or acted through a link mailed to it)."""
    client.hsetnx(pkey(pid, "account"), "verified", f"{at or time.time():.0f}")


def seat_player(client, info: dict[str, Any]) -> str | None:
    """The player holding a seat (its ``seats`` record entry); None for a seat with no
    address.  Games from before the seat carried its player resolve the address."""
    if info.get("player"):
        return info["player"]
    return player_id(client, info["email"]) if info.get("email") else None


# -- the games index ---------------------------------------------------------------------
def seats_by_player(client, seats: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Player id -> their seats in one game (a player may hold several seats)."""
    out: dict[str, list[int]] = {}
    for entry in seats or []:
        pid = seat_player(client, entry)
        if pid:
            out.setdefault(pid, []).append(int(entry["seat"]))
    return out


def index_game(client, game_id: str, seats: list[dict[str, Any]] | None = None) -> int:
    """Record ``game_id`` in the index of every player seated in it; idempotent.
    Returns how many players it names."""
    if seats is None:
        raw = client.get(key(game_id, "seats"))
        seats = json.loads(raw) if raw else []
    found = seats_by_player(client, seats)
    if not found:
        return 0
    pipe = client.pipeline(transaction=False)
    for pid, held in found.items():
        pipe.hset(pkey(pid, "games"), game_id, json.dumps(held))
    pipe.execute()
    return len(found)


def games_of(client, pid: str) -> dict[str, list[int]]:
    """The player's games: game id -> their seats in it."""
    return {g: json.loads(s) for g, s in client.hgetall(pkey(pid, "games")).items()}


def verify_movers(client, store, game_id: str) -> int:
    """Mark verified the players of ``game_id`` whose seat made a move of its own (not
    one the service played for it): they played, so they are no strangers to invite.
    For games from before addresses were verified; how many players."""
    raw = client.get(key(game_id, "seats"))
    seats = json.loads(raw) if raw else []
    moved = {event.actor for event in store.iter(game_id)
             if event.type == "MovePlayed" and not event.data.get("auto")}
    found = 0
    for info in seats:
        pid = seat_player(client, info) if f"seat:{info['seat']}" in moved else None
        if pid:
            verify(client, pid)
            found += 1
    return found


def rebuild(client, store) -> int:
    """Write the index again for every game (after a restore, or for games created
    before it existed), and mark verified whoever played in one (see
    :func:`verify_movers`); safe to run at any time.  Returns the number of games."""
    count, offset = 0, 0
    while True:
        ids = store.game_ids(offset, 500, newest_first=False)
        for game_id in ids:
            index_game(client, game_id)
            verify_movers(client, store, game_id)
        count += len(ids)
        if len(ids) < 500:
            return count
        offset += 500


# -- settings ----------------------------------------------------------------------------
def prefs(client, pid: str) -> dict[str, Any]:
    """The player's settings, with defaults: ``quiet`` (start, end) local hours or None
    for off, ``chosen`` (they set their quiet hours), ``tz`` (None: each game's seat
    time zone), ``digest`` (local hour or None), ``digest_since`` (unix time it was
    turned on: no digest is due before), ``language``, ``forced`` (the default of
    "play my only move for me"), ``confirm`` (a move made by replying to an email is
    confirmed by email: off by default, the next turn email being its confirmation) and
    ``channels`` (Apprise URLs)."""
    return parse_prefs(client.hgetall(pkey(pid, "prefs")))


def parse_prefs(raw: dict[str, str]) -> dict[str, Any]:
    """Settings as stored (strings) to values; anything unreadable counts as the default."""
    quiet: tuple[int, int] | None = DEFAULT_QUIET
    text = raw.get("quiet")
    if text == "off":
        quiet = None
    elif text:
        parsed = parse_quiet(text)
        if parsed:
            quiet = parsed
    digest = raw.get("digest")
    try:
        since = float(raw.get("digest_since") or 0)
    except ValueError:
        since = 0.0
    try:
        channels = [c for c in json.loads(raw.get("channels") or "[]") if isinstance(c, str)]
    except (ValueError, TypeError):
        channels = []
    language = raw.get("language")
    return {"quiet": quiet, "chosen": bool(text), "tz": raw.get("tz") or None,
            "digest": int(digest) if digest and digest.isdigit() and int(digest) < 24 else None,
            "digest_since": since,
            "language": language if language in LANGUAGES else None,
            "forced": raw.get("forced") != "off", "confirm": raw.get("confirm") == "on",
            "channels": channels}


def parse_quiet(text: str) -> tuple[int, int] | None:
    """``"22-8"`` as (22, 8); None unless two different whole hours 0-23."""
    try:
        start, end = (int(x) for x in text.replace("–", "-").split("-", 1))
    except ValueError:
        return None
    return (start, end) if 0 <= start <= 23 and 0 <= end <= 23 and start != end else None


KEEP = "keep"


def save_prefs(client, pid: str, *, quiet: tuple[int, int] | None | str = KEEP,
               tz: str | None = None, digest: int | None | str = KEEP,
               since: float | None = None, language: str | None = KEEP,
               forced: bool | str = KEEP, channels: list[str] | str = KEEP,
               confirm: bool | str = KEEP) -> None:
    """Change some settings (``"keep"`` leaves one as it is)."""
    mapping: dict[str, str] = {} if since is None else {"digest_since": f"{since:.0f}"}
    if quiet != KEEP:
        mapping["quiet"] = "off" if quiet is None else f"{quiet[0]}-{quiet[1]}"
    if tz:
        mapping["tz"] = tz
    if digest != KEEP:
        mapping["digest"] = "" if digest is None else str(digest)
    if language != KEEP:
        mapping["language"] = language or ""
    if forced != KEEP:
        mapping["forced"] = "on" if forced else "off"
    if confirm != KEEP:
        mapping["confirm"] = "on" if confirm else "off"
    if channels != KEEP:
        mapping["channels"] = json.dumps(list(channels))
    if mapping:
        client.hset(pkey(pid, "prefs"), mapping=mapping)


# -- the player's generation: my-games links, sessions, every seat's links ---------------
def me_generation(client, pid: str) -> int:
    value = client.get(pkey(pid, "me-gen"))
    return int(value) if value is not None else 0


def me_token(client, links: Links, pid: str) -> str:
    """A my-games link token of the player's current generation."""
    return links.make_me(pid, me_generation(client, pid))


REVOKED = T("This link was revoked: you signed out everywhere, or asked for new links. "
            "Sign in with your email address to get fresh ones.")


def check_me(client, links: Links, token: str) -> str:
    """The player id a my-games token stands for; LinkError if bad or revoked."""
    pid, generation = links.check_me(token)
    pipe = client.pipeline(transaction=False)
    pipe.get(pkey(pid, "me-gen"))
    pipe.exists(pkey(pid, "account"))
    current, known = pipe.execute()
    # a link from before ids were random names the address's hash: refused, as revoked
    if not known or generation != int(current or 0):
        raise LinkError(REVOKED, 403, revoked=True)
    return pid


def my_games_url(rt, address: str | None) -> str | None:
    """The player's my-games page as an absolute link (None without an address)."""
    if not address:
        return None
    return my_games_url_of(rt, player_id(rt.redis, address))


def my_games_url_of(rt, pid: str) -> str:
    return rt.url(f"/me/{me_token(rt.redis, rt.links, pid)}")


def sign_out_everywhere(client, links: Links, pid: str) -> str:
    """Refuse every link, token and session the player holds, at once: the player's
    generation is raised (my-games links, sessions) and so is the generation of each of
    their seats (play, move and mute links, API tokens).  A my-games token of the new
    generation.  Run twice (a lost reply), it raises each generation once."""
    generation = raise_generation(client, pkey(pid, "me-gen"), "",
                                  me_generation(client, pid) + 1)
    for game_id, seats in games_of(client, pid).items():
        for seat in seats:
            raise_seat_generation(client, game_id, seat)
    return links.make_me(pid, generation)


revoke_me = sign_out_everywhere  # the my-games page's "revoke" is the same promise
