"""Which moves cannot be taken back: those that showed someone something hidden.

A take-back must never be a free look at hidden information (issue 8).  In the guild
economy hidden information comes to light in these ways:

* **King's seal values.**  The seal/bead tokens are shuffled at setup.  A token's value is
  hidden in the seal supply, on the Noble scrolls and among a player's seals (even from
  the owner, A-47); it shows on the rosary, on the chickens, as a player's bead and in the
  fists.  A token that moves from a hidden place to a shown one turns up its value: a
  flip onto the rosary (Noble push, Monk pull), the rosary bead of the patronage mandate,
  the refill of the rosary and chickens at the dawn of epoch III.
* **Royal Writs.**  The deck is shuffled at setup.  Drawing (Explore, a pull's reward)
  shows cards to the drawer.  Any writ that someone sees after the move and the mover
  could not see before it (the deck, other players' hands and draws) counts, which also
  covers the other players' sealed charters shown when the game ends.
* **Other players' secret choices.**  The last selection of a round reveals everyone's
  boost and card count; a pick opens the fists that another player filled.

Randomness drawn at move time (haversack draws for harvests, the barn refill and the
patronage goods, new vessels, the overflow order of a farm sent to the barn, the progress
roll at the end of every round) is on the move's tape, which the platform refuses already.

The checks compare whole hidden zones before and after the move rather than listing move
types, so a reveal that happens as a consequence (end of round, dawn, end of game) is
caught as well.  Anything the checks do not recognise as hidden counts as shown, so a new
place for tokens errs on the side of refusing the take-back.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import views
from games.feudum_guilds.components import WRITS
from games.text import T

State = dict[str, Any]
Move = dict[str, Any]

WRIT_NAMES = {w["name"]: wid for wid, w in WRITS.items()}


def reveals(before: State, after: State, seat: int, move: Move) -> str | None:
    """Why ``move`` by ``seat`` cannot be taken back, or None if it showed nothing hidden."""
    for check in (_turned_up_seals, _showed_writs, _revealed_selections, _opened_fists):
        reason = check(before, after, seat)
        if reason:
            return reason
    return None


# -- king's seals ------------------------------------------------------------------------


def hidden_tokens(state: State) -> set[int]:
    """Seal tokens whose value no view shows: supply, scrolls and players' seals."""
    hidden = set(state["seal_supply"]) | {t for t in state["scrolls"] if t is not None}
    for p in state["ps"]:
        hidden |= set(p["seals"])
    return hidden


def _turned_up_seals(before: State, after: State, seat: int) -> str | None:
    shown_after = set(range(len(after["tokens"]))) - hidden_tokens(after)
    turned = hidden_tokens(before) & shown_after
    if not turned:
        return None
    return ("it turned up the value of a king's seal" if len(turned) == 1
            else "it turned up the values of king's seals")


# -- Royal Writs -------------------------------------------------------------------------


def _writs_in(state: State, viewer: int | None) -> set[str]:
    """Every Royal Writ that ``viewer``'s view names, by id or by printed name."""
    # A player may be called "Bow" or "C1": player names never name a writ.
    names = {p["name"] for p in state["ps"]}
    found: set[str] = set()
    todo: list[Any] = [views.view(state, viewer)]
    while todo:
        data = todo.pop()
        if isinstance(data, dict):
            todo.extend(data.values())
        elif isinstance(data, list):
            todo.extend(data)
        elif isinstance(data, str) and data not in names:
            if data in WRITS:
                found.add(data)
            elif data in WRIT_NAMES:
                found.add(WRIT_NAMES[data])
    return found


def _viewers(state: State) -> list[int | None]:
    return [None, *range(state["n"])]


def _writ_places(state: State) -> list[Any]:
    """Everything a view may show writs from (a cheap test that no writ moved or surfaced)."""
    keeps = [dec for dec in state["stack"] if dec["kind"] == "writ_keep"]
    on_top = bool(keeps) and state["stack"][-1] is keeps[-1]
    return [state["writ_deck"], state["outcome"], [(p["hand"], p["sealed"]) for p in state["ps"]],
            keeps, on_top]


def _showed_writs(before: State, after: State, seat: int) -> str | None:
    """Someone now sees a writ that the mover could not see before the move."""
    if _writ_places(before) == _writ_places(after):
        return None
    deck = before["writ_deck"]
    if after["writ_deck"][:len(deck)] != deck:
        # Cards only ever leave the deck from the top, by a draw (returns go to the bottom).
        return T("it drew Royal Writs")
    unseen = set(WRITS) - _writs_in(before, seat)
    for viewer in _viewers(after):
        # Building a view is the costly part: the one before the move is needed only when
        # the view after it shows a writ the mover had not seen.
        shown = _writs_in(after, viewer) & unseen
        if not shown or not shown - _writs_in(before, viewer):
            continue
        if after["outcome"] and not before["outcome"]:
            return T("it ended the game and showed the other players' sealed charters")
        return T("it showed Royal Writs that were hidden")
    return None


# -- other players' secret choices ---------------------------------------------------------


def _revealed_selections(before: State, after: State, seat: int) -> str | None:
    """Another seat's boost and cards are secret during the selection, public after it."""
    if before["phase"] != "select" or after["phase"] == "select":
        return None
    if any(p["boost"] is not None for s, p in enumerate(before["ps"]) if s != seat):
        return T("it revealed the other players' secret card selections")
    return None


def _closed_fists(state: State, seat: int) -> list[dict]:
    """Fists filled by another player whose two beads differ (else nothing is hidden)."""
    values = state["tokens"]
    return [dec for dec in state["stack"]
            if dec["kind"] == "fist_pick" and dec["divider"] != seat
            and values[dec["fists"][0]] != values[dec["fists"][1]]]


def _opened_fists(before: State, after: State, seat: int) -> str | None:
    still_closed = _closed_fists(after, seat)
    for dec in _closed_fists(before, seat):
        if dec not in still_closed:
            return T("it opened the fists that %(name)s filled",
                     name=before["ps"][dec["divider"]]["name"])
    return None
