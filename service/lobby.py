"""The lobby: list games and start a new one from a form.

The page is in its reader's language (a signed-in player's setting, else the browser's):
its own messages through Flask-Babel, the schema's field errors as ``games.text`` Texts
(English as the API answers them) that the page says again in that language.
"""

from __future__ import annotations

import contextlib
import math
import re
import secrets
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _
from marshmallow import ValidationError
from marshmallow.validate import Email as EmailAddress

from games import registry
from games.protocol import IllegalMove
from games.text import T, join
from games.text import Text as Said
from service import accounts, limits, mygames, schemas
from service import once as started_once
from service.api import create_game
from service.current import rt
from service.i18n import reader_language
from service.limits import Limited
from worker.players import prefs as player_prefs

bp = Blueprint("lobby", __name__)

# the language choice of each seat row, in that language's own name
SEAT_LANGUAGES = (("en", "English"), ("de", "Deutsch"))


@bp.before_app_request
def signed_in_language() -> None:
    """A signed-in player reads every page in their own language, if they chose one
    (a page of a link may choose again: the game page, the my-games page)."""
    if request.endpoint and request.endpoint.split(".")[0] in ("lobby", "rules"):
        pid = accounts.current_player()
        if pid is not None:
            reader_language(player_prefs(rt().redis, pid).get("language"))


def _games(limit: int = 50) -> list[dict]:
    from worker.projection import lobby_summaries
    return lobby_summaries(rt(), limit)


def _options_from_form(game, form) -> dict:
    options = {}
    for f in game.option_fields():
        raw = form.get(f"opt_{game.kind}_{f['name']}")
        if f["type"] == "bool":
            options[f["name"]] = raw == "on"
        elif raw not in (None, ""):
            options[f["name"]] = int(raw) if f["type"] == "int" else raw
    return options


def _number(text: str) -> float | str:
    """A form field's number (the API takes numbers only), or its text if it is none: the
    schema then names the field."""
    try:
        value = float(text)
    except ValueError:
        return text
    return value if math.isfinite(value) else text


def _clock_from_form(form) -> dict:
    """The clock fieldset as ``options``' platform entries (the schema checks them and
    names the field that is wrong)."""
    kind = form.get("tc_kind", "none") or "none"
    if kind == "none":
        return {}
    control = {"kind": kind}
    for name in ("hours", "bank_hours", "increment_hours", "cap_hours"):
        raw = form.get(f"tc_{name}", "").strip()
        if raw:
            control[name] = _number(raw)
    out: dict = {"time_control": control, "on_timeout": form.get("on_timeout") or "wait"}
    bot_after = form.get("bot_after", "").strip()
    if bot_after:  # the schema takes a whole number only as a number, not as its text
        out["bot_after"] = int(bot_after) if bot_after.isdigit() else bot_after
    reminders = {}
    for name in ("fractions", "hours_before"):
        raw = form.get(f"remind_{name}")
        if raw is not None:
            reminders[name] = [_number(v.strip()) for v in raw.split(",") if v.strip()]
    if reminders:
        out["reminders"] = reminders
    return out


@cache
def time_zones() -> list[str]:
    """Every time zone this machine knows, sorted (the lobby's list to choose from)."""
    return sorted(available_timezones())


def _lobby(error: str | None = None, form=None, fields: dict | None = None):
    """The lobby page; ``fields`` maps a form field's name to its error messages."""
    return render_template("lobby.html", kinds=registry.kinds(), games=_games(),
                           error=error, form=form or {}, field_errors=fields or {},
                           signed_in=accounts.current_player() is not None,
                           time_zones=time_zones(), form_once=secrets.token_urlsafe(16),
                           seat_languages=SEAT_LANGUAGES)


# One game per rendering of the form: each carries a token of its own (``form_once``),
# claimed by the first copy that starts a game; a copy sent again (a double click, a
# reload that posts again, a retry after a lost answer) is sent to that game instead of
# starting another and inviting everyone twice.  A form without a token (a page from
# before) starts its game as ever.
FORM_ONCE = "form_once"
_ONCE = re.compile(r"[A-Za-z0-9_-]{16,64}")


def once_key(token: str) -> str:
    return f"rp:lobby:once:{token}"


@bp.get("/")
def index():
    return _lobby()


def _raw_game(form) -> dict:
    """The lobby form as the API's creation input (before the schema checks it)."""
    kind = form.get("game", "")
    players = []
    for i in range(12):
        name, email = form.get(f"name{i}", "").strip(), form.get(f"email{i}", "").strip()
        if name or email:
            players.append({"name": name, "email": email, "tz": form.get(f"tz{i}") or "UTC",
                            **({"language": form[f"language{i}"]}
                               if form.get(f"language{i}") else {})})
    deadline = form.get("deadline_hours", "").strip()
    game = registry.get(kind)
    return {"game": kind, "players": players,
            "options": {**_options_from_form(game, form), **_clock_from_form(form)},
            "deadline_hours": int(deadline) if deadline else None}


def checked_game(raw: dict, quiet_hours: dict[str, tuple[int, int] | None]) -> dict:
    """The creation input checked by the API's schema, each seat with the quiet hours
    the form gave it (that game's only: a player's own settings are theirs to change)."""
    data = schemas.CreateGameIn().load(raw)
    for seat in data["players"]:
        if seat.get("email") in quiet_hours:
            hours = quiet_hours[seat["email"]]
            seat["quiet"] = "off" if hours is None else f"{hours[0]}-{hours[1]}"
    return data


@bp.post("/games")
def create():
    """Start a game from the form: at once for a signed-in player, else after its
    creator opens the link mailed to the address they gave (service.accounts)."""
    form = request.form
    once = form.get(FORM_ONCE, "")
    claimed = False
    creator = accounts.current_player()
    try:
        raw = _raw_game(form)
        quiet_hours = mygames.quiet_from_lobby(form)
        data = checked_game(raw, quiet_hours)
        if creator is None:
            return _confirm_by_mail(form, raw, quiet_hours)
        if _ONCE.fullmatch(once):
            earlier = started_once.take(rt().redis, once_key(once))
            if earlier:  # 303, not 302: a copy does not count as a game started
                return redirect(url_for("lobby.created", game_id=earlier), 303)
            if earlier == "":
                return _lobby(_("This form was already sent and its game is being "
                                "started: the lobby lists it in a moment."), form), 409
            claimed = True
        table = start(data, creator)
    except Limited as exc:
        _let_go(once, claimed)
        return _lobby(exc.description, form), 429, {"Retry-After": str(exc.retry_after)}
    except (KeyError, ValueError, ValidationError, IllegalMove) as exc:
        _let_go(once, claimed)
        return _refused(exc, form)
    except Exception:
        with contextlib.suppress(Exception):  # Redis failing: the form may be sent again
            _let_go(once, claimed)
        raise
    if claimed:
        started_once.started(rt().redis, once_key(once), table.game_id)
    return redirect(url_for("lobby.created", game_id=table.game_id))


def start(data: dict, creator: str) -> Any:
    """Start a checked game for the player ``creator``, within their quota and the
    invitees' lobby limit."""
    limits.take_creator_quota(creator)
    limits.take_invitees(p["email"] for p in data["players"] if p.get("email"))
    return create_game(data, creator)


def _confirm_by_mail(form, raw: dict, quiet: dict[str, tuple[int, int] | None]):
    """Someone not signed in: mail the address they gave as the game's organiser a
    one-time link that starts the game; nothing is started or sent to the players yet."""
    address = form.get("creator_email", "").strip()
    if not address:
        message = _("Give your own email address: we mail you a link that starts the game.")
        return _lobby(message, form, {"creator_email": [message]}), 400
    try:
        EmailAddress()(address)
    except ValidationError:
        message = _("That is not an email address.")
        return _lobby(message, form, {"creator_email": [message]}), 400
    limits.take_sign_in(address, request.remote_addr or "unknown")
    token = accounts.make_link(address, "create", {
        "game": raw, "quiet": {k: list(v) if v else None for k, v in quiet.items()},
        "once": form.get(FORM_ONCE, "")})
    accounts.mail_link(address, token, "create", registry.get(raw["game"]).name)
    return render_template("check_mail.html", address=address, purpose="create"), 202


def start_confirmed(link: dict, creator: str):
    """The organiser opened the mailed link: start the game it carries (once, whatever
    copies of the form were confirmed)."""
    raw, once = link["data"]["game"], link["data"].get("once", "")
    quiet = {k: tuple(v) if v else None for k, v in link["data"].get("quiet", {}).items()}
    claimed = False
    try:
        data = checked_game(raw, quiet)
        if _ONCE.fullmatch(once):
            earlier = started_once.take(rt().redis, once_key(once))
            if earlier:  # another copy of the form, confirmed first, started it
                return redirect(url_for("lobby.created", game_id=earlier), 303)
            if earlier == "":
                return _lobby(_("This game is being started: the lobby lists it in a "
                                "moment.")), 409
            claimed = True
        table = start(data, creator)
    except Limited as exc:
        _let_go(once, claimed)
        return _lobby(exc.description), 429, {"Retry-After": str(exc.retry_after)}
    except (KeyError, ValueError, ValidationError, IllegalMove) as exc:
        _let_go(once, claimed)
        return _refused(exc, {})
    if claimed:
        started_once.started(rt().redis, once_key(once), table.game_id)
    return redirect(url_for("lobby.created", game_id=table.game_id))


def _refused(exc: Exception, form):
    """The lobby again, saying what was wrong with the form (400)."""
    fields: dict[str, list[str]] = {}
    if isinstance(exc, IllegalMove):
        message = exc.reason
        fields["players" if "players" in exc.reason else "game"] = [exc.reason]
    elif isinstance(exc, ValidationError):
        message = T("Please check the form: %(problems)s",
                    problems=join(_form_errors(exc.messages), "; "))
        fields = _field_errors(exc.messages)
    elif isinstance(exc, KeyError):
        message = _("Please check the form: choose a game.")
        fields["game"] = [_("Choose one of the games listed.")]
    else:
        message = _("Please check the form: whole numbers only for the deadline and options.")
        fields["deadline_hours"] = [_("A whole number of hours, or empty.")]
    return _lobby(message, form, fields), 400


def _let_go(once: str, claimed: bool) -> None:
    """Give the form's claim back: nothing was started, the form may be sent again."""
    if claimed:
        started_once.let_go(rt().redis, once_key(once))


def _field_errors(messages: dict) -> dict[str, list[str]]:
    """Marshmallow's messages keyed by the lobby form's own field names (``email1``)."""
    out: dict[str, list[str]] = {}

    def add(name: str, inner) -> None:
        out.setdefault(name, []).extend(_form_errors(inner))

    for field, inner in messages.items():
        if field == "players" and isinstance(inner, dict):
            for index, player in inner.items():
                if str(index).isdigit() and isinstance(player, dict):
                    for name, said in player.items():
                        add(f"{name}{int(index)}", said)
                else:
                    add("players", player)
        elif field == "options" and isinstance(inner, dict):
            for name, said in inner.items():
                for form_name, text in _clock_fields(name, said):
                    add(form_name, text)
        elif field == "quiet hours":  # mygames names the row: "player 2: write them as…"
            for said in _form_errors(inner):
                row = said.values if isinstance(said, Said) else {}
                if "n" in row and "problem" in row:
                    out.setdefault(f"quiet{int(row['n']) - 1}", []).append(row["problem"])
                else:
                    out.setdefault("players", []).append(said)
        else:
            add(str(field), inner)
    return out


CLOCK_FIELDS = {"time_control": "tc_", "reminders": "remind_"}  # options -> the form's names


def _clock_fields(name: str, said) -> list[tuple[str, object]]:
    """The lobby fields an error in ``options[name]`` belongs to: the clock's own fields
    (``tc_hours``, ``bot_after``, ``remind_fractions``...), else the options at large."""
    prefix = CLOCK_FIELDS.get(name)
    if prefix and isinstance(said, dict):
        return [(prefix + str(inner) if inner != "_schema" else "options", text)
                for inner, text in said.items()]
    if name in ("bot_after", "on_timeout"):
        return [(name, said)]
    return [("options", {name: said})]


FIELD_NAMES = {"name": T("name"), "email": T("email address"), "tz": T("time zone"),
               "language": T("language")}
# The clock fields as the lobby form labels them ("Hours per move must be …"); "players":
# the list's own messages are whole sentences
SAID_AS = {"hours": T("Hours per move"), "bank_hours": T("The bank"),
           "increment_hours": T("The increment per move"),
           "cap_hours": T("The most a bank holds"), "players": ""}
# the other fields' names as a sentence says them (English: the name, "_" as a space)
LABELS = {"game": T("game"), "options": T("options"), "deadline_hours": T("deadline hours"),
          "time_control": T("time control"), "kind": T("kind"),
          "on_timeout": T("on timeout"), "bot_after": T("bot after"),
          "reminders": T("reminders"), "fractions": T("fractions"),
          "hours_before": T("hours before"), "quiet hours": T("quiet hours")}
# marshmallow's own messages that the lobby form can meet, to be said in German too
MARSHMALLOW = {m: m for m in (
    T("Missing data for required field."), T("Unknown field."), T("Not a valid string."),
    T("Not a valid number."), T("Not a valid integer."), T("Not a valid boolean."),
    T("Not a valid list."), T("Not a valid mapping type."), T("Field may not be null."))}


def _said(message):
    """A message as the page can translate it: a Text, or marshmallow's own as a Text."""
    return MARSHMALLOW.get(message, message) if not isinstance(message, Said) else message


def _form_errors(messages, where: str = "", label=None) -> list:
    """Marshmallow's nested messages as sentences that name the form's fields (Texts:
    English, and said again in the page's language)."""
    if isinstance(messages, dict):
        found = []
        for field, inner in messages.items():
            if where == "players" and str(field).isdigit():
                key, shown = f"player {int(field) + 1}", T("player %(n)s", n=int(field) + 1)
            elif where.startswith("player "):
                key = f"{where}'s {field}"
                shown = T("%(player)s's %(field)s", player=label,
                          field=FIELD_NAMES.get(str(field), str(field)))
            elif str(field) in SAID_AS:
                key = shown = str(field)
            else:
                key = str(field).replace("_", " ")
                shown = LABELS.get(str(field), key)
            found += _form_errors(inner, key, shown)
        return found
    if isinstance(messages, list):
        return [m for item in messages for m in _form_errors(item, where, label)]
    said = _said(messages)
    if where in SAID_AS:
        return [T("%(field)s %(message)s", field=SAID_AS[where], message=said)
                if SAID_AS[where] else said]
    return [T("%(field)s: %(message)s", field=label, message=said) if where else said]


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico on pages that name no icon (an email's HTML opened
    from the outbox): the site's one icon."""
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@bp.get("/games/<game_id>")
def created(game_id: str):
    table = rt().games.load(game_id)
    return render_template("created.html", table=table, game=table.game)
