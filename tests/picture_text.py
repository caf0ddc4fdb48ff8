"""Measuring a picture's words as a reader sees them: each text's box set in DejaVu Sans
(the font the pictures ask for first), the picture's width, its smallest text, and the
texts that overlap.  Shared by the games' phone and German picture tests."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

SVG = "{http://www.w3.org/2000/svg}"
MIN_TEXT = 11.1  # CSS px: picture-zoom.js shows the smallest text at this size on a phone
FITS = 350  # CSS px: a 390 px phone less the page's padding
FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", str(Path.home() / ".fonts"))

Box = tuple[float, float, float, float]


def width(svg: str) -> float:
    """The picture's width in its own units."""
    return float(ET.fromstring(svg).get("width"))


def texts(svg: str) -> list[ET.Element]:
    """The picture's ``<text>`` elements that say something."""
    return [t for t in ET.fromstring(svg).iter(f"{SVG}text") if (t.text or "").strip()]


def smallest_text(svg: str) -> float:
    return min(float(s) for s in re.findall(r'<text[^>]* font-size="([\d.]+)"', svg))


@cache
def font(bold: bool, size: float):
    """DejaVu Sans (bold) at ``size`` through Pillow, or None if it is not installed."""
    from PIL import ImageFont
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        found = next(Path(folder).rglob(name), None) if Path(folder).is_dir() else None
        if found:
            return ImageFont.truetype(str(found), size)
    return None


def box(t: ET.Element) -> Box:
    """A text's box (left, top, right, bottom) as DejaVu Sans sets it (for a text in no
    translated group)."""
    size = float(t.get("font-size"))
    face = font(t.get("font-weight") == "bold", size)
    if face is None:
        pytest.skip("DejaVu Sans is not installed")
    span = face.getlength(t.text)
    x, y = float(t.get("x")), float(t.get("y"))
    anchor = t.get("text-anchor", "start")
    left = x if anchor == "start" else x - span / 2 if anchor == "middle" else x - span
    return left, y - 0.76 * size, left + span, y + 0.24 * size


def overlapping(boxes: list[tuple[Box, str]]) -> list[str]:
    """Pairs of texts whose boxes overlap by more than a unit each way."""
    found = []
    boxes = sorted(boxes, key=lambda b: b[0][1])
    for i, ((l1, _t1, r1, b1), s1) in enumerate(boxes):
        for (l2, t2, r2, _b2), s2 in boxes[i + 1:]:
            if t2 >= b1 - 1:
                break
            if l1 < r2 - 1 and l2 < r1 - 1:
                found.append(f"{s1!r} over {s2!r}")
    return found
