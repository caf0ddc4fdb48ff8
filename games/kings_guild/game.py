"""The King's Guild as a rules engine following games.protocol.

Readings of the rulebook where it is silent (the rulebook wins over every other source):

* Treasures are played or sold from the main turn menu, before or after the action, not in
  the middle of resolving one (the rulebook: "you can't spend some, play a treasure, and then
  spend more").
* A treasure colour that is gone entirely (deck and discards empty): the drawing player
  chooses another colour (a ``draw`` move in a ``substitute`` decision); colour choices only
  offer colours that can still be drawn.
* Selling down to the hand size may sell any card; cards without a price give 0 coins.
* Fighter/Ranger/Wizard trigger when you gain treasure from a quest of their hero type (the
  rulebook's timing icon): the finisher, and the starter of a shared quest when the passed
  treasure arrives; once per quest. The Appraiser likewise triggers for both.
* The Vizier's offering is made automatically at the end of your final turn if you have a
  free sigil (the card: "You automatically get to make an offering").
* Specialist timing icons decide when an ability works: Builder and Recruiter (house) only in
  an Expand action, the Auctioneer (infinity) only on your own turn.
* The Funeral winner who has no legal space for the King's Statue does not build or pay.
* The most-Charms bonus needs at least one Charm; the Aristocrat's baggage is not a specialist:
  the Tavern does not count it and it does not fill a chamber for scoring.
* Stall breaker (option ``stall_breaker``, on by default, NOT in the rulebook): after five
  full rounds in which nobody crafts and no quest leaves the board, the oldest quest is
  retired - under rules 3 only when the table is stuck (:func:`games.kings_guild.stall.stuck`:
  no seat can get the resources of any open item), so that a game in which nobody can finish
  a quest still reaches the Offering to the Council.
* Rules 4: a whole round whose every turn starts with nothing but ending the turn or the
  Bard (:func:`games.kings_guild.stall.frozen_seat`) fires the stall breaker at once; the
  Bard once per turn, never back to an arrangement held this turn; the Oracle shows the deck
  on its owner's turn only (the rulebook), and the owner remembers what it showed.
* Solo (rules 3): the right-most specialist leaves when the Expand action ends - after its
  second purchase, or at the first other move after one purchase - so a Contract later in
  the turn cannot hire it.
* Treasure decks are reshuffled when the next card of that colour is drawn, not when the
  last one is taken; with one player the scrolls' "next player" part is skipped.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from games.kings_guild import (
    absent,
    cards,
    guild,
    labels,
    picture,
    setup,
    steps,
    takebacks,
    turn,
    views,
)
from games.kings_guild import words as w
from games.protocol import Game, IllegalMove, Move, State
from games.rng import GameRandom
from games.svg import Say
from games.text import T, join

OPTION_FIELDS: list[dict[str, Any]] = [
    {"name": "stall_breaker",
     "label": T("Stall breaker (house rule, NOT in the rulebook): only when the table is stuck "
              "- after 5 full rounds without a craft, no player can get the resources for any "
              "open item by gathering, their treasures, or a room or specialist they can pay "
              "for now - the oldest quest is retired (switch off for the pure rulebook game)"),
     "type": "bool", "default": True},
]
"""Lobby options. The stall breaker is on by default (see RULES.md for why): a table in which
nobody can ever finish a quest has no way to continue under the rulebook."""


class KingsGuild(Game):
    """The King's Guild for 1 (solo rules) to 6 players."""

    kind = "kings-guild"
    name = "The King's Guild"
    min_players = 1
    max_players = 6
    # 2: the stall breaker became an option (a craft also resets its count); a colour that is
    # gone entirely is replaced by the drawing player's choice; chambers score only with
    # specialists; Fighter/Ranger/Wizard trigger on gaining the quest's treasure; Builder and
    # Recruiter only in an Expand action; the Auctioneer only on your turn. Snapshots folded
    # by rules 1 are refolded from the events.
    # 3: solo - the right-most specialist leaves as soon as the Expand action ends (its second
    # purchase, or the first other move after it), not at the end of the turn; the stall
    # breaker fires only when the table is stuck (games.kings_guild.stall). State of rules 3
    # carries ``"rules": 3``; a rules-2 state is unchanged (its golden logs fold as before).
    # 4: a frozen round (no seat has any move but ending its turn or the Bard for a whole
    # round) fires the stall breaker (games.kings_guild.stall.frozen_seat); the Bard once per
    # turn, never back to an arrangement already held this turn; the Oracle's owner
    # remembers the quest cards it showed them (take-backs). State carries ``"rules": 4``.
    rules_version = "4"
    rules_versions = ("2", "3", "4")  # every version this code still plays, oldest first
    # Played for a seat when it is the only move: ending the turn when nothing else is
    # left to do, and a ``skip`` or ``done`` closing an optional step.
    forced_move_types = frozenset({"end_turn", "skip", "done"})

    def migrate(self, state: State, to: str) -> None:
        """Rules 2 states carry no ``"rules"`` key (so they stay byte-identical); rules 3
        and later record the version there, which is all the engine reads. No other part of
        the state changes meaning between 2 and 3 (a solo turn half-way through an Expand
        action still loses exactly one specialist)."""
        if int(to) >= 3:
            state["rules"] = int(to)
        else:
            state.pop("rules", None)

    def option_fields(self) -> list[dict[str, Any]]:
        return [dict(f) for f in OPTION_FIELDS]

    def normalize_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        if not self.min_players <= n_players <= self.max_players:
            raise IllegalMove(T("%(game)s needs 1 to 6 players, not %(n)s.", game=self.name,
                                n=n_players))
        known = {f["name"]: f for f in OPTION_FIELDS}
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise IllegalMove(T("Unknown options: %(names)s", names=unknown))
        out = {}
        for name, field in known.items():
            value = options.get(name, field["default"])
            if not isinstance(value, bool):
                raise IllegalMove(T("Option %(name)s must be true or false.", name=name))
            out[name] = value
        return out

    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalMove(T("%(game)s needs 1 to 6 players, not %(n)s.", game=self.name,
                                n=len(players)))
        opts = self.normalize_options(dict(options), len(players))
        state = setup.new_state(players, rng)
        state["options"] = opts
        if self.rules >= 3:
            state["rules"] = self.rules
        turn.settle(state)
        return state

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        turn.apply(state, seat, move, rng)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return turn.legal_moves(state, seat)

    def stand_in_move(self, state: State, seat: int) -> Move:
        """The shortest turn the rules allow (see :mod:`games.kings_guild.absent`)."""
        return absent.stand_in_move(self.legal_moves(state, seat))

    def to_act(self, state: State) -> set[int]:
        return turn.to_act(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        return labels.describe(event, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return state["outcome"]

    def reveals(self, before: State, after: State, seat: int, move: Move) -> str | None:
        """A draw from a face-down deck, a quest or specialist turned up, another seat's
        treasure or sealed bid shown, the Oracle's look, the end of the game: see
        :mod:`games.kings_guild.takebacks`."""
        return takebacks.reveals(before, after, seat)

    def move_label(self, state: State, seat: int, move: Move) -> str:
        return labels.move_label(state, seat, move)

    picture_says = True  # the picture's words in the reader's language (games.svg.Say)

    def picture(self, view: dict[str, Any], table: dict[str, Any],
                say: Say = str) -> str | None:
        """The table as ``view`` shows it, its words said by ``say``: see
        :mod:`games.kings_guild.picture`."""
        return picture.picture(view, table, say)

    def move_targets(self, move: Move) -> list[str]:
        return picture.targets(move)

    def move_steps(self, state: State, seat: int, move: Move) -> list[dict[str, Any]]:
        """Coarse to fine, unordered picks grouped: see :mod:`games.kings_guild.steps`."""
        return steps.steps(state, seat, move)

    def summary(self, state: State, seat: int | None) -> str:
        lines: list[Any] = []
        if state["over"]:
            out = state["outcome"]
            for s in out["ranking"]:
                lines.append(T("%(place)s. %(name)s: %(score)s prestige (%(coins)s coins)",
                               place=out["places"][s], name=state["names"][s],
                               score=out["scores"][s], coins=out["coins"][s]))
            if state["solo"]:
                lines.append(T("Title: %(title)s", title=w.title(out["title"])))
            return join(lines, "\n")
        waiting = ", ".join(state["names"][s] for s in sorted(turn.to_act(state)))
        lines.append(T("Turn of %(name)s; waiting for %(waiting)s.",
                       name=state["names"][state["current"]], waiting=waiting))
        if state["funeral"]:
            lines.append(T("The King's Funeral: sealed bids for the King's Statue."))
        if state["final_turns_left"] is not None:
            lines.append(T("The Offering to the Council was drawn: final turns."))
        open_quests = [w.card(cards.quest_name(s["quest"])) for s in state["quest_slots"] if s]
        lines.append(T("Quests: %(quests)s (%(n)s in the deck).",
                       quests=join(open_quests, "; "), n=len(state["quest_deck"])))
        for s in range(state["n"]):
            p = guild.player(state, s)
            held = [w.amount(n, r) for r, n in p["resources"].items() if n]
            res = join(held) if held else T("no resources")
            coins = T("? coins") if state["funeral"] and s != seat else w.coins(p["coins"])
            lines.append(T("%(name)s (%(guild)s): %(coins)s, %(resources)s, %(treasures)s, "
                           "%(quests)s, %(specialists)s, %(rooms)s.", name=state["names"][s],
                           guild=w.card(p["guild"]), coins=coins, resources=res,
                           treasures=w.treasures(len(p["hand"])),
                           quests=w.quests(len(p["quests"])),
                           specialists=w.specialists(len(p["specialists"])),
                           rooms=w.rooms(len(p["rooms"]))))
        if seat is not None:
            hand = [w.card(cards.treasure_name(c)) for c in guild.player(state, seat)["hand"]]
            lines.append(T("Your hand: %(hand)s.", hand=join(hand) if hand else T("empty")))
        return join(lines, "\n")

    def check_invariants(self, state: State) -> None:
        check_invariants(state)


def _unique(items: list[Any], expected: frozenset[Any], what: str) -> None:
    counts = Counter(items)
    dup = [k for k, v in counts.items() if v > 1]
    assert not dup, f"{what} in two places: {dup[:5]}"
    assert counts.keys() == expected, f"{what} lost or invented"


@cache
def _all_cards() -> tuple[frozenset[str], frozenset[int], frozenset[int]]:
    treasures = frozenset(f"t{tid}_{k + 1}" for tid, t in cards.treasure_types().items()
                          for k in range(t["count"]))
    return (treasures, frozenset(cards.specialists()),
            frozenset(list(cards.quests()) + list(cards.events())))


def check_invariants(state: State) -> None:
    """No negative stock, coins or cards; every card in exactly one place; spaces respected."""
    totals = state["resource_totals"]
    for r in cards.RESOURCES:
        held = sum(p["resources"][r] for p in state["guilds"])
        assert state["supply"][r] >= 0, f"negative supply of {r}"
        assert held + state["supply"][r] == totals[r], f"{r} not conserved"
    for seat, p in enumerate(state["guilds"]):
        assert p["coins"] >= 0, f"seat {seat} has negative coins"
        assert all(n >= 0 for n in p["resources"].values()), f"seat {seat} negative resources"
        assert guild.free_sigils(state, seat) >= 0, f"seat {seat} used more than 2 sigils"
        cap = guild.space_capacity(state, seat)
        for space, used in guild.space_use(state, seat).items():
            assert used <= cap[space], f"seat {seat} overfilled {space}"
        names = [r["name"] for r in p["rooms"]]
        assert len(names) == len(set(names)), f"seat {seat} has a room twice"
        cells = [tuple(c) for r in p["rooms"] for c in r["cells"]]
        assert len(cells) == len(set(cells)), f"seat {seat} rooms overlap"
    assert all(v >= 0 for v in state["room_supply"].values()), "negative room stock"
    hands = [c for p in state["guilds"] for c in p["hand"]]
    limbo = [c for e in state["pending"] if e["kind"] == "keep_treasure" for c in e["cards"]]
    treasure_cards = (
        [c for d in state["treasure_decks"].values() for c in d]
        + [c for d in state["discards"].values() for c in d]
        + hands + limbo + state["treasures_removed"] + state["treasures_boxed"]
    )
    all_treasures, all_specialists, all_quests = _all_cards()
    _unique(treasure_cards, all_treasures, "treasure card")
    specs = (
        state["specialist_deck"]
        + [e["id"] for e in state["specialist_row"] if e]
        + [s["id"] for p in state["guilds"] for s in p["specialists"]]
        + state["specialists_removed"] + state["specialists_boxed"]
    )
    _unique(specs, all_specialists, "specialist")
    quest_ids = (
        state["quest_deck"]
        + [s["quest"] for s in state["quest_slots"] if s]
        + [q for p in state["guilds"] for q in p["quests"]]
        + state["quests_removed"] + state["quests_boxed"] + state["events_done"]
    )
    _unique(quest_ids, all_quests, "quest card")
    for e in state["specialist_row"]:
        if e:
            assert 0 <= e["discount"] < cards.specialists()[e["id"]]["cost"], "bad discount"
