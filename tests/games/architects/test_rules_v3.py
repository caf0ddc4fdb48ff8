"""Rules version 3 (issue 9): Variable Setup characters, the result names the winner, the
solo opponent's Tax Stand, the Conspirator's reading; and rules 2 games as they were.

Each change has a test under rules 3 and one showing that a game created under rules 2
(``GAME.for_rules("2")``) still plays as before, so games in progress never change.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.architects import GAME, automaton, cards, opening, turn
from games.bots import play_random_game
from games.protocol import IllegalMove
from games.rng import RecordingRandom
from tests.support import template_env
from worker.i18n import email_env

RULES_2 = GAME.for_rules("2")
RULEBOOK = {"Ada", "Caroline", "Frederick", "Rudolf", "Therese"}
NOT_IN_RULEBOOK = {"Lothaire", "Hugo", "Clovis", "Fara", "Bertha"}
TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
STEAL = automaton.STARTING.index("Steal")  # Scheme: Tax Stand, then Black Market, Mines


def dealt(game, n: int, seed: int, **options) -> list[dict]:
    opts = game.normalize_options({"variable_setup": True, **options}, n)
    state = game.setup([f"P{i}" for i in range(n)], opts, RecordingRandom(seed))
    return state["players"][:n]


def test_architects_plays_rules_2_and_3_and_creates_new_games_under_3():
    assert GAME.rules_version == "3" and GAME.rules_versions == ("2", "3")
    assert RULES_2.rules == 2 and GAME.rules == 3


# -- 1. Variable Setup: the rulebook's five boards ------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_variable_setup_deals_only_the_rulebooks_five_characters(n):
    """'5 double-sided Player Boards': Ada, Caroline, Frederick, Rudolf and Therese."""
    seen = set()
    for seed in range(40):
        chars = [pl["character"] for pl in dealt(GAME, n, seed)]
        assert set(chars) <= RULEBOOK and len(set(chars)) == n
        seen |= set(chars)
    assert seen == RULEBOOK  # each of the five comes up, at any seat


def test_variable_setup_player_plays_the_colour_of_the_board_dealt():
    for seed in range(20):
        players = dealt(GAME, 5, seed)
        assert {pl["character"] for pl in players} == RULEBOOK
        for pl in players:
            assert pl["colour"] == cards.characters()[pl["character"]]["colour"]
        assert len({pl["colour"] for pl in players}) == 5


def test_variable_setup_characters_not_in_the_rulebook_only_with_the_lobby_option():
    field = next(f for f in GAME.option_fields() if f["name"] == "extra_characters")
    assert field["type"] == "bool" and field["default"] is False
    assert "NOT in the rulebook" in field["label"]
    assert GAME.normalize_options({"variable_setup": True}, 3)["extra_characters"] is False
    seen = set()
    for seed in range(40):
        players = dealt(GAME, 5, seed, extra_characters=True)
        assert len({pl["colour"] for pl in players}) == 5  # still one board per colour
        seen |= {pl["character"] for pl in players}
    assert seen & NOT_IN_RULEBOOK and seen & RULEBOOK


def test_variable_setup_naming_a_character_not_in_the_rulebook_needs_the_option():
    with pytest.raises(IllegalMove, match="extra_characters"):
        GAME.normalize_options({"variable_setup": True, "characters": ["Hugo"]}, 2)
    opts = GAME.normalize_options({"variable_setup": True, "characters": ["Hugo"],
                                   "extra_characters": True}, 2)
    assert dealt(GAME, 2, 1, **{k: v for k, v in opts.items() if k != "variable_setup"}
                 )[0]["character"] == "Hugo"


def test_variable_setup_named_characters_have_boards_of_different_colours():
    with pytest.raises(IllegalMove, match="colours"):
        GAME.normalize_options({"variable_setup": True, "extra_characters": True,
                                "characters": ["Hugo", "Caroline"]}, 2)


def test_variable_setup_extra_characters_needs_variable_setup():
    with pytest.raises(IllegalMove, match="Variable Setup"):
        GAME.normalize_options({"extra_characters": True}, 2)


def test_variable_setup_most_virtuous_starts_and_no_silver_by_turn_order():
    for seed in range(10):
        opts = GAME.normalize_options({"variable_setup": True}, 3)
        state = GAME.setup(["A", "B", "C"], opts, RecordingRandom(seed))
        players = state["players"]
        assert players[state["order"][0]]["virtue"] == max(pl["virtue"] for pl in players)
        for pl in players:
            assert pl["silver"] == cards.characters()[pl["character"]]["silver"]


def test_rules_2_variable_setup_still_deals_one_of_the_two_boards_of_the_seat_colour():
    seen = set()
    for seed in range(30):
        players = dealt(RULES_2, 5, seed)
        for i, pl in enumerate(players):
            assert pl["colour"] == opening.COLOURS[i]
            assert cards.characters()[pl["character"]]["colour"] == opening.COLOURS[i]
        seen |= {pl["character"] for pl in players}
    assert seen & NOT_IN_RULEBOOK  # as before: all ten boards


def test_rules_2_has_no_extra_characters_option_and_its_state_no_rules_mark():
    assert "extra_characters" not in {f["name"] for f in RULES_2.option_fields()}
    with pytest.raises(IllegalMove, match="unknown options"):
        RULES_2.normalize_options({"variable_setup": True, "extra_characters": True}, 2)
    opts = RULES_2.normalize_options({"variable_setup": True}, 2)
    assert "extra_characters" not in opts
    state = RULES_2.setup(["A", "B"], opts, RecordingRandom(1))
    assert "rules" not in state  # rules 2 states stay byte for byte (golden logs)
    assert GAME.setup(["A", "B"], GAME.normalize_options({}, 2), RecordingRandom(1))[
        "rules"] == 3


# -- 2. The result says who won, the Byzantine opponent included ----------------------------
def finished_solo(make_table, opponent_wins: bool, game=GAME):
    """A solo game scored at once: the opponent far ahead, or the player."""
    t = make_table(1, game=game)
    human, bot = t.player(0), t.player(1)
    if opponent_wins:
        bot["cathedral"], bot["virtue"] = 4, 14      # 12 VP Cathedral and top Virtue
        human["virtue"], human["debts"] = 0, 3        # below zero with Debts
    else:
        human["gold"], human["marble"], human["cathedral"] = 20, 10, 3
    turn.finish(t.state)
    return t


def test_result_solo_opponent_that_scores_more_is_ranked_first_and_named_winner(make_table):
    t = finished_solo(make_table, opponent_wins=True)
    out = GAME.outcome(t.state)
    totals = t.state["result"]["totals"]
    assert totals[1] > totals[0]
    assert out["ranking"] == [1, 0] and out["places"] == [2, 1] and out["winners"] == [1]
    assert out["names"] == ["P0", "Constantine"] and out["scores"] == totals
    assert out["winner"] == f"Constantine (the Byzantine opponent) wins with {totals[1]} VP."
    assert out["automaton"]["index"] == 1 and out["automaton"]["place"] == 1


def test_result_solo_player_who_scores_more_wins(make_table):
    t = finished_solo(make_table, opponent_wins=False)
    out = GAME.outcome(t.state)
    assert out["ranking"] == [0, 1] and out["winners"] == [0]
    assert out["winner"].startswith("P0 wins with")


def test_result_shared_victory_names_everyone_in_first_place(make_table):
    t = make_table(3)
    turn.finish(t.state)
    t.state["result"]["places"] = {"0": 1, "1": 1, "2": 3}
    assert GAME.outcome(t.state)["winner"].startswith("Shared victory: P0 and P1,")


def test_result_end_email_says_who_won_with_the_opponent_ranked(make_table):
    """templates/email/ended.*: names are the seats' (as the worker passes them)."""
    t = finished_solo(make_table, opponent_wins=True)
    out = GAME.outcome(t.state)
    env = email_env("en")  # the worker's own email environment, in English
    ctx = {"player": {"name": "P0"}, "game": GAME, "game_id": "g1", "names": ["P0"],
           "outcome": out, "secret": "ab", "play_url": "u", "mute_url": "m"}
    text = env.get_template("email/ended.txt").render(ctx)
    assert out["winner"] in text
    assert f"1. Constantine: {out['scores'][1]}" in text
    assert f"2. P0: {out['scores'][0]}" in text
    html = env.get_template("email/ended.html").render(ctx)
    assert "Constantine (the Byzantine opponent) wins" in html and "Constantine</td>" in html


def test_result_end_email_of_a_game_without_winner_line_is_as_before():
    """The generic email keeps working for outcomes with only scores and a ranking."""
    env = email_env("en")
    ctx = {"player": {"name": "A"}, "game": GAME, "game_id": "g1", "names": ["A", "B"],
           "outcome": {"scores": [3, 5], "ranking": [1, 0], "tie_break": "coins"},
           "secret": "ab", "play_url": "u", "mute_url": "m"}
    text = env.get_template("email/ended.txt").render(ctx)
    assert "is over.\n\n1. B: 5\n2. A: 3\nTies broken by coins." in text
    assert "wins" not in text
    assert "<td style=\"padding:2px 8px;\">B</td>" in \
        env.get_template("email/ended.html").render(ctx)


def test_result_summary_and_game_page_say_who_won(make_table):
    t = finished_solo(make_table, opponent_wins=True)
    out = GAME.outcome(t.state)
    summary = GAME.summary(t.state, 0)
    assert f"Game over. {out['winner']}" in summary
    assert f"1. Constantine {out['scores'][1]} VP, 2. P0" in summary
    env = template_env()
    page = env.get_template("games/architects.html").render(
        view=GAME.view(t.state, 0), seat=0, names=["P0"], game=GAME)
    assert "Constantine (the Byzantine opponent) wins" in page
    assert "1. Constantine (Byzantine opponent)" in page


def test_result_of_a_rules_2_game_also_names_the_winner(make_table):
    """Presentation only: the final state is the same, so an ended rules 2 game shows it."""
    t = finished_solo(make_table, opponent_wins=True, game=RULES_2)
    out = RULES_2.outcome(t.state)
    assert out["ranking"][0] == 1 and out["winner"].startswith("Constantine")


def test_result_random_games_rank_everyone_the_opponent_included():
    for n, options in ((1, {}), (2, {"bot_opponent": True}), (3, {})):
        state, _ = play_random_game(GAME, n, seed=n, options=options)
        out = GAME.outcome(state)
        assert sorted(out["ranking"]) == list(range(len(state["players"])))
        assert len(out["names"]) == len(out["scores"]) == len(state["players"])
        best = max(out["scores"])
        assert all(out["scores"][q] == best for q in out["winners"])


# -- 3. The solo opponent's Tax Stand: no Silver --------------------------------------------
def steal_next(t) -> None:
    """The opponent's next Scheme is Steal, with 5 Silver on the Tax Stand."""
    auto = t.state["automaton"]
    auto["deck"].remove(STEAL)
    auto["deck"].insert(0, STEAL)
    t.state["tax"] = 5


def test_solo_opponent_tax_stand_leaves_the_silver_on_the_stand(make_table):
    """Rulebook, Solo Play: the opponent 'doesn't collect/use Silver'."""
    t = make_table(1)
    steal_next(t)
    stash, virtue = t.state["automaton"]["stash"], t.player(1)["virtue"]
    t.place(0, "forest")
    assert t.state["automaton"]["last"] == STEAL
    assert t.state["board"]["tax_stand"][1] == 1
    assert t.state["tax"] == 5 and t.player(1)["silver"] == 0
    assert t.state["automaton"]["stash"] == stash
    assert t.player(1)["virtue"] == virtue - 2
    GAME.check_invariants(t.state)


def test_rules_2_solo_opponent_tax_stand_still_empties_the_stand(make_table):
    t = make_table(1, game=RULES_2)
    steal_next(t)
    stash = t.state["automaton"]["stash"]
    t.place(0, "forest")
    assert t.state["tax"] == 0 and t.state["automaton"]["stash"] == stash + 2


def test_solo_game_migrated_from_rules_2_plays_the_new_tax_stand(make_table):
    t = make_table(1, game=RULES_2)
    RULES_2.migrate(t.state, "3")
    assert t.state["rules"] == 3
    t.game = GAME
    steal_next(t)
    t.place(0, "forest")
    assert t.state["tax"] == 5


# -- 4. Conspirator: every capture after the first is free ----------------------------------
def conspirator_table(make_table, game=GAME, conspirator=True):
    t = make_table(2, game=game)
    if conspirator:  # Conspirator #4, taken from wherever it lies
        if 4 in t.state["app_deck"]:
            t.state["app_deck"].remove(4)
        for row in t.state["workshop"]:
            if 4 in row:
                row[row.index(4)] = t.state["app_deck"].pop(0)
        t.player(0)["apprentices"] = [4]
    for loc, n in (("forest", 1), ("quarry", 2), ("mines", 1)):
        t.state["board"][loc][1] += n
        t.player(1)["workers"] -= n
    t.state["board"]["town_centre"][0] += 2  # with the one placed: 3 captures
    t.state["board"]["quarry"][0] += 1  # own Worker: its capture brings it home
    t.player(0)["workers"] -= 3
    t.give(0, silver=5)
    t.state["tax"] = 4
    return t


def capture_three(t) -> None:
    """Blue (seat 0) captures green at the Forest and the Quarry, then its own Worker at
    the Quarry (2 locations at most with 2 players)."""
    t.place(0, "town_centre")
    for loc, q in (("forest", 1), ("quarry", 1), ("quarry", 0)):
        t.play(0, {"type": "capture", "location": loc, "player": q})


def test_conspirator_reading_comes_from_the_card_text():
    assert "each capture after the first is 1 cheaper" in cards.apprentice(4)["ability"]
    assert cards.apprentice(5)["ability"] == cards.apprentice(4)["ability"]


@pytest.mark.parametrize("game", [GAME, RULES_2], ids=["rules 3", "rules 2"])
def test_conspirator_three_captures_cost_only_the_first_captures_tax(make_table, game):
    t = conspirator_table(make_table, game)
    capture_three(t)
    assert t.player(0)["silver"] == 4 and t.state["tax"] == 5
    assert t.player(0)["captured"][1] == 3 and t.player(0)["workers"] == 20 - 4 + 1
    game.check_invariants(t.state)


def test_conspirator_without_one_each_capture_after_the_first_costs_1_silver(make_table):
    t = conspirator_table(make_table, conspirator=False)
    capture_three(t)
    assert t.player(0)["silver"] == 2 and t.state["tax"] == 5


# -- soak under rules 3 ---------------------------------------------------------------------
@pytest.mark.soak
@pytest.mark.parametrize("options", [{"variable_setup": True},
                                     {"variable_setup": True, "extra_characters": True},
                                     {"variable_setup": True, "bot_opponent": True}])
def test_soak_rules_3_variable_setup_games_finish_with_invariants(options):
    n = 2 if options.get("bot_opponent") else 5
    for seed in range(2):
        state, _ = play_random_game(GAME, n, seed=seed, options=options,
                                    check=GAME.check_invariants)
        assert state["rules"] == 3 and GAME.outcome(state) is not None
