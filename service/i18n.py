"""The web pages' language, through Flask-Babel: the reader's, chosen per request.

The reader's language decides: a page that knows its player (a signed-in session, a
play or my-games link) sets :func:`reader_language` from the player's setting; a page of a
seat's link (the game page, mute) takes the player's setting, else the language the
lobby gave the seat (:func:`seat_reader`); any other page follows ``Accept-Language``.
The catalogs are the worker's (``worker/i18n.py``), so a page and the email that links
to it speak the same words.  Dates and numbers are
formatted by Babel in the reader's locale (``format_datetime`` and friends in templates).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import dates
from flask import Flask, g, has_app_context, has_request_context, request
from flask_babel import Babel, format_datetime, gettext, refresh

from worker.i18n import (
    DEFAULT,
    LANGUAGES,
    finalizer,
    language_of,
    saying_texts,
    translations_dir,
)


def reader_language(language: str | None) -> None:
    """Render this request's page for a player who chose ``language`` (None: their
    browser decides)."""
    if language:
        g.reader_language = language_of(language)
        refresh()  # anything said before this in the request was in another language


def player_reader(client: Any, pid: str | None) -> str | None:
    """The player ``pid``'s own language setting, made this request's (None: none)."""
    from worker import players
    language = players.prefs(client, pid).get("language") if pid else None
    reader_language(language)
    return language


def seat_reader(client: Any, info: dict[str, Any]) -> None:
    """This request's reader is the seat ``info`` (its entry in the game's seats): its
    player's own setting, else the seat's ``language`` from the lobby, else the browser."""
    from worker import players
    if not player_reader(client, players.seat_player(client, info) if info else None):
        reader_language((info or {}).get("language"))


def select_language() -> str:
    """The player's chosen language if the page set one, else the browser's best match."""
    if not has_request_context():
        return DEFAULT
    chosen = g.get("reader_language")
    if chosen:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT) or DEFAULT


def register(app: Flask) -> None:
    """Flask-Babel on ``app``: Jinja's i18n extension in every template, the catalogs."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    # before anything builds app.jinja_env: the games' Texts print in the reader's language
    app.jinja_options = {**app.jinja_options, "finalize": finalizer(select_language)}
    Babel(app, locale_selector=select_language,
          default_translation_directories=str(translations_dir()))
    for name in ("gettext", "_", "ngettext"):  # installed by Flask-Babel just now
        if name in app.jinja_env.globals:
            app.jinja_env.globals[name] = saying_texts(app.jinja_env.globals[name],
                                                      select_language)
    app.context_processor(lambda: {"page_language": select_language()})


# How a page writes a moment, as Babel date patterns; each language has its own in the
# catalog (German: "EEEE, d. MMMM y, HH:mm").
# long, a deadline's: Saturday 05 December 2026, 09:30 CET; medium, a clock's: Sat 05 Dec
# 2026, 09:30 CET; short, a message's: 5 Dec 09:30 CET; numeric, a vote's: 2026-12-05 09:30 CET
def N_(message: str) -> str:  # noqa: N802 - gettext's marker: extracted, said later
    return message


_PATTERNS = {"long": N_("EEEE dd MMMM y, HH:mm"), "medium": N_("EEE dd MMM y, HH:mm"),
             "short": N_("d MMM HH:mm"), "numeric": N_("y-MM-dd HH:mm")}


def local_datetime(when: str | float | datetime | None, tz: str | None,
                   size: str = "long") -> str | None:
    """``when`` (ISO 8601, Unix seconds or a datetime) in the time zone ``tz`` (UTC if
    unknown), written in the page's language by Flask-Babel; None for no time."""
    if when is None or when == "":
        return None
    try:
        zone = ZoneInfo(tz or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    try:
        moment = (when if isinstance(when, datetime)
                  else datetime.fromtimestamp(when, UTC) if isinstance(when, int | float)
                  else datetime.fromisoformat(when))
    except (ValueError, TypeError, OverflowError):
        return str(when)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    pattern, local = _PATTERNS.get(size, _PATTERNS["long"]), moment.astimezone(zone)
    if not has_app_context():  # a script, not a page: English
        said = dates.format_datetime(local, pattern, locale=DEFAULT)
    else:
        said = format_datetime(local, gettext(pattern), rebase=False)
    return f"{said} {local:%Z}"  # the zone as the tz database abbreviates it: CET, UTC
