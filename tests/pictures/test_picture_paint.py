"""The PNG drawn with Skia (gm.pictures.paint) is the picture an SVG renderer draws: every
variant's start and pictures with every mark (orders and their outcomes, retreats, builds,
terrain events, frozen regions, passages, power codes, the legend) are drawn both ways, Skia
and resvg, and compared pixel by pixel. A pixel of one picture that has no pixel of like
colour within two pixels in the other is a difference (a shape, letter or colour missing);
there must be almost none. What gm.pictures.paint cannot draw is refused, not guessed."""

from __future__ import annotations

import io
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from gm.pictures.paint import Undrawable, paint_rgba
from gm.pictures.png import PictureError, encode_rgba, render_png
from tests.support.picture_cases import PICTURES, chaos, movement

Pixels = np.ndarray  # rows x columns x RGB


def _decode(png: bytes) -> Pixels:
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB")).astype(np.int16)


def _unmatched(a: Pixels, b: Pixels, reach: int = 2, tolerance: int = 60) -> Pixels:
    """The pixels of `a` (its rim of `reach` left out) with no pixel in `b` within `reach`
    whose colour is within `tolerance` in every channel."""
    height, width = a.shape[:2]
    inner = (slice(reach, height - reach), slice(reach, width - reach))
    # a pixel matched where it stands is matched; only the others are looked for around
    unmatched: Pixels = np.abs(a[inner] - b[inner]).max(axis=2) > tolerance
    ys, xs = np.nonzero(unmatched)
    ys, xs = ys + reach, xs + reach
    colours = a[ys, xs]
    nearest = np.full(len(ys), 255, np.int16)
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            np.minimum(nearest, np.abs(colours - b[ys + dy, xs + dx]).max(axis=1), out=nearest)
    unmatched[ys - reach, xs - reach] = nearest > tolerance
    return unmatched


def _differences(svg: str) -> tuple[int, list[tuple[int, int]]]:
    skia_drawn = _decode(render_png(svg, renderer="skia", indexed=False))
    resvg_drawn = _decode(render_png(svg, renderer="resvg", indexed=False))
    assert skia_drawn.shape == resvg_drawn.shape
    unmatched = _unmatched(skia_drawn, resvg_drawn) | _unmatched(resvg_drawn, skia_drawn)
    ys, xs = np.nonzero(unmatched)
    return len(xs), [(int(x) + 2, int(y) + 2) for x, y in zip(xs[:5], ys[:5], strict=True)]


@pytest.mark.parametrize("picture", sorted(PICTURES))
def test_skia_draws_what_an_svg_renderer_draws(picture: str) -> None:
    svg = PICTURES[picture]()
    count, where = _differences(svg)
    assert count <= 8, f"{count} pixels differ from resvg's picture, first at {where}"


@pytest.mark.slow  # draws and compares many pictures
def test_the_comparison_sees_a_missing_letter_a_missing_centre_and_a_wrong_colour() -> None:
    """The check above can fail: a picture with one unit's letter gone, one centre gone or one
    province's colour changed differs from the true picture in many pixels."""
    svg = movement()
    truth = _decode(render_png(svg, renderer="resvg", indexed=False))
    letter = svg.replace('fill="#ffffff">A</text>', 'fill="#ffffff"></text>', 1)
    centre_at = svg.index('<circle class="centre"')
    centre = svg[:centre_at] + svg[svg.index("/>", centre_at) + 2:]
    colour = svg.replace('fill="#a8c8e6"', 'fill="#efe6cc"', 1)  # one sea drawn as land
    for wrong in (letter, centre, colour):
        assert wrong != svg
        assert _differences(wrong)[0] <= 8  # drawn alike both ways
        drawn = _decode(render_png(wrong, renderer="skia", indexed=False))
        assert (_unmatched(drawn, truth) | _unmatched(truth, drawn)).sum() > 30


def test_the_png_holds_exactly_the_pixels_painted() -> None:
    """gm's own PNG writer: an independent decoder reads back the painted pixels unchanged."""
    pixels, width, height = paint_rgba(chaos(), 1.0)
    png = encode_rgba(pixels, width, height)
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (width, height) and image.mode == "RGBA"
        assert np.array_equal(np.asarray(image), pixels.reshape(height, width, 4))
    with pytest.raises(PictureError):
        encode_rgba(pixels, width + 1, height)


@pytest.mark.parametrize("svg, words", [
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><ellipse rx="3"/></svg>',
     "<ellipse>"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="3" '
     'height="3" opacity="0.5"/></svg>', "opacity"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="M0 0 C1 1 2 2 '
     '3 3"/></svg>', "path data"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="3" '
     'height="3" transform="scale(2)"/></svg>', "transform"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="3" '
     'height="3" fill="url(#nowhere)"/></svg>', "nowhere"),
    ("<svg><unclosed></svg>", "cannot be read"),
    ('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="10"/>', "size"),
])
def test_what_it_cannot_draw_is_refused_not_guessed(svg: str, words: str) -> None:
    with pytest.raises(Undrawable, match=words) if words != "nowhere" else \
            pytest.raises(Undrawable):
        paint_rgba(svg, 1.0)
    with pytest.raises(PictureError):
        render_png(svg, renderer="skia")


def test_without_skia_the_pictures_are_drawn_by_resvg_and_the_log_says_why() -> None:
    """Where the skia-python wheel cannot load (no libEGL/libGL on the system), the PNG is
    still drawn, by resvg, and the log says what to install."""
    script = (
        "import logging, sys\n"
        "logging.basicConfig(level=logging.WARNING)\n"
        "sys.modules['skia'] = None  # as if it could not be loaded\n"
        "from gm.pictures.png import default_renderer, svg_to_png\n"
        "from gm.pictures.svg import render_map_svg\n"
        "from gm.variants import get_variant\n"
        "v = get_variant('standard')\n"
        "png = svg_to_png(render_map_svg(v, v.start_state(), 'start'))\n"
        "print(default_renderer(), png[:8] == b'\\x89PNG\\r\\n\\x1a\\n', len(png) > 50_000)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.split() == ["resvg", "True", "True"]
    assert "drawn by resvg" in done.stderr and "libegl1 libgl1" in done.stderr
