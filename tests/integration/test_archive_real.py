"""Archiving on a real Redis (issue 32, item 1): the index entry's memory, an S3 bucket
(moto's server, over HTTP), and kill -9 at every step of archiving and restoring."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from events.archive import archive_game, index_entry
from events.store import key
from tests.events.test_archive import finish, keys_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def real_rt(real_app, tmp_path):
    rt = real_app.extensions["ravenpost"]
    rt.archives.url = str(tmp_path / "archive")
    return rt


@pytest.fixture
def finished(real_rt):
    """A finished race on the real server: ``(game id, its last table)``."""
    table = real_rt.games.create("test-race", [
        {"name": "Ada", "email": "ada@example.com"},
        {"name": "Bo", "email": "bo@example.com"}], {"target": 40})
    return table.game_id, finish(real_rt, table.game_id)


def memory(rt, game_id: str) -> int:
    """MEMORY USAGE summed over every key of the game."""
    prefix = key(game_id, "")
    return sum(rt.redis.memory_usage(k, samples=0) or 0
               for k in rt.redis.scan_iter(match=prefix + "*"))


def test_an_archived_game_keeps_under_a_kilobyte_in_redis(real_rt, finished):
    game_id, table = finished
    before = memory(real_rt, game_id)
    done = archive_game(real_rt.store, real_rt.archives, game_id)
    after = memory(real_rt, game_id)
    assert keys_of(real_rt, game_id) == ["archived"]
    assert after == real_rt.redis.memory_usage(key(game_id, "archived"), samples=0) <= 1024
    assert after < before
    print(f"\ntest-race, {table.version} events: {before} bytes in Redis before, "
          f"{after} after; archive file {done.file_bytes} bytes")
    assert real_rt.store.verify(game_id) == (True, table.version, "")
    assert real_rt.replayer.load(game_id, use_snapshot=False).state == table.state


# -- S3 -----------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def bucket(monkeypatch):
    """An S3 endpoint (moto's server mode, over HTTP) with a bucket: its endpoint URL."""
    from moto.server import ThreadedMotoServer
    for name, value in (("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing"),
                        ("AWS_DEFAULT_REGION", "us-east-1")):
        monkeypatch.setenv(name, value)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    import boto3
    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="games")
    yield endpoint
    server.stop()


def test_a_game_archived_to_an_s3_bucket_comes_back_from_it(real_rt, finished, bucket):
    import boto3
    game_id, table = finished
    real_rt.archives.url, real_rt.archives.s3_endpoint = "s3://games/at-rest", bucket
    done = archive_game(real_rt.store, real_rt.archives, game_id)
    s3 = boto3.client("s3", endpoint_url=bucket)
    stored = s3.list_objects_v2(Bucket="games", Prefix="at-rest/")["Contents"]
    assert [o["Key"] for o in stored] == [done.entry["url"].removeprefix("s3://games/")]
    assert stored[0]["Size"] == done.file_bytes
    assert keys_of(real_rt, game_id) == ["archived"]
    assert real_rt.games.load(game_id).state == table.state  # brought back on demand
    assert real_rt.store.verify(game_id) == (True, table.version, "")
    assert s3.list_objects_v2(Bucket="games", Prefix="at-rest/")["KeyCount"] == 0


def test_an_unreachable_bucket_leaves_the_game_in_redis(real_rt, finished):
    game_id, _table = finished
    real_rt.archives.url = "s3://games/at-rest"
    real_rt.archives.s3_endpoint = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(Exception):  # noqa: B017 - botocore's, whichever it is
        archive_game(real_rt.store, real_rt.archives, game_id)
    assert "log" in keys_of(real_rt, game_id) and index_entry(real_rt.redis, game_id) is None


# -- kill -9 at every step ----------------------------------------------------------------------
ARCHIVE_STEPS = ["archive:read", "archive:tmp-written", "archive:written", "archive:verified",
                 "archive:committed"]
RESTORE_STEPS = ["restore:fetched", "restore:committed", "restore:deleted"]


def run_killed(real_redis_url: str, game_id: str, where: str, what: str, step: str) -> None:
    """Archive or restore the game in a process that kills itself at ``step``."""
    env = {**os.environ, "RAVENPOST_ARCHIVE_KILL_AT": step, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tests.archive_crash", real_redis_url,
                           game_id, where, what], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, (done.stdout, done.stderr)


def nothing_lost(rt, game_id: str, table) -> None:
    """Either the game or its verified archive is there; it verifies and loads whole."""
    entry = index_entry(rt.redis, game_id)
    assert rt.redis.exists(key(game_id, "log")) != (entry is not None)
    if entry is not None:
        assert rt.archives.fetch(entry["url"])  # its file was written before it
    assert rt.store.verify(game_id) == (True, table.version, "")
    loaded = rt.replayer.load(game_id, use_snapshot=False)
    assert (loaded.version, loaded.state) == (table.version, table.state)
    assert rt.store.read(game_id)[-1].hash == table.head


@pytest.mark.parametrize("step", ARCHIVE_STEPS)
def test_kill_9_while_archiving_loses_nothing(real_rt, real_redis_url, finished, step):
    game_id, table = finished
    run_killed(real_redis_url, game_id, real_rt.archives.url, "archive", step)
    nothing_lost(real_rt, game_id, table)
    assert archive_game(real_rt.store, real_rt.archives, game_id) is not None  # again: fine
    nothing_lost(real_rt, game_id, table)


@pytest.mark.parametrize("step", RESTORE_STEPS)
def test_kill_9_while_restoring_loses_nothing(real_rt, real_redis_url, finished, step):
    game_id, table = finished
    archive_game(real_rt.store, real_rt.archives, game_id)
    run_killed(real_redis_url, game_id, real_rt.archives.url, "restore", step)
    nothing_lost(real_rt, game_id, table)


def test_a_new_event_after_a_restore_killed_half_way_appends_after_the_archived_ones(
        real_rt, real_redis_url, finished):
    game_id, table = finished
    archive_game(real_rt.store, real_rt.archives, game_id)
    run_killed(real_redis_url, game_id, real_rt.archives.url, "restore", "restore:fetched")
    event = real_rt.games.rewind(game_id, 3, "after the crash", "admin")
    assert event.version == table.version + 1
    assert real_rt.store.verify(game_id) == (True, table.version + 1, "")


def test_the_archive_command_lists_then_archives_games_at_rest(real_rt, real_redis_url,
                                                                finished):
    game_id, _table = finished
    env = {**os.environ, "REDIS_URL": real_redis_url, "ARCHIVE_URL": real_rt.archives.url,
           "PYTHONPATH": str(ROOT), "ARCHIVE_AFTER_DAYS": "0"}  # ended: at rest at once
    command = [sys.executable, "-c", "from service.cli import main; main()", "admin", "archive"]
    listed = subprocess.run([*command, "--dry-run"], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=60)
    assert listed.returncode == 0, listed.stderr
    assert f"{game_id}  at rest (ended)" in listed.stdout
    assert "log" in keys_of(real_rt, game_id)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"{game_id}  archived" in done.stdout
    assert keys_of(real_rt, game_id) == ["archived"]
    back = subprocess.run([sys.executable, "-c", "from service.cli import main; main()",
                           "admin", "restore", game_id], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert back.returncode == 0, back.stderr
    assert "log" in keys_of(real_rt, game_id)


def test_an_archived_game_stays_under_a_kilobyte_with_long_names_and_revoked_links(real_rt):
    names = [f"{'Bartholomew-Maximilian ' * 3}{seat}"[:60] for seat in range(4)]
    table = real_rt.games.create("test-race", [
        {"name": name, "email": f"p{seat}@example.com"} for seat, name in enumerate(names)],
        {"target": 40})
    finish(real_rt, table.game_id)
    from worker.links import raise_seat_generation
    for seat in range(4):  # every seat's links revoked once: that hash stays in Redis
        raise_seat_generation(real_rt.redis, table.game_id, seat)
    archive_game(real_rt.store, real_rt.archives, table.game_id)
    assert keys_of(real_rt, table.game_id) == ["api-gen", "archived"]
    print(f"\nlong names, 4 revoked seats: {memory(real_rt, table.game_id)} bytes in Redis")
    assert memory(real_rt, table.game_id) <= 1024
