"""A player's own pages across games: "my games" and their settings.

Two doors to the same page: ``/me`` for a signed-in player (service.accounts), and
``/me/<token>``, a signed link (purpose ``me``, see :mod:`worker.players`) that every
email carries, mailed only to the player's address.  It lists every game of the player,
most urgent first, invitations held for them, and holds their settings (quiet hours,
time zone, digest, language, forced-move default, notification channels, opt-outs) and
leave across games.  Only those two doors change a player's settings: a lobby form sets
options of its own game only.  "Sign out everywhere" (or revoking the link) raises the
player's generation: every link, token and session made before is refused at once.

The personal page (``/play/<token>``) carries a small settings form too (the partial
``_my_settings.html``): forced moves on or off for that seat, and the player's quiet
hours.  A GET changes nothing; every POST is a CSRF-checked form (service.csrf).
"""

from __future__ import annotations

import re
from zoneinfo import available_timezones

from flask import Blueprint, abort, redirect, render_template, request, url_for

from games.protocol import IllegalMove
from games.text import T
from service import accounts, away
from service.current import rt
from service.i18n import reader_language, select_language
from worker import channels, consent, digest, forced, leave, players, quiet
from worker.links import check_current
from worker.listing import listing

bp = Blueprint("mygames", __name__)

HOURS = list(range(24))


def _who(token: str | None) -> str:
    """The player: the one a my-games ``token`` names, else the signed-in one (without
    a session: a redirect to the sign-in page)."""
    runtime = rt()
    if token is not None:
        return players.check_me(runtime.redis, runtime.links, token)
    pid = accounts.current_player()
    if pid is None:
        abort(redirect(url_for("signin.form")))
    return pid


def _actions(token: str | None) -> dict[str, str]:
    """Where the page's forms post: the session's routes, or the my-games link's."""
    return {name: url_for(f"mygames.{name}", token=token) for name in ACTIONS}


ACTIONS = ("settings", "revoke", "leave", "unblock")


def _page(token: str | None, pid: str, *, status: int = 200, notice: str | None = None,
          error: str | None = None):
    runtime = rt()
    prefs = quiet.read_prefs(runtime.redis, pid)
    reader_language(prefs.get("language"))
    tz = digest.player_tz(runtime, pid, prefs)
    rows = listing(runtime, pid, tz, select_language())
    held = [r for r in rows if r["game_id"] in set(consent.withheld(runtime.redis, pid))]
    return render_template(
        "mygames.html", token=token, rows=rows, prefs=prefs, tz=tz, hours=HOURS,
        quiet_hours=quiet.player_quiet(prefs, runtime.config), notice=notice, error=error,
        zones=_zones(), actions=_actions(token), signed_in=token is None,
        account=players.account(runtime.redis, pid), held=held,
        optout=consent.opted_out(runtime.redis, pid),
        blocked=len(consent.blocked(runtime.redis, pid)),
        channels=channels.status(runtime.redis, pid), languages=players.LANGUAGES,
        leave=leave.status(runtime, pid)), status


_ZONES: list[str] = []


def _zones() -> list[str]:
    if not _ZONES:
        _ZONES.extend(sorted(z for z in available_timezones() if "/" in z or z == "UTC"))
    return _ZONES


NOTICES = {"saved": T("Your settings were saved."),
           "revoked": T("Every earlier link of yours was revoked: bookmark this one."),
           "leave": T("Your leave is recorded: your clocks stand still while you are away."),
           "unblocked": T("Inviters you had blocked may invite you again.")}


@bp.get("/me", defaults={"token": None})
@bp.get("/me/<token>")
def page(token: str | None):
    """The player's games and settings: the signed-in player's (``/me``), or those of
    the player a my-games link names."""
    return _page(token, _who(token), notice=NOTICES.get(request.args.get("done", "")))


HOUR_FIELDS = {"quiet_start": T("Quiet start"), "quiet_end": T("Quiet end"),
               "digest": T("Digest")}


def _hour(name: str, allow_off: bool = False) -> int | None:
    """A form field holding a whole hour 0-23 (or "off"); abort 400 otherwise."""
    raw = request.form.get(name, "").strip()
    if allow_off and raw in ("", "off"):
        return None
    if not raw.isdigit() or not 0 <= int(raw) <= 23:
        abort(400, T("%(field)s must be an hour from 0 to 23.",
                     field=HOUR_FIELDS.get(name, name.replace("_", " ").capitalize())))
    return int(raw)


def _quiet_from_form() -> tuple[int, int] | None:
    if request.form.get("quiet") != "on":
        return None
    start, end = _hour("quiet_start"), _hour("quiet_end")
    if start == end:
        abort(400, T("Quiet hours must start and end at different hours."))
    return start, end  # type: ignore[return-value]


def _tz_from_form() -> str | None:
    tz = request.form.get("tz", "").strip()
    if tz and tz not in _zones():
        abort(400, T("Unknown time zone %(zone)s: choose one from the list.", zone=repr(tz[:60])))
    return tz or None


def channel_problem(urls: list[str]) -> str | None:
    """Why these notification URLs cannot be saved (None: they can).  Outside production
    a channel on this machine or a private network is allowed (a webhook beside
    ``ravenpost serve``); in production it is refused (the server would be made to call
    into its own network)."""
    return channels.validate_all(
        urls, allow_private=rt().config.get("RAVENPOST_ENV") != "production")


def save_channels(pid: str, urls: list[str]) -> None:
    """Save the player's channels: saving one again sends to it again if it was paused."""
    client = rt().redis
    players.save_prefs(client, pid, channels=urls)
    for url in urls:
        channels.resume(client, pid, url)
    channels.prune(client, pid)


def _save(pid: str) -> None:
    """The settings form, checked whole before anything is saved (400 naming the field)."""
    runtime = rt()
    quiet_hours, tz = _quiet_from_form(), _tz_from_form()
    hour = _hour("digest", allow_off=True)
    extra: dict = {}
    if "language" in request.form:
        language = request.form["language"]
        if language not in ("", *players.LANGUAGES):
            abort(400, T("Choose a language from the list, not %(asked)s.",
                         asked=repr(language[:20])))
        extra["language"] = language or None
    if "forced_default" in request.form:
        extra["forced"] = request.form["forced_default"] == "on"
    if "confirm_shown" in request.form:  # a checkbox: absent when unticked
        extra["confirm"] = request.form.get("confirm_replies") == "on"
    if "channels" in request.form:
        urls = [u.strip() for u in request.form["channels"].splitlines() if u.strip()]
        problem = channel_problem(urls)
        if problem:
            abort(400, problem)
        save_channels(pid, urls)
    players.save_prefs(runtime.redis, pid, quiet=quiet_hours, tz=tz, **extra)
    digest.set_digest(runtime, pid, hour)
    for what in ("invitations", "everything"):
        if f"optout_{what}" in request.form or "optout_shown" in request.form:
            if request.form.get(f"optout_{what}") == "on":
                consent.opt_out(runtime.redis, pid, what)
            else:
                consent.opt_in(runtime.redis, pid, what)


def _back(token: str | None, done: str):
    """Back to the page the form was on, saying what was done."""
    return redirect(url_for("mygames.page", token=token, done=done), 303)


@bp.post("/me/settings", defaults={"token": None})
@bp.post("/me/<token>/settings")
def settings(token: str | None):
    _save(_who(token))
    return _back(token, "saved")


@bp.post("/me/signout-everywhere", defaults={"token": None})
@bp.post("/me/<token>/revoke")
def revoke(token: str | None):
    """Sign out everywhere: every link, token and session of the player.  Signed in,
    this browser too; by a my-games link, the page moves to the new link."""
    runtime = rt()
    new = players.sign_out_everywhere(runtime.redis, runtime.links, _who(token))
    if token is None:
        accounts.end_session()
        return render_template("signed_out.html"), 200
    return _back(new, "revoked")


@bp.post("/me/leave", defaults={"token": None}, endpoint="leave")
@bp.post("/me/<token>/leave", endpoint="leave")
def leave_(token: str | None):
    """Take leave across every game (worker.leave)."""
    runtime = rt()
    pid = _who(token)
    tz = digest.player_tz(runtime, pid, quiet.read_prefs(runtime.redis, pid))
    try:
        leave.take(runtime, pid, away.form_time("from", tz), away.form_time("until", tz))
    except IllegalMove as exc:
        return _page(token, pid, status=422, error=T("No leave taken: %(reason)s.",
                                                            reason=exc.reason))
    return _back(token, "leave")


@bp.post("/me/unblock", defaults={"token": None})
@bp.post("/me/<token>/unblock")
def unblock(token: str | None):
    pid = _who(token)
    for inviter in consent.blocked(rt().redis, pid):
        consent.unblock(rt().redis, pid, inviter)
    return _back(token, "unblocked")


@bp.post("/play/<token>/settings")
def seat_settings(token: str):
    """The personal page's settings: forced moves for this seat, the player's quiet hours
    (the play link was mailed to the player's address)."""
    runtime = rt()
    link = check_current(runtime.redis, runtime.links, token, "play")
    quiet_hours = _quiet_from_form()
    forced.set_on(runtime.redis, link.game_id, link.seat, request.form.get("forced") == "on")
    seats = runtime.store.get_json(link.game_id, "seats") or []
    pid = players.seat_player(runtime.redis, seats[link.seat]) if link.seat < len(seats) \
        else None
    if pid:
        players.save_prefs(runtime.redis, pid, quiet=quiet_hours)
    return redirect(url_for("play.page", token=token, done=None), 303)


@bp.app_template_global()
def my_settings(game_id: str, seat: int) -> dict:
    """What the personal page's settings form shows for ``seat`` (see _my_settings.html)."""
    runtime = rt()
    seats = runtime.store.get_json(game_id, "seats") or []
    info = seats[seat] if seat < len(seats) else {}
    pid = players.seat_player(runtime.redis, info)
    prefs = quiet.read_prefs(runtime.redis, pid) if pid else {}
    return {
        "forced": forced.is_on(runtime.redis, game_id, seat),
        "quiet": quiet.player_quiet(prefs, runtime.config, info) if pid else None,
        "my_games_url": players.my_games_url_of(runtime, pid) if pid else None,
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
            raise ValidationError({"quiet hours": [T(
                "player %(n)s: %(problem)s", n=i + 1, problem=T(
                    "write them as two different hours 0-23, like 22-8, or off"))]})
        out[email] = (start, end)
    return out
