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
height) and every picture on it take the palette of the board kept before it, grown
(gm.pictures.shared_palette): a board's indices in 1 to 2 ms instead of 5 to 6, a picture's
in about 2 instead of 5.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image

from gm.pictures.shared_palette import Crowded, SharedPalette

COLOURS = 256  # the indexed PNG's palette
BOARD_COLOURS = 128  # the board's share of it when quantised apart (the rest: what is on it)
NEAR = 16  # a shade farther than this (in a channel) from its bucket's colour takes the nearest
SNAP = 16  # a palette colour this near (in every channel) to one the SVG names becomes it
_HEX = re.compile(r'"#([0-9a-fA-F]{6})"')

Indices = np.ndarray[Any, np.dtype[np.uint8]]
Colours = np.ndarray[Any, np.dtype[np.int16]]
# a board's pixels and derived, and the pixels that differ from them, if known
Source = tuple[np.ndarray[Any, np.dtype[np.uint8]], dict[str, Any],
               np.ndarray[Any, np.dtype[np.uint32]] | None]


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
    copy of the picture's indices). `source`: the pixels and `derived` of a kept board as wide
    (gm.pictures.paint.Board.source), if any, and the pixels of this board that differ from
    it, if known (else found): this board's palette is then that board's,
    grown (gm.pictures.shared_palette), and its rows that board's with the pixels that differ
    placed in it (a board differs from another of its variant in a few provinces: not a
    million pixels looked at again)."""
    named = _packed(named_colours(svg))
    if "palette" not in derived:
        try:
            derived["palette"] = _board_rows(board, width, height, named, source)
        except (_Crowded, Crowded):
            derived["palette"] = None
    kept: tuple[Indices, SharedPalette] | None = derived["palette"]
    if kept is None:
        return None
    rows, shared = kept
    now = pixels.reshape(-1).view(np.uint32)  # one RGBA pixel a value
    changed = np.flatnonzero(now != board.reshape(-1).view(np.uint32))
    rows = rows.copy()
    try:
        if changed.size:  # past the filter bytes:
            rows.reshape(-1)[changed + changed // width + 1] = shared.index(now[changed], named)
    except Crowded:
        shared.worn = True  # the next board's palette worked out whole
        return None
    return rows, shared.snapshot()


def _board_rows(board: np.ndarray[Any, np.dtype[np.uint8]], width: int, height: int,
                named: np.ndarray[Any, np.dtype[np.uint32]], source: Source | None
                ) -> tuple[Indices, SharedPalette]:
    """A board's rows and palette: `source`'s grown where it may be, else worked out whole
    (its colours quantised to BOARD_COLOURS: _Crowded if it names too many)."""
    now = board.reshape(-1).view(np.uint32)
    kept = None if source is None else source[1].get("palette")
    if kept is not None and kept[1].growable():
        pixels, (kept_rows, shared), changed = source[0], kept, source[2]  # type: ignore[index]
        common = min(height, len(kept_rows))
        if changed is not None and not changed.size and height <= common:
            return kept_rows[:height], shared  # the same rows (never written to)
        rows = np.zeros((height, width + 1), np.uint8)
        rows[:common] = kept_rows[:common]
        if changed is None:
            changed = np.flatnonzero(now[:common * width]
                                     != pixels[:common].reshape(-1).view(np.uint32))
        if height > common:
            changed = np.concatenate((changed, np.arange(common * width, height * width)))
        try:
            if changed.size:
                rows.reshape(-1)[changed + changed // width + 1] = shared.index(now[changed],
                                                                                named)
            return rows, shared
        except Crowded:
            shared.worn = True
    indices, colours, distinct, places = _indexed_all(now, named, np.empty((0, 3), np.int16),
                                                      BOARD_COLOURS)
    rows = np.zeros((height, width + 1), np.uint8)
    rows[:, 1:] = indices.reshape(height, width)
    return rows, SharedPalette(colours, distinct, places)


def _packed(colours: Colours) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """(r, g, b) rows as opaque RGBA pixel values (as numpy reads RGBA bytes), sorted."""
    c = colours.astype(np.uint32)
    return np.sort(c[:, 0] | c[:, 1] << 8 | c[:, 2] << 16 | np.uint32(0xFF000000))


def _indexed(values: np.ndarray[Any, np.dtype[np.uint32]],
             named: np.ndarray[Any, np.dtype[np.uint32]], palette: Colours, limit: int
             ) -> tuple[Indices, Colours]:
    """_indexed_all's indices and palette."""
    return _indexed_all(values, named, palette, limit)[:2]


def _indexed_all(values: np.ndarray[Any, np.dtype[np.uint32]],
                 named: np.ndarray[Any, np.dtype[np.uint32]], palette: Colours, limit: int
                 ) -> tuple[Indices, Colours, np.ndarray[Any, np.dtype[np.uint32]], Indices]:
    """`values` (opaque RGBA pixel values) as indices into `palette` grown to at most `limit`
    colours: each of the `named` colours found among them exactly, the rest quantised into
    the room left (at least one colour). A pixel's index depends on its colour alone, so
    each colour is looked at once: found in the runs of pixels of one colour (a board's row
    crosses a sea or a land in a few), a thirtieth as many as the pixels, and among them;
    only the quantiser counts every pixel. With them: the distinct colours and their
    indices."""
    if not values.size:
        return np.empty(0, np.uint8), palette, values, np.empty(0, np.uint8)
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
    return np.repeat(indices[which], lengths), palette, distinct, indices


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
    """The palette as r, g, b bytes, each colour within SNAP of one `svg` names made it
    (remembered for the last few palettes and names: a variant's pictures share both)."""
    return _snapped(palette.astype(np.int16).tobytes(), named_colours(svg).tobytes())


@lru_cache(maxsize=16)
def _snapped(palette: bytes, names: bytes) -> bytes:
    named = np.frombuffer(names, np.int16).reshape(-1, 3)
    colours = np.frombuffer(palette, np.int16).reshape(-1, 3).copy()
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
