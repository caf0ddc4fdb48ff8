"""One readable line per event, redacted for the viewer (the rules redact moves).

A line whose event a later ``Rewound`` cut off (a move taken back, or everything after
the version an admin rewound to) is flagged ``undone``: it stays in the history, since
nothing is ever deleted, and pages show it struck through.  Which events survive is
decided by :func:`events.replay.surviving`, the same walk that loading a game does.
"""

from __future__ import annotations

import json
from typing import Any

from events import envelope as ev
from events import votes
from events.envelope import Event
from events.replay import surviving
from events.store import EventStore, key
from games.protocol import Game
from games.text import P, T


def describe(event: Event, game: Game, names: list[str], seat: int | None,
             hidden: bool = False) -> str:
    """The log line ``seat`` (None: spectator or admin view without secrets) may read.
    ``hidden``: the event is a message (Said) that the admin hid since (see
    :func:`hidden_messages`); its text is then left out.  The line is a
    :class:`~games.text.Text`: English, and translatable where its reader is known."""
    d = event.data
    if event.type == ev.MOVE_PLAYED:
        text = game.describe({"version": event.version, "actor": d["seat"],
                              "data": {"move": d["move"]}, "names": names}, seat)
        if d.get("auto") == "forced":  # see worker.forced
            text = T("Played for %(name)s: the only move. %(move)s", name=names[d["seat"]],
                     move=text)
        elif d.get("auto"):  # a late player's (worker.timeouts)
            text = T("%(how)s: %(move)s", how=played_for(names[d["seat"]], d["auto"]),
                     move=text)
        return T("%(move)s (cannot be taken back: %(why)s)", move=text, why=d["final"]) \
            if d.get("final") else text
    if event.type == ev.GAME_CREATED:
        return T("%(game)s set up for %(names)s; secret commitment %(commitment)s…",
                 game=game.name, names=", ".join(d["names"]),
                 commitment=d["commitment"][:16])
    if event.type == ev.GAME_ENDED and d.get("early") and d["outcome"].get("vote"):
        return T("Game over: %(how)s by a vote (%(yes)s). Secret revealed: %(secret)s",
                 how=d["early"], yes=", ".join(names[s] for s in d["outcome"]["vote"]["yes"]),
                 secret=d["secret"])
    if event.type == ev.VOTE_CALLED:
        return T("%(name)s proposes to %(what)s; the vote is open until %(until)s UTC",
                 name=names[d["seat"]], what=votes.WHAT.get(d["kind"], d["kind"]),
                 until=d["expires"][:16].replace("T", " "))
    if event.type == ev.VOTE_CAST:
        what = votes.WHAT_SHORT.get(d.get("kind", ""), T("the proposal"))
        return T("%(name)s agrees to %(what)s", name=names[d["seat"]], what=what) \
            if d["accept"] else \
            T("%(name)s refuses to %(what)s: the vote is over", name=names[d["seat"]],
              what=what)
    if event.type == ev.GAME_ENDED and d.get("early"):
        who = ", ".join(names[s] for s in d["outcome"].get("seats", []))
        if who:
            return T("Game over: %(how)s (%(who)s). Secret revealed: %(secret)s",
                     how=d["early"], who=who, secret=d["secret"])
        return T("Game over: %(how)s. Secret revealed: %(secret)s", how=d["early"],
                 secret=d["secret"])
    if event.type == ev.GAME_ENDED:
        winner = (d.get("outcome") or {}).get("winner")
        if winner:
            return T("Game over. %(winner)s Secret revealed: %(secret)s", winner=winner,
                     secret=d["secret"])
        return T("Game over. Secret revealed: %(secret)s", secret=d["secret"])
    if event.type == ev.REWOUND:
        line = T("Rewound to move %(to)s by %(by)s (%(reason)s)", to=d["to"], by=d["by"],
                 reason=d["reason"]) if d.get("reason") else \
            T("Rewound to move %(to)s by %(by)s", to=d["to"], by=d["by"])
        if d.get("commitment"):
            return T("%(line)s; new secret commitment %(commitment)s… (the old secret is "
                     "public)", line=line, commitment=d["commitment"][:16])
        return line
    if event.type == ev.FORKED:
        return T("Forked from game %(game)s at move %(at)s", game=d["from"], at=d["at"])
    if event.type == ev.RULES_MIGRATED:
        return T("Rules changed from version %(old)s to %(new)s by %(by)s", old=d["from"],
                 new=d["to"], by=d["by"])
    if event.type == ev.ADMIN_NOTE:
        return T("Note: %(text)s", text=d["text"])
    if event.type == ev.SAID:  # table talk: the same line for every reader
        who = names[d["seat"]] if 0 <= d["seat"] < len(names) else \
            T("seat %(n)s", n=d["seat"] + 1)
        return T("%(who)s: %(text)s", who=who, text=HIDDEN_TEXT if hidden else d["text"])
    if event.type == ev.SAID_HIDDEN:
        if event.actor == "admin":
            return T("A message was hidden by the admin")
        return T("A message was hidden by %(by)s", by=event.actor)
    if event.type == ev.REMINDER_SENT:
        name = names[d["seat"]]
        return {"skipped": T("No reminder to %(name)s: they looked at the game within the "
                             "hour", name=name),
                "held": T("Reminder to %(name)s held until their quiet hours end", name=name),
                "none": T("No reminder email to %(name)s (muted or no address)", name=name),
                "failed": T("The reminder to %(name)s could not be sent", name=name)}.get(
                    d.get("outcome", "sent"), T("Reminder sent to %(name)s", name=name))
    if event.type == ev.DEADLINE_SET:
        return T("Deadline set for %(name)s: %(deadline)s", name=names[d["seat"]],
                 deadline=d["deadline"])
    if event.type == ev.UNDO_REQUESTED:
        return T("%(name)s asks to take back their last move", name=names[d["seat"]])
    if event.type == ev.UNDO_ANSWERED:
        return T("%(name)s allows the take-back", name=names[d["seat"]]) if d["accept"] \
            else T("%(name)s refuses the take-back", name=names[d["seat"]])
    if event.type == ev.TIMED_OUT:
        line = T("%(name)s ran out of time%(note)s", name=names[d["seat"]],
                 note=TIMEOUT_NOTES.get(d.get("policy"), ""))
        return T("%(line)s; this game has no pass, so it waits", line=line) \
            if d.get("no_pass") else line
    if event.type == ev.VACATION_DECLARED:
        return T("%(name)s will be away from %(start)s until %(end)s", name=names[d["seat"]],
                 start=d["from"], end=d["until"])
    if event.type == ev.BOT_SEATED:
        if "after" in d:
            return P("A stand-in plays for %(name)s from now on (%(n)s time-out in a row)",
                     "A stand-in plays for %(name)s from now on (%(n)s time-outs in a row)",
                     d["after"], name=names[d["seat"]])
        return T("A stand-in plays for %(name)s from now on (several time-outs in a row)",
                 name=names[d["seat"]])
    if event.type == ev.BOT_UNSEATED:
        return T("%(name)s is back; the stand-in stops playing for them",
                 name=names[d["seat"]])
    return event.type


HIDDEN_TEXT = T("(hidden by the admin)")  # what a hidden message shows (events.talk too)


def hidden_messages(events: list[Event]) -> set[int]:
    """The versions of the messages that a ``SaidHidden`` among ``events`` hides."""
    return {e.data.get("version") for e in events if e.type == ev.SAID_HIDDEN}


def describe_in_log(store: EventStore, game_id: str, event: Event, game: Game,
                    names: list[str], seat: int | None) -> str:
    """:func:`describe` of one event of the log, with a message the admin hid since
    shown as hidden (the log after a message is read for that: a scan)."""
    hidden = event.type == ev.SAID and event.version in hidden_messages(
        store.read(game_id, event.version + 1))
    return describe(event, game, names, seat, hidden=hidden)


TIMEOUT_NOTES = {"wait": T("; the game waits"), "skip": T("; the turn is passed"),
                 "auto": T("; a move is played for them"),
                 "bot": T("; a move is played for them"), "forfeit": T("; they forfeit")}


def played_for(name: str, auto: str) -> str:
    """How the history says a move was played for a player (``data.auto``)."""
    return T("played for %(name)s: time ran out", name=name) if auto == "timeout" else \
        T("played for %(name)s by the stand-in", name=name)


def undone(store: EventStore, game_id: str, events: list[Event]) -> set[int]:
    """The versions among ``events`` (consecutive versions up to the log's end) that a
    later ``Rewound`` cut off.  Only changes to the position count: a take-back
    request, a reminder or a note inside the cut-off stretch happened all the same.

    A rewind may reach back before ``events``: the log is then read further back, as far
    as the earliest rewind target met, so the cost is the stretch the rewinds span, not
    the whole log."""
    if not events:
        return set()
    floor = events[0].version - 1
    while True:
        lowest = min((e.data["to"] for e in events if e.type == ev.REWOUND), default=floor)
        if lowest >= floor:
            break
        events = [*store.read(game_id, lowest + 1, floor), *events]
        floor = lowest
    kept = {e.version for e in surviving(events, floor) or []}
    return {e.version for e in events
            if e.version not in kept and e.type not in ev.PASSIVE and e.type != ev.REWOUND}


def _line(e: Event, game: Game, names: list[str], seat: int | None,
          cut: set[int], hidden: set[int] = frozenset()) -> dict[str, Any]:
    return {"version": e.version, "type": e.type, "at": e.at, "actor": e.actor,
            "text": describe(e, game, names, seat, hidden=e.version in hidden),
            "undone": e.version in cut}


def lines(store: EventStore, game_id: str, game: Game, names: list[str],
          seat: int | None, last: int | None = None) -> list[dict]:
    """The history (or its ``last`` events) as ``{"version", "type", "at", "actor",
    "text", "undone"}`` for ``seat``, oldest first."""
    events = store.read(game_id) if last is None else store.latest(game_id, last)[::-1]
    cut = undone(store, game_id, events)
    hidden = hidden_messages(events)  # they run to the log's end: every SaidHidden after
    return [_line(e, game, names, seat, cut, hidden) for e in events]


NOT_A_FORK_SECONDS = 3600  # how long "not a fork" is remembered (a fork appends Forked last)


def forked_from(store: EventStore, game_id: str) -> dict[str, Any] | None:
    """``{"from": game id, "at": version}`` if the game is a fork, else None.

    A fork's log holds the events it copied (with its parent's own ``Forked`` if the
    parent was a fork too) and then its own ``Forked``: the latest one says.  The answer
    never changes once the fork is made, so it is kept beside the game; "not a fork" is
    kept only ``NOT_A_FORK_SECONDS``, in case it was asked while a fork was being copied.
    """
    cached = store.get_json(game_id, "forked_from")
    if cached is not None:
        return cached or None
    found = None
    for event in store.iter(game_id):
        if event.type == ev.FORKED:
            found = {"from": event.data["from"], "at": event.data["at"]}
    if found:
        store.put_json(game_id, "forked_from", found)
    else:
        store.redis.set(key(game_id, "forked_from"), json.dumps({}), ex=NOT_A_FORK_SECONDS)
    return found


PAGE_LIMIT = 100  # events per history page by default
MAX_PAGE_LIMIT = 500


def page(store: EventStore, game_id: str, game: Game, names: list[str], seat: int | None,
         before: int | None = None, limit: int = PAGE_LIMIT) -> tuple[list[dict], int | None]:
    """The ``limit`` events just before version ``before`` (default: the latest), as
    :func:`lines` gives them, oldest first, and the ``before`` of the page before this
    one (None at the first event).  The latest page is one XREVRANGE of ``limit``
    entries; an older page also reads the events after it, since a later rewind may
    have undone some of its moves."""
    end = None if before is None else before - 1
    events = store.latest(game_id, limit, end=end)[::-1] if end is None or end >= 1 else []
    later = store.read(game_id, end + 1) if events and end is not None else []
    cut = undone(store, game_id, events + later)
    hidden = hidden_messages(events + later)  # to the log's end: every SaidHidden after
    out = [_line(e, game, names, seat, cut, hidden) for e in events]
    first = out[0]["version"] if out else None
    return out, (first if first is not None and first > 1 else None)
