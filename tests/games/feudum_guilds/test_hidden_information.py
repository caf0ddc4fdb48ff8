"""Hidden information: selections, seal values, fists and writ hands stay out of other views."""

from __future__ import annotations

from games.feudum_guilds import GAME


def _event(actor: int, move: dict) -> dict:
    return {"version": 5, "actor": actor, "data": {"move": move}, "names": ["Ann", "Bob", "Cy"]}


def test_hidden_selected_cards_and_boost_only_in_the_owners_view(table, no_leaks):
    t = table(3)
    t.state["phase"] = "select"
    t.give(0, sulfur=1)
    t.do(0, {"type": "boost", "boost": "double"})
    cards = ["influence", "explore", "tax", "guild"]
    t.do(0, {"type": "select", "cards": cards})
    assert GAME.view(t.state, 0)["players"][0]["selected"] == cards
    for viewer in (None, 1, 2):
        mine = GAME.view(t.state, viewer)["players"][0]
        assert "selected" not in mine and "boost" not in mine
        assert "tax" not in GAME.summary(t.state, viewer).lower()
    no_leaks(t.state)
    line = GAME.describe(_event(0, {"type": "select", "cards": cards}), 1)
    assert "tax" not in line.lower() and "Ann" in line
    assert "Tax" in GAME.describe(_event(0, {"type": "select", "cards": cards}), 0)
    assert "double" not in GAME.describe(_event(0, {"type": "boost", "boost": "double"}), 2)


def test_hidden_fifth_card_boost_not_revealed_by_the_selection_history(table):
    """A 5th card (saltpeter) takes as many selection moves, and as many and the same log
    lines for the other seats, as 4 cards: the history does not reveal it before the reveal."""
    t = table(3)
    t.state["phase"] = "select"
    t.give(0, saltpeter=1)
    history = {0: [], 1: []}
    for seat, boost, cards in ((0, "extra", ["influence", "explore", "harvest", "tax", "guild"]),
                               (1, "none", ["influence", "explore", "tax", "guild"])):
        for move in ({"type": "boost", "boost": boost}, {"type": "select", "cards": cards}):
            t.do(seat, move)
            history[seat].append(move)
    assert len(history[0]) == len(history[1]) == 2
    for viewer in (None, 2):
        lines = {s: [GAME.describe(_event(s, m), viewer).replace(["Ann", "Bob"][s], "X")
                     for m in history[s]] for s in (0, 1)}
        assert lines[0] == lines[1]
        for pv in GAME.view(t.state, viewer)["players"][:2]:
            assert "boost" not in pv and "cards_left" not in pv
        assert t.p(0)["goods"]["saltpeter"] == 1  # not paid (visible) before the reveal
    t.do(2, {"type": "boost", "boost": "none"})
    t.do(2, {"type": "select", "cards": ["influence", "explore", "tax", "guild"]})
    assert GAME.view(t.state, 2)["players"][0]["boost"] == "extra"  # revealed: act phase


def test_hidden_fist_contents_only_for_the_divider(table, no_leaks):
    t = table(3)
    t.seat("monk", [0, 1])
    t.rosary(2, 5)
    t.turn(2)
    t.do(2, {"type": "guild", "guild": "monk", "function": "trade"})
    t.do(0, {"type": "divide", "left": "high"})
    assert GAME.view(t.state, 0)["pending"]["fists"] == {"left": 5, "right": 2}
    assert "fists" not in GAME.view(t.state, 2)["pending"]
    assert GAME.view(t.state, 2)["pending"]["beads"] == [2, 5]
    no_leaks(t.state)
    for seat in (None, 1, 2):
        line = GAME.describe(_event(0, {"type": "divide", "left": "high"}), seat)
        assert "high" not in line and "left" not in line


def test_hidden_writ_hands_and_draws_only_for_their_owner(table, no_leaks):
    t = table(3)
    t.location(1, "outpost")
    t.turn(1, "explore")
    t.do(1, {"type": "explore"})
    cards = t.top()["cards"]
    assert [c["id"] for c in GAME.view(t.state, 1)["pending"]["cards"]] == cards
    assert "cards" not in GAME.view(t.state, 0)["pending"]
    t.do(1, {"type": "keep_writ", "writ": cards[0]})
    assert GAME.view(t.state, 1)["players"][1]["hand"][0]["id"] == cards[0]
    assert GAME.view(t.state, 2)["players"][1]["writs"] == 1
    assert "hand" not in GAME.view(t.state, None)["players"][1]
    no_leaks(t.state)
    line = GAME.describe(_event(1, {"type": "keep_writ", "writ": "C1"}), 0)
    assert "Wine" not in line and "C1" not in line


def test_hidden_seal_values_on_scrolls_supply_and_in_hand(table, no_leaks):
    t = table(3)
    t.p(0)["seals"].append(t.state["seal_supply"].pop())
    view = GAME.view(t.state, 0)
    assert view["noble"]["scrolls"] == [False, True, True, True, False, True]
    assert view["players"][0]["seals"] == 1 and isinstance(view["noble"]["seal_supply"], int)
    no_leaks(t.state)


def test_illegal_moves_are_refused_without_changing_the_state(table):
    t = table(3)
    t.turn(1, "tax")
    assert t.illegal(0, {"type": "tax"}) == "it is not your turn"
    assert "not possible" in t.illegal(1, {"type": "guild", "guild": "x", "function": "push"})
    assert "type" in t.illegal(1, {"card": "tax"})
    assert "type" in t.illegal(1, ["tax"])
    assert "JSON" in t.illegal(1, {"type": "tax", "x": {1, 2}})
    t.location(1, "town")
    t.do(1, {"type": "tax"})
    t.turn(1, "influence")
    assert "not allowed" in t.illegal(1, {"type": "influence", "count": "1"})
    assert "not allowed" in t.illegal(1, {"type": "influence"})


def test_hidden_information_in_no_log_line_of_a_whole_game():
    """Selections, boosts, kept/discarded/sealed writs and fist contents never reach another
    seat's (or a spectator's) describe line."""
    from games.bots import play_random_game
    from games.feudum_guilds import ALL_MODULES
    from games.feudum_guilds.components import CARD_NAMES, WRITS

    writ_names = [w["name"] for w in WRITS.values()] + list(WRITS)
    secret_types = {"boost", "select", "keep_writ", "discard_writ", "seal_charter", "divide"}
    seen = set()
    state, record = play_random_game(GAME, 3, 8, options=ALL_MODULES)
    names = [p["name"] for p in state["ps"]]
    for version, (seat, move, _) in enumerate(record.moves, start=1):
        if move["type"] not in secret_types:
            continue
        seen.add(move["type"])
        event = {"version": version, "actor": seat, "data": {"move": move}, "names": names}
        for viewer in (None, (seat + 1) % 3, (seat + 2) % 3):
            line = GAME.describe(event, viewer)
            assert not any(w in line for w in writ_names), line
            assert not any(c in line.lower() for c in CARD_NAMES), line
            assert not any(word in line for word in ("left", "right", "low", "high", "extra",
                                                     "double", "saltpeter", "sulfur")), line
    assert {"boost", "select", "keep_writ", "divide"} <= seen
