"""The game clocks as the worker keeps them: folded from the log, the per-game read model
the projection writes, and the RQ jobs that fire them.

The clocks themselves (time controls, reminders, what is due when) are
:mod:`events.clocks`; firing what is due, and what a time-out does, is
:mod:`worker.timeouts`.  The jobs are enqueued here by their names in :mod:`worker.jobs`
(``worker.jobs.time_out``, ...), which imports this module.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from events import envelope as ev
from events.clocks import ClockFold, fold
from events.store import key
from worker.runtime import Runtime

# RQ keeps a scheduled time in whole seconds (rounded down): a job scheduled for the
# exact due time may run a fraction of a second early, find nothing due, and leave the
# time-out to the sweep.  So jobs are scheduled this much after it.
LATE = 1.0
CLOCK_KEY = "clock"  # per-game read model: the ClockFold state at the projected version


def legacy_hours(rt: Runtime, game_id: str) -> float | None:
    """The ``deadline_hours`` side setting of a game created before time controls."""
    return (rt.store.get_json(game_id, "settings") or {}).get("deadline_hours")


def clocks_of(rt: Runtime, game_id: str) -> ClockFold:
    """The game's clocks at the log's latest version.

    Folded on from the clocks read model (the projection's fold at the version it
    projected) through the events after it, so a check costs the projection's lag, not
    the game's length; from the whole log (:func:`full_fold`) when there is no read
    model, when it is ahead of the log, or when a ``Rewound`` is among the events after
    it (the clocks of a rewind need the state at its target).  The read model is the
    same fold of the same events, so both ways give the same clocks."""
    base = read_model(rt, game_id)
    if base is None or not base.version:
        return full_fold(rt, game_id)
    tail = rt.store.read(game_id, base.version + 1)
    if any(e.type == ev.REWOUND for e in tail) or (
            not tail and rt.store.version(game_id) < base.version):
        return full_fold(rt, game_id)
    if tail:
        table = rt.replayer.load(game_id, at=base.version)
        for event in tail:
            table = rt.replayer.evolve(table, game_id, event)
            base.feed(event, table.to_act())
    return base


def full_fold(rt: Runtime, game_id: str) -> ClockFold:
    """The game's clocks folded from its whole log (the authority; linear in the log)."""
    pairs: list[tuple[Any, set[int]]] = []
    previous = None
    for table, event in rt.replayer.walk(game_id):
        if previous is not None:
            pairs.append((previous, table.to_act()))
        previous = event
    if previous is not None:
        pairs.append((previous, rt.games.load(game_id, at=previous.version).to_act()))
    return fold(pairs, legacy_hours(rt, game_id))


def read_model(rt: Runtime, game_id: str) -> ClockFold | None:
    """The clocks the projection last wrote (for pages and the API; may lag a move)."""
    state = rt.store.get_json(game_id, CLOCK_KEY)
    return ClockFold(state) if state else None


def store_read_model(pipe: Any, game_id: str, clocks: ClockFold) -> None:
    """Queue the write of the clocks read model on ``pipe`` (the projection's
    transaction)."""
    pipe.set(key(game_id, CLOCK_KEY), json.dumps(clocks.s))


def schedule(rt: Runtime, game_id: str, clocks: ClockFold) -> None:
    """Enqueue the RQ jobs for the clocks' next reminders and time-outs (and, at once,
    the follow-ups due whatever the time).  Job ids are per (game, turn, seat, kind) and
    carry the due time, so a due time that moved (a vacation) gets a job of its own; a
    job that fires early finds nothing due and does nothing.  A lost job is made up for
    by the sweep through the due-time index."""
    if clocks.kind == "none" and not any(s["bot"] for s in clocks.s["seats"]):
        return
    now = rt.now().timestamp()
    if clocks.actions(0.0):
        rt.enqueuer.enqueue("worker.jobs.check_clocks", game_id, delay=timedelta(0),
                            job_id=f"clock:{game_id}:{clocks.version}")
    for seat in clocks.s["to_act"]:
        clock = clocks.seat_clock(seat, now)
        if clock.timed_out or clock.due is None:
            continue
        rt.enqueuer.enqueue("worker.jobs.time_out", game_id, clock.turn, seat,
                            delay=timedelta(seconds=max(0.0, clock.due - now) + LATE),
                            job_id=f"time_out:{game_id}:{clock.turn}:{seat}:{int(clock.due)}")
        for which, when in clocks.reminders(seat)[:1]:
            rt.enqueuer.enqueue("worker.jobs.remind", game_id, clock.turn, seat,
                                delay=timedelta(seconds=max(0.0, when - now) + LATE),
                                job_id=f"remind:{game_id}:{clock.turn}:{seat}:"
                                       f"{which.replace('.', '_')}:{int(when)}")
