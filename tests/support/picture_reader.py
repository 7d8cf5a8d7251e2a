"""Reads a map picture back as a viewer would see it: the provinces' drawn polygons, which of
them share an edge of visible length, the passages drawn as links, and the marks."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"
VISIBLE = 2.0  # a shared edge shorter than this (board units, about pixels) is not seen

Point = tuple[float, float]


def _points(text: str) -> list[Point]:
    out = []
    for pair in text.split():
        x, y = pair.split(",")
        out.append((float(x), float(y)))
    return out


@dataclass
class Drawn:
    polygons: dict[str, list[Point]]
    holes: list[list[Point]]
    passages: set[tuple[str, str]]
    width: float
    height: float

    def shared(self) -> dict[tuple[str, str], float]:
        """Each pair of provinces whose polygons share edges, and the length they share."""
        owners: dict[frozenset[Point], set[str]] = {}
        for abbr, poly in self.polygons.items():
            for i, a in enumerate(poly):
                b = poly[(i + 1) % len(poly)]
                if a != b:
                    owners.setdefault(frozenset((a, b)), set()).add(abbr)
        out: dict[tuple[str, str], float] = {}
        for seg, who in owners.items():
            if len(who) == 2:
                a, b = sorted(who)
                p, q = tuple(seg)
                out[(a, b)] = out.get((a, b), 0.0) + math.dist(p, q)
        return out

    def borders(self) -> set[tuple[str, str]]:
        """The borders a viewer sees: shared edges of visible length, and drawn passages."""
        return {pair for pair, length in self.shared().items() if length >= VISIBLE} \
            | self.passages


def read(svg: str) -> tuple[ET.Element, Drawn]:
    root = ET.fromstring(svg)
    polygons: dict[str, list[Point]] = {}
    for g in root.iter(f"{SVG}g"):
        ident = g.get("id") or ""
        if ident.startswith("p-"):
            poly = g.find(f"{SVG}polygon")
            assert poly is not None, ident
            polygons[ident[2:]] = _points(poly.get("points") or "")
    holes = [_points(p.get("points") or "") for p in root.iter(f"{SVG}polygon")
             if p.get("class") == "hole"]
    passages: set[tuple[str, str]] = set()
    for line in [*root.iter(f"{SVG}line"), *root.iter(f"{SVG}polyline")]:
        if line.get("class") == "passage":
            a, b = (line.get("data-between") or "").split("-")
            passages.add((min(a, b), max(a, b)))
    frame = next(r for r in root.iter(f"{SVG}rect") if r.get("fill") == "none"
                 and r.get("stroke") == "#555" and r.get("x") is None)
    return root, Drawn(polygons, holes, passages, float(frame.get("width") or 0),
                       float(frame.get("height") or 0))


# the presentation attributes a group passes on to what it holds (SVG inheritance)
INHERITED = ("fill", "stroke", "stroke-width", "stroke-dasharray", "font-size", "font-weight",
             "text-anchor", "paint-order")


def styles(root: ET.Element) -> dict[ET.Element, dict[str, str]]:
    """Each element's presentation attributes as drawn: its own, else its nearest group's
    (the SVG writes a style shared by many marks once, on the group holding them)."""
    out: dict[ET.Element, dict[str, str]] = {}

    def walk(e: ET.Element, above: dict[str, str]) -> None:
        mine = {**above, **{k: v for k, v in e.attrib.items() if k in INHERITED}}
        out[e] = mine
        for child in e:
            walk(child, mine)

    walk(root, {})
    return out


def area(poly: list[Point]) -> float:
    """Signed area (positive: clockwise on screen)."""
    return sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1],
                                                                 strict=True)) / 2


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def crossings(drawn: Drawn) -> list[tuple[tuple[Point, Point], tuple[Point, Point]]]:
    """Pairs of drawn edges that cross each other (touching at an end point is no crossing)."""
    segments: set[tuple[Point, Point]] = set()
    for poly in [*drawn.polygons.values(), *drawn.holes]:
        for i, a in enumerate(poly):
            b = poly[(i + 1) % len(poly)]
            if a != b:
                segments.add((min(a, b), max(a, b)))
    ordered = sorted(segments)
    found = []
    for i, (a, b) in enumerate(ordered):
        for c, d in ordered[i + 1:]:
            if c[0] > b[0]:
                break  # sorted by left end: nothing further left can reach
            if len({a, b, c, d}) < 4:
                continue
            d1, d2 = _cross(a, b, c), _cross(a, b, d)
            d3, d4 = _cross(c, d, a), _cross(c, d, b)
            if d1 * d2 < 0 and d3 * d4 < 0:
                found.append(((a, b), (c, d)))
    return found


def inside(poly: list[Point], pt: Point) -> bool:
    x, y = pt
    result = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            result = not result
    return result
