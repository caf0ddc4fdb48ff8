"""Projection: fold new events into read models and decide who must be emailed.

Read models per game (all in the game's hash slot): ``projected`` (the last version
folded), ``awaiting`` (seat -> the version at which its current turn began, and its
deadline from the game's clocks), ``clock`` (the clocks, :mod:`events.clocks`, at the
projected version), ``pending`` (notices whose email is not confirmed), ``summary`` (for the
lobby) and the snapshot.  "Nothing lost, nothing twice": the new ``awaiting``,
``projected`` and ``pending`` are written in one transaction *before* the email jobs are
enqueued; a crash after it leaves the notices pending (:mod:`worker.notices`), and the
sweep enqueues them again (the email job deduplicates, so a repeat sends nothing).

One projection per game at a time: a lease (:mod:`worker.lease`, ``LOCK_SECONDS``,
renewed while the fold runs) rather than a long lock, so a worker that dies mid-fold, or
a Redis restart, holds the game up for seconds, not minutes.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from dataclasses import asdict, replace
from typing import Any

import redis

from events import envelope as ev
from events import shards
from events.clocks import ClockFold, iso
from events.replay import Table
from events.store import DIRTY, key
from worker import due, forced, players
from worker.clocks import CLOCK_KEY, clocks_of, read_model, schedule, store_read_model
from worker.lease import lease
from worker.notices import NOTICE_MAX_PENDING as NOTICE_MAX_PENDING
from worker.notices import PENDING_GAMES, Notice
from worker.notices import notice_done as notice_done
from worker.notices import pending_notices as pending_notices
from worker.runtime import Runtime

log = logging.getLogger(__name__)

LOCK_SECONDS = 15

# Indexes across games, each split into buckets on a cluster (see events/shards.py), besides
# the games with notices pending (worker.notices.PENDING_GAMES):
LOBBY = "rp:lobby"  # sorted set: game id -> last update time
# how many turn notices were out of date when projected (never pending, never mailed):
# a counter for operators and benchmarks
SUPERSEDED = "rp:stats:superseded_notices"


def summary_of(table: Table) -> dict[str, Any]:
    """What the lobby lists about a game."""
    outcome = table.outcome() if table.ended else None
    return {
        "id": table.game_id, "kind": table.kind, "name": table.game.name,
        "version": table.version, "names": table.names,
        "to_act": sorted(table.to_act()), "ended": table.ended, "outcome": outcome,
        "updated": ev.now(),
    }


MAX_ROUNDS = 100  # a game that keeps moving this long is left to the next job or sweep
# The jobs of worker.jobs enqueued here, by name (worker.jobs imports this module):
PROJECT = "worker.jobs.project"  # one game's projection
# a notice's email job, by its kind
NOTIFY = {"turn": "worker.jobs.notify", "undo": "worker.jobs.notify_undo",
          "vote": "worker.jobs.notify_vote", "vote-refused": "worker.jobs.notify_vote_refused",
          "timeout": "worker.jobs.notify_timeout", "ended": "worker.jobs.notify_end"}


def project_game(rt: Runtime, game_id: str,
                 deliver: Callable[[Runtime, str, Notice], None] | None = None) -> list[Notice]:
    """Bring the read models of one game up to its stream; return the notices due.

    Each notice is handed to ``deliver`` (default :func:`enqueue_notice`: its email job)
    once it is recorded as pending, and once the game's projection lease is let go, so
    a slow email (jobs run inline, in development) never holds up the game's next
    projection.

    Whoever holds the game's projection lease folds everything new, round after round
    while the log grows (each round's transaction reads the log's end too, and the next
    round goes on from the table the last one made), and after letting it go looks at
    the log once more, folding again if an event landed meanwhile.  So a job that finds
    the lease taken may simply stop: its event was appended before it tried, hence
    before the holder's last look, which comes after the holder lets go.
    """
    deliver = deliver or enqueue_notice
    notices: list[Notice] = []
    budget = forced.MAX_PER_RUN
    rounds = 0
    while rounds < MAX_ROUNDS:
        with lease(rt.redis, key(game_id, "projecting"), LOCK_SECONDS) as held:
            if not held:
                return notices  # the holder looks again after it lets go
            found: list[Notice] = []
            table, more = None, True
            while more and rounds < MAX_ROUNDS:
                rounds += 1
                # before the fold, so that nobody is emailed about a move played for them
                budget -= forced.play_forced(rt, game_id, budget)
                once, table, more = _project_once(rt, game_id, table)
                found += once
        for notice in found:
            deliver(rt, game_id, notice)
        notices += found
        if not _lags(rt, game_id):
            break
    if budget <= 0 and forced.should_go_on(rt, game_id):  # more forced moves: next run
        request_projection(rt.enqueuer, game_id, rt.store.version(game_id))
    return notices


def request_projection(enqueuer, game_id: str, version: int, decided: Any = None) -> None:
    """Ask for the projection of ``game_id`` after its event ``version`` was appended.

    A waiting ``project:<game>`` job will fold that event, so nothing is added; while
    one runs, ``project:<game>:next`` is enqueued unless it waits already (and only if
    it runs too, ``project:<game>:<version>``), which projects whatever that run left
    (or finds the game's projection lease held, in which case the holder checks the
    log again once it lets go: see :func:`project_game`).  So a busy game has at most
    two projection jobs waiting, however fast its moves come.
    ``decided``: the reply of :func:`projection_command`, sent with the append in its
    round trip (then no round trip is needed here, unless both jobs were running).
    """
    enqueuer.enqueue_coalesced(PROJECT, game_id, job_id=f"project:{game_id}",
                               busy_id=f"project:{game_id}:next", decided=decided,
                               last_id=f"project:{game_id}:{version}")


def projection_command(enqueuer, game_id: str) -> tuple | None:
    """The command that does :func:`request_projection`'s work on the server, to send
    in an append's pipeline, right after the append (None: the queue is on another
    Redis, so :func:`request_projection` does it in round trips of its own)."""
    return enqueuer.coalesced_command(PROJECT, game_id, job_id=f"project:{game_id}",
                                      busy_id=f"project:{game_id}:next")


def _lags(rt: Runtime, game_id: str) -> bool:
    """Whether the game's log holds events its read models do not reflect yet."""
    last, projected = _read(rt, game_id)[:2]
    return last > projected


def _read(rt: Runtime, game_id: str, everything: bool = False) -> list[Any]:
    """In one round trip: the log's last version, the version projected, and with
    ``everything`` the game's ``awaiting``, settings, snapshot version and clocks."""
    pipe = rt.redis.pipeline(transaction=False)
    pipe.xrevrange(key(game_id, "log"), count=1)
    pipe.get(key(game_id, "projected"))
    if everything:
        pipe.hgetall(key(game_id, "awaiting"))
        pipe.get(key(game_id, "settings"))
        pipe.get(key(game_id, "snapshot_version"))
        pipe.get(key(game_id, CLOCK_KEY))  # the clocks read model
    last, projected, *rest = pipe.execute()
    return [int(last[0][0].split("-", 1)[1]) if last else 0, int(projected or 0), *rest]


def _project_once(rt: Runtime, game_id: str, held: Table | None = None
                  ) -> tuple[list[Notice], Table | None, bool]:
    """One round: fold what the log holds beyond the read models, record them, and
    return ``(the notices due, the table projected, whether the log has grown beyond
    it meanwhile)``.  ``held``: the table the round before projected, if this job has
    it (it is used only if the read models still stand at its version)."""
    last, projected, awaiting_raw, settings_raw, snapshot_raw, clock_raw = _read(
        rt, game_id, True)
    if projected >= last:
        return [], held, False
    if held is not None and held.version == projected:
        table: Table | None = held  # this job's own: nothing else plays on it
    else:
        table = rt.replayer.load(game_id, at=projected) if projected else None
    awaiting = {int(s): json.loads(v) for s, v in awaiting_raw.items()}
    turns_before = {seat: entry["version"] for seat, entry in awaiting.items()}
    hours = (json.loads(settings_raw or "null") or {}).get("deadline_hours")
    clocks = _clocks_at(projected, hours, clock_raw)
    notices: list[Notice] = []
    since = time.time()
    for event in rt.store.iter(game_id, projected + 1, last):
        table = rt.replayer.evolve(table, game_id, event)
        to_act = table.to_act()
        if clocks is not None and event.type != ev.REWOUND:
            clocks.feed(event, to_act)
        else:
            clocks = None  # a rewind: the clocks are folded from the whole log below
        for seat in [s for s in awaiting if s not in to_act]:
            del awaiting[seat]
        if event.type == ev.MOVE_PLAYED and event.data["seat"] in awaiting \
                and not event.data.get("auto"):
            # the rules await the mover again: a new turn (for its clock), no new email
            # (a move the platform played for the seat goes on with the same turn)
            awaiting[event.data["seat"]] = {"version": event.version, "deadline": None}
        for seat in sorted(to_act - set(awaiting)):
            awaiting[seat] = {"version": event.version, "deadline": None}
            if event.type != ev.GAME_CREATED:
                notices.append(Notice("turn", event.version, seat, None, since))
        if event.type == ev.GAME_CREATED:  # everyone is invited, whoever moves first
            notices += [Notice("turn", event.version, seat, None, since)
                        for seat in range(len(table.names))]
        if event.type == ev.UNDO_REQUESTED:
            notices += [Notice("undo", event.version, s, since=since)
                        for s in range(len(table.names)) if s != event.data["seat"]]
        if event.type == ev.VOTE_CALLED:  # the others are asked to vote
            notices += [Notice("vote", event.version, s, since=since)
                        for s in range(len(table.names)) if s != event.data["seat"]]
        if event.type == ev.VOTE_CAST and not event.data["accept"]:  # its caller is told
            (called,) = rt.store.read(game_id, event.data["vote"], event.data["vote"])
            notices.append(Notice("vote-refused", event.version, called.data["seat"],
                                  since=since))
        if event.type == ev.TIMED_OUT:  # everyone is told (pending until mailed)
            notices += [Notice("timeout", event.version, s, since=since)
                        for s in range(len(table.names))]
        if event.type == ev.GAME_ENDED:
            notices += [Notice("ended", event.version, s, since=since)
                        for s in range(len(table.names))]
    assert table is not None
    # this process's next projection of the game starts from here, not from a snapshot
    rt.replayer.remember(table)
    if not table.ended and table.outcome() is not None:
        rt.games.end_if_over(game_id)  # the web process died before recording the end
    if clocks is None or clocks.version != table.version:
        clocks = clocks_of(rt, game_id)  # the read model on, or the whole log
        if clocks.version != table.version:  # the log grew meanwhile: fold it next round
            clocks = ClockFold(deadline_hours=hours)
    deadlines = _deadlines(clocks)
    for seat, entry in awaiting.items():
        entry["deadline"] = deadlines.get(seat)
    notices = [replace(n, deadline=awaiting.get(n.seat, {}).get("deadline"))
               if n.kind == "turn" else n for n in notices]
    found = len(notices)
    notices = [n for n in notices if not superseded(n, awaiting)]
    superseded_count = found - len(notices)
    # turns awaited before this fold that it saw pass: their notices, if still pending
    # (their email job has not run yet), are out of date as those above are
    passed = [f"turn:{version}:{seat}" for seat, version in turns_before.items()
              if version != 1 and awaiting.get(seat, {}).get("version") != version]
    if not projected:
        # A new game (or fork) into its players' "my games" index, before its projection
        # is recorded: should this fail, the projection is not recorded either, and the
        # sweep, which retries it, indexes the game then.
        players.index_game(rt.redis, game_id)
    cluster = shards.is_cluster(rt.redis)
    pending_index = shards.bucket_key(rt.redis, PENDING_GAMES, game_id)
    if notices and cluster:
        # Into the index of games with pending emails *before* the notices are written
        # (and again after, see pending_notices): on a cluster it lives on other masters,
        # and notices written while one of them is down would be pending where no sweep
        # looks.  On one server it goes in the transaction.
        rt.redis.sadd(pending_index, game_id)
    pipe = rt.redis.pipeline(transaction=True)
    if passed:
        pipe.hdel(key(game_id, "pending"), *passed)
    pipe.delete(key(game_id, "awaiting"))
    if awaiting:
        pipe.hset(key(game_id, "awaiting"),
                  mapping={str(s): json.dumps(v) for s, v in awaiting.items()})
    if notices:
        pipe.hset(key(game_id, "pending"),
                  mapping={n.ident: json.dumps(asdict(n)) for n in notices})
        if not cluster:
            pipe.sadd(pending_index, game_id)
    pipe.set(key(game_id, "summary"), json.dumps(summary_of(table)))
    if clocks.version:
        store_read_model(pipe, game_id, clocks)
    pipe.set(key(game_id, "projected"), table.version)
    lobby = shards.bucket_key(rt.redis, LOBBY, game_id)
    if not cluster:  # one server: the lobby's index rides in the transaction
        pipe.zadd(lobby, {game_id: time.time()})
    pipe.xrevrange(key(game_id, "log"), count=1)  # the log's end now: another round?
    replies = pipe.execute()
    if passed:
        superseded_count += replies[0]
    end = replies[-1]
    more = bool(end) and int(end[0][0].split("-", 1)[1]) > table.version
    if clocks.version and clocks.kind != "none" or any(
            s["bot"] or s["unseat"] for s in clocks.s["seats"]):
        due.set_due(rt.redis, game_id, clocks.next_due())
        schedule(rt, game_id, clocks)
    # on a cluster, the indexes across games go outside the game's transaction (other
    # hash slots), as does the count of notices out of date on any server
    pipe = rt.redis.pipeline(transaction=False)
    if cluster:
        pipe.zadd(lobby, {game_id: time.time()})
        if notices:
            pipe.sadd(pending_index, game_id)
    count_superseded(rt, game_id, superseded_count, pipe)
    if len(pipe):
        pipe.execute()
    snapshot_version = json.loads(snapshot_raw) if snapshot_raw else 0
    if table.version - snapshot_version >= rt.config["SNAPSHOT_EVERY"] or table.ended:
        rt.replayer.write_snapshot(table)
    return notices, table, more


def count_superseded(rt: Runtime, game_id: str, count: int, pipe: Any = None) -> None:
    """Add ``count`` to the statistic of notices out of date when projected or sent (a
    bucket per game, so no one key takes every projection's write).  Only a statistic:
    on a cluster, where its bucket may be on a master that is down, it never fails the
    job whose emails it counts; on one server it rides on the caller's ``pipe``."""
    if not count:
        return
    name = shards.bucket_key(rt.redis, SUPERSEDED, game_id)
    if pipe is not None and not shards.is_cluster(rt.redis):
        pipe.incrby(name, count)
        return
    try:
        rt.redis.incrby(name, count)
    except redis.RedisError as exc:
        log.warning("the count of superseded notices missed %s: %s", count, exc)


def superseded_total(client: Any) -> int:
    """The statistic :func:`count_superseded` keeps, summed over its buckets."""
    return sum(int(client.get(bucket) or 0)
               for bucket in shards.all_buckets(client, SUPERSEDED))


def superseded(notice: Notice, awaiting: dict[int, dict]) -> bool:
    """Whether a turn notice is out of date already when it is projected: its seat's
    turn passed within the events this fold covers (the seat is no longer awaited, or
    awaited for a later turn).  Its email would say "your move" about a past move, and
    the send path would skip it for that very reason (``worker.notify.send_turn``); the
    read model only moves forward, so it stays out of date.  Invitations (version 1)
    always go out."""
    if notice.kind != "turn" or notice.version == 1:
        return False
    entry = awaiting.get(notice.seat)
    return entry is None or entry["version"] != notice.version


def _clocks_at(projected: int, hours: float | None,
               raw: str | None) -> ClockFold | None:
    """The clocks read model (``raw``, as stored) at version ``projected`` (a fresh fold
    for a new game); None if it is missing or stands elsewhere (then the whole log is
    folded)."""
    if not projected:
        return ClockFold(deadline_hours=hours)
    clocks = ClockFold(json.loads(raw)) if raw else None
    return clocks if clocks is not None and clocks.version == projected else None


def _deadlines(clocks: ClockFold) -> dict[int, str]:
    """Each running seat's deadline (ISO, UTC), from its clock."""
    if clocks.kind == "none" or not clocks.version:
        return {}
    out = {}
    for seat in clocks.s["to_act"]:
        clock = clocks.seat_clock(seat, 0.0)  # ``due`` does not depend on ``now``
        if clock.due is not None:
            out[seat] = iso(clock.due)
    return out


def enqueue_notice(rt: Runtime, game_id: str, notice: Notice) -> None:
    """Enqueue the email job for one notice (and its reminder), by deterministic job id."""
    if notice.kind == "turn":
        rt.enqueuer.enqueue(NOTIFY["turn"], game_id, notice.version, notice.seat,
                            job_id=f"notify:{game_id}:{notice.version}:{notice.seat}")
        schedule_deadline(rt, game_id, notice)
    elif notice.kind == "undo":
        rt.enqueuer.enqueue(NOTIFY["undo"], game_id, notice.version, notice.seat,
                            job_id=f"undo:{game_id}:{notice.version}:{notice.seat}")
    elif notice.kind == "vote":
        rt.enqueuer.enqueue(NOTIFY["vote"], game_id, notice.version, notice.seat,
                            job_id=f"vote:{game_id}:{notice.version}:{notice.seat}")
    elif notice.kind == "vote-refused":
        rt.enqueuer.enqueue(NOTIFY["vote-refused"], game_id, notice.version, notice.seat,
                            job_id=f"vote-refused:{game_id}:{notice.version}:{notice.seat}")
    elif notice.kind == "timeout":
        rt.enqueuer.enqueue(NOTIFY["timeout"], game_id, notice.version, notice.seat,
                            job_id=f"timeout:{game_id}:{notice.version}:{notice.seat}")
    else:
        rt.enqueuer.enqueue(NOTIFY["ended"], game_id, notice.seat,
                            job_id=f"ended:{game_id}:{notice.seat}")


def schedule_deadline(rt: Runtime, game_id: str, notice: Notice) -> None:
    """Enqueue the reminders and the time-out of the game's clocks (a turn notice with a
    deadline), from the clocks read model (:mod:`events.clocks`)."""
    if notice.kind != "turn" or not notice.deadline:
        return
    clocks = read_model(rt, game_id)
    if clocks is not None:
        schedule(rt, game_id, clocks)


def lobby_summaries(rt: Runtime, limit: int) -> list[dict[str, Any]]:
    """The summaries of the ``limit`` games updated last, newest first (merged across the
    lobby's buckets; one GET per game in a pipeline, as the games live in many slots)."""
    ids = shards.ztop(rt.redis, LOBBY, 0, limit)
    if not ids:
        return []
    pipe = rt.redis.pipeline(transaction=False)
    for game_id in ids:
        pipe.get(key(game_id, "summary"))
    return [json.loads(raw) for raw in pipe.execute() if raw]


SETTLE_SECONDS = 60


def lagging_games(rt: Runtime) -> list[str]:
    """Games marked dirty whose projection is behind the stream.

    A mark is dropped only once the projection has caught up *and* the mark is a minute
    old: the web process marks a game just before appending, so a young mark may belong
    to an append that has not landed yet.
    """
    lagging = []
    settled = time.time() - SETTLE_SECONDS
    for game_id, marked in shards.zmembers(rt.redis, DIRTY):
        if int(rt.redis.get(key(game_id, "projected")) or 0) < rt.store.version(game_id):
            lagging.append(game_id)
        elif marked < settled:
            rt.redis.zrem(shards.bucket_key(rt.redis, DIRTY, game_id), game_id)
    return lagging
