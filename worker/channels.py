"""Notices on channels besides email: the player's Apprise URLs (Discord, Slack, Telegram,
Matrix, ntfy, a JSON webhook, ...), kept in their settings (``players.prefs(...)["channels"]``,
at most ``players.MAX_CHANNELS``).

What goes out: a short notice per turn (and the invitation, version 1) and per game
over, with the game's name, whose move it is and the seat's play link.  Reminders, take-back
requests, votes and time-outs stay email only.  Quiet hours and the daily digest are
about email: a channel is told at once (the player chose it; the apps behind these URLs
have do-not-disturb settings of their own).  A muted seat gets nothing here either.

"Once", as for email (:mod:`worker.notify`): a marker per notice and channel,
``chan:<kind>:<version>:<seat>:<channel id>`` in the game's keys (the channel id is a short
hash of the URL, :func:`channel_id`), and a lease ``<marker>:lease`` (:mod:`worker.lease`)
held while sending.  The marker says ``sending:<n>`` just before the send, then ``sent``,
``failed:<n>`` (the sweep tries again, up to ``MAX_TRIES`` sends) or ``given-up``.  A job
that finds ``sending:`` knows that the job before it died in mid-send: the webhook may
have had it, or not.  It sends again (a turn notice lost costs more than one seen twice)
and records the marker in ``UNCERTAIN`` (a capped list, for operators and the kill -9
test): that is the one duplicate left, the same as email's (the provider accepted it
and the worker died before ``sent`` was written).

Nothing lost: the caller records the notice in the game's ``channel-pending`` hash (and
the game in the ``CHANNEL_GAMES`` index) *before* the email's notice is marked done, then
enqueues the channel job (:func:`worker.jobs.notify_channels`, deterministic job id).
:func:`send_notice` forgets the record only once every channel is settled; the sweep
enqueues the job again for every record left (:func:`pending`).

Failures: each failed send counts one for (player, channel) in ``channel-state``
(``players.pkey(pid, "channel-state")``: ``<id>:fails``, ``<id>:error``, ``<id>:paused``
(unix time), ``<id>:told``); a success resets the count.  At ``PAUSE_AFTER`` failures in
a row the channel is paused: nothing more is sent to it, and the player is emailed once
per pause (``<id>:told`` holds the pause it told of; a lease guards the send) until they
resume it in their settings (:func:`resume`).
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import logging
import time
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

from events import shards
from events.store import key
from events.votes import ended_line
from games.text import T
from worker import i18n, players
from worker.lease import lease
from worker.links import seat_token
from worker.mail import Email, MailError
from worker.notices import NOTICE_MAX_PENDING
from worker.runtime import Runtime
from worker.sending import mark, render

log = logging.getLogger(__name__)

KINDS = ("turn", "ended")  # the notices that go to channels
LEASE_SECONDS = 15  # a send cut off by a crash is tried again this long after it stopped

PAUSE_AFTER = 5  # failed sends in a row that pause a channel
MAX_TRIES = 3  # sends of one notice to one channel before it is given up on that channel
MAX_URL = 1000  # characters
PENDING = "channel-pending"  # per game hash: "<kind>:<version>:<seat>" -> {"since": time}
CHANNEL_GAMES = "rp:channel-pending"  # set of games with channel notices pending (buckets)
UNCERTAIN = "rp:channels:uncertain"  # markers sent again after a send cut off mid-way
UNCERTAIN_KEEP = 1000
DONE = ("sent", "given-up")

# Apprise services that act on the machine running the worker, not on the player's
# device or account: desktop pop-ups, the local syslog, a USB light; macosx:// runs a
# program.  (Most are disabled on a server anyway; refused all the same.)
LOCAL_SCHEMES = frozenset({"windows", "dbus", "qt", "kde", "gnome", "glib", "gio",
                           "macosx", "syslog", "blink1"})
# URL parameters that name a file on the worker's disk, which Apprise would read (FCM's
# and Web Push's key files, an email's PGP keys).
FILE_PARAMS = frozenset({"keyfile", "subfile", "pgppub", "pgpprv"})


# -- checking and naming URLs ------------------------------------------------------------
def channel_id(url: str) -> str:
    """A short, stable id of a channel URL (the URL itself holds secrets)."""
    return hashlib.sha256(url.strip().encode("utf-8")).hexdigest()[:12]


def validate(url: str, *, allow_private: bool = False) -> str | None:
    """None if ``url`` is a channel the service will notify, else why not (one line).

    Apprise's own parsing decides whether it knows the service; refused besides: services
    local to the server (:data:`LOCAL_SCHEMES`), parameters that read a file on it
    (:data:`FILE_PARAMS`) and, unless ``allow_private``, a host that is this machine or a
    private address written as such (a name that resolves to one is not caught here)."""
    if not isinstance(url, str) or not url.strip():
        return "The channel URL is empty."
    url = url.strip()
    if len(url) > MAX_URL:
        return f"The channel URL is longer than {MAX_URL} characters."
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        return "The channel URL contains spaces or control characters."
    scheme, sep, _ = url.partition("://")
    if not sep or not scheme:
        return "Not a channel URL: it starts with a service, e.g. discord://, ntfy:// or json://."
    if scheme.lower() in LOCAL_SCHEMES:
        return f"{scheme}:// notifies the server itself, not you."
    try:
        parts = urlsplit(url)
        names = {name.lower() for name in parse_qs(parts.query, keep_blank_values=True)}
        host = (parts.hostname or "").lower()
    except ValueError:
        names, host = set(), ""
    refused = sorted(names & FILE_PARAMS)
    if refused:
        return f"The parameter {refused[0]} reads a file on the server; it is not allowed."
    if not allow_private and _private(host):
        return "The channel points at this server or a private network address."
    if _instantiate(url) is None:
        return f"Apprise does not accept this {scheme}:// URL (unknown service, or parts missing)."
    return None


def validate_all(urls: list[str], *, allow_private: bool = False) -> str | None:
    """None if ``urls`` may be saved as a player's channels, else why not (one line)."""
    if len(urls) > players.MAX_CHANNELS:
        return f"At most {players.MAX_CHANNELS} channels, not {len(urls)}."
    if len({u.strip() for u in urls if isinstance(u, str)}) != len(urls):
        return "The same channel is listed twice."
    for url in urls:
        reason = validate(url, allow_private=allow_private)
        if reason:
            return reason
    return None


def _private(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return not address.is_global


def _instantiate(url: str) -> Any:
    import apprise  # only for players who have channels: a ~0.3 s import and plugin scan
    try:
        return apprise.Apprise.instantiate(url, suppress_exceptions=True)
    except Exception:  # an Apprise plug-in that fails to parse its own URL
        return None


def label(url: str) -> str:
    """The URL as the settings page and emails may show it: Apprise's privacy form (tokens
    and passwords cut), without its query string."""
    plugin = _instantiate(url)
    text = plugin.url(privacy=True) if plugin is not None else url.partition("://")[0] + "://…"
    text = text.split("?", 1)[0]
    return text if len(text) <= 80 else text[:79] + "…"


# -- the settings page -------------------------------------------------------------------
def _state_key(pid: str) -> str:
    return players.pkey(pid, "channel-state")


def status(client, pid: str) -> list[dict[str, Any]]:
    """Each of the player's channels, in their order: ``id``, ``label`` (no secrets),
    ``failures`` (in a row), ``paused`` (bool), ``paused_at`` (unix time or None) and
    ``error`` (the last failure's reason, or None)."""
    urls = players.prefs(client, pid)["channels"]
    state = client.hgetall(_state_key(pid)) if urls else {}
    out = []
    for url in urls:
        cid = channel_id(url)
        paused = state.get(f"{cid}:paused")
        out.append({"id": cid, "label": label(url),
                    "failures": int(state.get(f"{cid}:fails") or 0),
                    "paused": paused is not None,
                    "paused_at": float(paused) if paused else None,
                    "error": state.get(f"{cid}:error") or None})
    return out


def resume(client, pid: str, url: str) -> bool:
    """Send to a paused channel again (its failures forgotten); whether it was paused."""
    cid = channel_id(url)
    pipe = client.pipeline(transaction=True)
    pipe.hexists(_state_key(pid), f"{cid}:paused")
    pipe.hdel(_state_key(pid), *(f"{cid}:{f}" for f in ("fails", "error", "paused", "told")))
    return bool(pipe.execute()[0])


def prune(client, pid: str) -> int:
    """Forget the state of channels the player no longer has (after saving their list)."""
    keep = {channel_id(u) for u in players.prefs(client, pid)["channels"]}
    stale = [f for f in client.hkeys(_state_key(pid)) if f.split(":", 1)[0] not in keep]
    return client.hdel(_state_key(pid), *stale) if stale else 0


# -- who has channels (the hook's cheap check) ---------------------------------------------
def seats_with_channels(client, seats_raw: str | None, seats: set[int]) -> set[int]:
    """Which of ``seats`` (of a game whose ``seats`` record is ``seats_raw``, as read)
    belong to a player with channels: one HGET per player, all in one round trip, and
    nothing at all if no seat has a player."""
    if not seats:
        return set()
    record = json.loads(seats_raw) if seats_raw else []
    pids: dict[int, str] = {}
    for seat in seats:
        info = record[seat] if seat < len(record) else {}
        if info.get("muted"):
            continue
        pid = info.get("player") or (players.lookup(client, info["email"])
                                      if info.get("email") else None)
        if pid:
            pids[seat] = pid
    if not pids:
        return set()
    distinct = sorted(set(pids.values()))
    pipe = client.pipeline(transaction=False)
    for pid in distinct:
        pipe.hget(players.pkey(pid, "prefs"), "channels")
    having = {pid for pid, raw in zip(distinct, pipe.execute(), strict=True)
              if raw and raw.strip() not in ("", "[]", "null")}
    return {seat for seat, pid in pids.items() if pid in having}


# -- pending records -----------------------------------------------------------------------
def ident(kind: str, version: int, seat: int) -> str:
    return f"{kind}:{version}:{seat}"


def record(rt: Runtime, game_id: str, kind: str, version: int, seat: int) -> None:
    """Note that the channels of ``seat`` are owed this notice (before its email's notice
    is marked done): the sweep enqueues its job until :func:`send_notice` settles it.
    The index first: a record it does not name would be found by no sweep."""
    rt.redis.sadd(shards.bucket_key(rt.redis, CHANNEL_GAMES, game_id), game_id)
    rt.redis.hsetnx(key(game_id, PENDING), ident(kind, version, seat),
                    json.dumps({"since": time.time()}))


def settle(rt: Runtime, game_id: str, kind: str, version: int, seat: int) -> None:
    rt.redis.hdel(key(game_id, PENDING), ident(kind, version, seat))


class Owed(NamedTuple):
    """A channel notice not settled yet (:func:`pending`); ``since``: when it was owed."""

    game_id: str
    kind: str
    version: int
    seat: int
    since: float = 0.0


def pending(rt: Runtime) -> list[Owed]:
    """Every channel notice not settled yet; a record older than ``NOTICE_MAX_PENDING``
    is given up here (logged)."""
    out = []
    oldest = time.time() - NOTICE_MAX_PENDING.total_seconds()
    for game_id in shards.smembers(rt.redis, CHANNEL_GAMES):
        found = rt.redis.hgetall(key(game_id, PENDING))
        if not found:
            index = shards.bucket_key(rt.redis, CHANNEL_GAMES, game_id)
            rt.redis.srem(index, game_id)
            if rt.redis.hlen(key(game_id, PENDING)):  # recorded meanwhile: back in
                rt.redis.sadd(index, game_id)
            continue
        for name, raw in found.items():
            kind, version, seat = name.split(":")
            try:
                since = float(json.loads(raw).get("since") or 0)
            except (ValueError, AttributeError):
                since = 0.0
            if since < oldest:
                log.error("gave up the %s channel notice of game %s: still not settled "
                          "after %s", name, game_id, NOTICE_MAX_PENDING)
                settle(rt, game_id, kind, int(version), int(seat))
                continue
            out.append(Owed(game_id, kind, int(version), int(seat), since))
    return out


# -- sending -----------------------------------------------------------------------------
def marker(game_id: str, kind: str, version: int, seat: int, cid: str) -> str:
    """The once-marker of one notice on one channel."""
    return key(game_id, f"chan:{kind}:{version}:{seat}:{cid}")


def send_notice(rt: Runtime, game_id: str, kind: str, version: int, seat: int) -> int:
    """Send notice ``kind`` (turn or ended) of ``seat`` to each channel of its player,
    once per channel; settle its pending record when every channel is settled (sent,
    given up, paused, or nothing to send).  Returns how many sends went out now."""
    pipe = rt.redis.pipeline(transaction=False)
    pipe.get(key(game_id, "seats"))
    pipe.hget(key(game_id, "awaiting"), str(seat))
    pipe.get(key(game_id, "summary"))
    seats_raw, awaiting_raw, summary_raw = pipe.execute()
    record_ = json.loads(seats_raw) if seats_raw else []
    info = record_[seat] if seat < len(record_) else {}
    pid = players.seat_player(rt.redis, info) if info else None
    urls = players.prefs(rt.redis, pid)["channels"][:players.MAX_CHANNELS] if pid else []
    if not urls or info.get("muted") or not _still_due(kind, version, awaiting_raw):
        settle(rt, game_id, kind, version, seat)
        return 0
    summary = json.loads(summary_raw) if summary_raw else {}
    title, body = _message(rt, game_id, kind, version, seat, info, summary)
    state = rt.redis.hgetall(_state_key(pid))
    sent, open_ = 0, False
    for url in urls:
        result = _send_one(rt, pid, url, marker(game_id, kind, version, seat, channel_id(url)),
                           state, title, body)
        sent += result == "sent"
        open_ |= result == "open"
    if not open_:
        settle(rt, game_id, kind, version, seat)
    return sent


def _still_due(kind: str, version: int, awaiting_raw: str | None) -> bool:
    """A turn notice whose turn has passed says nothing (as its email: worker.notify);
    the invitation (version 1) always goes."""
    if kind != "turn" or version == 1:
        return True
    return awaiting_raw is not None and json.loads(awaiting_raw).get("version") == version


def _message(rt: Runtime, game_id: str, kind: str, version: int, seat: int, info: dict,
             summary: dict) -> tuple[str, str]:
    """Title and body: the game's name, whose move, the seat's play link."""
    game = summary.get("name") or "your game"
    names = summary.get("names") or []
    me = info.get("name") or (names[seat] if seat < len(names) else f"Seat {seat}")
    others = [n for i, n in enumerate(names) if i != seat]
    table = f" with {', '.join(others)}" if others else ""
    link = rt.url("/play/" + seat_token(rt.redis, rt.links, game_id, seat, "play"))
    if kind == "ended":
        outcome = summary.get("outcome") or {}
        ranking = outcome.get("ranking") or []
        scores = outcome.get("scores") or []
        places = ", ".join(
            f"{n}. {names[s] if s < len(names) else s}"
            + (f" ({scores[s]})" if s < len(scores) else "")
            for n, s in enumerate(ranking, 1))
        lines = [f"{game}{table} is over."]
        reason = ended_line(outcome, names)
        if reason:
            lines.append(reason)
        if places:
            lines.append(f"Final ranking: {places}.")
        lines.append(f"See the end: {link}")
        return f"Game over: {game}", "\n".join(lines)
    if version == 1:
        return (f"You are invited to play {game}",
                f"{me}, you are invited to play {game}{table}.\nPlay: {link}")
    return (f"Your move in {game}",
            f"{me}, it is your move in {game}{table} (since move {version}).\nPlay: {link}")


def _send_one(rt: Runtime, pid: str, url: str, name: str, state: dict[str, str],
              title: str, body: str) -> str:
    """One notice to one channel: ``sent`` now, ``done`` (settled: sent before, given
    up, or paused) or ``open`` (the sweep is to try again: a failure with tries left, a
    send held by another job, the pause email not out yet)."""
    cid = channel_id(url)
    if state.get(f"{cid}:paused"):
        return "done" if _tell_paused(rt, pid, url, state.get(f"{cid}:paused")) else "open"
    with lease(rt.redis, f"{name}:lease", LEASE_SECONDS) as held:
        if not held:
            return "open"  # another job is sending it right now
        value = rt.redis.get(name) or ""
        if value in DONE:
            return "done"
        tries = int(value.rsplit(":", 1)[1]) if ":" in value else 0
        if value.startswith("sending:"):
            log.warning("channel notice %s: the send before was cut off; sending again "
                        "(the channel may get it twice)", name)
            pipe = rt.redis.pipeline(transaction=False)
            pipe.lpush(UNCERTAIN, name)
            pipe.ltrim(UNCERTAIN, 0, UNCERTAIN_KEEP - 1)
            pipe.execute()
        mark(rt, name, f"sending:{tries}")
        ok, reason = _deliver(url, title, body)
        if ok:
            mark(rt, name, "sent")
            if state.get(f"{cid}:fails"):  # a success resets the count
                rt.redis.hdel(_state_key(pid), f"{cid}:fails", f"{cid}:error")
                state.pop(f"{cid}:fails", None)
            return "sent"
        tries += 1
        paused_at = _failed(rt, pid, cid, reason)
        mark(rt, name, "given-up" if tries >= MAX_TRIES else f"failed:{tries}")
    log.warning("channel notice %s failed (try %d of %d): %s", name, tries, MAX_TRIES, reason)
    if paused_at is not None:
        state[f"{cid}:paused"] = paused_at  # the player's other notices skip it now
        return "done" if _tell_paused(rt, pid, url, paused_at) else "open"
    return "open" if tries < MAX_TRIES else "done"


def _deliver(url: str, title: str, body: str) -> tuple[bool, str]:
    """Send through Apprise; (whether it went, why not in a line)."""
    import apprise
    notifier = apprise.Apprise()
    if not notifier.add(url):
        return False, "Apprise no longer accepts this URL"
    with apprise.LogCapture(level=logging.WARNING, fmt="%(message)s") as logs:
        try:
            ok = bool(notifier.notify(body=body, title=title,
                                      body_format=apprise.NotifyFormat.TEXT))
        except Exception as exc:  # a plug-in's own bug must count as a failure, not crash
            ok, logs_text = False, f"{type(exc).__name__}: {exc}"
        else:
            logs_text = logs.getvalue()
    lines = [line.strip() for line in logs_text.splitlines() if line.strip()]
    return ok, (lines[-1][:200] if lines else "the service refused the notice")


def _failed(rt: Runtime, pid: str, cid: str, reason: str) -> str | None:
    """Count a failed send; the pause's time if the channel is paused (now or before)."""
    pipe = rt.redis.pipeline(transaction=False)
    pipe.hincrby(_state_key(pid), f"{cid}:fails", 1)
    pipe.hset(_state_key(pid), f"{cid}:error", reason)
    fails = pipe.execute()[0]
    if fails < PAUSE_AFTER:
        return None
    if rt.redis.hsetnx(_state_key(pid), f"{cid}:paused", f"{time.time():.0f}"):
        log.warning("paused channel %s of player %s after %d failures in a row", cid, pid,
                    fails)
    return rt.redis.hget(_state_key(pid), f"{cid}:paused")


def _tell_paused(rt: Runtime, pid: str, url: str, paused_at: str | None) -> bool:
    """Email the player that a channel was paused, once per pause; whether that is
    settled (told now or before, or nobody to tell)."""
    cid = channel_id(url)
    if paused_at is None:
        return True  # resumed meanwhile
    state_key = _state_key(pid)
    if rt.redis.hget(state_key, f"{cid}:told") == paused_at:
        return True  # told already (no lease needed to see that)
    with lease(rt.redis, players.pkey(pid, f"channel-told:{cid}:lease"), LEASE_SECONDS) as held:
        if not held:
            return False  # another job is telling; the sweep looks again
        if rt.redis.hget(state_key, f"{cid}:told") == paused_at:
            return True
        address = players.address_of(rt.redis, pid)
        if address:
            try:
                rt.mail.send(_paused_email(rt, pid, url, address, paused_at,
                                           rt.redis.hget(state_key, f"{cid}:error")))
            except MailError as exc:
                if exc.transient:
                    log.warning("the pause email of channel %s failed; retried", cid)
                    return False
                log.error("the pause email of channel %s was rejected: %s", cid, exc)
        rt.redis.hset(state_key, f"{cid}:told", paused_at)
    return True


def _paused_email(rt: Runtime, pid: str, url: str, address: str, paused_at: str,
                  error: str | None) -> Email:
    unsubscribe = rt.url("/unsubscribe/" + rt.links.make_player(
        "unsubscribe", pid, what="everything"))
    context = {"name": label(url), "times": PAUSE_AFTER, "error": error,
               "my_games_url": players.my_games_url_of(rt, pid),
               "unsubscribe_url": unsubscribe}
    return render(rt, "channel_paused", T("A notification channel of yours was paused"),
                  address, f"channel-paused:{pid}:{channel_id(url)}:{paused_at}", context,
                  unsubscribe, language=i18n.player_language(rt, pid))


