"""The table as a picture (issue 10): an SVG drawn from one seat's view, the shapes a move
acts on, and every legal move built step by step."""

from __future__ import annotations

import copy
import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games.bots import play_random_game
from games.kings_guild import GAME, cards
from games.rng import RecordingRandom

BOTS = {"stall_breaker": True}  # random bots may deadlock; the house rule ends such games
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts" / "pictures"
SVG = "{http://www.w3.org/2000/svg}"


def table(state: dict[str, Any], seat: int | None, previous: dict[str, Any] | None = None,
          deadline: str | None = "Tue 3 Dec, 18:00 CET") -> dict[str, Any]:
    """What the platform passes to ``picture`` besides the view."""
    return {"names": list(state["names"]), "seat": seat, "to_act": sorted(GAME.to_act(state)),
            "deadline": deadline, "version": 1, "previous": previous}


def draw(state: dict[str, Any], seat: int | None, previous: dict[str, Any] | None = None) -> str:
    return GAME.picture(GAME.view(state, seat), table(state, seat, previous))


def positions(players: int, seed: int, moves: int = 300, every: int = 1) -> Iterator[dict]:
    """States along a game of random legal moves (every ``every``-th, from the setup on)."""
    chooser = random.Random(seed)
    state = GAME.setup([f"Bot {i + 1}" for i in range(players)], dict(BOTS),
                       RecordingRandom(seed))
    for k in range(moves):
        if k % every == 0:
            yield state
        seats = sorted(GAME.to_act(state))
        if not seats:
            return
        seat = chooser.choice(seats)
        GAME.apply(state, seat, chooser.choice(GAME.legal_moves(state, seat)),
                   RecordingRandom(chooser.getrandbits(32)))


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def shapes(svg: str) -> set[str]:
    """The ``data-target`` names of a picture."""
    return {e.get("data-target") for e in parse(svg).iter() if e.get("data-target")}


def save(name: str, svg: str) -> None:
    """Keep one picture for people to look at (not compared: test-artifacts/ is ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / name).write_text(svg, encoding="utf-8")


# -- the picture ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_picture_is_well_formed_svg_for_every_seat_at_every_player_count(players):
    last = None
    for state in positions(players, seed=players, moves=240, every=40):
        for seat in [None, *range(players)]:
            root = parse(draw(state, seat))
            width = float(root.get("viewBox").split()[2])
            assert width <= 1000
            assert root.find(f"{SVG}title") is not None
        last = state
    previous = GAME.view(last, 0)
    save(f"kings-guild-{players}p.svg", draw(last, 0, previous))


def test_picture_of_a_finished_game_shows_the_final_scores():
    state, _ = play_random_game(GAME, 2, 3, BOTS)
    svg = draw(state, 1)
    parse(svg)
    scores = state["outcome"]["scores"]
    assert f"{scores[0]} prestige (final)" in svg and "Game over" in svg
    assert GAME.view(state, 1)["scores"] == scores
    save("kings-guild-2p-over.svg", svg)


def test_picture_is_a_function_of_the_view_whatever_the_others_hold(kg):
    *_, state = positions(3, seed=5, moves=120, every=40)  # a game under way
    for seat, name in ((1, "Stunning Charm"), (1, "Treasure Map"), (2, "Ancient Helm")):
        kg.to_hand(state, seat, name)
    before = {seat: draw(state, seat) for seat in (None, 0)}
    # re-deal what seat 0 cannot see: each card in the others' hands swapped for a deck
    # card of another name, and every deck shuffled
    other = copy.deepcopy(state)
    for seat in (1, 2):
        hand = other["guilds"][seat]["hand"]
        for i, card in enumerate(hand):
            deck = other["treasure_decks"][cards.treasure(card)["color"]]
            swap = next(c for c in deck if cards.treasure_name(c) != cards.treasure_name(card))
            deck[deck.index(swap)], hand[i] = card, swap
    for deck in other["treasure_decks"].values():
        random.Random(1).shuffle(deck)
    GAME.check_invariants(other)
    assert other["guilds"][1]["hand"] != state["guilds"][1]["hand"]
    assert GAME.view(other, 0) == GAME.view(state, 0)
    for seat in (None, 0):
        assert draw(other, seat) == before[seat]


def test_picture_shows_no_hidden_card_of_another_seat(kg):
    s = kg.new(3)
    kg.to_hand(s, 1, "Stunning Charm")
    kg.to_hand(s, 0, "Treasure Map")
    assert "Stunning Charm" in draw(s, 1)
    for seat in (0, 2, None):
        svg = draw(s, seat)
        assert "Stunning Charm" not in svg
        assert "1 treasure" in svg  # the others see how many
    assert "Treasure Map" in draw(s, 0) and "Treasure Map" not in draw(s, 1)


def test_picture_escapes_player_names():
    state = GAME.setup(['<b>Ann & "Bo"</b>', "Cy"], {}, RecordingRandom(1))
    svg = draw(state, 0)
    parse(svg)
    assert "<b>" not in svg and "&lt;b&gt;Ann &amp; " in svg


def test_picture_highlights_what_changed_since_your_last_move(kg):
    s = kg.new(2)
    previous = GAME.view(s, 0)
    assert 'class="changed"' not in draw(s, 0, previous)
    assert 'class="changed"' not in draw(s, 0, None)
    kg.give(s, 1, wood=2)
    svg = draw(s, 0, previous)
    changed = [g for g in parse(svg).iter(f"{SVG}g") if "changed" in (g.get("class") or "")]
    titles = [g.find(f"{SVG}title").text for g in changed]
    assert "P2 stores 2 wood" in titles
    assert any(t.startswith("Supply:") and "wood" in t for t in titles)


def test_picture_marks_a_new_treasure_in_your_hand(kg):
    s = kg.new(2)
    previous = GAME.view(s, 0)
    kg.to_hand(s, 0, "Stunning Charm")
    changed = [g for g in parse(draw(s, 0, previous)).iter(f"{SVG}g")
               if "changed" in (g.get("class") or "")]
    assert any(g.get("data-target", "").startswith("card:") for g in changed)


def test_picture_names_the_round_and_who_is_to_act(kg):
    s = kg.new(3)
    svg = draw(s, 2)
    assert "Round 1" in svg and "P1's turn" in svg and "P3 (you)" in svg
    assert "Deadline: Tue 3 Dec, 18:00 CET" in svg


# -- running scores -------------------------------------------------------------------------


def test_view_shows_the_prestige_on_the_table_without_hidden_treasures(kg):
    s = kg.new(2)
    kg.hire(s, 0, "Courier")  # 2 prestige
    kg.room(s, 0, "Warehouse", 0, 1)  # 2 prestige
    kg.to_hand(s, 0, "Stunning Charm")
    for viewer in (0, 1, None):
        assert GAME.view(s, viewer)["guilds"][0]["prestige"] == 4
        assert GAME.view(s, viewer)["scores"] == [4, 0]
    assert "4 prestige on the table" in draw(s, 1)


def test_view_hides_the_prestige_with_the_coins_during_the_funeral(kg):
    s = kg.new(2)
    s["funeral"] = {"bids": {}}
    view = GAME.view(s, 0)
    assert view["guilds"][1]["prestige"] is None and view["guilds"][0]["prestige"] == 0
    assert view["scores"] == [0, None]


# -- targets and steps ----------------------------------------------------------------------


def _sampled_moves(players: int, seed: int, moves: int, every: int):
    for state in positions(players, seed, moves, every):
        for seat in sorted(GAME.to_act(state)):
            yield state, seat, GAME.legal_moves(state, seat)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_every_legal_move_target_is_a_shape_in_the_movers_picture(players):
    """Whole random games; the mover's picture is drawn every 60th position and whenever a
    kind of move with targets turns up that was not checked yet (rare ones included)."""
    covered: set[str] = set()
    for seed in range(2 if players <= 2 else 1):  # more players: longer games (suite time)
        for k, (state, seat, moves) in enumerate(_sampled_moves(players, seed, 5000, 1)):
            kinds = {m["type"] for m in moves if GAME.move_targets(m)}
            if k % 60 and kinds <= covered:
                continue
            shown = shapes(draw(state, seat))
            for move in moves:
                missing = [n for n in GAME.move_targets(move) if n not in shown]
                assert not missing, f"{move}: {missing} not in the picture"
            covered |= kinds
    assert {"craft", "build", "place", "hire", "take", "sell"} <= covered


def test_move_targets_name_the_shapes_of_each_kind_of_move():
    assert GAME.move_targets({"type": "craft", "slot": 2, "quest": 7, "items": [0, 1]}) == [
        "quest:2", "item:2:0", "item:2:1"]
    assert GAME.move_targets({"type": "hire", "index": 1, "specialist": 9, "space": "top"}) == [
        "specialist:9", "space:top"]
    assert GAME.move_targets({"type": "map_colors", "colors": ["red", "red"]}) == ["deck:red"]
    assert GAME.move_targets({"type": "steal", "from": 2, "resource": "gem"}) == [
        "store:2:gem"]
    assert GAME.move_targets({"type": "end_turn"}) == []


def _steps_key(steps: list[dict[str, Any]]) -> tuple:
    """Steps as the page compares them: a group is an unordered pick."""
    out: list[Any] = []
    for step in steps:
        if out and step.get("group") and isinstance(out[-1], tuple) and out[-1][0] == step["group"]:
            out[-1] = (step["group"], tuple(sorted(out[-1][1] + (step["label"],))))
        elif step.get("group"):
            out.append((step["group"], (step["label"],)))
        else:
            out.append(step["label"])
    return tuple(out)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_move_steps_tell_every_legal_move_apart(players):
    for seed in range(4):
        for state, seat, moves in _sampled_moves(players, seed, 5000, 1):
            seen: dict[tuple, dict[str, Any]] = {}
            for move in moves:
                steps = GAME.move_steps(state, seat, move)
                assert steps and all(s["label"] and "{" not in s["label"] for s in steps)
                assert "group" not in steps[0]  # the first step is the kind of action
                key = _steps_key(steps)
                assert seen.get(key, move) == move, f"{seen[key]} and {move} look alike"
                seen[key] = move
                assert GAME.move_steps(state, seat, copy.deepcopy(move)) == steps


def test_move_steps_pick_the_items_of_a_quest_as_a_group(kg):
    s = kg.new(2)
    kg.slot(s, 0, 2)
    kg.room(s, 0, "Warehouse", 0, 1)  # storage for 7
    kg.give(s, 0, cloth=3, leather=3, metal=1)  # Explore Bluevein Isle: Cloak and Boots
    both = [m for m in kg.moves(s, 0, "craft") if m["slot"] == 0 and len(m["items"]) == 2]
    assert both
    steps = GAME.move_steps(s, 0, both[0])
    assert steps[0] == {"label": "Craft"}
    assert [st.get("group") for st in steps[2:]] == ["items", "items"]
    assert "earn" in steps[2]["label"] and "pay" in steps[2]["label"]


def test_move_steps_tell_two_copies_of_a_treasure_apart(kg):
    s = kg.new(2)
    a = kg.to_hand(s, 0, "Scroll of Riches")
    b = kg.to_hand(s, 0, "Scroll of Riches")
    labels = {json.dumps(GAME.move_steps(s, 0, {"type": "sell", "card": c})) for c in (a, b)}
    assert len(labels) == 2


def test_move_steps_pick_treasure_map_colours_as_a_group(kg):
    s = kg.new(2)
    s["pending"] = [{"kind": "map_colors", "seat": 0}]
    moves = kg.moves(s, 0)
    assert {"type": "map_colors", "colors": ["blue", "red"]} in moves
    steps = GAME.move_steps(s, 0, {"type": "map_colors", "colors": ["blue", "red"]})
    assert steps[1:] == [{"label": "Blue deck", "group": "colours"},
                         {"label": "Red deck", "group": "colours"}]


def test_picture_offers_the_cells_where_the_new_room_may_go(kg):
    s = kg.new(2)
    s["pending"] = [{"kind": "place_room", "seat": 0, "room": "Warehouse", "price": 6,
                     "expand": True}]
    legal = {(m["x"], m["y"]) for m in kg.moves(s, 0, "place")}
    assert {tuple(c) for c in GAME.view(s, 1)["decision"]["cells"]} == legal
    cells = {n for n in shapes(draw(s, 0)) if n.startswith("cell:")}
    assert {f"cell:{x}:{y}" for x, y in legal} <= cells
    assert not {n for n in shapes(draw(s, 1)) if n.startswith("cell:")}  # not your board


def test_picture_shows_the_score_sheet_when_the_game_is_over():
    state, _ = play_random_game(GAME, 3, 4, BOTS)
    svg = draw(state, None)
    assert "Final scores" in svg
    for seat, score in enumerate(state["outcome"]["scores"]):
        assert f"{state['names'][seat]}: " in svg and f"Total {score}" in svg


def test_the_email_summary_counts_one_thing_in_the_singular():
    from games.kings_guild import guild
    state = GAME.setup(["Ann", "Bob"], dict(BOTS), RecordingRandom(3))
    p = guild.player(state, 0)
    p["coins"], p["hand"], p["quests"] = 1, ["t23_1"], []
    line = next(x for x in GAME.summary(state, 0).splitlines() if x.startswith("Ann"))
    assert "1 coin," in line and "1 treasure," in line and "0 quests," in line
    assert " 1 rooms" not in line and " 1 specialists" not in line
