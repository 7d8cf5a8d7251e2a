"""The supply centres and the units, laid on a picture as kept layers, not drawn one by one.

A picture's centres (34 on the standard board) and units are small shapes that do not
overlap one another, drawn over the board: each one's drawing costs Skia about 11
microseconds, and a picture's 56 about a millisecond with what Python does around them. A
centre or a unit (an element gm.pictures.lines keeps: the same in every picture with its
line) is painted once on a small transparent canvas, at its place in whole pixels, and kept as
a layer (gm.pictures.layers: the pixels it covers, premultiplied); a picture lays each of
its group's elements' layers on its pixels in one blend, when no two of them cover the same
pixel (else, or if one cannot be kept, the group is drawn as before). They then come out at
most a step or two of 255 off in a channel from drawing them one by one (one blend of a
unit's disc, rim and letter instead of three: tests/pictures/test_picture_stamps.py), the
same in every picture, painted whole or on a kept board.

At most `STAMPS` elements' layers are kept a thread (the last used; a centre's or unit's
covers 150 to 450 pixels, 8 bytes each: 1 to 4 kB; at most `LARGEST` pixels, 13 kB).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import skia

from gm.pictures.layers import blend

STAMPED = frozenset({"centres", "units"})  # the classes of the top groups laid so
STAMPS = 1024  # elements' layers kept a thread
LARGEST = 1600  # pixels at most in an element's box (a larger element is drawn)
OUTSET = 2  # pixels around Skia's bounds of a drawing (its anti-aliased edge)


@dataclass(frozen=True)
class Stamp:
    """An element's layer (as gm.pictures.layers.Layer, kept small): the pixels it covers
    (pixel numbers) and their premultiplied RGBA; and the box it lies in (top, bottom,
    left, right pixels)."""

    places: np.ndarray[Any, np.dtype[np.int32]]
    colours: np.ndarray[Any, np.dtype[np.uint8]]
    box: tuple[int, int, int, int]


class Stamps:
    """Kept elements' layers, by the element, what it inherits and the picture's scale and
    place (one thread's)."""

    def __init__(self, size: int = STAMPS) -> None:
        self.size = size
        self.kept: OrderedDict[Hashable, Stamp | None] = OrderedDict()
        self.laid = 0  # groups laid as layers

    def layer(self, key: Hashable | None, picture: Any, matrix: Any, width: int, height: int
              ) -> Stamp | None:
        """The layer of the element of `key`, whose drawing `picture` is (a Skia recording
        bounded by what it draws), on a picture of `width` x `height` pixels drawn through
        `matrix`: kept, else painted (and kept, unless `key` is None); None if it cannot be
        (too large, or none)."""
        if key is None:
            return _painted(picture, matrix, width, height)
        found = self.kept.get(key, False)
        if found is not False:
            self.kept.move_to_end(key)
            return found  # type: ignore[return-value]
        made = _painted(picture, matrix, width, height)
        self.kept[key] = made
        while len(self.kept) > self.size:
            self.kept.popitem(last=False)
        return made

    def lay(self, layers: Sequence[Stamp], pixels: np.ndarray[Any, Any]) -> bool:
        """Lay `layers` on `pixels` (opaque RGBA rows, as bytes or one value a pixel) in
        one blend, if no two cover the same pixel (their boxes apart, else their pixels
        looked at); whether they were laid."""
        if not layers:
            return True
        places = np.concatenate([stamp.places for stamp in layers]).astype(np.intp)
        if not _apart(np.array([stamp.box for stamp in layers])) and (
                np.unique(places).size != places.size):
            return False
        colours = np.concatenate([stamp.colours for stamp in layers]).astype(np.uint16)
        blend(pixels, places, colours, 255 - colours[:, 3:4])
        self.laid += 1
        return True


def _apart(boxes: np.ndarray[Any, np.dtype[np.int64]]) -> bool:
    """Whether no two of the boxes (top, bottom, left, right rows) meet."""
    top, bottom, left, right = (boxes[:, i] for i in range(4))
    meet = ((top[:, None] < bottom[None, :]) & (top[None, :] < bottom[:, None])
            & (left[:, None] < right[None, :]) & (left[None, :] < right[:, None]))
    return int(meet.sum()) == len(boxes)  # each box meets itself alone


def _painted(picture: Any, matrix: Any, width: int, height: int) -> Stamp | None:
    """The layer `picture` paints through `matrix` on a transparent picture of `width` x
    `height`: painted on a canvas the size of its box alone, moved by whole pixels."""
    drawn = picture.cullRect()
    if drawn.isEmpty():
        return None
    box = matrix.mapRect(drawn)
    top, bottom = max(0, math.floor(box.top()) - OUTSET), min(
        height, math.ceil(box.bottom()) + OUTSET)
    left, right = max(0, math.floor(box.left()) - OUTSET), min(
        width, math.ceil(box.right()) + OUTSET)
    rows, columns = bottom - top, right - left
    if rows <= 0 or columns <= 0 or rows * columns > LARGEST:
        return None
    pixels = np.zeros((rows, columns * 4), np.uint8)
    info = skia.ImageInfo.Make(columns, rows, skia.kRGBA_8888_ColorType,
                               skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRasterDirect(info, pixels, columns * 4)
    canvas = surface.getCanvas()
    canvas.translate(-left, -top)
    canvas.concat(matrix)
    canvas.drawPicture(picture)
    del canvas, surface
    flat = pixels.reshape(-1, 4)
    covered = np.flatnonzero(flat[:, 3])
    places = (covered // columns + top) * width + covered % columns + left
    return Stamp(places.astype(np.int32), flat[covered], (top, bottom, left, right))
