"""The Architects table as one SVG picture, drawn from a seat's view only.

Top to bottom (a tall picture reads better on a phone than a wide one): who is to act
and the running scores; the viewer's draft or drawn cards; the main board's nine
locations with the Workers on them by colour; the Black Market and the Prison; the
Workshop; the Guildhall and the Cathedral; the Virtue track; the Byzantine opponent;
then each player's tableau (the viewer's first, with the hand).  Shapes that a move acts
on carry the target names of :mod:`games.architects.steps`.  What changed since the
viewer's previous view is outlined in the highlight colour.

For an email (``table["medium"] == "email"``) the same sections are drawn 400 units wide
(a phone shows them at about 340 px, so the small print stays about 9 px), the board in
two columns, with no tooltips, and without the Workshop, the Guildhall and Cathedral
panel and the legend: the page has them, and the status line and each tableau carry the
Guildhall count and the Cathedral levels.  The page on a phone (``"phone"``) draws the
narrow layout redrawn for the phone (issue 29, item 1): :data:`PHONE_WIDTH` units wide
with no text under :data:`PHONE_TEXT`, so that the page, which enlarges the picture until
its smallest text reads at 11 CSS px, shows all of it in a 390 px phone's 350 px without
panning.  To fit, it stacks and wraps what the email sets side by side: the players'
names wrap (a long name cut to fit), the board's locations go two a line, each as tall
as its Workers need, the Black Market's spaces one a line, the Prison's stacks wrap, the
Workshop's cards two a line (numbered by column), the Guildhall above the Cathedral, a
tableau's resources wrap and its counts take three lines, a Building card's skills go
below its cost when they do not fit beside it.  It has every shape a move acts on, and
tooltips (a page's picture is read by a screen reader too).

Small clickable groups (Workers with their count) lie on an invisible hit area, so a
click between the icon and its count still picks them.

Every word, tooltips too, is a :class:`games.text.Text` said by ``say`` (the reader's
language, :data:`games.svg.Say`; the default, ``str``, draws English).  The layout is
fitted to the English words; a longer translation pushes what follows it right, or onto
the next line where it would run past the edge, a translated card name is set smaller
before it is cut, and a heading too long for the picture wraps, so English pictures
are drawn exactly as before.
"""

from __future__ import annotations

import math
from typing import Any

from games.architects import guildhall, locations, presentation, words
from games.architects.cards import apprentice, board, building
from games.architects.presentation import goods_title
from games.architects.words import colour_workers, fmt
from games.svg import EMAIL_WIDTH, HIGHLIGHT, INK, MUTED, Drawing, Say, for_email
from games.text import P, T, Text, join

View = dict[str, Any]
W = 600  # the page's width; an email's is games.svg.EMAIL_WIDTH
PHONE_WIDTH = 340  # units: the page's picture on a phone (at 11.1 / 11 px a unit: 343 px)
PHONE_TEXT = 11  # the phone's smallest text
PAD = 10
# The game's colour names, drawn in shades that stay apart for colour-blind players.
COLOURS = {"blue": "#0072B2", "green": "#009E73", "purple": "#CC79A7", "red": "#D55E00",
           "yellow": "#F0E442", "grey": "#9E9E9E"}
RESOURCES = ("silver", "clay", "wood", "stone", "gold", "marble")
RESOURCE_FILL = {"silver": "#D0D0D0", "clay": "#C8643C", "wood": "#8B5A2B",
                 "stone": "#8E9AA6", "gold": "#F2C200", "marble": "#FFFFFF"}
SKILL_FILL = {"Carpentry": "#A0522D", "Tiling": "#C0392B", "Masonry": "#607D8B"}
PANEL = "#F3EBDD"
CARD = "#FFFDF8"
LOC_TEXT = {
    "quarry": T("1 + 1 Stone per Worker"), "forest": T("1 Wood per Worker"),
    "mines": T("1 + 1 Clay per Worker, or 1 Gold per 2"),
    "silversmith": T("1 + 1 Silver per Worker"),
    "storehouse": T("1 trade per Worker"), "workshop": T("Hire (2 Silver + 2 Tax) or plans"),
    "town_centre": T("1 capture per Worker"), "tax_stand": T("Take all Tax; -2 Virtue"),
    "guardhouse": T("1 action per Worker"),
}
BOARD_ORDER = ("quarry", "forest", "mines", "silversmith", "storehouse", "workshop",
               "town_centre", "tax_stand", "guardhouse")
# what a seat is doing, as the view's words say it, two of them shorter on the board
PENDING = {**words.PENDING, "workshop": T("hiring or drawing at the Workshop"),
           "recall": T("returning a Worker (none left)")}
# a Building card's effect after its timing, as the card prints it
EFFECT = {"immediate": lambda effect: T("Now: %(effect)s", effect=effect),
          "end": lambda effect: T("At game end: %(effect)s", effect=effect)}
# the score lines as a tableau lists them (shorter than the view's score names)
SCORE_NAMES = {"buildings": T("Buildings"), "guildhall": T("Guildhall"),
               "cathedral": T("Cathedral"), "virtue": T("Virtue"), "debts": T("Debts"),
               "gold_marble": T("Gold/Marble"), "silver": T("Silver"), "prison": T("Prison")}


def silver_text(n: int) -> Text:
    """``2 Silver`` (the same word for one and many in English)."""
    return P("%(n)s Silver", "%(n)s Silver", n)



def colour(pl: dict[str, Any]) -> str:
    """The fill for a player's Workers and markers."""
    return COLOURS.get(pl.get("colour", ""), "#9E9E9E")


def wrap(text: str, width: float, size: float) -> list[str]:
    """Greedy word wrap for ``width`` user units at font ``size`` (DejaVu's average
    letter is about 0.56 em wide)."""
    per_line = max(4, int(width / (size * 0.56)))
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def span(text: str, size: float) -> float:
    """A cautious estimate of how wide DejaVu Sans sets ``text`` at ``size`` (wide
    letters, capitals and narrow ones apart: a name of M's is half as wide again as
    the average letter says)."""
    em = 0.0
    for ch in text:
        em += (1.0 if ch in "mwMW" else 0.3 if ch in "il.,:;'|!I" else
               0.42 if ch in "frtj " else 0.76 if ch.isupper() else 0.63)
    return em * size


def wrap_to_fit(text: str, width: float, size: float) -> list[str]:
    """Word wrap for ``width`` units at ``size`` by :func:`span`, each word too wide for
    a line (a long name) cut to fit one."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        while len(word) > 1 and span(word, size) > width:
            word = word[:-2] + "…"
        joined = f"{line} {word}" if line else word
        if line and span(joined, size) > width:
            lines.append(line)
            line = word
        else:
            line = joined
    if line:
        lines.append(line)
    return lines


def clip_to(text: str, width: float, size: float, bold: bool = False) -> str:
    """``text`` cut (with an ellipsis) until :func:`span` sets it within ``width``
    (bold letters about a tenth wider)."""
    grow = 1.12 if bold else 1.0
    while len(text) > 1 and span(text, size) * grow > width:
        text = text[:-2] + "…"
    return text


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis (titles keep the whole)."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


class Picture:
    """One picture being drawn: the view, the previous view and a y cursor."""

    def __init__(self, view: View, table: dict[str, Any], say: Say = str) -> None:
        self.say: Say = say
        self.v = view
        self.table = table
        self.prev = table.get("previous") or None
        self.seat = table.get("seat")
        if not isinstance(self.seat, int) or not 0 <= self.seat < view.get("n", 0):
            self.seat = None
        self.players = view["players"]
        names = [pl["name"] for pl in self.players]
        # An email is read on a phone without zoom: narrower (so its text is larger once
        # scaled to the screen), no tooltips, and only what the reader's move needs.
        self.email = for_email(table)  # the narrow layout (an email, or a phone's page)
        # an email's PNG leaves the Workshop and the Guildhall to the page; a page, on a
        # phone too, has every shape a move acts on
        self.panels = table.get("medium") != "email"
        # the page on a phone: narrower still, no text under PHONE_TEXT (see the module)
        self.phone = table.get("medium") == "phone"
        self.tiny = PHONE_TEXT if self.phone else 10  # the smallest print's size
        self.W = PHONE_WIDTH if self.phone else EMAIL_WIDTH if self.email else W
        self.d = Drawing(self.W, 100, title=self.s(T("Architects of the West Kingdom: "
                                                     "%(names)s", names=", ".join(names))),
                         tooltips=not self.email or self.phone)
        self.y = 0.0

    def s(self, text: Any) -> str:
        """``text`` in the reader's language, as a plain string (a player's name, a
        number: as it is)."""
        return str(self.say(text)) if isinstance(text, Text) else str(text)

    def longer(self, text: Any, size: float) -> float:
        """How much wider (by :func:`span`) ``text`` is said in the reader's language than
        in English, the words the layout was fitted to: what a longer word pushes the
        shapes after it right by (0 in English, or for a shorter word)."""
        return max(0.0, span(self.s(text), size) - span(str(text), size))

    def translated(self, text: Any) -> bool:
        """Whether ``text`` is said in other words than the English the layout was
        fitted to."""
        return self.s(text) != str(text)

    def fit(self, text: Any, width: float, size: float, least: float = PHONE_TEXT,
            bold: bool = True) -> tuple[str, float]:
        """``text`` said, and the size it is set at to fit ``width`` by :func:`span`: a
        size smaller at a time down to ``least``, then cut (a German name longer than
        the English the card was laid out for)."""
        said = self.s(text)
        grow = 1.12 if bold else 1.0
        while size > least and span(said, size) * grow > width:
            size = max(least, size - 1)
        return clip_to(said, width, size, bold=bold), size

    def colour_word(self, pl: dict[str, Any]) -> Any:
        """A player's colour as a word ("blue"), said by the reader."""
        return words.colour(pl.get("colour", ""))

    # -- what changed ----------------------------------------------------------------------
    def changed(self, *path: Any) -> bool:
        """True when the value at ``path`` differs from the previous view (never on a
        first look)."""
        if self.prev is None:
            return False
        a: Any = self.v
        b: Any = self.prev
        for key in path:
            try:
                a = a[key]
            except (KeyError, IndexError, TypeError):
                a = None
            try:
                b = b[key]
            except (KeyError, IndexError, TypeError):
                b = None
        return a != b

    def outline(self, x: float, y: float, w: float, h: float, on: bool) -> None:
        """A highlight frame around a box that changed (drawn beneath it)."""
        if on:
            self.d.rect(x - 2, y - 2, w + 4, h + 4, fill="none", stroke=HIGHLIGHT,
                        stroke_width=5, rx=6)

    def hit(self, x: float, y: float, w: float, h: float) -> None:
        """An invisible area that takes clicks for the group it is drawn in (first), so
        a click in a gap between its shapes still lands on the group.  Nested in a plain
        group, the page's outlines of a target's shapes (direct children) pass it by."""
        with self.d.group():
            self.d.rect(x, y, w, h, fill="none", stroke=None, pointer_events="all")

    # -- small shapes ----------------------------------------------------------------------
    def worker(self, cx: float, cy: float, fill: str, s: float = 14) -> None:
        """A Worker (meeple-like: a head on a body)."""
        d = self.d
        d.polygon([(cx - s * 0.5, cy + s * 0.5), (cx - s * 0.3, cy - s * 0.15),
                   (cx + s * 0.3, cy - s * 0.15), (cx + s * 0.5, cy + s * 0.5)],
                  fill=fill, stroke=INK, stroke_width=1)
        d.circle(cx, cy - s * 0.38, s * 0.27, fill=fill, stroke=INK, stroke_width=1)

    def star(self, cx: float, cy: float, r: float) -> None:
        """A five-pointed star (the winner's mark)."""
        points = []
        for k in range(10):
            radius = r if k % 2 == 0 else r * 0.45
            angle = math.pi / 2 + k * math.pi / 5
            points.append((cx + radius * math.cos(angle), cy - radius * math.sin(angle)))
        self.d.polygon(points, fill=HIGHLIGHT, stroke=INK, stroke_width=1)

    def resource(self, x: float, y: float, kind: str, s: float = 12) -> None:
        """A resource icon with its top-left corner at (x, y)."""
        d, fill = self.d, RESOURCE_FILL.get(kind, "#ccc")
        if kind == "silver":
            d.circle(x + s / 2, y + s / 2, s / 2, fill=fill, stroke=INK, stroke_width=1)
        elif kind == "clay":
            d.rect(x, y + s * 0.2, s, s * 0.6, fill=fill, stroke=INK, stroke_width=1)
        elif kind == "wood":
            d.rect(x, y + s * 0.25, s, s * 0.5, fill=fill, stroke=INK, stroke_width=1, rx=s * 0.25)
        elif kind == "stone":
            d.polygon([(x + s * 0.25, y), (x + s * 0.75, y), (x + s, y + s / 2),
                       (x + s * 0.75, y + s), (x + s * 0.25, y + s), (x, y + s / 2)],
                      fill=fill, stroke=INK, stroke_width=1)
        elif kind == "gold":
            d.polygon([(x + s / 2, y), (x + s, y + s / 2), (x + s / 2, y + s), (x, y + s / 2)],
                      fill=fill, stroke=INK, stroke_width=1)
        elif kind == "marble":
            d.rect(x, y + s * 0.1, s, s * 0.8, fill=fill, stroke=INK, stroke_width=1, rx=s * 0.15)
            d.line(x + s * 0.15, y + s * 0.75, x + s * 0.85, y + s * 0.3, stroke="#9AA7B8",
                   stroke_width=1.5)
        elif kind == "virtue":
            d.polygon([(x + s / 2, y + s), (x, y + s * 0.4), (x + s * 0.25, y),
                       (x + s / 2, y + s * 0.25), (x + s * 0.75, y), (x + s, y + s * 0.4)],
                      fill="#7CB342", stroke=INK, stroke_width=1)
        elif kind == "building_cards":
            d.rect(x + s * 0.1, y, s * 0.8, s, fill=CARD, stroke=INK, stroke_width=1, rx=1.5)
            d.polygon([(x + s * 0.25, y + s * 0.5), (x + s * 0.5, y + s * 0.22),
                       (x + s * 0.75, y + s * 0.5)], fill=INK, stroke=None)
            d.rect(x + s * 0.32, y + s * 0.5, s * 0.36, s * 0.3, fill=INK, stroke=None)
        else:
            d.circle(x + s / 2, y + s / 2, s / 2, fill=fill, stroke=INK)

    def goods(self, x: float, y: float, goods: dict[str, int], size: float = 13) -> float:
        """Icons with counts from (x, baseline y); returns the x after them."""
        for kind, n in goods.items():
            if not n:
                continue
            self.d.text(x, y, n, size=size, weight="bold")
            x += size * 0.62 * len(str(n)) + 2
            self.resource(x, y - size * 0.85, kind, s=size * 0.9)
            x += size + 6
        return x

    def skills(self, x: float, y: float, skills: list[str], s: float = 14) -> float:
        """Skill chips (C, T, M) from (x, y top); returns the x after them."""
        if self.phone:  # a chip's letter no smaller than the phone's smallest print
            s = max(s, 15)
        letter = max(s * 0.72, PHONE_TEXT) if self.phone else s * 0.72
        for skill in skills:
            self.d.rect(x, y, s, s, fill=SKILL_FILL.get(skill, MUTED), stroke=None, rx=3)
            self.d.text(x + s / 2, y + s - 3.5, self.s(words.skill(skill))[:1], size=letter,
                        anchor="middle",
                        fill="#FFFFFF", weight="bold")
            x += s + 3
        return x

    def heading(self, text: Any, note: Any = "") -> None:
        """A section title, with a note on the right."""
        room = self.W - 2 * PAD
        heads = [self.s(text)]
        if self.translated(text) and span(heads[0], 17) * 1.12 > room:  # a longer language
            heads = wrap_to_fit(heads[0], room / 1.12, 17)
        text, note = heads[-1], self.s(note)
        self.y += 24
        for head in heads[:-1]:
            self.d.text(PAD, self.y, head, size=17, weight="bold")
            self.y += 21
        self.d.text(PAD, self.y, text, size=17, weight="bold")
        if note and 10.5 * len(text) + 7 * len(note) > self.W - 2 * PAD:
            self.y = self.lines(PAD, self.y + 16, note, self.W - 2 * PAD, 12, fill=MUTED) - 14
        elif note:
            self.d.text(self.W - PAD, self.y, note, size=12, anchor="end", fill=MUTED)
        self.y += 8

    def lines(self, x: float, y: float, text: Any, width: float, size: float,
              fill: str = INK, max_lines: int = 99) -> float:
        """Wrapped text from baseline y; returns the baseline after the last line (on a
        phone a word too long for a line, a long name, is cut to fit)."""
        text = self.s(text)
        out = wrap_to_fit(text, width, size) if self.phone else wrap(text, width, size)
        if len(out) > max_lines:
            out = out[:max_lines]
            out[-1] = out[-1].rstrip(".,;:") + "…"
        for line in out:
            self.d.text(x, y, line, size=size, fill=fill)
            y += size * 1.2
        return y

    # -- sections --------------------------------------------------------------------------
    def header(self) -> None:
        """Each player with colour, score and the ▶ mark for who is to act (wrapping)."""
        d, v = self.d, self.v
        to_act = set(self.table.get("to_act") or [])
        scores = (v.get("scores") or {}).get("totals")
        final = (v.get("scores") or {}).get("final")
        x, y = float(PAD), 24.0
        you = " " + self.s(T("(you)"))
        for q, pl in enumerate(self.players):
            label = clip(pl["name"], 24) + (you if q == self.seat else "")
            if self.phone:  # the name cut so its whole label fits a line
                label = clip_to(pl["name"], 150, 14, bold=True) + \
                    (you if q == self.seat else "")
            if pl.get("bot"):
                label += " " + self.s(T("(opponent)"))
            if scores is not None:
                label = self.s(T("%(label)s: %(n)s VP", label=label, n=scores[q]))
            width = 34 + (span(label, 14) * 1.12 if self.phone else 7.8 * len(label))
            if x + width > self.W - PAD and x > PAD:
                x, y = float(PAD), y + 24
            acting = q in to_act and not pl.get("bot")
            won = q in ((v.get("outcome") or {}).get("winners") or [])
            parts = [pl["name"], self.colour_word(pl)]
            if acting:
                parts.append(T("to act"))
            if won:
                parts.append(T("winner"))
            if scores is not None:
                parts.append(self.vp(scores[q], now=not final))
            with d.group(title=self.s(join(parts))):
                if acting:
                    d.polygon([(x, y - 12), (x, y + 2), (x + 11, y - 5)], fill=INK, stroke=None)
                if won:
                    self.star(x + 5, y - 5, 7)
                self.worker(x + 21, y - 4, colour(pl), s=15)
                d.text(x + 32, y, label, size=14, weight="bold" if acting else None)
            x += width + 10
        self.y = y + 20
        status = self.status()
        self.y = self.lines(PAD, self.y, status, self.W - 2 * PAD, 13) - 2
        notes = []
        if scores is not None and not final:
            notes.append(T("Scores: VP now (end-game Virtue effects of Buildings not yet "
                           "resolved)."))
        if self.table.get("deadline"):
            notes.append(T("Deadline: %(when)s", when=self.table["deadline"]))
        for note in notes:
            self.y = self.lines(PAD, self.y + 2, note, self.W - 2 * PAD, 12, fill=MUTED) - 2

    def vp(self, n: Any, now: bool = False) -> Text:
        """``12 VP`` (``12 VP now``: before the end-game effects)."""
        return T("%(n)s VP now", n=n) if now else T("%(n)s VP", n=n)

    def status(self) -> str:
        """One sentence: the phase, who plays and what they are choosing."""
        v = self.v
        if v["phase"] == "draft":
            rnd = v["draft"]["round"] + 1 if v.get("draft") else 1
            return self.s(T("Opening draft, round %(round)s of 3: keep 1 Building card, pass "
                            "the rest.", round=rnd))
        if v["phase"] == "over":
            out = v.get("outcome") or {}
            return self.s(T("Game over. %(winner)s", winner=out.get("winner", "")))
        cur = self.players[v["current"]]
        pend = v.get("pending")
        parts: list[Any]
        if not pend:
            parts = [T("%(who)s to play.", who=cur["name"])]
        else:
            doing = PENDING.get(pend["kind"], pend["kind"])
            if isinstance(pend.get("left"), int):
                parts = [T("%(who)s to play: %(doing)s (%(left)s left).", who=cur["name"],
                           doing=doing, left=pend["left"])]
            else:
                parts = [T("%(who)s to play: %(doing)s.", who=cur["name"], doing=doing)]
        parts += [T("Guildhall %(filled)s/%(size)s.", filled=len(v["guildhall"]),
                    size=v["guildhall_size"]),
                  T("Tax Stand %(silver)s.", silver=silver_text(v["tax"]))]
        if v.get("final_turns") is not None:
            parts.append(T("Final round!"))
        auto = v.get("automaton")
        if auto and auto.get("last_name"):
            parts.append(T("Opponent's last Scheme: %(scheme)s.", scheme=auto["last_name"]))
        return " ".join(self.s(part) for part in parts)

    def building_card(self, x: float, y: float, w: float, cid: int,
                      target: str | None) -> float:
        """A Building card with cost, VP, needed skills, Virtue and effect; returns its
        height."""
        card = building(cid)
        effect = self.s(EFFECT[card["timing"]](card["effect"]))
        eff_lines = wrap(effect, w - 14, 11)
        # on a phone the skills and the Virtue go below the cost when they do not fit
        # beside it
        down = 0.0
        if self.phone and (card["skills"] or card["virtue"]):
            span = sum(12 * 0.62 * len(str(n)) + 20 for n in card["cost"].values() if n)
            span += 4 + 18 * len(card["skills"]) + (37 if card["virtue"] else 0)
            if 7 + span > w - 10:
                down = 19.0
        h = 62 + 13.2 * len(eff_lines) + down
        d = self.d
        with d.group(target=target, title=self.s(presentation.building_details(cid))):
            d.rect(x, y, w, h, fill=CARD, stroke=INK, rx=5)
            name, size = clip(self.s(card["name"]), int((w - 40) / 8.4)), 14.0
            if self.translated(card["name"]):  # another language: smaller, then cut
                name, size = self.fit(card["name"], w - 40, 14)
            d.text(x + 7, y + 17, name, size=size, weight="bold")
            d.circle(x + w - 17, y + 14, 11, fill="#FFF3C4", stroke=INK, stroke_width=1)
            d.text(x + w - 17, y + 19, card["vp"], size=13, anchor="middle", weight="bold")
            gx = self.goods(x + 7, y + 37, card["cost"], size=12)
            if down:
                gx = x + 3
            if card["skills"]:
                gx = self.skills(gx + 4, y + 26 + down, card["skills"], s=14)
            if card["virtue"]:
                self.d.text(gx + 4, y + 37 + down, f"{card['virtue']:+d}", size=12,
                            weight="bold")
                self.resource(gx + (25 if self.phone else 22), y + 27 + down, "virtue",
                              s=11)
            self.lines(x + 7, y + 55 + down, effect, w - 14, 11)
        return h

    def card_rows(self, cards: list[int], target_prefix: str | None) -> None:
        """Building cards two to a row, full details."""
        w = (self.W - 3 * PAD) / 2
        for i in range(0, len(cards), 2):
            row = cards[i:i + 2]
            hs = [self.building_card(PAD + k * (w + PAD), self.y, w, cid,
                                     f"{target_prefix}{cid}" if target_prefix else None)
                  for k, cid in enumerate(row)]
            self.y += max(hs) + 8

    def draft(self) -> None:
        """The viewer's draft pool with every card's details, and who still chooses."""
        v = self.v
        draft = v.get("draft")
        if not draft:
            return
        if self.seat is not None:
            pool = draft["pools"][self.seat]
            if isinstance(pool, list):
                done = draft["picked"][self.seat]
                self.heading(T("Your draft: keep 1 Building card"),
                             T("kept; waiting for the others") if done else "")
                self.card_rows(pool, None if done else "card:")
        waiting = [self.players[q]["name"] for q, done in enumerate(draft["picked"])
                   if not done and q != self.seat]
        if waiting:
            self.y += 16
            still = self.s(T("Still choosing: %(names)s", names=", ".join(waiting)))
            if self.phone:  # wrapped
                self.y = self.lines(PAD, self.y, still, self.W - 2 * PAD, 13,
                                    fill=MUTED) - 13 * 1.2
            else:
                self.d.text(PAD, self.y, still, size=13, fill=MUTED)
            self.y += 4

    def drawn(self) -> None:
        """Building cards drawn at the Black Market, for the viewer who drew them."""
        pend = self.v.get("pending")
        if not pend or pend["kind"] != "keep":
            return
        cards = pend["cards"]
        if isinstance(cards, list):
            self.heading(T("Drawn at the Black Market: keep 1"))
            self.card_rows(cards, "card:")

    def board(self) -> None:
        """The nine large locations with each colour's Workers on them."""
        v, d = self.v, self.d
        self.heading(T("Main board"))
        if self.phone:
            self._board_phone()
            return
        cols, gap = (2 if self.email else 3), 8
        w = (self.W - 2 * PAD - (cols - 1) * gap) / cols
        h = 86 if self.email else 92  # an email: two columns, so wider, less tall
        for i, loc in enumerate(BOARD_ORDER):
            x = PAD + (i % cols) * (w + gap)
            y = self.y + (i // cols) * (h + gap)
            counts = v["board"][loc]
            title = self._location_title(loc)
            self.outline(x, y, w, h, self.changed("board", loc) or
                         (loc == "tax_stand" and self.changed("tax")))
            with d.group(target=f"loc:{loc}", title=title,
                         highlight=self.changed("board", loc)):
                d.rect(x, y, w, h, fill=PANEL, stroke=INK, rx=6)
                d.text(x + 8, y + 18, self.s(locations.NAMES[loc]), size=14, weight="bold")
                self.lines(x + 8, y + 35, LOC_TEXT[loc], w - 16, 12, fill=MUTED, max_lines=2)
                if loc == "tax_stand":
                    self.resource(x + w - 52, y + 6, "silver", s=14)
                    d.text(x + w - 34, y + 18, v["tax"], size=14, weight="bold")
            wx = x + 14
            for q, n in enumerate(counts):
                if not n:
                    continue
                pl = self.players[q]
                with d.group(target=f"workers:{loc}:{q}", title=self._workers_at(q, n, loc)):
                    self.hit(wx - 10, y + h - 32, 23 + 7.8 * (1 + len(str(n))), 28)
                    self.worker(wx, y + h - 18, colour(pl), s=18)
                    d.text(wx + 11, y + h - 9, f"×{n}", size=13, weight="bold")
                wx += 33 + 8 * len(str(n))
                if wx > x + w - 20:
                    wx = x + 14
        self.y += -(-len(BOARD_ORDER) // cols) * (h + gap) - gap

    def _location_title(self, loc: str) -> str:
        """A location's tooltip: what it does, the Tax, whose Workers are there."""
        v = self.v
        title: Text = fmt("%(place)s: %(text)s", place=locations.NAMES[loc], text=LOC_TEXT[loc])
        if loc == "tax_stand":
            title = T("%(title)s; %(silver)s on the stand", title=title,
                      silver=silver_text(v["tax"]))
        return self.s(T("%(title)s. Workers: %(who)s", title=title,
                        who=self._colour_counts(v["board"][loc])))

    def _colour_counts(self, counts: list[int]) -> Text:
        """``blue 2, red 1`` (each seat's colour with its count), or "none"."""
        who = [fmt("%(colour)s %(n)s", colour=self.colour_word(self.players[q]), n=n)
               for q, n in enumerate(counts) if n]
        return join(who) if who else T("none")

    def _workers_at(self, q: int, n: int, loc: str) -> str:
        """A stack's tooltip: ``2 blue Workers (Ann) at the Forest``."""
        pl = self.players[q]
        return self.s(T("%(workers)s (%(name)s) %(at)s",
                        workers=colour_workers(pl.get("colour"), n), name=pl["name"],
                        at=words.AT.get(loc, loc)))

    def _board_phone(self) -> None:
        """The board on a phone: two locations a line, each with its whole text, and its
        Workers wrapped onto as many lines as they need (a line as tall as its tallest)."""
        v, d = self.v, self.d
        cols, gap, size = 2, 8, 11
        w = (self.W - 2 * PAD - (cols - 1) * gap) / cols

        def workers(loc: str) -> list[list[tuple[int, int, float]]]:
            """Each line's (seat, count, width) of the Workers at ``loc``."""
            out: list[list[tuple[int, int, float]]] = [[]]
            room = w - 16
            used = 0.0
            for q, n in enumerate(v["board"][loc]):
                if not n:
                    continue
                span = 33 + 8 * len(str(n))
                if out[-1] and used + span > room:
                    out.append([])
                    used = 0.0
                out[-1].append((q, n, span))
                used += span
            return out

        laid = {loc: (wrap(self.s(LOC_TEXT[loc]), w - 16, size), workers(loc))
                for loc in BOARD_ORDER}
        y = self.y
        for first in range(0, len(BOARD_ORDER), cols):
            row = BOARD_ORDER[first:first + cols]
            h = max(30 + 13.2 * len(laid[loc][0]) + 28 * len(laid[loc][1]) + 4 for loc in row)
            for k, loc in enumerate(row):
                x = PAD + k * (w + gap)
                text, lines = laid[loc]
                self.outline(x, y, w, h, self.changed("board", loc) or
                             (loc == "tax_stand" and self.changed("tax")))
                with d.group(target=f"loc:{loc}", title=self._location_title(loc),
                             highlight=self.changed("board", loc)):
                    d.rect(x, y, w, h, fill=PANEL, stroke=INK, rx=6)
                    d.text(x + 8, y + 18, self.s(locations.NAMES[loc]), size=13,
                           weight="bold")
                    ty = y + 34
                    for line in text:
                        d.text(x + 8, ty, line, size=size, fill=MUTED)
                        ty += 13.2
                    if loc == "tax_stand":
                        self.resource(x + w - 52, y + 6, "silver", s=14)
                        d.text(x + w - 34, y + 18, v["tax"], size=14, weight="bold")
                wy = y + 30 + 13.2 * len(text) - 2
                for line in lines:
                    wx = x + 14
                    for q, n, span in line:
                        pl = self.players[q]
                        with d.group(target=f"workers:{loc}:{q}",
                                     title=self._workers_at(q, n, loc)):
                            self.hit(wx - 10, wy, 23 + 7.8 * (1 + len(str(n))), 28)
                            self.worker(wx, wy + 14, colour(pl), s=18)
                            d.text(wx + 11, wy + 23, f"×{n}", size=13, weight="bold")
                        wx += span
                    wy += 28
            y += h + gap
        self.y = y - gap

    def market(self) -> None:
        """The Black Market's three spaces and their goods, its piles, and the Prison."""
        v, d = self.v, self.d
        self.heading(T("Black Market"), T("Resets so far: %(n)s", n=v.get("resets", 0)))
        w = (self.W - 2 * PAD - 2 * 8) / 3
        h = 84
        if self.phone:  # one space a line, its goods (or what B offers) beside its price
            w, h = self.W - 2 * PAD, 34
            b_text = wrap(self.s(T("Hire any Apprentice, or draw 5 keep 1")), w - 160, 11)
        for space in range(3):
            x = PAD + space * (w + 8)
            y = self.y
            if self.phone:
                x, y = PAD, self.y
                h = max(34, 12 + 13.2 * len(b_text)) if space == 1 else 34
            who = v["black_market"][space]
            if space == 1:
                text: Text = T("hire any Apprentice, or draw 5 Building cards and keep 1")
                offer: dict[str, int] = {}
            else:
                offer = v["market"]["AC"[space // 2]]
                text = goods_title(offer)
            taken = T("Taken by %(name)s", name=self.players[who]["name"]) \
                if who is not None else T("Free")
            title = self.s(T("Black Market space %(space)s: %(silver)s, -1 Virtue: %(offer)s. "
                             "%(taken)s", space="ABC"[space], silver=silver_text(space + 1),
                             offer=text, taken=taken))
            changed = self.changed("black_market", space) or (
                space != 1 and self.changed("market", "AC"[space // 2]))
            self.outline(x, y, w, h, changed)
            if self.phone:
                with d.group(target=f"bm:{space}", title=title, highlight=changed):
                    d.rect(x, y, w, h, fill="#E9E2F0", stroke=INK, rx=6)
                    mid = y + h / 2
                    d.text(x + 8, mid + 5, f"{'ABC'[space]}", size=15, weight="bold")
                    self.resource(x + 26, mid - 7, "silver", s=13)
                    d.text(x + 42, mid + 5, f"{space + 1}", size=12)
                    d.text(x + 56, mid + 4, self.s(T("-1 Virtue")), size=11, fill=MUTED)
                    if space == 1:
                        ty = mid - 13.2 * len(b_text) / 2 + 10
                        for line in b_text:
                            d.text(x + 124, ty, line, size=11, fill=MUTED)
                            ty += 13.2
                    else:
                        self.goods(x + 124, mid + 5, offer, size=13)
                    if who is not None:
                        self.worker(x + w - 20, mid + 2, colour(self.players[who]), s=22)
                self.y += h + 6
                continue
            with d.group(target=f"bm:{space}", title=title, highlight=changed):
                d.rect(x, y, w, h, fill="#E9E2F0", stroke=INK, rx=6)
                d.text(x + 8, y + 18, f"{'ABC'[space]}", size=15, weight="bold")
                self.resource(x + 26, y + 6, "silver", s=13)
                d.text(x + 42, y + 18, f"{space + 1}" if self.email else
                       f"{space + 1}  · {self.s(T('-1 Virtue'))}", size=12)
                if self.email:
                    d.text(x + 8, y + h - 8, self.s(T("-1 Virtue")), size=11, fill=MUTED)
                if space == 1:
                    self.lines(x + 8, y + 36, T("Hire any Apprentice, or draw 5 keep 1"),
                               w - (16 if self.email else 50), 11, fill=MUTED, max_lines=3)
                else:  # an email's space is narrower: four goods fit at 12
                    self.goods(x + 8, y + 42, offer, size=12 if self.email else 14)
                if who is not None:
                    self.worker(x + w - 20, y + h - 20, colour(self.players[who]), s=22)
        self.y += 2 if self.phone else h + 8
        small, large = v["bm_small"]["count"], v["bm_large"]["count"]
        after = self.lines(PAD, self.y + 10, T("Not at 10+ Virtue. Small Market pile "
                                               "%(small)s, Large Market pile %(large)s. A full "
                                               "market triggers a Reset.", small=small,
                                               large=large),
                           self.W - 2 * PAD, 11, fill=MUTED)
        self.y = after - 13.2 + 6
        # The Prison, one stack per colour.
        self.y += 8
        h = 40
        # (x, line) of each colour's stack; a phone starts them nearer and wraps them; the
        # bars and the stacks right of the word "Prison" (a longer word in German)
        word = T("Prison")
        prison, further = self.s(word), self.longer(word, 14) * 1.12
        bars = PAD + (70 if self.phone else 90) + further
        first = PAD + (122.0 if self.phone else 150.0) + further
        stacks: dict[int, tuple[float, int]] = {}
        x, line = first, 0
        for q in range(len(self.players)):
            n = v["prison"][q]
            if not n:
                continue
            wide = 36 + 9 * len(str(n))
            if self.phone and x > first and x + wide - 12 > self.W - PAD:
                x, line = first, line + 1
            stacks[q] = (x, line)
            x += wide
        h += 30 * max(line for _x, line in [(0.0, 0), *stacks.values()])
        changed = self.changed("prison")
        self.outline(PAD, self.y, self.W - 2 * PAD, h, changed)
        inside = any(self.v["prison"])
        with d.group(title=self.s(T("Prison: %(who)s", who=self._colour_counts(v["prison"])
                                    if inside else T("empty"))), highlight=changed):
            d.rect(PAD, self.y, self.W - 2 * PAD, h, fill="#DDDDDD", stroke=INK, rx=6)
            for k in range(6):
                d.line(bars + k * 8, self.y + 4, bars + k * 8, self.y + h - 4,
                       stroke=MUTED, stroke_width=2)
            d.text(PAD + 10, self.y + 25, prison, size=14, weight="bold")
            top = self.y
            for q, (x, line) in stacks.items():
                pl, n = self.players[q], v["prison"][q]
                self.y = top + 30 * line
                target = "mine:prison" if q == self.seat else None
                with d.group(target=target, title=self.s(T(
                        "%(workers)s (%(name)s) in Prison",
                        workers=colour_workers(pl.get("colour"), n), name=pl["name"]))):
                    if target:
                        self.hit(x - 10, self.y + 6, 24 + 7.8 * (1 + len(str(n))), 28)
                    self.worker(x, self.y + 22, colour(pl), s=18)
                    d.text(x + 12, self.y + 30, f"×{n}", size=13, weight="bold")
            self.y = top
            if not inside:
                d.text(first, self.y + 25, self.s(T("empty")), size=12, fill=MUTED)
        self.y += h

    def workshop(self) -> None:
        """The Workshop's two rows of Apprentices (Silver on skipped cards) and the
        Building pile.  Narrow, each row's four cards go two to a line, numbered by
        column (a column's cost)."""
        v, d = self.v, self.d
        self.heading(words.LOCATIONS["workshop"],
                     T("Apprentice deck %(apprentices)s · Building pile %(buildings)s",
                       apprentices=v["app_deck"], buildings=v["deck"]))
        gap = 6
        per_line = 2 if self.email else 4
        w = (self.W - 2 * PAD - (per_line - 1) * gap) / per_line
        for row in range(2):
            if self.email:
                self.y += 14
                d.text(PAD, self.y, self.s(T("Row %(n)s", n=row + 1)), size=12, weight="bold",
                       fill=MUTED)
                self.y += 4
            for first in range(0, 4, per_line):
                cols = range(first, first + per_line)
                h = self._workshop_height(row, cols, w)
                for k, col in enumerate(cols):
                    self._workshop_card(row, col, PAD + k * (w + gap), self.y, w, h)
                self.y += h + gap
        self.y += 6
        self.y = self.lines(PAD, self.y + 2, T("Column n costs n-1 Silver placed on the cards "
                                               "skipped, less 1 per own Worker at the "
                                               "Workshop."),
                            self.W - 2 * PAD, 11, fill=MUTED) - 8
        said = T("Building pile: %(n)s", n=v["deck"])
        pile, box = self.s(said), 150 + self.longer(said, 12)  # the pile's label inside it
        with d.group(target="deck:buildings",
                     title=self.s(T("Building pile: %(cards)s (Building plans)",
                                    cards=P("%(n)s card", "%(n)s cards", v["deck"])))):
            d.rect(PAD, self.y, box, 30, fill=CARD, stroke=INK, rx=4)
            d.rect(PAD + 3, self.y + 3, box, 30, fill=CARD, stroke=INK, rx=4)
            self.resource(PAD + 10, self.y + 9, "building_cards", s=16)
            d.text(PAD + 30, self.y + 24, pile, size=12)
        self.lines(PAD + box + 20, self.y + (15 if self.email else 22),
                   T("Workshop plans: draw 1 + 1 per 2 Workers there."),
                   self.W - PAD - box - 20, 11, fill=MUTED)
        self.y += 36

    def _workshop_height(self, row: int, cols: range, w: float) -> float:
        """The height of a line of Workshop cards: the page's fixed 142, or narrow, as
        tall as the longest ability among them needs."""
        if not self.email:
            return 142
        longest = max((len(wrap(self.s(apprentice(cid)["ability"]), w - 10, 11))
                       for col in cols if (cid := self.v["workshop"][row][col]) is not None),
                      default=1)
        return 52 + 13.2 * longest

    def _workshop_card(self, row: int, col: int, x: float, y: float, w: float,
                       h: float) -> None:
        """One Workshop space: its Apprentice (or an empty frame) and the Silver on it."""
        v, d = self.v, self.d
        cid = v["workshop"][row][col]
        silver = v["workshop_silver"][row][col]
        changed = self.changed("workshop", row, col) or \
            self.changed("workshop_silver", row, col)
        self.outline(x, y, w, h, changed)
        if cid is None:
            d.rect(x, y, w, h, fill="none", stroke=MUTED, rx=5, stroke_dasharray="4 3")
            return
        card = apprentice(cid)
        title: Text = T("%(card)s (row %(row)s, column %(column)s)",
                        card=presentation.apprentice_details(cid), row=row + 1, column=col + 1)
        if silver:
            title = T("%(card)s; %(silver)s on it", card=title, silver=silver_text(silver))
        with d.group(target=f"ws:{row}:{col}", title=self.s(title), highlight=changed):
            d.rect(x, y, w, h, fill=CARD, stroke=INK, rx=5)
            name = self.s(card["name"])
            column = self.s(T("col %(n)s", n=col + 1))
            if self.email:  # the column (its cost) beside the name: the rows are split
                d.text(x + w - 6, y + 15, column, size=11, anchor="end",
                       fill=MUTED)
                name = clip(name, int((w - 50) / 8))
            size = 13.0
            if self.phone:  # a size smaller, cut by its estimated width: Debt Collector whole
                size = 12
                name = clip_to(self.s(card["name"]), w - 18 - span(column, 11), size,
                               bold=True)
            if self.translated(card["name"]):  # another language: smaller, then cut
                room = w - 18 - span(column, 11) if self.email else w - 12
                name, size = self.fit(card["name"], room, size)
            d.text(x + 6, y + 16, name, size=size, weight="bold")
            sx = self.skills(x + 6, y + 22, card["skills"], s=14)
            if card["virtue_on_hire"]:
                d.text(sx + 2, y + 34, f"{card['virtue_on_hire']:+d}", size=11,
                       weight="bold")
                self.resource(sx + (22 if self.phone else 17), y + 24, "virtue", s=10)
            self.lines(x + 6, y + (50 if self.email else 54), card["ability"], w - 10, 11,
                       max_lines=99 if self.email else 7)
            if silver:
                self.resource(x + w - 26, y + 20, "silver", s=16)
                d.text(x + w - 18, y + 32, silver, size=11, anchor="middle",
                       weight="bold")

    def guildhall_and_cathedral(self) -> None:
        """The Guildhall's spaces (cull and Reset marked) beside the Cathedral levels
        (narrow: above them)."""
        v, d = self.v, self.d
        self.heading(T("Guildhall and Cathedral"),
                     T("Reward cards left: %(n)s", n=v["rewards"]))
        top = self.y
        n_all = len(self.players)
        row_len = guildhall.per_row(n_all)
        size = 34 if self.phone else 30  # a phone: the marks left of the Worker, apart
        gw = row_len * (size + 4) + 16
        culls = guildhall.cull_spaces(n_all)
        resets = guildhall.reset_spaces(n_all)
        names = [self.colour_word(self.players[q]) for q in v["guildhall"]]
        changed = self.changed("guildhall") or self.changed("guildhall_side")
        gh = 4 * (size + 4) + 52 + (20 if v["guildhall_side"] else 0)
        self.outline(PAD, top, gw, gh, changed)
        with d.group(target="loc:guildhall",
                     title=self.s(T("Guildhall: %(filled)s of %(size)s spaces filled "
                                    "(%(who)s); filling the last one starts the final round",
                                    filled=len(v["guildhall"]), size=v["guildhall_size"],
                                    who=join(names) if names else T("empty"))),
                     highlight=changed):
            d.rect(PAD, top, gw, gh, fill=PANEL, stroke=INK, rx=6)
            d.text(PAD + 8, top + 18, self.s(words.LOCATIONS["guildhall"]), size=14,
                   weight="bold")
            for k in range(v["guildhall_size"]):
                r, c = divmod(k, row_len)
                x = PAD + 8 + c * (size + 4)
                y = top + 26 + r * (size + 4)
                d.rect(x, y, size, size, fill="#FFFFFF", stroke=MUTED, rx=3)
                if self.phone:
                    marks = [m for m, on in (("C", k + 1 in culls), ("R", k + 1 in resets))
                             if on]
                    for i, mark in enumerate(marks):
                        d.text(x + 3, y + 13 + 13 * i, mark, size=self.tiny, fill=MUTED)
                    if k < len(v["guildhall"]):
                        self.worker(x + 22, y + size / 2 + 3,
                                    colour(self.players[v["guildhall"][k]]), s=17)
                    continue
                if k + 1 in culls:
                    d.text(x + 3, y + 11, "C", size=self.tiny, fill=MUTED)
                if k + 1 in resets:
                    d.text(x + size - 3, y + 11, "R", size=self.tiny, fill=MUTED,
                           anchor="end")
                if k < len(v["guildhall"]):
                    self.worker(x + size / 2, y + size / 2 + 2,
                                colour(self.players[v["guildhall"][k]]), s=18)
            y = top + 26 + 4 * (size + 4) + 8
            d.text(PAD + 8, y, self.s(T("C: cull Workshop")), size=self.tiny, fill=MUTED)
            d.text(PAD + 8, y + 12, self.s(T("R: Black Market Reset")), size=self.tiny,
                   fill=MUTED)
            if v["guildhall_side"]:
                beside = T("Beside:")
                d.text(PAD + 8, y + 30, self.s(beside), size=self.tiny)
                x = PAD + 56 + self.longer(beside, self.tiny)
                for q in v["guildhall_side"]:
                    self.worker(x, y + 26, colour(self.players[q]), s=12)
                    x += 12
        # The Cathedral, top level first: beside the Guildhall, or narrow, below it.
        levels = board()["cathedral"]
        if self.email:
            cx, ctop = float(PAD), top + gh + 8
            ch = 24 + 26 * len(levels)
        else:
            cx, ctop, ch = PAD + gw + 10, top, gh
        cw = self.W - PAD - cx
        lh = (ch - 24) / len(levels)
        # Comparing the players lists first skips the per-player look on most pictures.
        changed = self.changed("players") and any(
            self.changed("players", q, "cathedral") for q in range(len(self.players)))
        who = [f"{pl['name']} {pl['cathedral']}" for pl in self.players]
        self.outline(cx, ctop, cw, ch, changed)
        with d.group(target="cathedral", title=self.s(T(
                "Cathedral levels: %(who)s. No work at 4 Virtue or less.", who=", ".join(who))),
                highlight=changed):
            d.rect(cx, ctop, cw, ch, fill="#E3ECF5", stroke=INK, rx=6)
            d.text(cx + 8, ctop + 18, self.s(T("Cathedral")), size=14, weight="bold")
            d.text(cx + cw - 8, ctop + 18, self.s(T("no work at Virtue ≤ 4")), size=self.tiny,
                   anchor="end", fill=MUTED)
            for i, level in enumerate(reversed(levels)):
                lvl = level["level"]
                y = ctop + 24 + i * lh
                d.rect(cx + 6, y, cw - 12, lh - 3, fill="#FFFFFF", stroke=MUTED, rx=3)
                d.text(cx + 12, y + lh / 2 + 3, f"{lvl}", size=13, weight="bold")
                d.text(cx + 28, y + lh / 2 + 3, self.s(self.vp(level["vp"])), size=11)
                cost = self.s(self._cathedral_cost(level["cost_options"]))
                d.text(cx + 74, y + lh / 2 + 4, cost, size=11, fill=MUTED)
                x = cx + cw - 14
                for pl in self.players:
                    if pl["cathedral"] == lvl:
                        d.circle(x, y + lh / 2 - 1, 7, fill=colour(pl), stroke=INK,
                                 stroke_width=1)
                        x -= 16
        self.y = ctop + ch

    @staticmethod
    def _cathedral_cost(options: list[dict[str, int]]) -> Text:
        """'1 Gold', or '8 Stone / Wood (any mix)' for a level paid in a mix."""
        if len(options) == 1:
            return goods_title(options[0])
        total = sum(options[0].values())
        kinds = join([words.resource_title(k) for k in options[0]], " / ")
        return T("%(n)s %(kinds)s (any mix)", n=total, kinds=kinds)

    def virtue_track(self) -> None:
        """The Virtue track 0-14 with every marker and each level's end VP."""
        d = self.d
        self.heading(T("Virtue track"), T("10+: no Black Market · ≤4: no Cathedral · ≤3: less "
                                          "Tax"))
        cell = (self.W - 2 * PAD) / 15
        top = self.y
        by_level: dict[int, list[int]] = {}
        for q, pl in enumerate(self.players):
            by_level.setdefault(pl["virtue"], []).append(q)
        tallest = max(len(x) for x in by_level.values())
        h = 44 + 12 * tallest
        changed = any(self.changed("players", q, "virtue") for q in range(len(self.players)))
        self.outline(PAD, top, self.W - 2 * PAD, h, changed)
        marks = ", ".join(f"{pl['name']} {pl['virtue']}" for pl in self.players)
        with d.group(title=self.s(T("Virtue: %(marks)s", marks=marks)), highlight=changed):
            for level in range(15):
                x = PAD + level * cell
                fill = "#F6D5D5" if level <= 4 else "#D9EAD3" if level >= 10 else "#FFFFFF"
                d.rect(x, top, cell, h, fill=fill, stroke=MUTED)
                d.text(x + cell / 2, top + 14, level, size=12, anchor="middle", weight="bold")
                vp = board()["virtue_vp"][str(level)]
                d.text(x + cell / 2, top + h - 5, f"{vp:+d}" if vp else "0", size=11,
                       anchor="middle", fill=MUTED)
                for k, q in enumerate(by_level.get(level, [])):
                    d.circle(x + cell / 2, top + 25 + 12 * k, 5.5, fill=colour(self.players[q]),
                             stroke=INK, stroke_width=1)
        self.y = self.lines(PAD, top + h + 12, T("Bottom row: VP at the end. Above 14 "
                                                 "destroys a Debt; below 0 takes one."),
                            self.W - 2 * PAD, self.tiny, fill=MUTED) - 12

    def automaton(self) -> None:
        """The Byzantine opponent's Scheme deck, Stash and last Scheme (solo, bot variant)."""
        auto = self.v.get("automaton")
        if not auto:
            return
        d = self.d
        pl = self.players[auto["index"]]
        self.heading(T("Byzantine opponent: %(name)s", name=pl["name"]))
        h = 46
        changed = self.changed("automaton", "last_name") or self.changed("automaton", "stash")
        self.outline(PAD, self.y, self.W - 2 * PAD, h, changed)
        last = auto.get("last_name") or T("none yet")
        if auto["future"]:
            said = T("Scheme deck %(deck)s, %(future)s Future Schemes set aside · Stash "
                     "%(stash)s · Last Scheme: %(last)s", deck=auto["deck"],
                     future=auto["future"], stash=auto["stash"], last=last)
        else:
            said = T("Scheme deck %(deck)s · Stash %(stash)s · Last Scheme: %(last)s",
                     deck=auto["deck"], stash=auto["stash"], last=last)
        text = self.s(said)
        level = auto.get("level_name") or auto["level"]
        with d.group(title=self.s(fmt("%(name)s (%(level)s): %(text)s", name=pl["name"],
                                      level=level, text=said)), highlight=changed):
            d.rect(PAD, self.y, self.W - 2 * PAD, h, fill="#ECECEC", stroke=INK, rx=6)
            self.worker(PAD + 18, self.y + 24, colour(pl), s=20)
            self.lines(PAD + 36, self.y + 19, text, self.W - 2 * PAD - 46, 12)
        self.y += h

    def tableau(self, q: int) -> None:
        """One player's board: resources, Debts, Workers, captures, Apprentices,
        Buildings, the hand (own only) and the score lines."""
        d, pl = self.d, self.players[q]
        own = q == self.seat
        scores = self.v.get("scores") or {}
        top = self.y + 14
        suffix = (" " + self.s(T("(you)")) if own else "") + \
            f" · {self.s(self.colour_word(pl))}"
        limit = 16 if self.email else 28
        title = clip(pl["name"], limit) + suffix
        if self.phone:  # the name cut to leave room for the VP
            room = self.W - 2 * PAD - 30 - (100 if scores.get("totals") else 0)
            title = clip_to(pl["name"], room - span(suffix, 15) * 1.12, 15, bold=True) + \
                suffix
        if pl.get("character") and not self.email:  # an email says it below
            title += f" · {self.s(pl['character'])}"
        d.rect(PAD, top, 8, 26, fill=colour(pl), stroke=None)
        d.text(PAD + 16, top + 20, title, size=15, weight="bold")
        if scores.get("totals"):
            vp = self.vp(scores["totals"][q], now=not scores.get("final"))
            d.text(self.W - PAD - 10, top + 20, self.s(vp), size=15,
                   anchor="end", weight="bold")
        self.y = top
        h = self._tableau_body(q) + 8
        # The frame goes on top of the contents (stroke only), so nothing is drawn twice.
        d.rect(PAD, top, 8, h, fill=colour(pl), stroke=None)
        d.rect(PAD, top, self.W - 2 * PAD, h, fill="none", stroke=colour(pl), stroke_width=3, rx=8)
        self.y = top + h

    def _tableau_body(self, q: int) -> float:
        """Draw a tableau's contents below ``self.y``; returns their height."""
        v, pl, d = self.v, self.players[q], self.d
        own = q == self.seat
        top = self.y
        y = top + 30
        x = PAD + 16.0
        if pl.get("character"):
            from games.architects.cards import characters
            ability = characters().get(pl["character"], {}).get("ability", "")
            y = self.lines(x, y + 4, fmt("%(name)s: %(ability)s", name=pl["character"],
                                         ability=ability), self.W - 2 * PAD - 30,
                           11, fill=MUTED) - 2
        # Resources (a phone sets each as wide as its count and wraps them).
        for kind in (*RESOURCES, "virtue"):
            n = pl[kind]
            wide = 21 + 9 * len(str(n)) if self.phone else 50
            if self.phone and x > PAD + 16 and x + wide > self.W - PAD - 6:
                x, y = PAD + 16.0, y + 26
            changed = self.changed("players", q, kind)
            said = T("Virtue %(n)s", n=n) if kind == "virtue" else \
                fmt("%(n)s %(what)s", n=n, what=words.resource_title(kind))
            with d.group(title=self.s(said), highlight=changed):
                if changed:
                    d.rect(x - 3, y, wide, 22, fill=HIGHLIGHT, stroke=None, rx=4)
                self.resource(x, y + 4, kind, s=15)
                d.text(x + 19, y + 17, n, size=14, weight="bold")
            x += wide + 10 if self.phone else 52
        y += 28
        x = PAD + 16.0
        # Debts, Workers, hand, Cathedral.
        changed = self.changed("players", q, "debts") or \
            self.changed("players", q, "paid_debts")
        debts = P("%(n)s Debt (%(paid)s paid)", "%(n)s Debts (%(paid)s paid)", pl["debts"],
                  paid=pl["paid_debts"])
        with d.group(target="mine:debts" if own else None, highlight=changed,
                     title=self.s(T("%(debts)s, %(paid)s paid", debts=P(
                         "%(n)s unpaid Debt", "%(n)s unpaid Debts", pl["debts"]),
                         paid=pl["paid_debts"]))):
            if own:
                self.hit(x - 3, y - 2, 130, 22)
            if changed:
                d.rect(x - 3, y - 2, 130, 22, fill=HIGHLIGHT, stroke=None, rx=4)
            d.rect(x, y + 2, 16, 14, fill="#444444", stroke=None, rx=2)
            d.text(x + 8, y + 13, "D", size=self.tiny, anchor="middle", fill="#FFFFFF",
                   weight="bold")
            d.text(x + 21, y + 14, self.s(debts), size=12)
        # a phone: room for "14 Debts (0 paid)"; longer words push the rest right
        x += (150 if self.phone else 134) + self.longer(debts, 12)
        said = T("%(n)s in supply", n=pl["workers"])
        supply = self.s(said)
        if self.longer(said, 12) and x + 16 + span(supply, 12) > self.W - PAD - 4:
            x, y = PAD + 16.0, y + 24  # a longer language: the next line
        with d.group(title=self.s(T("%(workers)s in supply",
                                    workers=words.workers(pl["workers"])))):
            self.worker(x + 6, y + 10, colour(pl), s=15)
            d.text(x + 16, y + 14, supply, size=12)
        x += 104 + self.longer(said, 12)
        hand = pl.get("hand_count", len(pl.get("hand") or []))
        in_hand_said = T("%(n)s in hand", n=hand)
        in_hand = self.s(in_hand_said)

        def hand_count(x: float, y: float) -> None:
            with d.group(title=self.s(T("%(cards)s in hand",
                                        cards=words.building_cards(hand))),
                         highlight=self.changed("players", q, "hand_count")):
                self.resource(x, y + 2, "building_cards", s=15)
                d.text(x + 16, y + 14, in_hand, size=12)

        if not pl.get("bot") and not self.phone:  # a phone has no room: with the Prison
            if self.longer(in_hand_said, 12) and x + 16 + span(in_hand, 12) > self.W - PAD - 4:
                x, y = PAD + 16.0, y + 24  # a longer language: the next line
            hand_count(x, y)
            x += 88 + self.longer(in_hand_said, 12)
        if not self.email:  # an email has no room: with the Prison, below
            said = T("Cathedral %(n)s", n=pl["cathedral"])
            if self.longer(said, 12) and x + span(self.s(said), 12) > self.W - PAD - 4:
                x, y = PAD + 16.0, y + 24  # a longer language: the next line
            d.text(x, y + 14, self.s(said), size=12)
        y += 24
        # Captured Workers on this board.
        caught = [(c, n) for c, n in enumerate(pl["captured"]) if n]
        changed = self.changed("players", q, "captured")
        with d.group(target="mine:captured" if own else None, highlight=changed,
                     title=self.s(T("Captured Workers on this board: %(who)s",
                                    who=self._colour_counts(pl["captured"])))):
            if own:
                self.hit(PAD + 13, y - 2, 300, 22)
            if changed:
                d.rect(PAD + 13, y - 2, 300, 22, fill=HIGHLIGHT, stroke=None, rx=4)
            label = T("Captured:")
            d.text(PAD + 16, y + 14, self.s(label), size=12)
            # a phone: clear of "Captured:" (a longer word: further right)
            cx = PAD + (94.0 if self.phone else 84.0) + self.longer(label, 12)
            for c, n in caught:
                self.worker(cx, y + 10, colour(self.players[c]), s=15)
                d.text(cx + 10, y + 15, f"×{n}", size=12, weight="bold")
                cx += 40
            if not caught:
                d.text(cx, y + 14, self.s(T("none")), size=12, fill=MUTED)
        prisoners = v["prison"][q]
        if self.email:
            y += 24
            x = PAD + 16.0
            if self.phone and not pl.get("bot"):
                hand_count(x, y)
                x += 88 + self.longer(in_hand_said, 12)
            said = T("In Prison: %(n)s · Cathedral %(level)s", n=prisoners,
                     level=pl["cathedral"])
            if self.longer(said, 12) and x > PAD + 16 and \
                    x + span(self.s(said), 12) > self.W - PAD - 6:
                x, y = PAD + 16.0, y + 24  # a longer language: the next line
            d.text(x, y + 14, self.s(said), size=12)
        else:
            d.text(PAD + 320, y + 14, self.s(T("In Prison: %(n)s", n=prisoners)), size=12)
        y += 26
        # Apprentices.
        if pl["apprentices"] or not pl.get("bot"):
            y = self._apprentices(q, y)
        if pl["buildings"] or not pl.get("bot"):
            y = self._buildings(q, y)
        if own and pl.get("hand"):
            d.text(PAD + 16, y + 14, self.s(T("Your hand")), size=13, weight="bold")
            self.y = y + 20
            w = (self.W - 2 * PAD - 40) / 2
            cards = pl["hand"]
            for i in range(0, len(cards), 2):
                hs = [self.building_card(PAD + 16 + k * (w + 8), self.y, w, cid,
                                         f"card:{cid}") for k, cid in enumerate(cards[i:i + 2])]
                self.y += max(hs) + 6
            y = self.y
        lines = (v.get("scores") or {}).get("lines")
        score = self.s(T("Score:"))
        if lines and self.phone:  # a line never parts a score from its name
            out, line = [], score
            for item in self._score_text(lines[q]).split(" · "):
                joined = f"{line} {item}" if line == score else f"{line} · {item}"
                if wrap(joined, self.W - 2 * PAD - 30, 11) == [joined]:
                    line = joined
                else:
                    out.append(line + " ·")
                    line = item
            y += 14
            for text in [*out, line]:
                d.text(PAD + 16, y, text, size=11, fill=MUTED)
                y += 13.2
            y -= 6
        elif lines:
            y = self.lines(PAD + 16, y + 14, score + " " + self._score_text(lines[q]),
                           self.W - 2 * PAD - 30, 11, fill=MUTED) - 6
        return y - top

    def _score_text(self, lines: dict[str, int]) -> str:
        """'Buildings 12 · Cathedral 4 · Debts -2 ...'."""
        names = {k: self.s(name) for k, name in SCORE_NAMES.items()}
        return " · ".join(f"{names.get(k, k)} {v:+d}" if v < 0 else f"{names.get(k, k)} {v}"
                          for k, v in lines.items())

    def _apprentices(self, q: int, y: float) -> float:
        """A player's hired Apprentices from ``y``; returns the y below them."""
        d, pl = self.d, self.players[q]
        changed = self.changed("players", q, "apprentices")
        d.text(PAD + 16, y + 12, self.s(T("Apprentices (%(n)s)", n=len(pl["apprentices"]))),
               size=12, weight="bold")
        y += 18
        if not pl["apprentices"]:
            d.text(PAD + 16, y + 10, self.s(T("none")), size=11, fill=MUTED)
            return y + 16
        w, h, gap = 106.0, 40.0, 6
        if self.phone:  # two a line, as wide as that allows
            w = (self.W - 2 * PAD - 24 - gap) / 2
        per_row = int((self.W - 2 * PAD - 24 + gap) // (w + gap))
        prev = set()
        if changed and self.prev is not None:
            try:
                prev = set(self.prev["players"][q]["apprentices"])
            except (KeyError, IndexError, TypeError):
                prev = set()
        for i, cid in enumerate(pl["apprentices"]):
            x = PAD + 16 + (i % per_row) * (w + gap)
            cy = y + (i // per_row) * (h + gap)
            card = apprentice(cid)
            new = changed and cid not in prev
            self.outline(x, cy, w, h, new)
            with d.group(target=f"app:{cid}", title=self.s(presentation.apprentice_details(cid)),
                         highlight=new):
                d.rect(x, cy, w, h, fill=CARD, stroke=INK, rx=4)
                name = self.s(card["name"])
                if self.translated(card["name"]):  # another language: cut to fit the card
                    name = clip_to(name, w - 8, 11, bold=True)
                d.text(x + 5, cy + 15, name, size=11, weight="bold")
                self.skills(x + 5, cy + 21, card["skills"], s=13)
        rows = (len(pl["apprentices"]) + per_row - 1) // per_row
        return y + rows * (h + gap)

    def _buildings(self, q: int, y: float) -> float:
        """A player's constructed Buildings from ``y``; returns the y below them."""
        d, pl = self.d, self.players[q]
        changed = self.changed("players", q, "buildings")
        vp = sum(building(c)["vp"] for c in pl["buildings"])
        d.text(PAD + 16, y + 12, self.s(T("Buildings (%(n)s, %(vp)s VP printed)",
                                          n=len(pl["buildings"]), vp=vp)),
               size=12, weight="bold")
        y += 18
        if not pl["buildings"]:
            d.text(PAD + 16, y + 10, self.s(T("none")), size=11, fill=MUTED)
            return y + 16
        w, h, gap = 136.0, 26.0, 6
        if self.phone:  # two a line, as wide as that allows
            w = (self.W - 2 * PAD - 24 - gap) / 2
        per_row = int((self.W - 2 * PAD - 24 + gap) // (w + gap))
        prev = set()
        if changed and self.prev is not None:
            try:
                prev = set(self.prev["players"][q]["buildings"])
            except (KeyError, IndexError, TypeError):
                prev = set()
        for i, cid in enumerate(pl["buildings"]):
            x = PAD + 16 + (i % per_row) * (w + gap)
            cy = y + (i // per_row) * (h + gap)
            card = building(cid)
            new = changed and cid not in prev
            self.outline(x, cy, w, h, new)
            with d.group(title=self.s(presentation.building_details(cid)), highlight=new):
                d.rect(x, cy, w, h, fill=CARD, stroke=INK, rx=4)
                vp_text = self.s(self.vp(card["vp"]))
                name = self.s(card["name"])
                if self.phone:
                    name = clip_to(name, w - 44, 11, bold=True)
                elif self.translated(card["name"]):  # another language: leave the VP room
                    name = clip_to(name, w - 14 - span(vp_text, 11), 11, bold=True)
                d.text(x + 5, cy + 17, name, size=11, weight="bold")
                d.text(x + w - 5, cy + 17, vp_text, size=11, anchor="end")
        rows = (len(pl["buildings"]) + per_row - 1) // per_row
        return y + rows * (h + gap)

    def legend(self) -> None:
        """What the icons mean, once."""
        x = float(PAD)
        y = self.y + 6
        # laid out for the English words: a longer word pushes the rest right, and what
        # would run past the edge then goes to the next line
        def more(word: Any) -> float:  # the width a said word's letters add to its length's
            said, english = self.s(word), str(word)
            return max(0.0, span(said, 11) - span(english, 11) - 6.2 * (len(said) - len(english)))

        items = [(k, words.resource_title(k)) for k in RESOURCES]
        items += [("virtue", T("Virtue")), ("building_cards", T("Building cards"))]
        for kind, word in items:
            name, extra = self.s(word), more(word)
            if self.longer(word, 11) and x > PAD and x + 15 + span(name, 11) > self.W - PAD:
                x, y = float(PAD), y + 18
            self.resource(x, y, kind, s=12)
            self.d.text(x + 15, y + 10, name, size=11, fill=MUTED)
            x += 24 + 6.2 * len(name) + extra
        x, y = float(PAD), y + 18
        for skill in SKILL_FILL:
            x = self.skills(x, y - 1, [skill], s=13)
            name = self.s(words.skill(skill))
            self.d.text(x, y + 10, name, size=11, fill=MUTED)
            x += 6.2 * len(name) + 12 + more(words.skill(skill))
        note = T("(Apprentice skills; a Building may need them)")
        if self.longer(note, 11) and x + 6 + span(self.s(note), 11) > self.W - PAD:
            x, y = float(PAD) - 6, y + 16  # a longer language: the next line
        self.d.text(x + 6, y + 10, self.s(note), size=11, fill=MUTED)
        self.y = y + 10

    # -- the whole picture -----------------------------------------------------------------
    def draw(self) -> str:
        """The whole picture, top to bottom, as SVG text."""
        self.header()
        self.draft()
        self.drawn()
        self.board()
        self.market()
        if self.panels:  # an email leaves these to the page (its status line counts
            self.workshop()  # the Guildhall; each tableau says its Cathedral level)
            self.guildhall_and_cathedral()
        self.virtue_track()
        self.automaton()
        self.heading(T("Players"))
        if not self.email:
            self.legend()
        order = list(range(len(self.players)))
        if self.seat is not None:
            order.remove(self.seat)
            order.insert(0, self.seat)
        for q in order:
            self.tableau(q)
        self.d.height = int(self.y + PAD)
        return self.d.render()


def draw(view: View, table: dict[str, Any], say: Say = str) -> str:
    """The table as ``view`` shows it (see :meth:`games.protocol.Game.picture`), every
    word said by ``say`` (the reader's language; the default: English)."""
    return Picture(view, table, say).draw()

