"""Refold reports that explain (issue 28, part 3; issue 29): where two rules versions first
part, how many later moves differ, a stop where only one version draws, options a later
version added, migrated games, and one report in the CLI, the API and the admin page."""

from __future__ import annotations

import json
from pathlib import Path

import fakeredis
import pytest
from click.testing import CliRunner
from markupsafe import escape

from events.refold import MAX_DIFFERENCES, refold
from events.store import EventStore, key
from games import registry
from tests.events.test_rules_versions import GAME
from tests.service.test_admin_pages import sign_in
from tests.support import PLAYERS, admin_headers

GOLDEN = Path(__file__).parent.parent / "golden"


def golden(name: str) -> EventStore:
    """A store holding the golden log ``name`` as game ``golden``."""
    store = EventStore(fakeredis.FakeRedis(decode_responses=True))
    for entry_id, fields in json.loads((GOLDEN / f"{name}.json").read_text())["entries"]:
        store.redis.xadd(key("golden", "log"), fields, id=entry_id)
    return store


def old_race(service, monkeypatch, moves: list[tuple[int, dict]]) -> str:
    """A test-kind game created under rules 1 (an ante of 3 is legal only there)."""
    monkeypatch.setattr(registry.get(GAME.kind), "rules_version", "1")
    gid = service.create(GAME.kind, PLAYERS, {"target": 500}).game_id
    monkeypatch.undo()
    for seat, move in moves:
        service.play(gid, seat, move, service.load(gid).version)
    return gid


def play_first_moves(service, gid: str, count: int) -> None:
    """Play ``count`` moves: the first legal move of the lowest seat to act."""
    for _ in range(count):
        table = service.load(gid)
        seat = min(table.to_act())
        service.play(gid, seat, table.game.legal_moves(table.state, seat)[0], table.version)


# 1. the first move where the versions part, with a short diff; later moves counted
def test_the_first_divergence_is_shown_with_a_short_diff_and_later_moves_are_counted():
    report = refold(golden("kings-guild-r2-3p"), "golden", "3")
    first = report.first
    assert first is not None and first.kind == "state" and first.version == 70
    assert "quest_slots[0].quest: 3 -> 20" in report.differences
    assert len(report.differences) <= MAX_DIFFERENCES
    assert report.later > 1000 and report.later_illegal > 0
    lines = report.lines()
    assert f"{report.later} later moves differ ({report.later_illegal} of them refused by " \
        "rules 3)" in lines
    assert not any("became illegal" in line for line in lines)  # counted, not listed
    assert len(lines) < 25


def test_a_move_the_new_rules_refuse_is_the_first_divergence(service, monkeypatch):
    gid = old_race(service, monkeypatch, [(0, {"type": "ante", "amount": 3}),
                                          (1, {"type": "ante", "amount": 1})])
    report = refold(service.store, gid, "2")
    assert report.first.kind == "illegal" and report.first.version == 2
    assert report.differences == ["antes[0]: 3 -> None"]
    assert report.later == 1 and report.later_illegal == 0  # seat 1's ante leaves [3, 1]
    lines = report.lines()
    assert lines[1].startswith("move 2 (seat 0) became illegal: ")
    assert lines[2] == "  the move: Ada antes"
    assert "    antes[0]: 3 -> None" in lines and "1 later move differs" in lines


# 2. a draw only one version makes stops the refold
def test_a_draw_only_the_new_rules_make_stops_the_refold_there():
    report = refold(golden("feudum-guilds-r2-4p"), "golden", "3")
    assert report.first is report.draws and report.draws.version == 106
    assert report.draws.reason == "more" and report.illegal == []
    assert report.moves == 105 and report.total > 300
    *_, last, the_move = report.lines()
    assert last.startswith("from move 106 (seat 0) the new rules")
    assert the_move.startswith("  the move: ")
    assert "the new rules (3) draw where the old (2) did not: the recorded draws cannot say " \
        "what they would have been; the refold stops there" in last
    assert not any("TapeError" in line or "illegal" in line for line in report.lines())


def test_draws_left_over_stop_the_refold_after_the_first_divergence_too():
    stopped = refold(golden("feudum-guilds-r3-2p"), "golden", "2")
    assert stopped.draws.reason == "fewer" and "left over" in stopped.lines()[-2]
    report = refold(golden("feudum-guilds-r2-2p"), "golden", "3")
    assert report.first.version == 43 < report.draws.version == 93
    assert report.lines()[-3] == "no later move differs before that"
    assert report.final_differences == 0 and report.result == ""


# 3. options a later version added are no difference; a rules-2 refold sets up
def test_an_option_a_later_version_added_at_its_default_is_not_a_difference():
    report = refold(golden("architects-r2-1p"), "golden", "3")
    assert report.same and report.differences == []
    assert report.options_added == {"extra_characters": False}
    assert not any(line.startswith("options.") or "extra_characters: (none)" in line
                   for line in report.lines())


def test_a_rules_3_game_refolds_under_rules_2(service):
    report = refold(golden("architects-r3-1p"), "golden", "2")
    assert report.setup_problem == "" and report.moves > 0
    assert report.options_left_out == {"extra_characters": False}
    gid = service.create("architects", PLAYERS, {"variable_setup": True,
                                                 "extra_characters": True}).game_id
    refused = refold(service.store, gid, "2")
    assert "rules 2 cannot set this game up" in refused.setup_problem
    assert "extra_characters" in refused.setup_problem and not refused.same


# 4. a migrated game keeps the old rules up to its migration
def test_a_migrated_game_refolds_under_the_old_rules_up_to_the_migration(service,
                                                                        monkeypatch):
    gid = old_race(service, monkeypatch, [(0, {"type": "ante", "amount": 3})])
    migrated = service.migrate(gid, "2", "admin").version
    service.play(gid, 1, {"type": "ante", "amount": 1}, migrated)
    report = refold(service.store, gid, "2")
    assert report.kept == [{"rules": "1", "to": migrated}] and report.played_under == "2"
    assert report.same and report.moves == report.total == 1  # the ante of 3 stands
    assert report.lines()[0] == (f"game {gid}: played under rules 1 to version {migrated}, "
                                 f"then rules 2, refolded under rules 1 to version "
                                 f"{migrated}, then rules 2: 1 of 1 moves")
    assert "migrated at version 3" in report.lines()[1]


def test_a_migrated_kings_guild_game_refolds_the_same_under_the_rules_it_plays(service,
                                                                              monkeypatch):
    monkeypatch.setattr(registry.get("kings-guild"), "rules_version", "2")
    gid = service.create("kings-guild", PLAYERS[:2]).game_id
    monkeypatch.undo()
    play_first_moves(service, gid, 30)
    service.migrate(gid, "3", "admin")
    play_first_moves(service, gid, 30)
    report = refold(service.store, gid, "3")
    assert report.same and report.kept[0]["rules"] == "2" and report.total == 30
    assert refold(service.store, gid, "2").kept == report.kept


# 5. one report in the CLI, the API and the admin replay page
def test_the_api_and_the_page_show_the_same_report(client, rt, monkeypatch):
    gid = old_race(rt.games, monkeypatch, [(0, {"type": "ante", "amount": 3})])
    lines = refold(rt.store, gid, "2").lines()
    answer = client.get(f"/api/v1/admin/games/{gid}/refold?rules=2", headers=admin_headers())
    assert answer.status_code == 200
    assert answer.json["lines"] == lines and answer.json["first"]["version"] == 2
    assert answer.json["later"] == 0 and answer.json["stopped_at"] is None
    sign_in(client)
    page = client.get(f"/admin/games/{gid}?refold=2").get_data(as_text=True)
    assert all(str(escape(line)) in page for line in lines)


def test_the_cli_prints_the_same_report(real_redis, real_redis_url, monkeypatch):
    from events.gameplay import GameService
    from service.cli import main
    service = GameService(EventStore(real_redis))
    gid = old_race(service, monkeypatch, [(0, {"type": "ante", "amount": 3})])
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    result = CliRunner().invoke(main, ["admin", "refold", gid, "--rules", "2"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == refold(service.store, gid, "2").lines()


@pytest.mark.parametrize("name", ["kings-guild-r2-1p", "feudum-guilds-r3-4p"])
def test_a_game_refolded_under_its_own_rules_is_the_same(name):
    store = golden(name)
    report = refold(store, "golden", name.split("-r")[1][0])
    assert report.same and report.lines()[-1].startswith("the same")
