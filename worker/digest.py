"""The daily digest: for a player who chose it, one email a day at their chosen local
hour listing the games awaiting them, instead of one email per turn.

The player turns it on (and picks the hour) on their my-games page; their turn emails
are then skipped (settled, not retried: see :mod:`worker.held`), invitations and
reminders still go.  The digest of local day ``D`` is due at the chosen hour of ``D`` in
the player's time zone, or when their quiet hours end if the hour falls inside them.

"One a day, never two": each digest is an RQ job scheduled with a deterministic id
(``digest:<player>:<day>``) and sent through the notify module's once-send under the
marker ``mailed:digest:<day>`` (which expires after ``sending.MARKER_SECONDS``: days, not
for ever).  The sweep (:func:`sweep`, at most every ``SWEEP_SECONDS``) enqueues any
digest whose time has come and that is not marked sent, and schedules each player's
next one, so a lost job or a dead worker delays a digest, never drops or doubles it.
A day with nothing awaiting the player sends nothing (the day is still marked done).

The set ``DIGEST_PLAYERS`` names the players who chose it; it is written only when a
player changes the setting.
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from games.text import P, T
from worker import current, i18n, players
from worker.hours import player_quiet, quiet_until, read_prefs, zone
from worker.listing import listing
from worker.runtime import Runtime, runtime
from worker.sending import render, send_once

log = logging.getLogger(__name__)

DIGEST_PLAYERS = players.DIGEST_PLAYERS  # set of player ids who take the daily digest
SWEEP_LEASE = "rp:digest:sweep"  # exists while a digest check is recent
SWEEP_SECONDS = 300
LATE_LIMIT = timedelta(hours=20)  # a digest this late is skipped: the next one is near


def set_digest(rt: Runtime, pid: str, hour: int | None) -> None:
    """Turn the digest on at local ``hour`` (0-23), or off with None; schedules the next.
    The first digest is the next one due after now (no digest for a day already begun
    before the hour chosen)."""
    before = players.prefs(rt.redis, pid)
    if hour == before["digest"]:
        return  # unchanged: keep the day's digest as it was planned
    players.save_prefs(rt.redis, pid, digest=hour, since=current.now().timestamp())
    if hour is None:
        rt.redis.srem(DIGEST_PLAYERS, pid)
        return
    rt.redis.sadd(DIGEST_PLAYERS, pid)
    schedule(rt, pid)


def player_tz(rt: Runtime, pid: str, prefs: dict[str, Any]) -> str:
    """The zone a player's digest follows: their own setting, else a seat's of theirs."""
    if prefs.get("tz"):
        return prefs["tz"]
    for game_id, seats in players.games_of(rt.redis, pid).items():
        info = (rt.store.get_json(game_id, "seats") or [])
        if seats and seats[0] < len(info) and info[seats[0]].get("tz"):
            return info[seats[0]]["tz"]
    return "UTC"


def due_at(day: date, hour: int, tz: str, quiet_hours: tuple[int, int] | None) -> datetime:
    """When the digest of local ``day`` is due (UTC): ``hour`` there, or the end of the
    quiet hours if ``hour`` falls inside them."""
    where = zone(tz)
    at = datetime.combine(day, time(hour), tzinfo=where)
    return quiet_until(at, tz, quiet_hours) or at.astimezone(UTC)


def _plan(rt: Runtime, pid: str) -> tuple[dict[str, Any], str, tuple[int, int] | None]:
    prefs = read_prefs(rt.redis, pid)
    return prefs, player_tz(rt, pid, prefs), player_quiet(prefs, rt.config)


def _marker(pid: str, day: date) -> str:
    return players.pkey(pid, f"mailed:digest:{day.isoformat()}")


def schedule(rt: Runtime, pid: str, at: datetime | None = None) -> date | None:
    """Make sure the player's digests are on their way: today's enqueued now if its
    time has come and it is not sent, and the next one scheduled.  The next day's date."""
    at = at or current.now()
    prefs, tz, quiet_hours = _plan(rt, pid)
    hour = prefs["digest"]
    if hour is None:
        return None
    today = at.astimezone(zone(tz)).date()
    # the latest digest due (today's, or yesterday's before today's hour) if not sent
    last = max((d for d in (today - timedelta(days=1), today)
                if due_at(d, hour, tz, quiet_hours) <= at), default=None)
    if last is not None:
        due = due_at(last, hour, tz, quiet_hours)
        if due.timestamp() >= prefs["digest_since"] and at - due < LATE_LIMIT \
                and rt.redis.get(_marker(pid, last)) is None:
            rt.enqueuer.enqueue(send_digest, pid, last.isoformat(),
                                job_id=f"digest:{pid}:{last.isoformat()}")
    upcoming = today if due_at(today, hour, tz, quiet_hours) > at else today + timedelta(days=1)
    rt.enqueuer.enqueue(send_digest, pid, upcoming.isoformat(),
                        job_id=f"digest:{pid}:{upcoming.isoformat()}",
                        delay=max(due_at(upcoming, hour, tz, quiet_hours) - at,
                                  timedelta(seconds=1)))
    return upcoming


def send_digest(pid: str, day: str) -> bool:
    """RQ job: send the player's digest of local ``day`` (once), then schedule the next."""
    rt = runtime()
    sent = send(rt, pid, date.fromisoformat(day))
    if rt.redis.sismember(DIGEST_PLAYERS, pid):
        schedule(rt, pid)
    return sent


def send(rt: Runtime, pid: str, day: date) -> bool:
    """The digest of ``day`` for player ``pid``, under its once-marker; False if it went
    already, the player turned the digest off, or nothing awaits them."""
    prefs, tz, _ = _plan(rt, pid)
    if prefs["digest"] is None:
        return False

    def build():
        language = i18n.player_language(rt, pid, prefs)
        rows = [r for r in listing(rt, pid, tz, language) if r["your_turn"]]
        address = players.address_of(rt.redis, pid)
        if not rows or not address:
            return None  # nothing awaits them today: no email
        context = {"rows": rows, "day": day, "count": len(rows),
                   "day_text": i18n.local_day(day, language),
                   "my_games_url": players.my_games_url_of(rt, pid),
                   "mute_url": rt.url("/unsubscribe/" + rt.links.make_player(
                       "unsubscribe", pid, what="digest"))}
        subject = (T("Your move in %(game)s", game=rows[0]["name"]) if len(rows) == 1 else
                   P("Your move in %(n)s game", "Your move in %(n)s games", len(rows)))
        return render(rt, "digest", T("Ravenpost digest: %(subject)s", subject=subject),
                      address, f"digest:{pid}:{day.isoformat()}", context,
                      context["mute_url"], language=language)

    return send_once(rt, _marker(pid, day), build, lambda: None)


def sweep(rt: Runtime) -> int:
    """At most every ``SWEEP_SECONDS``: :func:`schedule` every digest player (a lost
    job is enqueued again; a sent digest is never sent again).  How many players."""
    if not rt.redis.set(SWEEP_LEASE, "1", nx=True, ex=SWEEP_SECONDS):
        return 0
    count = 0
    for pid in rt.redis.smembers(DIGEST_PLAYERS):
        try:
            schedule(rt, pid)
        except Exception:  # one player's bad data must not hold up the others'
            log.exception("digest: scheduling player %s failed", pid)
        count += 1
    return count
