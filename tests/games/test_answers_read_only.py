"""A rules engine's answers only read the state: ``view`` (of every seat and of a
spectator), ``legal_moves``, ``to_act`` and ``outcome`` leave it as it was.

The service relies on it: a process hands one decoded table to every request that only
looks at it (events/replay.py, the shared table), so a view that sorted a hand in place
would show the next reader a changed game.  Checked along whole random-bot games.
"""

from __future__ import annotations

import copy

import pytest

from games import registry
from games.bots import play_random_game

# the options each kind's own soak test plays with (random bots may deadlock King's Guild)
OPTIONS = {"kings-guild": {"stall_breaker": True}}
EVERY = 3  # moves between checks: views are the costly part


def answer_everything(game, state, players: int) -> None:
    for seat in [None, *range(players)]:
        game.view(state, seat)
    for seat in game.to_act(state):
        game.legal_moves(state, seat)
    game.outcome(state)


@pytest.mark.parametrize("kind,players", [
    ("kings-guild", 1), ("kings-guild", 3), ("architects", 1), ("architects", 4),
    ("feudum-guilds", 2), ("feudum-guilds", 5),
])
def test_the_answers_leave_the_state_as_it_was(kind, players):
    game = registry.get(kind)
    checked = []

    def check(state) -> None:
        checked.append(None)
        if len(checked) % EVERY:
            return
        before = copy.deepcopy(state)
        answer_everything(game, state, players)
        assert state == before, f"{kind}: an answer changed the state at move {len(checked)}"

    _, record = play_random_game(game, players, 1, OPTIONS.get(kind), check=check)
    assert len(checked) == len(record.moves) + 1 > 10 * EVERY  # after the setup and each move
