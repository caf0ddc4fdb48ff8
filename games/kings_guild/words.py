"""The game's small words as :class:`games.text.Text`: resources, colours, heroes, item
types, timing icons, treasure kinds, solo titles, and counted nouns (``3 coins``).

Each is its English word (the data files' and the moves' codes: ``"wood"``, ``"blue"``),
so a view or a label that holds one still compares, sorts and serialises as before; the
edge says it in the reader's language (``worker.i18n.translate``).  The names of cards,
rooms, specialists, quests, items and guilds come from the data files: :func:`card`.
"""

from __future__ import annotations

from typing import Any

from games.text import P, T, Text, name

RESOURCES = {"cloth": T("cloth"), "leather": T("leather"), "metal": T("metal"),
             "wood": T("wood"), "gem": T("gem"), "magic": T("magic"), "coins": T("coins")}
COLOURS = {"blue": T("blue"), "red": T("red"), "yellow": T("yellow")}
HEROES = {"mage": T("mage"), "warrior": T("warrior"), "rogue": T("rogue")}
HERO_TITLES = {"mage": T("Mage"), "warrior": T("Warrior"), "rogue": T("Rogue")}
ITEM_TYPES = {"weapon": T("weapon"), "armor": T("armor")}
TIMINGS = {"any time": T("any time"), "craft": T("craft"), "expand": T("expand"),
           "gather": T("gather"), "hero: mage": T("hero: mage"),
           "hero: rogue": T("hero: rogue"), "hero: warrior": T("hero: warrior"),
           "on hire": T("on hire"), "passive": T("passive"),
           "quest treasure": T("quest treasure")}
CATEGORIES = {"Charm": T("Charm"), "Relic": T("Relic"), "Scroll": T("Scroll"),
              "treasure": T("treasure")}
TITLES = {"RECRUIT": T("RECRUIT"), "MEMBER": T("MEMBER"), "LEADER": T("LEADER"),
          "KING": T("KING"), "LEGEND": T("LEGEND")}
TIE_BREAK = {"most coins left": T("most coins left")}
SPACES = {"top": T("top")}
COLOUR_DECKS = {"blue": T("Blue deck"), "red": T("Red deck"), "yellow": T("Yellow deck")}


def _word(table: dict[str, Text], code: Any) -> Any:
    return table.get(code, code) if isinstance(code, str) else code


def resource(code: Any) -> Any:
    """``wood`` said as a word (an unknown code stays as it is)."""
    return _word(RESOURCES, code)


def colour(code: Any) -> Any:
    return _word(COLOURS, code)


def hero(code: Any) -> Any:
    return _word(HEROES, code)


def item_type(code: Any) -> Any:
    return _word(ITEM_TYPES, code)


def timing(code: Any) -> Any:
    return _word(TIMINGS, code)


def category(code: Any) -> Any:
    return _word(CATEGORIES, code)


def title(code: Any) -> Any:
    return _word(TITLES, code)


def card(english: Any) -> Any:
    """A name or an effect text from the data files (cards, rooms, guilds, items), as a
    Text; empty or not a string: as it is."""
    return name(english) if isinstance(english, str) and english else english


def space(code: Any) -> Any:
    """A specialist space: ``top`` or a chamber's (room's) name."""
    return SPACES["top"] if code == "top" else card(code)


# -- counted nouns -------------------------------------------------------------------------
def coins(n: int) -> Text:
    return P("%(n)s coin", "%(n)s coins", n)


def treasures(n: int) -> Text:
    return P("%(n)s treasure", "%(n)s treasures", n)


def quests(n: int) -> Text:
    return P("%(n)s quest", "%(n)s quests", n)


def specialists(n: int) -> Text:
    return P("%(n)s specialist", "%(n)s specialists", n)


def rooms(n: int) -> Text:
    return P("%(n)s room", "%(n)s rooms", n)


def turns(n: int) -> Text:
    return P("%(n)s turn", "%(n)s turns", n)


def weapons(n: int) -> Text:
    return P("%(n)s weapon", "%(n)s weapons", n)


def free_sigils(n: int) -> Text:
    return P("%(n)s free sigil", "%(n)s free sigils", n)


def amount(n: int, code: str) -> Text:
    """``2 wood``: a number of one resource (gems are counted: their own plural)."""
    if code == "gem":  # English keeps the data's "2 gem"; German counts "2 Edelsteine"
        return P("%(n)s gem", "%(n)s gem", n)
    return T("%(n)s %(resource)s", n=n, resource=resource(code))


def cost(cost: dict[str, int]) -> Text:
    """``1 wood, 2 metal`` (``nothing`` when free)."""
    from games.text import join

    return join([amount(n, r) for r, n in cost.items()]) if cost else T("nothing")


def prestige(n: Any) -> Text:
    return T("%(n)s prestige", n=n)


class Shown(Text):
    """A data file's text shown in English as ``english`` (cut short, its spaces tidied)
    while its message id stays the whole text: another language says all of it."""

    def __new__(cls, msgid: str, english: str) -> Shown:  # type: ignore[misc]
        self = str.__new__(cls, english)
        self.msgid, self.plural, self.n, self.values = msgid, None, None, {}
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Shown, (self.msgid, str.__str__(self)))


def short(text: str, most: int = 90) -> Any:
    """A card's effect cut to about ``most`` characters for a one-line label (English; the
    reader's language gets the whole effect)."""
    tidy = " ".join(str(text).split())
    cut = tidy if len(tidy) <= most else tidy[: most - 1].rsplit(" ", 1)[0] + "…"
    if not text:
        return cut
    return card(text) if cut == text else Shown(text, cut)


def and_list(parts: list[Any]) -> Any:
    """``a and b and c``, each part still translatable."""
    if not parts:
        return ""
    if len(parts) == 1:
        return parts[0]
    return T("%(a)s and %(b)s", a=and_list(parts[:-1]), b=parts[-1])
