"""The table as a picture: drawn from a seat's view only, clickable where moves act,
and every legal move as distinct step-by-step choices (issue 10)."""

from __future__ import annotations

import copy
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.architects import GAME, cards
from games.architects.game import provisional_scores
from games.rng import RecordingRandom

SVG = "{http://www.w3.org/2000/svg}"
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "pictures"
VARIANTS = [(1, {}), (2, {}), (3, {}), (4, {}), (5, {}), (2, {"bot_opponent": True}),
            (3, {"variable_setup": True}), (2, {"promos": True, "variable_setup": True})]


def positions(n: int, seed: int, options: dict[str, Any] | None = None,
              every: int = 5) -> Iterator[tuple[dict[str, Any], dict[int, dict[str, Any]]]]:
    """Random-bot positions of one game (a copy every ``every`` moves, and the last), with
    each seat's view before its latest move (the picture's ``previous``)."""
    chooser = random.Random(seed)
    opts = GAME.normalize_options(dict(options or {}), n)
    state = GAME.setup([f"P{i}" for i in range(n)], opts, RecordingRandom(seed))
    previous: dict[int, dict[str, Any]] = {}
    count = 0
    while True:
        if count % every == 0 or GAME.outcome(state) is not None:
            yield copy.deepcopy(state), dict(previous)
        if GAME.outcome(state) is not None:
            return
        seat = chooser.choice(sorted(GAME.to_act(state)))
        move = chooser.choice(GAME.legal_moves(state, seat))
        previous[seat] = GAME.view(state, seat)
        GAME.apply(state, seat, move, RecordingRandom(chooser.getrandbits(32)))
        count += 1


def table_for(state: dict[str, Any], seat: int | None,
              previous: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"names": [pl["name"] for pl in state["players"][:state["n"]]], "seat": seat,
            "to_act": sorted(GAME.to_act(state)), "deadline": "Tue 1 Dec 18:00",
            "version": 1, "previous": previous}


def picture(state: dict[str, Any], seat: int | None,
            previous: dict[str, Any] | None = None) -> str:
    return GAME.picture(GAME.view(state, seat), table_for(state, seat, previous))


def drawn_targets(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {g.get("data-target") for g in root.iter(f"{SVG}g") if g.get("data-target")}


def normalized(steps: list[dict[str, Any]]) -> tuple:
    """Steps as the page reads them: a run of one ``group`` is a pick in any order."""
    out: list[Any] = []
    i = 0
    while i < len(steps):
        group = steps[i].get("group")
        if group is None:
            out.append(steps[i]["label"])
            i += 1
            continue
        run = []
        while i < len(steps) and steps[i].get("group") == group:
            run.append(steps[i]["label"])
            i += 1
        out.append((group, tuple(sorted(run))))
    return tuple(out)


# -- the picture is a picture ------------------------------------------------------------------
@pytest.mark.parametrize("n,options", VARIANTS)
def test_the_picture_is_well_formed_svg_for_every_seat_at_every_player_count(n, options):
    for state, previous in positions(n, seed=10 + n, options=options, every=12 * n):
        for seat in [None, *range(n)]:
            svg = picture(state, seat, previous.get(seat) if seat is not None else None)
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg"
            assert int(root.get("width")) <= 1000
            assert root.find(f"{SVG}title") is not None


def test_every_group_with_a_target_has_a_title_as_its_text_alternative():
    state, _ = list(positions(3, seed=4, every=40))[-2]
    root = ET.fromstring(picture(state, 0))
    for g in root.iter(f"{SVG}g"):
        if g.get("data-target"):
            assert g.find(f"{SVG}title") is not None, g.get("data-target")


def test_player_names_are_escaped_in_the_picture():
    names = ['<b>Ann</b>', 'Bob & "Co"', "Cy'<"]
    opts = GAME.normalize_options({}, 3)
    state = GAME.setup(names, opts, RecordingRandom(3))
    svg = GAME.picture(GAME.view(state, 0), {**table_for(state, 0), "names": names})
    root = ET.fromstring(svg)
    texts = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    for name in names:
        assert name in texts
    assert "<b>" not in svg


# -- hidden information stays hidden -----------------------------------------------------------
def redeal(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same position with every card ``seat`` cannot see dealt again at random."""
    out = copy.deepcopy(state)
    places: list[tuple[list[int], int]] = []  # (list, index) of every hidden Building card
    for i in range(len(out["deck"])):
        places.append((out["deck"], i))
    for q, pl in enumerate(out["players"]):
        if q != seat:
            places += [(pl["hand"], i) for i in range(len(pl["hand"]))]
    if out["draft"] is not None:
        for q, pool in enumerate(out["draft"]["pools"]):
            if q != seat:
                places += [(pool, i) for i in range(len(pool))]
    pend = out["pending"]
    if pend is not None and pend["kind"] == "keep" and out["current"] != seat:
        places += [(pend["cards"], i) for i in range(len(pend["cards"]))]
    hidden = [lst[i] for lst, i in places]
    rng.shuffle(hidden)
    for (lst, i), card in zip(places, hidden, strict=True):
        lst[i] = card
    rng.shuffle(out["app_deck"])
    rng.shuffle(out["rewards"])
    for pile in ("bm_small", "bm_large"):
        rest = out[pile][1:]
        rng.shuffle(rest)
        out[pile][1:] = rest
    if out["automaton"] is not None:
        rng.shuffle(out["automaton"]["deck"])
    return out


@pytest.mark.parametrize("n,options", [(1, {}), (3, {}), (4, {"variable_setup": True})])
def test_the_picture_is_the_same_whatever_the_cards_its_seat_cannot_see(n, options):
    rng = random.Random(n)
    for state, _ in positions(n, seed=20 + n, options=options, every=10 * n):
        for seat in range(n):
            again = redeal(state, seat, rng)
            assert GAME.view(again, seat) == GAME.view(state, seat)
            assert picture(again, seat) == picture(state, seat)


@pytest.mark.parametrize("n", [2, 4])
def test_no_card_in_another_hand_or_pool_is_named_in_the_picture(n):
    for state, _ in positions(n, seed=30 + n, every=6 * n):
        for seat in range(n):
            svg = picture(state, seat)
            shown = set(state["players"][seat]["hand"])
            for pl in state["players"]:
                shown |= set(pl["buildings"])
            if state["draft"] is not None:
                shown |= set(state["draft"]["pools"][seat])
            pend = state["pending"]
            if pend and pend["kind"] == "keep" and state["current"] == seat:
                shown |= set(pend["cards"])
            secret = set(state["deck"])
            for q, pl in enumerate(state["players"]):
                if q != seat:
                    secret |= set(pl["hand"])
            for card in secret - shown:
                assert cards.building(card)["name"] not in svg


# -- moves on the picture ----------------------------------------------------------------------
@pytest.mark.parametrize("n,options", VARIANTS)
def test_every_legal_moves_targets_are_drawn_in_its_seats_picture(n, options):
    for state, _ in positions(n, seed=40 + n, options=options, every=n + 1):
        for seat in GAME.to_act(state):
            drawn = drawn_targets(picture(state, seat))
            for move in GAME.legal_moves(state, seat):
                missing = set(GAME.move_targets(move)) - drawn
                assert not missing, (move, missing)


def test_a_placement_targets_its_location_and_a_capture_its_colour_there():
    assert GAME.move_targets({"type": "place", "location": "quarry"}) == ["loc:quarry"]
    assert GAME.move_targets({"type": "place", "location": "black_market", "space": 2}) \
        == ["bm:2"]
    assert GAME.move_targets({"type": "capture", "location": "forest", "player": 1}) \
        == ["workers:forest:1"]
    assert GAME.move_targets({"type": "draft", "card": 7}) == ["card:7"]
    assert GAME.move_targets({"type": "done"}) == []


@pytest.mark.parametrize("n,options", VARIANTS)
def test_distinct_legal_moves_have_distinct_steps_and_equal_moves_equal_steps(n, options):
    for state, _ in positions(n, seed=50 + n, options=options, every=2):
        for seat in GAME.to_act(state):
            seen: dict[tuple, dict[str, Any]] = {}
            labels: set[tuple] = set()
            moves = GAME.legal_moves(state, seat)
            for move in moves:
                steps = GAME.move_steps(state, seat, move)
                assert steps == GAME.move_steps(state, seat, copy.deepcopy(move))
                assert all(isinstance(s["label"], str) and s["label"] for s in steps)
                key = normalized(steps)
                assert key not in seen, (move, seen.get(key))
                seen[key] = move
                labels.add(tuple(s["label"] for s in steps))
            assert len(labels) == len(moves)


def test_a_payment_is_one_group_of_resources_picked_in_any_order(make_table):
    t = make_table(n=2)
    t.turn_to(0)
    t.give(0, stone=5, wood=5)
    t.state["pending"] = {"kind": "guildhall"}
    t.player(0)["virtue"] = 7
    t.player(0)["cathedral"] = 1  # level 2: 4 Stone and Wood in any mix
    moves = [m for m in t.moves(0) if m["type"] == "cathedral"]
    assert moves, "a Cathedral payment is offered"
    for move in moves:
        steps = GAME.move_steps(t.state, 0, move)
        assert steps[0] == {"label": "Work on the Cathedral"}
        pay = [s for s in steps if s.get("group") == "pay"]
        assert pay and all(s is steps[-len(pay) + i] for i, s in enumerate(pay))
        assert len(pay) == len(move["pay"])
        assert sorted(s["label"] for s in pay) == sorted(
            f"{v} {k.title()}" for k, v in move["pay"].items())


def test_the_first_step_names_the_kind_of_action(make_table):
    t = make_table(n=2)
    t.turn_to(0)
    first = {GAME.move_steps(t.state, 0, m)[0]["label"] for m in t.moves(0)}
    assert "Place a Worker" in first


# -- what players ask for ----------------------------------------------------------------------
def test_a_drafted_card_is_offered_with_cost_vp_requirement_and_effect():
    state = GAME.setup(["A", "B"], GAME.normalize_options({}, 2), RecordingRandom(1))
    for move in GAME.legal_moves(state, 0):
        card = cards.building(move["card"])
        label = GAME.move_label(state, 0, move)
        assert label.startswith(f"Keep {card['name']}: {card['vp']} VP; cost ")
        assert card["effect"] in label
        if card["skills"]:
            assert "needs " + " and ".join(card["skills"]) in label
        steps = GAME.move_steps(state, 0, move)
        assert card["effect"] in steps[-1]["label"]
    svg = picture(state, 0)
    for card in state["draft"]["pools"][0]:
        assert f'data-target="card:{card}"' in svg


def test_the_running_score_is_in_every_seats_view_and_the_picture():
    state, _ = list(positions(3, seed=5, every=60))[1]
    totals = {tuple(GAME.view(state, seat)["scores"]["totals"]) for seat in [None, 0, 1, 2]}
    assert len(totals) == 1
    scores = GAME.view(state, 0)["scores"]
    assert scores["final"] is False and len(scores["totals"]) == len(state["players"])
    assert f"{scores['totals'][1]} VP" in picture(state, 0)


def test_the_final_score_is_the_result_once_the_game_is_over():
    *_, (state, _) = positions(2, seed=6, every=1000)
    scores = GAME.view(state, 0)["scores"]
    assert scores["final"] is True
    assert scores["totals"] == GAME.outcome(state)["scores"]


def test_the_running_score_is_the_score_a_resignation_or_vote_ranks_by():
    for state, _ in list(positions(2, seed=7, options={"bot_opponent": True}, every=40))[:-1]:
        totals = GAME.view(state, 0)["scores"]["totals"]
        assert totals[:2] == provisional_scores(state)


def test_plans_say_how_many_building_cards_with_the_plural_right(make_table):
    t = make_table(n=2)
    t.place(0, "workshop")
    plans = [m for m in t.moves(0) if m["type"] == "plans"]
    assert GAME.move_label(t.state, 0, plans[0]) == \
        "Work on Building plans: draw 1 Building card"


# -- what changed ------------------------------------------------------------------------------
def changed_targets(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {g.get("data-target") or g.findtext(f"{SVG}title") or ""
            for g in root.iter(f"{SVG}g") if "changed" in (g.get("class") or "").split()}


def test_a_location_that_gained_a_worker_is_highlighted(make_table):
    t = make_table(n=2)
    t.turn_to(0)
    before = GAME.view(t.state, 1)
    t.play(0, {"type": "place", "location": "quarry"})
    svg = picture(t.state, 1, before)
    assert "loc:quarry" in changed_targets(svg)
    assert "loc:forest" not in changed_targets(svg)


def test_nothing_is_highlighted_on_a_first_look(make_table):
    t = make_table(n=3)
    assert changed_targets(picture(t.state, 0, None)) == set()


# -- for the lead's eyes -----------------------------------------------------------------------
def test_save_one_picture_per_player_count_for_review():
    """Writes test-artifacts/pictures/architects-<n>p.svg (a mid-game position)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for n, options in [(1, {}), (2, {}), (3, {"variable_setup": True}), (4, {}), (5, {})]:
        states = list(positions(n, seed=60 + n, options=options, every=25))
        state, previous = states[len(states) // 2]
        seat = state["current"] if state["current"] is not None and state["current"] < n else 0
        svg = picture(state, seat, previous.get(seat))
        (ARTIFACTS / f"architects-{n}p.svg").write_text(svg, encoding="utf-8")
        ET.fromstring(svg)
    state = GAME.setup(["Ann", "Bob", "Cy"], GAME.normalize_options({}, 3), RecordingRandom(2))
    (ARTIFACTS / "architects-draft.svg").write_text(picture(state, 0), encoding="utf-8")


def test_the_email_summary_gives_the_running_score(make_table):
    t = make_table(n=2)
    totals = GAME.view(t.state, 0)["scores"]["totals"]
    assert f"Score now: P0 {totals[0]} VP, P1 {totals[1]} VP." in \
        GAME.summary(t.state, 1)
