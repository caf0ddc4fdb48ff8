"""Forced moves: a seat's only legal move, when the game marks it safe (nothing hidden
chosen, nothing shown), is played for it by the worker and marked in the history, unless
the player turned that off; never a move that draws or reveals; bounded per run."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from events import envelope as ev
from events import history
from events.store import ConflictError
from games import registry
from games.protocol import Game, IllegalMove, Move, State
from games.rng import GameRandom, RecordingRandom
from tests.support import PLAYERS
from worker import forced, jobs, projection
from worker.projection import project_game


class Corridor(Game):
    """Seats take turns walking a planned corridor: at a "choice" step the seat picks left
    or right, at a "forced" step it can only pass, at a "draw" step it can only draw a
    random card, at a "peek" step it can only turn up the top card (a reveal)."""

    kind = "test-corridor"
    name = "Corridor (test game)"
    min_players = 1
    max_players = 3

    def normalize_options(self, options: dict[str, Any], n_players: int) -> dict[str, Any]:
        return {"plan": list(options.get("plan", []))}

    def setup(self, players: list[str], options: dict[str, Any], rng: GameRandom) -> State:
        return {"n": len(players), "plan": options["plan"], "step": 0, "turn": 0,
                "walked": [], "top": None}

    def to_act(self, state: State) -> set[int]:
        return set() if state["step"] >= len(state["plan"]) else {state["turn"]}

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if seat not in self.to_act(state):
            return []
        step = state["plan"][state["step"]]
        return {"choice": [{"type": "left"}, {"type": "right"}], "forced": [{"type": "pass"}],
                "draw": [{"type": "draw"}], "peek": [{"type": "peek"}]}[step]

    def apply(self, state: State, seat: int, move: Move, rng: GameRandom) -> None:
        if move not in self.legal_moves(state, seat):
            raise IllegalMove("not now")
        if move["type"] == "draw":
            state["walked"].append(rng.below(6))
        elif move["type"] == "peek":
            state["top"] = 3
        else:
            state["walked"].append(move["type"])
        state["step"] += 1
        state["turn"] = (state["turn"] + 1) % state["n"]

    def reveals(self, before: State, after: State, seat: int, move: Move) -> str | None:
        return "it turned up the top card" if move["type"] == "peek" else None

    def forced_move_safe(self, state: State, seat: int, move: Move) -> bool:
        # deliberately over-eager for draw and peek: the worker's own guard must refuse them
        return move["type"] in ("pass", "draw", "peek")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"step": state["step"], "walked": state["walked"]}

    def describe(self, event: dict[str, Any], seat: int | None) -> str:
        return f"{event['names'][event['actor']]} goes {event['data']['move']['type']}"

    def outcome(self, state: State) -> dict[str, Any] | None:
        if state["step"] < len(state["plan"]):
            return None
        return {"scores": [0] * state["n"], "ranking": list(range(state["n"])),
                "tie_break": None}


CORRIDOR = Corridor()
registry.KINDS.setdefault("test-corridor", f"{__name__}:CORRIDOR")


def corridor(rt, plan):
    table = rt.games.create("test-corridor", PLAYERS, {"plan": plan})
    return table.game_id


def moves(rt, game_id):
    return [e for e in rt.store.iter(game_id) if e.type == ev.MOVE_PLAYED]


def test_an_only_move_marked_safe_is_played_for_the_seat_and_said_so_in_the_history(rt):
    game_id = corridor(rt, ["choice", "forced", "choice"])
    rt.games.play(game_id, 0, {"type": "left"}, 1)
    jobs.project(game_id)
    (first, second) = moves(rt, game_id)
    assert second.data["auto"] == "forced" and second.data["seat"] == 1
    assert "auto" not in first.data
    table = rt.games.load(game_id)
    line = history.describe(second, table.game, table.names, None)
    assert line.startswith("Played for Bo: the only move.")
    assert table.to_act() == {0}  # back to Ada, who has a choice


def test_a_seat_with_a_choice_is_never_played_for(rt):
    game_id = corridor(rt, ["choice", "choice"])
    jobs.project(game_id)
    assert moves(rt, game_id) == []


def test_no_turn_email_for_a_move_played_for_the_seat(rt):
    game_id = corridor(rt, ["choice", "forced", "choice"])
    jobs.project(game_id)
    sent = len([m for m in rt.mail.list(limit=100) if m["to"] == "bo@example.com"])
    rt.games.play(game_id, 0, {"type": "left"}, rt.store.version(game_id))
    jobs.project(game_id)
    assert len([m for m in rt.mail.list(limit=100) if m["to"] == "bo@example.com"]) == sent


def test_a_move_that_draws_at_random_is_not_played_for_anyone(rt):
    game_id = corridor(rt, ["choice", "draw"])
    rt.games.play(game_id, 0, {"type": "right"}, 1)
    jobs.project(game_id)
    assert len(moves(rt, game_id)) == 1
    assert rt.games.load(game_id).to_act() == {1}


def test_a_move_that_reveals_something_is_not_played_for_anyone(rt):
    game_id = corridor(rt, ["choice", "peek"])
    rt.games.play(game_id, 0, {"type": "right"}, 1)
    jobs.project(game_id)
    assert len(moves(rt, game_id)) == 1


def test_the_protocol_default_plays_nothing(rt):
    game_id = rt.games.create("test-race", PLAYERS, {"target": 30}).game_id
    assert forced.supports(rt.games.load(game_id).game) is False
    assert forced.play_forced(rt, game_id) == 0


def test_a_player_can_turn_forced_moves_off_for_their_seat_and_on_again(rt):
    game_id = corridor(rt, ["choice", "forced", "choice", "forced"])
    forced.set_on(rt.redis, game_id, 1, False)
    rt.games.play(game_id, 0, {"type": "left"}, 1)
    jobs.project(game_id)
    assert len(moves(rt, game_id)) == 1 and rt.games.load(game_id).to_act() == {1}
    forced.set_on(rt.redis, game_id, 1, True)
    assert forced.play_forced(rt, game_id) == 1


def test_forced_moves_are_capped_per_run_and_the_next_run_goes_on(rt):
    game_id = corridor(rt, ["forced"] * 60)
    assert forced.play_forced(rt, game_id, budget=forced.MAX_PER_RUN) == 50
    assert len(moves(rt, game_id)) == 50
    assert forced.play_forced(rt, game_id) == 10
    assert rt.games.load(game_id).ended


def test_a_projection_run_leaves_the_rest_to_the_next_run(rt, monkeypatch):
    game_id = corridor(rt, ["forced"] * 60)
    asked = []
    monkeypatch.setattr(projection, "request_projection",
                        lambda enqueuer, gid, version: asked.append((gid, version)))
    project_game(rt, game_id, deliver=lambda *a: None)
    assert len(moves(rt, game_id)) == 50
    assert asked == [(game_id, rt.store.version(game_id))]


def test_a_loop_of_only_moves_stops_after_a_bounded_streak(rt, monkeypatch):
    game_id = corridor(rt, ["forced"] * (forced.MAX_STREAK + 20))
    asked = []
    monkeypatch.setattr(projection, "request_projection",
                        lambda enqueuer, gid, version: asked.append(version))
    for _ in range(forced.MAX_STREAK // forced.MAX_PER_RUN + 2):
        project_game(rt, game_id, deliver=lambda *a: None)
    assert len(moves(rt, game_id)) == forced.MAX_STREAK  # then it waits for a person
    assert len(asked) == forced.MAX_STREAK // forced.MAX_PER_RUN - 1  # not after the last


def test_a_forced_move_is_decided_on_the_version_it_read(rt, monkeypatch):
    game_id = corridor(rt, ["forced", "forced"])
    real_play = rt.games.play

    def someone_moved_first(gid, seat, move, expected_version, **kw):
        real_play(gid, seat, move, expected_version, auto="forced")  # the other worker
        return real_play(gid, seat, move, expected_version, **kw)

    monkeypatch.setattr(rt.games, "play", someone_moved_first)
    assert forced.play_forced(rt, game_id) == 0
    assert len(moves(rt, game_id)) == 1  # played once, not twice


def test_a_stale_expected_version_is_a_conflict(rt):
    game_id = corridor(rt, ["forced", "forced"])
    forced.play_forced(rt, game_id, budget=1)
    with pytest.raises(ConflictError):
        rt.games.play(game_id, 1, {"type": "pass"}, 1, auto="forced")


# -- the three games -------------------------------------------------------------------
@pytest.mark.parametrize("kind, safe_type", [
    ("kings-guild", "end_turn"), ("architects", "pass"), ("feudum-guilds", "forfeit")])
def test_each_game_marks_a_safe_only_move_and_it_neither_draws_nor_reveals(kind, safe_type):
    game = registry.get(kind)
    found = 0
    for seed in range(8):  # random games until one reaches such a position (bounded)
        chooser = random.Random(seed)
        state = game.setup(["A", "B", "C"][:2 + seed % 2],
                           game.normalize_options({}, 2 + seed % 2), RecordingRandom(seed))
        for _ in range(3000):
            if game.outcome(state) is not None or found:
                break
            for seat in sorted(game.to_act(state)):
                legal = game.legal_moves(state, seat)
                if len(legal) == 1 and game.forced_move_safe(state, seat, legal[0]):
                    after, rng = copy.deepcopy(state), RecordingRandom(1)
                    game.apply(after, seat, copy.deepcopy(legal[0]), rng)
                    assert rng.tape == []
                    assert game.reveals(state, after, seat, legal[0]) is None
                    found += legal[0]["type"] == safe_type
            seat = chooser.choice(sorted(game.to_act(state)))
            game.apply(state, seat, chooser.choice(game.legal_moves(state, seat)),
                       RecordingRandom(chooser.getrandbits(32)))
        if found:
            break
    assert found, f"no safe {safe_type} found in {kind}"


@pytest.mark.parametrize("kind", ["kings-guild", "architects", "feudum-guilds"])
def test_a_move_with_a_choice_in_it_is_never_safe(kind):
    game = registry.get(kind)
    state = game.setup(["A", "B"], game.normalize_options({}, 2), RecordingRandom(3))
    seat = sorted(game.to_act(state))[0]
    for move in game.legal_moves(state, seat):
        if set(move) != {"type"}:
            assert not game.forced_move_safe(state, seat, move)


def test_the_api_names_a_seat_waiting_only_for_its_forced_move(app, rt):
    """Between the move that leaves Bo one safe move and the worker playing it, the API
    says so (``forced_move_pending``) instead of leaving a client to guess."""
    from worker.links import api_token
    game_id = corridor(rt, ["choice", "forced", "choice"])
    rt.games.play(game_id, 0, {"type": "left"}, 1)  # not projected yet: the worker waits
    client = app.test_client()
    bo = {"Authorization": "Bearer " + api_token(rt.redis, rt.links, game_id, 1)}
    ada = {"Authorization": "Bearer " + api_token(rt.redis, rt.links, game_id, 0)}
    waiting = client.get(f"/api/v1/games/{game_id}", headers=bo).get_json()
    assert waiting["to_act"] == [1] and waiting["forced_move_pending"] is True
    assert waiting["legal_moves"] == [{"type": "pass"}]
    assert client.get(f"/api/v1/games/{game_id}", headers=ada).get_json()[
        "forced_move_pending"] is False
    jobs.project(game_id)  # the worker plays it: Ada has a choice again
    after = client.get(f"/api/v1/games/{game_id}", headers=ada).get_json()
    assert after["to_act"] == [0] and after["forced_move_pending"] is False


def test_with_forced_moves_off_nothing_is_pending(app, rt):
    from worker.links import api_token
    game_id = corridor(rt, ["choice", "forced", "choice"])
    forced.set_on(rt.redis, game_id, 1, False)
    rt.games.play(game_id, 0, {"type": "left"}, 1)
    bo = {"Authorization": "Bearer " + api_token(rt.redis, rt.links, game_id, 1)}
    answer = app.test_client().get(f"/api/v1/games/{game_id}", headers=bo).get_json()
    assert answer["to_act"] == [1] and answer["forced_move_pending"] is False


def test_a_reply_whose_next_step_is_forced_is_answered_by_the_real_next_choice(app, rt):
    """A reply's move leaves the seat only a safe pass: the service plays it, and the
    next step's email asks for the choice after it (never for the pass)."""
    from tests.worker.test_replies import mails_to, numbers_for, send_reply, turn_mail
    game_id = rt.games.create("test-corridor", [{"name": "Ann", "email": "ann@example.com"}],
                              {"plan": ["choice", "forced", "choice"]}).game_id
    jobs.project(game_id)
    line, _ = numbers_for(rt, game_id, 0)
    assert send_reply(rt, turn_mail(rt, "ann@example.com"), line).startswith("moved")
    played = moves(rt, game_id)
    assert [e.data["move"]["type"] for e in played] == ["left", "pass"]
    assert played[1].data["auto"] == "forced"
    step = [m for m in mails_to(rt, "ann@example.com")
            if m["subject"].startswith("Your move goes on")]
    assert len(step) == 1
    link = rt.links.check_reply(step[0]["headers"]["Reply-To"].split("+")[1].split("@")[0])
    assert link.version == played[1].version  # built after the pass: the real choice
    line, _ = numbers_for(rt, game_id, 0)
    assert send_reply(rt, step[0], line).startswith("moved")
    assert rt.games.load(game_id).ended
