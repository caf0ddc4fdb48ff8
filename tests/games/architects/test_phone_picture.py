"""The picture a phone shows on the game page (``table["medium"] == "phone"``): the
email's narrow layout redrawn for the phone (issue 29, item 1), with every shape a legal
move acts on (issue 29, item 2).  Shown with its smallest text at 11 CSS px (the page's
picture-zoom.js scales it so) it is at most 350 px wide, a 390 px phone less the page's
padding, so the board needs no sideways panning; every text lies inside it and clear of
every other text (measured in DejaVu Sans, the font the pictures ask for first), with
60-letter names too; small clickable groups lie on a hit area that covers them (a click
between a Worker and its count still picks it)."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest

from games.architects import GAME
from games.architects.picture import PHONE_TEXT, PHONE_WIDTH
from tests.games.architects.test_picture import VARIANTS, drawn_targets, positions, table_for
from tests.games.test_email_pictures import overflowing_text
from tests.picture_text import (
    FITS,
    MIN_TEXT,
    SVG,
    box,
    overlapping,
    smallest_text,
    texts,
    width,
)

LONG_NAMES = ["Wilhelmina Maximiliane von Wartenberg-Mühlhausen zu Wasserburg",
              "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM",
              "Bob", "Dee", "Eve"]
DEADLINE = "Wednesday 30 September 2026, 23:45 AEST"  # about the longest a deadline reads


def drawn(state, seat: int, medium: str, names: list[str] | None = None,
          previous=None) -> str:
    view = GAME.view(state, seat)
    table = {**table_for(state, seat, previous), "medium": medium}
    if names:
        view = copy.deepcopy(view)
        for pl, name in zip(view["players"], names, strict=False):
            pl["name"] = name
        table = {**table, "names": names[:len(view["players"])], "deadline": DEADLINE}
    return GAME.picture(view, table)


@pytest.mark.parametrize("n,options", VARIANTS)
def test_every_legal_moves_targets_are_drawn_in_the_phones_picture(n, options):
    kinds: set[str] = set()
    for state, _ in positions(n, seed=60 + n, options=options, every=n + 1):
        for seat in GAME.to_act(state):
            svg = drawn(state, seat, "phone")
            targets = drawn_targets(svg)
            for move in GAME.legal_moves(state, seat):
                wanted = set(GAME.move_targets(move))
                assert not wanted - targets, (move, wanted - targets)
                kinds |= {re.sub(r"\d+", "#", t) for t in wanted}
    # the targets the email leaves out came up, so the test saw them drawn
    assert {"loc:guildhall", "ws:#:#"} <= kinds, kinds


def test_the_email_still_leaves_the_workshop_and_guildhall_to_the_page():
    state, _ = list(positions(3, seed=61, every=40))[-1]
    email, phone = drawn(state, 0, "email"), drawn(state, 0, "phone")
    for target in ("loc:guildhall", "cathedral", "deck:buildings"):
        assert f'data-target="{target}"' in phone and f'data-target="{target}"' not in email
    assert 'data-target="ws:' in phone and 'data-target="ws:' not in email


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_the_phones_picture_is_narrow_its_text_no_smaller_than_the_emails_and_in_bounds(n):
    for state, _ in positions(n, seed=70 + n, every=9 * n):
        for seat in range(n):
            phone, email = drawn(state, seat, "phone"), drawn(state, seat, "email")
            assert width(phone) == PHONE_WIDTH
            assert smallest_text(phone) >= smallest_text(email)
            assert overflowing_text(phone) == []


def test_a_worker_group_on_the_board_lies_on_a_hit_area_covering_its_icon_and_count():
    for state, _ in positions(3, seed=62, every=7):
        root = ET.fromstring(drawn(state, 0, "page"))
        for g in root.iter(f"{SVG}g"):
            if not (g.get("data-target") or "").startswith("workers:"):
                continue
            hit = g.find(f"{SVG}g/{SVG}rect")
            assert hit is not None and hit.get("pointer-events") == "all"
            assert hit.get("fill") == "none" and hit.get("stroke") is None
            x, w = float(hit.get("x")), float(hit.get("width"))
            count = g.find(f"{SVG}text")
            # the count's estimated right edge (0.6 em a bold letter) lies inside
            right = float(count.get("x")) + 0.6 * 13 * len(count.text)
            assert x < float(count.get("x")) and right <= x + w, (g.get("data-target"))
            return
    pytest.fail("no Worker on the board in any position")


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_the_phones_picture_shown_with_11_px_text_fits_a_390_px_phone(n):
    seen = 0
    for state, _ in positions(n, seed=80 + n, every=3 * n + 1):
        for seat in sorted(GAME.to_act(state)) or [0]:
            svg = drawn(state, seat, "phone")
            least = min(float(t.get("font-size")) for t in texts(svg))
            assert least >= PHONE_TEXT >= 11
            assert width(svg) * MIN_TEXT / least <= FITS, (width(svg), least)
            seen += 1
    assert seen >= 10


@pytest.mark.parametrize(("n", "options", "names"),
                         [(3, {}, None), (1, {}, None),
                          (2, {"bot_opponent": True}, None), (3, {}, LONG_NAMES),
                          (5, {}, LONG_NAMES), (2, {"promos": True}, LONG_NAMES)])
def test_every_text_of_the_phones_picture_is_inside_it_and_clear_of_the_others(
        n, options, names):
    seen = 0
    for k, (state, previous) in enumerate(positions(n, seed=90 + n, options=options,
                                                    every=4 * n + 3)):
        for seat in sorted(GAME.to_act(state)) or [0]:
            svg = drawn(state, seat, "phone", names, previous.get(seat))
            boxes = [(box(t), t.text) for t in texts(svg)]
            outside = [f"{s!r} spans {b[0]:.0f}..{b[2]:.0f}" for b, s in boxes
                       if b[0] < 0 or b[2] > width(svg)]
            where = f"position {k}, seat {seat}"
            assert outside == [], where
            assert overlapping(boxes) == [], where
            seen += 1
    assert seen >= 10


def test_the_phone_keeps_its_tooltips_the_email_has_none_and_the_desk_is_wider():
    state, _ = list(positions(3, seed=63, every=40))[1]
    assert drawn(state, 0, "email").count("<title>") == 1  # the document's own
    assert drawn(state, 0, "phone").count("<title>") > 20
    assert width(drawn(state, 0, "page")) > width(drawn(state, 0, "email")) > PHONE_WIDTH
