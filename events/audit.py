"""Did the shuffle cheat?  Re-deriving every random draw from the revealed secret.

While a game runs, each event's randomness comes from HMAC(secret, version) and is stored
on the event's tape; the first event publishes SHA-256(secret).  Once GameEnded reveals
the secret, anyone can check that (1) it matches the commitment, and (2) replaying every
event with a generator seeded from it hands out exactly the recorded tape.  A server that
had picked convenient cards instead of honest draws fails (2).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from events import envelope as ev
from events.replay import Replayer, Table
from events.store import EventStore
from games.rng import RecordingRandom, commitment, seed_for


@dataclass(frozen=True)
class TapeAudit:
    ok: bool
    checked: int  # events whose tape was re-derived
    problem: str = ""


def audit_tapes(store: EventStore, game_id: str) -> TapeAudit:
    """Check every tape of a finished game against its revealed secret."""
    events = store.read(game_id)
    ended = [e for e in events if e.type == ev.GAME_ENDED]
    if not ended:
        return TapeAudit(False, 0, "the game has not ended: its secret is still sealed")
    secret = bytes.fromhex(ended[-1].data["secret"])
    # a fork starts a new secret: only the events after the last fork are this secret's
    forks = [e.version for e in events if e.type == ev.FORKED]
    first = forks[-1] + 1 if forks else 1
    sealed = next((e.data["commitment"] for e in reversed(events)
                   if e.type in (ev.FORKED, ev.GAME_CREATED)), "")
    if commitment(secret) != sealed:
        return TapeAudit(False, 0, "the revealed secret does not match the commitment")
    replayer = Replayer(store)
    table: Table | None = None
    checked = 0
    for event in events:
        if event.version >= first and event.type in (ev.GAME_CREATED, ev.MOVE_PLAYED):
            rng = RecordingRandom(seed_for(secret, event.version))
            if event.type == ev.GAME_CREATED:
                game = _game(event.data["kind"])
                game.setup(list(event.data["names"]), copy.deepcopy(event.data["options"]), rng)
            else:
                assert table is not None
                table.game.apply(copy.deepcopy(table.state), event.data["seat"],
                                 copy.deepcopy(event.data["move"]), rng)
            if rng.tape != event.tape:
                return TapeAudit(False, checked,
                                 f"event {event.version}: the draws differ from the secret's")
            checked += 1
        table = replayer.evolve(table, game_id, event)
    return TapeAudit(True, checked)


def _game(kind: str):
    from games import registry
    return registry.get(kind)


def cached_audit(store: EventStore, game_id: str) -> TapeAudit:
    """The audit of a finished game, computed once (its log no longer changes... unless
    an admin rewinds it, so the cache is keyed by the log's version)."""
    version = store.version(game_id)
    cached = store.get_json(game_id, "audit")
    if cached and cached.get("version") == version:
        return TapeAudit(cached["ok"], cached["checked"], cached["problem"])
    result = audit_tapes(store, game_id)
    store.put_json(game_id, "audit", {"version": version, "ok": result.ok,
                                      "checked": result.checked, "problem": result.problem})
    return result
