"""The embedded default: a real redis-server under ./var that loses nothing on restart,
and `ravenpost serve` running web, worker and Redis together."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from events.envelope import ADMIN_NOTE, Event
from events.store import EventStore
from service.redis_setup import EmbeddedRedis, connect, durability_problems

ROOT = Path(__file__).resolve().parents[2]


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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method: str, url: str, body: dict | None = None, token: str | None = None):
    request = urllib.request.Request(url, method=method, data=json.dumps(body).encode()
                                     if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


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


def start_serve(data_dir: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "ADMIN_TOKEN": "adm", "PYTHONPATH": str(ROOT),
           "RAVENPOST_EXTRA_GAMES": "test-race=tests.platform_game:GAME"}
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "service.cli", "serve", "--port", str(port),
                             "--data-dir", str(data_dir)], env=env, cwd=ROOT,
                            start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    if not wait_until(lambda: http("GET", f"http://127.0.0.1:{port}/api/v1/kinds")[0] == 200):
        proc.kill()
        pytest.fail("ravenpost serve did not come up")
    return proc


def stop_serve(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    proc.wait(30)


def test_serve_runs_everything_and_a_restart_loses_no_game(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start_serve(tmp_path / "var", port)
    try:
        status, created = http("POST", f"{base}/api/v1/games", {
            "game": "test-race", "options": {"target": 50},
            "players": [{"name": "Ada", "email": "ada@example.com"},
                        {"name": "Bo", "email": "bo@example.com"}]}, token="adm")
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
    assert not (tmp_path / "var" / "redis.sock").exists() or not wait_until(
        lambda: connect(f"unix://{tmp_path / 'var' / 'redis.sock'}").ping(), timeout=1)
    proc = start_serve(tmp_path / "var", port)
    try:
        status, game = http("GET", f"{base}/api/v1/games/{gid}", token=token)
        assert status == 200 and game["version"] == 2 and game["view"]["antes"][0] == 3
    finally:
        stop_serve(proc)
