"""`ravenpost serve` never runs twice on one data directory, never pretends to run, and
keeps its processes up (or stops them all, with exit code 1, when it cannot)."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
from pathlib import Path

from service.redis_setup import redis_server_binary
from tests.integration.test_embedded import (
    ADMIN_TOKEN,
    ROOT,
    free_port,
    http,
    redis_by_hand,
    serve_command,
    start_serve,
    stop_serve,
    wait_until,
)

PLAYERS = [{"name": "Ada", "email": "ada@example.com"}, {"name": "Bo", "email": "bo@example.com"}]


def make_game(base: str, admin_token: str = ADMIN_TOKEN) -> tuple[str, str]:
    status, created = http("POST", f"{base}/api/v1/games", {
        "game": "test-race", "options": {"target": 50}, "players": PLAYERS}, token=admin_token)
    assert status == 201, created
    gid, token = created["id"], created["seats"][0]["token"]
    status, _ = http("POST", f"{base}/api/v1/games/{gid}/moves",
                     {"move": {"type": "ante", "amount": 3}, "expected_version": 1}, token)
    assert status == 201
    return gid, token


def game_version(base: str, gid: str, token: str) -> int | None:
    status, game = http("GET", f"{base}/api/v1/games/{gid}", token=token)
    return game["version"] if status == 200 else None


def run_serve(data_dir: Path, port: int, **env_changes) -> subprocess.CompletedProcess:
    """A `serve` expected to stop on its own (bounded: killed after 60 s)."""
    argv, env = serve_command(data_dir, port, **env_changes)
    return subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, text=True, timeout=60)


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def child_running(pid: int, marker: str) -> int | None:
    """The pid of ``pid``'s child whose command line contains ``marker``."""
    for child in children(pid):
        try:
            if marker in Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode():
                return child
        except OSError:
            pass
    return None


def port_is_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_a_second_serve_on_a_data_directory_in_use_is_refused_and_the_first_keeps_working(
        tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    first = start_serve(tmp_path / "var", port)
    try:
        gid, token = make_game(base)
        second = run_serve(tmp_path / "var", free_port())
        assert second.returncode == 1
        assert f"in use by another `ravenpost serve` (pid {first.pid})" in second.stderr
        assert "Ravenpost on" not in second.stdout
        assert first.poll() is None
        assert game_version(base, gid, token) == 2
    finally:
        stop_serve(first)
    assert first.returncode == 0


def test_serve_refuses_a_data_directory_whose_redis_was_started_by_hand(tmp_path):
    data = tmp_path / "var"
    with redis_by_hand(data) as by_hand:
        result = run_serve(data, free_port())
        assert result.returncode == 1
        assert "a Redis server already answers on" in result.stderr
        assert by_hand.poll() is None


def test_serve_on_a_busy_port_exits_non_zero_before_claiming_to_run(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_serve(tmp_path / "var", port)
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}: another process is listening there" \
        in result.stderr
    assert "Ravenpost on" not in result.stdout


def test_serve_whose_web_server_cannot_start_exits_non_zero_without_claiming_to_run(tmp_path):
    # production refuses the default secret, and serve makes none up in production
    result = run_serve(tmp_path / "var", free_port(), RAVENPOST_ENV="production",
                       SECRET_KEY=None)
    assert result.returncode == 1
    assert "the web server exited at start" in result.stderr
    assert "Ravenpost on" not in result.stdout


def test_a_killed_embedded_redis_is_restarted_and_keeps_every_game(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # the quick start's way: no ADMIN_TOKEN, so serve keeps one in the data directory
    proc = start_serve(tmp_path / "var", port, ADMIN_TOKEN=None)
    try:
        admin_token = (tmp_path / "var" / "admin-token").read_text().strip()
        gid, token = make_game(base, admin_token)
        old_redis = int((tmp_path / "var" / "redis.lock").read_text())
        os.kill(old_redis, signal.SIGKILL)
        assert wait_until(lambda: game_version(base, gid, token) == 2, timeout=60)
        assert wait_until(lambda: http("GET", f"{base}/")[0] == 200, timeout=30)
        assert int((tmp_path / "var" / "redis.lock").read_text()) != old_redis
        assert make_game(base, admin_token)  # and it takes new games
        assert proc.poll() is None
    finally:
        stop_serve(proc)
    assert proc.returncode == 0


def test_an_embedded_redis_that_cannot_be_restarted_stops_serve_with_exit_1(tmp_path):
    # a redis-server that starts once, then never again
    once = tmp_path / "redis-once"
    once.write_text(f'#!/bin/sh\nif [ -e "{tmp_path}/started" ]; then exit 1; fi\n'
                    f'touch "{tmp_path}/started"\nexec "{redis_server_binary()}" "$@"\n')
    once.chmod(once.stat().st_mode | stat.S_IXUSR)
    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    proc = start_serve(tmp_path / "var", port, output=log, RAVENPOST_REDIS_SERVER=str(once))
    try:
        os.kill(int((tmp_path / "var" / "redis.lock").read_text()), signal.SIGKILL)
        proc.wait(120)  # five tries with backoff take about 8 s
    finally:
        stop_serve(proc)
        log.close()
    assert proc.returncode == 1
    output = (tmp_path / "serve.log").read_text()
    assert "the embedded Redis could not be restarted" in output
    assert "stopped everything" in output
    assert wait_until(lambda: port_is_free(port), timeout=10)  # the web server is gone too


def test_a_web_server_or_worker_that_dies_is_restarted(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (tmp_path / "serve.log").open("w")
    proc = start_serve(tmp_path / "var", port, output=log)
    try:
        gid, token = make_game(base)
        worker = child_running(proc.pid, "service.cli worker")
        web = child_running(proc.pid, "gunicorn")
        assert worker and web
        os.kill(worker, signal.SIGKILL)
        os.kill(web, signal.SIGKILL)
        assert wait_until(lambda: child_running(proc.pid, "service.cli worker") not in (
            None, worker), timeout=30)
        assert wait_until(lambda: game_version(base, gid, token) == 2, timeout=30)
        assert child_running(proc.pid, "gunicorn") not in (None, web)
        assert proc.poll() is None
    finally:
        stop_serve(proc)
        log.close()
    assert proc.returncode == 0
    output = (tmp_path / "serve.log").read_text()
    assert "worker 1 exited (code -9); restarting" in output
    assert "the web server exited (code -9); restarting" in output
