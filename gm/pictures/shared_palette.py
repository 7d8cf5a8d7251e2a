"""One palette grown by the pictures of a variant's boards, and every colour's place in it.

The boards of a variant are alike (their provinces' owners differ), and so are the pictures on
them: the same units, arrows and names on the same sea and lands. A board's palette is worked
out whole once (gm.pictures.palette); the boards painted after it and every picture on them
take the same palette, grown: each colour met is looked up among those met before (a sorted
table of colours and their places), and only the new ones are placed: a colour the SVG names
exactly (added), a shade at the palette's nearest colour when that is within `NEAR` in every
channel, else the room left (but `RESERVED` colours, for named ones) given to such shades
(quantised, as many pixels as have them) and each of them at its nearest. An index never
changes once given, so a board's indices stay right for every picture on it. A palette that
had to place many pixels farther than `OFF` for want of room is not grown by another board:
that board's palette is worked out whole again (a new palette); nor is one that has met
`KNOWN` colours (its table's memory bounded). The pictures are as near their full-colour
paintings as quantised one by one, or nearer: of 10 standard pictures on boards of their
own, 0.019% of the pixels more than 24 off in a channel against 0.044%; of Chaos II's 0.18%
against 0.22%.

A picture's colours are then a lookup, not a quantisation: for a standard picture its 55,000
pixels painted on the board in about a millisecond, against 4 to 5 (tests/pictures/
test_picture_palette.py and test_picture_indexed.py compare the pictures with their
full-colour paintings).
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from PIL import Image

NEAR = 16  # a shade this near (in every channel) to a palette colour takes it
KNOWN = 200_000  # colours met at most, for another board to take the palette (1 MB)
RESERVED = 8  # colours kept for the colours an SVG names
OFF = 24  # a pixel this far from its colour (in a channel) is drawn off (as the tests count)
WORN = 1300  # a palette placing more pixels at once that far (a thousandth of a standard
# picture) is not grown by another board
LIMIT = 256  # a PNG palette's colours
HASHED = 18  # the hashed table of colours met: 2 ** HASHED of them (1.25 MB)

Values = np.ndarray[Any, np.dtype[np.uint32]]  # opaque RGBA pixels, one a value
Indices = np.ndarray[Any, np.dtype[np.uint8]]
Colours = np.ndarray[Any, np.dtype[np.int16]]


class Crowded(ValueError):
    """More colours named than the palette has room for."""


class SharedPalette:
    """A palette (r, g, b rows, at most LIMIT) and the places of the colours met (shared by
    the threads)."""

    def __init__(self, colours: Colours, values: Values, places: Indices) -> None:
        """`colours`: the palette a board was indexed in; `values` and `places`: that
        board's distinct colours and their indices."""
        order = np.argsort(values)
        self.colours = colours.copy()
        self.known = values[order]
        self.places = places[order].astype(np.uint8)
        self.worn = False  # many pixels placed farther than OFF
        self.lock = threading.Lock()
        self.keys = np.zeros(1 << HASHED, np.uint32)  # a colour met, by its hash (0: none)
        self.hashed = np.zeros(1 << HASHED, np.uint8)  # its place
        self._remember(self.known, self.places)

    def _remember(self, values: Values, places: Indices) -> None:
        """Keep `values`' places by their hashes too (a colour overwriting another of the
        same hash: that one is then found in the sorted table)."""
        at = _hash(values)
        self.keys[at] = values
        self.hashed[at] = places

    def growable(self) -> bool:
        """Whether another board may take this palette."""
        return not self.worn and len(self.known) <= KNOWN

    def snapshot(self) -> Colours:
        """The palette now (its first colours never change)."""
        with self.lock:
            return self.colours.copy()

    def index(self, values: Values, named: Values) -> Indices:
        """The palette places of `values`, the colours not met before placed (see above);
        Crowded when a named colour finds no room, or many pixels would be placed far from
        their colours for want of room (the palette is then worn)."""
        with self.lock:
            hashes = _hash(values)
            out: Indices = self.hashed[hashes]
            missing = np.flatnonzero(self.keys[hashes] != values)
            if missing.size:
                out[missing] = self._looked_up(values[missing], named)
            return out

    def _looked_up(self, values: Values, named: Values) -> Indices:
        """index, for colours not found by their hashes: in the sorted table, else new."""
        at = np.searchsorted(self.known, values)
        np.minimum(at, max(0, len(self.known) - 1), out=at)
        hit = self.known[at] == values if len(self.known) else np.zeros(values.shape, bool)
        out = np.empty(values.shape, np.uint8)
        out[hit] = self.places[at[hit]]
        if not hit.all():
            new, which, counts = np.unique(values[~hit], return_inverse=True, return_counts=True)
            placed = self._place(new, counts, named)
            out[~hit] = placed[which.reshape(-1)]
            at = np.searchsorted(self.known, new)  # new: sorted, none in known
            self.known = np.insert(self.known, at, new)
            self.places = np.insert(self.places, at, placed)
            self._remember(new, placed)
        return out

    def _place(self, new: Values, counts: np.ndarray[Any, np.dtype[np.intp]],
               named: Values) -> Indices:
        """Places for the colours `new` (sorted, none met before; `counts` pixels each)."""
        rgb = _rgb(new)
        places = np.empty(new.shape, np.uint8)
        exact = np.isin(new, named)
        for i in np.flatnonzero(exact).tolist():
            places[i] = self._add(rgb[i:i + 1])[0]
        shades = np.flatnonzero(~exact)
        if shades.size:
            gap, nearest = _nearest(rgb[shades], self.colours)
            far = shades[gap > NEAR]
            room = LIMIT - RESERVED - len(self.colours)
            if far.size and room > 0:
                self._add(_quantised(np.repeat(rgb[far], counts[far], axis=0),
                                     min(room, far.size)))
                gap, nearest = _nearest(rgb[shades], self.colours)
            if counts[shades][gap > OFF].sum() > WORN:  # not as near as quantised alone
                self.worn = True
                raise Crowded
            places[shades] = nearest
        return places

    def _add(self, colours: Colours) -> list[int]:
        """The places of `colours` in the palette, those not in it added."""
        out = []
        for colour in colours:
            same = np.flatnonzero((self.colours == colour).all(axis=1))
            if same.size:
                out.append(int(same[0]))
                continue
            if len(self.colours) >= LIMIT:
                raise Crowded
            out.append(len(self.colours))
            self.colours = np.concatenate((self.colours, colour.reshape(1, 3)))
        return out


def _hash(values: Values) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """Each colour's place in the hashed table (Fibonacci hashing: the top HASHED bits)."""
    product: np.ndarray[Any, np.dtype[np.uint32]] = values * np.uint32(2654435761)
    return product >> np.uint32(32 - HASHED)


def _nearest(colours: Colours, palette: Colours
             ) -> tuple[np.ndarray[Any, np.dtype[np.int16]], np.ndarray[Any, np.dtype[np.intp]]]:
    """For each colour, the gap (the largest channel's) to the palette's nearest, and its
    place."""
    gap = np.abs(colours[:, None, 0] - palette[None, :, 0])
    for channel in (1, 2):
        np.maximum(gap, np.abs(colours[:, None, channel] - palette[None, :, channel]), out=gap)
    nearest = gap.argmin(axis=1)
    return gap[np.arange(len(colours)), nearest], nearest


def _quantised(colours: Colours, most: int) -> Colours:
    """At most `most` colours standing for `colours` (one a pixel: Pillow's fast octree)."""
    image = Image.fromarray(colours.astype(np.uint8).reshape(1, -1, 3), "RGB")
    quantised = image.quantize(most, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    used = int(np.asarray(quantised).max()) + 1
    return np.array(quantised.getpalette() or [0, 0, 0], np.int16).reshape(-1, 3)[:used]


def _rgb(values: Values) -> Colours:
    """Opaque RGBA pixel values as (r, g, b) rows."""
    return values.view(np.uint8).reshape(-1, 4)[:, :3].astype(np.int16)
