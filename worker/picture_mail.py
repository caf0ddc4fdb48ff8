"""The game's picture in emails: the rules' SVG, turned into a PNG on the worker.

Mail clients do not show SVG, so the picture a game draws for a seat
(:meth:`games.protocol.Game.picture`, from ``view(state, seat)`` only) is rendered to a
PNG and attached inline to the HTML part (``<img src="cid:board">``); the plain-text
part is unchanged.

Renderer: :mod:`worker.svg_raster` draws the SVG subset :mod:`games.svg` writes straight
into a Pillow image (FreeType for the text, each distinct text laid out once per
process): about a sixth of the CPU resvg took, three quarters of which went into turning
~200 texts into paths.  An SVG outside that subset, or a machine without DejaVu Sans, is
rendered with resvg (``resvg-py``: a self-contained wheel, no system libraries) as
before.  ``bench/email_picture.py`` times both on the same pictures.

Layout: the picture is asked for with ``medium="email"`` (see
:meth:`games.protocol.Game.picture`): a mail on a phone shows it about 340 px wide and
cannot zoom well, so the games draw a narrow layout (about 400 units wide) with larger
text and only the panels that matter for the reader's move, and no tooltips (a PNG has
none).

Size: the PNG is shown at most :data:`EMAIL_WIDTH` pixels wide (narrower pictures keep
their own width, never upscaled; a wider one keeps its pixels up to :data:`SHARP_WIDTH`,
so its small print stays sharp when a reader zooms in), shown fluid
(``max-width:100%``) so the email does not scroll sideways on a phone.  Shapes are
drawn with crisp edges and only text is antialiased (a third fewer bytes at the same
legibility), and the PNG is written with a 256-colour palette (half the bytes again);
see ``bench/email_picture.py`` for the bytes per email and the render time per picture.

Fonts: text is drawn in DejaVu Sans, the first family the pictures ask for.
``RAVENPOST_FONT_DIR`` (a directory scanned recursively) wins if set; else the system's
fonts are used (on Debian ``fonts-dejavu-core`` provides DejaVu Sans, and
``fonts-noto-color-emoji`` and ``fonts-noto-core`` what names may hold beyond it: emoji,
in colour, and other scripts, as fallbacks character by character).  A machine with no
font at all renders the shapes without any text, so that is warned about once.

A picture is a nicety: whatever goes wrong (no picture for this kind, a drawing bug, a
renderer error) is logged as a warning and the email goes out without it.
"""

from __future__ import annotations

import io
import logging
import os
import re
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from events.gameplay import GameService
from events.picture import picture_of
from events.replay import Table
from worker.i18n import translate
from worker.mail import InlineImage

log = logging.getLogger(__name__)

EMAIL_WIDTH = 640  # px: a mail column is 600-700 px wide; the image scales down below
# A wider picture (Feudum's table is 820 px) keeps its own pixels up to this width and is
# shown at EMAIL_WIDTH: scaled to 640 its small print fell to 8 px, unreadable on a phone
# even zoomed in.  The PNG is then a sharper image shown at the same size.
SHARP_WIDTH = 960
CID = "board"
FONT_DIR_ENV = "RAVENPOST_FONT_DIR"
SYSTEM_FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts")


@dataclass(frozen=True)
class MailPicture:
    """One seat's picture, ready for an email: the image, its text alternative, and the
    size it is shown at."""

    image: InlineImage
    alt: str
    width: int
    height: int
    render_seconds: float

    @property
    def src(self) -> str:
        return f"cid:{self.image.cid}"


_SIZE = re.compile(r"<svg\b[^>]*?\swidth=\"([\d.]+)\"[^>]*?\sheight=\"([\d.]+)\"")


def _natural_size(svg: str) -> tuple[float, float] | None:
    match = _SIZE.search(svg[:2000])
    return (float(match[1]), float(match[2])) if match else None


def _font_files() -> tuple[bool, list[str]]:
    """``(configured, files)``: the font files in ``RAVENPOST_FONT_DIR`` if it is set,
    else those under the system's font directories (scanned once per process)."""
    configured = os.environ.get(FONT_DIR_ENV)
    dirs = (configured,) if configured else SYSTEM_FONT_DIRS
    return bool(configured), sorted(
        str(p) for d in dirs if Path(d).is_dir() for p in Path(d).rglob("*")
        if p.suffix.lower() in (".ttf", ".otf", ".ttc"))


def _dejavu_and_fallbacks(files: list[str]) -> tuple[list[str], list[str]]:
    """DejaVu Sans's files (no Mono), and what names may hold beyond DejaVu's scripts:
    emoji and the scripts of Noto Sans (Debian's fonts-noto-color-emoji and
    fonts-noto-core), in the order they are tried."""
    dejavu = [f for f in files if Path(f).name.startswith("DejaVuSans") and "Mono" not in f]
    fallbacks = [f for f in files if Path(f).name == "NotoColorEmoji.ttf"
                 or (Path(f).name.startswith("NotoSans") and f.endswith("-Regular.ttf"))]
    return dejavu, fallbacks


@cache
def _font_options() -> dict[str, Any]:
    """resvg's font arguments: the configured directory, else the DejaVu Sans files the
    pictures ask for first (loading only those halves a render: resvg otherwise reads
    every system font for each picture), else every system font."""
    configured, fonts = _font_files()
    if configured:
        return {"skip_system_fonts": True, "font_dirs": [os.environ[FONT_DIR_ENV]]}
    dejavu, fallbacks = _dejavu_and_fallbacks(fonts)
    if dejavu:
        return {"skip_system_fonts": True, "font_files": dejavu + fallbacks}
    if not fonts:
        log.warning("no fonts under %s: email pictures will have no text (install "
                    "fonts-dejavu-core or set %s)", ", ".join(SYSTEM_FONT_DIRS), FONT_DIR_ENV)
    return {}


@cache
def _rasteriser() -> Any:
    """The fast renderer (:mod:`worker.svg_raster`, Pillow and FreeType), one per process
    so its fonts and laid-out texts are kept; None without DejaVu Sans's files (resvg
    then draws every picture)."""
    from worker.svg_raster import Fonts, Rasteriser

    _, files = _font_files()
    dejavu, fallbacks = _dejavu_and_fallbacks(files)
    by_name = {Path(f).name: f for f in dejavu}
    if "DejaVuSans.ttf" not in by_name:
        return None
    return Rasteriser(Fonts(by_name["DejaVuSans.ttf"], by_name.get("DejaVuSans-Bold.ttf"),
                            fallbacks))


_COLOUR = re.compile(r'"#([0-9A-Fa-f]{6})"')


def _encode(image: Any, svg: str | None = None) -> bytes:
    """An RGB image as a 256-colour palette PNG: the pictures are flat colours and text,
    so nothing visible is lost, and it is half the bytes of an RGB one.

    With the ``svg`` it was drawn from, the palette is chosen from a quarter of the
    pixels (every other one, each way) and a swatch of each colour the SVG names, so a
    thin line's colour is not missed; mapping every pixel onto it is then cheap: 5 ms
    instead of 8 for a 400x2600 picture, at the same fidelity."""
    from PIL import Image

    # Fast octree without dithering: ~4x faster than median cut at the same size, and
    # no dither noise on flat areas.
    octree = {"method": Image.Quantize.FASTOCTREE, "dither": Image.Dither.NONE}
    if svg is None or image.width < 8 or image.height < 8:
        paletted = image.quantize(256, **octree)
    else:
        half = image.resize((image.width // 2, image.height // 2), Image.Resampling.NEAREST)
        named = sorted({c.upper() for c in _COLOUR.findall(svg)})
        per_row = max(1, half.width // 8)
        rows = -(-len(named) // per_row)
        sample = Image.new("RGB", (half.width, half.height + 8 * rows), f"#{named[0]}"
                           if named else "#000000")
        sample.paste(half)
        for i, colour in enumerate(named):
            x, y = 8 * (i % per_row), half.height + 8 * (i // per_row)
            sample.paste((int(colour[:2], 16), int(colour[2:4], 16), int(colour[4:], 16)),
                         (x, y, x + 8, y + 8))
        paletted = image.quantize(palette=sample.quantize(256, **octree),
                                  dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, "PNG")
    return out.getvalue()


def _palette(png: bytes) -> bytes:
    """``png`` (RGBA, as resvg writes it) as a 256-colour palette PNG.  Without Pillow
    the PNG is sent as it is."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is a dependency; this is a fallback
        return png
    with Image.open(io.BytesIO(png)) as image:
        return _encode(image.convert("RGB"))


def _resvg_png(svg: str, width: int | None) -> bytes:
    import resvg_py  # imported here: only the worker renders, and a missing wheel is a warning

    size = {"width": width} if width else {}
    return _palette(bytes(resvg_py.svg_to_bytes(svg_string=svg, shape_rendering="crisp_edges",
                                                **size, **_font_options())))


def svg_to_png(svg: str, width: int = EMAIL_WIDTH) -> tuple[bytes, int, int]:
    """``svg`` as a PNG at most ``width`` pixels wide: ``(png, width, height)``.

    Drawn by :mod:`worker.svg_raster` (the subset of SVG :mod:`games.svg` writes,
    5-10x faster); an SVG outside that subset, or a machine without DejaVu Sans, is
    rendered by resvg as before."""
    natural = _natural_size(svg)
    scale = min(1.0, width / natural[0]) if natural else 1.0
    target = round(natural[0] * scale) if natural and scale < 1.0 else None
    png = None
    rasteriser = _rasteriser()
    if rasteriser is not None:
        from worker.svg_raster import Unsupported

        try:
            png = _encode(rasteriser.render(svg, target), svg)
        except Unsupported as why:
            log.debug("email picture drawn by resvg: %s", why)
        except Exception:  # a bug of the fast path: resvg still draws the picture
            log.warning("the fast renderer failed: email picture drawn by resvg",
                        exc_info=True)
    if png is None:
        png = _resvg_png(svg, target)
    # width and height from the PNG's IHDR chunk: what was really drawn
    return png, int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def mail_picture(games: GameService, table: Table, seat: int | None,
                 deadline: str | None = None, width: int = EMAIL_WIDTH,
                 language: str = "en") -> MailPicture | None:
    """``seat``'s picture of ``table`` as an inline PNG, or None (no picture for this
    kind, or it could not be drawn or rendered: logged, never raised).  Drawn as the page
    draws it (:func:`events.picture.picture_of`: what changed since the seat's last
    move is highlighted), its words in the reader's ``language`` where the game can."""
    game = table.game
    try:
        started = time.perf_counter()
        svg = picture_of(games, table, seat, deadline=deadline, medium="email",
                         language=language, say=lambda text: translate(text, language))
        if not svg:
            return None
        natural = _natural_size(svg)
        pixels = max(width, min(natural[0], SHARP_WIDTH)) if natural else width
        png, png_width, png_height = svg_to_png(svg, round(pixels))
        shown_width = min(png_width, width)
        shown_height = round(png_height * shown_width / png_width)
        elapsed = time.perf_counter() - started
    except Exception:  # a picture is a nicety: the email goes out without it
        log.warning("no picture for the %s email of game %s (seat %s)", table.kind,
                    table.game_id, seat, exc_info=True)
        return None
    who = table.names[seat] if seat is not None and seat < len(table.names) else "a spectator"
    alt = f"{game.name}, game {table.game_id} at move {table.version}, as {who} sees it"
    return MailPicture(InlineImage(CID, f"{table.kind}-{table.version}.png", png),
                       alt, shown_width, shown_height, elapsed)
