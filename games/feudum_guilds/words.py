"""The game's words as :class:`games.text.Text`: goods, guilds, cards, locations, vessels,
monsters, functions, ranks, and the log lines.

Each word is its English (the data files' and the moves' codes: ``"food"``,
``"farmer"``), so a label that holds one still compares and serialises as before; the
edge says it in the reader's language (``worker.i18n.translate``).

The log (``state["log"]``) must stay plain English strings: the state is copied with
``marshal`` and its hash is what the golden games check.  So the rules log a
:func:`line` (its English is what is stored) and the view reads each stored line back
into its Text with :func:`read_log` (old games' lines too): every line the rules can
write is one of :data:`LINES`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache
from typing import Any

from games.text import T, Text, join, name


# -- words ----------------------------------------------------------------------------------
class Named(Text):
    """A word shown in English as ``english`` whose message id says more (``Tax (action
    card)``): for a word another game's catalog already says otherwise (Architects' tax
    is "Steuer", Feudum's Tax card "Steuern"), since the catalogs are merged into one."""

    def __new__(cls, msgid: str, english: str) -> Named:  # type: ignore[misc]
        self = str.__new__(cls, english)
        msgid = str.__str__(msgid)
        self.msgid, self.plural, self.n, self.values = msgid, None, None, {}
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Named, (self.msgid, str.__str__(self)))


GOODS = {"food": T("food"), "wood": T("wood"), "iron": T("iron"), "sulfur": T("sulfur"),
         "saltpeter": T("saltpeter")}
GUILDS = {"farmer": T("farmer"), "merchant": T("merchant"), "alchemist": T("alchemist"),
          "knight": T("knight"), "noble": T("noble"), "monk": T("monk")}
GUILD_NAMES = {"farmer": T("Farmer"), "merchant": T("Merchant"), "alchemist": T("Alchemist"),
               "knight": T("Knight"), "noble": T("Noble"), "monk": T("Monk")}
GUILD_TITLES = {"farmer": T("Farmer guild"), "merchant": T("Merchant guild"),
                "alchemist": T("Alchemist guild"), "knight": T("Knight guild"),
                "noble": T("Noble guild"), "monk": T("Monk guild")}
PATRONS = {"farmer": T("Miss Allison"), "merchant": T("Lord Brett"),
           "alchemist": T("Lord Arthur"), "knight": T("Sir Marcus"),
           "noble": T("Queen Anne"), "monk": T("Brother Justinius")}
CARDS = {"migrate": T("migrate"), "influence": T("influence"), "improve": T("improve"),
         "explore": T("explore"), "harvest": T("harvest"),
         "tax": Named(T("tax (action card)"), "tax"), "guild": T("guild"), "repeat": T("repeat")}
CARD_TITLES = {"migrate": T("Migrate"), "influence": T("Influence"), "improve": T("Improve"),
               "explore": T("Explore"), "harvest": T("Harvest"),
               "tax": Named(T("Tax (action card)"), "Tax"),
               "guild": T("Guild"), "repeat": T("Repeat")}
LOCATIONS = {"outpost": T("outpost"), "farm": T("farm"), "town": T("town"),
             "feudum": T("feudum")}
VESSELS = {"ship": T("ship"), "submersible": T("submersible"),
           "flying machine": T("flying machine")}
MONSTERS = {"behemoth": T("behemoth"), "sea serpent": T("sea serpent")}
FUNCTIONS = {"trade": T("trade"), "pull": T("pull"), "push": T("push")}
RANKS = {"master": T("master"), "journeyman": T("journeyman"), "apprentice": T("apprentice")}
WRIT_KINDS = {"mandate": T("mandate"), "charter": T("charter")}
FISTS = {"left": T("left"), "right": T("right")}
BEADS = {"low": T("low"), "high": T("high")}
PLACES = {"market": T("market"), "Alchemist": T("Alchemist")}
PHASES = {"setup": T("setup"), "select": T("select"), "act": T("act"),
          "nourish": T("nourish"), "end": T("end"), "over": T("over")}
BOOSTS = {"none": T("none"), "extra": T("extra"), "double": T("double")}
DUMMIES = {"neutral": T("neutral"), "neutral 1": T("neutral 1"), "neutral 2": T("neutral 2")}
# the guild functions a score, a writ draw or a prompt is for: "Farmer push", and
# "farmer push" as the functions' codes say them (``farmer_push``)
GUILD_FUNCTIONS = {str(t): t for t in (
    T("Farmer pull"), T("Farmer push"), T("Merchant pull"), T("Merchant push"),
    T("Alchemist pull"), T("Alchemist push"), T("Knight pull"), T("Knight push"),
    T("Noble pull"), T("Noble push"), T("Monk pull"), T("Monk push"),
    T("farmer pull"), T("farmer push"), T("merchant pull"), T("merchant push"),
    T("alchemist pull"), T("alchemist push"), T("knight pull"), T("knight push"),
    T("noble pull"), T("noble push"), T("monk pull"), T("monk push"))}


def _word(table: dict[str, Text], code: Any) -> Any:
    """``code`` said as a word (an unknown code or a non-string stays as it is)."""
    return table.get(code, code) if isinstance(code, str) else code


def _spaced(code: Any) -> Any:
    return code.replace("_", " ") if isinstance(code, str) else code


def good(code: Any) -> Any:
    return _word(GOODS, code)


def guild(code: Any) -> Any:
    """``farmer``: the guild's lower-case word."""
    return _word(GUILDS, code)


def guild_name(code: Any) -> Any:
    """``Farmer``: the guild's name."""
    return _word(GUILD_NAMES, code)


def guild_title(code: Any) -> Any:
    """``Farmer guild``."""
    return _word(GUILD_TITLES, code)


def patron(code: Any) -> Any:
    return _word(PATRONS, code)


def card(code: Any) -> Any:
    """An action card as the data file names it (``migrate``)."""
    return _word(CARDS, code)


def card_title(code: Any) -> Any:
    """An action card as the labels name it (``Migrate``)."""
    return _word(CARD_TITLES, code)


def card_text(text: Any) -> Any:
    """An action card's effect text from the data file."""
    return name(text) if isinstance(text, str) and text else text


def writ(english: Any) -> Any:
    """A Royal Writ's name (``Bow``), or a mandate's status reward, from the data file."""
    return name(english) if isinstance(english, str) and english else english


def location(code: Any) -> Any:
    return _word(LOCATIONS, code)


def vessel(code: Any) -> Any:
    """``ship``, ``flying_machine`` (said ``flying machine``)."""
    return _word(VESSELS, _spaced(code))


def monster(code: Any) -> Any:
    """``behemoth``, ``sea_serpent`` (said ``sea serpent``)."""
    return _word(MONSTERS, _spaced(code))


def function(code: Any) -> Any:
    return _word(FUNCTIONS, code)


def rank(code: Any) -> Any:
    return _word(RANKS, code)


def writ_kind(code: Any) -> Any:
    return _word(WRIT_KINDS, code)


def phase(code: Any) -> Any:
    return _word(PHASES, code)


def boost(code: Any) -> Any:
    return _word(BOOSTS, code)


def dummy(code: Any) -> Any:
    """A dummy Knight row's colour (``neutral 1``); a player's name stays as it is."""
    return _word(DUMMIES, code)


def guild_function(english: Any) -> Any:
    """``Farmer push``: a guild's function named in a score or a writ draw."""
    return _word(GUILD_FUNCTIONS, english)


def goods_list(goods: list[str], empty: Text) -> Text:
    """``food, wood, iron`` (``empty`` when there are none)."""
    return join([good(g) for g in goods]) if goods else empty


def amount(n: Any, code: str) -> Text:
    """``2 wood``: a number of one good (or of shillings, markers ...)."""
    return T("%(n)s %(good)s", n=n, good=good(code))


def cards_list(cards: list[str]) -> Text:
    """``Migrate, Tax``."""
    return join([card_title(c) for c in cards])


# -- log lines ------------------------------------------------------------------------------
# Each line the rules log, by key; a placeholder's name says what it holds (see _SLOTS).
LINES: dict[str, Text] = {
    "scores": T("%(who)s scores %(vp)s vp (%(why)s)"),
    "tames": T("%(who)s tames the %(monster)s"),
    "pilfers": T("the %(monster)s pilfers 1 %(good)s"),
    "tribute": T("%(who)s pays tribute (military service %(service)s/3)"),
    "disloyalty": T("%(who)s loses %(vp)s vp for disloyalty"),
    "forfeits": T("%(who)s forfeits %(card)s"),
    "migrates": T("%(who)s migrates a %(guild)s pawn into play"),
    "returns": T("%(who)s returns a %(guild)s pawn to supply"),
    "claims": T("%(who)s claims %(n)s outpost(s)"),
    "explores": T("%(who)s explores"),
    "taxes": T("%(who)s taxes for %(n)s shillings"),
    "improves": T("%(who)s improves a location to a %(location)s"),
    "chosen": T("round %(round)s: the action cards are chosen"),
    "fills": T("%(who)s puts 1 sulfur into the wine barrel"),
    "double": T("%(who)s takes a double turn"),
    "plays": T("%(who)s plays %(card)s"),
    "starves": T("%(who)s's %(guild)s pawn starves and returns to supply"),
    "function": T("%(who)s %(function)s at the %(guild_name)s guild"),
    "feasts": T("%(who)s feasts: %(function)s at the %(guild_name)s guild"),
    "purse": T("the farmer's purse is split %(master)s/%(journeyman)s"),
    "sends": T("%(who)s sends %(n)s goods to the barn for %(food)s food and "
               "%(shillings)s shilling(s)"),
    "alms": T("alms of %(bead)s placed on a chicken"),
    "collects": T("%(who)s collects a rosary bead of %(bead)s"),
    "coffer": T("the church coffer is split %(master)s/%(journeyman)s"),
    "flipped": T("a seal is flipped onto the rosary: bead %(bead)s"),
    "defeats": T("%(who)s defeats the %(monster)s"),
    "progress": T("progress: a region tile leaves stack %(stack)s"),
    "dawn": T("dawn of epoch %(epoch)s"),
    "famine": T("famine: the alms leave the chickens"),
    "replenished": T("the guilds are replenished"),
    "over": T("the game is over"),
    "draws": T("%(who)s scores 3 vp and draws writs (%(why)s)"),
    "discards": T("%(who)s discards a Royal Writ to the bottom of the deck"),
    "mandate": T("%(who)s plays the mandate %(writ)s"),
    "seals": T("%(who)s places a king's seal on a charter"),
}
# Why a player scores: what %(why)s holds.
WHY: dict[str, Text] = {
    "reeve": T("reeve"),
    "feast": T("feast"),
    "harvest": T("harvest"),
    "tile": T("region tile %(epoch)s for a %(location)s"),
}
ROUND = T("R%(round)s: %(line)s")


def line(key: str, **values: Any) -> Text:
    """The log line ``key`` with ``values`` (each said as its slot says: see _SLOTS)."""
    said = {k: _SLOTS[k][1](v) if k in _SLOTS else v for k, v in values.items()}
    return Text(LINES[key].msgid, said)


def why(key: str, **values: Any) -> Text:
    """A reason to score (``WHY``); a guild function's name is :func:`guild_function`."""
    said = {k: _SLOTS[k][1](v) if k in _SLOTS else v for k, v in values.items()}
    return Text(WHY[key].msgid, said)


def _alternatives(words: Any) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _why_said(english: str) -> Any:
    if english in GUILD_FUNCTIONS:
        return GUILD_FUNCTIONS[english]
    return _read(english, _why_patterns()) or english


_NUMBER = r"\d+"
_ANY = r".+?"
# slot name -> (pattern, what the English becomes)
_SLOTS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "who": (_ANY, lambda v: v),
    "vp": (_NUMBER, lambda v: v), "n": (_NUMBER, lambda v: v),
    "service": (_NUMBER, lambda v: v), "round": (_NUMBER, lambda v: v),
    "food": (r"-?\d+", lambda v: v), "shillings": (r"-?\d+", lambda v: v),
    "master": (_NUMBER, lambda v: v), "journeyman": (_NUMBER, lambda v: v),
    "bead": (_NUMBER, lambda v: v), "stack": (_NUMBER, lambda v: v),
    "epoch": (_NUMBER, lambda v: v),
    "monster": (_alternatives(MONSTERS), monster),
    "good": (_alternatives(GOODS), good),
    "card": (r"[a-z]+", card),
    "guild": (_alternatives(GUILDS), guild),
    "guild_name": (_alternatives(GUILD_NAMES.values()),
                   lambda v: guild_name(v.lower()) if isinstance(v, str) else v),
    "function": (_alternatives(FUNCTIONS), function),
    "location": (_alternatives(LOCATIONS), location),
    "writ": (_ANY, writ),
    "why": (_ANY, lambda v: _why_said(v) if isinstance(v, str) and not isinstance(v, Text)
            else v),
}


def _pattern(msgid: str) -> re.Pattern[str]:
    parts = re.split(r"%\((\w+)\)s", msgid)
    out = []
    for i, part in enumerate(parts):
        out.append(re.escape(part) if i % 2 == 0 else f"(?P<{part}>{_SLOTS[part][0]})")
    return re.compile("".join(out))


def _order(texts: list[Text]) -> list[tuple[Text, re.Pattern[str]]]:
    """Patterns with the most fixed words first (``X feasts: trade at ...`` before ``X
    trade at ...``)."""
    literal = [(len(re.sub(r"%\(\w+\)s", "", t.msgid)), t) for t in texts]
    return [(t, _pattern(t.msgid)) for _, t in sorted(literal, key=lambda x: -x[0])]


@cache
def _line_patterns() -> list[tuple[Text, re.Pattern[str]]]:
    return _order(list(LINES.values()))


@cache
def _why_patterns() -> list[tuple[Text, re.Pattern[str]]]:
    return _order(list(WHY.values()))


def _read(english: str, patterns: list[tuple[Text, re.Pattern[str]]]) -> Text | None:
    for text, pattern in patterns:
        found = pattern.fullmatch(english)
        if found:
            said = {k: _SLOTS[k][1](v) for k, v in found.groupdict().items()}
            out = Text(text.msgid, said)
            if out == english:
                return out
    return None


def read_log(stored: Any) -> Any:
    """A stored log line (``R3: Ann plays tax``) as its Text; a line no pattern reads
    stays as it is (its English is the same either way).  Lines are read once each (a
    view shows the last 12, and the next view most of the same)."""
    if not isinstance(stored, str) or isinstance(stored, Text):
        return stored
    return _read_line(str.__str__(stored))


@lru_cache(maxsize=4096)
def _read_line(stored: str) -> Any:
    found = re.fullmatch(r"R(\d+): (.*)", stored, re.S)
    if not found:
        return stored
    said = _read(found.group(2), _line_patterns())
    if said is None:
        return stored
    return Text(ROUND.msgid, {"round": found.group(1), "line": said})


# -- the picture's short words ----------------------------------------------------------------
# Capitalised names as the picture's labels show them (``Food``, ``Flying Machine``).
GOOD_TITLES = {"food": T("Food"), "wood": T("Wood"), "iron": T("Iron"), "sulfur": T("Sulfur"),
               "saltpeter": T("Saltpeter")}
VESSEL_TITLES = {"ship": T("Ship"), "submersible": T("Submersible"),
                 "flying_machine": T("Flying Machine")}
MONSTER_TITLES = {"behemoth": T("Behemoth"), "sea_serpent": T("Sea Serpent")}
# A good's letter on its square; English as before, the message id says which good.
GOOD_LETTERS = {"food": Named(T("F (the letter for food)"), "F"),
                "wood": Named(T("W (the letter for wood)"), "W"),
                "iron": Named(T("I (the letter for iron)"), "I"),
                "sulfur": Named(T("S (the letter for sulfur)"), "S"),
                "saltpeter": Named(T("P (the letter for saltpeter)"), "P")}
# A rank as a guild's card shows it, short.
RANK_SHORT = {"master": Named(T("Master (rank, short)"), "Master"),
              "journeyman": Named(T("Jour. (journeyman, short)"), "Jour."),
              "apprentice": Named(T("Appr. (apprentice, short)"), "Appr.")}
# A location as a player's small tile names it (at most 7 letters).
LOCATION_SHORT = {"outpost": Named(T("outpost (short)"), "outpost"),
                  "farm": Named(T("farm (short)"), "farm"),
                  "town": Named(T("town (short)"), "town"),
                  "feudum": Named(T("feudum (short)"), "feudum")}
# An action card as the phone's narrow card names it.
CARD_SHORT = {"migrate": Named(T("Migrate (card, short)"), "Migrate"),
              "influence": Named(T("Influence (card, short)"), "Influence"),
              "improve": Named(T("Improve (card, short)"), "Improve"),
              "explore": Named(T("Explore (card, short)"), "Explore"),
              "harvest": Named(T("Harvest (card, short)"), "Harvest"),
              "tax": Named(T("Tax (card, short)"), "Tax"),
              "guild": Named(T("Guild (card, short)"), "Guild"),
              "repeat": Named(T("Repeat (card, short)"), "Repeat")}
FLYER = Named(T("Flyer (a flying machine, short)"), "Flyer")


def good_title(code: Any) -> Any:
    """``Food``."""
    return _word(GOOD_TITLES, code)


def vessel_title(code: Any) -> Any:
    """``Flying Machine`` (the code ``flying_machine``)."""
    return _word(VESSEL_TITLES, code)


def monster_title(code: Any) -> Any:
    """``Sea Serpent`` (the code ``sea_serpent``)."""
    return _word(MONSTER_TITLES, code)


def good_letter(code: Any) -> Any:
    return _word(GOOD_LETTERS, code)


def rank_short(code: Any) -> Any:
    """``Jour.``: a rank on a guild's card."""
    return _word(RANK_SHORT, code)


def location_short(code: Any) -> Any:
    return _word(LOCATION_SHORT, code)


def card_short(code: Any) -> Any:
    return _word(CARD_SHORT, code)
