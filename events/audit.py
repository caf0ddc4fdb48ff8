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
from events.envelope import Event
from events.replay import Replayer
from events.store import EventStore
from games.rng import RecordingRandom, commitment, seed_for


@dataclass(frozen=True)
class TapeAudit:
    ok: bool
    checked: int  # events whose tape was re-derived
    problem: str = ""
    sealed: int = 0  # events of epochs whose secret this log does not reveal


def epochs(events: list[Event]) -> list[tuple[int, str]]:
    """``(first version, commitment)`` of each epoch of the log, in order.

    An epoch is the stretch of the log played with one secret: from GameCreated, from a
    Forked (a fork deals with a secret of its own), and from a Rewound that had to
    commit a new secret because the old one was already revealed."""
    found = []
    for event in events:
        committed = event.data.get("commitment") if event.type in (
            ev.GAME_CREATED, ev.FORKED, ev.REWOUND) else None
        if committed:
            found.append((event.version, committed))
    return found


def audit_tapes(store: EventStore, game_id: str) -> TapeAudit:
    """Check every tape of a finished game against the secrets revealed in its log.

    Each epoch is checked with its own secret.  Events of an epoch whose secret the log
    does not reveal (the part a fork copied from a game still running) are counted as
    ``sealed``; the epoch in force must have been revealed (the game ended)."""
    events = store.read(game_id)
    revealed = {}
    for event in events:
        if event.type == ev.GAME_ENDED:
            secret = bytes.fromhex(event.data["secret"])
            revealed[commitment(secret)] = secret
    marks = epochs(events)
    committed = {c for _, c in marks}
    if any(c not in committed for c in revealed):
        return TapeAudit(False, 0, "the revealed secret does not match the commitment")
    if not marks or marks[-1][1] not in revealed:
        return TapeAudit(False, 0, "the game has not ended: its secret is still sealed")
    try:
        return _check_epochs(store, game_id, marks, revealed)
    except Exception as exc:  # a log that does not even fold fails its audit, loudly
        return TapeAudit(False, 0, f"the events do not fold: {type(exc).__name__}: {exc}")


def _check_epochs(store: EventStore, game_id: str, marks: list[tuple[int, str]],
                  revealed: dict[str, bytes]) -> TapeAudit:
    checked = sealed = 0
    epoch = 0
    for table, event in Replayer(store).walk(game_id):
        while epoch + 1 < len(marks) and marks[epoch + 1][0] < event.version:
            epoch += 1
        if event.type not in (ev.GAME_CREATED, ev.MOVE_PLAYED):
            continue
        secret = revealed.get(marks[epoch][1])
        if secret is None:
            sealed += 1
            continue
        rng = RecordingRandom(seed_for(secret, event.version))
        if event.type == ev.GAME_CREATED:
            game = _game(event.data["kind"]).for_rules(event.data["rules_version"])
            game.setup(list(event.data["names"]), copy.deepcopy(event.data["options"]), rng)
        else:
            assert table is not None
            table.game.apply(copy.deepcopy(table.state), event.data["seat"],
                             copy.deepcopy(event.data["move"]), rng)
        if rng.tape != event.tape:
            return TapeAudit(False, checked,
                             f"event {event.version}: the draws differ from the secret's",
                             sealed)
        checked += 1
    return TapeAudit(True, checked, "", sealed)


def _game(kind: str):
    from games import registry
    return registry.get(kind)


def cached_audit(store: EventStore, game_id: str) -> TapeAudit:
    """The audit of a finished game, computed once (its log no longer changes... unless
    an admin rewinds it, so the cache is keyed by the log's version)."""
    version = store.version(game_id)
    cached = store.get_json(game_id, "audit")
    if cached and cached.get("version") == version:
        return TapeAudit(cached["ok"], cached["checked"], cached["problem"],
                         cached.get("sealed", 0))
    result = audit_tapes(store, game_id)
    store.put_json(game_id, "audit", {"version": version, "ok": result.ok,
                                      "checked": result.checked, "problem": result.problem,
                                      "sealed": result.sealed})
    return result
