"""A board as its provinces' fills under a kept layer: a new board is a kept one with the
pixels of the provinces whose colours differ filled again.

svg.py writes a board as a few elements (the white, the frame), then the provinces, each
filled in one colour without anti-aliasing (`shape-rendering="crispEdges"`: a pixel is its
province's colour or not), then the borders, coasts and their marks, drawn over them. The
boards of a variant differ in their provinces' colours (their owners), not in their shapes.
So a board is painted (`Plan`): the elements before the provinces and the provinces with
Skia, then everything after them laid on as a kept layer (gm.pictures.layers: painted once a
variant and size). With it is kept, once a variant and size (`Fills`), which province's fill
each pixel shows: painted once with each province in a colour of its own, crisp as the board
paints it, so the same pixels. A board whose provinces' colours alone differ from a kept
board's is that board's pixels with each changed province's pixels filled in its new colour
and the layer laid on them again: the board painted whole, pixel for pixel
(tests/pictures/test_picture_board_cache.py), in a millisecond or two instead of eight.

Whatever does not fit (a province drawn with a stroke, with anti-aliasing, half opaque, in a
pattern whose colour changes; boards not written element by element on lines) is painted
whole, as before.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

import numpy as np
import skia

from gm.pictures.layers import Layer, blend, capture

NS = "{http://www.w3.org/2000/svg}"
FEWEST = 4  # provinces at least, for a board to be painted so
KEPT = 4  # Fills kept (a standard board's: 6.5 MB)
LINES = 4096  # boards' lines whose reading is kept (_line_info)
_CRISP = frozenset({"crispEdges", "optimizeSpeed"})
_FILL = re.compile(r' (?:fill|data-[a-z-]+)="[^"]*"|<title>[^<]*</title>')

Style = dict[str, str]
_lock = threading.Lock()
_lines: dict[tuple[str, tuple[tuple[str, str], ...]], tuple[list[str] | None, str]] = {}
Shapes = Callable[[ElementTree.Element, Style], "list[tuple[ElementTree.Element, Style]] | None"]


@dataclass(frozen=True)
class Plan:
    """A board's elements: those before its provinces, the provinces, those after; the fill
    of each of the provinces' shapes, in order; and the key of its Fills (everything but the
    fills, and the size)."""

    before: list[ElementTree.Element]
    provinces: list[ElementTree.Element]
    after: list[ElementTree.Element]
    colours: tuple[str, ...]
    key: bytes


def plan(elements: Sequence[ElementTree.Element], lines: Sequence[str], style: Style,
         shapes: Shapes, size: tuple[int, int, tuple[float, ...]]) -> Plan | None:
    """The plan of a board's top `elements` (after its leading white), written as `lines`
    (one an element); None if the board is not painted so (see above). `shapes` gives an
    element's shapes and their styles (None if it has anything else, or a transform)."""
    if len(lines) != len(elements):
        return None
    runs: list[tuple[int, int]] = []
    colours: list[list[str]] = []
    start = None
    found: list[str] = []
    inherited = tuple(sorted(style.items()))
    infos = [_line_info(line, element, inherited, style, shapes)
             for line, element in zip(lines, elements, strict=True)]
    for i, info in enumerate([*infos, None]):
        fills = None if info is None else info[0]
        if fills is not None:
            if start is None:
                start, found = i, []
            found.extend(fills)
        elif start is not None:
            runs.append((start, i))
            colours.append(found)
            start = None
    if not runs:
        return None
    (first, end), fills = max(zip(runs, colours, strict=True), key=lambda r: r[0][1] - r[0][0])
    if end - first < FEWEST:
        return None
    digest = hashlib.blake2b(repr(size).encode(), digest_size=20)
    for line in lines[:first]:
        digest.update(line.encode() + b"\n")
    digest.update(b"\0")
    for info in infos[first:end]:
        digest.update(info[1].encode() + b"\n")
    digest.update(b"\0")
    for line in lines[end:]:
        digest.update(line.encode() + b"\n")
    return Plan(list(elements[:first]), list(elements[first:end]), list(elements[end:]),
                tuple(fills), digest.digest())


def _line_info(line: str, element: ElementTree.Element, inherited: tuple[tuple[str, str], ...],
               style: Style, shapes: Shapes) -> tuple[list[str] | None, str]:
    """A board line's fills if it is a province (_crisp_fills), and its text without its
    fills; kept by the line's text (a variant's boards share most of their lines)."""
    key = (line, inherited)
    with _lock:
        found = _lines.get(key)
    if found is None:
        found = (_crisp_fills(element, style, shapes), _FILL.sub("", line))
        with _lock:
            if len(_lines) >= LINES:
                _lines.clear()
            _lines[key] = found
    return found


def _crisp_fills(element: ElementTree.Element, style: Style, shapes: Shapes) -> list[str] | None:
    """The fills of an element's shapes, if each is filled opaque, crisp, without a stroke."""
    found = shapes(element, style)
    if not found:
        return None
    fills = []
    for _, own in found:
        if (own["shape-rendering"] not in _CRISP or own["stroke"] != "none"
                or own["fill"] == "none" or float(own["fill-opacity"]) != 1.0):
            return None
        fills.append(own["fill"])
    return fills


@dataclass(frozen=True)
class Fills:
    """Which of a board's province shapes each pixel shows (its pixels, shape by shape:
    `order[starts[k]:starts[k + 1]]` are shape k's), and the layer of what lies after them."""

    order: np.ndarray[Any, np.dtype[np.uint32]]
    starts: np.ndarray[Any, np.dtype[np.intp]]
    after: Layer

    def pixels_of(self, shapes: Sequence[int]) -> np.ndarray[Any, np.dtype[np.uint32]]:
        """The pixels (numbers, row after row) showing the fill of any of `shapes`."""
        if not shapes:
            return np.empty(0, np.uint32)
        return np.concatenate([self.order[self.starts[k]:self.starts[k + 1]] for k in shapes])


def make_fills(plan_: Plan, width: int, height: int, transform: Callable[[Any], None],
               shapes: Shapes, style: Style, path: Callable[[ElementTree.Element], Any],
               draw: Callable[[ElementTree.Element, Any], None]) -> Fills:
    """The Fills of a board of `plan_`, `width` x `height` pixels; `transform` sets a canvas's
    scale, `path` gives a shape's path, `draw` paints an element on a canvas."""
    ids = np.zeros((height, width), np.uint32)
    info = skia.ImageInfo.Make(width, height, skia.kRGBA_8888_ColorType,
                               skia.kPremul_AlphaType)
    surface = skia.Surface.MakeRasterDirect(info, ids, width * 4)
    canvas = surface.getCanvas()
    transform(canvas)
    paint = skia.Paint()
    paint.setAntiAlias(False)
    number = 0
    for element in plan_.provinces:
        for shape, _ in shapes(element, style) or ():
            number += 1
            paint.setColor(0xFF000000 | number)  # ARGB: the number in r, g, b
            canvas.drawPath(path(shape), paint)
    del canvas, surface
    flat = ids.reshape(-1).view(np.uint8).reshape(-1, 4)  # r, g, b, a bytes: the number back
    which = (flat[:, 0].astype(np.uint32) << 16 | flat[:, 1].astype(np.uint32) << 8
             | flat[:, 2].astype(np.uint32))
    order = np.argsort(which, kind="stable").astype(np.uint32)
    starts = np.searchsorted(which[order], np.arange(1, number + 2))
    order, starts = order[starts[0]:], starts - starts[0]  # no pixels of no province kept

    def after(target: Any) -> None:
        transform(target)
        for element in plan_.after:
            draw(element, target)

    return Fills(order, starts, capture(width, height, after))


def refill(pixels: np.ndarray[Any, np.dtype[np.uint8]], fills: Fills, old: Sequence[str],
           new: Sequence[str], colour: Callable[[str], int]
           ) -> np.ndarray[Any, np.dtype[np.uint32]] | None:
    """Make `pixels` (a board of fills `old`, painted by its plan) the board of fills `new`:
    each changed shape's pixels its new colour, the layer after laid on them again. The
    pixels changed; None (`pixels` untouched) if a changed fill is not a colour."""
    changed = [k for k, (a, b) in enumerate(zip(old, new, strict=True)) if a != b]
    if any(old[k].startswith("url(") or new[k].startswith("url(") for k in changed):
        return None
    values = pixels.reshape(-1).view(np.uint32)
    for k in changed:
        argb = colour(new[k])
        rgba = np.array([argb >> 16 & 0xFF, argb >> 8 & 0xFF, argb & 0xFF, 0xFF], np.uint8)
        values[fills.order[fills.starts[k]:fills.starts[k + 1]]] = rgba.view(np.uint32)[0]
    places = fills.pixels_of(changed)
    lay_at(fills.after, pixels, places)
    return places


def lay_at(layer: Layer, pixels: np.ndarray[Any, np.dtype[np.uint8]],
           places: np.ndarray[Any, np.dtype[np.uint32]]) -> None:
    """Lay `layer` on `pixels` (opaque RGBA rows) at `places` alone, as Layer.lay_on does."""
    if not places.size or not layer.places.size:
        return
    at = np.searchsorted(layer.places, places)
    np.minimum(at, len(layer.places) - 1, out=at)
    hit = layer.places[at] == places
    at = at[hit]
    blend(pixels, layer.places[at], layer.colours[at], layer.under[at])
