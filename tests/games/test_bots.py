"""The bot driver: policies by kind and name, and the move cap that stops a game which
cannot end (reported with its seed, by the driver and by ``ravenpost bots``)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from games import bots, registry
from games.protocol import Game, Move, State
from games.rng import GameRandom
from service.cli import main


class Endless(Game):
    """A game whose only moves are "tick" and "tock": it never ends."""

    kind = "test-endless"
    name = "Endless (test game)"
    min_players = 1
    max_players = 2

    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        return {"n": len(players), "ticks": 0}

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        state["ticks"] += 1

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return [{"type": "tick"}, {"type": "tock"}]

    def to_act(self, state: State) -> set[int]:
        return {state["ticks"] % state["n"]}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return dict(state)

    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        return "tick"

    def outcome(self, state: State) -> dict[str, Any] | None:
        return None


ENDLESS = Endless()


@pytest.fixture
def endless(monkeypatch):
    """``test-endless`` registered for the CLI."""
    monkeypatch.setitem(registry.KINDS, ENDLESS.kind, "tests.games.test_bots:ENDLESS")
    real_get = registry.get
    monkeypatch.setattr(registry, "get",
                        lambda kind: ENDLESS if kind == ENDLESS.kind else real_get(kind))


def test_the_cap_stops_a_game_that_cannot_end():
    with pytest.raises(bots.MoveCapReached) as caught:
        bots.play_random_game(ENDLESS, 2, 41, max_moves=50)
    cap = caught.value
    assert (cap.seed, cap.moves, len(cap.last_types)) == (41, 50, 8)
    assert set(cap.last_types) <= {"tick", "tock"} and "seed 41" in str(cap)


def test_soak_reports_a_capped_game_with_its_seed_and_exits_non_zero(endless):
    result = CliRunner().invoke(main, ["bots", "soak", ENDLESS.kind, "--players", "2",
                                       "--games", "3", "--seed", "5", "--max-moves", "30"])
    assert result.exit_code == 1
    capped = [line for line in result.output.splitlines() if line.startswith("did not end")]
    assert [line.split()[5] for line in capped] == ["seed=5", "seed=6", "seed=7"]
    assert "test-endless players=2" in capped[0] and "moves=30 last=t" in capped[0]
    summary = json.loads(result.output.splitlines()[-1])
    assert (summary["games"], summary["errors"], summary["capped"]) == (3, 3, 3)


def test_soak_plays_the_others_after_a_capped_game():
    # test-race games take more than 5 moves with 3 players: all are capped, none lost
    result = CliRunner().invoke(main, ["bots", "soak", "test-race", "--players", "3",
                                       "--games", "4", "--max-moves", "5"])
    assert result.exit_code == 1 and result.output.count("did not end: test-race") == 4
    ok = CliRunner().invoke(main, ["bots", "soak", "test-race", "--players", "3",
                                   "--games", "4"])
    assert ok.exit_code == 0 and "did not end" not in ok.output


def test_policies_by_kind_and_name():
    assert bots.policies("test-race") == {"random": bots.random_move}
    assert list(bots.policies("feudum-guilds")) == ["random", "greedy", "master-seat"]
    assert list(bots.policies("kings-guild")) == ["random", "crafter"]
    from games.feudum_guilds.strategy import master_seat_move
    assert bots.policy("feudum-guilds", "master_seat") is master_seat_move
    assert bots.policy("feudum-guilds", "master-seat") is master_seat_move
    with pytest.raises(bots.UnknownPolicy, match="one of random, crafter"):
        bots.policy("kings-guild", "greedy")


def test_cli_refuses_an_unknown_policy_naming_the_known_ones():
    result = CliRunner().invoke(main, ["bots", "soak", "kings-guild", "--players", "2",
                                       "--games", "1", "--policy", "greedy"])
    assert result.exit_code == 1
    assert "unknown policy 'greedy' for kings-guild; one of random, crafter" in result.output
    result = CliRunner().invoke(main, ["bots", "play", "test-race", "--players", "2",
                                       "--policy", "crafter"])
    assert result.exit_code == 1 and "one of random" in result.output


def test_policy_option_chooses_the_policy(monkeypatch):
    chosen: list[str] = []

    def counting(name):
        def move(game, state, seat, chooser):
            chosen.append(name)
            return bots.random_move(game, state, seat, chooser)
        return move

    from games.feudum_guilds import strategy
    monkeypatch.setitem(strategy.POLICIES, "greedy", counting("greedy"))
    result = CliRunner().invoke(main, ["bots", "soak", "feudum-guilds", "--players", "2",
                                       "--games", "1", "--policy", "greedy"])
    assert result.exit_code == 0, result.output
    assert chosen and set(chosen) == {"greedy"}
    assert json.loads(result.output.splitlines()[-1])["policy"] == "greedy"


def test_a_policy_game_is_repeatable_from_its_seed():
    game = registry.get("kings-guild")
    crafter = bots.policy("kings-guild", "crafter")
    first = bots.play_random_game(game, 2, 11, policy=crafter)[1]
    again = bots.play_random_game(game, 2, 11, policy=crafter)[1]
    assert first.moves == again.moves
    assert first.moves != bots.play_random_game(game, 2, 11)[1].moves  # random differs


def test_play_through_the_store_caps_reports_and_goes_on(real_redis_url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", real_redis_url)
    result = CliRunner().invoke(main, ["bots", "play", "test-race", "--players", "3",
                                       "--games", "2", "--seed", "7", "--max-moves", "4"])
    assert result.exit_code == 1
    capped = [line for line in result.output.splitlines() if line.startswith("did not end")]
    assert len(capped) == 2 and "test-race players=3 seed=7 moves=4 last=" in capped[0]
    assert "seed=8" in capped[1]
    summary = json.loads(result.output.splitlines()[-1])
    assert (summary["finished"], summary["capped"], summary["moves"]) == (0, 2, 8)
