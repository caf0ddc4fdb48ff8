"""Loading a game after many take-backs, against the same game with none.

A game is played with random moves on a real Redis; each move that may be taken back is
taken back twice (the request, the answers, the Rewound, then the same move again: such
a move drew nothing, so it lands the same) until ``--takebacks`` were made.  The
baseline is the same game with none: its surviving events copied into a new log.  Both
end in the same position, so the ratio of their load times is what the take-backs cost.
Printed for a fold from event 1 and for the production path (a snapshot plus a tail of
``--tail`` events), each from a fresh process cache.  Before the linear fold, every
take-back doubled the load time.
"""

from __future__ import annotations

import argparse
import random

from common import real_redis, timed

from events.envelope import Event
from events.gameplay import GameService
from events.replay import Replayer, surviving
from events.store import EventStore, new_game_id
from games.protocol import IllegalMove

SNAPSHOT_EVERY = 50  # the worker's default


def play_game(service: GameService, kind: str, players: int, seed: int,
              takebacks: int) -> tuple[str, int]:
    """One game with random moves; a take-back after each of the first ``takebacks``
    moves that allow one.  The id and the number of take-backs made."""
    names = [{"name": f"P{i}", "email": ""} for i in range(players)]
    gid = service.create(kind, names, {}).game_id
    chooser = random.Random(seed)
    made = 0
    while True:
        table = service.load(gid)
        if table.ended or table.outcome() is not None:
            return gid, made
        seat = chooser.choice(sorted(table.to_act()))
        move = chooser.choice(table.game.legal_moves(table.state, seat))
        event = service.play(gid, seat, move, table.version)
        for _ in range(2):  # each move that allows it is taken back (and made) twice
            if made >= takebacks or event.data.get("final") is not None:
                break
            try:
                service.request_undo(gid, seat)
                for other in range(players):
                    if other != seat:
                        service.answer_undo(gid, other, True)
                table = service.load(gid)
                event = service.play(gid, seat, move, table.version)
                made += 1
            except IllegalMove:
                break


def copy_without_takebacks(service: GameService, game_id: str) -> str:
    """A new game whose log is ``game_id``'s surviving events, renumbered."""
    new_id = new_game_id()
    chain = surviving(service.store.read(game_id), 0)
    for version, event in enumerate(chain, start=1):
        service.store.append(new_id, version - 1, Event(
            version=version, type=event.type, actor=event.actor, data=event.data,
            tape=event.tape, at=event.at))
    return new_id


def snapshot_before_tail(service: GameService, game_id: str, tail: int) -> None:
    """The worker's snapshots: the latest ``tail`` events before the end, and the one
    it replaced, SNAPSHOT_EVERY events earlier (as in production)."""
    last = service.store.version(game_id)
    for at in (last - tail - SNAPSHOT_EVERY, last - tail):
        if at >= 1:
            service.replayer.write_snapshot(service.load(game_id, at=at))


def load(service: GameService, game_id: str, use_snapshot: bool):
    """Load in a fresh process cache."""
    return lambda: Replayer(service.store).load(game_id, use_snapshot=use_snapshot)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kind", default="kings-guild")
    parser.add_argument("--players", type=int, default=1)
    parser.add_argument("--takebacks", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--tail", type=int, default=20, help="events after the snapshot")
    args = parser.parse_args()
    with real_redis() as (client, url):
        service = GameService(EventStore(client))
        undone, made = play_game(service, args.kind, args.players, args.seed, args.takebacks)
        plain = copy_without_takebacks(service, undone)
        for gid in (plain, undone):
            snapshot_before_tail(service, gid, args.tail)
        a = Replayer(service.store).load(plain, use_snapshot=False)
        b = Replayer(service.store).load(undone, use_snapshot=False)
        assert a.state == b.state, "the same moves must end in the same position"
        print(f"redis: {url}; {args.kind} x{args.players}, seed {args.seed}")
        print(f"baseline: {a.version} events; with {made} take-backs: {b.version} events")
        for label, use_snapshot in (("fold from event 1", False),
                                    (f"snapshot + {args.tail}-event tail", True)):
            base = timed(load(service, plain, use_snapshot), args.repeat)
            took = timed(load(service, undone, use_snapshot), args.repeat)
            print(f"{label}: baseline {base * 1000:.1f} ms, after {made} take-backs "
                  f"{took * 1000:.1f} ms, ratio {took / base:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
