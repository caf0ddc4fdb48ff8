"""Languages: the catalogs are complete and compiled, and the reader's language decides."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import fakeredis
import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import render_template, render_template_string

from events import envelope as ev
from events import history
from events.envelope import Event
from games import registry
from games.text import P, T
from service import create_app
from service.i18n import reader_language
from worker import i18n
from worker.catalogs import DOMAINS, Domain

ROOT = Path(__file__).resolve().parents[1]


def catalog(language: str, domain: Domain = DOMAINS[0]):
    with open(domain.po(language), "rb") as f:
        return read_po(f)


@pytest.fixture
def app():
    return create_app({"REDIS_CLIENT": fakeredis.FakeRedis(decode_responses=True),
                       "SECRET_KEY": "k" * 32, "TESTING": True})


EACH = pytest.mark.parametrize("domain", DOMAINS, ids=[d.name for d in DOMAINS])


@EACH
def test_every_german_message_is_translated_and_none_is_fuzzy(domain):
    german = catalog("de", domain)
    untranslated = [m.id for m in german
                    if m.id and (not m.string or (isinstance(m.string, tuple)
                                                  and not all(m.string)))]
    fuzzy = [m.id for m in german if m.id and m.fuzzy]
    assert untranslated == [] and fuzzy == []
    assert not german.fuzzy  # a fuzzy header: pybabel compile skips the catalog


@EACH
def test_the_catalogs_hold_every_text_the_sources_mark(tmp_path, domain):
    """pybabel extract now gives exactly the committed template, and German has each."""
    fresh = tmp_path / f"{domain.name}.pot"
    subprocess.run([sys.executable, "-m", "worker.catalogs", "extract", domain.name],
                   cwd=ROOT, check=True, capture_output=True,
                   env={**os.environ, "RAVENPOST_CATALOG_OUT": str(fresh)})
    with open(fresh, "rb") as f:
        marked = {m.id for m in read_po(f) if m.id}
    with open(domain.template, "rb") as f:
        committed = {m.id for m in read_po(f) if m.id}
    assert marked == committed, "run python -m worker.catalogs (README: Translations)"
    assert marked <= {m.id for m in catalog("de", domain) if m.id}, \
        "run python -m worker.catalogs update"


def _flat(text: str | tuple | list) -> str | tuple:
    return text if isinstance(text, str) else tuple(text)


@EACH
def test_the_compiled_catalog_is_the_current_one(domain):
    with open(domain.mo("de"), "rb") as f:
        compiled = {_flat(m.id): _flat(m.string) for m in read_mo(f) if m.id}
    source = {_flat(m.id): _flat(m.string) for m in catalog("de", domain)
              if m.id and not m.fuzzy}
    assert compiled == source, "run python -m worker.catalogs compile"


def test_a_games_catalog_is_merged_with_the_services():
    """A game's words come from its own catalog, the service's from theirs, in one lookup;
    where two catalogs say one message id differently, a game's Text takes its game's."""
    for domain in DOMAINS:
        own = None if domain.name == "messages" else domain.name
        merged = i18n.translations("de", own)
        for message in catalog("de", domain):
            if message.id and isinstance(message.id, str):
                assert merged.ugettext(message.id) == message.string, (domain.name, message.id)


def test_a_text_made_by_a_game_is_said_in_its_games_words_first():
    from games.text import Text
    # one English word, two games' German: each game's Text takes its own
    assert i18n.translate(Text("Tavern", domain="architects"), "de") == "Schenke"
    assert i18n.translate(Text("Tavern", domain="kings_guild"), "de") == "Taverne"
    made_here = T("Ann")  # made outside any game: the service's catalog first
    assert made_here.domain is None
    for domain in DOMAINS[1:]:
        said = {m.id: m.string for m in catalog("de", domain) if isinstance(m.id, str)}
        for msgid, german in list(said.items())[:50]:
            if "%" not in msgid:
                assert i18n.translate(Text(msgid, domain=domain.name), "de") == german


@pytest.mark.parametrize("asked, got", [("de", "de"), ("de-AT", "de"), ("de_DE", "de"),
                                        ("en-GB", "en"), ("fr", "en"), (None, "en")])
def test_a_language_we_lack_falls_back_to_english(asked, got):
    assert i18n.language_of(asked) == got


def test_a_page_without_a_player_follows_accept_language(app):
    client = app.test_client()
    german = client.get("/sign-in", headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert "Schick mir einen Anmeldelink" in german.get_data(as_text=True)
    english = client.get("/sign-in", headers={"Accept-Language": "fr, en;q=0.8"})
    assert "Email me a sign-in link" in english.get_data(as_text=True)


def test_the_players_language_beats_the_browsers(app):
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        reader_language("de")
        page = render_template("signed_out.html")
    assert "Überall abgemeldet" in page and "Signed out everywhere" not in page


def test_plurals_come_from_the_catalog_not_a_hand_made_s(app):
    def wait_text(minutes: int) -> str:
        with app.test_request_context("/"):
            reader_language("de")
            return render_template("error.html", status=429, message="",
                                   extra={"retry_after": minutes * 60})
    assert "in etwa 1 Minute erneut" in wait_text(1)
    assert "in etwa 5 Minuten erneut" in wait_text(5)


def test_an_email_environment_speaks_its_readers_language():
    template = "{% trans %}Sign in{% endtrans %} · {{ _('Start the game') }}"
    assert i18n.email_env("de").from_string(template).render() == "Anmelden · Spiel starten"
    assert i18n.email_env("en").from_string(template).render() == "Sign in · Start the game"
    assert i18n.ngettext("de", "You may try again in about %(count)s minute.",
                         "You may try again in about %(count)s minutes.", 2, count=2) \
        == "Du kannst es in etwa 2 Minuten erneut versuchen."


def test_a_history_line_is_english_and_says_itself_again_in_german():
    game = registry.get("kings-guild")
    line = history.describe(Event(7, ev.UNDO_REQUESTED, "seat", {"seat": 1}), game,
                            ["Ann", "Bo"], 0)
    assert line == "Bo asks to take back their last move"  # as stored, sent and tested
    assert i18n.translate(line, "de") == "Bo bittet darum, den letzten Zug zurückzunehmen"
    seated = history.describe(Event(8, ev.BOT_SEATED, "system", {"seat": 0, "after": 3}),
                              game, ["Ann", "Bo"], 0)
    assert i18n.translate(seated, "de") == \
        "Ab jetzt spielt eine Vertretung für Ann (3 Zeitüberschreitungen in Folge)"


def test_a_texts_values_are_said_in_the_readers_language_too():
    line = T("%(name)s proposes to %(what)s; the vote is open until %(until)s UTC",
             name="Ann", what=T("abandon the game (no winner)"), until="2026-12-05 10:00")
    assert i18n.translate(line, "de") == ("Ann schlägt vor: das Spiel abbrechen (ohne "
                                          "Sieger); abgestimmt wird bis 2026-12-05 10:00 UTC")
    assert i18n.translate(line, "en") is line
    unknown = T("A sentence no catalog has, %(x)s", x=P("%(n)s florin", "%(n)s florins", 2))
    assert i18n.translate(unknown, "de") == "A sentence no catalog has, 2 florins"


def test_pages_print_a_games_text_in_the_readers_language_with_no_filter(app):
    line = T("%(name)s allows the take-back", name="Bo")
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        assert render_template_string("<p>{{ line }}</p>", line=line) == \
            "<p>Bo erlaubt die Rücknahme</p>"
    with app.test_request_context("/"):
        assert render_template_string("<p>{{ line }}</p>", line=line) == \
            "<p>Bo allows the take-back</p>"
    assert i18n.email_env("de").from_string("{{ line }}").render(line=line) == \
        "Bo erlaubt die Rücknahme"
