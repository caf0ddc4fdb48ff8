"""A legal move as the choices a player makes to build it (the page's move builder).

The first step names the kind of action in the game's words; the second is the move's own
label.  Choices of several things at once are unordered groups: the secret selection of
action cards (choose 4, or 5 with the saltpeter boost) and the three goods taken at setup,
so a player picks them one by one instead of reading every combination.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import views

State = dict[str, Any]

KIND = {
    "setup_goods": "Take starting goods", "start_pawn": "Place your starting pawn",
    "boost": "Choose a boost", "select": "Select action cards", "play": "Play an action card",
    "double": "Double turn", "fill_barrel": "Fill the wine barrel",
    "mandate": "Play a mandate", "discard_writ": "Discard a Royal Writ",
    "forfeit": "Forfeit the action", "migrate": "Migrate", "retire": "Migrate",
    "influence": "Influence", "improve": "Improve", "explore": "Explore",
    "harvest": "Harvest", "tax": "Tax", "guild": "Use a guild", "feast": "Feast",
    "defeat": "Defeat a monster", "repeat": "Repeat a card", "send_farm": "Send a farm",
    "buy": "Buy goods", "buy_vessel": "Buy a vessel", "buy_seals": "Buy king's seals",
    "invent": "Invent", "seal": "Seal a scroll", "flip": "Flip a seal",
    "divide": "Divide the beads", "pick": "Pick a fist", "keep_writ": "Keep a Royal Writ",
    "tile": "Take a region tile", "seal_charter": "Seal a charter", "nourish": "Nourish",
    "move_good": "Move goods", "done": "Done",
}


def steps(state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of one legal ``move`` for ``seat`` (see the module docstring)."""
    t = move.get("type")
    kind = KIND.get(t, str(t).replace("_", " ").capitalize())
    if t == "select":
        n = len(move["cards"])
        return [{"label": f"{kind} (choose {n})"},
                *({"label": f"{c.title()}: {views.CARD_TEXT.get(c, '')}", "group": "cards"}
                  for c in move["cards"])]
    if t == "setup_goods":
        n = len(move["goods"])
        first = [{"label": f"{kind} (choose {n})"},
                 *({"label": g, "group": "goods"} for g in move["goods"])]
        if "sulfur_to" in move:
            first.append({"label": f"Sulfur into your {move['sulfur_to']}"})
        return first
    return [{"label": kind}, {"label": views.move_label(state, seat, move)}]
