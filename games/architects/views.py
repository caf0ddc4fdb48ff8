"""What the view adds for the page and the picture: the running scores, and the words
for the page (the status line, the scoring lines' and the opponent's names).

Everything Architects scores is on the table (Buildings face up, the Cathedral and Virtue
tracks, Debts, Gold, Marble, Silver, the Prison); only the hands are secret, and they
score nothing.  So the score now is public, and every seat sees it.
"""

from __future__ import annotations

from typing import Any

from games.architects import scoring, words
from games.text import T, Text, join

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


def status(state: State) -> Text:
    """One line for the page: the phase, who plays and what they are choosing, the
    Guildhall's fill, the final round; at the end, who won."""
    from games.architects.presentation import result_line

    if state["phase"] == "draft":
        return T("Opening draft: keep 1 Building card and pass the rest.")
    if state["phase"] != "play":
        return T("Game over. %(result)s", result=result_line(state))
    who = state["players"][state["current"]]["name"]
    pend = state.get("pending")
    if pend:
        doing = words.PENDING.get(pend["kind"], pend["kind"])
        line = T("%(who)s to play: %(doing)s (%(left)s left).", who=who, doing=doing,
                 left=pend["left"]) if "left" in pend else \
            T("%(who)s to play: %(doing)s.", who=who, doing=doing)
    else:
        line = T("%(who)s to play.", who=who)
    parts: list[Any] = [line, T("Guildhall %(filled)s/%(size)s.",
                                filled=len(state["guildhall"]), size=state["guildhall_size"])]
    if state["final_turns"] is not None:
        parts.append(T("Final round."))
    return join(parts, " ")
