"""The schematic board: one cell per province, computed from the provinces' `at x,y` positions.

Each province gets the part of the board nearer to its position than to any other province's
(a Voronoi cell), cut to a disc around its position so that open sea at the board's edge does
not spread without end. The cells depend only on the map data, never on the terrain, so they
are computed once per variant; the picture colours them by the terrain of the moment.
A province without a position (map data may omit `at`) is placed at the mean position of its
neighbours that have one, or on a row below the board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from gm.variants import get_variant

Point = tuple[float, float]

CELL_RADIUS = 95.0  # how far a cell reaches from its position at most (board units)
MARGIN = 60.0


@dataclass(frozen=True)
class Layout:
    """Where everything goes: each province's position and cell, and the board's size."""

    positions: Mapping[str, Point]
    cells: Mapping[str, tuple[Point, ...]]
    width: float
    height: float
    left: float
    top: float


def _clip(polygon: list[Point], a: Point, b: Point) -> list[Point]:
    """The part of `polygon` nearer to `a` than to `b` (Sutherland-Hodgman, one half-plane)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def inside(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny  # <= 0: on a's side

    out: list[Point] = []
    for i, cur in enumerate(polygon):
        prev = polygon[i - 1]
        d_cur, d_prev = inside(cur), inside(prev)
        if d_cur <= 0:
            if d_prev > 0:
                t = d_prev / (d_prev - d_cur)
                out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
            out.append(cur)
        elif d_prev <= 0:
            t = d_prev / (d_prev - d_cur)
            out.append((prev[0] + t * (cur[0] - prev[0]), prev[1] + t * (cur[1] - prev[1])))
    return out


def _disc(centre: Point, radius: float, sides: int = 24) -> list[Point]:
    return [
        (centre[0] + radius * math.cos(2 * math.pi * k / sides),
         centre[1] + radius * math.sin(2 * math.pi * k / sides))
        for k in range(sides)
    ]


def _positions(variant_name: str) -> dict[str, Point]:
    gmap = get_variant(variant_name).map
    placed: dict[str, Point] = {
        abbr: (float(p.position[0]), float(p.position[1]))
        for abbr, p in gmap.provinces.items() if p.position is not None
    }
    missing = sorted(a for a in gmap.provinces if a not in placed)
    bottom = max((y for _, y in placed.values()), default=0.0) + 2 * CELL_RADIUS
    for i, abbr in enumerate(missing):
        near = [placed[n] for n in sorted(gmap.borders.get(abbr, ())) if n in placed]
        if near:
            x = sum(p[0] for p in near) / len(near) + 7.0 * (i % 3)
            y = sum(p[1] for p in near) / len(near) + 7.0 * (i % 2)
            placed[abbr] = (x, y)
        else:
            placed[abbr] = (MARGIN + 2 * CELL_RADIUS * i, bottom)
    return placed


@cache
def layout(variant_name: str) -> Layout:
    """The board of a variant (computed once per process)."""
    positions = _positions(variant_name)
    xs = [p[0] for p in positions.values()] or [0.0]
    ys = [p[1] for p in positions.values()] or [0.0]
    left, top = min(xs) - CELL_RADIUS - MARGIN, min(ys) - CELL_RADIUS - MARGIN
    right, bottom = max(xs) + CELL_RADIUS + MARGIN, max(ys) + CELL_RADIUS + MARGIN
    cells: dict[str, tuple[Point, ...]] = {}
    items = sorted(positions.items())
    for abbr, here in items:
        poly = _disc(here, CELL_RADIUS)
        for other, there in items:
            if other == abbr or there == here:
                continue
            if abs(there[0] - here[0]) > 2 * CELL_RADIUS or \
                    abs(there[1] - here[1]) > 2 * CELL_RADIUS:
                continue
            poly = _clip(poly, here, there)
            if not poly:
                break
        cells[abbr] = tuple((round(x, 1), round(y, 1)) for x, y in poly)
    return Layout(positions, cells, right - left, bottom - top, left, top)
