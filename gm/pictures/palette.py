"""The palette of an indexed PNG, and each pixel's place in it.

A picture is at most `COLOURS` colours: Pillow's fast octree quantiser, no dithering
(dithering speckles flat colours and deflates worse), then each palette colour within `SNAP` of
a colour the SVG names is made exactly that colour (so seas, lands and power colours are the
SVG's own, not the average of their shades' bucket).

Quantising a whole picture costs more than painting it (about 15 ms for a standard board 1,140
pixels wide). A picture painted on a kept board (gm.pictures.paint.Board) is quantised in two
parts instead: the board once, to `BOARD_COLOURS` colours, its indices kept with it for every
picture on it; then only the pixels painted after the board (units, orders, names, legend,
heading: a twentieth of a standard picture) to the rest of the palette. The colours a player
sees are the same (tests/pictures/test_picture_indexed.py compares both with the full-colour
painting, pixel by pixel). A new board (other owners, or the phase's other picture at another
height) takes the palette of the board kept before it, grown by the colours of the pixels
that differ (`GROWN`): a board's indices in 1 to 2 ms instead of 5 to 6.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image

COLOURS = 256  # the indexed PNG's palette
BOARD_COLOURS = 128  # the board's share of it when quantised apart (the rest: what is on it)
GROWN = 160  # a board's share when its palette is another board's grown (rows_on_board)
NEAR = 16  # a shade farther than this (in a channel) from its bucket's colour takes the nearest
SNAP = 16  # a palette colour this near (in every channel) to one the SVG names becomes it
_HEX = re.compile(r'"#([0-9a-fA-F]{6})"')

Indices = np.ndarray[Any, np.dtype[np.uint8]]
Colours = np.ndarray[Any, np.dtype[np.int16]]
Source = tuple[np.ndarray[Any, np.dtype[np.uint8]], dict[str, Any]]  # a board's pixels, derived


def quantise(rgba: np.ndarray[Any, np.dtype[np.uint8]], colours: int) -> tuple[Indices, Colours]:
    """Rows of opaque RGBA pixels (rows x columns x 4) as palette indices (rows x columns) and
    the palette (r, g, b rows; as many as the indices use)."""
    image = Image.fromarray(rgba, "RGBA").convert("RGB")
    quantised = image.quantize(colours, method=Image.Quantize.FASTOCTREE,
                               dither=Image.Dither.NONE)
    indices = np.asarray(quantised)
    used = int(indices.max()) + 1 if indices.size else 1
    palette = np.array(quantised.getpalette() or [0, 0, 0], np.int16).reshape(-1, 3)
    return indices, palette[:used]


def on_board(pixels: np.ndarray[Any, np.dtype[np.uint8]], width: int, height: int,
             board: np.ndarray[Any, np.dtype[np.uint8]], derived: dict[str, Any], svg: str
             ) -> tuple[Indices, Colours] | None:
    """The indices and palette of `pixels` (rows of RGBA, `width` x `height`) painted on
    `board` (the same size): the board's own, worked out once and kept in `derived` (the
    board's, gm.pictures.paint.Board.derived), and those of the pixels that differ from it
    in the colours left. A pixel of a colour `svg` names has exactly that colour; the others
    (the shades along edges and letters) are quantised. None when the SVG names too many
    colours to leave room for the shades."""
    found = rows_on_board(pixels, width, height, board, derived, svg)
    return None if found is None else (found[0][:, 1:], found[1])


def rows_on_board(pixels: np.ndarray[Any, np.dtype[np.uint8]], width: int, height: int,
                  board: np.ndarray[Any, np.dtype[np.uint8]], derived: dict[str, Any], svg: str,
                  source: Source | None = None) -> tuple[Indices, Colours] | None:
    """on_board's indices as a PNG's rows (height x width + 1), each behind its filter byte
    (0: none), as gm.pictures.png deflates them: the board's rows laid out so once, kept in
    `derived`, and each picture's a copy of them with its changed pixels written in (no other
    copy of the picture's indices). `source`: the pixels and `derived` of the board this one
    was painted from (gm.pictures.paint.Board.source), if any: where that board's palette was
    worked out whole (or is another's so worked out), this board's is that palette with the
    pixels that differ from that board's indexed in up to `GROWN` colours more (a board
    differs from another of its variant in a few provinces: their rows copied, not a million
    pixels looked at again)."""
    named = _packed(named_colours(svg))
    try:
        root = None if "palette" in derived or source is None else _root(*source)
        if root is not None:
            try:
                derived["palette"] = _from_root(board, width, height, root, named)
                derived["root"] = root
            except _Crowded:
                pass
        if "palette" not in derived:
            found = _indexed(board.reshape(-1).view(np.uint32), named,
                             np.empty((0, 3), np.int16), BOARD_COLOURS)
            rows = np.zeros((height, width + 1), np.uint8)
            rows[:, 1:] = found[0].reshape(height, width)
            derived["palette"] = (rows, found[1])
        kept: tuple[Indices, Colours] | None = derived["palette"]
        if kept is None:
            return None
        rows, palette = kept
        now = pixels.reshape(-1).view(np.uint32)  # one RGBA pixel a value
        changed = np.flatnonzero(now != board.reshape(-1).view(np.uint32))
        rows = rows.copy()
        if changed.size:
            more, palette = _indexed(now[changed], named, palette, COLOURS)
            rows.reshape(-1)[changed + changed // width + 1] = more  # past the filter bytes
    except _Crowded:
        derived.setdefault("palette", None)
        return None
    return rows, palette


def _root(pixels: np.ndarray[Any, np.dtype[np.uint8]], derived: dict[str, Any]) -> Source | None:
    """The board whose palette was worked out whole that the board of `pixels` and `derived`
    is, or takes its palette from; None if none is (not worked out yet, or declined)."""
    root: Source | None = derived.get("root")
    if root is not None:
        return root
    kept = derived.get("palette")
    return None if kept is None or len(kept[1]) > BOARD_COLOURS else (pixels, derived)


def _from_root(board: np.ndarray[Any, np.dtype[np.uint8]], width: int, height: int,
               root: Source, named: np.ndarray[Any, np.dtype[np.uint32]]
               ) -> tuple[Indices, Colours]:
    """The rows and palette of `board` (`height` rows of `width` pixels) as those of `root`
    (as wide, maybe another height) with the pixels that differ indexed anew."""
    pixels, derived = root
    kept_rows, palette = derived["palette"]
    common = min(height, len(kept_rows))
    rows = np.zeros((height, width + 1), np.uint8)
    rows[:common] = kept_rows[:common]
    now = board.reshape(-1).view(np.uint32)
    changed = np.flatnonzero(now[:common * width] != pixels[:common].reshape(-1).view(np.uint32))
    if height > common:
        changed = np.concatenate((changed, np.arange(common * width, height * width)))
    if changed.size:
        more, palette = _indexed(now[changed], named, palette, GROWN)
        rows.reshape(-1)[changed + changed // width + 1] = more
    return rows, palette


def _packed(colours: Colours) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """(r, g, b) rows as opaque RGBA pixel values (as numpy reads RGBA bytes), sorted."""
    c = colours.astype(np.uint32)
    return np.sort(c[:, 0] | c[:, 1] << 8 | c[:, 2] << 16 | np.uint32(0xFF000000))


def _indexed(values: np.ndarray[Any, np.dtype[np.uint32]],
             named: np.ndarray[Any, np.dtype[np.uint32]], palette: Colours, limit: int
             ) -> tuple[Indices, Colours]:
    """`values` (opaque RGBA pixel values) as indices into `palette` grown to at most `limit`
    colours: each of the `named` colours found among them exactly, the rest quantised into
    the room left (at least one colour). A pixel's index depends on its colour alone, so
    each colour is looked at once: found in the runs of pixels of one colour (a board's row
    crosses a sea or a land in a few), a thirtieth as many as the pixels, and among them;
    only the quantiser counts every pixel."""
    if not values.size:
        return np.empty(0, np.uint8), palette
    starts = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
    lengths = np.diff(np.append(starts, values.size))
    colours = values[starts]  # each run's colour
    distinct, which = np.unique(colours, return_inverse=True)
    which = which.reshape(-1)
    at = np.searchsorted(named, distinct)
    np.minimum(at, max(0, len(named) - 1), out=at)
    exact = named[at] == distinct if named.size else np.zeros(distinct.shape, bool)
    indices = np.empty(distinct.shape, np.uint8)
    if exact.any():
        found = np.flatnonzero(np.bincount(at[exact], minlength=len(named)))
        rgb = np.stack([(named[found] >> shift) & 0xFF for shift in (0, 8, 16)], axis=1)
        known = {tuple(c): i for i, c in enumerate(palette.tolist())}
        slot = np.empty(len(named), np.int64)
        added: list[list[int]] = []
        for n, colour in zip(found.tolist(), rgb.astype(np.int16).tolist(), strict=True):
            i = known.get(tuple(colour))
            if i is None:
                i = known[tuple(colour)] = len(palette) + len(added)
                added.append(colour)
            slot[n] = i
        if len(palette) + len(added) > limit:
            raise _Crowded
        palette = np.concatenate((palette, np.array(added, np.int16).reshape(-1, 3)))
        indices[exact] = slot[at[exact]]
    rest = ~exact
    if rest.any():
        room = limit - len(palette)
        if room < 1:
            raise _Crowded
        shaded_runs = rest[which]
        counts = lengths[shaded_runs]
        shaded = np.repeat(colours[shaded_runs], counts)  # each pixel counted by the quantiser
        quantised, extra = quantise(shaded.view(np.uint8).reshape(1, -1, 4), room)
        more = np.empty(distinct.shape, np.uint8)  # each shade's bucket: its runs' first pixel's
        more[which[shaded_runs]] = quantised.reshape(-1)[np.cumsum(counts) - counts]
        more = more[rest] + len(palette)
        palette = np.concatenate((palette, extra))
        shades = distinct[rest]
        off = np.flatnonzero(np.abs(palette[more] - _rgb(shades)).max(axis=1) > NEAR)
        if off.size:  # a shade its bucket's average misses: the nearest colour of all
            more[off] = nearest(_rgb(shades[off]), palette)  # each shade once already
        indices[rest] = more
    return np.repeat(indices[which], lengths), palette


def nearest(colours: Colours, palette: Colours) -> np.ndarray[Any, np.dtype[np.intp]]:
    """For each colour, the index of the palette's nearest (the largest channel's gap)."""
    gap = np.abs(colours[:, None, 0] - palette[None, :, 0])
    for channel in (1, 2):
        np.maximum(gap, np.abs(colours[:, None, channel] - palette[None, :, channel]), out=gap)
    found: np.ndarray[Any, np.dtype[np.intp]] = gap.argmin(axis=1)
    return found


def _rgb(values: np.ndarray[Any, np.dtype[np.uint32]]) -> Colours:
    """Opaque RGBA pixel values as (r, g, b) rows."""
    return values.view(np.uint8).reshape(-1, 4)[:, :3].astype(np.int16)


class _Crowded(ValueError):
    """More colours named than a palette holds with room for their shades."""


def snapped(palette: Colours, svg: str) -> bytes:
    """The palette as r, g, b bytes, each colour within SNAP of one `svg` names made it."""
    named = named_colours(svg)
    colours = palette.copy()
    if named.size and colours.size:
        gap = np.abs(colours[:, None, :] - named[None, :, :]).max(axis=2)
        nearest = gap.argmin(axis=1)
        near = gap[np.arange(len(colours)), nearest] <= SNAP
        colours[near] = named[nearest[near]]
    return colours.astype(np.uint8).tobytes()


@lru_cache(maxsize=4)
def named_colours(svg: str) -> Colours:
    """The `#rrggbb` colours `svg` names, as rows of (r, g, b) (white and black with them);
    remembered for the last few pictures (the palette and its snapping both ask), read-only."""
    colours = _named_colours(svg)
    colours.flags.writeable = False
    return colours


def _named_colours(svg: str) -> Colours:
    found = {m.lower() for m in _HEX.findall(svg)} | {"ffffff", "000000"}
    return np.array([[int(h[i:i + 2], 16) for i in (0, 2, 4)] for h in sorted(found)],
                    np.int16).reshape(-1, 3)
