"""The Feudum picture: drawn from a seat's view, clickable where moves act, built in steps."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from games import registry
from games.feudum_guilds.components import WRITS
from games.rng import RecordingRandom

GAME = registry.get("feudum-guilds")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "pictures"
SVG = "{http://www.w3.org/2000/svg}"


def positions(n: int, seed: int, every: int = 23, moves: int = 900, **options):
    """States of one random game, every ``every`` moves."""
    chooser = random.Random(seed)
    state = GAME.setup(NAMES[:n], GAME.normalize_options(options, n), RecordingRandom(seed))
    for i in range(moves):
        seats = sorted(GAME.to_act(state))
        if not seats:
            return
        if i % every == 0:
            yield state
        seat = chooser.choice(seats)
        GAME.apply(state, seat, chooser.choice(GAME.legal_moves(state, seat)),
                   RecordingRandom(i + 1))


def table(state, seat, previous=None, names=None):
    return {"names": names or NAMES[:state["n"]], "seat": seat,
            "to_act": sorted(GAME.to_act(state)), "deadline": "Tue 1 Dec, 18:00 CET",
            "version": 1, "previous": previous}


def targets_in(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {g.get("data-target") for g in root.iter(f"{SVG}g") if g.get("data-target")}


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_picture_is_well_formed_svg_for_every_seat_and_player_count(n):
    for state in positions(n, seed=n):
        for seat in [None, *range(n)]:
            root = ET.fromstring(GAME.picture(GAME.view(state, seat), table(state, seat)))
            assert root.tag == f"{SVG}svg"
            assert root.find(f"{SVG}title") is not None  # a text alternative


def test_the_picture_shows_no_hidden_writ_or_selection_of_another_seat():
    for state in positions(3, seed=11, every=7):
        for seat in range(3):
            view = GAME.view(state, seat)
            svg = GAME.picture(view, table(state, seat))
            seen = json.dumps(view)
            for other in range(3):
                if other == seat:
                    continue
                for wid in state["ps"][other]["hand"]:
                    name = WRITS[wid]["name"]
                    if name not in seen:
                        assert name not in svg
            if state["phase"] == "select":
                # only the viewer's own selected cards are marked
                assert svg.count(">selected<") == len(state["ps"][seat]["selected"])


def test_the_picture_is_a_function_of_the_view_alone():
    for state in positions(4, seed=5, every=31):
        view = GAME.view(state, 1)
        assert GAME.picture(view, table(state, 1)) == GAME.picture(
            json.loads(json.dumps(view)), table(state, 1))


@pytest.mark.parametrize("n", [2, 4])
def test_every_target_a_legal_move_names_is_on_that_seats_picture(n):
    named = 0
    for state in positions(n, seed=20 + n, every=3, reeves=True, monsters=True, feast=True):
        for seat in GAME.to_act(state):
            drawn = targets_in(GAME.picture(GAME.view(state, seat), table(state, seat)))
            for move in GAME.legal_moves(state, seat):
                for target in GAME.move_targets(move):
                    named += 1
                    assert target in drawn, (move, target)
    assert named > 100


@pytest.mark.parametrize("n", [2, 3, 5])
def test_move_steps_tell_every_legal_move_apart(n):
    for state in positions(n, seed=40 + n, every=5):
        for seat in GAME.to_act(state):
            moves = GAME.legal_moves(state, seat)
            paths = {json.dumps(GAME.move_steps(state, seat, m), sort_keys=True) for m in moves}
            assert len(paths) == len(moves)


def test_the_card_selection_is_picked_card_by_card_as_a_group():
    state = next(s for s in positions(3, seed=3, every=1)
                 if s["phase"] == "select" and s["ps"][0]["boost"] is not None
                 and not s["ps"][0]["committed"])
    moves = GAME.legal_moves(state, 0)
    steps = GAME.move_steps(state, 0, moves[0])
    assert steps[0]["label"].startswith("Select action cards (choose ")
    assert {s.get("group") for s in steps[1:]} == {"cards"}
    assert len(steps) - 1 == len(moves[0]["cards"])


def test_names_are_escaped_in_the_picture():
    state = next(positions(2, seed=1))
    svg = GAME.picture(GAME.view(state, 0), table(state, 0, names=['<b>"Ann"&', "Bob"]))
    ET.fromstring(svg)
    assert "<b>" not in svg and "&lt;b&gt;" in svg


def test_what_changed_since_the_seats_last_move_is_highlighted():
    states = [json.loads(json.dumps(s)) for s in positions(3, seed=9, every=40)]
    before, after = states[1], states[4]
    svg = GAME.picture(GAME.view(after, 0), table(after, 0, GAME.view(before, 0)))
    assert 'class="changed"' in svg
    unchanged = GAME.picture(GAME.view(after, 0), table(after, 0, GAME.view(after, 0)))
    assert 'class="changed"' not in unchanged


def test_save_a_picture_per_player_count_for_people_to_look_at():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for n in (2, 3, 4, 5):
        state = list(positions(n, seed=n, every=60))[-1]
        path = ARTIFACTS / f"feudum-guilds-{n}p.svg"
        path.write_text(GAME.picture(GAME.view(state, 0), table(state, 0)), encoding="utf-8")
        assert path.stat().st_size > 1000


def test_move_labels_and_the_summary_count_in_the_right_number():
    from games.feudum_guilds.views import label
    assert label({"type": "influence", "count": 1}, None) == "Claim 1 outpost"
    assert label({"type": "influence", "count": 2}, None) == "Claim 2 outposts"
    assert label({"type": "buy_seals", "count": 1}, None) == "Buy 1 king's seal for 3s"
    state = next(positions(2, seed=1))
    state["ps"][0]["shillings"] = 1
    you = next(x for x in GAME.summary(state, 0).splitlines() if x.startswith("You:"))
    assert you.startswith("You: 1 shilling,") and "(s)" not in you


def test_five_drawn_royal_writs_stay_inside_the_desk_picture():
    """Five writs drawn at once (5 players) take two rows, none past the right edge."""
    names = ["A", "B", "C", "D", "E"]
    game = registry.get("feudum-guilds")
    chooser = random.Random(0)
    state = game.setup(names, game.normalize_options({}, 5), RecordingRandom(0))
    for i in range(600):
        seats = sorted(game.to_act(state))
        view = game.view(state, seats[0])
        pending = view.get("pending") or {}
        if pending.get("kind") == "writ_keep" and len(pending.get("cards") or []) >= 5:
            break
        seat = chooser.choice(seats)
        game.apply(state, seat, chooser.choice(game.legal_moves(state, seat)),
                   RecordingRandom(i + 1))
    else:
        pytest.fail("no position with five writs drawn")
    svg = game.picture(view, {"names": names, "seat": seats[0], "to_act": seats,
                              "deadline": None, "version": 1, "previous": None,
                              "medium": "page"})
    width = float(re.search(r'<svg[^>]* width="([\d.]+)"', svg)[1])
    rights = [float(x) + float(w) for x, w in
              re.findall(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', svg)]
    assert max(rights) <= width


def test_the_deadline_never_runs_into_the_players_names_on_the_desk():
    """Five players with long names leave no room beside them: the deadline takes a line
    of its own (it had been drawn over the last names)."""
    from tests.picture_text import box, overlapping, texts
    game = registry.get("feudum-guilds")
    for names in (["Ann", "Bob", "Cy"],
                  ["Wilhelmina", "Bartholomew", "Cy", "Dorothea", "Eve"]):
        state = game.setup(names, game.normalize_options({}, len(names)), RecordingRandom(1))
        svg = game.picture(game.view(state, 0), {
            "names": names, "seat": 0, "to_act": sorted(game.to_act(state)),
            "deadline": "Wednesday 30 September 2026, 23:45 AEST", "version": 1,
            "previous": None, "medium": "page"})
        top = [(box(t), t.text) for t in texts(svg) if float(t.get("y")) < 60]
        assert any("Deadline" in said for _, said in top)
        assert overlapping(top) == [], names
