"""A small SVG writer for the games' pictures (pure: strings in, a string out).

Every text and attribute value is escaped here, so a player's name can never break out
of the drawing (the page inlines the SVG).  Pictures use simple shapes, icons made of
shapes, and text; no images, scripts or external references, so that the same document
renders in a browser and, turned into a PNG on the worker, in an email.

    d = Drawing(800, 600, title="King's Guild, seen by Ann")
    with d.group(target="room:forge", title="Forge: 3 gold"):
        d.rect(10, 10, 80, 40, fill=PALETTE["gold"])
        d.text(50, 35, "Forge", anchor="middle")
    svg = d.render()
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from xml.sax.saxutils import escape, quoteattr

# Seat colours that stay apart for the common kinds of colour blindness (Okabe-Ito).
SEAT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9"]
INK = "#222222"
MUTED = "#777777"
PAPER = "#FBF7EF"
HIGHLIGHT = "#FFD54F"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def seat_colour(seat: int) -> str:
    """The colour a seat is drawn in, everywhere."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _attrs(attrs: dict[str, object]) -> str:
    parts = []
    for name, value in attrs.items():
        if value is None or value is False:
            continue
        name = _NAMES.get(name) or _NAMES.setdefault(name, name.rstrip("_").replace("_", "-"))
        parts.append(f' {name}="{_value(name if value is True else value)}"')
    return "".join(parts)


_NAMES: dict[str, str] = {}
_SPECIAL = frozenset('&<>"')


def _value(value: object) -> str:
    """An attribute value: numbers as short text, strings escaped for double quotes."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    text = str(value)
    if _SPECIAL.isdisjoint(text):
        return text
    return escape(text, {'"': "&quot;"})


class Drawing:
    """An SVG document built shape by shape."""

    def __init__(self, width: int, height: int, title: str = "", description: str = "",
                 tooltips: bool = True) -> None:
        self.width, self.height = width, height
        self._parts: list[str] = []
        self._title, self._description = title, description
        self.tooltips = tooltips  # False: groups get no <title> (an email's PNG shows none)

    # -- shapes --------------------------------------------------------------------------
    def _shape(self, tag: str, attrs: dict[str, object]) -> None:
        self._parts.append(f"<{tag}{_attrs(attrs)}/>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str | None = INK, rx: float = 0, **attrs: object) -> None:
        self._shape("rect", dict(x=x, y=y, width=w, height=h, rx=rx or None, fill=fill,
                                 stroke=stroke, **attrs))

    def circle(self, cx: float, cy: float, r: float, fill: str = "none",
               stroke: str | None = INK, **attrs: object) -> None:
        self._shape("circle", dict(cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, **attrs))

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK,
             **attrs: object) -> None:
        self._shape("line", dict(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **attrs))

    def polygon(self, points: list[tuple[float, float]], fill: str = "none",
                stroke: str | None = INK, **attrs: object) -> None:
        pts = " ".join(f"{_value(float(x))},{_value(float(y))}" for x, y in points)
        self._shape("polygon", dict(points=pts, fill=fill, stroke=stroke, **attrs))

    def text(self, x: float, y: float, content: object, size: float = 14,
             anchor: str = "start", fill: str = INK, weight: str | None = None,
             **attrs: object) -> None:
        """Text at (x, y) (the baseline); ``anchor`` is start, middle or end."""
        style = dict(x=x, y=y, font_size=size, text_anchor=anchor, fill=fill,
                     font_weight=weight, **attrs)
        text = str(content)
        if not _SPECIAL.isdisjoint(text):
            text = escape(text)
        self._parts.append(f"<text{_attrs(style)}>{text}</text>")

    @contextmanager
    def group(self, target: str | None = None, title: str | None = None,
              highlight: bool = False, **attrs: object) -> Iterator[None]:
        """Shapes drawn inside belong together: ``target`` makes them one clickable
        place (``data-target``), ``title`` is its tooltip and text alternative."""
        extra = dict(attrs)
        if target is not None:
            extra["data_target"] = target
            extra["class_"] = " ".join(filter(None, [str(extra.get("class_", "")), "target"]))
            extra.setdefault("tabindex", 0)
            extra.setdefault("role", "button")
        if highlight:
            extra["class_"] = " ".join(filter(None, [str(extra.get("class_", "")), "changed"]))
        self._parts.append(f"<g{_attrs(extra)}>")
        if title and self.tooltips:
            self._parts.append(f"<title>{escape(title)}</title>")
        try:
            yield
        finally:
            self._parts.append("</g>")

    # -- output --------------------------------------------------------------------------
    def render(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {self.height}"'
                f' width="{self.width}" height="{self.height}" role="img"'
                f' font-family={quoteattr(FONT)}>')
        meta = ""
        if self._title:
            meta += f"<title>{escape(self._title)}</title>"
        if self._description:
            meta += f"<desc>{escape(self._description)}</desc>"
        background = f'<rect width="{self.width}" height="{self.height}" fill="{PAPER}"/>'
        return head + meta + background + "".join(self._parts) + "</svg>"


EMAIL_WIDTH = 400  # units: an email picture's width (a phone shows it ~340 px wide)


NARROW = ("email", "phone")  # the media drawn in the narrow layout


Say = Callable[[str], str]
"""How a picture says a text in its reader's language: ``say(text)`` is the text in that
language when ``text`` is a game's :class:`games.text.Text` (the edge passes
``lambda t: worker.i18n.translate(t, language)``), else ``text`` itself.  The default,
``str``, draws English: a game that takes no ``say`` draws as before."""


def for_email(table: dict) -> bool:
    """Whether the picture is drawn in the narrow layout, for a phone: in an email
    (``table["medium"] == "email"``) or on the game page below a phone's width
    (``"phone"``: the same layout, with every shape a move acts on)."""
    return table.get("medium") in NARROW


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 coin``, ``2 coins`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def header(d: Drawing, table: dict, scores: dict[int, object] | None = None,
           y: float = 22) -> float:
    """The strip every picture starts with: each seat's name in its colour, who is to
    act (▶ marked), public scores if given, and the deadline.  Returns the next free y."""
    names = table.get("names") or []
    to_act = set(table.get("to_act") or [])
    viewer = table.get("seat")
    x = 10.0
    for seat, name in enumerate(names):
        label = str(name) + (" (you)" if seat == viewer else "")
        if scores is not None and seat in scores:
            label += f": {scores[seat]}"
        colour = seat_colour(seat)
        if x > 10 and x + 40 + 8 * len(label) > d.width:  # a narrow picture: next line
            x, y = 10.0, y + 22
        if seat in to_act:
            d.polygon([(x, y - 11), (x, y + 1), (x + 10, y - 5)], fill=colour, stroke=None)
        d.circle(x + 18, y - 5, 6, fill=colour, stroke=None)
        d.text(x + 28, y, label, size=14, weight="bold" if seat in to_act else None)
        x += 40 + 8 * len(label)
    deadline = table.get("deadline")
    if deadline and d.width < 700:  # no room beside the names: a line of its own
        y += 20
        d.text(10, y, f"Deadline: {deadline}", size=13, fill=MUTED)
    elif deadline:
        d.text(d.width - 10, y, f"Deadline: {deadline}", size=13, anchor="end", fill=MUTED)
    return y + 14
