"""Layers of a picture painted once and laid on every picture that has them.

The province names (svg.py's `<g class="labels">`) are the same in every picture of a variant
at the same size, and drawn over the units and orders: painting their glyphs' outlines costs
about 4 ms a picture, a third of the painting on a kept board. They are painted once on a
transparent canvas; what is kept is only the pixels they cover (a twentieth of a standard
picture), premultiplied as Skia paints them, and a picture lays them on its own pixels
("source over", as Skia draws), in a millisecond. The names then come out at most one step of
255 off in a channel from painting them one by one (the rounding of one blend instead of two,
halo then letter), and the same in every picture: painted whole or on a kept board.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import skia

LAYERED = frozenset({"labels"})  # the classes of the top groups painted as a kept layer
KEPT = 6  # layers kept (a variant's names at one size each)


@dataclass(frozen=True)
class Layer:
    """The pixels a layer covers: their places (pixel numbers, row after row), their
    premultiplied RGBA, and what of the picture under them shows (255 less their alpha)."""

    places: np.ndarray[Any, np.dtype[np.intp]]
    colours: np.ndarray[Any, np.dtype[np.uint16]]
    under: np.ndarray[Any, np.dtype[np.uint16]]

    def lay_on(self, pixels: np.ndarray[Any, np.dtype[np.uint8]]) -> None:
        """Lay the layer on `pixels` (rows of opaque RGBA of its size), source over."""
        blend(pixels, self.places, self.colours, self.under)


def blend(pixels: np.ndarray[Any, Any], places: np.ndarray[Any, Any],
          colours: np.ndarray[Any, np.dtype[np.uint16]],
          under: np.ndarray[Any, np.dtype[np.uint16]]) -> None:
    """Lay premultiplied `colours` on `pixels` (opaque RGBA rows, as bytes or one value a
    pixel) at `places` (pixel numbers), showing `under` (of 255) of what is there: each
    channel `colour + (below * under + 127) // 255`, the division done as `(t + (t >> 8))
    >> 8` with t = below * under + 128 (the same for every product of two bytes, in 16
    bits; twice as fast), and the pixels read and written as one 32-bit value each."""
    flat = pixels.reshape(-1).view(np.uint32)
    below = flat[places].view(np.uint8).reshape(-1, 4).astype(np.uint16)
    below *= under
    below += 128
    below += below >> 8
    below >>= 8
    below += colours
    flat[places] = below.astype(np.uint8).view(np.uint32).reshape(-1)


def capture(width: int, height: int, draw: Callable[[Any], None]) -> Layer:
    """The layer `draw` paints on a transparent canvas of `width` x `height` pixels."""
    pixels = np.zeros((height, width * 4), np.uint8)
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType,
                               skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRasterDirect(info, pixels, width * 4)
    draw(surface.getCanvas())
    del surface
    flat = pixels.reshape(-1, 4)
    places = np.flatnonzero(flat[:, 3])
    covered = flat[places].astype(np.uint16)
    return Layer(places, covered, 255 - covered[:, 3:4])
