"""What the view adds for the page and the picture: the running scores.

Everything Architects scores is on the table (Buildings face up, the Cathedral and Virtue
tracks, Debts, Gold, Marble, Silver, the Prison); only the hands are secret, and they
score nothing.  So the score now is public, and every seat sees it.
"""

from __future__ import annotations

from typing import Any

from games.architects import scoring

State = dict[str, Any]


def running_scores(state: State) -> dict[str, Any]:
    """``{"totals": [...], "lines": [...], "final": bool}`` by player index (the
    Byzantine opponent last): the final result once the game is over, else the score
    now, the scoring lines as they stand without resolving the end-game Virtue effects
    of Buildings (the same score that ranks a game ended by a resignation or a vote)."""
    if state.get("result") is not None:
        res = state["result"]
        return {"totals": list(res["totals"]), "lines": [dict(x) for x in res["lines"]],
                "final": True}
    lines = [scoring.lines(state, q) for q in range(len(state["players"]))]
    return {"totals": [sum(x.values()) for x in lines], "lines": lines, "final": False}
