"""Treasure cards: the three decks, drawing and reshuffling, selling, and every card's effect."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.kings_guild import cards, guild
from games.kings_guild.pending import push
from games.rng import GameRandom

State = dict[str, Any]


def build_decks(solo: bool, rng: GameRandom) -> tuple[dict[str, list[str]], list[str]]:
    """Shuffled blue/red/yellow decks of card instances, and the cards left in the box."""
    decks: dict[str, list[str]] = {c: [] for c in cards.COLORS}
    boxed: list[str] = []
    for tid, t in sorted(cards.treasure_types().items()):
        for k in range(t["count"]):
            card = f"t{tid}_{k + 1}"
            if solo and t["name"] == "Spoiling Potion":
                boxed.append(card)
            else:
                decks[t["color"]].append(card)
    for color in cards.COLORS:
        rng.shuffle(decks[color])
    return decks, boxed


def available(state: State, color: str) -> bool:
    """Whether a treasure of ``color`` can still be drawn (deck or discards to reshuffle)."""
    return bool(state["treasure_decks"][color] or state["discards"][color])


def available_colors(state: State) -> list[str]:
    """Colours that can still be drawn."""
    return [c for c in cards.COLORS if available(state, c)]


def draw(state: State, color: str, rng: GameRandom) -> str | None:
    """Draw one card of ``color``; when its deck is out, remove a Scroll from the discards and
    reshuffle them. ``None`` if that colour is gone entirely (deck and discards empty): then
    the player chooses another colour (see :func:`draw_to_hand`)."""
    if not state["treasure_decks"][color] and state["discards"][color]:
        _reshuffle(state, color, rng)
    deck = state["treasure_decks"][color]
    return deck.pop() if deck else None


def substitute(seat: int, color: str, into: str) -> dict[str, Any]:
    """The decision "that colour is gone: choose another colour to draw instead"."""
    return {"kind": "substitute", "seat": seat, "missing": color, "into": into}


def _reshuffle(state: State, color: str, rng: GameRandom) -> None:
    discard = state["discards"][color]
    for card in discard:
        if cards.treasure(card)["category"] == "Scroll":
            discard.remove(card)
            state["treasures_removed"].append(card)
            break
    state["treasure_decks"][color] = rng.shuffled(discard)
    state["discards"][color] = []


def draw_to_hand(state: State, seat: int, color: str, rng: GameRandom,
                 follow: list[dict[str, Any]] | None = None) -> str | None:
    """Draw one treasure of ``color`` into ``seat``'s hand. If that colour is gone entirely,
    the player chooses another colour (rulebook: "Players should choose another color to draw
    instead"): the choice is queued (into ``follow`` if given, else on the stack)."""
    card = draw(state, color, rng)
    if card is not None:
        guild.player(state, seat)["hand"].append(card)
    elif available_colors(state):
        entry = substitute(seat, color, "hand")
        if follow is None:
            push(state, entry)
        else:
            follow.append(entry)
    return card


def discard(state: State, card: str) -> None:
    """Put a treasure face up on the discard pile of its colour."""
    state["discards"][cards.treasure(card)["color"]].append(card)


def sell_price(state: State, seat: int, card: str) -> int:
    """Coins for selling ``card`` (the Auctioneer pays 4 for Relics, Charms and Scrolls; its
    timing is "at any time during your turn", so not when selling down on another's turn)."""
    t = cards.treasure(card)
    price = t["sell"]
    if t["category"] in ("Relic", "Charm", "Scroll") and state["current"] == seat and (
        guild.has_specialist(state, seat, "Auctioneer")
    ):
        price = max(price, 4)
    return price


def can_sell(state: State, seat: int, card: str) -> bool:
    """Cards without a sell price cannot be sold by choice."""
    return sell_price(state, seat, card) > 0


def sell(state: State, seat: int, card: str) -> int:
    """Sell ``card`` from the hand to the bank; returns the coins gained."""
    price = sell_price(state, seat, card)
    p = guild.player(state, seat)
    p["hand"].remove(card)
    p["coins"] += price
    discard(state, card)
    return price


# -- effects ---------------------------------------------------------------------------


def _gain(resources: list[str]) -> Callable[[State, int, str, GameRandom], None]:
    def effect(state: State, seat: int, card: str, rng: GameRandom) -> None:
        for r in resources:
            guild.gain_resource(state, seat, r)

    return effect


def _map(state: State, seat: int, card: str, rng: GameRandom) -> None:
    push(state, {"kind": "map_discard", "seat": seat}, {"kind": "map_colors", "seat": seat})


def _spoiling(state: State, seat: int, card: str, rng: GameRandom) -> None:
    push(state, {"kind": "spoil", "seat": seat})


def _contract(state: State, seat: int, card: str, rng: GameRandom) -> None:
    push(state, {"kind": "contract", "seat": seat})


def _lucky(state: State, seat: int, card: str, rng: GameRandom) -> None:
    state["turn"]["lucky"] = True


def _fortune(state: State, seat: int, card: str, rng: GameRandom) -> None:
    state["turn"]["fortune"] += 1


def scroll_of_plenty(state: State, seat: int, both: bool = False) -> None:
    """2 resources of one type for you; 1 of their choice for the next player (or you)."""
    other = seat if both else guild.next_seat(state, seat)
    entries = [{"kind": "plenty", "seat": seat, "amount": 2}]
    if both or state["n"] > 1:
        entries.append({"kind": "plenty", "seat": other, "amount": 1})
    push(state, *entries)


def scroll_of_wonders(state: State, seat: int, both: bool = False) -> None:
    """1 coin and a treasure of your colour; the next player (or you) may pay 1 for another."""
    guild.player(state, seat)["coins"] += 1
    other = seat if both else guild.next_seat(state, seat)
    entries = [{"kind": "wonders", "seat": seat}]
    if both or state["n"] > 1:
        entries.append({"kind": "wonders_next", "seat": other, "exclude": None})
    push(state, *entries)


def scroll_of_riches(state: State, seat: int, both: bool = False) -> None:
    """4 coins for you, 2 for the next player (6 for you with the Warlock)."""
    guild.player(state, seat)["coins"] += 4
    if both:
        guild.player(state, seat)["coins"] += 2
    elif state["n"] > 1:
        guild.player(state, guild.next_seat(state, seat))["coins"] += 2


EFFECTS: dict[str, Callable[[State, int, str, GameRandom], None]] = {
    "Treasure Map": _map,
    "Spoiling Potion": _spoiling,
    "Secret Stash": _gain(["metal", "wood", "leather", "cloth"]),
    "Scroll of Plenty": lambda s, seat, c, r: scroll_of_plenty(s, seat),
    "Oak Branches": _gain(["wood"] * 3),
    "Mithril Bars": _gain(["metal"] * 3),
    "Dragon Hides": _gain(["leather"] * 3),
    "Contract": _contract,
    "Brilliant Diamonds": _gain(["gem"] * 2),
    "Bottle of Faerie Dust": _gain(["magic"] * 2),
    "Bolts of Silk": _gain(["cloth"] * 3),
    "Scroll of Wonders": lambda s, seat, c, r: scroll_of_wonders(s, seat),
    "Lucky Potion": _lucky,
    "Scroll of Riches": lambda s, seat, c, r: scroll_of_riches(s, seat),
    "Fortune Potion": _fortune,
}
"""Play effects keyed by treasure name (Relics, Charms, Coin Purse, Bag of Gold have none)."""

SCROLLS: dict[str, Callable[..., None]] = {
    "Scroll of Plenty": scroll_of_plenty,
    "Scroll of Wonders": scroll_of_wonders,
    "Scroll of Riches": scroll_of_riches,
}


def can_play(state: State, seat: int, card: str) -> bool:
    """Whether ``card`` has an effect that can be played now."""
    name = cards.treasure_name(card)
    if name not in EFFECTS:
        return False
    if name == "Treasure Map":
        return len(guild.player(state, seat)["hand"]) >= 2 and bool(available_colors(state))
    if name == "Lucky Potion":
        return not state["turn"]["lucky"]
    if name == "Contract":
        from games.kings_guild import specialists

        return bool(specialists.hire_options(state, seat, expand=False))
    return True


def play(state: State, seat: int, card: str, rng: GameRandom) -> None:
    """Play ``card`` from the hand: discard it face up, then resolve its effect."""
    guild.player(state, seat)["hand"].remove(card)
    discard(state, card)
    EFFECTS[cards.treasure_name(card)](state, seat, card, rng)
