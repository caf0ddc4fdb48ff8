"""The ``ravenpost`` command: serve, worker, admin tools and random-bot games."""

from __future__ import annotations

import functools
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click


def _admin_runtime():
    from service.config import DEFAULTS, from_environment
    from service.redis_setup import connect
    from worker.runtime import Runtime
    config = {**DEFAULTS, **from_environment()}
    if not config.get("REDIS_URL"):
        sock = Path(os.environ.get("RAVENPOST_DATA_DIR", "var")).resolve() / "redis.sock"
        if not sock.exists():
            raise click.ClickException("set REDIS_URL (or run this beside `ravenpost serve`)")
        config["REDIS_URL"] = f"unix://{sock}"
    return Runtime(config, connect(config["REDIS_URL"]))


def _friendly(fn):
    """Turn the platform's refusals into one clear line instead of a traceback."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from events.store import ConflictError, UnknownGame
        from games.protocol import IllegalMove
        try:
            return fn(*args, **kwargs)
        except UnknownGame as exc:
            raise click.ClickException(f"no such game: {exc.args[0]}") from None
        except IllegalMove as exc:
            raise click.ClickException(exc.reason) from None
        except ConflictError as exc:
            raise click.ClickException(f"conflict: {exc}; try again") from None
    return wrapper


@click.group()
def main() -> None:
    """Ravenpost: slow board games played by email."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--data-dir", default="var", show_default=True,
              help="Where the embedded Redis keeps its data and append-only file.")
@click.option("--workers", default=1, show_default=True, type=int, help="RQ worker processes.")
def serve(host: str, port: int, data_dir: str, workers: int) -> None:
    """Run the web server, RQ workers and (without REDIS_URL) an embedded Redis."""
    from service.redis_setup import EmbeddedRedis
    env = dict(os.environ)
    embedded = None
    if not env.get("REDIS_URL"):
        embedded = EmbeddedRedis(data_dir).start()
        env["REDIS_URL"] = embedded.url
        click.echo(f"embedded Redis: data in {embedded.data_dir} (append-only, fsync always)")
    env.setdefault("BASE_URL", f"http://{host}:{port}")
    env["RAVENPOST_DATA_DIR"] = str(Path(data_dir).resolve())
    # Children get their own sessions: a Ctrl-C in the terminal reaches only this process,
    # which then stops them in order (web and workers first, Redis last).
    procs = [subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--bind", f"{host}:{port}", "--worker-class",
         "gthread", "--threads", "8", "--access-logfile", "-", "service.wsgi:app"], env=env,
        start_new_session=True)]
    procs += [subprocess.Popen([sys.executable, "-m", "service.cli", "worker"], env=env,
                               start_new_session=True)
              for _ in range(workers)]
    click.echo(f"Ravenpost on http://{host}:{port}/  (outbox: /dev/mail)  Ctrl-C stops it all")

    signals = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda number, _frame: signals.append(number))
    while not signals and all(p.poll() is None for p in procs):
        time.sleep(0.2)
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)  # gunicorn and RQ both shut down warm on TERM
    deadline = time.monotonic() + 20
    for p in procs:
        while p.poll() is None and time.monotonic() < deadline and len(signals) < 2:
            time.sleep(0.1)  # a second Ctrl-C stops waiting
        if p.poll() is None:
            p.kill()
            p.wait()
    if embedded:
        embedded.stop()
    click.echo("stopped")


@main.command()
@click.option("--burst", is_flag=True, help="Run the queued jobs, then exit.")
def worker(burst: bool) -> None:
    """Run an RQ worker (with its scheduler) for projection, emails and deadlines."""
    from rq import Queue, Worker

    from worker import jobs
    from worker.queue import QUEUE_NAME
    from worker.runtime import runtime
    rt = runtime()
    queue = Queue(QUEUE_NAME, connection=rt.rq_redis)
    rt.enqueuer.enqueue(jobs.sweep, job_id="sweep")
    Worker([queue], connection=rt.rq_redis).work(with_scheduler=True, burst=burst)


@main.group()
def admin() -> None:
    """Inspect and repair games (needs REDIS_URL)."""


@admin.command("history")
@click.argument("game_id")
@_friendly
def admin_history(game_id: str) -> None:
    """Print every event of a game."""
    from events.history import describe
    rt = _admin_runtime()
    table = rt.games.load(game_id)
    for e in rt.store.iter(game_id):
        click.echo(f"{e.version:>5}  {e.at}  {e.actor:<8} {e.type:<12} "
                   f"{describe(e, table.game, table.names, None)}")


@admin.command("state")
@click.argument("game_id")
@click.option("--at", type=int, default=None, help="Rebuild at this version.")
@_friendly
def admin_state(game_id: str, at: int | None) -> None:
    """Print the full state (as JSON) at a version."""
    table = _admin_runtime().games.load(game_id, at=at)
    click.echo(json.dumps({"version": table.version, "to_act": sorted(table.to_act()),
                           "ended": table.ended, "state": table.state}, indent=2))


@admin.command("verify")
@click.argument("game_id")
@_friendly
def admin_verify(game_id: str) -> None:
    """Check the hash chain and that the events fold from scratch."""
    from events.audit import audit_tapes
    rt = _admin_runtime()
    ok, count, problem = rt.games.verify(game_id)
    if count == 0:
        raise click.ClickException(f"no such game: {game_id}")
    if ok and rt.games.load(game_id).ended:
        tapes = audit_tapes(rt.store, game_id)
        ok, problem = tapes.ok, tapes.problem or f"every draw matches the secret ({tapes.checked})"
    click.echo(f"{'ok' if ok else 'BROKEN'}: {count} events {problem}")
    sys.exit(0 if ok else 1)


@admin.command("rewind")
@click.argument("game_id")
@click.argument("to", type=int)
@click.option("--reason", default="", help="Why (kept in the history).")
@_friendly
def admin_rewind(game_id: str, to: int, reason: str) -> None:
    """Append Rewound{to}: play continues from version TO."""
    rt = _admin_runtime()
    event = rt.games.rewind(game_id, to, reason, "admin")
    rt.store.mark_dirty(game_id)
    click.echo(f"rewound to {to}; the game is now at version {event.version}")


@admin.command("fork")
@click.argument("game_id")
@click.argument("at", type=int)
@_friendly
def admin_fork(game_id: str, at: int) -> None:
    """Copy events 1..AT into a new game."""
    rt = _admin_runtime()
    click.echo(rt.games.fork(game_id, at, "admin"))


@main.group()
def bots() -> None:
    """Random legal-move bots."""


@bots.command("play")
@click.argument("kind")
@click.option("--players", "n_players", type=int, required=True)
@click.option("--games", "n_games", type=int, default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@_friendly
def bots_play(kind: str, n_players: int, n_games: int, seed: int, options_json: str) -> None:
    """Play whole games through the event store (REDIS_URL, else a temporary Redis).

    Every move goes through the same decide-and-append path as a player's; the rules'
    invariants are checked after each move and, after each game, the hash chain and a
    rebuild from event 1 against the live state.
    """
    from events.gameplay import GameService
    from events.store import EventStore
    from games import registry
    from games.protocol import IllegalMove
    from service.redis_setup import EmbeddedRedis, connect
    if kind not in registry.KINDS:
        raise click.ClickException(f"unknown game kind {kind!r}; one of {sorted(registry.KINDS)}")
    url, embedded = os.environ.get("REDIS_URL"), None
    if not url:
        embedded = EmbeddedRedis(tempfile.mkdtemp(prefix="ravenpost-bots-")).start()
        url = embedded.url
    service = GameService(EventStore(connect(url)))
    chooser = random.Random(seed)
    moves = errors = finished = 0
    started = time.perf_counter()
    try:
        with click.progressbar(range(n_games), label=f"{kind} x{n_players}",
                               file=sys.stderr) as bar:
            for i in bar:
                players = [{"name": f"Bot {s + 1}", "email": ""} for s in range(n_players)]
                table = service.create(kind, players, json.loads(options_json))
                gid = table.game_id
                try:
                    while not table.ended:
                        seat = chooser.choice(sorted(table.to_act()))
                        move = chooser.choice(table.game.legal_moves(table.state, seat))
                        service.play(gid, seat, move, table.version)
                        moves += 1
                        table = service.load(gid)
                        table.game.check_invariants(table.state)
                    rebuilt = service.replayer.load(gid, use_snapshot=False)
                    if rebuilt.state != table.state or not service.store.verify(gid)[0]:
                        raise AssertionError("rebuild differs from the live state")
                    finished += 1
                except (IllegalMove, AssertionError, RuntimeError, IndexError) as exc:
                    errors += 1
                    click.echo(f"\ngame {i} ({gid}): {type(exc).__name__}: {exc}", err=True)
    finally:
        if embedded:
            embedded.stop()
    elapsed = time.perf_counter() - started
    click.echo(json.dumps({"kind": kind, "players": n_players, "games": n_games,
                           "finished": finished, "moves": moves, "errors": errors,
                           "mean_moves": round(moves / max(n_games, 1), 1),
                           "seconds_per_game": round(elapsed / max(n_games, 1), 3)}))
    sys.exit(1 if errors else 0)


@bots.command("soak")
@click.argument("kind")
@click.option("--players", "counts", default="", help="Player counts, e.g. 2,3,4 "
              "(default: every count the game takes).")
@click.option("--games", "n_games", type=int, default=300, show_default=True)
@click.option("--seed", type=int, default=10_000, show_default=True)
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@_friendly
def bots_soak(kind: str, counts: str, n_games: int, seed: int, options_json: str) -> None:
    """Many games in memory, the rules' invariants after every move, a rebuild from the
    tapes after each game; one JSON line per player count (the rules only, no store)."""
    from games import registry
    from games.bots import play_random_game
    if kind not in registry.KINDS:
        raise click.ClickException(f"unknown game kind {kind!r}; one of {sorted(registry.KINDS)}")
    game = registry.get(kind)
    player_counts = [int(c) for c in counts.split(",") if c] or list(
        range(game.min_players, game.max_players + 1))
    failed = 0
    for n in player_counts:
        moves = errors = 0
        started = time.perf_counter()
        with click.progressbar(range(n_games), label=f"{kind} x{n}", file=sys.stderr) as bar:
            for i in bar:
                try:
                    _state, record = play_random_game(game, n, seed + i, json.loads(options_json),
                                                      check=game.check_invariants)
                    moves += len(record.moves)
                except Exception as exc:  # every failure is reported, the run goes on
                    errors += 1
                    click.echo(f"\nseed {seed + i}: {type(exc).__name__}: {exc}", err=True)
        failed += errors
        click.echo(json.dumps({"kind": kind, "players": n, "games": n_games, "errors": errors,
                               "mean_moves": round(moves / max(n_games - errors, 1), 1),
                               "seconds_per_game": round(
                                   (time.perf_counter() - started) / n_games, 3)}))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
