"""What a rewind would undo that the players themselves could never take back.

Players take back a move by agreement (:meth:`events.gameplay.GameService.request_undo`),
and the rules refuse that for a move that drew at random or revealed hidden information
(:meth:`~events.gameplay.GameService.why_final`, the one predicate for it), and for
anything once the game is over.  A time-out is the clock's doing, not a move anyone could
ask to take back.  An admin rewind can undo all of these; the admin's confirmation page
lists each one (service.admin) so that it is undone on purpose, not by accident.
"""

from __future__ import annotations

from dataclasses import dataclass

from events import envelope as ev
from events import history
from events.envelope import Event
from events.gameplay import GameService
from events.replay import surviving
from games.text import T

GAME_OVER = T("the game was over and its secret revealed (play goes on with a new secret)")
TIME_OUT = T("a time-out is the clock's doing, not a move anyone can take back")


@dataclass(frozen=True)
class Irreversible:
    """One event a rewind would undo that players could not have taken back."""

    version: int
    type: str
    text: str  # its history line, as a spectator reads it
    reason: str  # why players could not take it back


def why_irreversible(games: GameService, game_id: str, event: Event) -> str | None:
    """Why players could never take ``event`` back (None: they could, or it is not a
    change of the game): the take-back rules' own reason for a move, the end of the game,
    a time-out."""
    if event.type == ev.MOVE_PLAYED:
        return games.why_final(game_id, event)
    if event.type == ev.GAME_ENDED:
        return GAME_OVER
    if event.type == ev.TIMED_OUT:
        return TIME_OUT
    return None


def standing_after(games: GameService, game_id: str, to: int) -> list[Event]:
    """The events after version ``to`` that the game's current state is made of (what
    a rewind to ``to`` undoes), oldest first: the same walk loading a game does
    (:func:`events.replay.surviving`), so moves an earlier rewind took back are not
    counted twice.  Passive events (a time-out) are among them."""
    store = games.store
    floor, events = to, store.read(game_id, to + 1)
    while events:
        chain = surviving(events, floor)
        if chain is not None:
            return [e for e in chain if e.version > to]
        floor = min(e.data["to"] for e in events if e.type == ev.REWOUND and
                    e.data["to"] < floor)
        events = store.read(game_id, floor + 1)
    return []


def irreversible(games: GameService, game_id: str, to: int) -> list[Irreversible]:
    """Every event a rewind of ``game_id`` to version ``to`` would undo that players
    could not take back, oldest first, with its history line (spectator's redaction)."""
    table = games.load(game_id)
    out = []
    for event in standing_after(games, game_id, to):
        reason = why_irreversible(games, game_id, event)
        if reason is None:
            continue
        text = history.describe(event, table.game, table.names, None)
        if event.type == ev.MOVE_PLAYED and event.data.get("final"):
            # the line says it already; the sentence says it once
            text = text.removesuffix(f" (cannot be taken back: {event.data['final']})")
        out.append(Irreversible(event.version, event.type, text, reason))
    return out
