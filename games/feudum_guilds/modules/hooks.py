"""What modules add after a guild function: reeve placement and bonus, tribute, pilfering."""

from __future__ import annotations

from typing import Any

from games.feudum_guilds.flow import auto_for, push
from games.feudum_guilds.modules import monsters, reeves, vassalage
from games.rng import GameRandom

State = dict[str, Any]


@auto_for("after_guild")
def after_guild(state: State, dec: dict, rng: GameRandom) -> None:
    """Run the next module stage; ask the player where a stage offers a choice."""
    opts = state["options"]
    seat, guild = dec["seat"], dec["guild"]
    stage = dec["stage"]
    dec["stage"] += 1
    if stage == 0:
        if opts.get("reeves") and dec["function"] in ("pull", "push") and not dec["feast"]:
            if reeves.can_place(state, seat, guild):
                push(state, {"kind": "reeve", "seat": seat, "guild": guild})
            else:
                reeves.bonus(state, seat, guild)
    elif stage == 1:
        if opts.get("vassalage") and guild == "knight" and vassalage.owes_tribute(state, seat):
            push(state, {"kind": "tribute", "seat": seat})
    elif stage == 2:
        if opts.get("monsters"):
            for monster in reversed(monsters.pilfer_monsters(state, seat)):
                push(state, {"kind": "pilfer", "seat": seat, "monster": monster})
    else:
        state["stack"].pop()
