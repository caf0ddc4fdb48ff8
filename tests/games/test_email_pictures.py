"""Each game's picture for an email (``table["medium"] == "email"``): read on a phone about
340 px wide with no zoom, so it is drawn narrow (its small print stays legible), carries no
tooltips (a PNG shows none), and nothing is drawn past its right edge."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from games import registry
from games.rng import RecordingRandom
from games.svg import EMAIL_WIDTH

KINDS = ["kings-guild", "architects", "feudum-guilds"]
NAMES = ["Ann", "Bob", "Cy"]
PHONE = 340  # px: an email's column on a 390 px phone
SVG = "{http://www.w3.org/2000/svg}"


def positions(kind: str, players: int = 3, seed: int = 3, moves: int = 120, every: int = 30):
    """(game, state) of one random game, every ``every`` moves."""
    game = registry.get(kind)
    chooser = random.Random(seed)
    state = game.setup(NAMES[:players], game.normalize_options({}, players),
                       RecordingRandom(seed))
    for i in range(moves):
        seats = sorted(game.to_act(state))
        if not seats:
            return
        if i % every == 0:
            yield game, state
        seat = chooser.choice(seats)
        game.apply(state, seat, chooser.choice(game.legal_moves(state, seat)),
                   RecordingRandom(i + 1))


def draw(game, state, seat: int, medium: str | None) -> str:
    table = {"names": NAMES[:state.get("n", 3)], "seat": seat,
             "to_act": sorted(game.to_act(state)), "deadline": "Tuesday 01 December 2026, "
             "18:00 CET", "version": 7, "previous": None}
    if medium:
        table["medium"] = medium
    return game.picture(game.view(state, seat), table)


def width(svg: str) -> float:
    return float(re.search(r'<svg[^>]* width="([\d.]+)"', svg)[1])


def overflowing_text(svg: str) -> list[str]:
    """Texts whose estimated right edge (DejaVu Sans: about 0.55 em a letter) is past the
    picture's width, counting the translations of the groups they are in."""
    limit = width(svg)
    found = []

    def walk(node: ET.Element, dx: float) -> None:
        move = re.match(r"translate\(([-\d.]+)", node.get("transform") or "")
        dx += float(move[1]) if move else 0.0
        if node.tag == f"{SVG}text" and node.text:
            size = float(node.get("font-size", 14))
            anchor = node.get("text-anchor", "start")
            x = float(node.get("x", 0)) + dx
            span = 0.55 * size * len(node.text)
            right = x + span if anchor == "start" else x + span / 2 if anchor == "middle" else x
            if right > limit + 2:
                found.append(f"{node.text!r} ends at {right:.0f} > {limit:.0f}")
        for child in node:
            walk(child, dx)

    walk(ET.fromstring(svg), 0.0)
    return found


@pytest.mark.parametrize("kind", KINDS)
def test_an_email_picture_is_narrow_enough_that_a_phone_shows_11_unit_text_at_9_px(kind):
    for game, state in positions(kind):
        svg = draw(game, state, 0, "email")
        assert width(svg) <= EMAIL_WIDTH + 20
        assert 11 * PHONE / width(svg) >= 8.9


@pytest.mark.parametrize("kind", KINDS)
def test_the_page_keeps_its_own_wider_picture(kind):
    game, state = next(positions(kind))
    assert width(draw(game, state, 0, None)) == width(draw(game, state, 0, "page")) > \
        EMAIL_WIDTH + 20


@pytest.mark.parametrize("kind", KINDS)
def test_an_email_picture_carries_no_tooltips_but_the_page_does(kind):
    game, state = next(positions(kind))
    # the document's own title (the text alternative) stays
    assert draw(game, state, 0, "email").count("<title>") == 1
    assert draw(game, state, 0, "page").count("<title>") > 10


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("players", [2, 3])
def test_nothing_in_an_email_picture_is_written_past_its_right_edge(kind, players):
    for game, state in positions(kind, players, seed=players, moves=1500, every=45):
        for seat in range(players):
            assert overflowing_text(draw(game, state, seat, "email")) == []


def test_the_architects_email_leaves_the_workshop_and_guildhall_panels_to_the_page():
    game, state = list(positions("architects"))[-1]
    email, page = draw(game, state, 0, "email"), draw(game, state, 0, "page")
    for panel in ("Guildhall and Cathedral", "Apprentice deck"):
        assert panel in page and panel not in email
    assert "Main board" in email and "Black Market" in email and "(you)" in email
