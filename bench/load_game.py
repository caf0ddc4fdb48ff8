"""Load a long game via snapshot + tail versus a fold from event 1; and the fold's cost
per event against reading the same entries (XRANGE alone, and XRANGE + json.loads of
each entry's data and tape: the decoding every fold must do), all in the same run.

Also printed: the game's own share of the fold, its ``setup`` and ``apply`` called on
the same events' moves and tapes with nothing of the platform around them (the test
game's ``apply`` checks legality and draws from a deck of thousands of cards, whose
``pop`` at a random place moves half of it: its share grows with the game).

Issue 12 asks for a fold of at most 10 µs per event; machines differ and are shared, so
the ratios to the reads are what to compare between runs."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import copies_for, real_redis, timed

from events import envelope as ev
from events.gameplay import GameService
from events.replay import Replayer
from events.store import EventStore, key
from games import registry
from games.rng import TapePlayer


def play(service: GameService, gid: str, moves: int, seed: int) -> None:
    """Play ``moves`` random legal moves, keeping the table up to date by folding each event."""
    table = service.load(gid)
    chooser = random.Random(seed)
    for i in range(moves):
        if i % 50 == 0:  # what the worker does in production; keeps the build linear
            service.replayer.write_snapshot(table)
        seat = chooser.choice(sorted(table.to_act()))
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        event = service.play(gid, seat, move, table.version)
        table = service.replayer.evolve(table, gid, event)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--tail", type=int, default=20, help="events after the snapshot")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with real_redis() as (client, url):
        service = GameService(EventStore(client))
        players = [{"name": f"P{i}", "email": ""} for i in range(4)]
        # the long variant of the test game: 500 copies of its deck last ~4,500 moves
        gid = service.create("bench-race", players,
                             {"target": 100_000, "copies": copies_for(args.events)}
                             ).game_id
        play(service, gid, args.events - args.tail - 1, seed=1)
        service.replayer.write_snapshot(service.load(gid))
        play(service, gid, args.tail, seed=2)
        gid_table = service.load(gid)
        assert service.replayer.load(gid) == service.replayer.load(gid, use_snapshot=False)
        scratch = timed(lambda: Replayer(service.store).load(gid, use_snapshot=False),
                        args.repeat)
        snap = timed(lambda: Replayer(service.store).load(gid), args.repeat)  # cold process
        service.replayer.load(gid)
        warm = timed(lambda: service.replayer.load(gid), args.repeat)
        print(f"redis: {url}")
        print(f"events: {gid_table.version} (snapshot at {gid_table.version - args.tail})")
        print(f"fold from event 1 (baseline): {scratch * 1000:.1f} ms")
        print(f"snapshot + {args.tail}-event tail: {snap * 1000:.1f} ms")
        print(f"ratio snapshot/baseline: {snap / scratch:.3f}  (speed-up x{scratch / snap:.1f})")
        print(f"warm process cache (+0-event tail): {warm * 1000:.1f} ms, "
              f"ratio {warm / scratch:.3f}")
        n = gid_table.version
        read, decoded = (timed(lambda d=d: read_entries(client, gid, d), args.repeat)
                         for d in (False, True))
        print(f"fold from event 1: {scratch / n * 1e6:.2f} µs per event (goal <= 10)")
        print(f"XRANGE alone: {read / n * 1e6:.2f} µs per event; fold/XRANGE "
              f"{scratch / read:.2f}")
        print(f"XRANGE + json.loads of data and tape: {decoded / n * 1e6:.2f} µs per event; "
              f"fold/decode {scratch / decoded:.2f}")
        events = service.store.read(gid)
        rules_alone(events)  # warm-up, as timed() does
        rules = statistics.median(rules_alone(events) for _ in range(args.repeat))
        print(f"the game's own setup and apply of the same events: {rules / n * 1e6:.2f} µs "
              f"per event; the rest of the fold (reading, decoding, the platform's "
              f"folding): {(scratch - rules) / n * 1e6:.2f} µs per event")


def rules_alone(events: list[ev.Event]) -> float:
    """Seconds the rules engine's part of a fold takes: ``setup`` from the GameCreated,
    then ``apply`` of each move with its recorded tape, as :meth:`Replayer.evolve`
    calls them (on copies of the moves, made before the clock starts)."""
    created = events[0].data
    game = registry.get(created["kind"]).for_rules(created["rules_version"])
    options = ev.json_copy(created["options"])
    moves = [(e.data["seat"], ev.json_copy(e.data["move"]), e.tape) for e in events
             if e.type == ev.MOVE_PLAYED]
    start = time.perf_counter()
    state = game.setup(list(created["names"]), options, TapePlayer(events[0].tape))
    for seat, move, tape in moves:
        game.apply(state, seat, move, TapePlayer(tape))
    return time.perf_counter() - start


def read_entries(client, gid: str, decode: bool, batch: int = 1000) -> int:
    """Read the whole log as the fold does (XRANGE in batches of ``batch``), and with
    ``decode`` json.loads each entry's data and tape; the number of entries."""
    import json
    log, low, count = key(gid, "log"), "-", 0
    while True:
        entries = client.xrange(log, min=low, max="+", count=batch)
        if decode:
            for _, fields in entries:
                json.loads(fields["data"])
                json.loads(fields["tape"])
        count += len(entries)
        if len(entries) < batch:
            return count
        low = f"({entries[-1][0]}"


if __name__ == "__main__":
    main()
