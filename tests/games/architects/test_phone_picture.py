"""The picture a phone shows on the game page (``table["medium"] == "phone"``): the
email's narrow layout, but with every shape a legal move acts on (issue 29, item 2), its
text no smaller than the email's (the page enlarges the picture until its smallest text
reads at 11 px), nothing written past its right edge, and small clickable groups lying on
a hit area that covers them (a click between a Worker and its count still picks it)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from games.architects import GAME
from games.svg import EMAIL_WIDTH
from tests.games.architects.test_picture import VARIANTS, drawn_targets, positions, table_for
from tests.games.test_email_pictures import overflowing_text

SVG = "{http://www.w3.org/2000/svg}"


def drawn(state, seat: int, medium: str) -> str:
    return GAME.picture(GAME.view(state, seat), {**table_for(state, seat), "medium": medium})


def smallest_text(svg: str) -> float:
    return min(float(s) for s in re.findall(r'<text[^>]* font-size="([\d.]+)"', svg))


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
            assert ET.fromstring(phone).get("width") == str(EMAIL_WIDTH)
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
