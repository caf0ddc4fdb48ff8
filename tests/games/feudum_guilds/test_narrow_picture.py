"""Feudum's narrow picture (the turn email's, and the game page's on a phone) fits a phone
at a legible scale (issue 29, item 1): shown with its smallest text at 11 CSS px (the
page's picture-zoom.js scales it so) it is at most 350 px wide, a 390 px phone less the
page's padding; every text lies inside it and clear of every other text (measured with
DejaVu Sans, the font the pictures ask for first); every shape a legal move names is in
the phone's picture."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from games import registry
from games.feudum_guilds.picture import NARROW_WIDTH, WIDTH
from games.rng import RecordingRandom
from tests.picture_text import FITS, MIN_TEXT, SVG, box, overlapping, texts, width

GAME = registry.get("feudum-guilds")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
LONG_NAMES = ["Wilhelmina Maximiliane von Wartenberg-Mühlhausen zu Wasserburg",
              "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMM", "Bob", "Dee", "Eve"]
DEADLINE = "Wednesday 30 September 2026, 23:45 AEST"  # about the longest a deadline reads


def positions(n: int, seed: int, every: int = 40, moves: int = 400, **options):
    """(move number, state) of one random game, every ``every`` moves."""
    chooser = random.Random(seed)
    state = GAME.setup(NAMES[:n], GAME.normalize_options(options, n), RecordingRandom(seed))
    for i in range(moves):
        seats = sorted(GAME.to_act(state))
        if not seats:
            return
        if i % every == 0:
            yield i, state
        seat = chooser.choice(seats)
        GAME.apply(state, seat, chooser.choice(GAME.legal_moves(state, seat)),
                   RecordingRandom(i + 1))


def draw(state, seat, medium: str, names=None) -> str:
    table = {"names": (names or NAMES)[:state["n"]], "seat": seat,
             "to_act": sorted(GAME.to_act(state)), "deadline": DEADLINE, "version": 1,
             "previous": None, "medium": medium}
    return GAME.picture(GAME.view(state, seat), table)


def pictures(n: int = 3, seed: int = 7, names=None, **options):
    """The phone's and the email's picture for each seat to act, every 40th move of a
    random game up to move 400."""
    for i, state in positions(n, seed, **options):
        for seat in sorted(GAME.to_act(state)):
            for medium in ("phone", "email"):
                yield f"move {i}, seat {seat}, {medium}", draw(state, seat, medium, names)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_the_narrow_picture_shown_with_11_px_text_fits_a_phone(n):
    seen = 0
    for where, svg in pictures(n, seed=n + 7):
        least = min(float(t.get("font-size")) for t in texts(svg))
        assert width(svg) == NARROW_WIDTH, where
        assert least >= 11, where
        assert width(svg) * MIN_TEXT / least <= FITS, where
        seen += 1
    assert seen >= 10


@pytest.mark.parametrize(("n", "names"), [(3, None), (5, None), (3, LONG_NAMES)])
def test_every_text_of_the_narrow_picture_is_inside_it_and_clear_of_the_others(n, names):
    for where, svg in pictures(n, seed=n, names=names):
        boxes = [(box(t), t.text) for t in texts(svg)]
        outside = [f"{s!r} spans {b[0]:.0f}..{b[2]:.0f}" for b, s in boxes
                   if b[0] < 0 or b[2] > width(svg)]
        assert outside == [], where
        assert overlapping(boxes) == [], where


def test_every_target_a_legal_move_names_is_on_the_phone_s_picture():
    named = 0
    for _i, state in positions(4, seed=24, every=3, moves=900, reeves=True, monsters=True,
                               feast=True):
        for seat in GAME.to_act(state):
            root = ET.fromstring(draw(state, seat, "phone"))
            drawn = {g.get("data-target") for g in root.iter(f"{SVG}g")}
            for move in GAME.legal_moves(state, seat):
                for target in GAME.move_targets(move):
                    named += 1
                    assert target in drawn, (move, target)
    assert named > 100


def test_the_phone_keeps_its_tooltips_the_email_has_none_and_the_desk_is_wider():
    _i, state = next(positions(3, seed=1))
    assert draw(state, 0, "email").count("<title>") == 1  # the document's own
    assert draw(state, 0, "phone").count("<title>") > 10
    assert width(draw(state, 0, "page")) == WIDTH
