"""The size limit where it matters: gunicorn as in the Procfile, bodies over a raw socket."""

from __future__ import annotations

import os
import select
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support import ADMIN

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 64 * 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def gunicorn(real_redis_url, real_redis):
    """gunicorn with the Procfile's worker class, on the test run's own Redis database."""
    if not shutil.which("gunicorn", path=os.path.dirname(sys.executable)) \
            and not shutil.which("gunicorn"):
        pytest.skip("gunicorn is not installed")
    port = free_port()
    env = os.environ | {"REDIS_URL": real_redis_url, "SECRET_KEY": "s" * 40,
                        "ADMIN_TOKEN": ADMIN, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--worker-class", "gthread", "--threads", "4",
         "--bind", f"127.0.0.1:{port}", "service:create_app()"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/api/v1/kinds", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("gunicorn did not come up: " + proc.stderr.read().decode()[-2000:])
                time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def status_of(sock: socket.socket, timeout: float = 10) -> int:
    sock.settimeout(timeout)
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return int(head.split(b" ", 2)[1])


def request_head(port: int, extra: str) -> bytes:
    return (f"POST /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {ADMIN}\r\nContent-Type: application/json\r\n"
            f"{extra}\r\n").encode()


def test_gunicorn_answers_413_to_a_large_declared_body_before_it_is_sent(gunicorn):
    with socket.create_connection(("127.0.0.1", gunicorn), timeout=10) as sock:
        sock.sendall(request_head(gunicorn, f"Content-Length: {20 * 1024 * 1024}\r\n"))
        sock.sendall(b"{" + b" " * 1023)  # 1 KB of the announced 20 MB, then nothing
        assert status_of(sock) == 413


def test_gunicorn_cuts_off_a_chunked_body_just_past_the_limit(gunicorn):
    sent = 0
    chunk = b" " * 16384
    with socket.create_connection(("127.0.0.1", gunicorn), timeout=10) as sock:
        sock.sendall(request_head(gunicorn, "Transfer-Encoding: chunked\r\n"))
        # an endless body, one chunk at a time, until the server answers (bounded)
        while sent < 16 * 1024 * 1024:
            readable, _, _ = select.select([sock], [], [], 0.02)
            if readable:
                break
            try:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:  # the server closed the connection after answering
                break
            sent += len(chunk)
        assert status_of(sock) == 413
    # the server stopped reading near the limit, not at the end of an endless body
    assert sent < 4 * 1024 * 1024
    assert urllib.request.urlopen(
        f"http://127.0.0.1:{gunicorn}/api/v1/kinds", timeout=5).status == 200
