"""A player's own pages across games: "my games" (``/me/<token>``) and their settings.

``/me/<token>`` is a signed, sign-in-less link (purpose ``me``, see
:mod:`worker.players`) that every email carries: it lists every game of the address it
was made for, most urgent first, with a link to each personal page.  It holds the
player's settings (quiet hours, time zone, the daily digest) and revokes itself: a POST
bumps the player's link generation, so every older link is refused at once, and the
browser is sent to the new one.

The personal page (``/play/<token>``) carries a small settings form too (the partial
``_my_settings.html``): forced moves on or off for that seat, and the player's quiet
hours.  A GET changes nothing; every POST is a CSRF-checked form (service.csrf).
"""

from __future__ import annotations

import re
from zoneinfo import available_timezones

from flask import Blueprint, abort, redirect, render_template, request, url_for

from service.current import rt
from worker import digest, forced, players, quiet

bp = Blueprint("mygames", __name__)

HOURS = list(range(24))


def _pid(token: str) -> str:
    runtime = rt()
    return players.check_me(runtime.redis, runtime.links, token)


def _page(token: str, pid: str, *, status: int = 200, notice: str | None = None,
          error: str | None = None):
    runtime = rt()
    prefs = quiet.read_prefs(runtime.redis, pid)
    tz = digest.player_tz(runtime, pid, prefs)
    rows = players.listing(runtime, pid, tz)
    return render_template(
        "mygames.html", token=token, rows=rows, prefs=prefs, tz=tz, hours=HOURS,
        quiet_hours=quiet.player_quiet(prefs, runtime.config), notice=notice, error=error,
        zones=_zones()), status


_ZONES: list[str] = []


def _zones() -> list[str]:
    if not _ZONES:
        _ZONES.extend(sorted(z for z in available_timezones() if "/" in z or z == "UTC"))
    return _ZONES


@bp.get("/me/<token>")
def page(token: str):
    pid = _pid(token)
    notice = {"saved": "Your settings were saved.",
              "revoked": "Your old links to this page were revoked: bookmark this one."
              }.get(request.args.get("done", ""))
    return _page(token, pid, notice=notice)


def _hour(name: str, allow_off: bool = False) -> int | None:
    """A form field holding a whole hour 0-23 (or "off"); abort 400 otherwise."""
    raw = request.form.get(name, "").strip()
    if allow_off and raw in ("", "off"):
        return None
    if not raw.isdigit() or not 0 <= int(raw) <= 23:
        abort(400, f"{name.replace('_', ' ').capitalize()} must be an hour from 0 to 23.")
    return int(raw)


def _quiet_from_form() -> tuple[int, int] | None:
    if request.form.get("quiet") != "on":
        return None
    start, end = _hour("quiet_start"), _hour("quiet_end")
    if start == end:
        abort(400, "Quiet hours must start and end at different hours.")
    return start, end  # type: ignore[return-value]


def _tz_from_form() -> str | None:
    tz = request.form.get("tz", "").strip()
    if tz and tz not in _zones():
        abort(400, f"Unknown time zone {tz[:60]!r}: choose one from the list.")
    return tz or None


@bp.post("/me/<token>/settings")
def settings(token: str):
    pid = _pid(token)
    runtime = rt()
    quiet_hours, tz = _quiet_from_form(), _tz_from_form()
    hour = _hour("digest", allow_off=True)
    players.save_prefs(runtime.redis, pid, quiet=quiet_hours, tz=tz)
    digest.set_digest(runtime, pid, hour)
    return redirect(url_for("mygames.page", token=token, done="saved"), 303)


@bp.post("/me/<token>/revoke")
def revoke(token: str):
    pid = _pid(token)
    runtime = rt()
    new = players.revoke_me(runtime.redis, runtime.links, pid)
    return redirect(url_for("mygames.page", token=new, done="revoked"), 303)


@bp.post("/play/<token>/settings")
def seat_settings(token: str):
    """The personal page's settings: forced moves for this seat, the player's quiet hours."""
    runtime = rt()
    link = runtime.links.check(token, "play")
    quiet_hours = _quiet_from_form()
    forced.set_on(runtime.redis, link.game_id, link.seat, request.form.get("forced") == "on")
    seats = runtime.store.get_json(link.game_id, "seats") or []
    address = seats[link.seat].get("email") if link.seat < len(seats) else None
    if address:
        players.save_prefs(runtime.redis, players.player_id(address), quiet=quiet_hours)
    return redirect(url_for("play.page", token=token, done=None), 303)


@bp.app_template_global()
def my_settings(game_id: str, seat: int) -> dict:
    """What the personal page's settings form shows for ``seat`` (see _my_settings.html)."""
    runtime = rt()
    seats = runtime.store.get_json(game_id, "seats") or []
    address = seats[seat].get("email") if seat < len(seats) else None
    prefs = quiet.read_prefs(runtime.redis, players.player_id(address)) if address else {}
    return {
        "forced": forced.is_on(runtime.redis, game_id, seat),
        "quiet": quiet.player_quiet(prefs, runtime.config) if address else None,
        "my_games_url": players.my_games_url(runtime, address),
        "hours": HOURS,
    }


# -- the lobby: quiet hours of the players a new game invites ---------------------------
def quiet_from_lobby(form, rows: int = 12) -> dict[str, tuple[int, int] | None]:
    """The lobby rows' quiet hours (``quiet<i>``: "22-8", "off", or empty for the
    default), by address; ValidationError naming the row for anything else."""
    from marshmallow import ValidationError
    out: dict[str, tuple[int, int] | None] = {}
    for i in range(rows):
        raw = form.get(f"quiet{i}", "").strip().replace("–", "-")
        email = form.get(f"email{i}", "").strip()
        if not raw or not email:
            continue
        if raw == "off":
            out[email] = None
            continue
        found = re.fullmatch(r"(\d{1,2})\s*-\s*(\d{1,2})", raw)
        start, end = (int(found[1]), int(found[2])) if found else (0, 0)
        if not found or start > 23 or end > 23 or start == end:
            raise ValidationError({"quiet hours": [
                f"player {i + 1}: write them as two different hours 0-23, like 22-8, "
                "or off"]})
        out[email] = (start, end)
    return out


def apply_lobby_quiet(choices: dict[str, tuple[int, int] | None]) -> None:
    """Save the quiet hours the lobby gave, for players who have not chosen their own
    (a player's own choice always wins)."""
    runtime = rt()
    for email, hours in choices.items():
        pid = players.player_id(email)
        if not quiet.read_prefs(runtime.redis, pid)["chosen"]:
            players.save_prefs(runtime.redis, pid, quiet=hours)
