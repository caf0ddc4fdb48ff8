"""The game's small words as :class:`games.text.Text`: resources, colours, skills, the
locations (and "at the …", "from the …"), Scheme cards, scoring lines, pending steps, and
counted nouns (``3 Workers``).

Each is its English word, so a label that holds one still compares and serialises as
before; the edge says it in the reader's language (``worker.i18n.translate``).  The names
and effect texts of Buildings, Apprentices and characters come from the data files
(:mod:`games.architects.cards` wraps them with :func:`games.text.name`).
"""

from __future__ import annotations

from typing import Any

from games.text import P, T, Text, join

# -- resources -------------------------------------------------------------------------------
# as the log writes them ("2 wood") and as the cards do ("2 Wood")
RESOURCES = {"silver": T("silver"), "clay": T("clay"), "wood": T("wood"),
             "stone": T("stone"), "gold": T("gold"), "marble": T("marble"),
             "virtue": T("virtue"), "building_cards": T("building cards")}
TITLES = {"silver": T("Silver"), "clay": T("Clay"), "wood": T("Wood"), "stone": T("Stone"),
          "gold": T("Gold"), "marble": T("Marble"), "virtue": T("Virtue")}
COLOURS = {"blue": T("blue"), "green": T("green"), "purple": T("purple"), "red": T("red"),
           "yellow": T("yellow"), "grey": T("grey")}
COLOUR_TITLES = {"blue": T("Blue"), "green": T("Green"), "purple": T("Purple"),
                 "red": T("Red"), "yellow": T("Yellow"), "grey": T("Grey")}
# "the blue Workers": German inflects the colour, so each is its own message
COLOUR_WORKERS = {"blue": T("the blue Workers"), "green": T("the green Workers"),
                  "purple": T("the purple Workers"), "red": T("the red Workers"),
                  "yellow": T("the yellow Workers"), "grey": T("the grey Workers")}
SKILLS = {"Carpentry": T("Carpentry"), "Tiling": T("Tiling"), "Masonry": T("Masonry")}
TIMING = {"immediate": T("now"), "end": T("at game end")}

# -- locations -------------------------------------------------------------------------------
LOCATIONS = {
    "quarry": T("Quarry"), "forest": T("Forest"), "mines": T("Mines"),
    "silversmith": T("Silversmith"), "storehouse": T("King's Storehouse"),
    "workshop": T("Workshop"), "town_centre": T("Town Centre"), "tax_stand": T("Tax Stand"),
    "guardhouse": T("Guardhouse"), "black_market": T("Black Market"),
    "guildhall": T("Guildhall"),
}
# German needs the article and case of each place: "im Wald", "auf dem Marktplatz"
AT = {
    "quarry": T("at the Quarry"), "forest": T("at the Forest"), "mines": T("at the Mines"),
    "silversmith": T("at the Silversmith"), "storehouse": T("at the King's Storehouse"),
    "workshop": T("at the Workshop"), "town_centre": T("at the Town Centre"),
    "tax_stand": T("at the Tax Stand"), "guardhouse": T("at the Guardhouse"),
    "black_market": T("at the Black Market"), "guildhall": T("at the Guildhall"),
}
FROM = {
    "quarry": T("from the Quarry"), "forest": T("from the Forest"),
    "mines": T("from the Mines"), "silversmith": T("from the Silversmith"),
    "storehouse": T("from the King's Storehouse"), "workshop": T("from the Workshop"),
    "town_centre": T("from the Town Centre"), "tax_stand": T("from the Tax Stand"),
    "guardhouse": T("from the Guardhouse"), "black_market": T("from the Black Market"),
    "guildhall": T("from the Guildhall"),
}

# the same as a step of the move form: "At the Forest", "From the Forest"
AT_TITLE = {
    "quarry": T("At the Quarry"),
    "forest": T("At the Forest"),
    "mines": T("At the Mines"),
    "silversmith": T("At the Silversmith"),
    "storehouse": T("At the King's Storehouse"),
    "workshop": T("At the Workshop"),
    "town_centre": T("At the Town Centre"),
    "tax_stand": T("At the Tax Stand"),
    "guardhouse": T("At the Guardhouse"),
    "black_market": T("At the Black Market"),
    "guildhall": T("At the Guildhall"),
}
FROM_TITLE = {
    "quarry": T("From the Quarry"),
    "forest": T("From the Forest"),
    "mines": T("From the Mines"),
    "silversmith": T("From the Silversmith"),
    "storehouse": T("From the King's Storehouse"),
    "workshop": T("From the Workshop"),
    "town_centre": T("From the Town Centre"),
    "tax_stand": T("From the Tax Stand"),
    "guardhouse": T("From the Guardhouse"),
    "black_market": T("From the Black Market"),
    "guildhall": T("From the Guildhall"),
}

# -- the Byzantine opponent's Scheme cards -----------------------------------------------------
SCHEMES = {"Build": T("Build"), "Arrest": T("Arrest"), "Gather": T("Gather"),
           "Gather (silver)": T("Gather (silver)"), "Hire": T("Hire"),
           "Smuggle": T("Smuggle"), "Jail": T("Jail"), "Steal": T("Steal"),
           "Double Arrest": T("Double Arrest"), "Rush": T("Rush"), "Bribe": T("Bribe")}
LEVELS = {"constantine": T("Constantine"), "helena": T("Helena")}

# -- the view: scoring lines and what the player to act is choosing ---------------------------
SCORE_LINES = {"buildings": T("Buildings"), "guildhall": T("Guildhall Workers"),
               "cathedral": T("Cathedral"), "virtue": T("Virtue"),
               "debts": T("unpaid Debts"), "gold_marble": T("Gold and Marble"),
               "silver": T("Silver"), "prison": T("Prison")}
PENDING = {
    "storehouse": T("trading at the King's Storehouse"),
    "workshop": T("hiring or drawing Building plans at the Workshop"),
    "capture": T("making captures"), "guardhouse": T("taking Guardhouse actions"),
    "bm_b": T("hiring or drawing at the Black Market"),
    "free_hire": T("hiring a free Apprentice"),
    "keep": T("keeping 1 of the drawn Building cards"),
    "cathedral_discard": T("discarding a Building card for the Cathedral"),
    "hand_limit": T("discarding down to 6 Building cards"),
    "library": T("may discard a Building card for 2 Gold"),
    "choice": T("choosing the Building's effect"),
    "crane": T("may place another Worker in the Guildhall"),
    "guildhall": T("constructing a Building or working on the Cathedral"),
    "dismiss": T("discarding an Apprentice"),
    "recall": T("returning a Worker (no Workers left)"),
}
TIE_BREAK = T("most Virtue, then most Silver; still tied: shared victory")


def _word(table: dict[str, Text], code: Any) -> Any:
    return table.get(code, code) if isinstance(code, str) else code


def resource(code: str) -> Any:
    """``building_cards`` as "building cards" (an unknown code: underscores as spaces)."""
    return RESOURCES.get(code, code.replace("_", " "))


def resource_title(code: str) -> Any:
    """``wood`` as on the cards: "Wood"."""
    return TITLES.get(code, code.replace("_", " ").title())


def colour(code: Any) -> Any:
    return _word(COLOURS, code)


def colour_title(code: Any) -> Any:
    return _word(COLOUR_TITLES, code)


def skill(code: Any) -> Any:
    return _word(SKILLS, code)


def location(code: Any) -> Any:
    return _word(LOCATIONS, code)


def scheme(code: Any) -> Any:
    return _word(SCHEMES, code)


def fmt(pattern: str, **values: Any) -> Text:
    """A pattern that is the same in every language (``%(name)s: %(line)s``), its values
    still said in the reader's language; not a message of its own."""
    return Text(pattern, values)


# -- counted nouns -----------------------------------------------------------------------------
def building_cards(n: int) -> Text:
    return P("%(n)s Building card", "%(n)s Building cards", n)


def workers(n: int) -> Text:
    return P("%(n)s Worker", "%(n)s Workers", n)


# "2 blue Workers": German inflects the colour by number, so each is its own message
_COLOUR_WORKER_COUNTS = {
    "blue": lambda n: P("%(n)s blue Worker", "%(n)s blue Workers", n),
    "green": lambda n: P("%(n)s green Worker", "%(n)s green Workers", n),
    "purple": lambda n: P("%(n)s purple Worker", "%(n)s purple Workers", n),
    "red": lambda n: P("%(n)s red Worker", "%(n)s red Workers", n),
    "yellow": lambda n: P("%(n)s yellow Worker", "%(n)s yellow Workers", n),
    "grey": lambda n: P("%(n)s grey Worker", "%(n)s grey Workers", n),
}


def colour_workers(code: Any, n: int) -> Text:
    """``2 blue Workers`` (an unknown colour code as it is)."""
    counted = _COLOUR_WORKER_COUNTS.get(code) if isinstance(code, str) else None
    if counted is not None:
        return counted(n)
    return P("%(n)s %(colour)s Worker", "%(n)s %(colour)s Workers", n, colour=code)


def goods(g: dict[str, int]) -> Text:
    """'2 wood, 1 gold' (the log's words)."""
    parts = [fmt("%(n)s %(what)s", n=v, what=resource(k)) for k, v in g.items() if v]
    return join(parts) if parts else T("nothing")


def goods_title(g: dict[str, int]) -> Text:
    """'2 Wood, 1 Gold, 3 Building cards' (resource names capitalised as on the cards)."""
    parts: list[Any] = []
    for k, v in g.items():
        if not v:
            continue
        if k == "building_cards":
            parts.append(building_cards(v))
        else:
            parts.append(fmt("%(n)s %(what)s", n=v, what=resource_title(k)))
    return join(parts) if parts else T("nothing")


def and_list(parts: list[Any]) -> Any:
    """``a and b and c``, each part still translatable."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return T("%(a)s and %(b)s", a=and_list(parts[:-1]), b=parts[-1])


def signed(n: int) -> str:
    """``+1``, ``-2``: a number with its sign (the same in every language)."""
    return f"{n:+d}"
