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


def worker_runtime():
    """A worker's runtime from the environment, after the web's start-up refusals (a
    worker must never sign links with a weak secret)."""
    from service.config import DEFAULTS, check, from_environment
    from service.redis_setup import connect_queue, connect_store
    from worker.runtime import Runtime
    config = {**DEFAULTS, **from_environment()}
    check(config)
    if not config.get("REDIS_URL"):
        raise click.ClickException("REDIS_URL is not set for this worker")
    return Runtime(config, connect_store(config), connect_queue(config))


def _admin_runtime():
    from service.config import DEFAULTS, ConfigError, check_redis, from_environment, queue_url
    from service.redis_setup import connect_queue, connect_store
    from worker.runtime import Runtime
    config = {**DEFAULTS, **from_environment()}
    if not config.get("REDIS_URL"):
        sock = Path(os.environ.get("RAVENPOST_DATA_DIR", "var")).resolve() / "redis.sock"
        if not sock.exists():
            raise click.ClickException("set REDIS_URL (or run this beside `ravenpost serve`)")
        config["REDIS_URL"] = f"unix://{sock}"
    try:
        check_redis(config)
        queue = connect_queue(config) if queue_url(config) else None
        return Runtime(config, connect_store(config), queue)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None


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


RESTARTS = 5  # a child (or the embedded Redis) that dies this often ...
RESTART_WINDOW = 300.0  # ... within this many seconds is given up on, and serve stops
READY_TIMEOUT = 60.0  # seconds the web server has to answer its first request


class _Supervised:
    """One process `serve` keeps running: restarted with backoff when it dies on its own,
    given up on after RESTARTS deaths within RESTART_WINDOW seconds."""

    def __init__(self, name: str, spawn) -> None:
        self.name, self._spawn = name, spawn
        self.proc: subprocess.Popen | None = None
        self.deaths: list[float] = []
        self.restart_at: float | None = None

    def start(self) -> None:
        self.proc = self._spawn()
        self.restart_at = None

    def died(self) -> int | None:
        """The exit code if the process died since the last look, else None."""
        if self.proc is None or self.proc.poll() is None:
            return None
        code, self.proc = self.proc.returncode, None
        now = time.monotonic()
        self.deaths = [t for t in self.deaths if now - t < RESTART_WINDOW] + [now]
        self.restart_at = now + min(2 ** (len(self.deaths) - 1), 16)
        return code

    @property
    def given_up(self) -> bool:
        return len(self.deaths) > RESTARTS

    def stop(self, deadline: float, impatient) -> None:
        """TERM (gunicorn and RQ both shut down warm on it), then KILL at the deadline."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        while self.proc.poll() is None and time.monotonic() < deadline and not impatient():
            time.sleep(0.1)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _lock_data_dir(data_dir: Path) -> int:
    """Hold an exclusive lock on DATA_DIR/serve.lock for the life of this process.

    The kernel releases a ``flock`` when its process dies, even by kill -9, so a lock is
    never stale; the file keeps the holder's pid for the message.
    """
    import fcntl
    fd = os.open(data_dir / "serve.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise click.ClickException(
            f"{data_dir} is in use by another `ravenpost serve` (pid {holder}); "
            "stop that one first, or give this one its own --data-dir") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def _listen(host: str, port: int):
    """A listening socket on host:port, made here so a busy port is a clear error before
    anything starts; gunicorn gets it by file descriptor (and again after a restart)."""
    import errno
    import socket
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, 0, socket.SOCK_STREAM, 0, socket.AI_PASSIVE)[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"cannot listen on {host}:{port}: another process is listening there; "
                "stop it or choose another --port") from None
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return sock


def _local_secret(data_dir: Path, name: str) -> str:
    """A random secret kept in DATA_DIR/NAME (made on first use, readable by owner only),
    so that links, sessions and the admin sign-in survive a restart."""
    import secrets
    path = data_dir / name
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as f:
        f.write(secrets.token_urlsafe(32) + "\n")
    return path.read_text().strip()


def _answers(url: str) -> bool:
    import urllib.error
    import urllib.request
    try:
        urllib.request.urlopen(url, timeout=2).close()
    except urllib.error.HTTPError:
        pass  # any HTTP answer means the web server is up
    except OSError:
        return False
    return True


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--data-dir", default="var", show_default=True,
              help="Where the embedded Redis keeps its data and append-only file.")
@click.option("--workers", default=1, show_default=True, type=int, help="RQ worker processes.")
@click.option("--smtp-port", type=click.IntRange(0, 65535), default=None,
              help="Port of the SMTP receiver for replies, on 127.0.0.1 (default: "
                   "INBOUND_SMTP_PORT, 2525); 0 turns it off.")
def serve(host: str, port: int, data_dir: str, workers: int, smtp_port: int | None) -> None:
    """Run the web server, RQ workers and (without REDIS_URL) an embedded Redis.

    One `serve` per data directory (a second one is refused). A process that dies on its
    own (the embedded Redis, the web server, a worker) is restarted with backoff; one
    that dies more than 5 times in 5 minutes stops everything with exit code 1.
    Without ADMIN_TOKEN or SECRET_KEY in the environment, random ones are kept in the
    data directory (admin-token, secret-key). Replies by email arrive at an SMTP receiver
    on 127.0.0.1 (--smtp-port) run in this process (the outbox's Reply box sends there).
    """
    from service.config import DEFAULTS, ConfigError, check_redis, from_environment
    from service.redis_setup import DataDirInUse, EmbeddedRedis, die_with_parent_hook
    try:  # before anything starts: a cluster needs its node and its queue Redis
        check_redis({**DEFAULTS, **from_environment()})
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    data = Path(data_dir).resolve()
    data.mkdir(parents=True, exist_ok=True)
    lock = _lock_data_dir(data)
    listener = _listen(host, port)
    env = dict(os.environ)
    env["RAVENPOST_DATA_DIR"] = str(data)
    env.setdefault("BASE_URL", f"http://{host}:{port}")
    if env.get("RAVENPOST_ENV") != "production":  # production must bring its own secret
        env["SECRET_KEY"] = env.get("SECRET_KEY") or _local_secret(data, "secret-key")
    admin_from_env = bool(env.get("ADMIN_TOKEN"))
    env["ADMIN_TOKEN"] = env.get("ADMIN_TOKEN") or _local_secret(data, "admin-token")

    embedded = None
    if not env.get("REDIS_URL"):
        embedded = EmbeddedRedis(data, die_with_parent=True)
        try:
            embedded.start()
        except (DataDirInUse, RuntimeError) as exc:
            raise click.ClickException(f"cannot start the embedded Redis: {exc}") from None
        env["REDIS_URL"] = embedded.url
        click.echo(f"embedded Redis: data in {data} (append-only, fsync always)")

    # Children get their own sessions: a Ctrl-C in the terminal reaches only this process,
    # which then stops them in order (web and workers first, Redis last). They also get
    # SIGTERM if this process dies, so no orphan keeps the port or the data.
    popen = functools.partial(subprocess.Popen, env=env, start_new_session=True,
                              preexec_fn=die_with_parent_hook())
    web = _Supervised("the web server", lambda: popen(
        [sys.executable, "-m", "gunicorn", *_gunicorn_options(listener.fileno()),
         "service.wsgi:app"], pass_fds=(listener.fileno(),)))
    children = [web] + [_Supervised(f"worker {i + 1}", lambda: popen(
        [sys.executable, "-m", "service.cli", "worker"])) for i in range(workers)]

    signals: list[int] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda number, _frame: signals.append(number))
    failure = None
    smtp = None
    try:
        chosen = smtp_port is not None
        if not chosen:
            from service.smtp_receiver import port_of
            try:
                smtp_port = port_of({**DEFAULTS, **from_environment(env)})
            except ValueError as exc:
                raise click.ClickException(str(exc)) from None
        if smtp_port:
            try:
                smtp = _start_smtp(env, smtp_port)
            except click.ClickException as exc:
                if chosen:
                    raise
                # The default port taken (another serve, say): replies by email are a
                # convenience here, not worth refusing to serve the games for.
                click.echo(f"ravenpost serve: {exc.message}; carrying on without it", err=True)
                smtp_port = 0
        env["INBOUND_SMTP_PORT"] = str(smtp_port)  # the outbox's Reply box sends there
        for child in children:
            child.start()
        failure = _wait_until_ready(web, host, port, signals)
        if failure is None and not signals:
            click.echo(f"Ravenpost on http://{_url_host(host)}:{port}/  (outbox: /dev/mail)  "
                       "Ctrl-C stops it all")
            if smtp is not None:
                click.echo(f"replies by email: SMTP on 127.0.0.1:{smtp_port} "
                           f"(anything @{smtp.handler.domain})")
            click.echo("admin: sign in at /admin/ with "
                       + ("ADMIN_TOKEN" if admin_from_env
                          else f"the token {env['ADMIN_TOKEN']} (kept in {data / 'admin-token'})"))
            failure = _supervise(children, embedded, signals)
    finally:
        deadline = time.monotonic() + 20
        if smtp is not None:
            smtp.stop()
        for child in children:
            child.stop(deadline, impatient=lambda: len(signals) >= 2)  # a 2nd Ctrl-C
        if embedded:
            embedded.stop()
        listener.close()
        os.close(lock)
    if failure:
        click.echo(f"ravenpost serve: {failure}; stopped everything", err=True)
        sys.exit(1)
    click.echo("stopped")


def _start_smtp(env: dict[str, str], smtp_port: int):
    """serve's SMTP receiver (service.smtp_receiver), on the Redis and queue the web and
    workers use; a clear error if it cannot listen."""
    from service.config import DEFAULTS, ConfigError, check, from_environment
    from service.redis_setup import connect_queue, connect_store
    from service.smtp_receiver import start
    from worker.runtime import Runtime
    config = {**DEFAULTS, **from_environment(env)}
    try:
        check(config)
        runtime = Runtime(config, connect_store(config), connect_queue(config))
        return start(runtime, "127.0.0.1", smtp_port)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    except (OSError, RuntimeError) as exc:
        raise click.ClickException(
            f"cannot start the SMTP receiver on 127.0.0.1:{smtp_port}: {exc}; choose "
            "another --smtp-port, or 0 to turn it off") from None


def _gunicorn_options(fd: int) -> list[str]:
    """gunicorn serving on the inherited listening socket ``fd``."""
    from gunicorn.config import KNOWN_SETTINGS
    options = ["--bind", f"fd://{fd}", "--worker-class", "gthread", "--threads", "8",
               "--access-logfile", "-"]
    if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS):
        options.append("--no-control-socket")  # else every serve shares ~/.gunicorn's
    return options


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _wait_until_ready(web: _Supervised, host: str, port: int, signals: list) -> str | None:
    """Wait for the web server's first answer; the reason it never came, if it did not."""
    probe_host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    url = f"http://{_url_host(probe_host)}:{port}/api/v1/kinds"
    deadline = time.monotonic() + READY_TIMEOUT
    while not signals and time.monotonic() < deadline:
        if web.proc.poll() is not None:
            return f"the web server exited at start (code {web.proc.returncode}); see above"
        if _answers(url):
            return None
        time.sleep(0.2)
    return None if signals else f"the web server did not answer within {READY_TIMEOUT:.0f} s"


def _supervise(children: list[_Supervised], embedded, signals: list) -> str | None:
    """Keep everything running until a signal (None) or something cannot be kept up
    (the reason). A dead embedded Redis is restarted first; the web and workers keep
    running meanwhile, since their clients reconnect once it is back."""
    from service.redis_setup import DataDirInUse
    redis_deaths: list[float] = []
    redis_restart_at = None
    while not signals:
        time.sleep(0.2)
        now = time.monotonic()
        if embedded and not embedded.alive() and redis_restart_at is None:
            code = embedded.process.returncode if embedded.process else None
            embedded.process = None
            redis_deaths = [t for t in redis_deaths if now - t < RESTART_WINDOW] + [now]
            if len(redis_deaths) > RESTARTS:
                return (f"the embedded Redis died {len(redis_deaths)} times in "
                        f"{RESTART_WINDOW:.0f} s; see {embedded.data_dir / 'redis.log'}")
            redis_restart_at = now + 0.25 * 2 ** (len(redis_deaths) - 1)
            click.echo(f"ravenpost serve: the embedded Redis died (code {code}); restarting "
                       f"({len(redis_deaths)}/{RESTARTS})", err=True)
        if redis_restart_at is not None:
            if now < redis_restart_at:
                continue
            try:
                embedded.start()
                redis_restart_at = None
                click.echo("ravenpost serve: the embedded Redis is back", err=True)
            except (DataDirInUse, RuntimeError) as exc:
                redis_deaths.append(now)
                if len(redis_deaths) > RESTARTS:
                    return f"the embedded Redis could not be restarted: {exc}"
                redis_restart_at = now + 0.25 * 2 ** (len(redis_deaths) - 1)
                click.echo(f"ravenpost serve: restarting the embedded Redis failed ({exc}); "
                           f"trying again ({len(redis_deaths)}/{RESTARTS})", err=True)
            continue  # children are restarted only against a running Redis
        for child in children:
            code = child.died()
            if code is not None:
                if child.given_up:
                    return (f"{child.name} exited (code {code}) {len(child.deaths)} times in "
                            f"{RESTART_WINDOW:.0f} s")
                click.echo(f"ravenpost serve: {child.name} exited (code {code}); restarting "
                           f"({len(child.deaths)}/{RESTARTS})", err=True)
            if child.proc is None and child.restart_at is not None and now >= child.restart_at:
                child.start()
    return None


@main.command()
@click.option("--burst", is_flag=True, help="Run the queued jobs, then exit.")
def worker(burst: bool) -> None:
    """Run an RQ worker (with its scheduler) for projection, emails and deadlines.

    It keeps running through Redis outages (waiting, then reconnecting) and stops only
    on SIGTERM/SIGINT (or, with --burst, when the queue is empty).
    """
    import logging

    from worker import jobs, process
    from worker.queue import QUEUE_NAME
    from worker.runtime import set_runtime
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s: %(message)s"))
    logging.getLogger("worker").addHandler(handler)  # RQ sets up its own loggers
    logging.getLogger("worker").setLevel(logging.INFO)
    from service.config import ConfigError
    try:
        rt = worker_runtime()
    except ConfigError as exc:  # one clear line, not a traceback
        raise click.ClickException(str(exc)) from None
    set_runtime(rt)  # the jobs find it there (forked work horses inherit it)
    if burst:
        rt.enqueuer.enqueue(jobs.sweep, job_id="sweep")
    process.run(rt.rq_redis, QUEUE_NAME, tick=lambda: jobs.sweep_due(rt), burst=burst)


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


@admin.command("reindex-players")
@_friendly
def admin_reindex_players() -> None:
    """Write every game into its players' "my games" index again (idempotent; for games
    created before the index existed, or after a restore)."""
    from worker import players
    rt = _admin_runtime()
    click.echo(f"indexed {players.rebuild(rt.redis, rt.store)} games")


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


@admin.command("refold")
@click.argument("game_id")
@click.option("--rules", required=True, help="The rules version to replay the moves under.")
@_friendly
def admin_refold(game_id: str, rules: str) -> None:
    """Replay a game's moves under another rules version: where the versions first part
    (a short diff), how many later moves differ, and where only one version draws (the
    refold stops there). Changes nothing; `admin migrate` does."""
    from events.refold import refold
    rt = _admin_runtime()
    try:
        report = refold(rt.store, game_id, rules)
    except KeyError as exc:
        raise click.ClickException(str(exc.args[0])) from None
    for line in report.lines():
        click.echo(line)


@admin.command("migrate")
@click.argument("game_id")
@click.option("--rules", required=True, help="The rules version the game plays from now on.")
@_friendly
def admin_migrate(game_id: str, rules: str) -> None:
    """Append RulesMigrated: the game plays RULES from its next move on."""
    rt = _admin_runtime()
    event = rt.games.migrate(game_id, rules, "admin")
    rt.store.mark_dirty(game_id)
    click.echo(f"the game plays rules {rules} from version {event.version} on")


@admin.command("archive")
@click.option("--dry-run", is_flag=True, help="List the games at rest; archive nothing.")
@click.option("--game", "game_ids", multiple=True,
              help="Archive this game now, at rest or not (repeatable).")
@_friendly
def admin_archive(dry_run: bool, game_ids: tuple[str, ...]) -> None:
    """Write every game at rest out of Redis to its archive file (see docs/archive.md):
    ended ARCHIVE_AFTER_DAYS ago, or no event for ARCHIVE_IDLE_DAYS."""
    from events.archive import ArchiveError
    from worker import archive
    rt = _admin_runtime()
    if game_ids:
        found = [archive.AtRest(g, "asked", rt.now()) for g in game_ids]
    else:
        found = [c for _offset, page in archive.walk(rt) for c in page]
    failed = 0
    for candidate in found:
        if dry_run:
            click.echo(f"{candidate.game_id}  at rest ({candidate.why}) since "
                       f"{candidate.last:%Y-%m-%d %H:%M}")
            continue
        try:
            done = archive.archive_one(rt, candidate.game_id)
        except ArchiveError as exc:
            failed += 1
            click.echo(f"{candidate.game_id}  NOT archived: {exc}", err=True)
            continue
        if done is None:
            click.echo(f"{candidate.game_id}  not archived: archived already, no such game, "
                       "or it changed meanwhile")
        else:
            click.echo(f"{candidate.game_id}  archived: {done.entry['version']} events, "
                       f"{done.file_bytes} bytes, {done.entry['url']}")
    click.echo(f"{len(found)} games {'at rest' if dry_run else 'looked at'}")
    sys.exit(1 if failed else 0)


@admin.command("restore")
@click.argument("game_id")
@_friendly
def admin_restore(game_id: str) -> None:
    """Bring an archived game back into Redis now (any read or move of it does so too)."""
    from events.archive import ArchiveError, index_entry, restore_game
    rt = _admin_runtime()
    entry = index_entry(rt.redis, game_id)
    try:
        back = restore_game(rt.store, rt.archives, game_id)
    except ArchiveError as exc:
        raise click.ClickException(str(exc)) from None
    if not back:
        raise click.ClickException(f"no such game: {game_id}")
    click.echo(f"{game_id}: restored from {entry['url']}" if entry
               else f"{game_id}: not archived (it is in Redis)")


@main.group()
def bots() -> None:
    """Legal-move bots (random, or a game's own policy)."""


def _bot_policy(kind: str, name: str):
    """The kind (known), and its policy ``name`` or a clear refusal naming the known ones."""
    from games import bots as game_bots
    from games import registry
    if kind not in registry.KINDS:
        raise click.ClickException(f"unknown game kind {kind!r}; one of {sorted(registry.KINDS)}")
    try:
        return game_bots.policy(kind, name)
    except game_bots.UnknownPolicy as exc:
        raise click.ClickException(str(exc)) from None


def _report_capped(kind: str, players: int, capped) -> None:
    """One line per game stopped at the move cap: kind, players, seed, moves, last moves."""
    for cap in capped:
        click.echo(f"did not end: {kind} players={players} seed={cap.seed} moves={cap.moves} "
                   f"last={','.join(cap.last_types)}", err=True)


_POLICY_HELP = ("Bot policy for every seat: random, or one the game offers "
                "(feudum-guilds: greedy, master-seat; kings-guild: crafter).")


@bots.command("play")
@click.argument("kind")
@click.option("--players", "n_players", type=int, required=True)
@click.option("--games", "n_games", type=int, default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--options", "options_json", default="{}", help="Game options as JSON.")
@click.option("--policy", "policy_name", default="random", show_default=True, help=_POLICY_HELP)
@click.option("--max-moves", type=click.IntRange(1), default=20_000, show_default=True,
              help="Stop a game after this many moves and report it as an error.")
@_friendly
def bots_play(kind: str, n_players: int, n_games: int, seed: int, options_json: str,
              policy_name: str, max_moves: int) -> None:
    """Play whole games through the event store (REDIS_URL, else a temporary Redis).

    Every move goes through the same decide-and-append path as a player's; the rules'
    invariants are checked after each move and, after each game, the hash chain and a
    rebuild from event 1 against the live state.  Game i's bots choose from seed + i (the
    deal comes from the store's own secret); a game not over after --max-moves is stopped,
    the others played, and the command exits 1 naming its seed and last moves.
    """
    from events.gameplay import GameService
    from events.store import EventStore
    from games.bots import MoveCapReached, choose_seat_and_move
    from games.protocol import IllegalMove
    from service.config import DEFAULTS, ConfigError, check_redis, from_environment, queue_url
    from service.redis_setup import EmbeddedRedis, connect_queue, connect_store
    from worker import jobs
    from worker.queue import Enqueuer
    policy = _bot_policy(kind, policy_name)
    config = {**DEFAULTS, **from_environment()}
    try:
        check_redis(config)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    embedded = None
    if not config.get("REDIS_URL"):
        embedded = EmbeddedRedis(tempfile.mkdtemp(prefix="ravenpost-bots-")).start()
        config["REDIS_URL"] = embedded.url
    service = GameService(EventStore(connect_store(config)))
    # Beside running workers (a queue configured), each move asks for its projection as a
    # player's does; else the sweep of any later worker finds the games marked dirty.
    enqueuer = Enqueuer(connect_queue(config)) if queue_url(config) and not embedded else None
    moves = errors = finished = 0
    capped: list[MoveCapReached] = []
    started = time.perf_counter()
    try:
        with click.progressbar(range(n_games), label=f"{kind} x{n_players}",
                               file=sys.stderr) as bar:
            for i in bar:
                players = [{"name": f"Bot {s + 1}", "email": ""} for s in range(n_players)]
                table = service.create(kind, players, json.loads(options_json))
                gid = table.game_id
                if enqueuer is not None:
                    jobs.request_projection(enqueuer, gid, table.version)
                chooser, played_types = random.Random(seed + i), []
                try:
                    while not table.ended:
                        if len(played_types) >= max_moves:
                            raise MoveCapReached(seed + i, len(played_types),
                                                 played_types[-8:])
                        seat, move = choose_seat_and_move(table.game, table.state, chooser,
                                                          policy)
                        played = service.play(gid, seat, move, table.version)
                        played_types.append(str(move.get("type")))
                        moves += 1
                        if enqueuer is not None:
                            jobs.request_projection(enqueuer, gid, played.version)
                        table = service.load(gid)
                        table.game.check_invariants(table.state)
                    rebuilt = service.replayer.load(gid, use_snapshot=False)
                    if rebuilt.state != table.state or not service.store.verify(gid)[0]:
                        raise AssertionError("rebuild differs from the live state")
                    finished += 1
                except MoveCapReached as exc:
                    errors += 1
                    capped.append(exc)
                except (IllegalMove, AssertionError, RuntimeError, IndexError) as exc:
                    errors += 1
                    click.echo(f"\ngame {i} ({gid}): {type(exc).__name__}: {exc}", err=True)
    finally:
        if embedded:
            embedded.stop()
    elapsed = time.perf_counter() - started
    _report_capped(kind, n_players, capped)
    click.echo(json.dumps({"kind": kind, "players": n_players, "games": n_games,
                           "policy": policy_name, "max_moves": max_moves,
                           "finished": finished, "moves": moves, "errors": errors,
                           "capped": len(capped),
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
@click.option("--policy", "policy_name", default="random", show_default=True, help=_POLICY_HELP)
@click.option("--max-moves", type=click.IntRange(1), default=20_000, show_default=True,
              help="Stop a game after this many moves and report it as an error.")
@_friendly
def bots_soak(kind: str, counts: str, n_games: int, seed: int, options_json: str,
              policy_name: str, max_moves: int) -> None:
    """Many games in memory, the rules' invariants after every move, a rebuild from the
    tapes after each game; one JSON line per player count (the rules only, no store).
    Game i plays from seed + i; one stopped at --max-moves is reported by its seed (before
    its count's line) and the command exits 1."""
    from games import registry
    from games.bots import MoveCapReached, play_random_game
    policy = _bot_policy(kind, policy_name)
    game = registry.get(kind)
    player_counts = [int(c) for c in counts.split(",") if c] or list(
        range(game.min_players, game.max_players + 1))
    failed = 0
    for n in player_counts:
        moves = errors = 0
        capped: list[MoveCapReached] = []
        started = time.perf_counter()
        with click.progressbar(range(n_games), label=f"{kind} x{n}", file=sys.stderr) as bar:
            for i in bar:
                try:
                    _state, record = play_random_game(game, n, seed + i, json.loads(options_json),
                                                      max_moves=max_moves,
                                                      check=game.check_invariants, policy=policy)
                    moves += len(record.moves)
                except MoveCapReached as exc:
                    errors += 1
                    capped.append(exc)
                except Exception as exc:  # every failure is reported, the run goes on
                    errors += 1
                    click.echo(f"\nseed {seed + i}: {type(exc).__name__}: {exc}", err=True)
        failed += errors
        _report_capped(kind, n, capped)
        click.echo(json.dumps({"kind": kind, "players": n, "games": n_games, "policy": policy_name,
                               "errors": errors, "capped": len(capped),
                               "mean_moves": round(moves / max(n_games - errors, 1), 1),
                               "seconds_per_game": round(
                                   (time.perf_counter() - started) / n_games, 3)}))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
