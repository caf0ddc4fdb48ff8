"""Every one of the 36 specialists, named after the card."""

from __future__ import annotations

from games.kings_guild import cards, guild

DAGGER = 1  # mage, Dagger (weapon): 1 wood + 1 metal, 3 coins, blue reward
CLOAK_BOOTS = 2  # mage, Cloak (armor) 3 cloth / Boots (armor) 3 leather 1 metal
VEST = 4  # mage, Vest (armor): 2 leather + 1 cloth
ROGUE_CLOAK = 5  # rogue, Cloak (armor): 2 cloth, yellow reward
WARRIOR_SWORD = 11  # warrior, Sword (weapon): 2 metal, red reward


def _hire_first(kg, s, name, seat=0, **extra):
    kg.row(s, [name, "Miner", "Tanner", "Weaver", "Lumberjack"] if name not in (
        "Miner", "Tanner", "Weaver", "Lumberjack") else [name, "Courier", "Peasant",
                                                          "Inventor", "Oracle"])
    s["guilds"][seat]["coins"] = 30
    move = {"type": "hire", "index": 0, "space": "top", **extra}
    kg.play(s, seat, move)


def _gather_one(kg, s, seat, r):
    kg.play(s, seat, {"type": "gather"})
    kg.play(s, seat, {"type": "take", "resource": r})
    kg.play(s, seat, {"type": "done"})


def test_specialist_appraiser_draw_then_discard(kg):
    s = kg.new()
    kg.hire(s, 0, "Appraiser")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert kg.top(s)["kind"] == "appraiser"
    kg.play(s, 0, {"type": "draw", "color": "yellow"})
    assert len(s["guilds"][0]["hand"]) == 2
    card = s["guilds"][0]["hand"][0]
    kg.play(s, 0, {"type": "discard_treasure", "card": card})
    assert len(s["guilds"][0]["hand"]) == 1 and card in s["discards"][cards.treasure(card)["color"]]


def test_specialist_builder_anywhere_and_double_bonus(kg):
    s = kg.new()
    kg.hire(s, 0, "Builder")
    mat = cards.boards()["mats"][s["guilds"][0]["mat"]]
    kg.play(s, 0, {"type": "build", "room": "Library"})
    assert len(kg.moves(s, 0, "place")) == 10
    far = next(k for k, v in mat.items() if v == "coins")
    x, y = map(int, far.split("_"))
    kg.play(s, 0, {"type": "place", "x": x, "y": y})
    assert kg.coins(s, 0) == 10 - 4 + 4


def test_specialist_builder_only_in_an_expand_action(kg):
    """House icon: "When you take an expand action". The King's Statue won at the Funeral is
    placed next to the guild and its bonus space pays once."""
    s = kg.new()
    kg.hire(s, 0, "Builder")
    from games.kings_guild import funeral

    s["funeral"] = {"bids": {}, "slot": 0}
    s["quests_boxed"].append(s["quest_slots"][0]["quest"])
    s["quest_slots"][0] = None
    funeral.place_bid(s, 0, 1)
    funeral.place_bid(s, 1, 0)
    places = [(m["x"], m["y"]) for m in kg.moves(s, 0, "place")]
    assert sorted(places) == [(0, 0), (1, 1), (2, 1), (3, 0)]
    mat = cards.boards()["mats"][s["guilds"][0]["mat"]]
    x, y = next((p for p in places if mat.get(f"{p[0]}_{p[1]}") == "coins"), places[0])
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "place", "room": "King's Statue", "x": x, "y": y})
    bonus = mat.get(f"{x}_{y}")
    assert kg.coins(s, 0) == coins - 1 + (2 if bonus == "coins" else 0)
    if bonus not in (None, "coins"):
        assert kg.res(s, 0) == {bonus: 1}


def test_specialist_courier_one_storage(kg):
    s = kg.new(guilds=["Explorers League", "Craft Collective"])
    assert guild.storage_limit(s, 0) == 5
    kg.hire(s, 0, "Courier")
    assert guild.storage_limit(s, 0) == 6


def test_specialist_peasant_two_storage(kg):
    s = kg.new()
    kg.hire(s, 0, "Peasant")
    assert guild.storage_limit(s, 0) == 8


def test_specialist_inventor_two_hand_size(kg):
    s = kg.new()
    kg.hire(s, 0, "Inventor")
    assert guild.hand_limit(s, 0) == 8


def test_specialist_laborer_any_three(kg):
    s = kg.new()
    kg.hire(s, 0, "Laborer")
    kg.play(s, 0, {"type": "gather"})
    for r in ("wood", "cloth", "metal"):
        kg.play(s, 0, {"type": "take", "resource": r})
    assert kg.res(s, 0) == {"wood": 1, "cloth": 1, "metal": 1}


def test_specialist_lumberjack_extra_wood(kg):
    s = kg.new()
    kg.hire(s, 0, "Lumberjack")
    _gather_one(kg, s, 0, "cloth")
    assert kg.res(s, 0) == {"cloth": 1, "wood": 1}


def test_specialist_miner_extra_metal(kg):
    s = kg.new()
    kg.hire(s, 0, "Miner")
    _gather_one(kg, s, 0, "cloth")
    assert kg.res(s, 0) == {"cloth": 1, "metal": 1}


def test_specialist_tanner_extra_leather(kg):
    s = kg.new()
    kg.hire(s, 0, "Tanner")
    _gather_one(kg, s, 0, "cloth")
    assert kg.res(s, 0) == {"cloth": 1, "leather": 1}


def test_specialist_weaver_extra_cloth(kg):
    s = kg.new()
    kg.hire(s, 0, "Weaver")
    _gather_one(kg, s, 0, "wood")
    assert kg.res(s, 0) == {"cloth": 1, "wood": 1}


def test_specialist_oracle_sees_top_two_quests_on_own_turn(kg):
    s = kg.new()
    kg.hire(s, 0, "Oracle")
    v = kg.game.view(s, 0)
    assert [q["id"] for q in v["oracle"]] == s["quest_deck"][:2]
    assert "oracle" not in kg.game.view(s, 1)


def test_specialist_recruiter_doubles_discounts(kg):
    s = kg.new()
    kg.hire(s, 0, "Recruiter")
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"], [0, 0, 1, 0, 2])
    kg.play(s, 0, {"type": "hire", "index": 2, "space": "top"})
    assert kg.coins(s, 0) == 10 - 2
    from games.kings_guild import specialists

    courier = next(i for i, e in enumerate(s["specialist_row"])
                   if e and cards.specialist_name(e["id"]) == "Courier")
    assert specialists.price(s, 0, courier) == 0


def test_specialist_recruiter_not_with_a_contract(kg):
    """House icon: only in an Expand action; the Contract hires "without spending an action"
    and so pays the single discount."""
    s = kg.new()
    kg.hire(s, 0, "Recruiter")
    kg.row(s, ["Miner", "Tanner", "Weaver", "Lumberjack", "Courier"], [0, 0, 1, 0, 2])
    contract = kg.to_hand(s, 0, "Contract")
    kg.play(s, 0, {"type": "play", "card": contract})
    hire = next(m for m in kg.moves(s, 0, "hire") if m["index"] == 2)
    assert "for 3 coins" in kg.game.move_label(s, 0, hire)
    kg.play(s, 0, hire)
    assert kg.coins(s, 0) == 10 - 3


def test_specialist_thug_toll_and_return(kg):
    s = kg.new()
    kg.hire(s, 0, "Thug")
    kg.slot(s, 0, DAGGER)
    kg.slot(s, 1, VEST)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    if kg.top(s)["kind"] != "thug":
        kg.play(s, 0, {"type": "skip"})
    kg.play(s, 0, {"type": "move_thug", "slot": 1})
    assert s["thug"] == {"owner": 0, "slot": 1}
    kg.play(s, 0, {"type": "end_turn"})
    kg.give(s, 1, leather=2, cloth=1)
    s["guilds"][1]["coins"] = 2
    before = kg.coins(s, 0)
    kg.play(s, 1, {"type": "craft", "slot": 1, "items": [0]})
    assert kg.coins(s, 0) == before + 2
    assert kg.coins(s, 1) == 4
    assert s["thug"] is None


def test_specialist_thug_blocks_crafter_without_two_coins(kg):
    s = kg.new()
    kg.slot(s, 1, VEST)
    s["thug"] = {"owner": 1, "slot": 1}
    kg.give(s, 0, leather=2, cloth=1)
    s["guilds"][0]["coins"] = 1
    assert {"type": "craft", "slot": 1, "items": [0]} not in kg.moves(s, 0)


def test_specialist_auctioneer_sells_relics_charms_scrolls_for_four(kg):
    s = kg.new()
    kg.hire(s, 0, "Auctioneer")
    charm = kg.to_hand(s, 0, "Glowing Charm")
    scroll = kg.to_hand(s, 0, "Scroll of Riches")
    relic = kg.to_hand(s, 0, "Ancient Helm")
    potion = kg.to_hand(s, 0, "Fortune Potion")
    for card in (charm, scroll, relic):
        before = kg.coins(s, 0)
        kg.play(s, 0, {"type": "sell", "card": card})
        assert kg.coins(s, 0) == before + 4
    before = kg.coins(s, 0)
    kg.play(s, 0, {"type": "sell", "card": potion})
    assert kg.coins(s, 0) == before + 2


def test_specialist_auctioneer_only_during_your_turn(kg):
    """Infinity icon: "At any time during your turn". Selling down to the hand size on another
    player's turn pays the printed price."""
    from games.kings_guild import treasures

    s = kg.new()
    kg.hire(s, 1, "Auctioneer")
    relic = kg.to_hand(s, 1, "Ancient Helm")
    assert s["current"] == 0
    assert treasures.sell_price(s, 1, relic) == 2
    s["current"] = 1
    assert treasures.sell_price(s, 1, relic) == 4


def test_specialist_bard_moves_specialists(kg):
    s = kg.new()
    kg.hire(s, 0, "Bard")
    kg.room(s, 0, "Kitchen", 0, 0)
    kg.play(s, 0, {"type": "bard"})
    bard = cards.specialist_ids()["Bard"]
    kg.play(s, 0, {"type": "move_specialist", "specialist": bard, "space": "Kitchen"})
    assert s["guilds"][0]["specialists"][0]["space"] == "Kitchen"


def test_specialist_blacksmith_weapon_minus_one_metal(kg):
    s = kg.new()
    kg.hire(s, 0, "Blacksmith")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert DAGGER in s["guilds"][0]["quests"]


def test_specialist_woodworker_weapon_minus_one_wood(kg):
    s = kg.new()
    kg.hire(s, 0, "Woodworker")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert DAGGER in s["guilds"][0]["quests"]


def test_specialist_leatherworker_armor_minus_one_leather(kg):
    s = kg.new()
    kg.hire(s, 0, "Leatherworker")
    kg.slot(s, 0, VEST)
    kg.give(s, 0, leather=1, cloth=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert VEST in s["guilds"][0]["quests"]


def test_specialist_tailor_armor_minus_one_cloth(kg):
    s = kg.new()
    kg.hire(s, 0, "Tailor")
    kg.slot(s, 0, ROGUE_CLOAK)
    kg.give(s, 0, cloth=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert ROGUE_CLOAK in s["guilds"][0]["quests"]


def _hero_bonus(kg, name, qid, color, resources):
    s = kg.new()
    kg.hire(s, 0, name)
    kg.slot(s, 0, qid)
    kg.give(s, 0, **resources)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert kg.top(s)["kind"] == "hero_bonus"
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "pay_for_treasure"})
    assert kg.coins(s, 0) == coins - 1
    assert [cards.treasure(c)["color"] for c in s["guilds"][0]["hand"]].count(color) >= 1
    assert len(s["guilds"][0]["hand"]) == 2


def test_specialist_fighter_warrior_quest_red_treasure(kg):
    _hero_bonus(kg, "Fighter", WARRIOR_SWORD, "red", {"metal": 2})


def test_specialist_ranger_rogue_quest_yellow_treasure(kg):
    _hero_bonus(kg, "Ranger", ROGUE_CLOAK, "yellow", {"cloth": 2})


def test_specialist_wizard_mage_quest_blue_treasure(kg):
    _hero_bonus(kg, "Wizard", DAGGER, "blue", {"wood": 1, "metal": 1})


def test_specialist_wizard_when_treasure_is_gained_starter_and_finisher_once_per_quest(kg):
    """Timing (hero icon): "When you gain treasure from a quest of the indicated hero type";
    "whether you started or finished the quest, but only once per quest". Starting a quest
    gains no treasure yet; the starter's bonus comes when the passed treasure arrives."""
    s = kg.new()
    kg.hire(s, 0, "Wizard")
    kg.slot(s, 0, CLOAK_BOOTS)  # Explore Bluevein Isle: mage
    kg.give(s, 0, cloth=3)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert all(e["kind"] != "hero_bonus" for e in s["pending"])
    kg.play(s, 0, {"type": "end_turn"})
    kg.give(s, 1, leather=3, metal=1)
    kg.play(s, 1, {"type": "craft", "slot": 0, "items": [1]})
    kg.play(s, 1, {"type": "keep", "index": 0})
    assert kg.top(s) == {"kind": "hero_bonus", "seat": 0, "color": "blue",
                         "specialist": "Wizard"}
    assert kg.game.to_act(s) == {0}
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "pay_for_treasure"})
    assert kg.coins(s, 0) == coins - 1 and len(s["guilds"][0]["hand"]) == 2
    assert all(e["kind"] != "hero_bonus" for e in s["pending"])


def test_specialist_fighter_no_bonus_for_a_quest_without_treasure(kg):
    """A started quest that still carries the sigil at the end gives no treasure, so no
    Fighter bonus; nor does the Witch's quest."""
    s = kg.new()
    kg.hire(s, 0, "Fighter")
    qid = kg.quest_id("Brawl at Goldgrass Inn")  # warrior, Pants 3 leather
    kg.slot(s, 0, qid)
    kg.give(s, 0, leather=3)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert all(e["kind"] != "hero_bonus" for e in s["pending"])


def test_specialist_ranger_not_for_other_heroes(kg):
    s = kg.new()
    kg.hire(s, 0, "Ranger")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert not s["pending"]


def test_specialist_sorceress_gather_gems_and_magic(kg):
    s = kg.new()
    kg.hire(s, 0, "Sorceress")
    kg.play(s, 0, {"type": "gather"})
    kinds = {m["resource"] for m in kg.moves(s, 0, "take")}
    assert {"gem", "magic"} <= kinds


def test_specialist_warlock_both_scroll_effects(kg):
    s = kg.new()
    kg.hire(s, 0, "Warlock")
    scroll = kg.to_hand(s, 0, "Scroll of Riches")
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    before, other = kg.coins(s, 0), kg.coins(s, 1)
    kg.play(s, 0, {"type": "destroy_scroll", "card": scroll})
    assert kg.coins(s, 0) == before + 6 and kg.coins(s, 1) == other
    assert scroll in s["treasures_removed"]


def test_specialist_adventurer_draws_one_of_each_colour(kg):
    s = kg.new()
    _hire_first(kg, s, "Adventurer")
    colors = sorted(cards.treasure(c)["color"] for c in s["guilds"][0]["hand"])
    assert colors == ["blue", "red", "yellow"]


def test_specialist_alchemist_transmutes(kg):
    s = kg.new()
    kg.give(s, 0, wood=2)
    _hire_first(kg, s, "Alchemist")
    kg.play(s, 0, {"type": "transmute", "give": "wood", "take": "gem"})
    kg.play(s, 0, {"type": "transmute", "give": "wood", "take": "magic"})
    kg.play(s, 0, {"type": "done"})
    assert kg.res(s, 0) == {"gem": 1, "magic": 1}


def test_specialist_aristocrat_baggage_in_chamber(kg):
    s = kg.new()
    kg.row(s, ["Aristocrat", "Miner", "Tanner", "Weaver", "Lumberjack"])
    s["guilds"][0]["coins"] = 30
    assert [m for m in kg.moves(s, 0, "hire") if m["index"] == 0] == []
    kg.room(s, 0, "Kitchen", 0, 0)
    options = [m for m in kg.moves(s, 0, "hire") if m["index"] == 0]
    assert options == [{"type": "hire", "index": 0, "specialist": 27, "space": "top",
                        "baggage": "Kitchen"}]
    kg.play(s, 0, options[0])
    assert s["guilds"][0]["baggage"] == "Kitchen"
    from games.kings_guild import scoring

    # the baggage takes the Kitchen's place but is not a specialist: the Kitchen stays empty
    assert scoring.room_points(s, 0)["Kitchen"] == 0
    assert scoring.score_sheet(s)[0]["specialists"] == 6


def test_specialist_craftswoman_extra_craft(kg):
    s = kg.new()
    kg.slot(s, 0, DAGGER)
    kg.give(s, 0, wood=1, metal=1)
    _hire_first(kg, s, "Craftswoman")
    assert kg.top(s)["kind"] == "extra_craft"
    kg.play(s, 0, {"type": "craft", "slot": 0, "items": [0]})
    assert DAGGER in s["guilds"][0]["quests"]


def test_specialist_curator_buys_relics_from_discards(kg):
    s = kg.new()
    relic = kg.card(s, "Ancient Sword")
    kg._take_card(s, relic)
    s["discards"]["red"].append(relic)
    _hire_first(kg, s, "Curator")
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "buy_relic", "card": relic})
    kg.play(s, 0, {"type": "done"})
    assert relic in s["guilds"][0]["hand"] and kg.coins(s, 0) == coins - 3


def test_specialist_dealer_extra_gather(kg):
    s = kg.new()
    _hire_first(kg, s, "Dealer")
    assert kg.top(s)["kind"] == "gather"
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    assert kg.res(s, 0) == {"wood": 1}


def test_specialist_merchant_draw_three_discard_three(kg):
    s = kg.new()
    for _ in range(5):
        kg.to_hand(s, 0, "Bag of Gold")
    _hire_first(kg, s, "Merchant")
    for color in ("blue", "red", "yellow"):
        kg.play(s, 0, {"type": "draw", "color": color})
    assert len(s["guilds"][0]["hand"]) == 8
    for _ in range(3):
        kg.play(s, 0, {"type": "discard_treasure", "card": s["guilds"][0]["hand"][0]})
    assert len(s["guilds"][0]["hand"]) == 5 and kg.top(s) is None


def test_specialist_minstrel_draws_any_colour(kg):
    s = kg.new()
    _hire_first(kg, s, "Minstrel")
    kg.play(s, 0, {"type": "draw", "color": "red"})
    assert [cards.treasure(c)["color"] for c in s["guilds"][0]["hand"]] == ["red"]


def test_specialist_overseer_takes_oldest_free(kg):
    s = kg.new()
    kg.row(s, ["Overseer", "Miner", "Tanner", "Weaver", "Lumberjack"])
    s["guilds"][0]["coins"] = 8
    kg.play(s, 0, {"type": "hire", "index": 0, "space": "top"})
    assert kg.coins(s, 0) == 0
    kg.play(s, 0, {"type": "hire_oldest", "space": "top"})
    assert kg.has_specialist(s, 0, "Lumberjack")


def test_specialist_overseer_needs_two_spaces(kg):
    s = kg.new()
    for name in ["Courier", "Inventor", "Oracle"]:
        kg.hire(s, 0, name)
    kg.row(s, ["Overseer", "Miner", "Tanner", "Weaver", "Lumberjack"])
    assert [m for m in kg.moves(s, 0, "hire") if m["index"] == 0] == []


def test_specialist_smuggler_steals_a_resource(kg):
    s = kg.new()
    kg.give(s, 1, gem=1)
    _hire_first(kg, s, "Smuggler")
    kg.play(s, 0, {"type": "steal", "from": 1, "resource": "gem"})
    assert kg.res(s, 0) == {"gem": 1} and kg.res(s, 1) == {}


def test_specialist_vizier_offering_without_action(kg):
    s = kg.new()
    kg.hire(s, 0, "Vizier")
    s["council_drawn"] = True
    s["final_turns_left"] = 2
    assert {"type": "offer"} not in kg.moves(s, 0)
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    kg.play(s, 0, {"type": "end_turn"})
    assert s["guilds"][0]["offered"]


def test_specialist_vizier_no_offering_without_a_free_sigil_and_not_before_final_turn(kg):
    s = kg.new()
    kg.hire(s, 0, "Vizier")
    for slot, qid in ((1, 2), (2, 3)):
        kg.slot(s, slot, qid)
        s["quest_slots"][slot]["crafted"] = [0, None]
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "wood"})
    kg.play(s, 0, {"type": "done"})
    kg.play(s, 0, {"type": "end_turn"})
    assert not s["guilds"][0]["offered"]  # not a final turn yet
    s["council_drawn"] = True
    s["final_turns_left"] = 2
    kg.play(s, 1, {"type": "gather"})
    kg.play(s, 1, {"type": "take", "resource": "wood"})
    kg.play(s, 1, {"type": "done"})
    kg.play(s, 1, {"type": "end_turn"})
    kg.play(s, 0, {"type": "gather"})
    kg.play(s, 0, {"type": "take", "resource": "cloth"})
    kg.play(s, 0, {"type": "done"})
    kg.play(s, 0, {"type": "end_turn"})
    assert s["over"] and not s["guilds"][0]["offered"]
    assert s["outcome"]["sheet"][0]["offering"] == 0


def test_specialist_witch_takes_single_item_quest(kg):
    s = kg.new()
    kg.slot(s, 1, DAGGER)
    _hire_first(kg, s, "Witch")
    coins = kg.coins(s, 0)
    kg.play(s, 0, {"type": "take_quest", "slot": 1})
    assert DAGGER in s["guilds"][0]["quests"]
    assert kg.coins(s, 0) == coins and s["guilds"][0]["hand"] == []
    assert s["quest_slots"][1] is not None


def test_specialist_witch_cannot_take_two_item_quest(kg):
    s = kg.new()
    for i in range(5):
        kg.slot(s, i, [2, 3, 6, 7, 9][i])
    _hire_first(kg, s, "Witch")
    assert kg.top(s) is None
