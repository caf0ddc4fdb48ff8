"""Feudum's picture in German (issue 31, item 4): every word it draws is said by ``say``.

Over random games at 2 to 5 players, every 60th move, each seat to act and a spectator,
the desk's, the phone's and the email's picture drawn in German: no English word of the
game's catalog is drawn (in a text, a tooltip or the title), every text stays inside the
picture (measured with DejaVu Sans as the browser sets it), the phone's picture keeps its
width limit and its texts clear of each other, and the English picture is the one drawn
without ``say``.  Then the page and the email draw it in the reader's language.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from games import registry
from games.feudum_guilds import ALL_MODULES
from games.feudum_guilds.picture import NARROW_WIDTH, PANELS, WIDTH
from games.rng import RecordingRandom
from games.text import T
from tests.games.feudum_guilds.test_narrow_picture import (
    FITS,
    MIN_TEXT,
    box,
    overlapping,
    texts,
    width,
)
from tests.support import PLAYERS, admin_headers
from worker.i18n import translate

GAME = registry.get("feudum-guilds")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
LONG_NAMES = ["Wilhelmina Maximiliane von Wartenberg-Mühlhausen zu Wasserburg",
              "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMM", "Bob", "Dee", "Eve"]
DEADLINE = "Mittwoch, 30. September 2026, 23:45 AEST"
PO = Path(__file__).resolve().parents[3] / \
    "templates/translations/de/LC_MESSAGES/feudum_guilds.po"
SVG = "{http://www.w3.org/2000/svg}"
MEDIA = ("page", "phone", "email")


def de(text: Any) -> str:
    return str(translate(text, "de"))


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}",
                                          re.sub(r"%\(\w+\)s", " ", text))}


@cache
def english_only() -> frozenset[str]:
    """Every word (3 letters or more) of the game's English message ids that no German
    message of its catalog uses: none of them may be drawn in a German picture."""
    english, german = set(), set()
    for m in read_po(PO.open("rb")):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        said = m.string if isinstance(m.string, tuple) else (m.string,)
        for t in ids:
            english |= _words(t)
        for t in said:
            german |= _words(t)
    return frozenset(english - german - {n.lower() for n in NAMES})


def drawn(svg: str) -> str:
    """Every word the picture draws: its texts, its tooltips and its title."""
    root = ET.fromstring(svg)
    return "\n".join(unescape("".join(e.itertext())) for e in root.iter()
                     if e.tag in (f"{SVG}text", f"{SVG}title", f"{SVG}desc"))


def positions(n: int, seed: int, every: int = 60, moves: int = 700,
              names: list[str] = NAMES) -> Iterator[tuple[int, dict]]:
    chooser = random.Random(seed)
    state = GAME.setup(names[:n], GAME.normalize_options(dict(ALL_MODULES), n),
                       RecordingRandom(seed))
    for i in range(moves):
        seats = sorted(GAME.to_act(state))
        if not seats:
            return
        if i % every == 0:
            yield i, state
        seat = chooser.choice(seats)
        GAME.apply(state, seat, chooser.choice(GAME.legal_moves(state, seat)),
                   RecordingRandom(i + 1))


def table(state: dict, seat: int | None, medium: str, names: list[str]) -> dict[str, Any]:
    return {"names": names[:state["n"]], "seat": seat, "to_act": sorted(GAME.to_act(state)),
            "deadline": DEADLINE, "version": 1, "previous": None, "medium": medium}


def pictures(n: int, seed: int, names: list[str] = NAMES, media=MEDIA, every: int = 60):
    """(where, English SVG, German SVG) for each seat to act and a spectator."""
    for i, state in positions(n, seed, every=every, names=names):
        for seat in sorted(GAME.to_act(state)) + [None]:
            view = GAME.view(state, seat)
            for medium in media:
                facts = table(state, seat, medium, names)
                yield (f"{n} players, move {i}, seat {seat}, {medium}",
                       GAME.picture(view, facts), GAME.picture(view, facts, de))


def test_the_game_draws_its_picture_through_say():
    assert GAME.picture_says is True
    assert {"barn", "guild", "epoch", "round", "fist", "deck"} <= english_only()
    assert not {"alchemist", "marker", "lord"} & english_only()  # the same in German


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_german_picture_draws_no_english_word_of_the_catalog(n):
    seen = 0
    for where, english, german in pictures(n, seed=n + 40):
        said = drawn(german)
        leaked = sorted(_words(said) & english_only())
        assert leaked == [], (where, leaked)
        assert german != english, where
        for word in ("Runde", "Epoche", "Scheune des Bauern", "Siegel im Vorrat"):
            assert word in said, (where, word)
        whole = {t.text for t in texts(german)}  # the boards' headings are never cut
        for heading in (*PANELS.values(), T("Region tiles"), T("Haversack")):
            assert de(heading) in whole, (where, de(heading))
        seen += 1
    assert seen >= 20


def test_the_english_picture_is_the_one_drawn_without_say():
    for i, state in positions(3, seed=5, every=90):
        for seat in sorted(GAME.to_act(state)) + [None]:
            for medium in MEDIA:
                facts, view = table(state, seat, medium, NAMES), GAME.view(state, seat)
                english = GAME.picture(view, facts)
                words = drawn(english)
                assert "Farmer's barn" in words and "Scheune" not in words, (i, seat)
                assert GAME.picture(view, facts, str) == english, (i, seat, medium)


@pytest.mark.parametrize(("n", "names"), [(2, NAMES), (3, NAMES), (5, NAMES),
                                          (3, LONG_NAMES)])
def test_every_text_of_a_german_picture_is_inside_it(n, names):
    for where, _english, german in pictures(n, seed=n + 3, names=names):
        edge = width(german)
        outside = [f"{t.text!r} spans {b[0]:.0f}..{b[2]:.0f}"
                   for t in texts(german) for b in [box(t)] if b[0] < 0 or b[2] > edge]
        assert outside == [], where


@pytest.mark.parametrize(("n", "names"), [(2, NAMES), (4, NAMES), (5, NAMES),
                                          (3, LONG_NAMES)])
def test_the_german_phone_picture_keeps_its_width_and_its_texts_apart(n, names):
    seen = 0
    for where, _english, german in pictures(n, seed=n + 11, names=names,
                                            media=("phone", "email")):
        least = min(float(t.get("font-size")) for t in texts(german))
        assert width(german) == NARROW_WIDTH, where
        assert least >= 11, where
        assert width(german) * MIN_TEXT / least <= FITS, where
        assert overlapping([(box(t), t.text) for t in texts(german)]) == [], where
        seen += 1
    assert seen >= 10


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_german_desk_picture_keeps_its_texts_apart_below_the_players_strip(n):
    """Below the strip of players and the deadline (whose places the English picture
    shares with every game: a long deadline may meet the fifth name there), no German text
    runs into another: the writs' names, the boards' titles, the haversack's goods."""
    seen = 0
    for where, _english, german in pictures(n, seed=n + 40, media=("page",), every=30):
        below = [(box(t), t.text) for t in texts(german) if float(t.get("y")) > 50]
        assert overlapping(below) == [], where
        seen += 1
    assert seen >= 8


def test_the_german_desk_picture_is_as_wide_as_the_english():
    _i, state = next(positions(3, seed=1))
    assert width(GAME.picture(GAME.view(state, 0), table(state, 0, "page", NAMES), de)) \
        == WIDTH


# -- the page and the email: the reader's language ----------------------------------------
def test_the_page_draws_the_picture_in_the_readers_language(client, rt):
    from events.picture import picture_of

    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "feudum-guilds", "players": PLAYERS[:3]})
    gid = reply.json["id"]
    table_now = rt.games.load(gid)
    seat = min(table_now.to_act())
    url = "/play/" + rt.links.make(gid, seat, "play")
    page = {lang: client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)
            for lang in ("de", "en")}
    svgs = {lang: re.findall(r"<svg.*?</svg>", text, re.S) for lang, text in page.items()}
    assert len(svgs["de"]) == len(svgs["en"]) >= 2  # the desk's and the phone's
    for svg in svgs["de"]:
        assert "Scheune des Bauern" in svg and "Farmer&#x27;s barn" not in svg \
            and "Farmer's barn" not in svg
    for svg in svgs["en"]:
        assert "Scheune des Bauern" not in svg
    for medium in MEDIA:
        german = picture_of(rt.games, table_now, seat, medium=medium, language="de",
                            say=de)
        english = picture_of(rt.games, table_now, seat, medium=medium)
        assert "Scheune des Bauern" in german and "Farmer's barn" in english
        assert not _words(drawn(german)) & english_only(), medium


def test_the_email_picture_is_drawn_in_the_readers_language(client, rt):
    from worker.picture_mail import mail_picture

    reply = client.post("/api/v1/games", headers=admin_headers(), json={
        "game": "feudum-guilds", "players": PLAYERS[:2]})
    table_now = rt.games.load(reply.json["id"])
    german_png = mail_picture(rt.games, table_now, 0, language="de")
    english_png = mail_picture(rt.games, table_now, 0)
    assert german_png and english_png
    assert german_png.image.data != english_png.image.data
