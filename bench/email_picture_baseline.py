"""Today's email picture renderer, kept as it was (commit 59882dc's worker/picture_mail.py:
resvg-py with crisp edges and the DejaVu + Noto font files, then a Pillow palette PNG),
so ``email_picture.py`` times the new renderer against it on the same SVGs in one run.

Only the rendering is copied; the SVG each game draws for an email is unchanged.
"""

from __future__ import annotations

import io
import logging
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

EMAIL_WIDTH = 640
FONT_DIR_ENV = "RAVENPOST_FONT_DIR"
SYSTEM_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts")

_SIZE = re.compile(r"<svg\b[^>]*?\swidth=\"([\d.]+)\"[^>]*?\sheight=\"([\d.]+)\"")


def _natural_size(svg: str) -> tuple[float, float] | None:
    match = _SIZE.search(svg[:2000])
    return (float(match[1]), float(match[2])) if match else None


@cache
def _font_options() -> dict[str, Any]:
    """resvg's font arguments: the configured directory, else the DejaVu Sans files the
    pictures ask for first (loading only those halves a render: resvg otherwise reads
    every system font for each picture), else every system font."""
    configured = os.environ.get(FONT_DIR_ENV)
    if configured:
        return {"skip_system_fonts": True, "font_dirs": [configured]}
    fonts = [p for d in SYSTEM_FONT_DIRS if Path(d).is_dir() for p in Path(d).rglob("*")
             if p.suffix.lower() in (".ttf", ".otf", ".ttc")]
    dejavu = sorted(str(p) for p in fonts if p.name.startswith("DejaVuSans")
                    and "Mono" not in p.name)
    # what names may hold beyond DejaVu's scripts: emoji, and the scripts of Noto Sans
    # (Debian's fonts-noto-color-emoji and fonts-noto-core); resvg falls back to them
    fallbacks = sorted(str(p) for p in fonts if p.name == "NotoColorEmoji.ttf"
                       or (p.name.startswith("NotoSans") and p.name.endswith("-Regular.ttf")))
    if dejavu:
        return {"skip_system_fonts": True, "font_files": dejavu + fallbacks}
    if not fonts:
        log.warning("no fonts under %s: email pictures will have no text (install "
                    "fonts-dejavu-core or set %s)", ", ".join(SYSTEM_FONT_DIRS), FONT_DIR_ENV)
    return {}


def _palette(png: bytes) -> bytes:
    """``png`` (RGBA, as resvg writes it) as a 256-colour palette PNG, about half the
    bytes: the pictures are flat colours and text, so nothing visible is lost.  Without
    Pillow the PNG is sent as it is."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a dependency; this is a fallback
        return png
    with Image.open(io.BytesIO(png)) as image:
        # Fast octree without dithering: ~4x faster than median cut at the same size,
        # and no dither noise on flat areas.
        paletted = image.convert("RGB").quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, "PNG")
    return out.getvalue()


def svg_to_png(svg: str, width: int = EMAIL_WIDTH) -> tuple[bytes, int, int]:
    """``svg`` as a PNG at most ``width`` pixels wide: ``(png, width, height)``."""
    import resvg_py  # imported here: only the worker renders, and a missing wheel is a warning

    natural = _natural_size(svg)
    scale = min(1.0, width / natural[0]) if natural else 1.0
    size = {"width": round(natural[0] * scale)} if natural and scale < 1.0 else {}
    png = _palette(bytes(resvg_py.svg_to_bytes(svg_string=svg, shape_rendering="crisp_edges",
                                               **size, **_font_options())))
    # width and height from the PNG's IHDR chunk: what was really drawn
    return png, int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


