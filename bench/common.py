"""Shared set-up for the benchmarks: a real Redis and the platform's test game."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games import registry  # noqa: E402
from games.protocol import IllegalMove  # noqa: E402
from tests.platform_game import CountingRace  # noqa: E402
from tests.redis_claim import claim_on_known_servers, release  # noqa: E402

registry.KINDS.setdefault("test-race", "tests.platform_game:GAME")


class LongRace(CountingRace):
    """The test game with as many copies of the deck as a long benchmark needs (the test
    game allows 500, about 4,500 moves)."""

    kind = "bench-race"
    name = "Counting Race, long (benchmarks)"

    def normalize_options(self, options, n_players):
        copies = options.pop("copies", 4)
        normal = super().normalize_options(options, n_players)
        if not isinstance(copies, int) or not 1 <= copies <= 100_000:
            raise IllegalMove("copies must be a whole number from 1 to 100000")
        return normal | {"copies": copies}

    def rules_summary(self) -> str:
        return "The test game, with a longer deck."


LONG_RACE = LongRace()
registry.KINDS.setdefault("bench-race", "common:LONG_RACE")


def copies_for(events: int) -> int:
    """Copies of the 9-card deck for a game of ``events`` moves (one card drawn per move)."""
    return max(4, events // 9 + 2)


@contextmanager
def real_redis(durable: bool = False) -> Iterator[tuple[redis.Redis, str]]:
    """An empty database of its own on a real Redis server: (client, url).

    REDIS_URL's server, else 127.0.0.1:6379, else an embedded redis-server; on a shared
    server only a database that held nothing is used, and only its keys are deleted.
    ``durable``: always the embedded redis-server, configured as ``ravenpost serve``
    runs it (AOF, ``appendfsync always``: every write waits for the disk)."""
    embedded, claim = None, None if durable else claim_on_known_servers()
    if claim:
        url = claim[0]
    else:
        from service.redis_setup import EmbeddedRedis
        embedded = EmbeddedRedis(tempfile.mkdtemp(prefix="ravenpost-bench-")).start()
        url = embedded.url
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        yield client, url
    finally:
        if claim:
            release(*claim)
        if embedded:
            embedded.stop()


def timed(fn: Callable[[], object], repeat: int) -> float:
    """The median of ``repeat`` timed calls of ``fn``, after one untimed warm-up call."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


BENCH_SECRET = "bench-secret-key-of-more-than-thirty-two-bytes"
BENCH_ADMIN = "bench-admin-token-of-more-than-thirty-two-bytes"


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def service_env(url: str, port: int, **extra: str) -> dict[str, str]:
    """The environment of the production processes (Procfile) on ``url``, with the test
    game installed as a plug-in kind."""
    import os
    env = dict(os.environ)
    env.update({"REDIS_URL": url, "SECRET_KEY": BENCH_SECRET, "ADMIN_TOKEN": BENCH_ADMIN,
                "BASE_URL": f"http://127.0.0.1:{port}", "MAIL_BACKEND": "outbox",
                # emails are not held for the night: a run measures the same at any hour
                "QUIET_HOURS": "off",
                "RAVENPOST_EXTRA_GAMES": "test-race=tests.platform_game:GAME",
                "PYTHONPATH": str(ROOT), "PORT": str(port)})
    env.update(extra)
    return env


def procfile_command(name: str, env: dict[str, str]) -> list[str]:
    """The Procfile's ``name`` line as argv in ``env`` (``${VAR:-default}`` expanded),
    bound to 127.0.0.1."""
    import re
    import shlex
    for line in (ROOT / "Procfile").read_text().splitlines():
        if line.startswith(f"{name}:"):
            command = re.sub(r"\$\{(\w+):-([^}]*)\}",
                             lambda m: env.get(m.group(1)) or m.group(2),
                             line.split(":", 1)[1])
            argv = shlex.split(command)
            argv = [a.replace("0.0.0.0:", "127.0.0.1:") for a in argv]
            if argv[0] in ("gunicorn", "ravenpost"):
                argv[0] = str(Path(sys.executable).with_name(argv[0]))
            profile_dir = env.get("BENCH_PROFILE_WORKER")
            if name == "worker" and profile_dir:  # cProfile each worker (one file each)
                out = tempfile.mktemp(prefix="worker-", suffix=".prof", dir=profile_dir)
                argv = [sys.executable, "-m", "cProfile", "-o", out, *argv]
            return argv
    raise KeyError(name)


@contextmanager
def production(url: str, workers: int = 2, **env: str) -> Iterator[str]:
    """The Procfile's web (gunicorn, WEB_CONCURRENCY processes) and ``workers``
    ``ravenpost worker`` processes on ``url``; yields the web's base URL.  Every process
    is stopped at the end, whatever happens."""
    import signal
    import subprocess
    import urllib.request
    port = free_port()
    environment = service_env(url, port, **env)
    log = tempfile.NamedTemporaryFile("w", prefix="ravenpost-bench-", suffix=".log",
                                      delete=False)
    procs = [subprocess.Popen(procfile_command("web", environment), env=environment, cwd=ROOT,
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)]
    try:
        procs += [subprocess.Popen(procfile_command("worker", environment), env=environment,
                                   cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True) for _ in range(workers)]
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/api/v1/kinds", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or procs[0].poll() is not None:
                    raise RuntimeError(f"the web server did not start (log: {log.name})") from None
                time.sleep(0.2)
        yield base
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()
