"""History pages from snapshots: the scrub page at every version of a long game against
the live game page, measured in the same run.

A King's Guild game of ``--events`` events (4 random bots, a take-back now and then, the
worker's snapshot every 50 events as production keeps one) on a real Redis, timed
through the Flask app (no network) in a warm process:

- the live view: ``GET /play/<token>`` of a seat, its picture drawn afresh (as the first
  look after each move draws it), the median of samples spread over the sweep;
- the history view: ``GET /play/<token>/at/<v>`` at every ``--step``-th version, each
  the median of ``--repeat`` looks, each look with its picture drawn afresh and (unless
  ``--kept``) no decoded history snapshot kept by the process, as a web process that
  never saw the game would answer it;
- the cold build: the first history look at the last version, which folds the whole
  path once and writes the history snapshots (K = ``--every``), reported apart;
- the stored bytes: per snapshot (median, max) and per game, against the log's.

Prints the worst, p99 and median ratio of the history view to the live view; the goal
is a worst ratio of at most 2.  ``--before``: the same sweep with the history snapshots
off (Replayer.load as before: the worker's snapshot or event 1), on a sample.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from common import BENCH_ADMIN, BENCH_SECRET, real_redis

from events import picture
from events.history_snapshots import HistorySnapshots, history_key
from events.store import LRU, key

LIVE_EVERY = 20
PLAYERS = [{"name": n, "email": f"{n.lower()}@example.com"} for n in ("Ada", "Bo", "Cy", "Di")]


def build(rt, events: int, seed: int) -> str:
    """A King's Guild game of exactly ``events`` events, not over (the seeds are tried
    until one lasts that long)."""
    while True:
        table = rt.games.create("kings-guild", PLAYERS, {})
        gid = table.game_id
        chooser = random.Random(seed)
        while table.version < events and not table.ended:
            if table.version % 50 == 0:
                rt.replayer.write_snapshot(table)
            last_move = None
            if chooser.random() < 0.02 and table.version + 3 <= events:
                last = rt.store.latest(gid, 1)[0]
                if last.type == "MovePlayed":
                    last_move = last.data["seat"]
            if last_move is not None and rt.games.can_take_back(gid, last_move)[0]:
                rt.games.request_undo(gid, last_move)
                for other in range(len(PLAYERS)):
                    if other != last_move and rt.games.load(gid).version < events:
                        rt.games.answer_undo(gid, other, True)
                table = rt.games.load(gid)
                continue
            seat = chooser.choice(sorted(table.to_act()))
            move = chooser.choice(table.game.legal_moves(table.state, seat))
            rt.games.play(gid, seat, move, table.version)
            table = rt.games.load(gid)
            if table.game.outcome(table.state) is not None:
                break
        if table.version >= events and not table.ended:
            return gid
        seed += 1


def fresh_pictures() -> None:
    picture._pictures = LRU(picture.PICTURES_KEPT)


def sample(fn, repeat: int, before=None) -> float:
    times = []
    for _ in range(repeat):
        if before:
            before()
        start = time.perf_counter()
        reply = fn()
        times.append(time.perf_counter() - start)
        assert reply.status_code == 200, reply.status_code
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=3000)
    parser.add_argument("--every", type=int, default=None, help="K (default: the module's)")
    parser.add_argument("--step", type=int, default=1, help="time every STEP-th version")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--kept", action="store_true",
                        help="let the process keep decoded history snapshots")
    parser.add_argument("--before", action="store_true",
                        help="also time a sample with the history snapshots off")
    args = parser.parse_args()
    with real_redis() as (client_redis, url):
        from service import create_app
        app = create_app({"REDIS_URL": url, "SECRET_KEY": BENCH_SECRET,
                          "ADMIN_TOKEN": BENCH_ADMIN, "CHECK_REDIS": False,
                          "RATELIMIT_ENABLED": False})
        rt = app.extensions["ravenpost"]
        if args.every:
            rt.replayer.history = HistorySnapshots(rt.replayer, every=args.every)
        history = rt.replayer.history
        client = app.test_client()
        started = time.perf_counter()
        gid = build(rt, args.events, args.seed)
        last = rt.store.version(gid)
        print(f"redis: {url}; King's Guild, 4 players, {last} events "
              f"(built in {time.perf_counter() - started:.0f} s); K = {history.every}")
        seat = 0
        link = rt.links.make(gid, seat, "play")
        live = lambda: client.get(f"/play/{link}")  # noqa: E731
        at = lambda v: client.get(f"/play/{link}/at/{v}")  # noqa: E731

        def cold_history() -> None:
            fresh_pictures()
            if not args.kept:
                history._kept = LRU(history._kept.size)

        rt.games.load(gid)  # the process holds the live table, as a busy web process does
        live()
        far = max(1, last - 3 * history.every)  # past the worker's snapshot: the history path
        start = time.perf_counter()
        assert at(far).status_code == 200
        cold = time.perf_counter() - start
        built = len(history.sizes(gid))
        warm_live = sample(live, 5)  # its picture cached: a second look at the same version
        warm_hist = sample(lambda: at(far), 5)

        versions = list(range(1, last + 1, args.step))
        if versions[-1] != last:
            versions.append(last)
        random.Random(1).shuffle(versions)
        # The live view is sampled every LIVE_EVERY versions, and each history look is
        # compared with the live samples around it: the machine's load drifts.
        lives, hist, loads, folds, near = [], {}, [], [], {}
        for i, v in enumerate(versions):
            if i % LIVE_EVERY == 0:
                lives.append(sample(live, 3, fresh_pictures))
            hist[v] = sample(lambda v=v: at(v), args.repeat, cold_history)
            near[v] = len(lives) - 1
            cold_history()
            start = time.perf_counter()
            history.load(gid, v)  # the fold alone, with the snapshot read from Redis
            loads.append(time.perf_counter() - start)
            folds.append(history.folded)
        lives.append(sample(live, 3, fresh_pictures))
        sizes = history.sizes(gid)
        log_bytes = client_redis.memory_usage(key(gid, "log")) or 0
        hist_bytes = client_redis.memory_usage(history_key(gid)) or 0
        snap_json = len(client_redis.get(key(gid, "snapshot")) or "")
        live_ms = statistics.median(lives) * 1000
        local = {v: t / statistics.median(lives[max(0, near[v] - 2):near[v] + 4])
                 for v, t in hist.items()}
        ratios = sorted(local.values())
        worst_v = max(local, key=local.get)
        p99 = ratios[min(len(ratios) - 1, int(len(ratios) * 0.99))]
        print(f"live view (picture drawn afresh): median {live_ms:.2f} ms over {len(lives)} "
              f"samples (spread {min(lives) * 1000:.2f}-{max(lives) * 1000:.2f})")
        hist_ms = statistics.median(hist.values()) * 1000
        print(f"history view at {len(hist)} versions: median {hist_ms:.2f} ms, "
              f"slowest {max(hist.values()) * 1000:.2f} ms")
        print(f"ratio history/live (live samples around it): worst {ratios[-1]:.2f} "
              f"(version {worst_v}), p99 {p99:.2f}, median {statistics.median(ratios):.2f}; "
              f"against the run's live median: worst "
              f"{max(hist.values()) * 1000 / live_ms:.2f}, median {hist_ms / live_ms:.2f}")
        print(f"the history load alone (no page): median {statistics.median(loads) * 1000:.2f} "
              f"ms, worst {max(loads) * 1000:.2f} ms; folds per load max {max(folds)}, "
              f"median {statistics.median(folds)}")
        print(f"cold build (first look at version {far}): {cold * 1000:.0f} ms, "
              f"{built} snapshots written")
        print(f"a second look, pictures cached: live {warm_live * 1000:.2f} ms, history "
              f"{warm_hist * 1000:.2f} ms (ratio {warm_hist / warm_live:.2f})")
        values = sorted(sizes.values())
        print(f"history snapshots: {len(sizes)}, bytes each median {statistics.median(values):.0f}"
              f" max {values[-1]}, {sum(values)} in all (Redis MEMORY USAGE of the hash "
              f"{hist_bytes}); the log {log_bytes}; the worker's JSON snapshot {snap_json}")
        if args.before:
            history_load = rt.replayer.history
            every = history_load.every
            history_load.every = 10**9  # the hook then never fires: the old path
            try:
                from events.replay import Replayer
                original = Replayer.load

                def old_load(self, game_id, at=None, use_snapshot=True):
                    if at is not None and use_snapshot:
                        base = self.snapshot(game_id)
                        if base is None or base.version > at:
                            return original(self, game_id, at, use_snapshot=False)
                    return original(self, game_id, at, use_snapshot)
                Replayer.load = old_load
                olds = [sample(lambda v=v: at(v), 1, cold_history) for v in versions[:60]]
                Replayer.load = original
            finally:
                history_load.every = every
            print(f"before (no history snapshots), {len(olds)} versions: median "
                  f"{statistics.median(olds) * 1000:.1f} ms, worst {max(olds) * 1000:.1f} ms, "
                  f"ratio to live median {statistics.median(olds) * 1000 / live_ms:.1f}")


if __name__ == "__main__":
    main()
