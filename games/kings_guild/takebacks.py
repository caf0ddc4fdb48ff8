"""Take-backs: which moves showed someone something hidden, so that they cannot be undone.

Hidden information in The King's Guild lies in a few *zones* (:func:`hidden_zones`): the three
face-down treasure decks, the face-down quest deck (except the two top cards the Oracle's
owner looks at on their turn), the face-down specialist deck, the cards left in the box at
setup, every other seat's hand and the treasures another seat drew from a shared quest but
has not split yet, and the other seats' sealed bids at the King's Funeral.  None of these is
dealt at move time from the rng: the decks were shuffled at setup, so a draw leaves the tape
empty and only this check stops it from becoming a free look (only the reshuffle of a
treasure discard pile uses the rng).

Rather than listing move types, :func:`reveals` compares the zones around a move: a move
cannot be taken back if anything that was hidden from its mover becomes visible to someone
who could not see it before, whether by the move itself or as a consequence
(a quest slot refilled, the solo conveyor, the stall breaker, the turn passing to the
Oracle's owner, the last sealed bid revealing them all).  The mover's own hand and own
undivided treasures made public do not count (the mover knew them).  The end of the game
is never taken back: the scores reveal what every hand holds, and the platform then
publishes the game's secret (every deck order).

Coins hidden while the Funeral bids are open are not a zone: they were public until the
Funeral card came up and nothing can change them until the bids are revealed.
"""

from __future__ import annotations

from typing import Any

from games.kings_guild import stall, views
from games.kings_guild.words import and_list
from games.text import T

State = dict[str, Any]
STALL_CHECK = T("it ended a turn at which the stall breaker's check looked at the hands")
Token = tuple[str, Any]
"""One hidden thing: ``("treasure", card)``, ``("quest", id)``, ``("specialist", id)`` or
``("bid", seat)``."""

GAME_ENDED = T("it ended the game (the final scores show every hand)")

_WHAT = {
    "treasure deck": T("drew a treasure card"),
    "quest deck": T("turned up the next quest card"),
    "oracle": T("showed the Oracle the next quest cards"),
    "specialist deck": T("turned up a new specialist"),
    "box": T("took a card out of the box"),
    "hand": T("revealed another player's treasure"),
    "bid": T("revealed the sealed bids"),
}
"""What a move did, by the zone a revealed token came from; the order is the reason's."""


def oracle_peek(state: State, seat: int | None) -> list[int]:
    """The quest cards on the deck that ``seat`` sees (the Oracle, as the view shows it;
    read straight from the state, since building the whole view for it cost more than
    the rest of the take-back check), and under rules 4 those it was shown on an earlier
    turn that still lie on the deck (``oracle_seen``: the owner knows them)."""
    peek = views.oracle_peek(state, seat)
    known = state.get("oracle_seen", {}).get(str(seat))
    if not known:
        return peek
    deck = set(state["quest_deck"])
    return sorted(set(peek) | {q for q in known if q in deck})


def hidden_parts(state: State) -> dict[str, Any]:
    """The parts of the state where hidden things lie: everything :func:`hidden_zones`
    reads, and nothing else (so a move that leaves them equal revealed nothing)."""
    funeral = state["funeral"]
    return {
        "treasure decks": state["treasure_decks"],
        "quest deck": state["quest_deck"],
        "oracle peeks": [oracle_peek(state, seat) for seat in range(state["n"])],
        "specialist deck": state["specialist_deck"],
        "box": (state["treasures_boxed"], state["quests_boxed"], state["specialists_boxed"]),
        "hands": [p["hand"] for p in state["guilds"]],
        "undivided": [(e["seat"], e["cards"]) for e in state["pending"]
                      if e["kind"] == "keep_treasure"],
        "bids": sorted(int(s) for s in funeral["bids"]) if funeral else [],
    }


def hidden_zones(state: State) -> dict[Token, tuple[str, frozenset[int]]]:
    """Every hidden thing, with the zone it lies in and the seats that can see it."""
    return _zones(hidden_parts(state))


def _zones(parts: dict[str, Any]) -> dict[Token, tuple[str, frozenset[int]]]:
    """:func:`hidden_zones` from the state's :func:`hidden_parts`."""
    nobody: frozenset[int] = frozenset()
    out: dict[Token, tuple[str, frozenset[int]]] = {}
    for deck in parts["treasure decks"].values():
        out.update((("treasure", c), ("treasure deck", nobody)) for c in deck)
    out.update((("quest", q), ("quest deck", nobody)) for q in parts["quest deck"])
    for seat, peek in enumerate(parts["oracle peeks"]):
        for q in peek:
            out[("quest", q)] = ("quest deck", out[("quest", q)][1] | {seat})
    out.update((("specialist", s), ("specialist deck", nobody)) for s in parts["specialist deck"])
    treasures_boxed, quests_boxed, specialists_boxed = parts["box"]
    out.update((("treasure", c), ("box", nobody)) for c in treasures_boxed)
    out.update((("quest", q), ("box", nobody)) for q in quests_boxed)
    out.update((("specialist", s), ("box", nobody)) for s in specialists_boxed)
    for seat, hand in enumerate(parts["hands"]):
        out.update((("treasure", c), ("hand", frozenset({seat}))) for c in hand)
    for seat, undivided in parts["undivided"]:
        out.update((("treasure", c), ("hand", frozenset({seat}))) for c in undivided)
    out.update((("bid", s), ("bid", frozenset({s}))) for s in parts["bids"])
    return out


def revealed(before: State, after: State, seat: int) -> dict[Token, str]:
    """What the move by ``seat`` from ``before`` to ``after`` showed to someone that the
    mover could not see before (and that someone could not either), with the zone it came
    from (``oracle``: still on the quest deck, now seen by the Oracle's owner)."""
    parts_before, parts_after = hidden_parts(before), hidden_parts(after)
    if parts_before == parts_after:
        # Nine moves in ten (gathering, discarding, most ends of turn) touch no hidden
        # part: the zones are then equal, and comparing the parts costs far less than
        # listing every hidden card twice.
        return {}
    was = _zones(parts_before)
    now = _zones(parts_after)
    out: dict[Token, str] = {}
    for token, (zone, seers) in was.items():
        if seat in seers:
            continue
        if token not in now:
            out[token] = zone
        elif now[token][1] - seers:
            out[token] = "oracle" if now[token][0] == "quest deck" else zone
    return out


def reveals(before: State, after: State, seat: int) -> str | None:
    """Why the move by ``seat`` from ``before`` to ``after`` cannot be taken back, or None."""
    if after["over"] and not before["over"]:
        return GAME_ENDED
    if stall.check_used_hands(before, after) or stall.frozen_check_used_hands(before, after):
        return STALL_CHECK
    zones = set(revealed(before, after, seat).values())
    if not zones:
        return None
    return T("it %(what)s", what=and_list([what for zone, what in _WHAT.items()
                                            if zone in zones]))
