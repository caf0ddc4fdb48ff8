"""Rules version 3 of the guild economy (issue 9, discrepancies 8 and 9), and rules 2 as it
was: given a position, when a move (or a dawn), then the rulebook's result."""

from __future__ import annotations

import copy

from games.feudum_guilds import GAME, epochs
from games.rng import RecordingRandom, TapePlayer

# -- 8: dummy Knight rows have colours of their own [A-3] --------------------------------------


def _empty_player_rows_and_scrolls(t) -> None:
    """Every player's Knight row empty (markers back in supply) and all six scrolls free, so
    only the dummy rows can give markers to a Knight push or Noble pull."""
    s = t.state
    for row in s["knight_rows"]:
        if isinstance(row["colour"], int):
            s["marker_supply"][str(row["colour"])] += sum(row["sections"])
            row["sections"] = [0, 0, 0]
    for i, token in enumerate(s["scrolls"]):
        if token is not None:
            s["seal_supply"].insert(0, token)
            s["scrolls"][i] = None


def _seals_placed_by(t, seat: int, function: str, guild: str) -> int:
    t.turn(seat)
    t.do(seat, {"type": "guild", "guild": guild, "function": function})
    placed = 0
    while t.state["stack"] and t.top()["kind"] == "seal_scrolls":
        seal = next(m for m in t.moves(seat) if m["type"] == "seal")
        t.do(seat, seal)
        placed += 1
    t.check()
    return placed


def test_rules_3_dummy_rows_bring_the_board_to_four_distinct_colours(table):
    for n in (2, 3):
        s = table(n).state
        colours = [r["colour"] for r in s["knight_rows"]]
        assert len(set(colours)) == len(colours) == 4
        for colour in colours[n:]:
            assert s["marker_supply"][colour] == 20 - 2  # 20 markers each, 2 on the row
    s = table(4).state
    assert [r["colour"] for r in s["knight_rows"]] == [0, 1, 2, 3]
    assert not any(k.startswith("neutral") for k in s["marker_supply"])


def test_rules_3_a_knight_push_takes_a_marker_from_each_dummy_row(table):
    t = table(2)
    _empty_player_rows_and_scrolls(t)
    t.seat("knight", [0, 1])
    assert _seals_placed_by(t, 0, "push", "knight") == 2
    assert [sum(r["sections"]) for r in t.state["knight_rows"][2:]] == [1, 1]


def test_rules_3_a_noble_pull_takes_two_markers_from_the_two_dummy_rows(table):
    t = table(2)
    _empty_player_rows_and_scrolls(t)
    t.seat("noble", [0, 1])
    assert _seals_placed_by(t, 1, "pull", "noble") == 2


def test_rules_3_the_page_names_each_dummy_colour(table):
    rows = GAME.view(table(2).state, 0)["knight"]["rows"]
    assert [r["colour"] for r in rows] == ["P0", "P1", "neutral 1", "neutral 2"]


def test_rules_2_dummy_rows_keep_sharing_the_one_neutral_colour(table):
    t = table(2, rules="2")
    assert [r["colour"] for r in t.state["knight_rows"]] == [0, 1, "neutral", "neutral"]
    assert "rules" not in t.state
    _empty_player_rows_and_scrolls(t)
    t.seat("knight", [0, 1])
    assert _seals_placed_by(t, 0, "push", "knight") == 1


def test_rules_2_a_noble_pull_still_takes_one_marker_of_the_shared_neutral_colour(table):
    t = table(2, rules="2")
    _empty_player_rows_and_scrolls(t)
    t.seat("noble", [0, 1])
    assert _seals_placed_by(t, 1, "pull", "noble") == 1


def test_migrating_to_rules_3_gives_each_dummy_row_its_colour_and_back_again(table):
    t = table(2, rules="2")
    t.state["knight_rows"][3]["sections"] = [1, 2, 3]  # krud barrels filled the last row
    t.state["marker_supply"]["neutral"] -= 4
    before = copy.deepcopy(t.state)
    GAME.for_rules("2").migrate(t.state, "3")
    assert t.state["rules"] == 3
    assert [r["colour"] for r in t.state["knight_rows"][2:]] == ["neutral-1", "neutral-2"]
    assert [r["sections"] for r in t.state["knight_rows"]] == [
        r["sections"] for r in before["knight_rows"]]
    assert {k: v for k, v in t.state["marker_supply"].items() if k.startswith("neutral")} == {
        "neutral-1": 18, "neutral-2": 14}
    GAME.check_invariants(t.state)
    GAME.migrate(t.state, "2")
    assert t.state == before


def test_migrating_a_four_player_game_changes_only_the_rules_number_and_supply(table):
    t = table(4, rules="2")
    before = copy.deepcopy(t.state)
    GAME.for_rules("2").migrate(t.state, "3")
    assert t.state["rules"] == 3 and "neutral" not in t.state["marker_supply"]
    GAME.check_invariants(t.state)
    GAME.migrate(t.state, "2")
    assert t.state == before


# -- 9: famine shuffles the alms into the seal supply [A-25][A-64] ----------------------------


def test_rules_3_famine_shuffles_the_alms_into_the_seal_supply_as_a_recorded_draw(table):
    t = table(3)
    t.chickens(3, 4)
    alms = [c for c in t.state["chickens"] if c is not None]
    supply = len(t.state["seal_supply"]) + len(alms)
    rng = RecordingRandom(5)
    epochs.dawn(t.state, 2, rng)
    assert t.state["chickens"] == [None] * 4
    assert set(alms) <= set(t.state["seal_supply"]) and len(t.state["seal_supply"]) == supply
    assert len(rng.tape) == supply - 1  # one Fisher-Yates shuffle of the whole supply
    t.check()


def test_rules_3_a_seal_returned_by_famine_can_be_the_next_one_drawn(table):
    t = table(3)
    t.chickens(3)
    alms = t.state["chickens"][0]
    supply = len(t.state["seal_supply"]) + 1
    tape = TapePlayer([0] * (supply - 1))  # every swap with the bottom: it rises to the top
    epochs.dawn(t.state, 2, tape)
    tape.finish()
    assert t.state["seal_supply"][-1] == alms  # the top: the next seal drawn


def test_rules_3_famine_with_no_alms_draws_nothing(table):
    t = table(3)
    t.state["seal_supply"].append(t.state["chickens"][0])
    t.state["chickens"] = [None] * 4
    supply = list(t.state["seal_supply"])
    tape = TapePlayer([])
    epochs.dawn(t.state, 2, tape)
    tape.finish()
    assert t.state["seal_supply"] == supply


def test_rules_2_famine_still_puts_the_alms_under_the_supply_without_a_draw(table):
    t = table(3, rules="2")
    t.chickens(3, 4)
    alms = [c for c in t.state["chickens"] if c is not None]
    supply = list(t.state["seal_supply"])
    tape = TapePlayer([])
    epochs.dawn(t.state, 2, tape)
    tape.finish()
    assert t.state["seal_supply"] == list(reversed(alms)) + supply
    t.check()


def test_rules_3_whole_games_fold_from_their_tapes_with_distinct_dummy_colours():
    from games.bots import play_random_game

    for seed in range(2):
        state, _record = play_random_game(GAME, 2, 900 + seed, check=GAME.check_invariants)
        assert state["rules"] == 3 and state["phase"] == "over"
        assert len({str(r["colour"]) for r in state["knight_rows"]}) == 4
