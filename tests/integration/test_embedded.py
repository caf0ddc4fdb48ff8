"""The embedded default: a real redis-server under ./var that loses nothing on restart,
and `ravenpost serve` running web, worker and Redis together."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from events.envelope import ADMIN_NOTE, Event
from events.store import EventStore
from service.redis_setup import (
    DataDirInUse,
    EmbeddedRedis,
    connect,
    durability_problems,
    redis_server_binary,
)

ROOT = Path(__file__).resolve().parents[2]
ADMIN_TOKEN = "adm"


def test_embedded_redis_is_durable_and_keeps_every_acknowledged_event(tmp_path):
    server = EmbeddedRedis(tmp_path / "var").start()
    try:
        assert durability_problems(connect(server.url)) == []
        store = EventStore(connect(server.url))
        for i in range(50):
            store.append("g1", i, Event(0, ADMIN_NOTE, "admin", {"text": str(i)}))
        server.process.kill()  # no clean shutdown: only the append-only file can save us
        server.process.wait()
        server = EmbeddedRedis(tmp_path / "var").start()
        store = EventStore(connect(server.url))
        assert store.version("g1") == 50
        assert store.verify("g1") == (True, 50, "")
    finally:
        server.stop()
    assert (tmp_path / "var" / "appendonlydir").exists() or any(
        p.name.startswith("appendonly") for p in (tmp_path / "var").iterdir())


def test_a_second_embedded_redis_on_the_same_files_is_refused(tmp_path):
    first = EmbeddedRedis(tmp_path / "var").start()
    try:
        with pytest.raises(DataDirInUse, match=f"pid {first.process.pid}"):
            EmbeddedRedis(tmp_path / "var").start()
        assert connect(first.url).ping()  # the first one was not disturbed
    finally:
        first.stop()
    EmbeddedRedis(tmp_path / "var").start().stop()  # the lock died with the server


def test_the_lock_dies_with_a_killed_embedded_redis(tmp_path):
    server = EmbeddedRedis(tmp_path / "var").start()
    server.process.kill()
    server.process.wait()
    server = EmbeddedRedis(tmp_path / "var").start()  # no stale lock after kill -9
    server.stop()


@contextlib.contextmanager
def redis_by_hand(data: Path) -> Iterator[subprocess.Popen]:
    """A redis-server started by hand on ``data``'s socket and files, answering; stopped
    after the block."""
    data.mkdir(exist_ok=True)
    by_hand = subprocess.Popen([redis_server_binary(), "--port", "0", "--unixsocket",
                                str(data / "redis.sock"), "--dir", str(data)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until(lambda: redis_answers(f"unix://{data / 'redis.sock'}"), 20)
        yield by_hand
    finally:
        by_hand.kill()
        by_hand.wait(10)


def test_an_embedded_redis_refuses_a_data_directory_served_by_hand(tmp_path):
    with redis_by_hand(tmp_path / "var"), pytest.raises(DataDirInUse, match="already answers"):
        EmbeddedRedis(tmp_path / "var").start()


def redis_answers(url: str) -> bool:
    try:
        return bool(connect(url).ping())
    except redis.RedisError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, body: dict | None = None, token: str | None = None):
    """(status, parsed JSON or, for a page, its text)."""
    request = urllib.request.Request(url, method=method, data=json.dumps(body).encode()
                                     if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            status, raw = reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        status, raw = exc.code, exc.read()
    try:
        return status, json.loads(raw or b"null")
    except ValueError:
        return status, raw.decode(errors="replace")


def wait_until(check, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def serve_command(data_dir: Path, port: int, **env_changes: str | None):
    """The argv and environment of `ravenpost serve` on ``data_dir`` and ``port``, with
    the embedded Redis (no REDIS_URL) and the test game kind; ``None`` unsets a variable."""
    env = {**os.environ, "ADMIN_TOKEN": ADMIN_TOKEN, "PYTHONPATH": str(ROOT),
           "RAVENPOST_EXTRA_GAMES": "test-race=tests.platform_game:GAME"}
    for key, value in {"REDIS_URL": None, "RAVENPOST_REDIS_SERVER": None,
                       **env_changes}.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    argv = [sys.executable, "-m", "service.cli", "serve", "--port", str(port),
            "--data-dir", str(data_dir)]
    return argv, env


def start_serve(data_dir: Path, port: int, output=subprocess.DEVNULL,
                **env_changes: str | None) -> subprocess.Popen:
    """`ravenpost serve`, once its web server answers (stopped again if it never does)."""
    argv, env = serve_command(data_dir, port, **env_changes)
    proc = subprocess.Popen(argv, env=env, cwd=ROOT, start_new_session=True,
                            stdout=output, stderr=output)
    if not wait_until(lambda: proc.poll() is None and http(
            "GET", f"http://127.0.0.1:{port}/api/v1/kinds")[0] == 200):
        stop_serve(proc)
        pytest.fail("ravenpost serve did not come up")
    return proc


def stop_serve(proc: subprocess.Popen) -> None:
    """Ctrl-C, as a user would; kill -9 if it hangs (its children get SIGTERM then)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def test_serve_runs_everything_and_a_restart_loses_no_game(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_serve(tmp_path / "var", port)
    try:
        status, created = http("POST", f"{base}/api/v1/games", {
            "game": "test-race", "options": {"target": 50},
            "players": [{"name": "Ada", "email": "ada@example.com"},
                        {"name": "Bo", "email": "bo@example.com"}]}, token=ADMIN_TOKEN)
        assert status == 201
        gid, token = created["id"], created["seats"][0]["token"]
        status, _ = http("POST", f"{base}/api/v1/games/{gid}/moves",
                         {"move": {"type": "ante", "amount": 3}, "expected_version": 1}, token)
        assert status == 201
        # the RQ worker projects the game and the outbox fills with the invitations
        assert wait_until(lambda: b"bo@example.com" in urllib.request.urlopen(
            f"{base}/dev/mail/", timeout=5).read())
    finally:
        stop_serve(proc)
    assert proc.returncode == 0
    assert not redis_answers(f"unix://{tmp_path / 'var' / 'redis.sock'}")
    proc = start_serve(tmp_path / "var", port)
    try:
        status, game = http("GET", f"{base}/api/v1/games/{gid}", token=token)
        assert status == 200 and game["version"] == 2 and game["view"]["antes"][0] == 3
    finally:
        stop_serve(proc)


def test_admin_finds_the_embedded_redis_of_a_serve_data_dir_by_ravenpost_data_dir(tmp_path):
    """`ravenpost admin` beside `serve --data-dir DIR` needs RAVENPOST_DATA_DIR=DIR (README)."""
    data = tmp_path / "elsewhere"
    server = EmbeddedRedis(data).start()
    try:
        EventStore(connect(server.url)).append(
            "g1", 0, Event(0, ADMIN_NOTE, "admin", {"text": "hello"}))
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "REDIS_CLUSTER")}
        run = [sys.executable, "-m", "service.cli", "admin", "verify", "g1"]
        lost = subprocess.run(run, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60)
        assert lost.returncode != 0
        assert "set REDIS_URL (or run this beside `ravenpost serve`)" in lost.stderr
        found = subprocess.run(run, cwd=tmp_path, env={**env, "RAVENPOST_DATA_DIR": str(data)},
                               capture_output=True, text=True, timeout=60)
        # it reached the server: it read the one event there (not a game, so not "OK")
        assert "1 events" in found.stdout, (found.stdout, found.stderr)
    finally:
        server.stop()
