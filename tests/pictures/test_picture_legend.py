"""The legend under the board fits the picture: drawn as players see it (the PNG), no entry's
words run off its right edge, where the longest words ("coast of a province with several (nc,
sc: F Spa/nc)", "link (provinces joined across the board)") once stood cut off."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from gm.pictures.png import render_png
from tests.support.picture_cases import PICTURES


@pytest.mark.parametrize("picture", sorted(PICTURES))
def test_no_legend_entry_runs_off_the_picture(picture: str) -> None:
    svg = PICTURES[picture]()
    first = re.search(r'<g class="legend-power"[^>]*><rect x="[\d.]+" y="([\d.]+)"', svg)
    assert first is not None, "no legend"
    pixels = np.asarray(Image.open(io.BytesIO(render_png(svg, renderer="skia", indexed=False)))
                        .convert("RGB"))
    edge = pixels[int(float(first.group(1))) + 2:, -3:]  # the legend's rows, the last columns
    inked = int((edge.max(axis=2) < 120).sum())  # the words' ink; not the grey rule across
    assert inked == 0, f"{inked} pixels of words at the right edge of the legend"
