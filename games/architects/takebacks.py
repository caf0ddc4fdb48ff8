"""Which moves may be taken back: none that showed anyone a card its mover could not see.

Hidden information in this game, and how it comes to light without the move's tape:

* the Building pile (``deck``): Building plans at the Workshop or Black Market B, the
  Drafting Room, Reward cards and Apprentices that give cards, Caroline, Clovis, and the
  characters' extra cards when the draft ends;
* the Apprentice deck (``app_deck``): every Workshop refill (a hire, a Tavern, the
  Guildhall cull, the opponent's Workshop step);
* the Reward cards (``rewards``): each Cathedral level;
* the Small Market pile below its face-up top (``bm_small``): a Black Market Reset turns
  the top card over, showing the next;
* the Byzantine opponent's Scheme deck: it plays its top card after each human turn;
* other seats' hidden cards: the draft pools passed on once every seat has kept a card
  (showing what the neighbour kept), and any other seat's hand.

Reshuffles (an empty Small Market, the opponent's deck, the Future Schemes) draw at move
time, so their tape already makes the move final.

Two independent checks, so that a new way of drawing is caught without being listed:
the face-down piles lost cards from the top, or some seat's ``view`` shows a card that
neither it nor the mover could see before the move.  What a view shows is read straight
from the state (``seen_by``) rather than by building every seat's view twice per move,
which cost ten times the move itself; a test holds ``seen_by`` to ``seen(view)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from games.protocol import State
from games.text import T, Text

# Face-down piles, drawn from the front: (reason, key path, face-up cards at the front).
# A move may do several (a Reward card that gives a Building card); the first is named.
PILES: tuple[tuple[Text, tuple[str, ...], int], ...] = (
    (T("it turned up a Reward card"), ("rewards",), 0),
    (T("it turned up the next Small Market card"), ("bm_small",), 1),
    (T("it turned up a new Apprentice from the deck"), ("app_deck",), 0),
    (T("it drew from the Building pile"), ("deck",), 0),
    (T("it turned up the Byzantine opponent's next Scheme card"), ("automaton", "deck"), 0),
)


def reveals(before: State, after: State, seat: int) -> str | None:
    """Why the move from ``before`` to ``after`` by ``seat`` cannot be taken back, or None."""
    for reason, path, face_up in PILES:
        old, new = _pile(before, path), _pile(after, path)
        if old is not None and new is not None and drawn_from_top(old[face_up:], new[face_up:]):
            return reason
    return _newly_seen(before, after, seat)


def drawn_from_top(before: list[Any], after: list[Any]) -> int:
    """How many cards left the front of a pile (cards put under it do not count).

    Any other change (a reshuffle, whose tape makes the move final anyway) counts as the
    cards above the longest unchanged tail drawn.
    """
    for k in range(len(before) + 1):
        rest = before[k:]
        if after[:len(rest)] == rest:
            return k
    return len(before)  # pragma: no cover - k = len(before) always matches


def _pile(state: State, path: tuple[str, ...]) -> list[Any] | None:
    node: Any = state
    for key in path:
        if not isinstance(node, dict) or node.get(key) is None:
            return None
        node = node[key]
    return node


def seen(view: dict[str, Any]) -> set[tuple[str, int]]:
    """Every card a view shows face up, as (kind, id)."""
    out: set[tuple[str, int]] = set()

    def add(kind: str, ids: Iterable[Any]) -> None:
        out.update((kind, c) for c in ids if isinstance(c, int) and not isinstance(c, bool))

    for pl in view["players"]:
        add("building", pl["hand"])
        add("building", pl["buildings"])
        add("apprentice", pl["apprentices"])
    if view.get("draft"):
        for pool in view["draft"]["pools"]:
            if isinstance(pool, list):
                add("building", pool)
    pend = view.get("pending")
    if pend and isinstance(pend.get("cards"), list):
        add("building", pend["cards"])
    add("apprentice", (c for row in view["workshop"] for c in row))
    add("reward", view["rewards_used"])
    add("market", (view["bm_small"]["top"], view["bm_large"]["top"]))
    auto = view.get("automaton")
    if auto:
        add("scheme", [*auto["discard"], auto["last"]])
    return out


def seen_by(state: State, seat: int) -> set[tuple[str, int]]:
    """``seen(game.view(state, seat))``, without building the view: the cards every seat
    sees plus the ones only ``seat`` does."""
    return public_cards(state) | private_cards(state, seat)


def public_cards(state: State) -> set[tuple[str, int]]:
    """Every card that every seat's view shows face up."""
    out: set[tuple[str, int]] = set()
    for pl in state["players"]:
        _add(out, "building", pl["buildings"])
        _add(out, "apprentice", pl["apprentices"])
    pend = state.get("pending")
    if pend and isinstance(pend.get("cards"), list) and pend["kind"] != "keep":
        _add(out, "building", pend["cards"])
    _add(out, "apprentice", (c for row in state["workshop"] for c in row))
    _add(out, "reward", state["rewards_used"])
    _add(out, "market", (pile[0] for pile in (state["bm_small"], state["bm_large"]) if pile))
    auto = state.get("automaton")
    if auto:
        _add(out, "scheme", [*auto["discard"], auto["last"]])
    return out


def private_cards(state: State, seat: int) -> set[tuple[str, int]]:
    """The cards only ``seat``'s view shows: its hand, its draft pool, and the five plans
    of the Black Market B while it is the one keeping one."""
    out: set[tuple[str, int]] = set()
    _add(out, "building", state["players"][seat]["hand"])
    if state.get("draft"):
        pool = state["draft"]["pools"][seat]
        if isinstance(pool, list):
            _add(out, "building", pool)
    pend = state.get("pending")
    if pend and isinstance(pend.get("cards"), list) and pend["kind"] == "keep" \
            and seat == state["current"]:
        _add(out, "building", pend["cards"])
    return out


def _add(out: set[tuple[str, int]], kind: str, ids: Iterable[Any]) -> None:
    # The state is JSON, so ``type(c) is int`` is ``seen``'s "an int, not a bool" (None
    # marks an empty slot); a list is built rather than a generator because it is faster.
    out.update([(kind, c) for c in ids if type(c) is int])


WHERE = {
    "deck": T("it drew from the Building pile"),
    "draft": T("it passed the draft cards on, showing what the others kept"),
    "hand": T("it showed another player's Building cards"),
    "app_deck": T("it turned up a new Apprentice from the deck"),
    "rewards": T("it turned up a Reward card"),
    "bm_small": T("it turned up the next Small Market card"),
    "automaton": T("it turned up the Byzantine opponent's next Scheme card"),
}


def _newly_seen(before: State, after: State, seat: int) -> str | None:
    """A card some seat sees after the move that neither it nor the mover saw before."""
    public_before, public_after = public_cards(before), public_cards(after)
    mover_knew = public_before | private_cards(before, seat)
    for viewer in range(before["n"]):
        new = (public_after | private_cards(after, viewer)) - mover_knew
        if viewer != seat:
            new -= public_before | private_cards(before, viewer)
        if new:
            kind, cid = min(new)
            return WHERE.get(_where(before, kind, cid),
                             T("it showed a hidden %(kind)s card", kind=kind))
    return None


def _where(state: State, kind: str, cid: int) -> str:
    """The hidden place a card was in (a key of ``WHERE``), or '' if not found."""
    for place, cards in _hidden_places(state, kind):
        if cid in cards:
            return place
    return ""


def _hidden_places(state: State, kind: str) -> Iterator[tuple[str, list[Any]]]:
    if kind == "building":
        yield "deck", state["deck"]
        if state.get("draft"):
            for pool in state["draft"]["pools"]:
                yield "draft", pool
        for pl in state["players"]:
            yield "hand", pl["hand"]
    elif kind == "apprentice":
        yield "app_deck", state["app_deck"]
    elif kind == "reward":
        yield "rewards", state["rewards"] + state["rewards_box"]
    elif kind == "market":
        yield "bm_small", state["bm_small"]
    elif kind == "scheme" and state.get("automaton"):
        yield "automaton", state["automaton"]["deck"] + state["automaton"]["future"]
