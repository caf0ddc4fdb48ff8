"""The web pages' language, through Flask-Babel: the reader's, chosen per request.

The reader's language decides: a page that knows its player (a signed-in session, a
play or my-games link) sets :func:`reader_language` from the player's setting; any other
page follows ``Accept-Language``.  The catalogs are the worker's (``worker/i18n.py``), so
a page and the email that links to it speak the same words.  Dates and numbers are
formatted by Babel in the reader's locale (``format_datetime`` and friends in templates).
"""

from __future__ import annotations

from flask import Flask, g, has_request_context, request
from flask_babel import Babel

from worker.i18n import DEFAULT, LANGUAGES, finalizer, language_of, translations_dir


def reader_language(language: str | None) -> None:
    """Render this request's page for a player who chose ``language`` (None: their
    browser decides)."""
    if language:
        g.reader_language = language_of(language)


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
    app.context_processor(lambda: {"page_language": select_language()})
