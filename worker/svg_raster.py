"""The pictures' SVG drawn straight into a Pillow image: the email picture's fast path.

The games draw with :class:`games.svg.Drawing`, which writes a small subset of SVG:
``rect`` (``rx``, a stroke, a dash pattern, ``opacity``), ``circle``, ``line``,
``polygon``, ``text`` (size, weight, anchor, fill; no ``tspan``) and ``g`` (translated,
carrying only data for the page), on a canvas whose ``viewBox`` is its size.  This
module draws exactly that subset with Pillow (FreeType for text), 5-10x faster than
resvg, which turns every glyph into a path and fills it.  Anything outside the subset
raises :class:`Unsupported`, and the caller renders that SVG with resvg instead, so a
new kind of shape is never drawn wrong, only drawn slower.

Like resvg with ``shape_rendering="crisp_edges"`` (the setting the emails used), shapes
are drawn without antialiasing and only text is antialiased.  Text is set in DejaVu Sans
(the first family the pictures ask for), hinted by FreeType: at 11-14 px it is sharper
than resvg's unhinted outlines.  A character DejaVu lacks is drawn with the first
fallback font that has it (Noto Sans of that script, shaped by HarfBuzz when Pillow has
Raqm; Noto Color Emoji in colour), as resvg falls back.

Each distinct text (string, font, size) is laid out and rasterised once per process
(a bounded cache of glyph masks): most of a picture's labels recur from one email to
the next.  Pure computation on strings and fonts: deterministic, no IO but reading the
font files once.
"""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont, features

SVG_NS = "{http://www.w3.org/2000/svg}"
MASKS_KEPT = 20_000  # rasterised texts kept per process (a few KiB each at most)
EMOJI_PPEM = 109  # the one size Noto Color Emoji's bitmaps come in
PAPER = (0xFB, 0xF7, 0xEF)  # what a thin stroke without a fill is mixed with (games.svg)


class Unsupported(ValueError):
    """The SVG uses something this rasteriser does not draw: render it with resvg."""


# -- fonts -----------------------------------------------------------------------------


def _cmap(path: str) -> frozenset[int]:
    """The code points ``path`` (a TrueType/OpenType file; the first font of a
    collection) has a glyph for, from its ``cmap`` table (formats 4 and 12)."""
    with open(path, "rb") as f:
        data = f.read()
    base = 0
    if data[:4] == b"ttcf":
        base = struct.unpack_from(">I", data, 12)[0]
    count = struct.unpack_from(">H", data, base + 4)[0]
    cmap = None
    for i in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, base + 12 + 16 * i)
        if tag == b"cmap":
            cmap = offset
    if cmap is None:
        return frozenset()
    tables = struct.unpack_from(">H", data, cmap + 2)[0]
    best: tuple[int, int] | None = None  # (preference, offset)
    for i in range(tables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        fmt = struct.unpack_from(">H", data, cmap + offset)[0]
        rank = {(3, 10, 12): 0, (0, 4, 12): 0, (0, 6, 12): 0, (3, 1, 4): 1, (0, 3, 4): 1,
                (0, 4, 4): 2}.get((platform, encoding, fmt))
        if rank is None and fmt in (4, 12) and platform in (0, 3):
            rank = 3
        if rank is not None and (best is None or rank < best[0]):
            best = (rank, cmap + offset)
    if best is None:
        return frozenset()
    at = best[1]
    points: set[int] = set()
    if struct.unpack_from(">H", data, at)[0] == 12:
        groups = struct.unpack_from(">I", data, at + 12)[0]
        for g in range(groups):
            start, end, _ = struct.unpack_from(">III", data, at + 16 + 12 * g)
            points.update(range(start, end + 1))
    else:
        segments = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segments}H", data, at + 14)
        starts = struct.unpack_from(f">{segments}H", data, at + 16 + 2 * segments)
        for start, end in zip(starts, ends, strict=True):
            if start != 0xFFFF:
                points.update(range(start, end + 1))
    return frozenset(points)


class Fonts:
    """The fonts text is drawn with: DejaVu Sans (regular and bold), then fallbacks in
    order (their coverage read lazily, the first time a character needs one)."""

    def __init__(self, regular: str, bold: str | None, fallbacks: Sequence[str] = ()) -> None:
        self.regular, self.bold = regular, bold or regular
        self.fallbacks = [f for f in fallbacks if "Emoji" not in f]
        self.emoji = next((f for f in fallbacks if "Emoji" in f), None)
        self.raqm = features.check_feature("raqm")
        self._covers: dict[str, frozenset[int]] = {}
        self._owner: dict[str, str | None] = {}
        self._basic = self.covers(self.regular)

    def covers(self, path: str) -> frozenset[int]:
        found = self._covers.get(path)
        if found is None:
            try:
                found = _cmap(path)
            except (OSError, struct.error):
                found = frozenset()
            self._covers[path] = found
        return found

    def owner(self, char: str) -> str | None:
        """The fallback font (path) that draws ``char``, None for DejaVu's own."""
        if ord(char) in self._basic:
            return None
        if char not in self._owner:
            found: str | None = None
            if self.emoji and ord(char) in self.covers(self.emoji) and ord(char) > 0x2000:
                found = self.emoji  # emoji in colour, before any monochrome fallback
            else:
                found = next((f for f in self.fallbacks if ord(char) in self.covers(f)), None)
                if found is None and self.emoji and ord(char) in self.covers(self.emoji):
                    found = self.emoji
            self._owner[char] = found
        return self._owner[char]

    def runs(self, text: str) -> list[tuple[str | None, str]]:
        """``text`` cut where the font drawing it changes: ``[(fallback or None, run)]``.
        Joiners, variation selectors and emoji modifiers stay in the run before them."""
        if text.isascii():
            return [(None, text)]
        runs: list[tuple[str | None, str]] = []
        for char in text:
            code = ord(char)
            joins = (code in (0x200D, 0x20E3) or 0xFE00 <= code <= 0xFE0F
                     or 0x1F3FB <= code <= 0x1F3FF or 0xE0020 <= code <= 0xE007F)
            font = runs[-1][0] if joins and runs else self.owner(char)
            if char == " " and runs and runs[-1][0] != self.emoji:
                font = runs[-1][0]  # a space inside a name in another script: one run
            if runs and runs[-1][0] == font:
                runs[-1] = (font, runs[-1][1] + char)
            else:
                runs.append((font, char))
        return runs


_LTR = "ltr" if features.check_feature("raqm") else None  # SVG's default direction
_JOINING = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def _shaped(text: str) -> bool:
    """Whether ``text`` needs shaping (HarfBuzz, through Raqm) even in DejaVu Sans: its
    Hebrew and Arabic letters join and run right to left."""
    return not text.isascii() and _JOINING.search(text) is not None


@cache
def _truetype(path: str, size: float, complex_script: bool) -> ImageFont.FreeTypeFont:
    engine = (ImageFont.Layout.RAQM if complex_script and features.check_feature("raqm")
              else ImageFont.Layout.BASIC)
    return ImageFont.truetype(path, size, layout_engine=engine)


@cache
def _corners(radius: int, width: int | None) -> tuple[Image.Image, ...]:
    """The four corners (top left, top right, bottom left, bottom right), ``radius``
    pixels square, of a rounded rectangle filled (``width`` None) or outlined: masks."""
    side = 2 * radius + 2
    whole = Image.new("L", (side, side), 0)
    if width is None:
        ImageDraw.Draw(whole).rounded_rectangle((0, 0, side - 1, side - 1), radius, fill=255)
    else:
        ImageDraw.Draw(whole).rounded_rectangle((0, 0, side - 1, side - 1), radius,
                                                outline=255, width=width)
    far = side - radius
    return tuple(whole.crop((x, y, x + radius, y + radius))
                 for y in (0, far) for x in (0, far))


# -- colours and numbers ----------------------------------------------------------------

_NAMED = {"white": (255, 255, 255), "black": (0, 0, 0), "red": (255, 0, 0),
          "green": (0, 128, 0), "blue": (0, 0, 255), "gray": (128, 128, 128),
          "grey": (128, 128, 128), "yellow": (255, 255, 0), "orange": (255, 165, 0)}


@cache
def _colour(value: str | None, default: str | None = None) -> tuple[int, int, int] | None:
    value = (value if value is not None else default or "none").strip()
    if value == "none":
        return None
    if value.startswith("#") and len(value) == 7:
        return (int(value[1:3], 16), int(value[3:5], 16), int(value[5:7], 16))
    if value.startswith("#") and len(value) == 4:
        return tuple(int(c * 2, 16) for c in value[1:])  # type: ignore[return-value]
    if value in _NAMED:
        return _NAMED[value]
    raise Unsupported(f"colour {value!r}")


def _thin(stroke: tuple[int, int, int] | None, under: tuple[int, int, int] | None,
          width: float) -> tuple[int, int, int] | None:
    """A stroke under a pixel wide, drawn one pixel wide: its colour mixed with what is
    under it in proportion, as an antialiased renderer shows it (resvg's crisp edges
    dropped such strokes on whole sides of a shape)."""
    if stroke is None or width >= 1:
        return stroke
    base, width = under or PAPER, max(width, 0.75)  # mixed, yet plain to see
    return tuple(round(b + (s - b) * width) for s, b in zip(stroke, base, strict=True))  # type: ignore[return-value]


def _num(value: str | None, default: float = 0.0) -> float:
    if value is None:
        return default
    try:
        return float(value)
    except ValueError:
        raise Unsupported(f"number {value!r}") from None


_TRANSLATE = re.compile(r"\s*translate\(\s*([-\d.eE]+)(?:[\s,]+([-\d.eE]+))?\s*\)\s*")
_VIEWBOX = re.compile(r"\s*0[\s,]+0[\s,]+([\d.]+)[\s,]+([\d.]+)\s*")

# attributes each element may carry (others: Unsupported); ``g`` data for the page only
_COMMON = {"class", "data-target", "role", "tabindex", "id", "aria-label", "aria-hidden",
           "pointer-events"}  # pointer-events: where the page's clicks land, nothing drawn
_ALLOWED = {
    "rect": {"x", "y", "width", "height", "rx", "ry", "fill", "stroke", "stroke-width",
             "stroke-dasharray", "opacity"},
    "circle": {"cx", "cy", "r", "fill", "stroke", "stroke-width"},
    "line": {"x1", "y1", "x2", "y2", "stroke", "stroke-width"},
    "polygon": {"points", "fill", "stroke", "stroke-width"},
    "text": {"x", "y", "font-size", "text-anchor", "fill", "font-weight", "font-family"},
    "g": {"transform"},
}
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}


# -- the canvas -------------------------------------------------------------------------


class Canvas:
    """One picture being drawn: an RGB image at ``scale`` pixels per SVG unit."""

    def __init__(self, fonts: Fonts, masks: OrderedDict, width: int, height: int,
                 scale: float, paper: tuple[int, int, int]) -> None:
        self.fonts, self.masks, self.scale = fonts, masks, scale
        self.image = Image.new("RGB", (width, height), paper)
        self.draw = ImageDraw.Draw(self.image)
        self.core = self.draw.draw

    # shapes: pixel boxes from unit boxes, edges rounded to the pixel grid (crisp edges)
    def _box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        s = self.scale
        return (round(x0 * s), round(y0 * s), round(x1 * s) - 1, round(y1 * s) - 1)

    def _width(self, stroke_width: float) -> int:
        return max(1, round(stroke_width * self.scale))

    def rect(self, a: dict[str, str], dx: float, dy: float) -> None:
        x, y = _num(a.get("x")) + dx, _num(a.get("y")) + dy
        w, h = _num(a.get("width")), _num(a.get("height"))
        if w <= 0 or h <= 0:
            return
        rx = _num(a.get("rx", a.get("ry")))
        if "ry" in a and _num(a["ry"]) != rx:
            raise Unsupported("elliptic corners")
        rx = min(rx, w / 2, h / 2)
        fill, stroke = _colour(a.get("fill"), "#000000"), _colour(a.get("stroke"))
        opacity = _num(a.get("opacity"), 1.0)
        s = self.scale
        if opacity < 1.0:
            grow = _num(a.get("stroke-width"), 1.0) if stroke is not None else 0.0
            box = self._box(x - grow, y - grow, x + w + grow, y + h + grow)
            plain = {k: v for k, v in a.items() if k != "opacity"}
            self._translucent(box, lambda c, ox, oy: c.rect(plain, dx - ox, dy - oy), opacity)
            return
        if fill is not None:
            box = self._box(x, y, x + w, y + h)
            if box[2] >= box[0] and box[3] >= box[1]:
                self._rounded(box, rx * s, fill, None)
        if stroke is not None:
            sw = _num(a.get("stroke-width"), 1.0)
            stroke = _thin(stroke, fill, sw * s)
            half = sw / 2
            box = self._box(x - half, y - half, x + w + half, y + h + half)
            width = self._width(sw)
            if box[2] - box[0] < 2 * width or box[3] - box[1] < 2 * width:
                self._rounded(box, (rx + half) * s, stroke, None)
            elif "stroke-dasharray" in a:
                self._dashed(box, a["stroke-dasharray"], width, stroke)
            else:
                self._rounded(box, (rx + half) * s, stroke, width)

    def _rounded(self, box: tuple[int, int, int, int], radius: float,
                 colour: tuple[int, int, int], width: int | None) -> None:
        """A (rounded) rectangle filled (``width`` None) or outlined: bands drawn by
        Pillow's C code and four corners from masks drawn once per radius and width."""
        x0, y0, x1, y1 = box
        ink = self.draw._getink(colour)[0]
        core = self.core
        r = min(int(radius), (x1 - x0 + 1) // 2, (y1 - y0 + 1) // 2)
        if r < 1:
            if width is None:
                core.draw_rectangle(box, ink, 1)
            else:
                core.draw_rectangle(box, ink, 0, width)
            return
        if width is not None and width > r:
            self.draw.rounded_rectangle(box, radius=r, outline=colour, width=width)
            return
        if width is None:
            core.draw_rectangle((x0 + r, y0, x1 - r, y1), ink, 1)
            if y1 - r >= y0 + r:
                core.draw_rectangle((x0, y0 + r, x0 + r - 1, y1 - r), ink, 1)
                core.draw_rectangle((x1 - r + 1, y0 + r, x1, y1 - r), ink, 1)
        else:
            if x1 - r >= x0 + r:
                core.draw_rectangle((x0 + r, y0, x1 - r, y0 + width - 1), ink, 1)
                core.draw_rectangle((x0 + r, y1 - width + 1, x1 - r, y1), ink, 1)
            if y1 - r >= y0 + r:
                core.draw_rectangle((x0, y0 + r, x0 + width - 1, y1 - r), ink, 1)
                core.draw_rectangle((x1 - width + 1, y0 + r, x1, y1 - r), ink, 1)
        top_left, top_right, bottom_left, bottom_right = _corners(r, width)
        core.draw_bitmap((x0, y0), top_left.im, ink)
        core.draw_bitmap((x1 - r + 1, y0), top_right.im, ink)
        core.draw_bitmap((x0, y1 - r + 1), bottom_left.im, ink)
        core.draw_bitmap((x1 - r + 1, y1 - r + 1), bottom_right.im, ink)

    def _dashed(self, box: tuple[int, int, int, int], pattern: str, width: int,
                stroke: tuple[int, int, int]) -> None:
        """A dashed outline (square corners), the dashes laid clockwise from the top
        left corner."""
        dashes = [max(0.0, _num(v)) * self.scale for v in pattern.replace(",", " ").split()]
        if len(dashes) % 2:
            dashes *= 2
        if not dashes or sum(dashes) <= 0.5:
            raise Unsupported("dash pattern")
        x0, y0, x1, y1 = box
        ink = self.draw._getink(stroke)[0]
        sides = [(x0, y0, 1, 0, x1 - x0), (x1 - width + 1, y0, 0, 1, y1 - y0),
                 (x1, y1 - width + 1, -1, 0, x1 - x0), (x0, y1, 0, -1, y1 - y0)]
        i, left, on = 0, dashes[0], True
        for sx, sy, ux, uy, length in sides:
            at = 0.0
            while at < length:
                step = min(left, length - at)
                if on and step > 0:
                    a, b = round(at), max(round(at), round(at + step) - 1)
                    if ux:
                        xa, xb = sorted((sx + ux * a, sx + ux * b))
                        self.core.draw_rectangle((xa, sy, xb, sy + width - 1), ink, 1)
                    else:
                        ya, yb = sorted((sy + uy * a, sy + uy * b))
                        self.core.draw_rectangle((sx, ya, sx + width - 1, yb), ink, 1)
                at += step
                left -= step
                if left <= 1e-9:
                    i = (i + 1) % len(dashes)
                    left, on = dashes[i], not on

    def _translucent(self, box: tuple[int, int, int, int],
                     draw: Callable[[Canvas, float, float], None], opacity: float) -> None:
        """Shapes drawn with ``opacity`` over the pixels in ``box``: drawn on a copy of
        that region (``draw`` gets the region's offset in units), then blended in."""
        x0, y0 = max(0, box[0]), max(0, box[1])
        x1, y1 = min(self.image.width - 1, box[2]), min(self.image.height - 1, box[3])
        if x1 < x0 or y1 < y0:
            return
        region = self.image.crop((x0, y0, x1 + 1, y1 + 1))
        layer = Canvas(self.fonts, self.masks, 1, 1, self.scale, (0, 0, 0))
        layer.image = region.copy()
        layer.draw = ImageDraw.Draw(layer.image)
        layer.core = layer.draw.draw
        draw(layer, x0 / self.scale, y0 / self.scale)
        self.image.paste(Image.blend(region, layer.image, opacity), (x0, y0))

    def circle(self, a: dict[str, str], dx: float, dy: float) -> None:
        cx, cy, r = _num(a.get("cx")) + dx, _num(a.get("cy")) + dy, _num(a.get("r"))
        if r <= 0:
            return
        fill, stroke = _colour(a.get("fill"), "#000000"), _colour(a.get("stroke"))
        sw = _num(a.get("stroke-width"), 1.0) if stroke is not None else 0.0
        stroke = _thin(stroke, fill, sw * self.scale)
        if stroke is not None:
            sw = max(sw, 1 / self.scale)  # a thin ring: one pixel, its colour mixed
            outer = r + sw / 2
            box = self._box(cx - outer, cy - outer, cx + outer, cy + outer)
            if box[2] >= box[0] and box[3] >= box[1]:
                self.draw.ellipse(box, fill=fill, outline=stroke, width=self._width(sw))
        elif fill is not None:
            box = self._box(cx - r, cy - r, cx + r, cy + r)
            if box[2] >= box[0] and box[3] >= box[1]:
                self.draw.ellipse(box, fill=fill)

    def line(self, a: dict[str, str], dx: float, dy: float) -> None:
        stroke = _colour(a.get("stroke"))
        if stroke is None:
            return
        s = self.scale
        p0 = (round((_num(a.get("x1")) + dx) * s), round((_num(a.get("y1")) + dy) * s))
        p1 = (round((_num(a.get("x2")) + dx) * s), round((_num(a.get("y2")) + dy) * s))
        self.draw.line([p0, p1], fill=stroke, width=self._width(_num(a.get("stroke-width"),
                                                                      1.0)))

    def polygon(self, a: dict[str, str], dx: float, dy: float) -> None:
        numbers = [_num(v) for v in (a.get("points") or "").replace(",", " ").split()]
        if len(numbers) < 6 or len(numbers) % 2:
            return
        s = self.scale
        points = [((numbers[i] + dx) * s, (numbers[i + 1] + dy) * s)
                  for i in range(0, len(numbers), 2)]
        fill, stroke = _colour(a.get("fill"), "#000000"), _colour(a.get("stroke"))
        if fill is not None:
            self.draw.polygon(points, fill=fill)
        sw = _num(a.get("stroke-width"), 1.0)
        stroke = _thin(stroke, fill, sw * s)
        if stroke is not None:
            self.draw.polygon(points, outline=stroke,
                              width=self._width(sw))

    # text ------------------------------------------------------------------------------
    def text(self, a: dict[str, str], content: str, dx: float, dy: float) -> None:
        content = " ".join(content.split())  # SVG's default white-space handling
        fill = _colour(a.get("fill"), "#000000")
        if not content or fill is None:
            return
        s = self.scale
        size = _num(a.get("font-size"), 16.0) * s
        if size <= 0:
            return
        weight = (a.get("font-weight") or "normal").strip()
        bold = weight in ("bold", "bolder") or (weight.isdigit() and int(weight) >= 600)
        anchor = _ANCHORS.get((a.get("text-anchor") or "start").strip())
        if anchor is None:
            raise Unsupported("text-anchor")
        x, y = (_num(a.get("x")) + dx) * s, (_num(a.get("y")) + dy) * s
        runs = self.fonts.runs(content)
        if len(runs) == 1 and runs[0][0] is None:
            self._run(self.fonts.bold if bold else self.fonts.regular, _shaped(content),
                      content, size, anchor, x, y, fill)
            return
        # mixed fonts: laid end to end from the start the anchor asks for
        advances = [self._advance(font, bold, run, size) for font, run in runs]
        total = sum(advances)
        x -= total if anchor == "rs" else total / 2 if anchor == "ms" else 0.0
        for (font, run), advance in zip(runs, advances, strict=True):
            if font is not None and font == self.fonts.emoji:
                self._emoji(run, size, x, y)
            elif font is None:
                self._run(self.fonts.bold if bold else self.fonts.regular, _shaped(run), run,
                          size, "ls", x, y, fill)
            else:
                self._run(font, True, run, size, "ls", x, y, fill)
            x += advance

    def _advance(self, font: str | None, bold: bool, run: str, size: float) -> float:
        if font is not None and font == self.fonts.emoji:
            scale = size / EMOJI_PPEM
            return _truetype(font, EMOJI_PPEM, True).getlength(run) * scale
        path = font or (self.fonts.bold if bold else self.fonts.regular)
        shaped = font is not None or _shaped(run)
        return _truetype(path, size, shaped).getlength(run, direction=_LTR if shaped else None)

    def _run(self, path: str, complex_script: bool, run: str, size: float, anchor: str,
             x: float, y: float, fill: tuple[int, int, int]) -> None:
        key = (path, size, anchor, run)
        found = self.masks.get(key)
        if found is None:
            font = _truetype(path, size, complex_script)
            found = font.getmask2(run, "L", anchor=anchor,
                                  direction=_LTR if complex_script else None)
            self.masks[key] = found
            if len(self.masks) > MASKS_KEPT:
                self.masks.popitem(last=False)
        else:
            self.masks.move_to_end(key)
        mask, (ox, oy) = found
        if mask.size[0] and mask.size[1]:
            self.core.draw_bitmap((round(x) + ox, round(y) + oy), mask,
                                  self.draw._getink(fill)[0])

    def _emoji(self, run: str, size: float, x: float, y: float) -> None:
        key = ("emoji", size, run)
        found = self.masks.get(key)
        if found is None:
            font = _truetype(self.fonts.emoji, EMOJI_PPEM, True)  # sequences: HarfBuzz
            left, top, right, bottom = font.getbbox(run, anchor="ls", mode="RGBA")
            big = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)))
            ImageDraw.Draw(big).text((-left, -top), run, font=font, anchor="ls",
                                     embedded_color=True)
            scale = size / EMOJI_PPEM
            w, h = max(1, round(big.width * scale)), max(1, round(big.height * scale))
            found = (big.resize((w, h), Image.Resampling.LANCZOS),
                     (round(left * scale), round(top * scale)))
            self.masks[key] = found
        image, (ox, oy) = found
        self.image.paste(image, (round(x) + ox, round(y) + oy), image)

    # the tree ----------------------------------------------------------------------------
    def walk(self, node: ET.Element, dx: float, dy: float) -> None:
        for child in node:
            tag = child.tag[len(SVG_NS):] if child.tag.startswith(SVG_NS) else child.tag
            if tag in ("title", "desc"):
                continue
            attrs = child.attrib
            allowed = _ALLOWED.get(tag)
            if allowed is None:
                raise Unsupported(f"<{tag}>")
            for name in attrs:
                if name not in allowed and name not in _COMMON:
                    raise Unsupported(f"{tag} {name}")
            if tag == "g":
                tx, ty = 0.0, 0.0
                if "transform" in attrs:
                    move = _TRANSLATE.fullmatch(attrs["transform"])
                    if move is None:
                        raise Unsupported("transform")
                    tx, ty = float(move[1]), float(move[2] or 0)
                self.walk(child, dx + tx, dy + ty)
            elif tag == "text":
                if len(child):
                    raise Unsupported("text with children")
                self.text(attrs, child.text or "", dx, dy)
            else:
                if len(child) and any(not c.tag.endswith(("title", "desc")) for c in child):
                    raise Unsupported(f"<{tag}> with children")
                getattr(self, tag)(attrs, dx, dy)


class Rasteriser:
    """Draws the pictures' SVG with one set of fonts, keeping their laid-out texts."""

    def __init__(self, fonts: Fonts) -> None:
        self.fonts = fonts
        self.masks: OrderedDict[Any, Any] = OrderedDict()

    def render(self, svg: str, width: int | None = None) -> Image.Image:
        """``svg`` as an RGB image ``width`` pixels wide (default: its own width)."""
        try:
            root = ET.fromstring(svg)
        except ET.ParseError as error:
            raise Unsupported(f"not XML: {error}") from None
        if root.tag != f"{SVG_NS}svg":
            raise Unsupported("not an SVG document")
        for name in root.attrib:
            if name not in ("width", "height", "viewBox", "role", "font-family",
                            "aria-label"):
                raise Unsupported(f"svg {name}")
        w, h = _num(root.get("width"), -1), _num(root.get("height"), -1)
        if w <= 0 or h <= 0:
            raise Unsupported("no size")
        box = root.get("viewBox")
        if box is not None:
            size = _VIEWBOX.fullmatch(box)
            if size is None or float(size[1]) != w or float(size[2]) != h:
                raise Unsupported("a viewBox other than the size")
        family = (root.get("font-family") or "DejaVu Sans").split(",")[0].strip().strip("'\"")
        if family not in ("DejaVu Sans", "sans-serif"):
            raise Unsupported(f"font {family}")
        scale = (width / w) if width else 1.0
        pixels = (max(1, round(w * scale)), max(1, math.ceil(h * scale - 1e-6)))
        # black where nothing is drawn, as resvg's transparent pixels turn out in RGB
        canvas = Canvas(self.fonts, self.masks, *pixels, scale, (0, 0, 0))
        canvas.walk(root, 0.0, 0.0)
        return canvas.image
