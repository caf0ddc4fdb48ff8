"""Rule tests for the round (B4): secret selection, the act phase and the action cards (B5)."""

from __future__ import annotations

from games.feudum_guilds import GAME


def test_secret_selection_four_cards_by_all_players_at_once(table):
    t = table(3)
    t.state["phase"] = "select"
    assert GAME.to_act(t.state) == {0, 1, 2}
    for seat in (0, 1, 2):
        t.do(seat, {"type": "boost", "boost": "none"})
    moves = t.moves(1)
    assert len(moves) == 70 and all(len(m["cards"]) == 4 for m in moves)  # 8 choose 4
    assert all(len(set(m["cards"])) == 4 for m in moves)
    assert "not allowed" in t.illegal(1, {"type": "select", "cards": ["guild", "tax", "explore"]})
    assert "not allowed" in t.illegal(
        1, {"type": "select", "cards": ["guild", "guild", "tax", "explore"]})
    # the cards may be listed in any order
    t.do(1, {"type": "select", "cards": ["migrate", "tax", "guild", "explore"]})
    assert t.p(1)["selected"] == ["migrate", "explore", "tax", "guild"]
    assert t.p(1)["committed"] and GAME.to_act(t.state) == {0, 2}
    assert t.moves(1) == []


def test_secret_selection_saltpeter_buys_a_fifth_card(table):
    t = table(2)
    t.state["phase"] = "select"
    t.give(0, saltpeter=1)
    t.do(0, {"type": "boost", "boost": "extra"})
    assert len(t.moves(0)) == 56 and all(len(m["cards"]) == 5 for m in t.moves(0))
    assert "not allowed" in t.illegal(
        0, {"type": "select", "cards": ["guild", "tax", "explore", "harvest"]})
    t.do(0, {"type": "select", "cards": ["guild", "tax", "explore", "harvest", "improve"]})
    assert t.p(0)["committed"] and t.p(0)["goods"]["saltpeter"] == 1  # paid at the reveal
    t.do(1, {"type": "boost", "boost": "none"})
    t.do(1, {"type": "select", "cards": ["guild", "tax", "explore", "harvest"]})
    assert t.state["phase"] == "act" and t.p(0)["goods"]["saltpeter"] == 0
    assert len(t.p(0)["selected"]) == 5


def test_secret_selection_sulfur_double_turn_plays_two_cards_in_a_row(table):
    t = table(2)
    t.state["phase"] = "select"
    t.give(0, sulfur=1)
    t.state["start_player"] = 0
    t.do(0, {"type": "boost", "boost": "double"})
    t.do(1, {"type": "boost", "boost": "none"})
    for seat in (0, 1):
        t.do(seat, {"type": "select", "cards": ["guild", "tax", "explore", "harvest"]})
    assert t.top() == {"kind": "turn", "seat": 0}
    t.do(0, {"type": "double"})
    t.do(0, {"type": "play", "card": "tax"})
    t.do(0, {"type": "forfeit"})
    assert t.top() == {"kind": "turn", "seat": 0}  # the second card of the double turn
    assert {"type": "double"} not in t.moves(0)
    t.do(0, {"type": "play", "card": "explore"})
    t.do(0, {"type": "forfeit"})
    assert t.top() == {"kind": "turn", "seat": 1}


def test_act_phase_one_card_per_turn_clockwise_from_the_start_player(table):
    t = table(3)
    t.act_phase(("tax", "explore"))
    t.state["start_player"] = 2
    from games.feudum_guilds import rounds

    rounds.advance(t.state, t.rng)
    order = []
    while t.state["phase"] == "act" and len(order) < 6:
        seat = t.top()["seat"]
        order.append(seat)
        t.do(seat, {"type": "play", "card": t.p(seat)["selected"][len(t.p(seat)["played"])]})
        t.do(seat, {"type": "forfeit"})
    assert order == [2, 0, 1, 2, 0, 1]
    assert t.state["phase"] == "select" and t.state["round"] == 2


def test_action_card_migrate_pays_food_pawn_into_play_and_takes_a_seat(table):
    t = table(3)
    food = t.p(0)["goods"]["food"]
    t.turn(0, "migrate")
    t.do(0, {"type": "migrate", "guild": "noble"})
    assert t.p(0)["goods"]["food"] == food - 1
    assert [pw["guild"] for pw in t.p(0)["pawns"]].count("noble") == 1
    assert t.state["guilds"]["noble"]["seats"][0] == 0
    t.check()


def test_action_card_migrate_returns_a_pawn_for_free(table):
    t = table(3)
    t.seat("monk", [0])
    t.turn(0, "migrate")
    t.do(0, {"type": "retire", "guild": "monk"})
    assert all(pw["guild"] is None for pw in t.p(0)["pawns"])
    assert t.state["guilds"]["monk"]["seats"][0] is None  # 0 stars: off the track
    t.check()


def test_action_card_influence_claims_one_outpost_per_pawn_in_play(table):
    t = table(3)
    t.seat("monk", [0])
    t.seat("farmer", [0])
    t.turn(0, "influence")
    assert [m.get("count") for m in t.moves(0)] == [1, 2, None]
    t.do(0, {"type": "influence", "count": 2})
    assert [loc["kind"] for loc in t.p(0)["locations"]] == ["outpost", "outpost"]
    from games.feudum_guilds.status import stars

    assert stars(t.state, 0, "monk") == 3  # pawn + 2 linked outposts
    assert stars(t.state, 0, "farmer") == 1  # outposts are not linked to the Farmer guild
    t.check()


def test_action_card_improve_outpost_to_farm_takes_a_region_tile_and_scores_it(table):
    t = table(3)
    loc = t.location(0, "outpost")
    t.give(0, wood=1)
    t.turn(0, "improve")
    t.do(0, {"type": "improve", "location": loc["id"]})
    assert t.top()["kind"] == "tile"
    t.do(0, {"type": "tile", "stack": 4})
    assert t.loc(0, loc["id"])["kind"] == "farm"
    assert t.p(0)["tiles"] == [1] and t.state["stacks"][4] == [2, 3, 4]
    assert t.p(0)["vp"] == 2  # chart: epoch I tile, farm
    t.check()


def test_action_card_improve_farm_to_town_discards_the_farm_goods(table):
    t = table(3)
    loc = t.location(0, "farm", food=3)
    t.give(0, iron=1)
    t.state["epoch"] = 2
    for i in range(5):
        t.state["stacks"][i] = [3, 4]
    t.state["stacks"][5] = [2, 3, 4]  # only one eligible stack: the tile is taken at once
    t.turn(0, "improve")
    t.do(0, {"type": "improve", "location": loc["id"]})
    assert t.loc(0, loc["id"])["kind"] == "town" and sum(t.loc(0, loc["id"])["goods"].values()) == 0
    assert t.p(0)["vp"] == 4  # chart: epoch II tile, town
    t.check()


def test_action_card_improve_town_to_feudum_costs_a_seal_and_gives_three_stars(table):
    t = table(3)
    loc = t.location(0, "town")
    t.p(0)["seals"].append(t.state["seal_supply"].pop())
    t.turn(0, "improve")
    assert {"type": "improve", "location": loc["id"], "guild": "knight"} in t.moves(0)
    t.do(0, {"type": "improve", "location": loc["id"], "guild": "knight"})
    t.do(0, {"type": "tile", "stack": 0})
    assert t.loc(0, loc["id"])["kind"] == "feudum" and t.p(0)["seals"] == []
    assert t.state["feudums"]["knight"] == 1
    assert t.state["guilds"]["knight"]["seats"][0] == 0
    assert t.p(0)["vp"] == 4
    t.check()


def test_action_card_explore_draws_two_plus_one_per_other_outpost_or_feudum(table):
    t = table(3)
    t.location(1, "outpost")
    t.location(1, "outpost")
    t.location(1, "feudum")["guild"] = "monk"
    deck = len(t.state["writ_deck"])
    t.turn(1, "explore")
    t.do(1, {"type": "explore"})
    assert t.top()["kind"] == "writ_keep" and len(t.top()["cards"]) == 4
    keep = t.top()["cards"][2]
    t.do(1, {"type": "keep_writ", "writ": keep})
    assert t.p(1)["hand"] == [keep] and len(t.state["writ_deck"]) == deck - 1
    t.check()


def test_action_card_explore_needs_an_outpost(table):
    t = table(3)
    t.turn(1, "explore")
    assert t.moves(1) == [{"type": "forfeit"}]


def test_action_card_harvest_five_plus_farms_plus_beads_max_ten(table):
    t = table(3)
    farm = t.location(2, "farm")
    t.location(2, "farm", wood=10)
    t.p(2)["beads"].append(t.state["seal_supply"].pop())
    bead = t.state["tokens"][t.p(2)["beads"][0]]
    t.turn(2, "harvest")
    t.do(2, {"type": "harvest", "location": farm["id"]})
    assert sum(t.loc(2, farm["id"])["goods"].values()) == min(10, 5 + 1 + bead)
    assert t.p(2)["vp"] == 1
    t.check()


def test_action_card_harvest_not_on_a_full_farm(table):
    t = table(3)
    t.location(2, "farm", wood=10)
    t.turn(2, "harvest")
    assert t.moves(2) == [{"type": "forfeit"}]


def test_action_card_tax_two_plus_one_per_other_town_or_feudum(table):
    t = table(3)
    t.location(0, "town")
    t.location(0, "town")
    t.location(0, "feudum")["guild"] = "noble"
    t.turn(0, "tax")
    t.do(0, {"type": "tax"})
    assert t.p(0)["shillings"] == 7 + 4


def test_action_card_guild_performs_exactly_one_function(table):
    t = table(3)
    t.turn(2, "guild")
    moves = t.moves(2)
    assert {"type": "guild", "guild": "knight", "function": "trade"} in moves
    assert all(m["type"] in ("guild", "forfeit") for m in moves)
    t.do(2, {"type": "guild", "guild": "knight", "function": "trade"})
    assert t.top()["kind"] == "turn" and t.top()["seat"] != 2


def test_action_card_repeat_replays_an_x2_card_and_guild_must_change(table):
    t = table(3)
    t.turn(2, "guild")
    t.do(2, {"type": "guild", "guild": "knight", "function": "trade"})
    t.turn(2, "repeat")
    assert t.moves(2) == [{"type": "repeat", "card": "guild"}, {"type": "forfeit"}]
    t.do(2, {"type": "repeat", "card": "guild"})
    moves = t.moves(2)
    assert not any(m.get("guild") == "knight" for m in moves)
    assert {"type": "guild", "guild": "noble", "function": "trade"} in moves


def test_action_card_repeat_cannot_replay_migrate(table):
    t = table(3)
    t.turn(0, "migrate")
    t.do(0, {"type": "forfeit"})
    t.turn(0, "repeat")
    assert t.moves(0) == [{"type": "forfeit"}]


def test_action_card_forfeit_does_nothing(table):
    t = table(3)
    t.turn(0, "tax")
    t.location(0, "town")
    before = t.p(0)["shillings"]
    t.do(0, {"type": "forfeit"})
    assert t.p(0)["shillings"] == before and "tax" in t.p(0)["played"]
