"""Quiet hours: when a player wants no email, in their own time zone.

Each player may choose theirs (:mod:`worker.players`); a game's creator may give a seat
some for that game only; else ``QUIET_HOURS`` (default 22:00-08:00, or "off").  What the
send path does with an email that falls inside them: :mod:`worker.held`.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from worker import players


def zone(name: str | None) -> ZoneInfo:
    """The time zone ``name``, UTC if it is unknown."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def default_quiet(config: dict) -> tuple[int, int] | None:
    """The quiet hours of players who did not choose: ``QUIET_HOURS`` ("22-8", "off")."""
    text = str(config.get("QUIET_HOURS") or "22-8")
    if text == "off":
        return None
    return players.parse_quiet(text) or players.DEFAULT_QUIET


def quiet_until(at: datetime, tz: str | None, quiet: tuple[int, int] | None) -> datetime | None:
    """When the quiet hours around ``at`` end (UTC), or None if ``at`` is not in them.

    ``quiet`` is (start, end) in local whole hours, end excluded; a start after the end
    spans midnight (22-8).  The end is the local wall-clock hour, so a DST change in
    the night moves it with the clocks."""
    if quiet is None:
        return None
    start, end = quiet
    where = zone(tz)
    local = at.astimezone(where)
    hour = local.hour + local.minute / 60 + local.second / 3600
    inside = start <= hour < end if start < end else (hour >= start or hour < end)
    if not inside:
        return None
    day = local.date() if hour < end else local.date() + timedelta(days=1)
    return datetime.combine(day, time(end), tzinfo=where).astimezone(UTC)


def player_quiet(prefs: dict, config: dict, seat: dict | None = None
                 ) -> tuple[int, int] | None:
    """A player's quiet hours: their own choice if they made one, else the ones the
    game's creator gave this seat (that game only), else the default."""
    if prefs.get("chosen"):
        return prefs["quiet"]
    given = (seat or {}).get("quiet")
    if given:
        return None if given == "off" else players.parse_quiet(given) or default_quiet(config)
    return default_quiet(config)


def read_prefs(client, pid: str) -> dict:
    """The player's settings, with ``chosen`` true if they set their quiet hours."""
    return players.prefs(client, pid)
