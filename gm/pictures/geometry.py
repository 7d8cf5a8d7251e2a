"""The board's polygons, derived from the map data's border rings.

A ring lists a province's neighbours clockwise, one entry per stretch of common border; two
consecutive entries X Q in P's ring are the point (a *corner*) where P, X and Q meet. The rings
therefore fix a planar drawing: each province is the polygon of its corners in ring order, and
two provinces share an edge exactly where the rings say they border. Only where the corners go
is left to choose. Where the map packs provinces closer than a unit, a centre and a name need
(Britain), their positions (`at x,y` in the map data) are first moved apart a little. Each
corner starts at the mean of the positions of the provinces meeting there (a corner on the
board's edge slides along it, a board corner stays put), then each corner is drawn towards the
mean of its neighbouring corners a few times, which evens the shapes out while keeping them
where the geography puts them; a province still too small for its unit, centre and name then
grows into its neighbours. Each stretch of border bends a little towards the line between the
two provinces' positions. A province with only two stretches (Portugal, between Spain and the
Mid-Atlantic) and an island (Ireland, whose seas' positions lie all to one side of it) are
drawn round their own position, their corners between their neighbours' directions.

A province of two stretches is drawn at least large enough for its unit, centre and name,
however near its neighbours' positions are. Where the map data gives a province's unit or
name a place (`unit x,y`, `label x,y`), it is moved as the province's position was and kept
where it lies inside the province (Board.units, Board.labels).

Nothing here is written by hand: a changed map file gives a changed board, and
tests/pictures/test_picture_geometry.py reads the drawn polygons back and compares which
share an edge with the map's borders. Edge markers other than ~N ~E ~S ~W (an island that is
no province, Abstraction2's ~Crete) are drawn as holes. `passages` (borders of no length,
Abstraction2 rule 4) are drawn as marked links between the two provinces.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from gm.engine.topology import RingTopology, is_edge
from gm.engine.variant import Variant

Point = tuple[float, float]

MARGIN = 45.0  # from the outermost position to the board's edge
SPACING = 70.0  # the least median distance from a position to its nearest neighbour
SIDES = ("~N", "~E", "~S", "~W")
RELAX_ROUNDS = 12
RELAX_PULL = 0.5  # how strongly a corner is drawn to the mean of its neighbours each round
ARC_STEP = math.pi / 8  # the most an arc round a small province turns between two points
BEND = 0.25  # how far a stretch of border bends towards the line between the two positions
CROWDED = 0.9 * SPACING  # ring neighbours closer than this are moved apart
SPREAD_ROUNDS = 24
ROOM = (0.85 * SPACING) ** 2  # the area a province needs for a unit, a centre and its name
GROW_ROUNDS = 10
GROW_STEP = 1.12  # the most a province's corners move away from its middle in one round
SMALL_RADIUS = math.sqrt(ROOM / 2)  # the least radius of a province of two stretches
UNIT_CLEAR = 10.0  # a unit placed by the map data (`unit x,y`) at least this far inside
LABEL_CLEAR = 4.0  # and a name (`label x,y`)
SMALL_SHARE = 0.45  # its radius: this share of the distance to its nearest neighbour


@dataclass(frozen=True)
class Stretch:
    """One stretch of common border: the provinces on either side and its polyline."""

    a: str
    b: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class Board:
    """The drawn board of a map: province polygons, holes, borders, passages, anchors."""

    width: float
    height: float
    polygons: dict[str, tuple[Point, ...]]
    holes: dict[str, tuple[Point, ...]]  # islands that are no province (edge markers)
    stretches: tuple[Stretch, ...]  # every drawn border between two provinces
    passages: dict[tuple[str, str], tuple[Point, ...]]  # each passage's link, as drawn
    anchors: dict[str, Point]  # a point well inside each province (units, labels)
    slots: dict[tuple[str, int], int]  # (province, slot of its ring) -> index in stretches
    units: dict[str, Point]  # where the map data puts a unit (`unit x,y`), where inside
    labels: dict[str, Point]  # where the map data puts a name (`label x,y`), where inside


def _topology(variant: Variant) -> RingTopology:
    deriver = variant.map.deriver
    if not isinstance(deriver, RingTopology):
        raise TypeError(f"{variant.name}: its map has no border rings to draw from")
    return deriver


CornerKey = tuple[str, str, str, int]


def _rotate(triple: tuple[str, str, str]) -> tuple[str, str, str]:
    """The rotation of a cyclic triple that starts with its smallest name."""
    a, b, c = triple
    return min((a, b, c), (b, c, a), (c, a, b))


@cache
def board(variant: Variant) -> Board:
    """The board of a variant (computed once per variant: a file read again is a new one)."""
    return build_board(_topology(variant))


def build_board(topo: RingTopology) -> Board:
    """The board drawn from a ring topology (its rings and its provinces' positions)."""
    rings = topo.rings
    pos: dict[str, Point] = {}
    for abbr, prov in topo.provinces.items():
        if prov.position is not None:
            pos[abbr] = (float(prov.position[0]), float(prov.position[1]))
    for abbr in sorted(topo.provinces):  # a province without a position: its neighbours' mean
        if abbr not in pos:
            near = [pos[q] for q in rings[abbr] if q in pos]
            pos[abbr] = (sum(p[0] for p in near) / len(near), sum(p[1] for p in near) / len(near)) \
                if near else (0.0, 0.0)
    # a dense map is drawn larger, so that its small provinces still hold a unit and a name
    nearest = sorted(min((math.dist(a, b) for b in pos.values() if b is not a), default=SPACING)
                     for a in pos.values())
    scale = max(1.0, SPACING / nearest[len(nearest) // 2]) if nearest else 1.0
    scaled = {a: (x * scale, y * scale) for a, (x, y) in pos.items()}
    pos = _spread(scaled, rings)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    left, top = min(xs) - MARGIN, min(ys) - MARGIN
    pos = {a: (x - left, y - top) for a, (x, y) in pos.items()}

    def placed(abbr: str, where: tuple[float, float]) -> Point:
        """A point given in the map's coordinates, moved as its province's position was."""
        return (where[0] * scale + pos[abbr][0] - scaled[abbr][0],
                where[1] * scale + pos[abbr][1] - scaled[abbr][1])
    width, height = max(xs) - left + MARGIN, max(ys) - top + MARGIN

    # islands (edge markers that are no side of the board): at the mean of their neighbours
    holes: dict[str, list[str]] = {}
    for p, ring in rings.items():
        for q in ring:
            if is_edge(q) and q not in SIDES:
                holes.setdefault(q, []).append(p)
    for hole, around in holes.items():
        pos[hole] = (sum(pos[p][0] for p in around) / len(around),
                     sum(pos[p][1] for p in around) / len(around))

    # corners: one per (cyclic triple, occurrence); each province's corners in ring order
    corner_of: dict[tuple[str, int], int] = {}  # (province, slot) -> corner id
    keys: dict[CornerKey, int] = {}
    members: list[tuple[str, str, str]] = []
    for p in sorted(rings):
        ring = rings[p]
        n = len(ring)
        seen: dict[tuple[str, str, str], int] = {}
        for i in range(n):
            triple = _rotate((p, ring[i], ring[(i + 1) % n]))
            k = seen.get(triple, 0)
            seen[triple] = k + 1
            key = (*triple, k)
            if key not in keys:
                keys[key] = len(members)
                members.append(triple)
            corner_of[(p, i)] = keys[key]

    def side_point(sides: list[str], others: list[Point]) -> Point | None:
        if not sides:
            return None
        x = sum(o[0] for o in others) / len(others) if others else width / 2
        y = sum(o[1] for o in others) / len(others) if others else height / 2
        for s in sides:
            if s == "~N":
                y = 0.0
            elif s == "~S":
                y = height
            elif s == "~W":
                x = 0.0
            elif s == "~E":
                x = width
        return (x, y)

    anchor: list[Point] = []
    fixed: list[tuple[bool, bool]] = []  # (x fixed, y fixed)
    for triple in members:
        sides = [m for m in triple if m in SIDES]
        others = [pos[m] for m in triple if m not in SIDES]
        on_side = side_point(sides, others)
        if on_side is not None:
            anchor.append(on_side)
            fx = any(s in ("~W", "~E") for s in sides)
            fy = any(s in ("~N", "~S") for s in sides)
            fixed.append((fx, fy))
        else:
            anchor.append((sum(o[0] for o in others) / 3, sum(o[1] for o in others) / 3))
            fixed.append((False, False))

    # a province of two stretches (Portugal) would be a sliver between its corners' anchors,
    # and an island's anchors (Ireland's) lie to one side of it where one sea's position is
    # nearer than the others': such a province is drawn round its position, its corners on a
    # circle between the directions of its neighbours; an island's stretches are arcs
    water = {a for a, prov in topo.provinces.items() if prov.terrain.is_water}
    small: dict[str, tuple[float, list[float], bool]] = {}  # radius, corner angles, an arc?
    round_corners: set[int] = set()
    for p, ring in rings.items():
        if any(is_edge(q) for q in ring):
            continue
        island = p not in water and all(q in water for q in ring)
        if len(ring) != 2 and not island:
            continue
        here = pos[p]
        radius = SMALL_SHARE * min(math.dist(pos[q], here) for q in ring)
        if not island:  # a diamond has room for its unit, centre and name (the area ROOM),
            radius = max(radius, SMALL_RADIUS)  # its two larger neighbours give way
        if island:  # round: its corners between its neighbours' directions
            angles = _corner_angles([math.atan2(pos[q][1] - here[1], pos[q][0] - here[0])
                                     for q in ring])
        else:  # a diamond: its two stretches face the two neighbours, its corners between
            first, second = ring
            away = math.atan2(pos[first][1] - pos[second][1], pos[first][0] - pos[second][0])
            angles = [away + math.pi / 2, away - math.pi / 2]  # clockwise from x, from y
        small[p] = (radius, angles, island)
        for i, angle in enumerate(angles):
            c = corner_of[(p, i)]
            anchor[c] = (here[0] + radius * math.cos(angle), here[1] + radius * math.sin(angle))
            fixed[c] = (True, True)
            round_corners.add(c)

    # neighbouring corners: the two ends of each stretch
    links: list[set[int]] = [set() for _ in members]
    for p, ring in rings.items():
        n = len(ring)
        for i in range(n):
            a, b = corner_of[(p, (i - 1) % n)], corner_of[(p, i)]
            if a != b:
                links[a].add(b)
                links[b].add(a)
    at = list(anchor)
    for _ in range(RELAX_ROUNDS):
        new = []
        for c, (ax, ay) in enumerate(anchor):
            linked = links[c]
            if not linked:
                new.append(at[c])
                continue
            mx = sum(at[d][0] for d in linked) / len(linked)
            my = sum(at[d][1] for d in linked) / len(linked)
            fx, fy = fixed[c]
            new.append((ax if fx else (1 - RELAX_PULL) * ax + RELAX_PULL * mx,
                        ay if fy else (1 - RELAX_PULL) * ay + RELAX_PULL * my))
        at = new
    at = _grow(at, fixed, {p: [corner_of[(p, i)] for i in range(len(ring))]
                           for p, ring in rings.items() if p not in small})

    stretch_count: dict[tuple[str, str], int] = {}
    for p, ring in rings.items():
        for q in ring:
            pair = (min(p, q), max(p, q))
            stretch_count[pair] = stretch_count.get(pair, 0) + 1

    def bend(p: str, q: str, k1: int, k2: int) -> Point | None:
        """A point between the stretch's corners, drawn a little towards the line between the
        two positions; none on the board's edge, straight where two provinces share more than
        one stretch (the line between their positions says nothing of which one) or where it
        leaves a round province (the line might cross it)."""
        if is_edge(q):
            return None
        c1, c2 = at[k1], at[k2]
        if stretch_count[(min(p, q), max(p, q))] > 2 or k1 in round_corners \
                or k2 in round_corners:  # stretch_count: counted from both sides
            return ((c1[0] + c2[0]) / 2, (c1[1] + c2[1]) / 2)
        mx, my = (c1[0] + c2[0]) / 2, (c1[1] + c2[1]) / 2
        tx, ty = (pos[p][0] + pos[q][0]) / 2, (pos[p][1] + pos[q][1]) / 2
        return (mx + BEND * (tx - mx), my + BEND * (ty - my))

    def r(pt: Point) -> Point:
        return (round(pt[0], 1), round(pt[1], 1))

    # each stretch's points between its corners, from the corner it was first drawn from
    bends: dict[tuple[int, int, str, str], tuple[int, tuple[Point, ...]]] = {}
    for p, (radius, angles, island) in small.items():  # round a small province's position
        ring, here = rings[p], pos[p]
        for i, q in enumerate(ring):
            c1, c2 = corner_of[(p, i - 1 if i else len(ring) - 1)], corner_of[(p, i)]
            start = angles[i - 1]
            span = (angles[i] - start) % (2 * math.pi)
            steps = max(2, math.ceil(span / ARC_STEP)) if island else 2
            arc = tuple(r((here[0] + radius * math.cos(start + span * k / steps),
                           here[1] + radius * math.sin(start + span * k / steps)))
                        for k in range(1, steps))
            bends[(min(c1, c2), max(c1, c2), min(p, q), max(p, q))] = (c1, arc)
    polygons: dict[str, tuple[Point, ...]] = {}
    stretches: list[Stretch] = []
    stretch_of: dict[tuple[int, int, str, str], int] = {}
    slot_keys: dict[tuple[str, int], tuple[int, int, str, str]] = {}
    for p in sorted(rings):
        ring = rings[p]
        n = len(ring)
        outline: list[Point] = []
        for i in range(n):
            c1, c2 = corner_of[(p, (i - 1) % n)], corner_of[(p, i)]
            outline.append(r(at[c1]))
            q = ring[i]
            pair = (min(p, q), max(p, q))
            bkey = (min(c1, c2), max(c1, c2), pair[0], pair[1])
            got = bends.get(bkey)
            drawn = got is not None and p > q and not is_edge(q)  # drawn from q's side
            if got is None:
                mid = bend(p, q, c1, c2)
                got = bends[bkey] = (c1, () if mid is None else (r(mid),))
            from_corner, mids = got
            if from_corner != c1:
                mids = mids[::-1]
            if not is_edge(q) and not drawn:
                stretch_of[bkey] = len(stretches)
                stretches.append(Stretch(pair[0], pair[1], (r(at[c1]), *mids, r(at[c2]))))
            if not is_edge(q):
                slot_keys[(p, i)] = bkey
            outline.extend(mids)
        polygons[p] = tuple(outline)

    hole_polys: dict[str, tuple[Point, ...]] = {}
    for hole in holes:
        cs = {c for c, m in enumerate(members) if hole in m}
        centre = pos[hole]
        pts = sorted((at[c] for c in cs),
                     key=lambda pt: math.atan2(pt[1] - centre[1], pt[0] - centre[0]))
        hole_polys[hole] = tuple(r(pt) for pt in pts)

    anchors = {p: r(_inside_point(poly, pos[p])) for p, poly in polygons.items()}
    given: tuple[dict[str, Point], dict[str, Point]] = ({}, {})
    for abbr, prov in topo.provinces.items():
        for found, where, clear in zip(given, (prov.unit_position, prov.label_position),
                                       (UNIT_CLEAR, LABEL_CLEAR), strict=True):
            if where is not None and abbr in polygons:
                pt = r(placed(abbr, where))
                if contains(polygons[abbr], pt) and edge_distance(polygons[abbr], pt) >= clear:
                    found[abbr] = pt
    passages = {pair: _passage(pair, polygons, stretches, anchors)
                for pair in sorted(topo.passages)}
    return Board(round(width, 1), round(height, 1), polygons, hole_polys, tuple(stretches),
                 passages, anchors, {slot: stretch_of[key] for slot, key in slot_keys.items()},
                 *given)


def _grow(at: list[Point], fixed: list[tuple[bool, bool]],
          corners: dict[str, list[int]]) -> list[Point]:
    """The corners moved so that each province too small to hold a unit, a centre and its name
    (London, Plymouth and Wales between the Irish Sea and the Channel) grows into its
    neighbours: its corners move away from its middle, a shared corner by the sum of what its
    provinces ask."""
    for _ in range(GROW_ROUNDS):
        shift = [[0.0, 0.0] for _ in at]
        grew = False
        for cs in corners.values():
            poly = [at[c] for c in cs]
            size = polygon_area(poly)
            if size >= ROOM or size <= 0:
                continue
            grew = True
            factor = min(GROW_STEP, math.sqrt(ROOM / size)) - 1
            mx = sum(x for x, _ in poly) / len(poly)
            my = sum(y for _, y in poly) / len(poly)
            for c in cs:
                shift[c][0] += factor * (at[c][0] - mx)
                shift[c][1] += factor * (at[c][1] - my)
        if not grew:
            break
        at = [(x if fx else x + dx, y if fy else y + dy)
              for (x, y), (fx, fy), (dx, dy) in zip(at, fixed, shift, strict=True)]
    return at


def _corner_angles(directions: list[float]) -> list[float]:
    """The directions of a round province's corners, given those of its neighbours in ring
    order (clockwise): each corner halfway between the two neighbours it lies between, or
    evenly spaced if the neighbours' directions are not in clockwise order."""
    n = len(directions)
    gaps = [(directions[(i + 1) % n] - directions[i]) % (2 * math.pi) for i in range(n)]
    if abs(sum(gaps) - 2 * math.pi) > 1e-6:
        return [directions[0] + 2 * math.pi * (i + 0.5) / n for i in range(n)]
    return [d + g / 2 for d, g in zip(directions, gaps, strict=True)]


def _spread(pos: dict[str, Point], rings: dict[str, tuple[str, ...]]) -> dict[str, Point]:
    """The positions with crowded neighbours moved apart: where the map packs many small
    provinces together (Britain), a unit, a centre and a name must still fit in each; the seas
    and larger provinces around them give way."""
    pairs = sorted({(min(p, q), max(p, q)) for p, ring in rings.items() for q in ring
                    if not is_edge(q)})
    at = dict(pos)
    for _ in range(SPREAD_ROUNDS):
        shift = {a: [0.0, 0.0] for a in at}
        moved = False
        for a, b in pairs:
            (ax, ay), (bx, by) = at[a], at[b]
            d = math.hypot(bx - ax, by - ay)
            if d >= CROWDED or d == 0:
                continue
            moved = True
            push = (CROWDED - d) / 4 / d
            shift[a][0] -= (bx - ax) * push
            shift[a][1] -= (by - ay) * push
            shift[b][0] += (bx - ax) * push
            shift[b][1] += (by - ay) * push
        if not moved:
            break
        at = {a: (x + shift[a][0], y + shift[a][1]) for a, (x, y) in at.items()}
    return at


def _passage(pair: tuple[str, str], polygons: dict[str, tuple[Point, ...]],
             stretches: list[Stretch], anchors: dict[str, Point]) -> tuple[Point, ...]:
    """The link of a passage (Abstraction2 rule 4): from one province through the strait to the
    other, along the border that separates them there (Messina's Nap-Sic between CMS and TYS),
    or straight if no border runs from one to the other."""
    a, b = pair
    here, there = set(polygons[a]), set(polygons[b])
    for s in stretches:
        first, last = s.points[0], s.points[-1]
        if first in here and last in there:
            return (anchors[a], first, last, anchors[b])
        if last in here and first in there:
            return (anchors[a], last, first, anchors[b])
    return (anchors[a], anchors[b])


def polygon_area(poly: tuple[Point, ...] | list[Point]) -> float:
    """Signed area (positive: clockwise on screen, y down)."""
    s = 0.0
    for i, (x1, y1) in enumerate(poly):
        x2, y2 = poly[(i + 1) % len(poly)]
        s += x1 * y2 - x2 * y1
    return s / 2


def contains(poly: tuple[Point, ...] | list[Point], pt: Point) -> bool:
    """Is `pt` inside the polygon (even-odd rule)?"""
    x, y = pt
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def edge_distance(poly: tuple[Point, ...] | list[Point], pt: Point) -> float:
    """The distance from `pt` to the polygon's outline."""
    best = math.inf
    x, y = pt
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        length = dx * dx + dy * dy
        t = 0.0 if length == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length))
        best = min(best, math.hypot(x - x1 - t * dx, y - y1 - t * dy))
    return best


def _inside_point(poly: tuple[Point, ...], wanted: Point) -> Point:
    """A point well inside the polygon and near `wanted`: the province's position if it is at
    least 14 units inside, else the grid point that is deepest inside (with a small pull to
    `wanted`)."""
    if contains(poly, wanted) and edge_distance(poly, wanted) >= 14:
        return wanted
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    best, best_score = wanted, -math.inf
    steps = 24
    for i in range(steps + 1):
        for j in range(steps + 1):
            pt = (min(xs) + (max(xs) - min(xs)) * i / steps,
                  min(ys) + (max(ys) - min(ys)) * j / steps)
            if not contains(poly, pt):
                continue
            d = edge_distance(poly, pt)
            score = min(d, 22.0) - 0.02 * math.hypot(pt[0] - wanted[0], pt[1] - wanted[1])
            if score > best_score:
                best, best_score = pt, score
    return best
