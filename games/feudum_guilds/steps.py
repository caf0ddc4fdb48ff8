"""A legal move as the choices a player makes to build it (the page's move builder).

The first step names the kind of action in the game's words; the second is the move's own
label.  Choices of several things at once are unordered groups: the secret selection of
action cards (choose 4, or 5 with the saltpeter boost) and the three goods taken at setup,
so a player picks them one by one instead of reading every combination.
"""

from __future__ import annotations

from typing import Any

from games.feudum_guilds import views
from games.feudum_guilds import words as w
from games.text import T

State = dict[str, Any]

KIND = {
    "setup_goods": T("Take starting goods"),
    "start_pawn": T("Place your starting pawn"),
    "boost": T("Choose a boost"),
    "select": T("Select action cards"),
    "play": T("Play an action card"),
    "double": T("Double turn"),
    "fill_barrel": T("Fill the wine barrel"),
    "mandate": T("Play a mandate"),
    "discard_writ": T("Discard a Royal Writ"),
    "forfeit": T("Forfeit the action"),
    "migrate": T("Migrate"),
    "retire": T("Migrate"),
    "influence": T("Influence"),
    "improve": T("Improve"),
    "explore": T("Explore"),
    "harvest": T("Harvest"),
    "tax": w.CARD_TITLES["tax"],
    "guild": T("Use a guild"),
    "feast": T("Feast"),
    "defeat": T("Defeat a monster"),
    "repeat": T("Repeat a card"),
    "send_farm": T("Send a farm"),
    "buy": T("Buy goods"),
    "buy_vessel": T("Buy a vessel"),
    "buy_seals": T("Buy king's seals"),
    "invent": T("Invent"),
    "seal": T("Seal a scroll"),
    "flip": T("Flip a seal"),
    "divide": T("Divide the beads"),
    "pick": T("Pick a fist"),
    "keep_writ": T("Keep a Royal Writ"),
    "tile": T("Take a region tile"),
    "seal_charter": T("Seal a charter"),
    "nourish": T("Nourish"),
    "move_good": T("Move goods"),
    "done": T("Done"),
    "tame": T("Tame"),
    "decline": T("Decline"),
    "pilfer": T("Pilfer"),
    "reeve": T("Reeve"),
    "tribute": T("Tribute"),
}


def steps(state: State, seat: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of one legal ``move`` for ``seat`` (see the module docstring)."""
    t = move.get("type")
    kind = KIND.get(t, str(t).replace("_", " ").capitalize())
    if t == "select":
        n = len(move["cards"])
        return [{"label": T("%(kind)s (choose %(n)s)", kind=kind, n=n)},
                *({"label": T("%(card)s: %(text)s", card=w.card_title(c),
                              text=views.CARD_TEXT.get(c, "")), "group": "cards"}
                  for c in move["cards"])]
    if t == "setup_goods":
        n = len(move["goods"])
        first = [{"label": T("%(kind)s (choose %(n)s)", kind=kind, n=n)},
                 *({"label": w.good(g), "group": "goods"} for g in move["goods"])]
        if "sulfur_to" in move:
            first.append({"label": T("Sulfur into your %(place)s",
                                     place=views.SULFUR_PLACES.get(move["sulfur_to"],
                                                                   move["sulfur_to"]))})
        return first
    return [{"label": kind}, {"label": views.move_label(state, seat, move)}]
