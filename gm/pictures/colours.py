"""Colours of the pictures: terrain, and one colour per power that can be told apart.

Distances are CIE76 differences in CIELAB (sRGB, D65): about 2.3 is just noticeable, 20 is
plainly another colour. The seven standard powers keep colours players know (Austria red,
England purple, France blue, Germany brown, Italy green, Russia black, Turkey amber); a variant
with more powers takes each further colour as far as possible from every colour already taken
(terrain included), from a grid of candidates, so Chaos II's 34 stay apart.
"""

from __future__ import annotations

import math
from functools import cache

TERRAIN_COLOURS = {
    "sea": "#a8c8e6",
    "lake": "#6fa8d6",
    "land": "#efe6cc",
    "mountain": "#c8b48c",
    "impassable": "#8a8a8a",
    "ice": "#f4fbff",
}
BACKGROUND = "#ffffff"
STANDARD = ("#d62728", "#8e24aa", "#1565c0", "#6d4c2f", "#2e7d32", "#212121", "#f9a825")
MIN_DISTANCE = 25.0  # the least distance kept between power colours (tests check it)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(colour: str) -> tuple[float, float, float]:
    """CIELAB of an sRGB colour `#rrggbb`."""
    r, g, b = (_linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def distance(a: str, b: str) -> float:
    """CIE76 colour difference of two `#rrggbb` colours."""
    return math.dist(lab(a), lab(b))


@cache
def palette(count: int) -> tuple[str, ...]:
    """`count` power colours: the standard seven first, then the farthest remaining ones."""
    chosen = list(STANDARD[:count])
    if count <= len(chosen):
        return tuple(chosen)
    levels = (0x00, 0x33, 0x55, 0x77, 0x99, 0xbb, 0xdd, 0xff)
    candidates = [f"#{r:02x}{g:02x}{b:02x}" for r in levels for g in levels for b in levels]
    taken = [lab(c) for c in (*chosen, *TERRAIN_COLOURS.values(), BACKGROUND)]
    labs = {c: lab(c) for c in candidates}
    nearest = {c: min(math.dist(labs[c], t) for t in taken) for c in candidates}
    while len(chosen) < count:
        best = max(candidates, key=lambda c: (nearest[c], c))
        chosen.append(best)
        new = labs[best]
        for c in candidates:
            nearest[c] = min(nearest[c], math.dist(labs[c], new))
    return tuple(chosen)


def text_on(colour: str) -> str:
    """Black or white, whichever reads better on `colour`."""
    return "#000000" if lab(colour)[0] > 60 else "#ffffff"
