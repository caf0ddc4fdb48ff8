"""King's Guild's phone picture (the game page's on a phone) fits a 390 px phone at a
legible scale (issue 29, item 1): shown with its smallest text at 11.1 CSS px (the page's
picture-zoom.js scales it so) it is at most 350 px wide, in English and in German; every
text lies inside it and clear of every other text (measured with DejaVu Sans, the font the
pictures ask for first); every shape a legal move names is in it."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from games.kings_guild import GAME
from games.kings_guild.picture import PHONE_WIDTH, WIDTH
from games.rng import RecordingRandom
from tests.picture_text import FITS, MIN_TEXT, SVG, box, overlapping, texts
from worker.i18n import translate

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
LONG_NAMES = ["Wilhelmina Maximiliane von Wartenberg-Mühlhausen zu Wasserburg",
              "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMM", "Bob", "Dee", "Eve", "Flo"]
DEADLINE = "Mittwoch 30 September 2026, 23:45 AEST"  # about the longest a deadline reads
LANGUAGES = {"en": str, "de": lambda t: translate(t, "de")}


def positions(n: int, seed: int, every: int = 40, moves: int = 2000):
    """(move number, state) of one random game, every ``every`` moves, and its last."""
    chooser = random.Random(seed)
    state = GAME.setup(NAMES[:n], {"stall_breaker": True}, RecordingRandom(seed))
    for i in range(moves):
        seats = sorted(GAME.to_act(state))
        if i % every == 0 or not seats:
            yield i, state
        if not seats:
            return
        seat = chooser.choice(seats)
        GAME.apply(state, seat, chooser.choice(GAME.legal_moves(state, seat)),
                   RecordingRandom(chooser.getrandbits(32)))


def draw(state: dict[str, Any], seat: int, language: str = "en", medium: str = "phone",
         names: list[str] | None = None, previous: dict[str, Any] | None = None) -> str:
    table = {"names": (names or NAMES)[:len(state["names"])], "seat": seat,
             "to_act": sorted(GAME.to_act(state)), "deadline": DEADLINE, "version": 1,
             "previous": previous, "medium": medium}
    return GAME.picture(GAME.view(state, seat), table, LANGUAGES[language])


def pictures(n: int, seed: int, names: list[str] | None = None):
    """Every seat to act's phone picture, English and German, every 40th move of a
    random game (with the mover's previous view, so changes are framed)."""
    previous: dict[int, dict[str, Any]] = {}
    for i, state in positions(n, seed):
        for seat in sorted(GAME.to_act(state)) or [0]:
            for language in LANGUAGES:
                yield (f"{n} players, move {i}, seat {seat}, {language}",
                       draw(state, seat, language, names=names, previous=previous.get(seat)))
            previous[seat] = GAME.view(state, seat)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_the_phone_picture_shown_with_11_px_text_fits_a_phone(n):
    seen = 0
    for where, svg in pictures(n, seed=n + 3):
        width = float(ET.fromstring(svg).get("width"))
        least = min(float(t.get("font-size")) for t in texts(svg))
        assert width == PHONE_WIDTH, where
        assert least >= 11, where  # shown at its own size when it fits: 11 px
        assert width * MIN_TEXT / least <= FITS, (where, least)
        seen += 1
    assert seen >= 6  # a solo game is short


@pytest.mark.parametrize(("n", "names"), [(2, None), (3, None), (5, None), (6, LONG_NAMES)])
def test_every_text_of_the_phone_picture_is_inside_it_and_clear_of_the_others(n, names):
    for where, svg in pictures(n, seed=n, names=names):
        width = float(ET.fromstring(svg).get("width"))
        boxes = [(box(t), t.text) for t in texts(svg)]
        outside = [f"{s!r} spans {b[0]:.0f}..{b[2]:.0f}" for b, s in boxes
                   if b[0] < 0 or b[2] > width]
        assert outside == [], where
        assert overlapping(boxes) == [], where


@pytest.mark.parametrize("n", [1, 2, 4, 6])
def test_every_target_a_legal_move_names_is_on_the_phone_s_picture(n):
    named = 0
    for _i, state in positions(n, seed=20 + n, every=7):
        for seat in GAME.to_act(state):
            root = ET.fromstring(draw(state, seat, "de"))
            drawn = {g.get("data-target") for g in root.iter(f"{SVG}g")}
            for move in GAME.legal_moves(state, seat):
                for target in GAME.move_targets(move):
                    named += 1
                    assert target in drawn, (move, target)
    assert named > 30


def test_the_desk_keeps_its_wider_picture_and_the_email_its_own():
    _i, state = next(positions(3, seed=1))
    assert draw(state, 0, medium="email").count("<title>") == 1  # the document's own
    assert draw(state, 0, medium="phone").count("<title>") > 10  # a cut name's whole name
    assert float(ET.fromstring(draw(state, 0, medium="page")).get("width")) == WIDTH
    assert float(ET.fromstring(draw(state, 0, medium="email")).get("width")) != PHONE_WIDTH
