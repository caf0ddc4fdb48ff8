"""The `ravenpost` command: bots through the real store, admin tools."""

from __future__ import annotations

import json

from click.testing import CliRunner

from service.cli import main


def test_bots_play_whole_games_through_the_event_store(real_redis_url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    result = CliRunner().invoke(main, ["bots", "play", "test-race", "--players", "3",
                                       "--games", "4", "--seed", "7"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert summary["games"] == 4 and summary["finished"] == 4 and summary["errors"] == 0
    assert summary["moves"] > 4 * 3


def test_bots_report_an_unknown_kind(real_redis_url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    result = CliRunner().invoke(main, ["bots", "play", "nope", "--players", "2"])
    assert result.exit_code == 1 and "unknown game kind 'nope'" in result.output
    result = CliRunner().invoke(main, ["admin", "history", "no-such-game"])
    assert result.exit_code == 1 and "no such game" in result.output


def test_admin_history_state_verify_rewind_fork(real_redis_url, real_redis, monkeypatch):
    from events.gameplay import GameService
    from events.store import EventStore
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    service = GameService(EventStore(real_redis))
    table = service.create("test-race", [{"name": "Ada", "email": ""},
                                         {"name": "Bo", "email": ""}], {"target": 50})
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 2}, 1)
    service.play(gid, 1, {"type": "ante", "amount": 3}, 2)
    runner = CliRunner()
    history = runner.invoke(main, ["admin", "history", gid])
    assert history.exit_code == 0 and "Ada antes" in history.output
    state = runner.invoke(main, ["admin", "state", gid, "--at", "2"])
    assert json.loads(state.output)["state"]["antes"] == [2, None]
    verify = runner.invoke(main, ["admin", "verify", gid])
    assert verify.exit_code == 0 and verify.output.startswith("ok: 3 events")
    rewind = runner.invoke(main, ["admin", "rewind", gid, "2", "--reason", "misclick"])
    assert rewind.exit_code == 0 and service.load(gid).state["antes"] == [2, None]
    fork = runner.invoke(main, ["admin", "fork", gid, "3"])
    assert fork.exit_code == 0 and service.load(fork.output.strip()).state["antes"] == [2, 3]


def test_bots_soak_reports_each_player_count():
    result = CliRunner().invoke(main, ["bots", "soak", "test-race", "--players", "1,3",
                                       "--games", "5"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert [(r["players"], r["games"], r["errors"]) for r in lines] == [(1, 5, 0), (3, 5, 0)]
