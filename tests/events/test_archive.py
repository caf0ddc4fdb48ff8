"""Games at rest out of Redis (issue 32, item 1): one compressed file each, a small
index entry in Redis, and every way of using a game loads it back (unit tests on
fakeredis; tests/integration/test_archive_real.py runs on a real Redis and S3)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest

from events.archive import (
    ArchiveError,
    Archives,
    archive_game,
    decode,
    index_entry,
    restore_game,
)
from events.store import key
from games.bots import choose_seat_and_move
from tests.support import admin_headers
from worker import archive as sweep_mod
from worker import jobs


def finish(rt, game_id: str, seed: int = 1):
    """Play the game to its end with random legal moves; its last table."""
    table, chooser = rt.games.load(game_id), random.Random(seed)
    while not table.ended:
        seat, move = choose_seat_and_move(table.game, table.state, chooser)
        rt.games.play(game_id, seat, move, table.version)
        table = rt.games.load(game_id)
    jobs.project(game_id)
    return table


def keys_of(rt, game_id: str) -> list[str]:
    prefix = key(game_id, "")
    return sorted(k[len(prefix):] for k in rt.redis.scan_iter(match=prefix + "*"))


@pytest.fixture
def archived_rt(rt, tmp_path):
    rt.archives.url = str(tmp_path / "archive")
    return rt


@pytest.fixture
def ended(archived_rt, new_game):
    """A finished race with its players' tokens: ``(game id, tokens, last table)``."""
    game_id, tokens = new_game()
    return game_id, tokens, finish(archived_rt, game_id)


def test_a_finished_game_leaves_nothing_in_redis_but_its_index_entry(archived_rt, ended):
    game_id, _tokens, _table = ended
    assert "log" in keys_of(archived_rt, game_id)
    done = archive_game(archived_rt.store, archived_rt.archives, game_id)
    assert done is not None and done.file_bytes > 0
    assert keys_of(archived_rt, game_id) == ["archived"]
    entry = index_entry(archived_rt.redis, game_id)
    assert entry["url"].startswith("file://") and entry["version"] == done.entry["version"]
    assert len(archived_rt.redis.get(key(game_id, "archived"))) < 1024


def test_the_file_holds_the_log_with_its_hash_chain_and_the_games_keys(archived_rt, ended):
    game_id, _tokens, _table = ended
    log = archived_rt.store.read(game_id, raw=True)
    done = archive_game(archived_rt.store, archived_rt.archives, game_id)
    document = decode(archived_rt.archives.fetch(done.entry["url"]))
    assert [fields["hash"] for _id, fields in document["log"]] == [e.hash for e in log]
    assert {"seats", "secrets", "summary", "projected"} <= set(document["keys"])
    assert not {"snapshot", "snapshot_version"} & set(document["keys"])  # rebuilt instead


def test_an_archived_game_loads_verifies_and_audits_with_every_event(
        archived_rt, ended, client):
    game_id, _tokens, table = ended
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    reply = client.get(f"/api/v1/admin/games/{game_id}/verify", headers=admin_headers())
    assert reply.status_code == 200, reply.json
    assert reply.json["ok"] and reply.json["events"] == table.version
    assert archived_rt.games.load(game_id).state == table.state
    assert index_entry(archived_rt.redis, game_id) is None  # back in Redis


def test_a_players_page_history_and_scrub_load_an_archived_game(archived_rt, ended, client):
    game_id, tokens, table = ended
    link = archived_rt.links.make(game_id, 0, "play")  # as emailed
    for path in (f"/play/{link}", f"/play/{link}/at/2", f"/api/v1/games/{game_id}/history"):
        archive_game(archived_rt.store, archived_rt.archives, game_id)
        headers = {"Authorization": f"Bearer {tokens[0]}"} if "/api/" in path else {}
        reply = client.get(path, headers=headers)
        assert reply.status_code == 200, (path, reply.status_code)
        assert archived_rt.store.version(game_id) == table.version


def test_admin_state_history_fork_and_refold_load_an_archived_game(archived_rt, ended, client):
    game_id, _tokens, table = ended
    api = f"/api/v1/admin/games/{game_id}"
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    assert client.get(f"{api}/state?at=3", headers=admin_headers()).json["version"] == 3
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    events = client.get(f"{api}/history", headers=admin_headers()).json["events"]
    assert len(events) == table.version
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    fork = client.post(f"{api}/fork", headers=admin_headers(), json={"at": 3})
    assert fork.status_code == 201, fork.json
    assert archived_rt.games.load(fork.json["id"]).version >= 3
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    refold = client.get(f"{api}/refold?rules={table.rules_version}", headers=admin_headers())
    assert refold.status_code == 200, refold.json


def test_a_rewind_of_an_archived_game_brings_it_back_first(archived_rt, ended):
    game_id, _tokens, table = ended
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    event = archived_rt.games.rewind(game_id, 3, "a misclick", "admin")
    assert event.version == table.version + 1
    assert archived_rt.store.verify(game_id) == (True, table.version + 1, "")
    assert not archived_rt.games.load(game_id).ended


def test_a_process_holding_the_table_never_starts_a_log_afresh(archived_rt, new_game):
    """A move decided on a table this process still holds appends after the archived
    events, not as a lone entry of a new stream."""
    game_id, _tokens = new_game()
    table = archived_rt.games.load(game_id)
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    seat, move = choose_seat_and_move(table.game, table.state, random.Random(3))
    played = archived_rt.games.play(game_id, seat, move, table.version)
    assert played.version == table.version + 1
    assert archived_rt.store.verify(game_id) == (True, table.version + 1, "")


def test_the_append_of_a_held_table_after_archiving_is_a_conflict_not_a_new_log(
        archived_rt, new_game):
    from events.envelope import Event
    from events.guarded import append_if
    from events.store import ConflictError
    game_id, _tokens = new_game()
    table = archived_rt.games.load(game_id)
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    note = Event(version=0, type="AdminNote", actor="admin", data={"text": "hi"})
    with pytest.raises(ConflictError):
        append_if(archived_rt.store, game_id, table.version, note, table.head,
                  ("api-gen", "0", "0"))
    assert not archived_rt.redis.exists(key(game_id, "log"))  # nothing written
    archived_rt.store.append(game_id, table.version, note, prev=table.head)
    assert archived_rt.store.verify(game_id) == (True, table.version + 1, "")


def test_a_file_that_reads_back_different_keeps_the_game_in_redis(archived_rt, ended):
    game_id, _tokens, _table = ended

    class Damaging(Archives):
        def fetch(self, url: str) -> bytes:
            blob = bytearray(super().fetch(url))
            blob[len(blob) // 2] ^= 0xFF
            return bytes(blob)

    with pytest.raises(ArchiveError):
        archive_game(archived_rt.store, Damaging(archived_rt.archives.url), game_id)
    assert "log" in keys_of(archived_rt, game_id)
    assert index_entry(archived_rt.redis, game_id) is None


def test_an_event_while_archiving_keeps_the_game_live(archived_rt, ended):
    from events.envelope import Event
    game_id, _tokens, table = ended

    class Racing(Archives):
        def put(self, name: str, blob: bytes) -> str:  # a late note lands meanwhile
            archived_rt.store.append(game_id, table.version, Event(
                version=0, type="AdminNote", actor="admin", data={"text": "late"}))
            return super().put(name, blob)

    assert archive_game(archived_rt.store, Racing(archived_rt.archives.url), game_id) is None
    assert archived_rt.store.verify(game_id) == (True, table.version + 1, "")
    assert index_entry(archived_rt.redis, game_id) is None


def test_a_key_made_while_archiving_stays_and_wins_over_the_archive(archived_rt, ended):
    game_id, _tokens, _table = ended
    client = archived_rt.redis

    class Racing(Archives):
        def put(self, name: str, blob: bytes) -> str:
            client.set(key(game_id, "seen:0"), "late")  # a key no WATCH could name
            return super().put(name, blob)

    assert archive_game(archived_rt.store, Racing(archived_rt.archives.url), game_id)
    assert keys_of(archived_rt, game_id) == ["archived", "seen:0"]
    assert archived_rt.store.exists(game_id)
    assert client.get(key(game_id, "seen:0")) == "late"


def test_a_broken_chain_is_never_archived(archived_rt, ended):
    game_id, _tokens, _table = ended
    log = key(game_id, "log")
    entries = archived_rt.redis.xrange(log)
    entries[1][1]["data"] = entries[1][1]["data"].replace("}", ',"x":1}', 1)
    archived_rt.redis.delete(log)
    for entry_id, fields in entries:
        archived_rt.redis.xadd(log, fields, id=entry_id)
    with pytest.raises(ArchiveError):
        archive_game(archived_rt.store, archived_rt.archives, game_id)
    assert "log" in keys_of(archived_rt, game_id)


def test_restoring_keeps_keys_written_meanwhile_and_the_time_left_to_others(archived_rt, ended):
    game_id, _tokens, _table = ended
    archived_rt.redis.set(key(game_id, "used:abc"), "1", ex=3600)
    archived_rt.redis.set(key(game_id, "talk-read:0"), "2")
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    archived_rt.redis.set(key(game_id, "talk-read:0"), "9")  # written while archived
    assert restore_game(archived_rt.store, archived_rt.archives, game_id)
    assert archived_rt.redis.get(key(game_id, "talk-read:0")) == "9"
    assert 3500 < archived_rt.redis.ttl(key(game_id, "used:abc")) <= 3600


def test_restoring_deletes_the_file_and_a_missing_file_changes_nothing(archived_rt, ended):
    game_id, _tokens, table = ended
    done = archive_game(archived_rt.store, archived_rt.archives, game_id)
    assert archived_rt.store.exists(game_id)
    with pytest.raises(ArchiveError):
        archived_rt.archives.fetch(done.entry["url"])  # gone with the restore
    again = archive_game(archived_rt.store, archived_rt.archives, game_id)
    archived_rt.archives.delete(again.entry["url"])
    with pytest.raises(ArchiveError):
        archived_rt.games.load(game_id)
    assert index_entry(archived_rt.redis, game_id) == again.entry


def test_an_unknown_game_is_still_unknown(archived_rt):
    from events.store import UnknownGame
    assert archived_rt.store.version("nosuchgame") == 0
    assert not archived_rt.store.exists("nosuchgame")
    with pytest.raises(UnknownGame):
        archived_rt.games.load("nosuchgame")


# -- the policy and the sweep ---------------------------------------------------------------
NOW = datetime(2027, 1, 20, 12, tzinfo=UTC)


@pytest.mark.parametrize(("ended", "days_ago", "restored", "why"), [
    (True, 7, False, "ended"),
    (True, 6.9, False, None),
    (False, 59, False, None),
    (False, 60, False, "idle"),
    (True, 60, True, None),
])
def test_a_game_is_at_rest_once_ended_a_week_or_idle_sixty_days(ended, days_ago, restored, why):
    last = (NOW - timedelta(days=days_ago)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    summary = json.dumps({"ended": ended})
    assert sweep_mod.at_rest(last, summary, restored, NOW, timedelta(days=7),
                             timedelta(days=60)) == why


def test_the_sweep_archives_the_games_at_rest_and_only_those(archived_rt, new_game):
    archived_rt.config["ARCHIVE_URL"] = archived_rt.archives.url
    done_id, _ = new_game()
    finish(archived_rt, done_id)
    playing_id, _ = new_game()
    jobs.project(playing_id)
    start = archived_rt.now()
    archived_rt.clock = lambda: start + timedelta(days=8)
    archived = sweep_mod.sweep(archived_rt)
    assert [a.game_id for a in archived] == [done_id]
    assert keys_of(archived_rt, done_id) == ["archived"]
    assert "log" in keys_of(archived_rt, playing_id)
    assert sweep_mod.sweep(archived_rt) == []  # once per SWEEP_SECONDS


def test_the_sweep_leaves_a_restored_game_alone_for_a_while(archived_rt, ended):
    game_id, _tokens, _table = ended
    archived_rt.config["ARCHIVE_URL"] = archived_rt.archives.url
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    archived_rt.games.load(game_id)  # someone looks at it
    start = archived_rt.now()
    archived_rt.clock = lambda: start + timedelta(days=8)
    assert sweep_mod.sweep(archived_rt) == []


def test_an_app_under_test_archives_nothing_unless_told_where(rt, new_game):
    game_id, _ = new_game()
    finish(rt, game_id)
    start = rt.now()
    rt.clock = lambda: start + timedelta(days=100)
    assert sweep_mod.sweep(rt) == []
    assert rt.store.exists(game_id)


def test_my_games_still_lists_an_archived_game_without_restoring_it(archived_rt, ended):
    from worker import players
    from worker.listing import listing
    game_id, _tokens, _table = ended
    pid = players.player_id(archived_rt.redis, "ada@example.com")
    before = [row for row in listing(archived_rt, pid) if row["game_id"] == game_id]
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    after = [row for row in listing(archived_rt, pid) if row["game_id"] == game_id]
    assert len(after) == 1 and after[0]["ended"]
    assert after[0]["play_url"] == before[0]["play_url"]
    assert index_entry(archived_rt.redis, game_id) is not None  # a list reads no log


def test_the_clocks_catch_up_walk_passes_archived_games_by(archived_rt, ended):
    from worker import timeouts
    game_id, _tokens, _table = ended
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    timeouts.catch_up(archived_rt)
    assert keys_of(archived_rt, game_id) == ["archived"]


def test_a_revoked_link_stays_refused_while_its_game_is_archived(archived_rt, ended, client):
    from worker.links import raise_seat_generation
    game_id, _tokens, _table = ended
    old = archived_rt.links.make(game_id, 0, "play")  # generation 0
    generation = raise_seat_generation(archived_rt.redis, game_id, 0)
    fresh = archived_rt.links.make(game_id, 0, "play", generation=generation)
    archive_game(archived_rt.store, archived_rt.archives, game_id)
    assert keys_of(archived_rt, game_id) == ["api-gen", "archived"]
    assert client.get(f"/play/{old}").status_code == 403
    assert index_entry(archived_rt.redis, game_id) is not None  # refused before any load
    assert client.get(f"/play/{fresh}").status_code == 200
    assert index_entry(archived_rt.redis, game_id) is None
