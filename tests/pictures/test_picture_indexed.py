"""The PNG the reports carry is an indexed (palette) image that looks like the full-colour
painting: every variant's start and pictures with every mark are drawn both ways and compared
pixel by pixel. A pixel differs when a channel is off by more than TOLERANCE; few may differ
(the shades along edges and letters, where the palette has no exact colour), and no area may:
a differing pixel whose eight neighbours all differ too is part of a surface drawn in the wrong
colour (two power colours merged, a sea turned grey), which the eye would see."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from gm.pictures.colours import distance
from gm.pictures.png import COLOURS, index_png, render_png
from tests.support.picture_cases import PICTURES, chaos

Pixels = np.ndarray  # rows x columns x RGB

TOLERANCE = 24  # per channel, of 255
SHARE = 0.002  # at most this share of the pixels differ
AREA = 4  # at most this many differing pixels inside a differing area


def _decode(png: bytes) -> Pixels:
    with Image.open(io.BytesIO(png)) as image:
        return np.asarray(image.convert("RGB")).astype(np.int16)


def _compare(full: Pixels, indexed: Pixels) -> tuple[float, int]:
    """The share of pixels that differ, and how many of them lie inside a differing area."""
    assert full.shape == indexed.shape
    differ = np.abs(full - indexed).max(axis=2) > TOLERANCE
    inside = differ[1:-1, 1:-1].copy()
    height, width = differ.shape
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            inside &= differ[1 + dy:height - 1 + dy, 1 + dx:width - 1 + dx]
    return float(differ.mean()), int(inside.sum())


@pytest.mark.parametrize("picture", sorted(PICTURES))
def test_the_indexed_png_looks_like_the_full_colour_painting(picture: str) -> None:
    svg = PICTURES[picture]()
    full_png = render_png(svg, indexed=False)
    indexed_png = render_png(svg)
    with Image.open(io.BytesIO(indexed_png)) as image:
        assert image.mode == "P"  # a palette image
        assert len(image.getcolors(COLOURS) or ()) <= COLOURS
    share, inside = _compare(_decode(full_png), _decode(indexed_png))
    assert share <= SHARE, f"{share:.2%} of the pixels differ"
    assert inside <= AREA, f"{inside} pixels of a surface are drawn in another colour"
    assert len(indexed_png) * 2 < len(full_png)


def test_the_comparison_sees_two_power_colours_merged() -> None:
    """The check above can fail: Chaos II's two nearest power colours made one in the palette
    (what a too-small palette does) differ from the full-colour painting over whole units and
    provinces, though the share of such pixels is small."""
    svg = chaos()
    full_png = render_png(svg, indexed=False)
    full = _decode(full_png)
    legend = dict(re.findall(r'<g class="legend-power" data-power="([^"]+)"><rect[^>]*'
                             r'fill="(#[0-9a-f]{6})"', svg))
    assert len(legend) == 34
    a, b = min(((p, q) for p in legend for q in legend if p < q),
               key=lambda pq: distance(legend[pq[0]], legend[pq[1]]))
    with Image.open(io.BytesIO(full_png)) as drawn:
        indexed_png = index_png(drawn.convert("RGBA"), svg)
    assert _compare(full, _decode(indexed_png)) <= (SHARE, AREA)  # the true one passes
    with Image.open(io.BytesIO(indexed_png)) as image:
        palette = bytearray(image.getpalette() or [])
        wanted = bytes(int(legend[a][i:i + 2], 16) for i in (1, 3, 5))
        at = next(i for i in range(0, len(palette), 3) if palette[i:i + 3] == wanted)
        palette[at:at + 3] = bytes(int(legend[b][i:i + 2], 16) for i in (1, 3, 5))
        image.putpalette(palette)
        merged = np.asarray(image.convert("RGB")).astype(np.int16)
    _, inside = _compare(full, merged)
    assert inside > 10 * AREA, f"{a} drawn in {b}'s colour went unseen"

