"""Rule tests: setup and draft, the 10 characters, the solo automaton, hidden information."""

from __future__ import annotations

import pytest

from games.architects import GAME, automaton, black_market, cards, scoring
from games.architects.opening import apply_character
from games.rng import RecordingRandom


# -- setup ----------------------------------------------------------------------------------
def test_setup_standard(make_table):
    t = make_table(4)
    s = t.state
    assert len(s["rewards"]) == 9 and s["tax"] == 4
    assert all(len(row) == 4 and None not in row for row in s["workshop"])
    assert sorted(pl["silver"] for pl in s["players"]) == [3, 4, 5, 6]
    assert s["players"][s["order"][0]]["silver"] == 3
    assert all(pl["workers"] == 20 and pl["virtue"] == 7 for pl in s["players"])
    assert all(len(pl["hand"]) == 3 for pl in s["players"])
    assert len(s["bm_small"]) == 10 and s["guildhall_size"] == 20


def test_setup_draft_deal_four_keep_one_and_pass():
    s = GAME.setup(["A", "B", "C"], {}, RecordingRandom(5))
    pools = [list(p) for p in s["draft"]["pools"]]
    assert [len(p) for p in pools] == [4, 4, 4]
    assert GAME.to_act(s) == {0, 1, 2}
    for seat in range(3):
        GAME.apply(s, seat, {"type": "draft", "card": pools[seat][0]}, RecordingRandom(1))
    assert s["draft"]["pools"][1] == pools[0][1:]  # passed left
    view = GAME.view(s, 2)
    assert view["draft"]["pools"][0] == 3 and view["players"][0]["hand"] == []
    line = GAME.describe({"version": 2, "actor": 0, "names": ["A", "B", "C"],
                          "data": {"move": {"type": "draft", "card": pools[0][0]}}}, 1)
    assert cards.building(pools[0][0])["name"] not in line


def test_setup_draft_leftover_to_bottom(make_table):
    t = make_table(2)
    assert len(t.state["deck"]) == 40 - 6
    assert all(len(pl["hand"]) == 3 for pl in t.state["players"])


def test_setup_promos_off_by_default(make_table):
    t = make_table(2)
    every = t.state["deck"] + [c for pl in t.state["players"] for c in pl["hand"]]
    assert max(every) <= 40
    t2 = make_table(2, promos=True)
    every = t2.state["deck"] + [c for pl in t2.state["players"] for c in pl["hand"]]
    assert {41, 42, 43} <= set(every)


# -- characters -----------------------------------------------------------------------------
def char_table(make_table, name):
    extra = not cards.characters()[name]["base_box"]  # not in the rulebook: an option
    return make_table(2, variable_setup=True, characters=[name], extra_characters=extra)


@pytest.mark.parametrize("name", sorted(cards.characters()))
def test_character_starting_position(make_table, name):
    t = char_table(make_table, name)
    char = cards.characters()[name]
    pl = t.player(0)
    assert pl["character"] == name
    assert t.state["prison"][0] == char["prison"] and pl["workers"] == 20 - char["prison"]
    assert pl["virtue"] == char["virtue"] and pl["debts"] == char["debts"]
    assert len(pl["hand"]) == 3 + char["extra_cards"]
    assert pl["silver"] == char["silver"]  # no extra Silver by turn order
    for k in ("clay", "wood", "stone", "gold", "marble"):
        assert pl[k] == char["resources"].get(k, 0)


def test_character_most_virtuous_starts(make_table):
    t = make_table(2, variable_setup=True, characters=["Ada", "Caroline"])
    assert t.state["order"][0] == 0


def test_character_ada_ignores_one_tax(make_table):
    t = char_table(make_table, "Ada")
    t.give(0, silver=10)
    tax = t.state["tax"]
    t.place(0, "workshop")
    t.play(0, {"type": "hire", "row": 0, "col": 0})
    assert t.state["tax"] == tax + 1


def test_character_caroline_draws_at_black_market(make_table):
    t = char_table(make_table, "Caroline")
    hand = len(t.player(0)["hand"])
    t.place(0, "black_market", space=0)
    assert len(t.player(0)["hand"]) == hand + 1


def test_character_frederick_no_cathedral_discard(make_table):
    t = char_table(make_table, "Frederick")
    t.give(0, gold=1)
    hand = len(t.player(0)["hand"])
    t.place(0, "guildhall")
    t.play(0, {"type": "cathedral", "pay": {"gold": 1}})
    assert t.player(0)["cathedral"] == 1 and len(t.player(0)["hand"]) >= hand


def test_character_rudolf_cheaper_hire_and_six(make_table):
    t = char_table(make_table, "Rudolf")
    t.give(0, silver=10)
    t.place(0, "workshop")
    t.play(0, {"type": "hire", "row": 0, "col": 0})
    assert t.player(0)["silver"] == 7
    t.player(0)["apprentices"] = [13, 14, 15, 16, 17]
    from games.architects import apprentices
    assert apprentices.limit(t.player(0)) == 6


def test_character_therese_gold_and_marble_same(make_table):
    from games.architects import payments
    t = char_table(make_table, "Therese")
    t.give(0, gold=0, marble=1)
    assert payments.options(t.state, 0, [{"gold": 1}]) == [{"marble": 1}]


def test_character_lothaire_one_less_wood_or_stone(make_table):
    from games.architects import payments
    t = char_table(make_table, "Lothaire")
    t.give(0, wood=2, stone=1)
    assert payments.options(t.state, 0, [{"wood": 2, "stone": 2}]) == [{"stone": 1, "wood": 2}]


def test_character_hugo_pays_to_avoid_debt(make_table):
    from games.architects import virtue
    t = char_table(make_table, "Hugo")
    t.give(0, silver=5)
    virtue.take_debt(t.state, 0)
    assert t.player(0)["debts"] == 0 and t.player(0)["silver"] == 3


def test_character_clovis_draws_on_construct(make_table):
    t = char_table(make_table, "Clovis")
    t.player(0)["hand"] = [11]
    t.state["deck"].remove(11) if 11 in t.state["deck"] else None
    for pl in t.state["players"][1:]:
        if 11 in pl["hand"]:
            pl["hand"].remove(11)
    t.give(0, wood=2, stone=2)
    t.place(0, "guildhall")
    t.play(0, {"type": "build", "card": 11, "pay": {"stone": 2, "wood": 2}})
    assert len(t.player(0)["hand"]) == 1


def test_character_fara_releases_at_reset(make_table):
    t = char_table(make_table, "Fara")
    black_market.reset(t.state, None)
    assert t.state["prison"][0] == 1


def test_character_bertha_extra_silver(make_table):
    t = char_table(make_table, "Bertha")
    t.player(0)["captured"][1] = 1
    t.player(1)["workers"] -= 1
    t.give(0, silver=0)
    t.place(0, "guardhouse")
    t.play(0, {"type": "guard", "action": "send"})
    assert t.player(0)["silver"] == 3


def test_character_apply_changes_board(make_table):
    t = make_table(2)
    apply_character(t.state, 1, "Caroline")
    assert t.state["prison"][1] == 8 and t.player(1)["marble"] == 1


# -- solo automaton -------------------------------------------------------------------------
def test_solo_setup(make_table):
    t = make_table(1)
    s = t.state
    assert len(s["players"]) == 2 and s["players"][1]["bot"]
    assert len(s["rewards"]) == 5 and s["guildhall_size"] == 12
    assert s["players"][0]["silver"] == 3 and len(s["players"][0]["hand"]) == 3
    assert not {3, 12, 21, 40} & set(s["deck"] + s["players"][0]["hand"])
    assert len(s["automaton"]["deck"]) == 20 and len(s["automaton"]["future"]) == 10


def test_solo_automaton_plays_after_human(make_table):
    t = make_table(1)
    t.place(0, "forest")
    assert t.state["current"] == 0
    assert t.state["players"][1]["workers"] == 19
    assert t.state["automaton"]["last"] is not None


def test_solo_automaton_town_centre_captures_largest_group(make_table):
    t = make_table(1)
    t.state["board"]["quarry"][0] = 3
    t.player(0)["workers"] -= 3
    automaton._act(t.state, 1, "arrest")
    assert t.player(1)["captured"][0] == 3


def test_solo_automaton_cathedral_free_and_future_on_reset(make_table):
    t = make_table(1)
    automaton._act(t.state, 1, "cathedral")
    assert t.player(1)["cathedral"] == 1 and t.state["guildhall"] == [1]
    black_market.reset(t.state, RecordingRandom(1))
    assert t.state["automaton"]["future"] == [] and len(t.state["automaton"]["deck"]) == 30


def test_solo_automaton_scoring_helena(make_table):
    t = make_table(1, solo_level="helena")
    t.state["guildhall"] = [1, 1]
    t.player(1)["workers"] -= 2
    assert scoring.lines(t.state, 1)["guildhall"] == 6


def test_solo_automaton_recall_when_out_of_workers(make_table):
    t = make_table(1)
    bot = t.player(1)
    t.state["board"]["forest"][1] = 20
    bot["workers"] = 0
    automaton.take_turn(t.state, 1, RecordingRandom(2))
    assert bot["workers"] == 20


def test_solo_two_players_plus_bot(make_table):
    t = make_table(2, bot_opponent=True)
    assert len(t.state["players"]) == 3 and t.state["guildhall_size"] == 16


# -- hidden information ---------------------------------------------------------------------
def test_hidden_hands_and_decks_not_in_view(make_table):
    t = make_table(3)
    v = GAME.view(t.state, 1)
    assert v["players"][0]["hand"] == [] and v["players"][1]["hand"] == t.player(1)["hand"]
    assert isinstance(v["deck"], int) and isinstance(v["app_deck"], int)
    assert v["players"][0]["hand_count"] == 3
    spectator = GAME.view(t.state, None)
    assert all(pl["hand"] == [] for pl in spectator["players"])


def test_hidden_black_market_keep_not_in_view(table):
    table.give(0, silver=5)
    table.place(0, "black_market", space=1)
    table.play(0, {"type": "plans"})
    assert GAME.view(table.state, 1)["pending"]["cards"] == 5
    assert GAME.view(table.state, 0)["pending"]["cards"] == table.state["pending"]["cards"]


def test_hidden_describe_redacts_discards(table):
    ev = {"version": 9, "actor": 0, "names": ["A", "B"],
          "data": {"move": {"type": "discard", "card": 11}}}
    assert "Well" not in GAME.describe(ev, 1) and "Well" in GAME.describe(ev, 0)


def test_presentation_labels_and_summary(table):
    table.turn_to(0)
    for move in table.moves(0):
        assert GAME.move_label(table.state, 0, move)
    assert "P0" in GAME.summary(table.state, 0)
    assert "Your hand" in GAME.summary(table.state, 0)
    assert GAME.rules_summary().startswith("#")


def test_presentation_every_move_has_a_human_label():
    from games.bots import play_random_game
    state, record = play_random_game(GAME, 3, seed=4, options={"promos": True})
    for seat, move, _ in record.moves:
        text = GAME.describe({"version": 1, "actor": seat, "names": ["A", "B", "C"],
                              "data": {"move": move}}, seat)
        assert not text.split(": ", 1)[1].startswith("{")


def test_invariants_catch_a_lost_worker_and_a_duplicated_card(make_table):
    t = make_table(2)
    GAME.check_invariants(t.state)
    t.player(0)["workers"] -= 1
    with pytest.raises(AssertionError):
        GAME.check_invariants(t.state)
    t.player(0)["workers"] += 1
    t.player(1)["hand"].append(t.player(0)["hand"][0])
    with pytest.raises(AssertionError):
        GAME.check_invariants(t.state)


@pytest.mark.parametrize("space", [0, 2], ids=["Small Market", "Large Market"])
def test_solo_automaton_black_market_collects_marble_only(make_table, space):
    """Rulebook: the opponent collects Marble only (for scoring), no other goods."""
    t = make_table(1)
    t.state["bm_small"] = [2, 0] + [c for c in t.state["bm_small"] if c not in (2, 0)]
    t.state["bm_large"] = [5]
    t.state["bm_small"].remove(5)
    t.state["black_market"] = [None, 0, None] if space == 0 else [0, 0, None]
    t.player(0)["workers"] -= 2 if space == 2 else 1
    offer = black_market.offer(t.state, space)
    bot = t.player(1)
    bot["virtue"] = 7
    automaton._act(t.state, 1, "black_market")
    assert t.state["black_market"][space] == 1
    assert bot["marble"] == offer.get("marble", 0) and bot["marble"] >= 1
    assert bot["gold"] == bot["stone"] == bot["wood"] == bot["silver"] == 0
    assert bot["virtue"] == 6
    lines = scoring.lines(t.state, 1)
    assert lines["gold_marble"] == bot["marble"]


def test_character_hugo_without_two_silver_takes_the_debt(make_table):
    from games.architects import virtue
    t = char_table(make_table, "Hugo")
    t.give(0, silver=1)
    virtue.take_debt(t.state, 0)
    assert t.player(0)["debts"] == 1 and t.player(0)["silver"] == 1


def test_character_variable_setup_no_silver_by_turn_order(make_table):
    t = make_table(3, variable_setup=True, characters=["Frederick", "Rudolf", "Clovis"],
                   extra_characters=True)
    assert [pl["silver"] for pl in t.state["players"]] == [4, 3, 1]
    assert t.state["order"][0] == 2  # Clovis has the most Virtue (10)


def test_character_ada_ignores_tax_on_town_centre_capture(make_table):
    t = char_table(make_table, "Ada")
    t.place(1, "forest")
    t.give(0, silver=0)
    tax = t.state["tax"]
    t.place(0, "town_centre")
    t.play(0, {"type": "capture", "location": "forest", "player": 1})
    assert t.player(0)["captured"][1] == 1 and t.state["tax"] == tax


def test_solo_town_centre_two_locations(make_table):
    from games.architects import captures
    t = make_table(1)
    assert captures.max_locations(t.state) == 2


def test_solo_human_goes_first_and_bot_follows(make_table):
    t = make_table(1)
    assert t.state["order"] == [0, 1] and t.state["current"] == 0


def test_solo_automaton_helena_captures_two_groups(make_table):
    t = make_table(1, solo_level="helena")
    t.state["board"]["quarry"][0] = 3
    t.state["board"]["forest"][0] = 2
    t.player(0)["workers"] -= 5
    automaton._act(t.state, 1, "arrest")
    assert t.player(1)["captured"][0] == 5


def test_solo_automaton_sells_captured_for_one_marble(make_table):
    t = make_table(1)
    t.player(1)["captured"][0] = 4
    t.player(0)["workers"] -= 4
    automaton._act(t.state, 1, "guardhouse")
    assert t.state["prison"][0] == 4 and t.player(1)["marble"] == 1
    assert t.player(1)["silver"] == 0


def test_solo_automaton_ignores_virtue_for_cathedral_and_black_market(make_table):
    t = make_table(1)
    bot = t.player(1)
    bot["virtue"] = 2
    assert automaton._feasible(t.state, 1, "cathedral")
    bot["virtue"] = 12
    assert automaton._feasible(t.state, 1, "black_market")


def test_solo_automaton_reshuffles_discards_when_deck_runs_out(make_table):
    t = make_table(1)
    auto = t.state["automaton"]
    auto["discard"] = auto["deck"][1:]
    auto["deck"] = auto["deck"][:1]
    automaton.take_turn(t.state, 1, RecordingRandom(3))
    automaton.take_turn(t.state, 1, RecordingRandom(4))
    assert len(auto["deck"]) == 19 and len(auto["discard"]) == 1


def test_hidden_move_label_never_names_another_seats_secret_card(make_table):
    s = GAME.setup(["A", "B"], {}, RecordingRandom(5))
    theirs = s["draft"]["pools"][1][0]
    name = cards.building(theirs)["name"]
    assert name not in GAME.move_label(s, 0, {"type": "draft", "card": theirs})
    assert name in GAME.move_label(s, 1, {"type": "draft", "card": theirs})
    t = make_table(2)
    card = t.player(1)["hand"][0]
    name = cards.building(card)["name"]
    assert name not in GAME.move_label(t.state, 0, {"type": "discard", "card": card})
    assert name in GAME.move_label(t.state, 1, {"type": "discard", "card": card})
    assert name not in GAME.summary(t.state, 0) and name in GAME.summary(t.state, 1)
    assert name not in GAME.summary(t.state, None)


@pytest.mark.parametrize("seed", range(6))
def test_character_each_board_used_once(make_table, seed):
    """A named character is never dealt again to another seat (Hugo is a green board).

    Rules 2 (each seat one of its colour's two boards); rules 3: test_rules_v3.py."""
    t = make_table(3, seed=seed, game=GAME.for_rules("2"), variable_setup=True,
                   characters=["Hugo"])
    names = [pl["character"] for pl in t.state["players"]]
    assert names[0] == "Hugo" and len(set(names)) == 3
    assert names[1] == "Caroline"  # seat 1 is green: the other green board


def test_presentation_describe_tolerates_old_recall_events():
    """Logs written before the recall fix (Prison recalls) still render a line."""
    line = GAME.describe({"version": 3, "actor": 0, "names": ["A", "B"],
                          "data": {"move": {"type": "recall", "location": "prison"}}}, 1)
    assert line.startswith("A: Return 1 Worker")
