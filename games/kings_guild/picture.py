"""The King's Guild table as one SVG picture, drawn from a seat's view only.

Top to bottom: the players (who is to act, prestige on the table, coins, treasures held),
the round and what is asked now; the quest row (hero, items with their cost and coins,
sigils, the Thug, the reward's treasure colours); the specialist row (price, discount coins,
prestige, timing, effect); the rooms for sale; the treasure decks, the relics in the
discards and the resource supply; what the viewer is asked to choose (drawn treasures to
keep); the viewer's hand (only theirs: the others show a count); then every guild board,
the viewer's first: the specialist spaces above the guild, the 4 x 3 grid with the guild
tile, rooms and bonus spaces, storage, completed quests and specialists.

For an email (``table["medium"] == "email"``) the same sections are drawn 400 units wide
instead of 480 (a phone shows an email picture about 340 px wide), each player's facts
under their name, each guild's storage under its grid, only the reader's own grid (the
others' rooms and specialists are listed in words), and no tooltips.  For the game page on
a phone (``"phone"``) that layout is drawn 340 units wide with no text below 11 units, so
the page shows it at its own size (11 px text) with no sideways panning: quest, specialist,
room and hand cards one a row, the treasure decks a row each, the supply two a row, the
score sheet a seat a box, and long lines (German ones) wrapped by measure.

Shapes a move acts on carry ``data-target`` names; :func:`targets` gives them for a move:

==================  =========================================================
``quest:<slot>``    a quest card in the row (craft, Thug, Witch)
``item:<slot>:<i>`` one item of that quest (craft)
``specialist:<id>`` a specialist in the row or in the viewer's guild
``space:<space>``   ``top`` or a chamber of the viewer's guild (hire, Bard)
``cell:<x>:<y>``    an empty cell of the viewer's guild (place a room)
``room:<name>``     a room for sale (build)
``card:<card>``     a treasure in the viewer's hand (play, sell, discard)
``drawn:<i>``       a treasure the viewer drew and may keep
``relic:<name>``    a relic in the discards (the Curator)
``deck:<colour>``   a treasure deck (draw a colour)
``supply:<res>``    a resource in the supply (gather, gain, spoil, trade for)
``mine:<res>``      a resource in the viewer's storage (discard, trade away)
``store:<s>:<res>`` a resource in another seat's storage (the Smuggler)
``council``         the Offering to the Council (make an offering)
==================  =========================================================
"""

from __future__ import annotations

import math
import re
import textwrap
from functools import cache
from typing import Any

from games.kings_guild import cards
from games.kings_guild import words as kw
from games.svg import EMAIL_WIDTH, HIGHLIGHT, INK, MUTED, Drawing, Say, for_email, seat_colour
from games.text import P, T, Text, join

WIDTH = 480  # tall, not wide: a phone (390 px) shows it at 0.8, small print stays legible
MARGIN = 10
GAP = 8
COLUMNS = 2
CELL_W, CELL_H = 64, 52  # one cell of a guild board
COLUMN = (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GAP) / COLUMNS  # cards side by side
STORAGE_BELOW = 150  # an email's guild: the storage and quests done, under the grid
# The game page on a phone (``medium == "phone"``): picture-zoom.js shows it at its own size
# when it fits the phone and its smallest text is 11 px or more, so it is PHONE_WIDTH units
# wide with no text below PHONE_TEXT (at 11.1 / 11 px a unit: 343 px, a 390 px phone less
# the page's padding; no panning).  One card a row, the players and the guilds stacked,
# long lines wrapped by measure.
PHONE_WIDTH = 340
PHONE_TEXT = 11
PHONE_CELL_W, PHONE_CELL_H = 76, 66  # a guild board's cell on a phone
RESOURCE_COLOUR = {"cloth": "#9FA8DA", "leather": "#A0522D", "metal": "#9E9E9E",
                   "wood": "#6B8E23", "gem": "#E53935", "magic": "#8E44AD", "coins": "#D4A017"}
TREASURE_COLOUR = {"blue": "#1E88E5", "red": "#E53935", "yellow": "#F2C200"}
HERO_COLOUR = {"warrior": "#E53935", "rogue": "#F2C200", "mage": "#1E88E5"}
CARD = "#FFFFFF"
EVENT = "#EDE7F6"
ROOM_FILL = {"basic": "#E8F0E0", "master": "#F6E7C8", "guild_special": "#E0ECF4",
             "special": "#F3D9D9"}
DECISIONS = {
    "start_resources": T("choose starting resources"),
    "start_treasure": T("choose a treasure colour"),
    "place_room": T("place a room"), "gather": T("gather resources"),
    "extra_craft": T("craft again"), "keep_treasure": T("keep a treasure from a shared quest"),
    "appraiser": T("use the Appraiser"), "discard_one": T("discard a treasure"),
    "hero_bonus": T("pay 1 coin for a treasure"), "thug": T("move the Thug"),
    "warlock": T("use the Warlock"), "contract": T("hire with a Contract"),
    "overseer": T("take the oldest specialist"), "alchemist": T("trade with the Alchemist"),
    "curator": T("buy relics with the Curator"),
    "merchant_draw": T("draw treasures (Merchant)"),
    "merchant_discard": T("discard treasures (Merchant)"), "minstrel": T("draw a treasure"),
    "smuggler": T("steal a resource"), "witch": T("take a quest (Witch)"),
    "plenty": T("gain a resource (Scroll of Plenty)"), "wonders": T("draw a treasure"),
    "wonders_next": T("pay 1 coin for a treasure (Scroll of Wonders)"),
    "spoil": T("spoil a resource"), "map_discard": T("discard a treasure (Treasure Map)"),
    "map_colors": T("choose two treasure colours (Treasure Map)"),
    "bard": T("move specialists"), "substitute": T("choose another colour"),
    "discard_resource": T("discard resources"),
    "sell_down": T("sell treasures down to the hand size"),
    "funeral_bid": T("bid for the Statue"),
}
ACTIONS = {"gather": T("gathered"), "craft": T("crafted"), "expand": T("expanded"),
           "offering": T("made an offering"), "statue": T("built the Statue")}
DECK_TITLES = {"blue": T("Blue"), "red": T("Red"), "yellow": T("Yellow")}
KINDS_LOWER = {"Charm": T("charm"), "Relic": T("relic"), "Scroll": T("scroll"),
               "treasure": T("treasure")}
SCORE_COLUMNS = [("charms", T("Charms")), ("charm_bonus", T("Most")), ("relics", T("Relics")),
                 ("quests", T("Quests")), ("specialists", T("Spec.")), ("rooms", T("Rooms")),
                 ("offering", T("Offer")), ("total", T("Total")), ("coins", T("Coins"))]


# -- targets ------------------------------------------------------------------------------


def targets(move: dict[str, Any]) -> list[str]:
    """The picture's shapes ``move`` acts on (see the module docstring); [] for none."""
    kind = move.get("type")
    if kind == "craft":
        return [f"quest:{move['slot']}"] + [f"item:{move['slot']}:{i}" for i in move["items"]]
    if kind in ("move_thug", "take_quest"):
        return [f"quest:{move['slot']}"]
    if kind in ("hire", "hire_oldest", "move_specialist"):
        return [f"specialist:{move['specialist']}", f"space:{move['space']}"]
    if kind == "place":
        return [f"cell:{move['x']}:{move['y']}"]
    if kind == "build":
        return [f"room:{move['room']}"]
    if kind in ("play", "sell", "discard_treasure", "destroy_scroll"):
        return [f"card:{move['card']}"]
    if kind == "buy_relic":
        return [f"relic:{cards.treasure_name(move['card'])}"]
    if kind in ("draw", "choose_color"):
        return [f"deck:{move['color']}"]
    if kind == "map_colors":
        return [f"deck:{c}" for c in dict.fromkeys(move["colors"])]
    if kind == "keep":
        return [f"drawn:{move['index']}"]
    if kind in ("take", "gain", "spoil"):
        return [f"supply:{move['resource']}"]
    if kind == "choose_resources":
        return [f"supply:{r}" for r in dict.fromkeys(move["resources"])]
    if kind == "discard_resource":
        return [f"mine:{move['resource']}"]
    if kind == "transmute":
        return [f"mine:{move['give']}", f"supply:{move['take']}"]
    if kind == "steal":
        return [f"store:{move['from']}:{move['resource']}"]
    if kind == "offer":
        return ["council"]
    return []


# -- small helpers ------------------------------------------------------------------------


def _lines(text: str, chars: int, most: int) -> list[str]:
    """``text`` wrapped to ``chars`` a line, at most ``most`` lines (… when cut)."""
    lines = textwrap.wrap(str(text), chars) or [""]
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = lines[-1][: max(0, chars - 1)].rstrip() + "…"
    return lines


def _chars(width: float, size: float, bold: bool = False) -> int:
    """About how many characters of ``size`` fit in ``width`` (DejaVu Sans is wide)."""
    return max(4, int(width / (size * (0.64 if bold else 0.57))))


def _paragraph(d: Drawing, x: float, y: float, text: str, width: float, size: float,
               most: int, **attrs: Any) -> float:
    """Wrapped text from baseline ``y``; returns the baseline after the last line."""
    for line in _lines(text, _chars(width, size, attrs.get("weight") == "bold"), most):
        d.text(x, y, line, size=size, **attrs)
        y += size * 1.25
    return y


# DejaVu Sans advance widths (1/1000 em) of the characters the picture's words use, to
# tell whether a (German, longer) word fits: ASCII, then the German letters and signs.
_GLYPHS = (" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`"
           "abcdefghijklmnopqrstuvwxyz{|}~äöüÄÖÜß–…·★„“")
_REGULAR = (318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
    636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000,
    684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695,
    635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635,
    615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592,
    818, 592, 592, 525, 636, 337, 636, 838, 613, 612, 634, 684, 787, 732, 630, 500, 1000,
    318, 896, 518, 518)
_BOLD = (348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365,
    696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000,
    774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770,
    720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593,
    716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478,
    712, 652, 924, 645, 652, 582, 712, 365, 712, 838, 675, 687, 712, 774, 850, 812, 719, 500,
    1000, 380, 896, 657, 657)
_ADVANCE = {False: dict(zip(_GLYPHS, _REGULAR, strict=True)),
            True: dict(zip(_GLYPHS, _BOLD, strict=True))}


def _width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn at ``size`` in DejaVu Sans (the pictures' font)."""
    advance = _ADVANCE[bold]
    return sum(advance.get(ch, 1000) for ch in str(text)) * size / 1000


def _fit(text: str, width: float, size: float, bold: bool = False,
         least: float = 7.5) -> float:
    """``size``, or smaller (not below ``least``) when ``text`` would not fit in ``width``."""
    need = _width(text, size, bold)
    return size if need <= width else max(least, math.floor(size * width / need * 10) / 10)


def _measured_lines(text: str, width: float, size: float, bold: bool) -> list[str]:
    """``text`` wrapped at whole words by measured width (a word wider than ``width``
    stays whole on its own line)."""
    lines: list[str] = []
    for word in re.findall(r"\S+?-(?=\S)|\S+", str(text)):  # a hyphen may end a line
        joined = f"{lines[-1]}{word}" if lines and lines[-1].endswith("-") \
            else f"{lines[-1]} {word}" if lines else word
        if lines and _width(joined, size, bold) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines or [""]


def _name_block(d: Drawing, x: float, y: float, text: str, width: float, size: float,
                most: int, least: float = 7.5, **attrs: Any) -> float:
    """A name in at most ``most`` lines from baseline ``y``, as :func:`_paragraph` draws it
    when its words fit; else wrapped by measure, in smaller print (not below ``least``)
    only as far as needed to keep every word whole (a long German name)."""
    bold = attrs.get("weight") == "bold"
    chars = _chars(width, size, bold)
    fits = textwrap.wrap(str(text), chars, break_long_words=False) or [""]
    if len(fits) <= most and all(len(line) <= chars for line in fits):
        return _paragraph(d, x, y, text, width, size, most, **attrs)
    lines = _measured_lines(text, width, size, bold)
    while size > least and (len(lines) > most or any(
            _width(line, size, bold) > width for line in lines)):
        size = max(least, round(size - 0.25, 2))
        lines = _measured_lines(text, width, size, bold)
    if len(lines) > most:
        lines = lines[:most - 1] + [" ".join(lines[most - 1:])]
    for line in lines:
        d.text(x, y, line, size=size, **attrs)
        y += size * 1.25
    return y


def _wrap(text: Any, width: float, size: float, bold: bool = False,
          most: int = 99) -> list[str]:
    """``text`` in lines no wider than ``width`` (measured; a hyphen may end a line, a word
    wider than the line is split), at most ``most`` lines (… ends a cut one)."""
    lines: list[str] = []
    for word in re.findall(r"\S+?-(?=\S)|\S+", str(text)):
        joined = f"{lines[-1]}{word}" if lines and lines[-1].endswith("-") \
            else f"{lines[-1]} {word}" if lines else word
        if lines and _width(joined, size, bold) <= width:
            lines[-1] = joined
            continue
        if _width(word, size, bold) > width:  # split: the line's rest first, then whole lines
            for k, ch in enumerate(word):
                gap = " " if k == 0 and lines and not lines[-1].endswith("-") else ""
                joined = f"{lines[-1]}{gap}{ch}" if lines else ch
                if lines and _width(joined, size, bold) <= width:
                    lines[-1] = joined
                else:
                    lines.append(ch)
            continue
        lines.append(word)
    if len(lines) > most:
        lines = lines[:most]
        last = lines[-1]
        while last and _width(last.rstrip() + "…", size, bold) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + "…"
    return lines or [""]


def _frame(d: Drawing, x: float, y: float, w: float, h: float) -> None:
    """The outline that marks what changed since the viewer's last move."""
    d.rect(x - 3, y - 3, w + 6, h + 6, fill="none", stroke=HIGHLIGHT, stroke_width=5, rx=7)


def _cost_text(cost: dict[str, int]) -> Text:
    return kw.cost(cost)


def _resource_dot(d: Drawing, cx: float, cy: float, resource: str, r: float = 5) -> None:
    colour = RESOURCE_COLOUR.get(resource, MUTED)
    if resource == "gem":
        d.polygon([(cx, cy - r - 1), (cx + r + 1, cy), (cx, cy + r + 1), (cx - r - 1, cy)],
                  fill=colour, stroke=INK, stroke_width=0.5)
    elif resource == "magic":
        d.polygon([(cx, cy - r - 1), (cx + r * 0.4, cy - r * 0.3), (cx + r + 1, cy),
                   (cx + r * 0.4, cy + r * 0.3), (cx, cy + r + 1), (cx - r * 0.4, cy + r * 0.3),
                   (cx - r - 1, cy), (cx - r * 0.4, cy - r * 0.3)],
                  fill=colour, stroke=INK, stroke_width=0.5)
    elif resource == "coins":
        d.circle(cx, cy, r, fill=colour, stroke=INK, stroke_width=0.5)
    else:
        d.rect(cx - r, cy - r, 2 * r, 2 * r, fill=colour, stroke=INK, stroke_width=0.5, rx=1.5)


def _cost_row(d: Drawing, x: float, y: float, cost: dict[str, int], size: float = 11,
              say: Say = str, width: float | None = None, least: float = 7.5) -> float:
    """Resource icons with amounts from (x, baseline y); returns the x after them.  When
    they would be wider than ``width`` (German words are longer) they close up to their
    measured widths, and only then take smaller print (a phone zooms the whole picture
    until its smallest text is legible, so small print costs room everywhere)."""
    labels = [str(say(kw.amount(n, resource))) for resource, n in cost.items()]

    def advance(label: str, size: float) -> float:
        return 16 + len(label) * size * 0.6

    def ends(step: Any, size: float) -> float:  # where the last label ends
        return sum(step(label, size) for label in labels[:-1]) + 12 + _width(
            labels[-1] if labels else "", size)

    if width is not None and ends(advance, size) > width:
        def advance(label: str, size: float) -> float:  # closed up: measured widths
            return 18 + _width(label, size)
        if ends(advance, size) > width:
            size = max(least, math.floor(size * width / ends(advance, size) * 10) / 10)
    for resource, label in zip(cost, labels, strict=True):
        _resource_dot(d, x + 5, y - size * 0.35, resource, 4.5)
        d.text(x + 12, y, label, size=size)
        x += advance(label, size)
    return x


def _name(table: dict[str, Any], view: dict[str, Any], seat: int | None) -> Any:
    names = table.get("names") or view.get("names") or []
    if seat is None or not 0 <= seat < len(names):
        return T("nobody")
    return str(names[seat])


def _prev(previous: dict[str, Any] | None, *path: Any) -> Any:
    """``previous[path...]`` or None when the previous view lacks it."""
    here: Any = previous
    for key in path:
        try:
            here = here[key]
        except (KeyError, IndexError, TypeError):
            return None
    return here


def _changed(previous: dict[str, Any] | None, now: Any, *path: Any) -> bool:
    """Whether ``now`` differs from the previous view's value at ``path`` (never, without
    a previous view: a first look has nothing to compare)."""
    return previous is not None and _prev(previous, *path) != now


@cache
def _relic_names() -> frozenset[str]:
    return frozenset(t["name"] for t in cards.treasure_types().values()
                     if t["category"] == "Relic")


def _section(d: Drawing, y: float, title: str, note: str = "") -> float:
    """A section title (smaller when long, to stay inside the width) and a muted note."""
    size = min(15.0, (d.width - 2 * MARGIN) / (len(title) * 0.62))
    d.text(MARGIN, y + 16, title, size=round(size, 1), weight="bold")
    y += 24
    if note:
        y = _paragraph(d, MARGIN, y + 8, note, d.width - 2 * MARGIN, 11, 2, fill=MUTED) - 4
    return y


# -- the picture --------------------------------------------------------------------------


def picture(view: dict[str, Any], table: dict[str, Any], say: Say = str) -> str:
    """The whole table for the seat ``view`` belongs to (see the module docstring), every
    word said by ``say`` (the reader's language; the default: English)."""
    parts = _Picture(view, table, say)
    return parts.render()


class _Picture:
    """One drawing pass; sections are drawn top to bottom, each returning its bottom y."""

    def __init__(self, view: dict[str, Any], table: dict[str, Any], say: Say = str) -> None:
        self.view, self.table = view, table
        self.say: Say = say
        self.viewer: int | None = table.get("seat", view.get("seat"))
        self.previous: dict[str, Any] | None = table.get("previous")
        viewer = self.name(self.viewer) if self.viewer is not None else T("a spectator")
        # An email is read on a phone without zoom: narrower (its text larger once scaled
        # to the screen), storage under each guild's grid, no tooltips.
        self.email = for_email(table)
        # the game page on a phone: the email's layout, narrower still, one card a row
        self.phone = table.get("medium") == "phone"
        self.W = PHONE_WIDTH if self.phone else EMAIL_WIDTH if self.email else WIDTH
        self.columns = 1 if self.phone else COLUMNS
        self.cell_w, self.cell_h = (PHONE_CELL_W, PHONE_CELL_H) if self.phone else (CELL_W,
                                                                                   CELL_H)
        self.column = (self.W - 2 * MARGIN - (self.columns - 1) * GAP) / self.columns
        # the height is known once every section is drawn (render sets it)
        self.d = Drawing(self.W, 0, title=say(T("The King's Guild, seen by %(viewer)s",
                                                 viewer=viewer)),
                         description=self.description(),
                         tooltips=self.phone or not self.email)  # a cut name's whole name

    def name(self, seat: int | None) -> Any:
        return _name(self.table, self.view, seat)

    def s(self, text: Any) -> str:
        """``text`` in the reader's language, as a plain string."""
        return str(self.say(text))

    def card(self, english: Any) -> str:
        """A name or effect from the data files (the view may hold it as plain text)."""
        return self.s(kw.card(english) if not isinstance(english, Text) else english)

    def size(self, size: float) -> float:
        """``size``, or on a phone at least :data:`PHONE_TEXT`."""
        return max(size, PHONE_TEXT) if self.phone else size

    def para(self, x: float, y: float, text: Any, width: float, size: float, most: int,
             **attrs: Any) -> float:
        """Wrapped text from baseline ``y`` (:func:`_paragraph`; on a phone wrapped by
        measure, never below :data:`PHONE_TEXT`); returns the baseline after it."""
        if not self.phone:
            return _paragraph(d=self.d, x=x, y=y, text=text, width=width, size=size,
                              most=most, **attrs)
        size = self.size(size)
        for line in _wrap(text, width, size, attrs.get("weight") == "bold", most):
            self.d.text(x, y, line, size=size, **attrs)
            y += size * 1.25
        return y

    def name_block(self, x: float, y: float, text: Any, width: float, size: float, most: int,
                   least: float = 7.5, **attrs: Any) -> float:
        """A name in at most ``most`` lines (:func:`_name_block`; on a phone wrapped by
        measure and cut, never below :data:`PHONE_TEXT`)."""
        if self.phone:
            return self.para(x, y, text, width, size, most, **attrs)
        return _name_block(self.d, x, y, text, width, size, most, least, **attrs)

    def count(self, text: Any, width: float, size: float, most: int,
              bold: bool = False) -> int:
        """How many lines :meth:`para` draws ``text`` in."""
        if self.phone:
            return len(_wrap(text, width, self.size(size), bold, most))
        return len(_lines(text, _chars(width, size, bold), most))

    def section(self, y: float, title: str, note: str = "") -> float:
        """A section title and a muted note (:func:`_section`; on a phone both wrapped)."""
        if not self.phone:
            return _section(self.d, y, title, note)
        for line in _wrap(title, self.W - 2 * MARGIN, 14, True, 2):
            self.d.text(MARGIN, y + 16, line, size=14, weight="bold")
            y += 18
        y += 6
        if note:
            y = self.para(MARGIN, y + 8, note, self.W - 2 * MARGIN, 11, 3, fill=MUTED) - 4
        return y

    def render(self) -> str:
        y = self.players(6)
        y = self.status(y)
        y = self.final_scores(y)
        y = self.quests(y)
        y = self.specialists(y)
        y = self.rooms(y)
        y = self.treasures(y)
        y = self.decision(y)
        y = self.hand(y)
        for g in self.board_order():
            y = self.guild(y, g)
        self.d.height = int(y + MARGIN)
        return self.d.render()

    def description(self) -> str:
        v = self.view
        seats = [self.name(s) for s in v.get("to_act", [])]
        waiting = join(seats) if seats else T("nobody")
        return self.s(T("Round %(round)s. Waiting for %(waiting)s. ", round=v.get("round", 1),
                        waiting=waiting)) + " ".join(
            self.s(T("%(name)s: %(prestige)s.", name=self.name(g["seat"]),
                     prestige=self.prestige_text(g))) for g in v["guilds"])

    def board_order(self) -> list[dict[str, Any]]:
        guilds = list(self.view["guilds"])
        if self.viewer is not None:
            guilds.sort(key=lambda g: g["seat"] != self.viewer)
        return guilds

    def prestige_text(self, g: dict[str, Any]) -> Text:
        outcome = self.view.get("outcome")
        if outcome:
            return T("%(n)s prestige (final)", n=outcome["scores"][g["seat"]])
        if g.get("prestige") is None:
            return T("? prestige (hidden during the bids)")
        return T("%(n)s prestige on the table", n=g["prestige"])

    def prestige_short(self, g: dict[str, Any]) -> Text:
        """The prestige as the players' strip shows it: ``12 prestige``."""
        outcome = self.view.get("outcome")
        if outcome:
            return T("%(n)s prestige (final)", n=outcome["scores"][g["seat"]])
        if g.get("prestige") is None:
            return T("? prestige")
        return kw.prestige(g["prestige"])

    # -- players and status -------------------------------------------------------------
    def players(self, y: float) -> float:
        d, v = self.d, self.view
        to_act = set(self.table.get("to_act", v.get("to_act", [])))
        for g in v["guilds"]:
            seat = g["seat"]
            row_y = y + 20
            colour = seat_colour(seat)
            name = self.s(T("%(name)s (you)", name=self.name(seat))) \
                if seat == self.viewer else self.s(self.name(seat))
            coins = T("? coins") if g["coins"] is None else kw.coins(g["coins"])
            detail = self.s(T("%(prestige)s · %(coins)s · %(treasures)s",
                              prestige=self.prestige_short(g), coins=coins,
                              treasures=kw.treasures(g["hand_count"])))
            title = self.s(T("%(name)s (%(guild)s): %(prestige)s · %(coins)s · %(treasures)s "
                             "in hand", name=name, guild=kw.card(g["guild"]),
                             prestige=self.prestige_text(g), coins=coins,
                             treasures=kw.treasures(g["hand_count"]))) + (
                self.s(T(" · to act now")) if seat in to_act else "")
            before = _prev(self.previous, "guilds", seat, "prestige")
            changed = None not in (before, g.get("prestige")) and before != g["prestige"]
            with d.group(title=title, highlight=changed):
                if changed:
                    _frame(d, MARGIN, row_y - 15, self.W - 2 * MARGIN, 20)
                if seat in to_act:
                    d.polygon([(MARGIN, row_y - 12), (MARGIN, row_y), (MARGIN + 10, row_y - 6)],
                              fill=colour, stroke=None)
                d.circle(MARGIN + 20, row_y - 5, 6, fill=colour, stroke=None)
                weight = "bold" if seat in to_act else None
                if self.phone:  # the name cut by measure, the facts wrapped under it
                    room = self.W - MARGIN - 4 - (MARGIN + 32)
                    d.text(MARGIN + 32, row_y, _wrap(name, room, 14, True, 1)[0], size=14,
                           weight=weight)
                    below = self.para(MARGIN + 32, row_y + 16, detail, room, 12, 2) - 15
                elif self.email:  # no room beside the name
                    d.text(MARGIN + 32, row_y, _lines(name, 20, 1)[0], size=14, weight=weight)
                    d.text(MARGIN + 32, row_y + 16, _lines(detail, 48, 1)[0], size=12)
                else:
                    d.text(MARGIN + 32, row_y, _lines(name, 20, 1)[0], size=14, weight=weight)
                    room = self.W - 2 * MARGIN - 44 - _width(_lines(name, 20, 1)[0], 14, True)
                    size = _fit(detail, room, 12, least=10)  # the width beside the name
                    shown = detail if _width(detail, size) <= room else _lines(detail, 40, 1)[0]
                    d.text(self.W - MARGIN, row_y, shown, size=size, fill=INK, anchor="end")
            y = below + 4 if self.phone else row_y + (20 if self.email else 4)
        deadline = self.table.get("deadline")
        if deadline and self.phone:
            y = self.para(MARGIN, y + 18, self.s(T("Deadline: %(when)s", when=deadline)),
                          self.W - 2 * MARGIN, 12, 2, fill=MUTED) - 13
        elif deadline:
            d.text(MARGIN, y + 18, self.s(T("Deadline: %(when)s", when=deadline)), size=13,
                   fill=MUTED)
            y += 20
        return y + 4

    def status(self, y: float) -> float:
        d, v = self.d, self.view
        more = 1 if self.phone else 0  # a phone: a line more for the narrower width
        parts = []
        if v.get("over"):
            outcome = v.get("outcome") or {}
            winners = join([self.name(s) for s in outcome.get("winners", [])])
            parts.append(T("Game over. Winner: %(winners)s", winners=winners))
            if outcome.get("title"):
                parts.append(T("title: %(title)s", title=kw.title(outcome["title"])))
        else:
            parts.append(T("Round %(round)s", round=v.get("round", 1)))
            action = (v.get("turn") or {}).get("action")
            if action:
                parts.append(T("%(name)s's turn (%(done)s)", name=self.name(v["current"]),
                               done=ACTIONS.get(action, action)))
            else:
                parts.append(T("%(name)s's turn (no action yet)", name=self.name(v["current"])))
            decision = v.get("decision")
            if decision:
                who = decision.get("seat")
                what = DECISIONS.get(decision["kind"], decision["kind"].replace("_", " "))
                if who is not None and who != v["current"]:
                    parts.append(T("%(name)s to %(what)s", name=self.name(who), what=what))
                elif who is not None:
                    parts.append(T("now: %(what)s", what=what))
                else:
                    parts.append(what)
        text = " · ".join(self.s(part) for part in parts)
        lines = self.count(text, self.W - 2 * MARGIN - 16, 13, 2 + more)
        with d.group(title=text):
            d.rect(MARGIN, y + 2, self.W - 2 * MARGIN, 8 + 16 * lines, fill="#F1EAD8",
                   stroke=None, rx=4)
            self.para(MARGIN + 8, y + 18, text, self.W - 2 * MARGIN - 16, 13, 2 + more)
        y += 10 + 16 * lines - 6
        if not v.get("over") and (v.get("council_drawn")
                                  or v.get("final_turns_left") is not None):
            left = v.get("final_turns_left")
            text = self.s(T("The Offering to the Council was drawn: final turns"))
            if left is not None:
                text += self.s(T(" (%(turns)s left)", turns=kw.turns(left)))
            target = "council" if self.viewer is not None else None
            with d.group(target=target, title=text + self.s(T(
                    ". Make an offering: a free sigil on the Council card instead of an action "
                    "(2 prestige + coins/3 + resources/2)."))):
                lines = self.count(text, self.W - 2 * MARGIN - 16, 13, 2 + more)
                d.rect(MARGIN, y + 6, self.W - 2 * MARGIN, 8 + 16 * lines, fill=EVENT,
                       stroke=INK, rx=4)
                self.para(MARGIN + 8, y + 23, text, self.W - 2 * MARGIN - 16, 13, 2 + more)
            y += 14 + 16 * lines
        if v.get("funeral"):
            f = v["funeral"]
            mine = f.get("your_bid")
            bid = "" if mine is None else T("; your bid: %(coins)s", coins=kw.coins(mine))
            bidders = [self.name(s) for s in f.get("has_bid", [])]
            has = join(bidders) if bidders else T("nobody yet")
            text = self.s(T("The King's Funeral: sealed bids for the King's Statue. Have bid: "
                            "%(has)s%(bid)s", has=has, bid=bid))
            lines = self.count(text, self.W - 2 * MARGIN - 16, 12, 3 + more)
            with d.group(title=text):
                d.rect(MARGIN, y + 6, self.W - 2 * MARGIN, 9 + 15 * lines, fill=EVENT, stroke=INK,
                       rx=4)
                self.para(MARGIN + 8, y + 23, text, self.W - 2 * MARGIN - 16, 12, 3 + more)
            y += 15 + 15 * lines
        result = v.get("funeral_result")
        if result and isinstance(result, dict) and not v.get("funeral"):
            # wrapped: with three bidders it is wider than the page, let alone an email
            y = self.para(MARGIN, y + 20, self.funeral_text(result), self.W - 2 * MARGIN,
                           12, 2 + more, fill=MUTED) - 13
        return y + 6

    def funeral_text(self, result: dict[str, Any]) -> str:
        winner = result.get("winner")
        bids = result.get("bids") or []
        told = join([T("%(name)s %(bid)s", name=self.name(s), bid=b)
                     for s, b in enumerate(bids)])
        if winner is not None:
            who = T("%(name)s won the King's Statue", name=self.name(winner))
        else:
            who = T("a tie, nobody built the Statue") if result.get("tie") else T("no Statue")
        if bids:
            return self.s(T("The King's Funeral: %(who)s (bids: %(bids)s)", who=who, bids=told))
        return self.s(T("The King's Funeral: %(who)s", who=who))

    def final_scores(self, y: float) -> float:
        """The rulebook's score sheet, once the game is over (every hand is scored)."""
        d = self.d
        outcome = self.view.get("outcome") or {}
        sheet = outcome.get("sheet")
        if not sheet:
            return y
        y = self.section(y, self.s(T("Final scores")))
        columns = [(key, self.s(head)) for key, head in SCORE_COLUMNS]
        if self.phone:  # no room for the columns: each seat's line, its scores under it
            return self.final_scores_stacked(y, outcome, sheet, columns)
        x0, step = MARGIN + 150, (self.W - 2 * MARGIN - 150) / len(columns)
        # headings wider than their column (an email's, German ones) take two staggered rows
        crowded = any((_width(a, 11) + _width(b, 11)) / 2 > step - 3
                      for (_, a), (_, b) in zip(columns, columns[1:], strict=False))
        for k, (_, head) in enumerate(columns):
            mid = x0 + k * step + step / 2
            room = min(2 * step - 6, 2 * (self.W - MARGIN / 2 - mid))  # the last: the edge
            size = _fit(head, room, 11) if crowded else 11
            d.text(mid, y + 12 + (12 if crowded and k % 2 else 0), head,
                   size=size, anchor="middle", fill=MUTED)
        y += 28 if crowded else 16
        for seat in outcome.get("ranking", range(len(sheet))):
            row = sheet[seat]
            place = (outcome.get("places") or [None] * len(sheet))[seat]
            words = ", ".join(f"{head} {row.get(key, 0)}" for key, head in columns)
            with d.group(title=f"{place}. {self.s(self.name(seat))}: {words}"):
                d.rect(MARGIN, y, self.W - 2 * MARGIN, 20, fill=CARD, stroke="#DDDDDD")
                d.circle(MARGIN + 10, y + 10, 5, fill=seat_colour(seat), stroke=None)
                d.text(MARGIN + 20, y + 15, f"{place}. {_lines(self.name(seat), 16, 1)[0]}",
                       size=12, weight="bold" if place == 1 else None)
                for k, (key, _) in enumerate(columns):
                    d.text(x0 + k * step + step / 2, y + 15, row.get(key, 0), size=12,
                           anchor="middle", weight="bold" if key == "total" else None)
            y += 22
        return y + 4

    def final_scores_stacked(self, y: float, outcome: dict[str, Any], sheet: list[dict],
                             columns: list[tuple[str, str]]) -> float:
        """The score sheet on a phone: a box a seat, its name, then ``Charms 3 · ...``."""
        d, inner = self.d, self.W - 2 * MARGIN - 20
        for seat in outcome.get("ranking", range(len(sheet))):
            row = sheet[seat]
            place = (outcome.get("places") or [None] * len(sheet))[seat]
            words = " · ".join(f"{head} {row.get(key, 0)}" for key, head in columns)
            lines = _wrap(words, inner, 11)
            height = 24 + 14 * len(lines)
            with d.group(title=f"{place}. {self.s(self.name(seat))}: {words}"):
                d.rect(MARGIN, y, self.W - 2 * MARGIN, height, fill=CARD, stroke="#DDDDDD")
                d.circle(MARGIN + 10, y + 11, 5, fill=seat_colour(seat), stroke=None)
                bold = place == 1
                label = _wrap(f"{place}. {self.s(self.name(seat))}", inner, 12, bold, 1)[0]
                d.text(MARGIN + 20, y + 15, label, size=12, weight="bold" if bold else None)
                for k, line in enumerate(lines):
                    d.text(MARGIN + 20, y + 31 + 14 * k, line, size=11)
            y += height + 2
        return y + 4

    # -- quests --------------------------------------------------------------------------
    def quests(self, y: float) -> float:
        v = self.view
        slots = v["quest_slots"]
        y = self.section(y, self.s(T("Quests (%(n)s in the deck)", n=v["quest_deck_count"])))
        for start in range(0, len(slots), self.columns):
            row = slots[start:start + self.columns]
            items = max((len(s["quest"].get("items", [])) for s in row if s), default=1)
            height = 84 + 41 * max(1, items)
            if self.phone and row[0] is None:  # an empty slot alone in its row: a strip
                height = 36
            elif self.phone and row[0]["quest"].get("event"):  # alone in its row
                height = 66 + 13.75 * self.count(self.event_text(row[0]["quest"]),
                                                self.column - 16, 10, 7)
            elif self.phone:  # alone in its row: as tall as its name and items
                height = self.items_top(row[0]["quest"]) + 24 + 41 * max(1, items)
            for k, slot in enumerate(row):
                x = MARGIN + k * (self.column + GAP)
                self.quest_card(x, y, self.column, height, start + k, slot)
            y += height + GAP
        oracle = v.get("oracle")
        if oracle:
            names = join([kw.card(q["name"]) for q in oracle], "; ")
            y = self.para(MARGIN, y + 14, self.s(T(
                "The Oracle shows you the next quests: %(names)s", names=names)),
                self.W - 2 * MARGIN, 12, 2) - 8
        return y + 4

    def quest_card(self, x: float, y: float, w: float, h: float, index: int,
                   slot: dict[str, Any] | None) -> None:
        d = self.d
        changed = _changed(self.previous, slot, "quest_slots", index)
        if slot is None:
            with d.group(title=self.s(T("Quest slot %(n)s: empty", n=index + 1)),
                         highlight=changed):
                if changed:
                    _frame(d, x, y, w, h)
                d.rect(x, y, w, h, fill="none", stroke=MUTED, rx=6, stroke_dasharray="4 3")
                d.text(x + w / 2, y + h / 2, self.s(T("empty")), size=12, anchor="middle",
                       fill=MUTED)
            return
        q = slot["quest"]
        if q.get("event"):
            text = self.event_text(q)
            quest_name = self.card(q["name"])
            with d.group(target=f"quest:{index}", title=f"{quest_name}: {text}",
                         highlight=changed):
                if changed:
                    _frame(d, x, y, w, h)
                d.rect(x, y, w, h, fill=EVENT, stroke=INK, rx=6)
                self.name_block(x + 8, y + 20, quest_name, w - 16, 13, 2, weight="bold")
                self.para(x + 8, y + 56, text, w - 16, 10, 7)
            return
        sigil = slot.get("sigil")
        thug = slot.get("thug")
        reward = join([kw.colour(c) for c in q["reward"]])
        quest_name = self.card(q["name"])
        title = self.s(P("Quest slot %(slot)s: %(quest)s (%(hero)s); reward: %(reward)s "
                         "treasure", "Quest slot %(slot)s: %(quest)s (%(hero)s); reward: "
                         "%(reward)s treasures", len(q["reward"]), slot=index + 1,
                         quest=quest_name, hero=kw.hero(q["hero"]), reward=reward))
        if sigil is not None:
            title += self.s(T("; %(name)s's sigil is on it", name=self.name(sigil)))
        if thug is not None:
            title += self.s(T("; the Thug of %(name)s is on it (2 coins to craft here)",
                              name=self.name(thug)))
        with d.group(target=f"quest:{index}", title=title, highlight=changed):
            if changed:
                _frame(d, x, y, w, h)
            d.rect(x, y, w, h, fill=CARD, stroke=INK, rx=6)
            hero = HERO_COLOUR.get(q["hero"], MUTED)
            d.rect(x, y, w, 20, fill=hero, stroke=None, rx=6)
            d.rect(x, y + 12, w, 8, fill=hero, stroke=None)
            d.text(x + 8, y + 15, self.s(kw.HERO_TITLES.get(q["hero"], q["hero"].capitalize())),
                   size=12, weight="bold", fill=INK if q["hero"] == "rogue" else "#FFFFFF")
            d.text(x + w - 8, y + 15, self.s(T("slot %(n)s", n=index + 1)), size=11,
                   anchor="end", fill=INK if q["hero"] == "rogue" else "#FFFFFF")
            self.name_block(x + 8, y + 35, quest_name, w - 16, 12, 2, weight="bold")
            ry = y + h - 9
            reward_word = self.s(T("Reward:"))
            d.text(x + 8, ry, reward_word, size=11, fill=MUTED)
            icons = x + max(62, 10 + len(reward_word) * 6.6)
            for k, colour in enumerate(q["reward"]):
                self.treasure_icon(icons + k * 16, ry - 10, colour)
            if sigil is not None:
                d.circle(x + w - 16, ry - 4, 8, fill=seat_colour(sigil), stroke=INK)
                d.text(x + w - 28, ry, self.s(T("sigil")), size=self.size(10), anchor="end",
                       fill=MUTED)
            if thug is not None:
                tx = x + w - (64 if sigil is not None else 16)
                said = self.s(T("Thug"))
                shows = sigil is None or len(said) <= 6
                if self.phone:  # left of the sigil's word, its own word where there is room
                    if sigil is not None:
                        tx = x + w - 28 - _width(self.s(T("sigil")), PHONE_TEXT) - 16
                    shows = tx - 12 - _width(said, PHONE_TEXT) > icons + 16 * len(q["reward"])
                d.circle(tx, ry - 4, 8, fill=INK, stroke=seat_colour(thug), stroke_width=3)
                d.text(tx, ry, self.s(T("T")), size=self.size(10), anchor="middle",
                       fill="#FFFFFF", weight="bold")
                if shows:
                    d.text(tx - 12, ry, said, size=self.size(10), anchor="end", fill=MUTED)
        for i, item in enumerate(q["items"]):
            self.item_box(x + 6, y + self.items_top(q) + i * 41, w - 12, 37, index, i, item)

    def items_top(self, q: dict[str, Any]) -> float:
        """Where a quest card's items start, below its name (on a phone: one line or two)."""
        if self.phone and self.count(self.card(q["name"]), self.column - 16, 12, 2,
                                     bold=True) == 1:
            return 46
        return 60

    def event_text(self, q: dict[str, Any]) -> str:
        """What an event card in the quest row says."""
        if self.view.get("solo") and q["id"] == cards.FUNERAL:
            return self.s(T("Solo: as your action, build the King's Statue for 0 coins "
                            "(4 prestige). It moves along like a quest."))
        return self.card(cards.events()[q["id"]]["text"])

    def item_box(self, x: float, y: float, w: float, h: float, slot: int, i: int,
                 item: dict[str, Any]) -> None:
        d = self.d
        by = item.get("crafted_by")
        cost = _cost_text(item["cost"])
        title = self.s(T("%(item)s (%(type)s): pay %(cost)s; earn %(coins)s",
                         item=kw.card(item["name"]), type=kw.item_type(item["type"]), cost=cost,
                         coins=kw.coins(item["coins"])))
        if by is not None:
            title += self.s(T("; crafted by %(name)s", name=self.name(by)))
        target = f"item:{slot}:{i}" if by is None else None
        with d.group(target=target, title=title):
            fill = "#F5F5F5" if by is None else "#E0E0E0"
            d.rect(x, y, w, h, fill=fill, stroke=MUTED, rx=4)
            coins, item_name = self.s(kw.coins(item["coins"])), self.card(item["name"])
            room = w - 16 - _width(coins, 11, True)  # a long (German) name: smaller print
            size = _fit(item_name, room, 11, bold=True)
            if size < 9.5:  # still too long beside the word: a coin and the number instead
                coins = str(item["coins"])
                room = w - 32 - _width(coins, 11, True)
                size = _fit(item_name, room, 11, bold=True)
                _resource_dot(d, x + w - 13 - _width(coins, 11, True), y + 10, "coins", 5)
            if self.phone and size < PHONE_TEXT:  # no smaller print: cut
                size = PHONE_TEXT
                item_name = _wrap(item_name, room, size, True, 1)[0]
            d.text(x + 6, y + 14, item_name, size=size, weight="bold")
            d.text(x + w - 6, y + 14, coins, size=11, anchor="end",
                   fill="#8A6D00", weight="bold")
            if by is None:
                _cost_row(d, x + 4, y + 30, item["cost"], size=self.size(10), say=self.say,
                          width=w - 10, least=self.size(7.5))
            else:
                d.circle(x + 11, y + 26, 6, fill=seat_colour(by), stroke=INK)
                crafted = self.s(T("crafted by %(name)s", name=self.name(by)))
                if self.phone:  # a long name: cut
                    crafted = _wrap(crafted, w - 28, PHONE_TEXT, False, 1)[0]
                d.text(x + 22, y + 30, crafted, size=self.size(10), fill=MUTED)

    def treasure_icon(self, x: float, y: float, colour: str, w: float = 11,
                      h: float = 14) -> None:
        self.d.rect(x, y, w, h, fill=TREASURE_COLOUR.get(colour, MUTED), stroke=INK, rx=2)

    # -- specialists ---------------------------------------------------------------------
    def specialists(self, y: float) -> float:
        d, v = self.d, self.view
        row = v["specialist_row"]
        note = self.s(T("In row order, the oldest last: it leaves after each Expand action.")
                      if v.get("solo") else T("In row order, the oldest last. Hiring one at "
                                              "full price puts a 1-coin discount on each one "
                                              "after it."))
        y = self.section(y, self.s(T("Specialists for hire (%(n)s in the deck)",
                                    n=v["specialist_deck_count"])), note)
        for start in range(0, len(row), self.columns):
            part = row[start:start + self.columns]
            lines = max((self.count(self.card(spec["text"]), self.column - 16, 10.5, 7)
                         for spec in part if spec), default=1)
            height = 70 + (13.75 if self.phone else 13) * lines
            for k, spec in enumerate(part):
                i, x = start + k, MARGIN + k * (self.column + GAP)
                changed = _changed(self.previous, spec, "specialist_row", i)
                if spec is None:
                    with d.group(title=self.s(T("Specialist space %(n)s: empty", n=i + 1)),
                                 highlight=changed):
                        d.rect(x, y, self.column, height, fill="none", stroke=MUTED, rx=6,
                               stroke_dasharray="4 3")
                    continue
                self.specialist_card(x, y, self.column, height, spec, changed)
            y += height + GAP
        return y + 2

    def specialist_card(self, x: float, y: float, w: float, h: float, spec: dict[str, Any],
                        changed: bool) -> None:
        d = self.d
        price = spec.get("price", spec["cost"])
        discount = spec.get("discount", 0)
        spec_name, spec_text = self.card(spec["name"]), self.card(spec["text"])
        timing = self.s(kw.timing(spec["timing"]))
        less = T(" (%(cost)s less %(discount)s discount)", cost=spec["cost"],
                 discount=discount) if price != spec["cost"] else ""
        title = self.s(T("%(name)s: costs %(price)s%(less)s, %(prestige)s prestige, "
                         "%(timing)s: %(text)s", name=spec_name, price=kw.coins(price),
                         less=less, prestige=spec["prestige"], timing=timing, text=spec_text))
        with d.group(target=f"specialist:{spec['id']}", title=title, highlight=changed):
            if changed:
                _frame(d, x, y, w, h)
            d.rect(x, y, w, h, fill=CARD, stroke=INK, rx=6)
            d.text(x + 8, y + 18, spec_name, weight="bold",
                   size=_fit(spec_name, w - 52, 13, bold=True, least=self.size(7.5)))
            d.text(x + w - 8, y + 18, f"★ {spec['prestige']}", size=12, anchor="end",
                   fill="#8A6D00")
            _resource_dot(d, x + 14, y + 31, "coins", 6)
            cost = self.s(kw.coins(price))
            if price != spec["cost"]:
                cost += self.s(T(" (of %(cost)s)", cost=spec["cost"]))
            d.text(x + 24, y + 35, cost, size=12, weight="bold")
            for k in range(discount):
                d.circle(x + w - 14 - k * 10, y + 31, 4, fill=RESOURCE_COLOUR["coins"],
                         stroke=INK, stroke_width=0.5)
            d.text(x + 8, y + 50, timing, size=self.size(10), fill=MUTED)
            self.para(x + 8, y + 67, spec_text, w - 16, 10.5, 7)

    # -- rooms for sale ------------------------------------------------------------------
    def rooms(self, y: float) -> float:
        d, v = self.d, self.view
        rooms = v.get("rooms_for_sale", [])
        if not rooms:
            return y
        y = self.section(y, self.s(T("Rooms for sale")))
        previous = {r["name"]: r for r in (_prev(self.previous, "rooms_for_sale") or [])}
        height = 50
        for i, room in enumerate(rooms):
            x = MARGIN + (i % self.columns) * (self.column + GAP)
            top = y + (i // self.columns) * (height + 6)
            changed = self.previous is not None and previous.get(room["name"]) != room
            left = room.get("left", 1)
            chamber = cards.rooms()[room["name"]].get("chamber_spaces")
            text = self.card(room.get("text") or "")
            if chamber:
                text = (text + "; " if text else "") + self.s(
                    T("a chamber for %(specialists)s", specialists=kw.specialists(chamber)))
            if room["name"] == "Warehouse":
                text = self.s(T("+3 storage"))
            if cards.rooms()[room["name"]].get("double"):
                text = (text + "; " if text else "") + self.s(T("2 cells wide"))
            room_name = self.card(room["name"])
            title = self.s(T("%(room)s: %(cost)s, %(prestige)s prestige, %(left)s left",
                             room=room_name, cost=kw.coins(room["cost"]),
                             prestige=room["prestige"], left=left)) + (
                f"; {text}" if text else "")
            with d.group(target=f"room:{room['name']}", title=title, highlight=changed):
                if changed:
                    _frame(d, x, top, self.column, height)
                d.rect(x, top, self.column, height, fill=ROOM_FILL.get(room["category"], CARD),
                       stroke=INK, rx=4)
                d.text(x + 6, top + 15, room_name,
                       size=_fit(room_name, self.column - 44, 12, bold=True,
                                 least=self.size(7.5)), weight="bold")
                d.text(x + self.column - 6, top + 15, f"★ {room['prestige']}", size=11,
                       anchor="end", fill="#8A6D00")
                d.text(x + 6, top + 30, self.s(T("%(cost)s · %(left)s left",
                                                 cost=kw.coins(room["cost"]), left=left)),
                       size=self.size(10))
                if text:
                    line = _wrap(text, self.column - 12, PHONE_TEXT, False, 1)[0] if self.phone \
                        else _lines(text, _chars(self.column - 12, 10), 1)[0]
                    d.text(x + 6, top + 44, line, size=self.size(10), fill=MUTED)
        rows = (len(rooms) + self.columns - 1) // self.columns
        return y + rows * (height + 6) + 2

    # -- treasures and supply ------------------------------------------------------------
    def treasures(self, y: float) -> float:
        d, v = self.d, self.view
        y = self.section(y, self.s(T("Treasure decks and resource supply")))
        counts = v.get("treasure_deck_counts", {})
        discards = v.get("discards", {})
        w = (self.W - 2 * MARGIN - 2 * GAP) / 3
        for i, colour in enumerate(cards.COLORS):
            x = MARGIN + i * (w + GAP)
            if self.phone:  # a deck a row: its count and its discards on one line
                x, w = MARGIN, self.W - 2 * MARGIN
            n, gone = counts.get(colour, 0), len(discards.get(colour, []))
            title = self.s(T("%(colour)s treasures: %(n)s in the deck, %(gone)s discarded",
                             colour=DECK_TITLES[colour], n=n, gone=gone)) + (
                self.s(T(" (top: %(card)s)", card=kw.card(discards[colour][-1]))) if gone else "")
            changed = _changed(self.previous, n, "treasure_deck_counts", colour) or _changed(
                self.previous, discards.get(colour), "discards", colour)
            if self.phone:
                with d.group(target=f"deck:{colour}", title=title, highlight=changed):
                    if changed:
                        _frame(d, x, y, w, 26)
                    d.rect(x, y, w, 26, fill=CARD, stroke=INK, rx=4)
                    d.rect(x + 6, y + 4, 13, 18, fill=TREASURE_COLOUR[colour], stroke=INK,
                           rx=2)
                    count = self.s(T("%(n)s %(colour)s", n=n, colour=kw.colour(colour)))
                    d.text(x + 26, y + 17, count, size=12, weight="bold")
                    d.text(x + 34 + _width(count, 12, True), y + 17,
                           self.s(T("%(n)s discarded", n=gone)), size=11, fill=MUTED)
                y += 32
                continue
            with d.group(target=f"deck:{colour}", title=title, highlight=changed):
                if changed:
                    _frame(d, x, y, w, 40)
                d.rect(x, y, w, 40, fill=CARD, stroke=INK, rx=4)
                d.rect(x + 6, y + 6, 20, 28, fill=TREASURE_COLOUR[colour], stroke=INK, rx=3)
                d.text(x + 32, y + 17, self.s(T("%(n)s %(colour)s", n=n,
                                                colour=kw.colour(colour))), size=12,
                       weight="bold")
                d.text(x + 32, y + 32, self.s(T("%(n)s discarded", n=gone)), size=11,
                       fill=MUTED)
        y += 48 if not self.phone else 2
        relics = sorted({name for pile in discards.values() for name in pile
                         if name in _relic_names()})
        if relics:
            said = self.s(T("Relics in the discards:"))
            d.text(MARGIN, y + 13, said, size=11, fill=MUTED)
            indent = MARGIN + max(135, _width(said, 11) + 6)
            if self.phone:  # the relics on the lines under the words
                indent, y = MARGIN, y + 18
            x = indent
            for name in relics:
                shown = self.card(name)
                width = 14 + len(shown) * 6.2
                if self.phone:
                    shown = _wrap(shown, self.W - 2 * MARGIN - 14, PHONE_TEXT, False, 1)[0]
                    width = 14 + _width(shown, PHONE_TEXT)
                if x + width > self.W - MARGIN:
                    x, y = indent, y + 22
                with d.group(target=f"relic:{name}", title=self.s(T(
                        "%(card)s (a Relic) in the discards; the Curator buys it for 3 coins",
                        card=kw.card(name)))):
                    d.rect(x, y, width, 18, fill=CARD, stroke=INK, rx=9)
                    d.text(x + 7, y + 13, shown, size=self.size(10))
                x += width + 6
            y += 24
        supply = v.get("supply", {})
        across = 2 if self.phone else 3  # a phone: two a row
        w = (self.W - 2 * MARGIN - (across - 1) * 6) / across
        for i, resource in enumerate(cards.RESOURCES):
            x, y = MARGIN + (i % across) * (w + 6), y + (34 if i and i % across == 0 else 0)
            n = supply.get(resource, 0)
            changed = _changed(self.previous, n, "supply", resource)
            with d.group(target=f"supply:{resource}", highlight=changed,
                         title=self.s(T("Supply: %(amount)s", amount=kw.amount(n, resource)))):
                if changed:
                    _frame(d, x, y, w, 28)
                d.rect(x, y, w, 28, fill=CARD, stroke=INK, rx=4)
                _resource_dot(d, x + 12, y + 14, resource, 6)
                d.text(x + 22, y + 19, self.s(kw.amount(n, resource)), size=12)
        return y + 36

    # -- what the viewer is asked to choose ------------------------------------------------
    def decision(self, y: float) -> float:
        d, v = self.d, self.view
        decision = v.get("decision") or {}
        if decision.get("kind") == "gather" and decision.get("picks"):
            text = self.s(T("Gathered so far: %(picks)s",
                            picks=join([kw.resource(r) for r in decision["picks"]])))
            if self.phone:
                y = self.para(MARGIN, y + 14, text, self.W - 2 * MARGIN, 12, 3) - 29
            else:
                d.text(MARGIN, y + 14, text, size=12)
            y += 22
        drawn = decision.get("cards") if decision.get("seat") == self.viewer else None
        if not drawn:
            return y
        partner = self.name(decision.get("partner"))
        y = self.section(y, self.s(T("Drawn for the shared quest")),
                     self.s(T("Keep %(n)s; the rest go to %(name)s.", n=decision.get("keep", 1),
                              name=partner)))
        return self.card_grid(y, drawn, lambda i, c: f"drawn:{i}", highlight=False)

    # -- the viewer's hand ---------------------------------------------------------------
    def hand(self, y: float) -> float:
        if self.viewer is None:
            return y
        d, v = self.d, self.view
        hand = v.get("hand", [])
        mine = next((g for g in v["guilds"] if g["seat"] == self.viewer), None)
        heading = T("Your hand: %(n)s of %(limit)s treasures", n=len(hand),
                    limit=mine["hand_limit"]) if mine else T("Your hand: %(n)s treasures",
                                                             n=len(hand))
        y = self.section(y, self.s(heading),
                     self.s(T("Only you see these; the others see how many you hold.")))
        if not hand:
            d.text(MARGIN, y + 12, self.s(T("No treasures.")), size=12, fill=MUTED)
            return y + 20
        before = {c["card"] for c in (_prev(self.previous, "hand") or [])}
        return self.card_grid(y, hand, lambda i, c: f"card:{c['card']}",
                              highlight=self.previous is not None, before=before)

    def card_grid(self, y: float, hand: list[dict[str, Any]], target: Any, highlight: bool,
                  before: set[str] | None = None) -> float:
        d = self.d
        height = 92
        for i, card in enumerate(hand):
            x = MARGIN + (i % self.columns) * (self.column + GAP)
            top = y + (i // self.columns) * (height + 6)
            if self.phone:  # a card a row, as tall as its text
                top = y
                height = 48 + 13.75 * self.count(self.card(card["text"]), self.column - 20,
                                                9.5, 6)
                y += height + 6
            new = highlight and card["card"] not in (before or set())
            kind = card.get("category") or "treasure"
            sell = T("no price") if card.get("sell") is None else T(
                "sells for %(price)s", price=card["sell"])
            card_name, card_text = self.card(card["name"]), self.card(card["text"])
            title = self.s(T("%(card)s (%(colour)s %(kind)s, %(sell)s", card=card_name,
                             colour=kw.colour(card["color"]), kind=KINDS_LOWER.get(
                                 kind, kind.lower()), sell=sell)) + (
                self.s(T(", %(n)s prestige", n=card["prestige"])) if card.get("prestige")
                else "") + f"): {card_text}"
            with d.group(target=target(i, card), title=title, highlight=new):
                if new:
                    _frame(d, x, top, self.column, height)
                d.rect(x, top, self.column, height, fill=CARD, stroke=INK, rx=5)
                d.rect(x, top, 8, height, fill=TREASURE_COLOUR.get(card["color"], MUTED),
                       stroke=None)
                d.text(x + 14, top + 15, card_name,
                       size=_fit(card_name, self.column - 20, 12, bold=True,
                                 least=self.size(7.5)), weight="bold")
                facts = [self.s(kw.category(kind)), self.s(sell)]
                if card.get("prestige"):
                    facts.append(f"★ {card['prestige']}")
                d.text(x + 14, top + 29, " · ".join(facts), size=self.size(10), fill=MUTED)
                self.para(x + 14, top + 43, card_text, self.column - 20, 9.5,
                          6 if self.phone else 4)
        if self.phone:
            return y + 2
        rows = (len(hand) + self.columns - 1) // self.columns
        return y + rows * (height + 6) + 2

    # -- guild boards --------------------------------------------------------------------
    def guild(self, y: float, g: dict[str, Any]) -> float:
        d = self.d
        seat = g["seat"]
        mine = seat == self.viewer
        colour = seat_colour(seat)
        prev = None
        if self.previous is not None:
            prev = next((p for p in self.previous.get("guilds", []) if p["seat"] == seat), None)
        inner = self.W - 2 * MARGIN - 20
        coins = T("? coins") if g["coins"] is None else kw.coins(g["coins"])
        facts = self.s(T("%(prestige)s · %(coins)s · %(treasures)s in hand (max %(limit)s) · "
                         "%(sigils)s", prestige=self.prestige_text(g), coins=coins,
                         treasures=kw.treasures(g["hand_count"]), limit=g["hand_limit"],
                         sigils=kw.free_sigils(g["sigils_free"]))) + (
            self.s(T(" · made an offering")) if g.get("offered") else "")
        words = self.guild_words(g)
        if self.phone:  # wrapped by measure, a line or two more
            fact_lines = _wrap(facts, inner, 11, False, 4)
            word_lines = [_wrap(text, inner, 11, False, 6) for text in words]
        else:
            fact_lines = _lines(facts, _chars(inner, 11), 2)
            word_lines = [_lines(text, _chars(inner, 11), 3) for text in words]
        name = self.s(T("%(name)s (you)", name=self.name(seat))) if mine \
            else self.s(self.name(seat))
        guild_name = self.card(g["guild"])
        heading = _wrap(f"{name}: {guild_name}", inner - 8, 14, True, 2) if self.phone \
            else _lines(f"{name}: {guild_name}", min(48, _chars(inner, 14, True)), 1)
        top = y + 6
        extra = 17 * (len(heading) - 1)  # a phone: the heading's second line
        grid_y = top + extra + 32 + 14 * len(fact_lines)
        below = STORAGE_BELOW if self.email else 0  # an email: storage under the grid
        # An email draws only the reader's own grid: the others' rooms are in words below
        # (their storage and quests, which the reader's moves can touch, stay drawn).
        grid = 0 if self.email and not mine else self.cell_h * 3 + 36
        height = (grid_y - top) + grid + 4 + below + \
            sum(14 * len(w) + 4 for w in word_lines)
        d.rect(MARGIN, top, self.W - 2 * MARGIN, height, fill="#FFFDF8", stroke=colour,
               stroke_width=3, rx=8)
        with d.group(title=self.s(T("%(name)s's guild: %(guild)s: %(text)s", name=name,
                                    guild=guild_name,
                                    text=self.card(g.get("guild_text", ""))))):
            d.circle(MARGIN + 16, top + 16, 7, fill=colour, stroke=None)
            for k, line in enumerate(heading):
                d.text(MARGIN + 28, top + 21 + 17 * k, line, size=14, weight="bold")
        changed = prev is not None and g["coins"] is not None and (
            prev.get("coins"), prev.get("hand_count")) != (g["coins"], g["hand_count"])
        with d.group(title=facts, highlight=changed):
            if changed:
                _frame(d, MARGIN + 8, top + extra + 27, inner + 4, 14 * len(fact_lines) + 2)
            for k, line in enumerate(fact_lines):
                d.text(MARGIN + 10, top + extra + 38 + 14 * k, line, size=11)
        if grid:
            self.spaces_and_grid(MARGIN + 10, grid_y, g, prev)
        if self.email:
            self.storage(MARGIN + 10, grid_y + grid + 4, g, prev)
        else:
            self.storage(MARGIN + 10 + 4 * CELL_W + 10, grid_y, g, prev)
        wy = grid_y + grid + 12 + below
        for lines in word_lines:
            for line in lines:
                d.text(MARGIN + 10, wy, line, size=11)
                wy += 14
            wy += 4
        return top + height + 4

    def guild_words(self, g: dict[str, Any]) -> list[str]:
        """The specialists and rooms with their prestige, in words under the board."""
        specs = ", ".join(f"{self.card(s['name'])} ★{s['prestige']}"
                          for s in g["specialists"]) or self.s(T("none"))
        rooms = ", ".join(f"{self.card(r['name'])} ★{r['prestige']}"
                          for r in g.get("rooms", [])) or self.s(T("none"))
        return [self.s(T("Specialists: %(list)s", list=specs)),
                self.s(T("Rooms: %(list)s", list=rooms))]

    def spaces_and_grid(self, x: float, y: float, g: dict[str, Any],
                        prev: dict[str, Any] | None) -> None:
        """The specialist spaces above the guild, then the 4 x 3 board of cells."""
        d = self.d
        mine = g["seat"] == self.viewer
        cell_w, cell_h = self.cell_w, self.cell_h
        specs = g["specialists"]
        before = {s["id"]: s.get("space") for s in (prev or {}).get("specialists", [])}
        cap = (g.get("spaces") or {}).get("top", 4)
        on_top = [s for s in specs if s["space"] == "top"]
        with d.group(target="space:top" if mine else None,
                     title=self.s(T("Specialist spaces above the guild: %(n)s of %(cap)s "
                                    "taken", n=len(on_top), cap=cap))):
            d.rect(x, y, 4 * cell_w, 30, fill="#EFE8FF", stroke=MUTED, rx=4)
            for k in range(cap):
                d.rect(x + 3 + k * (4 * cell_w / cap), y + 3, 4 * cell_w / cap - 6, 24,
                       fill="none", stroke="#C5B8E8", rx=3, stroke_dasharray="3 2")
        for k, s in enumerate(on_top[:cap]):
            sx = x + 3 + k * (4 * cell_w / cap)
            self.specialist_chip(sx, y + 3, 4 * cell_w / cap - 6, 24, s, mine,
                                 prev is not None and before.get(s["id"]) != s["space"])
        gy = y + 36
        board = g.get("board") or []
        rooms = {r["name"]: r for r in g.get("rooms", [])}
        prev_rooms = {r["name"] for r in (prev or {}).get("rooms", [])}
        drawn: set[str] = set()
        decision = self.view.get("decision") or {}
        placing = decision.get("kind") == "place_room" and decision.get("seat") == g["seat"]
        spots = {tuple(c) for c in decision.get("cells", [])} if placing else set()
        for row, cells in enumerate(board):
            for col, cell in enumerate(cells):
                cx, cy = x + col * cell_w, gy + row * cell_h
                if cell is None or "bonus" in cell:
                    bonus = cell.get("bonus") if cell else None
                    title = self.s(T("Empty cell: column %(x)s, row %(y)s", x=col + 1,
                                     y=row + 1))
                    if bonus:
                        pays = kw.coins(2) if bonus == "coins" else kw.amount(1, bonus)
                        title += self.s(T("; covering it pays %(pays)s", pays=pays))
                    spot = (col, row) in spots
                    if spot:
                        room = kw.card(decision["room"]) if "room" in decision else T("room")
                        title += self.s(T("; the %(room)s may go here", room=room))
                    target = f"cell:{col}:{row}" if mine and placing else None
                    with d.group(target=target, title=title):
                        d.rect(cx + 1, cy + 1, cell_w - 2, cell_h - 2,
                               fill="#E8F5E9" if spot else "#FAF6EC",
                               stroke="#2E7D32" if spot else "#D8CFB8",
                               stroke_width=2.5 if spot else None,
                               stroke_dasharray="5 3" if spot else None, rx=3)
                        if bonus:
                            label = self.s(T("+2 coins") if bonus == "coins" else T(
                                "+1 %(resource)s", resource=kw.resource(bonus)))
                            if self.phone:  # no smaller print: two lines if need be
                                lines = _wrap(label, cell_w - 6, PHONE_TEXT, False, 2)
                                _resource_dot(d, cx + cell_w / 2, cy + 15, bonus, 7)
                                for k, line in enumerate(lines):
                                    d.text(cx + cell_w / 2, cy + 36 + 13 * k, line,
                                           size=PHONE_TEXT, anchor="middle", fill=MUTED)
                                continue
                            _resource_dot(d, cx + cell_w / 2, cy + cell_h / 2 - 6, bonus, 7)
                            d.text(cx + cell_w / 2, cy + cell_h / 2 + 14, label,
                                   size=_fit(label, cell_w - 4, 10), anchor="middle",
                                   fill=MUTED)
                    continue
                name = cell["room"]
                if name in drawn:
                    continue
                drawn.add(name)
                if cell.get("guild"):
                    span = sum(1 for c in cells if c and c.get("guild"))
                    shown = self.card(name)
                    with d.group(title=self.s(T("The guild tile: %(guild)s", guild=kw.card(name)))):
                        d.rect(cx + 1, cy + 1, span * cell_w - 2, cell_h - 2,
                               fill=seat_colour(g["seat"]), stroke=INK, rx=4, opacity=0.85)
                        self.name_block(cx + span * cell_w / 2, cy + 22, shown,
                                    span * cell_w - 10, 12, 2, anchor="middle",
                                    fill="#FFFFFF", weight="bold")
                    continue
                room = rooms.get(name, {"name": name, "cells": [[col, row]], "prestige": 0})
                self.room_tile(cx, cy, cell_w, cell_h, g, room, mine,
                               prev is not None and name not in prev_rooms)

    def room_tile(self, x: float, y: float, cell_w: float, cell_h: float, g: dict[str, Any],
                  room: dict[str, Any], mine: bool, new: bool) -> None:
        d = self.d
        name = room["name"]
        data = cards.rooms().get(name, {})
        span = len(room.get("cells", [])) or 1
        w = span * cell_w
        chamber = (g.get("spaces") or {}).get(name)
        inside = [s for s in g["specialists"] if s["space"] == name]
        shown = self.card(name)
        title = self.s(T("%(room)s: %(n)s prestige", room=shown, n=room.get("prestige", 0)))
        if data.get("text"):
            title += f"; {self.card(data['text'])}"
        if chamber:
            who = ", ".join(self.card(s["name"]) for s in inside) or self.s(T("empty"))
            bag = T("; the Aristocrat's baggage") if g.get("baggage") == name else ""
            title += self.s(T("; chamber for %(specialists)s: %(who)s%(bag)s",
                              specialists=kw.specialists(chamber), who=who, bag=bag))
        target = f"space:{name}" if mine and chamber else None
        with d.group(target=target, title=title, highlight=new):
            if new:
                _frame(d, x + 1, y + 1, w - 2, cell_h - 2)
            d.rect(x + 1, y + 1, w - 2, cell_h - 2,
                   fill=ROOM_FILL.get(data.get("category", "basic"), CARD), stroke=INK, rx=4)
            self.name_block(x + 4, y + 13, shown, w - 8, 9, 2, 7, weight="bold")
            d.text(x + w - 5, y + cell_h - 6, f"★{room.get('prestige', 0)}",
                   size=self.size(9), anchor="end", fill="#8A6D00")
            if g.get("baggage") == name:
                d.rect(x + 5, y + cell_h - 16, 12, 10, fill="#795548", stroke=INK, rx=2)
        # a phone: the chips as wide as the room, between its name and its prestige
        star, up = (2, 36) if self.phone else (14, 24)
        for k, s in enumerate(inside):
            self.specialist_chip(x + 4 + k * (w - 8) / max(1, chamber or 1), y + cell_h - up,
                                 (w - 8) / max(1, chamber or 1) - star, 16, s, mine, False,
                                 size=8.5)

    def specialist_chip(self, x: float, y: float, w: float, h: float, s: dict[str, Any],
                        mine: bool, new: bool, size: float = 10) -> None:
        d = self.d
        shown = self.card(s["name"])
        title = self.s(T("%(name)s (%(n)s prestige, %(timing)s)", name=shown, n=s["prestige"],
                         timing=kw.timing(s["timing"])))
        data = cards.specialists().get(s["id"])
        if data:
            title += f": {self.card(data['text'])}"
        fit, label = size, _lines(shown, _chars(w - 4, size), 1)[0]
        if self.phone:  # no print below PHONE_TEXT: a long name is cut
            fit = size = PHONE_TEXT
            label = _wrap(shown, w - 4, fit, False, 1)[0]
        elif len(shown) > _chars(w - 4, size):  # a long name: smaller print rather than cut
            fit = _fit(shown, w - 4, size, least=8)  # smaller: a phone zooms it all
            label = shown if _width(shown, fit) <= w - 4 else _lines(
                shown, _chars(w - 4, fit), 1)[0]
        with d.group(target=f"specialist:{s['id']}" if mine else None, title=title,
                     highlight=new):
            if new:
                _frame(d, x, y, w, h)
            d.rect(x, y, w, h, fill="#D1C4E9", stroke=INK, rx=3)
            d.text(x + w / 2, y + h / 2 + size * 0.35,
                   label, size=fit, anchor="middle")

    def storage(self, x: float, y: float, g: dict[str, Any], prev: dict[str, Any] | None) -> None:
        """Resources in storage and the quests done, right of the board."""
        d = self.d
        seat, mine = g["seat"], g["seat"] == self.viewer
        width = self.W - MARGIN - 10 - x
        d.text(x, y + 12, self.s(T("Storage: %(n)s of %(limit)s", n=g["stored"],
                                   limit=g["storage_limit"])), size=12, weight="bold")
        w = (width - 6) / 2
        for i, resource in enumerate(cards.RESOURCES):
            rx, ry = x + (i % 2) * (w + 6), y + 20 + (i // 2) * 28
            n = g["resources"].get(resource, 0)
            target = f"mine:{resource}" if mine else f"store:{seat}:{resource}"
            changed = prev is not None and prev.get("resources", {}).get(resource) != n
            with d.group(target=target, title=self.s(T(
                    "%(name)s stores %(amount)s", name=self.name(seat),
                    amount=kw.amount(n, resource))), highlight=changed):
                if changed:
                    _frame(d, rx, ry, w, 24)
                d.rect(rx, ry, w, 24, fill=CARD if n else "#F3F3F3", stroke=MUTED, rx=4)
                _resource_dot(d, rx + 11, ry + 12, resource, 5)
                stored = self.s(kw.amount(n, resource))
                d.text(rx + 20, ry + 17, stored, fill=INK if n else MUTED,
                       size=_fit(stored, w - 24, 11, least=self.size(7.5)))
        qy = y + 20 + 3 * 28 + 14
        quests = g.get("quests", [])
        heroes = {h: sum(1 for q in quests if q["hero"] == h) for h in HERO_COLOUR}
        items = [t for q in quests for t in q["items"]]
        by_hero = [T("%(n)s %(hero)s", n=n, hero=kw.hero(h)) for h, n in heroes.items() if n]
        text = self.s(T("%(quests)s done: %(heroes)s", quests=kw.quests(len(quests)),
                        heroes=join(by_hero))) + (
            self.s(T(" (%(weapons)s, %(armor)s armor)",
                     weapons=kw.weapons(items.count("weapon")),
                     armor=items.count("armor"))) if quests else "")
        names = "; ".join(self.card(q["name"]) for q in quests) or self.s(T("none yet"))
        changed = prev is not None and len(prev.get("quests", [])) != len(quests)
        with d.group(title=self.s(T("Completed quests: %(names)s", names=names)),
                     highlight=changed):
            if changed:
                _frame(d, x, qy - 12, width, 30)
            self.para(x, qy, text if quests else self.s(T("No quests done yet")), width,
                       11, 3)
