"""The history's lines for captures name whose Workers were captured, in words."""

from __future__ import annotations

from games.architects.game import Architects

GAME = Architects()


def capture_line(player: int, names: list[str]) -> str:
    return GAME.describe({"version": 9, "actor": 0, "names": names,
                          "data": {"move": {"type": "capture", "location": "forest",
                                            "player": player}}}, 1)


def test_a_capture_in_the_history_names_the_player_whose_workers_were_captured():
    assert capture_line(1, ["Ada", "Bo"]) == "Ada: Capture Bo's Workers at the Forest"


def test_a_capture_of_the_byzantine_opponent_s_workers_names_the_opponent():
    # the opponent sits after the seats, so its number is past the seats' names
    assert capture_line(2, ["Ada", "Bo"]) == \
        "Ada: Capture the Byzantine opponent's Workers at the Forest"
