"""What the view adds for the page and the picture: the running scores.

Everything Architects scores is on the table (Buildings face up, the Cathedral and Virtue
tracks, Debts, Gold, Marble, Silver, the Prison); only the hands are secret, and they
score nothing.  So the score "if the game ended now" is public, and every seat sees it.
"""

from __future__ import annotations

import pickle
from typing import Any

from games.architects import scoring

State = dict[str, Any]


def running_scores(state: State) -> dict[str, Any]:
    """``{"totals": [...], "lines": [...], "final": bool}`` by player index (the
    Byzantine opponent last): the final result once the game is over, else the score
    as if it ended now (end-game Buildings included)."""
    if state.get("result") is not None:
        res = state["result"]
        return {"totals": list(res["totals"]), "lines": [dict(x) for x in res["lines"]],
                "final": True}
    # End-game Virtue effects move markers, so they run on a copy of the players.
    players = pickle.loads(pickle.dumps(state["players"], pickle.HIGHEST_PROTOCOL))
    probe = {**state, "players": players}
    scoring.end_effects(probe)
    lines = [scoring.lines(probe, q) for q in range(len(players))]
    return {"totals": [sum(x.values()) for x in lines], "lines": lines, "final": False}
