"""Players across games, identified by email address: the "my games" index, their
settings (quiet hours, time zone, daily digest) and their "me" link generation.

Every key is per player, ``rp:player:<sha256(address)>:...`` (the address itself is
never a key, nor in a link): ``games`` (hash: game id -> JSON list of the player's seats
in it), ``prefs`` (hash of settings) and ``me-gen`` (the generation of the my-games link;
revoking bumps it, so every link made before is refused at once).  The keys of one player
share the hash tag ``{p:<sha>}`` so that a Redis Cluster keeps them in one slot; no key
here is written on every append (the index is written when a game is first projected).

The index is a read model: :func:`index_game` is idempotent (``HSET`` of the same value),
and :func:`rebuild` writes it again for every game from the games' ``seats`` records.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from events.clocks import ClockFold, span
from events.store import key
from worker.links import LinkError, Links, raise_generation

DEFAULT_QUIET = (22, 8)  # local hours: quiet from 22:00 until 08:00
PREF_FIELDS = ("quiet", "tz", "digest")


def player_id(address: str) -> str:
    """The stable, address-free id of a player: SHA-256 of the trimmed, lower-case address."""
    return hashlib.sha256(address.strip().lower().encode("utf-8")).hexdigest()


def pkey(pid: str, name: str) -> str:
    """A per-player key, e.g. ``rp:player:{p:<sha>}:games``."""
    return f"rp:player:{{p:{pid}}}:{name}"


# -- the games index ---------------------------------------------------------------------
def seats_by_player(seats: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Player id -> their seats in one game (a player may hold several seats)."""
    out: dict[str, list[int]] = {}
    for entry in seats or []:
        if entry.get("email"):
            out.setdefault(player_id(entry["email"]), []).append(int(entry["seat"]))
    return out


def index_game(client, game_id: str, seats: list[dict[str, Any]] | None = None) -> int:
    """Record ``game_id`` in the index of every player seated in it; idempotent.
    Returns how many players it names."""
    if seats is None:
        raw = client.get(key(game_id, "seats"))
        seats = json.loads(raw) if raw else []
    found = seats_by_player(seats)
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


def rebuild(client, store) -> int:
    """Write the index again for every game (after a restore, or for games created
    before it existed); safe to run at any time.  Returns the number of games."""
    count, offset = 0, 0
    while True:
        ids = store.game_ids(offset, 500, newest_first=False)
        for game_id in ids:
            index_game(client, game_id)
        count += len(ids)
        if len(ids) < 500:
            return count
        offset += 500


# -- settings ----------------------------------------------------------------------------
def prefs(client, pid: str) -> dict[str, Any]:
    """The player's settings, with defaults: ``quiet`` (start, end) local hours or None
    for off, ``tz`` (None: each game's seat time zone), ``digest`` (local hour or None)
    and ``digest_since`` (unix time it was turned on: no digest is due before)."""
    raw = client.hgetall(pkey(pid, "prefs"))
    return parse_prefs(raw)


def parse_prefs(raw: dict[str, str]) -> dict[str, Any]:
    """Settings as stored (strings) to values; anything unreadable counts as the default."""
    quiet: tuple[int, int] | None = DEFAULT_QUIET
    text = raw.get("quiet")
    if text == "off":
        quiet = None
    elif text:
        try:
            start, end = (int(x) for x in text.split("-", 1))
            if 0 <= start <= 23 and 0 <= end <= 23 and start != end:
                quiet = (start, end)
        except ValueError:
            pass
    digest = raw.get("digest")
    try:
        since = float(raw.get("digest_since") or 0)
    except ValueError:
        since = 0.0
    return {"quiet": quiet, "tz": raw.get("tz") or None,
            "digest": int(digest) if digest and digest.isdigit() and int(digest) < 24 else None,
            "digest_since": since}


def save_prefs(client, pid: str, *, quiet: tuple[int, int] | None | str = "keep",
               tz: str | None = None, digest: int | None | str = "keep",
               since: float | None = None) -> None:
    """Change some settings (``"keep"`` leaves one as it is)."""
    mapping: dict[str, str] = {} if since is None else {"digest_since": f"{since:.0f}"}
    if quiet != "keep":
        mapping["quiet"] = "off" if quiet is None else f"{quiet[0]}-{quiet[1]}"
    if tz:
        mapping["tz"] = tz
    if digest != "keep":
        mapping["digest"] = "" if digest is None else str(digest)
    if mapping:
        client.hset(pkey(pid, "prefs"), mapping=mapping)


# -- the my-games link -------------------------------------------------------------------
def me_generation(client, pid: str) -> int:
    value = client.get(pkey(pid, "me-gen"))
    return int(value) if value is not None else 0


def me_token(client, links: Links, pid: str) -> str:
    """A my-games link token of the player's current generation."""
    return links.make_me(pid, me_generation(client, pid))


def check_me(client, links: Links, token: str) -> str:
    """The player id a my-games token stands for; LinkError if bad or revoked."""
    pid, generation = links.check_me(token)
    if generation != me_generation(client, pid):
        raise LinkError("This link was revoked. The newest email from Ravenpost carries "
                        "the current one.", 403)
    return pid


def my_games_url(rt, address: str | None) -> str | None:
    """The player's my-games page as an absolute link (None without an address)."""
    if not address:
        return None
    return rt.url(f"/me/{me_token(rt.redis, rt.links, player_id(address))}")


def revoke_me(client, links: Links, pid: str) -> str:
    """Revoke every my-games link of the player at once; a token of the new generation."""
    generation = raise_generation(client, pkey(pid, "me-gen"), "",
                                  me_generation(client, pid) + 1)
    return links.make_me(pid, generation)


# -- the listing (my-games page and digest) ----------------------------------------------
MAX_LISTED = 200  # games on one page or digest, most urgent first


def local_time(iso: str | None, tz: str | None) -> str | None:
    """An ISO time as the player reads it in their zone ("Monday 30 November, 18:00 CET")."""
    if not iso:
        return None
    from worker.quiet import zone
    return datetime.fromisoformat(iso).astimezone(zone(tz)).strftime("%A %d %B %Y, %H:%M %Z")


def listing(rt, pid: str, tz: str | None = None) -> list[dict[str, Any]]:
    """The player's games, most urgent first: their turn (nearest deadline first; no
    deadline after those), then the others' turns, then finished games (each group's
    ties: latest activity first).  Each row: ``game_id``, ``name``, ``names``, ``seats`` (theirs),
    ``waiting_for`` (names), ``your_turn``, ``deadline`` (ISO) and ``deadline_text`` (in
    ``tz``, else the seat's zone), ``clock`` (what else the turn's read model holds),
    ``ended``, ``play_url``, ``updated``."""
    from worker.timeouts import CLOCK_KEY  # timeouts' own read model

    index = games_of(rt.redis, pid)
    ids = list(index)
    pipe = rt.redis.pipeline(transaction=False)
    for game_id in ids:
        pipe.get(key(game_id, "summary"))
        pipe.hgetall(key(game_id, "awaiting"))
        pipe.get(key(game_id, "seats"))
        pipe.get(key(game_id, CLOCK_KEY))
    replies = pipe.execute()
    now = rt.now().timestamp()
    rows = []
    for i, game_id in enumerate(ids):
        summary_raw, awaiting_raw, seats_raw, clock_raw = replies[4 * i:4 * i + 4]
        if not summary_raw:
            continue  # not projected yet (or gone)
        summary = json.loads(summary_raw)
        seats = json.loads(seats_raw) if seats_raw else []
        mine = index[game_id]
        awaiting = {int(s): json.loads(v) for s, v in awaiting_raw.items()}
        turns = [awaiting[s] for s in mine if s in awaiting and not summary["ended"]]
        deadlines = sorted(t["deadline"] for t in turns if t.get("deadline"))
        seat_tz = next((seats[s].get("tz") for s in mine if s < len(seats)), None)
        clock = {k: v for t in turns for k, v in t.items() if k not in ("version", "deadline")}
        names = summary.get("names") or []
        rows.append({
            "game_id": game_id, "name": summary.get("name", game_id), "names": names,
            "seats": mine, "your_names": [names[s] for s in mine if s < len(names)],
            "waiting_for": [names[s] for s in summary.get("to_act", []) if s < len(names)],
            "your_turn": bool(turns), "deadline": deadlines[0] if deadlines else None,
            "deadline_text": local_time(deadlines[0], tz or seat_tz) if deadlines else None,
            "since": min((t["version"] for t in turns), default=None), "clock": clock,
            "ended": bool(summary["ended"]), "updated": summary.get("updated", ""),
            "play_url": rt.url(f"/play/{rt.links.make(game_id, mine[0], 'play')}"),
            **(clock_row(json.loads(clock_raw), mine, now)
               if clock_raw and not summary["ended"] else {}),
        })
    rows.sort(key=lambda r: r["updated"], reverse=True)  # within a group: latest first
    rows.sort(key=lambda r: (0 if r["your_turn"] else 2 if r["ended"] else 1,
                             r["deadline"] or "~" if r["your_turn"] else ""))
    return rows[:MAX_LISTED]


def clock_row(state: dict[str, Any], seats: list[int], now: float) -> dict[str, Any]:
    """What the listing shows of the player's clock in a game (from the clocks read
    model): ``out_of_time`` (a seat of theirs timed out on its turn) and, for a banked
    clock, ``bank_text``, the time left on it (running or not)."""
    clocks = ClockFold(state)
    if clocks.kind == "none" or not clocks.s["seats"]:
        return {}
    mine = [clocks.seat_clock(s, now) for s in seats if s < len(clocks.s["seats"])]
    out: dict[str, Any] = {"out_of_time": any(c.timed_out for c in mine)}
    if clocks.kind == "bank" and mine:
        left = clocks.seconds_left(now)
        out["bank_text"] = span(min(left[c.seat] for c in mine))
    return out
