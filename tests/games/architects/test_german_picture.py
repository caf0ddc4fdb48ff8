"""The Architects picture in German (issue 31, item 4): every word it draws, and every
tooltip, is said in the reader's language (``say``), so a German picture (desk, email,
phone) holds no English word of the game's catalog; and German words, longer than the
English the layout was fitted to, still stay inside the picture and clear of each other
(measured in DejaVu Sans, as the phone's test measures them).  The phone's picture in
German keeps what the English one keeps: 340 units wide, no text under 11."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from games.architects import GAME
from games.architects.picture import PHONE_TEXT, PHONE_WIDTH
from tests.games.architects.test_phone_picture import (
    FITS,
    LONG_NAMES,
    MIN_TEXT,
    SVG,
    box,
    overlapping,
    texts,
    width,
)
from tests.games.architects.test_picture import positions, table_for
from worker.i18n import translate

CATALOG = Path(__file__).resolve().parents[3] / "templates/translations/de/LC_MESSAGES" \
    / "architects.po"
MEDIA = ("page", "email", "phone")
# a few games, a handful of positions each (the phone's own test walks many more)
GAMES = [(1, {}, 40), (2, {"bot_opponent": True}, 60), (3, {"variable_setup": True}, 70),
         (5, {"promos": True}, 80)]


def say(text):
    return translate(text, "de")


def german(state, seat, medium: str, previous=None, names=None) -> str:
    view = GAME.view(state, seat)
    table = {**table_for(state, seat, previous), "medium": medium}
    if names:
        for pl, name in zip(view["players"], names, strict=False):
            pl["name"] = name
        table["names"] = names[:len(view["players"])]
    return GAME.picture(view, table, say)


def sample(n: int, options: dict, every: int):
    """A few positions of a random game: the draft, some turns, the end."""
    for k, (state, previous) in enumerate(positions(n, seed=300 + n, options=options,
                                                    every=every)):
        seats = sorted(GAME.to_act(state)) or [0]
        yield k, state, previous, seats[k % len(seats)]


def tokens(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-zÄÖÜäöüß']{2,}", text.replace("%(", " %(")))


@cache
def english_words() -> frozenset[str]:
    """The words of the catalog's English messages that no German message uses (so
    "Gold", a character's name or "Draft" do not count), placeholders left out."""
    with CATALOG.open("rb") as f:
        catalog = read_po(f)
    english: set[str] = set()
    said: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= tokens(re.sub(r"%\(\w+\)s", " ", text))
        for text in strings:
            said |= tokens(re.sub(r"%\(\w+\)s", " ", text))
    return frozenset(english - said)


def english_in(svg: str, names: list[str]) -> list[str]:
    """Each drawn text or tooltip holding an English word (the players' names aside)."""
    root = ET.fromstring(svg)
    found = []
    for node in [*root.iter(f"{SVG}text"), *root.iter(f"{SVG}title")]:
        text = node.text or ""
        for name in names:
            text = text.replace(name, " ")
        words = tokens(text) & english_words()
        if words:
            found.append(f"{sorted(words)} in {node.text!r}")
    return found


def test_the_catalog_check_knows_the_english_words_it_looks_for():
    words = english_words()
    assert {"Worker", "Workers", "Prison", "Virtue", "VP", "Black", "Market", "Score",
            "Hire", "none", "you"} <= words
    assert not {"Gold", "Ada", "Monument"} & words  # the same in German
    # and an English picture is full of them, so the check can fail
    state, _ = next(iter(positions(3, seed=301, every=30)))
    view = GAME.view(state, 0)
    english = GAME.picture(view, {**table_for(state, 0), "medium": "page"})
    assert len(english_in(english, [])) > 50


@pytest.mark.parametrize("n,options,every", GAMES)
def test_a_german_picture_draws_no_english_word_of_the_catalog(n, options, every):
    seen = 0
    for k, state, previous, seat in sample(n, options, every):
        names = [pl["name"] for pl in state["players"][:state["n"]]]
        for medium in MEDIA:
            svg = german(state, seat, medium, previous.get(seat))
            assert english_in(svg, names) == [], (k, medium)
            seen += 1
    assert seen >= 9


@pytest.mark.parametrize("n,options,every", GAMES)
def test_every_text_of_a_german_picture_is_inside_it_and_clear_of_the_others(
        n, options, every):
    seen = 0
    for k, state, previous, seat in sample(n, options, every):
        for medium in MEDIA:
            names = LONG_NAMES if medium == "phone" and k % 2 else None
            svg = german(state, seat, medium, previous.get(seat), names)
            boxes = [(box(t), t.text) for t in texts(svg)]
            if medium != "phone":  # the desk's and the email's counts (×2 beside ×1 on
                # the board, a Virtue mark by a cost) crowd each other in any language:
                # the words are what a language changes
                boxes = [(b, s) for b, s in boxes if re.search(r"[^\W\d_]", s)]
            outside = [f"{s!r} spans {b[0]:.0f}..{b[2]:.0f}" for b, s in boxes
                       if b[0] < 0 or b[2] > width(svg)]
            assert outside == [], (k, medium)
            assert overlapping(boxes) == [], (k, medium)
            seen += 1
    assert seen >= 9


@pytest.mark.parametrize("n,options,every", GAMES)
def test_the_german_phone_picture_shown_with_11_px_text_fits_a_390_px_phone(
        n, options, every):
    for _k, state, previous, seat in sample(n, options, every):
        svg = german(state, seat, "phone", previous.get(seat))
        least = min(float(t.get("font-size")) for t in texts(svg))
        assert width(svg) == PHONE_WIDTH
        assert least >= PHONE_TEXT
        assert width(svg) * MIN_TEXT / least <= FITS


def test_the_english_picture_is_drawn_as_without_say():
    state, previous = list(positions(2, seed=302, options={"bot_opponent": True},
                                     every=25))[2]
    for medium in MEDIA:
        table = {**table_for(state, 0, previous.get(0)), "medium": medium}
        view = GAME.view(state, 0)
        assert GAME.picture(view, table, str) == GAME.picture(view, table)
        assert GAME.picture(view, table, lambda t: translate(t, "en")) == \
            GAME.picture(view, table)
