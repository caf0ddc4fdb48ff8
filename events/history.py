"""One readable line per event, redacted for the viewer (the rules redact moves)."""

from __future__ import annotations

from events import envelope as ev
from events.envelope import Event
from events.store import EventStore
from games.protocol import Game


def describe(event: Event, game: Game, names: list[str], seat: int | None) -> str:
    """The log line ``seat`` (None: spectator or admin view without secrets) may read."""
    d = event.data
    if event.type == ev.MOVE_PLAYED:
        text = game.describe({"version": event.version, "actor": d["seat"],
                              "data": {"move": d["move"]}, "names": names}, seat)
        if d.get("auto"):
            text = f"{played_for(names[d['seat']], d['auto'])}: {text}"
        return f"{text} (cannot be taken back: {d['final']})" if d.get("final") else text
    if event.type == ev.GAME_CREATED:
        return (f"{game.name} set up for {', '.join(d['names'])}; "
                f"secret commitment {d['commitment'][:16]}…")
    if event.type == ev.GAME_ENDED and d.get("early"):
        who = ", ".join(names[s] for s in d["outcome"].get("seats", []))
        return (f"Game over: {d['early']}{' (' + who + ')' if who else ''}. "
                f"Secret revealed: {d['secret']}")
    if event.type == ev.GAME_ENDED:
        winner = (d.get("outcome") or {}).get("winner")
        return f"Game over. {winner + ' ' if winner else ''}Secret revealed: {d['secret']}"
    if event.type == ev.REWOUND:
        reason = f" ({d['reason']})" if d.get("reason") else ""
        epoch = (f"; new secret commitment {d['commitment'][:16]}… (the old secret is "
                 "public)") if d.get("commitment") else ""
        return f"Rewound to move {d['to']} by {d['by']}{reason}{epoch}"
    if event.type == ev.FORKED:
        return f"Forked from game {d['from']} at move {d['at']}"
    if event.type == ev.RULES_MIGRATED:
        return f"Rules changed from version {d['from']} to {d['to']} by {d['by']}"
    if event.type == ev.ADMIN_NOTE:
        return f"Note: {d['text']}"
    if event.type == ev.REMINDER_SENT:
        return f"Reminder sent to {names[d['seat']]}"
    if event.type == ev.DEADLINE_SET:
        return f"Deadline set for {names[d['seat']]}: {d['deadline']}"
    if event.type == ev.UNDO_REQUESTED:
        return f"{names[d['seat']]} asks to take back their last move"
    if event.type == ev.UNDO_ANSWERED:
        return f"{names[d['seat']]} {'allows' if d['accept'] else 'refuses'} the take-back"
    if event.type == ev.TIMED_OUT:
        return f"{names[d['seat']]} ran out of time{TIMEOUT_NOTES.get(d.get('policy'), '')}" \
            + ("; this game has no pass, so it waits" if d.get("no_pass") else "")
    if event.type == ev.VACATION_DECLARED:
        return f"{names[d['seat']]} will be away from {d['from']} until {d['until']}"
    if event.type == ev.BOT_SEATED:
        return (f"A stand-in plays for {names[d['seat']]} from now on "
                f"({d.get('after', 'several')} time-outs in a row)")
    if event.type == ev.BOT_UNSEATED:
        return f"{names[d['seat']]} is back; the stand-in stops playing for them"
    return event.type


TIMEOUT_NOTES = {"wait": "; the game waits", "skip": "; the turn is passed",
                 "auto": "; a move is played for them", "bot": "; a move is played for them",
                 "forfeit": "; they forfeit"}


def played_for(name: str, auto: str) -> str:
    """How the history says a move was played for a player (``data.auto``)."""
    return f"played for {name}: time ran out" if auto == "timeout" else \
        f"played for {name} by the stand-in"


def lines(store: EventStore, game_id: str, game: Game, names: list[str],
          seat: int | None, last: int | None = None) -> list[dict]:
    """The history (or its ``last`` events) as ``{"version", "type", "at", "actor",
    "text"}`` for ``seat``, oldest first."""
    events = store.iter(game_id) if last is None else reversed(store.latest(game_id, last))
    return [{"version": e.version, "type": e.type, "at": e.at, "actor": e.actor,
             "text": describe(e, game, names, seat)} for e in events]


PAGE_LIMIT = 100  # events per history page by default
MAX_PAGE_LIMIT = 500


def page(store: EventStore, game_id: str, game: Game, names: list[str], seat: int | None,
         before: int | None = None, limit: int = PAGE_LIMIT) -> tuple[list[dict], int | None]:
    """The ``limit`` events just before version ``before`` (default: the latest), as
    :func:`lines` gives them, oldest first, and the ``before`` of the page before this
    one (None at the first event).  One XREVRANGE of ``limit`` entries, so a page costs
    the same at version 100 as at 10,000."""
    end = None if before is None else before - 1
    events = store.latest(game_id, limit, end=end) if end is None or end >= 1 else []
    out = [{"version": e.version, "type": e.type, "at": e.at, "actor": e.actor,
            "text": describe(e, game, names, seat)} for e in reversed(events)]
    first = out[0]["version"] if out else None
    return out, (first if first is not None and first > 1 else None)
