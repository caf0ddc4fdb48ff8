"""The claim of a request that starts a game (service/once.py) has a bounded life: a
process killed while holding it blocks the request's token for STARTING_SECONDS at most,
then the request may be sent again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from service import once

ROOT = Path(__file__).resolve().parents[2]
HOLDER = textwrap.dedent("""
    import sys, time, redis
    from service import once
    once.STARTING_SECONDS = float(sys.argv[2])
    client = redis.Redis.from_url(sys.argv[1], decode_responses=True)
    assert once.take(client, sys.argv[3]) is None
    print("held", flush=True)
    time.sleep(3600)  # starting the game, until killed
""")


def test_a_start_claim_of_a_killed_process_runs_out(real_redis, real_redis_url):
    name = "rp:api:once:test-killed-holder"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, real_redis_url, "1.5", name],
                              cwd=ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline().strip() == "held"
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(10)
        assert once.take(real_redis, name) == ""  # still starting: a copy is told to wait
        deadline = time.monotonic() + 20
        while real_redis.exists(name) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert once.take(real_redis, name) is None  # the request may start its game now
    finally:
        if holder.poll() is None:
            holder.kill()
        real_redis.delete(name)


def test_a_start_claim_lives_a_minute_and_a_started_game_a_day():
    assert once.STARTING_SECONDS <= 60
    assert once.KEPT_SECONDS == 24 * 3600
