"""Languages: the gettext catalogs every page and email is rendered with.

One set of catalogs serves the web pages (Flask-Babel, ``service/i18n.py``) and the
worker's emails (a Jinja environment per language, :func:`email_env`).  They live with
the templates, ``templates/translations/<lang>/LC_MESSAGES/messages.po`` and one catalog
per game beside it (``worker/catalogs.py`` says which and how they are made; installed as
package data of ``service.templates``), since both floors already find the templates
there; the compiled ``.mo`` beside each ``.po`` is committed, so a plain ``pip install
-e .`` has them with no build step (``tests/test_i18n.py`` fails when one is stale).

English is the source language: its texts are the message ids, so an English reader
needs no catalog at all.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from babel.dates import format_date
from babel.support import NullTranslations, Translations

from events import picture
from games.text import Text
from worker import players
from worker.catalogs import GAMES
from worker.runtime import jinja_env, templates_dir

DEFAULT = "en"
LANGUAGES = ("en", "de")  # what a reader may get; English first, the fallback
DOMAIN = "messages"


def translations_dir() -> Path:
    """Where the catalogs are: ``templates/translations``."""
    return templates_dir() / "translations"


def language_of(asked: str | None) -> str:
    """``asked`` if we have it (``de``, ``de-AT``, ``de_DE`` all give ``de``), else English."""
    if not asked:
        return DEFAULT
    base = asked.replace("_", "-").split("-")[0].strip().lower()
    return base if base in LANGUAGES else DEFAULT


@cache
def translations(language: str, domain: str | None = None) -> NullTranslations:
    """The compiled catalogs of ``language``, the service's and every game's merged into
    one (English, or a language we lack: no translation).  Where two say one message id
    differently, ``domain``'s own words win (a game's, see
    :attr:`games.text.Text.domain`), then the service's, then the other games'."""
    language = language_of(language)
    if language == DEFAULT:
        return NullTranslations()
    order = [g for g in GAMES if g != domain] + [DOMAIN] + ([domain] if domain in GAMES else [])
    found: NullTranslations = NullTranslations()
    for name in order:  # merged later wins
        loaded = Translations.load(str(translations_dir()), [language], name)
        if not isinstance(loaded, Translations):
            continue
        if isinstance(found, Translations):
            found.merge(loaded)
        else:
            found = loaded
    return found


def translate(value: Any, language: str) -> Any:
    """``value`` said in ``language`` if it is a game's :class:`~games.text.Text` (its
    values translated too; a game's own words from its own catalog first), else
    ``value`` itself.  A message the catalog lacks stays English."""
    if not isinstance(value, Text) or language_of(language) == DEFAULT:
        return value
    catalog = translations(language, value.domain)
    values = {k: translate(v, language) for k, v in value.values.items()}
    said = catalog.ungettext(value.msgid, value.plural, value.n) if value.plural \
        else catalog.ugettext(value.msgid)
    return said % values if values else said


def finalizer(language_now: Any) -> Any:
    """A Jinja ``finalize``: every ``{{ … }}`` that prints a game's Text prints it in
    the language ``language_now()`` names, so templates need no filter for it."""
    def finalize(value: Any) -> Any:
        return translate(value, language_now()) if isinstance(value, Text) else value
    return finalize


@cache
def email_env(language: str) -> jinja2.Environment:
    """The email templates' environment for readers of ``language``, with Jinja's i18n
    extension (``{% trans %}``, ``_()``, ``ngettext``) bound to its catalog, and the
    games' Texts said in that language."""
    env = jinja_env()
    env.finalize = finalizer(lambda: language)
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_translations(translations(language), newstyle=True)
    for name in ("gettext", "_", "ngettext"):  # a Text filled in is said in the language too
        env.globals[name] = saying_texts(env.globals[name], lambda: language)
    return env


def saying_texts(call: Any, language_now: Any) -> Any:
    """Jinja's newstyle ``gettext``/``_``/``ngettext`` whose ``%(name)s`` values, when
    they are a game's Texts (a vote's wording, a move's label), are said first in the
    language ``language_now()`` names: ``{% trans what=vote.what %}…{% endtrans %}`` and
    ``_('%(who)s proposes to %(what)s', what=vote_what)`` format their values themselves,
    past the ``finalize`` (:func:`finalizer`) that says the Texts ``{{ … }}`` prints.
    Shared by the emails (:func:`email_env`) and the pages (``service.i18n``)."""
    @jinja2.pass_context
    def said(context: Any, *args: Any, **values: Any) -> Any:
        if any(isinstance(v, Text) for v in values.values()):
            language = language_now()
            values = {k: translate(v, language) for k, v in values.items()}
        return call(context, *args, **values)
    return said


def gettext(language: str, message: str, **values: object) -> str:
    """``message`` in ``language``, with ``%(name)s`` placeholders filled from ``values``.

    ``pybabel extract`` does not find a message passed here (its first argument is the
    language), so code that builds an email's words (subjects, answers to replies) marks
    them ``T("…")``/``P("…", "…", n)`` instead and :func:`worker.sending.render` says them
    in the reader's language (:func:`translate`); this serves words already marked
    elsewhere."""
    text = translations(language).ugettext(message)
    return text % values if values else text


def ngettext(language: str, singular: str, plural: str, n: int, **values: object) -> str:
    """The singular or plural form of a message for ``n``, in ``language``; ``%(num)d`` is
    ``n``."""
    text = translations(language).ungettext(singular, plural, n)
    return text % {"num": n, **values}


# -- whose language, and dates as the reader reads them ---------------------------------
def reader_language(chosen: str | None, seat: dict | None = None) -> str:
    """The language an email goes out in: the player's own setting (``chosen``, their
    prefs' ``language``), else the seat's ``language`` chosen when they were invited,
    else English."""
    return language_of(chosen or (seat or {}).get("language"))


def player_language(rt: Any, pid: str, prefs: dict[str, Any] | None = None) -> str:
    """The language of a player's emails that belong to no seat (the digest, a paused
    channel): their own setting, else the language a seat of theirs was invited in,
    else English.  ``rt``: a :class:`worker.runtime.Runtime`; ``prefs``: theirs, if
    read already."""
    prefs = prefs if prefs is not None else players.prefs(rt.redis, pid)
    if prefs.get("language"):
        return language_of(prefs["language"])
    for game_id, seats in players.games_of(rt.redis, pid).items():
        info = rt.store.get_json(game_id, "seats") or []
        if seats and seats[0] < len(info) and info[seats[0]].get("language"):
            return reader_language(None, info[seats[0]])
    return DEFAULT


DATE_PATTERNS = {"en": "EEEE dd MMMM", "de": "EEEE, d. MMMM"}  # the digest's day


def local_time(when: str | datetime | None, tz: str | None, language: str) -> str | None:
    """``when`` (ISO or aware) in the reader's time zone ``tz`` and ``language``,
    formatted by Babel (``Wednesday 09 January 2030, 15:00 EST``, ``Mittwoch, 9. Jan.
    2030, 21:00 MEZ``); None for no time.  The pictures' deadline is written the same way:
    one function, :func:`events.picture.local_time`."""
    return picture.local_time(when, tz, language_of(language))


def local_day(day: date, language: str) -> str:
    """A day as the digest names it: ``Saturday 05 December`` / ``Samstag, 5. Dezember``."""
    language = language_of(language)
    return format_date(day, DATE_PATTERNS[language], locale=language)
