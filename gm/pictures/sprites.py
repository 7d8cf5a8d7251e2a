"""Kept elements drawn on white, kept as the pixels they come out as.

The legend under a map (the powers' squares and counts, the terrain squares, the orders'
marks and their words) is drawn on the white below the board, the same in most pictures of
a variant: its words' glyph outlines cost Skia 50 to 250 microseconds an element, 1.5 ms a
standard picture. An element gm.pictures.lines keeps (the same object in every picture with
its line), drawn at the same scale and place on pixels that are all white where it reaches,
comes out as the same pixels every time: the first time its drawing is played, the pixels
of its bounds (Skia's, of its recording: gm.pictures.paint records with a bounding box
hierarchy; two pixels wider) are kept; the next times, where those pixels are
white again, they are copied in instead, pixel for pixel the drawing
(tests/pictures/test_picture_sprites.py). An element found drawn on something else (a unit
on the board) is remembered as such and played as before, with no look at the pixels again.

At most `SPRITES` elements are remembered a thread (the last used; a legend's sprite is a
few kB, at most `LARGEST` pixels: 64 kB).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

SPRITES = 128  # elements remembered (sprites or not) a thread
LARGEST = 16_384  # pixels at most in a sprite (a larger element is played each time)
OUTSET = 2  # pixels around Skia's bounds of a drawing (its anti-aliased edge)

Pixels = np.ndarray[Any, np.dtype[np.uint32]]  # rows of opaque RGBA pixels, one a value
_WHITE = np.uint32(0xFFFFFFFF)


class Sprites:
    """The pixels kept elements come out as on white, or None for those drawn otherwise:
    by the element, what it inherits and the canvas's scale and place (one thread's)."""

    def __init__(self, size: int = SPRITES) -> None:
        self.size = size
        self.kept: OrderedDict[Hashable, tuple[int, int, int, int, Pixels] | None] = (
            OrderedDict())
        self.copied = 0  # sprites copied in (elements not played)

    def draw(self, key: Hashable, pixels: Pixels, matrix: Any,
             recording: Callable[[], tuple[Any, bool]], canvas: Any) -> None:
        """Draw the element of `key` on `canvas`, whose `pixels` these are (`matrix`: its
        scale and place): its kept pixels copied in where it has them and the pixels under
        them are white, else its `recording` played (a Skia picture bounded by what it
        draws, and whether it is the element's alone, not a pattern of this picture's), its
        pixels then kept if drawn on white."""
        if key in self.kept:
            self.kept.move_to_end(key)
            found = self.kept[key]
            if found is not None:
                top, bottom, left, right, sprite = found
                region = pixels[top:bottom, left:right]
                if _white(region):
                    region[...] = sprite
                    self.copied += 1
                    return
            canvas.drawPicture(recording()[0])
            return
        picture, alone = recording()
        place = _place(pixels, matrix, picture.cullRect()) if alone else None
        under = None if place is None else pixels[place[0]:place[1], place[2]:place[3]]
        on_white = under is not None and _white(under)
        canvas.drawPicture(picture)
        self.kept[key] = None if place is None or under is None or not on_white else (
            *place, under.copy())
        while len(self.kept) > self.size:
            self.kept.popitem(last=False)


def _white(region: Pixels) -> bool:
    """Whether every pixel of `region` is opaque white (its first pixel looked at first)."""
    return bool(region.size) and region[0, 0] == _WHITE and bool((region == _WHITE).all())


def _place(pixels: Pixels, matrix: Any, drawn: Any) -> tuple[int, int, int, int] | None:
    """The rows and columns (top, bottom, left, right) of `pixels` a drawing within `drawn`
    (Skia's bounds of it) may reach, mapped by `matrix`, OUTSET wider, within the pixels;
    None if it reaches none or more than LARGEST."""
    if drawn.isEmpty():
        return None
    box = matrix.mapRect(drawn)
    height, width = pixels.shape
    top, bottom = max(0, math.floor(box.top()) - OUTSET), min(
        height, math.ceil(box.bottom()) + OUTSET)
    left, right = max(0, math.floor(box.left()) - OUTSET), min(
        width, math.ceil(box.right()) + OUTSET)
    if top >= bottom or left >= right or (bottom - top) * (right - left) > LARGEST:
        return None
    return top, bottom, left, right
