"""The email picture's fast renderer (worker/svg_raster.py): it draws what resvg draws
for every game's email picture, deterministically, in every script a name may hold, and
anything beyond the SVG it knows goes to resvg."""

from __future__ import annotations

import io
import logging
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from games import registry
from games.rng import RecordingRandom
from worker import picture_mail
from worker.picture_mail import _rasteriser, _resvg_png, svg_to_png
from worker.svg_raster import Rasteriser, Unsupported

KINDS = ["kings-guild", "architects", "feudum-guilds"]
NAMES = ["Ann", "Bob", "Cy"]
NOTO = Path("/usr/share/fonts/truetype/noto")

pytestmark = pytest.mark.skipif(_rasteriser() is None, reason="no DejaVu Sans here")


def mid_game_svg(kind: str, moves: int = 90, seat: int = 0) -> str:
    game = registry.get(kind)
    chooser = random.Random(5)
    state = game.setup(NAMES, game.normalize_options({}, 3), RecordingRandom(5))
    for i in range(moves):
        seats = sorted(game.to_act(state))
        if not seats:
            break
        who = chooser.choice(seats)
        game.apply(state, who, chooser.choice(game.legal_moves(state, who)),
                   RecordingRandom(i + 1))
    table = {"names": NAMES, "seat": seat, "to_act": sorted(game.to_act(state)),
             "deadline": "Tuesday 01 December 2026, 18:00 CET", "version": moves,
             "previous": None, "medium": "email"}
    return game.picture(game.view(state, seat), table)


def image(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as opened:
        return opened.convert("RGB")


def ink(picture: Image.Image) -> list[tuple[int, int]]:
    """Where ``picture`` (white paper) is not white."""
    width = picture.width
    return [(i % width, i // width) for i, p in enumerate(picture.get_flattened_data())
            if p != (255, 255, 255)]


def text_svg(text: str, size: int = 30, width: int = 300) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="60">'
            f'<rect width="{width}" height="60" fill="white"/>'
            f'<text x="5" y="40" font-size="{size}">{text}</text></svg>')


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_s_email_picture_is_drawn_where_resvg_draws_it(kind):
    svg = mid_game_svg(kind)
    fast = _rasteriser().render(svg)  # drawn without falling back
    slow = image(_resvg_png(svg, None))
    assert fast.size == slow.size
    # seen from afar (8x8 pixel blocks) the two agree: the same shapes and colours in
    # the same places (a picture moved down by 3 px differs by 8-10 here); up close the
    # text differs, FreeType hinting it to the pixel grid
    difference = ImageStat.Stat(ImageChops.difference(fast.reduce(8), slow.reduce(8)))
    assert max(difference.mean) < 5, difference.mean


def test_the_same_picture_gives_the_same_bytes_whatever_was_drawn_before():
    svg = mid_game_svg("kings-guild", seat=1)
    first = svg_to_png(svg)[0]
    for kind in KINDS:  # other pictures fill the cache of laid-out texts
        svg_to_png(mid_game_svg(kind, moves=40))
    assert svg_to_png(svg)[0] == first
    fresh = Rasteriser(_rasteriser().fonts)
    assert picture_mail._encode(fresh.render(svg), svg) == first


@pytest.mark.parametrize("kind", KINDS)
def test_the_palette_png_keeps_the_drawn_colours(kind):
    svg = mid_game_svg(kind, seat=2)
    drawn = _rasteriser().render(svg)
    png = image(picture_mail._encode(drawn, svg))
    assert png.size == drawn.size
    assert max(ImageStat.Stat(ImageChops.difference(drawn, png)).mean) < 4


def test_a_wide_picture_is_drawn_scaled_down_to_the_email_width():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 400" width="1600" '
           'height="400"><rect width="1600" height="400" fill="#FFFFFF"/>'
           '<rect x="800" y="200" width="800" height="200" fill="#0072B2"/></svg>')
    picture = _rasteriser().render(svg, 640)
    assert picture.size == (640, 160)
    assert picture.getpixel((330, 90)) == (0, 114, 178)
    assert picture.getpixel((310, 70)) == (255, 255, 255)


def test_an_svg_beyond_the_subset_is_drawn_by_resvg():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
           '<rect width="100" height="100" fill="white"/>'
           '<path d="M 10 10 L 90 10 L 90 90 Z" fill="#0072B2"/></svg>')
    with pytest.raises(Unsupported):
        _rasteriser().render(svg)
    png, width, height = svg_to_png(svg)
    assert (width, height) == (100, 100)
    assert image(png).getpixel((80, 20)) == (0, 114, 178)


def test_a_failure_of_the_fast_renderer_leaves_the_picture_to_resvg(monkeypatch, caplog):
    def broken(self, svg, width=None):
        raise RuntimeError("a bug")

    monkeypatch.setattr(Rasteriser, "render", broken)
    with caplog.at_level(logging.WARNING, "worker.picture_mail"):
        png, width, _ = svg_to_png(text_svg("Ann"))
    assert png.startswith(b"\x89PNG") and width == 300
    assert "fast renderer failed" in caplog.text


def test_text_is_anchored_at_its_start_middle_and_end():
    spans = {}
    for anchor in ("start", "middle", "end"):
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="60">'
               '<rect width="300" height="60" fill="white"/>'
               f'<text x="150" y="40" font-size="20" text-anchor="{anchor}">Bobby</text></svg>')
        xs = [x for x, _ in ink(_rasteriser().render(svg))]
        spans[anchor] = (min(xs), max(xs))
    assert 149 <= spans["start"][0] <= 152 and 148 <= spans["end"][1] <= 151
    assert abs(sum(spans["middle"]) / 2 - 150) <= 2
    assert spans["start"][1] - spans["start"][0] > 50  # "Bobby" at 20 px: ~62 px


@pytest.mark.skipif(not (NOTO / "NotoSansDevanagari-Regular.ttf").exists(),
                    reason="fonts-noto-core is not installed")
def test_a_name_in_another_script_is_drawn_with_its_noto_font_not_as_boxes():
    fonts = _rasteriser().fonts
    assert fonts.runs("Ann मीरा")[1][0].endswith("NotoSansDevanagari-Regular.ttf")
    name = _rasteriser().render(text_svg("मीरा"))
    boxes = _rasteriser().render(text_svg("\U000e01ef" * 4))  # no font has it
    assert ink(name) and ink(name) != ink(boxes)


@pytest.mark.skipif(not (NOTO / "NotoColorEmoji.ttf").exists(),
                    reason="fonts-noto-color-emoji is not installed")
def test_emoji_in_a_name_are_drawn_in_colour_after_the_text_before_them():
    picture = _rasteriser().render(text_svg("Ann \U0001F409 Bo"))
    coloured = [(x, y) for x, y in ink(picture) if max(p := picture.getpixel((x, y)))
                - min(p) > 30]
    assert len(coloured) > 100
    text_end = max(x for x, _ in ink(_rasteriser().render(text_svg("Ann"))))
    assert min(x for x, _ in coloured) > text_end
