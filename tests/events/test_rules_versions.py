"""Rule changes never break a game in progress: each game keeps the rules it was created
under until an admin migrates it; refold shows what another version would make of it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from events import envelope
from events.history import describe
from events.refold import refold
from games import registry
from games.protocol import IllegalMove
from tests.platform_game import CountingRace
from tests.support import PLAYERS, admin_headers


class VersionedRace(CountingRace):
    """The test game with a rules change: from version 2 an ante is 1 or 2, not 3."""

    kind = "test-race-versions"
    rules_version = "2"
    rules_versions = ("1", "2")

    def legal_moves(self, state, seat):
        moves = super().legal_moves(state, seat)
        if self.rules >= 2:
            moves = [m for m in moves if m != {"type": "ante", "amount": 3}]
        return moves


GAME = VersionedRace()
registry.KINDS.setdefault(GAME.kind, "tests.events.test_rules_versions:GAME")


@pytest.fixture
def old_game(service, monkeypatch):
    """A game created when the newest rules were version 1, with an ante of 3 in it."""
    monkeypatch.setattr(registry.get(GAME.kind), "rules_version", "1")
    table = service.create(GAME.kind, PLAYERS, {"target": 500})
    monkeypatch.undo()
    gid = table.game_id
    service.play(gid, 0, {"type": "ante", "amount": 3}, 1)
    return gid


def test_a_game_keeps_the_rules_it_was_created_under(service, old_game):
    table = service.load(old_game)
    assert table.rules_version == "1" and table.game.rules == 1
    assert {"type": "ante", "amount": 3} in table.game.legal_moves(table.state, 1)
    service.play(old_game, 1, {"type": "ante", "amount": 3}, table.version)
    assert service.load(old_game).state["antes"] == [3, 3]
    assert service.verify(old_game)[0]


def test_a_new_game_plays_the_newest_rules(service):
    table = service.create(GAME.kind, PLAYERS, {"target": 500})
    assert table.rules_version == "2"
    with pytest.raises(IllegalMove):
        service.play(table.game_id, 0, {"type": "ante", "amount": 3}, 1)


def test_refold_lists_every_move_that_became_illegal_and_the_state_difference(service,
                                                                           old_game):
    report = refold(service.store, old_game, "2")
    assert report.played_under == "1" and report.moves == 1
    assert [(m["version"], m["seat"]) for m in report.illegal] == [(2, 0)]
    assert "not a legal move" in report.illegal[0]["reason"]
    assert "antes[0]: 3 -> None" in report.differences
    assert not report.same


def test_refold_under_the_same_rules_finds_nothing(service, old_game):
    report = refold(service.store, old_game, "1")
    assert report.same and report.illegal == [] and report.differences == []


def test_refold_under_rules_this_code_does_not_play_is_refused(service, old_game):
    with pytest.raises(KeyError):
        refold(service.store, old_game, "9")


def test_a_migration_is_an_event_and_the_game_plays_the_new_rules_after_it(service,
                                                                          old_game):
    event = service.migrate(old_game, "2", "admin")
    assert event.type == envelope.RULES_MIGRATED
    assert event.data == {"from": "1", "to": "2", "by": "admin"}
    table = service.load(old_game)
    assert table.rules_version == "2" and table.state["antes"] == [3, None]
    with pytest.raises(IllegalMove):
        service.play(old_game, 1, {"type": "ante", "amount": 3}, table.version)
    assert describe(event, table.game, table.names, None) == \
        "Rules changed from version 1 to 2 by admin"
    assert service.verify(old_game)[0]


def test_a_migration_to_the_same_or_an_unknown_version_is_refused(service, old_game):
    with pytest.raises(IllegalMove, match="already plays"):
        service.migrate(old_game, "1", "admin")
    with pytest.raises(IllegalMove, match="no rules version"):
        service.migrate(old_game, "7", "admin")


def test_admin_refold_and_migrate_over_the_api(client, rt, monkeypatch):
    monkeypatch.setattr(registry.get(GAME.kind), "rules_version", "1")
    gid = rt.games.create(GAME.kind, PLAYERS, {"target": 500}).game_id
    monkeypatch.undo()
    rt.games.play(gid, 0, {"type": "ante", "amount": 3}, 1)
    report = client.get(f"/api/v1/admin/games/{gid}/refold?rules=2", headers=admin_headers())
    assert report.status_code == 200 and report.json["illegal"][0]["version"] == 2
    assert client.get(f"/api/v1/admin/games/{gid}/refold?rules=9",
                      headers=admin_headers()).status_code == 400
    moved = client.post(f"/api/v1/admin/games/{gid}/migrate", headers=admin_headers(),
                        json={"rules": "2", "expected_version": 1})
    assert moved.status_code == 409  # decided on an old version
    moved = client.post(f"/api/v1/admin/games/{gid}/migrate", headers=admin_headers(),
                        json={"rules": "2", "expected_version": 2})
    assert moved.status_code == 201 and rt.games.load(gid).rules_version == "2"


def test_ravenpost_admin_refold_prints_the_report(real_redis, real_redis_url, monkeypatch):
    from events.gameplay import GameService
    from events.store import EventStore
    from service.cli import main
    service = GameService(EventStore(real_redis))
    monkeypatch.setattr(registry.get(GAME.kind), "rules_version", "1")
    gid = service.create(GAME.kind, PLAYERS, {"target": 500}).game_id
    monkeypatch.undo()
    service.play(gid, 0, {"type": "ante", "amount": 3}, 1)
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    result = CliRunner().invoke(main, ["admin", "refold", gid, "--rules", "2"])
    assert result.exit_code == 0, result.output
    assert "move 2 (seat 0) became illegal" in result.output
    migrated = CliRunner().invoke(main, ["admin", "migrate", gid, "--rules", "2"])
    assert migrated.exit_code == 0 and service.load(gid).rules_version == "2"
