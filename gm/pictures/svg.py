"""The map picture of a position as SVG: the board as the map data draws it (gm.pictures.geometry),
the terrain as it is now, centres and owners, units, and what happened.

Two pictures make a phase report: the *orders* picture is the position the orders were given in
with every order drawn (moves and retreats as arrows, supports and convoys as dashed lines to
the move they help, holds as rings, builds and removals; a failed order dashed and crossed, an
illegal one grey), and the *position* picture is the position after the phase, with what the
phase changed marked (terrain changed, new centres, borders cut or opened) and dislodged units
beside their province with arrows to where they may retreat. Every mark used has a line in the
legend under the board.

The picture can be read back (tests parse it with xml.etree): each province is
`<g id="p-<abbr>" class="province <terrain>" data-terrain=... data-ice=...>` holding its
polygon; a passage (a border of no length) is `<line class="passage" data-between="A-B">`;
each coast of a province with several is `<g class="coast" data-mark="split-coast"
data-province=... data-coast="nc">` (its coastline drawn strong, its name just inside);
frozen regions (a variant's `frozen_provinces` hook: Abstraction2's, any file's `[frozen]`)
are hatched in their phases; centres are `<circle class="centre" data-owner=...>`; units
`<g class="unit army" data-power=... data-province=...>` (their mark, then, from CODES_FROM
powers on, the power's code in a `class="code"` box right of it); every order or event mark
carries `data-mark` and the legend has a `data-legend` entry for each. Names and centre
markers are placed where no unit or code would cover them, in whichever province it stands
(tests/pictures/test_picture_layout.py); a unit or name the map data places (`unit x,y`,
`label x,y`) stands there.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TypeVar
from xml.sax.saxutils import escape, quoteattr

from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap
from gm.engine.orders import (
    Build,
    Convoy,
    Disband,
    Disembark,
    Embark,
    GeoEvent,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportEvent,
    SupportHold,
    SupportMove,
    Transform,
)
from gm.engine.results import OrderResult, Outcome
from gm.engine.retreats import retreat_options
from gm.engine.state import GameState
from gm.engine.topology import RingTopology
from gm.engine.units import NEUTRAL, Unit, UnitType
from gm.engine.variant import Variant
from gm.pictures.colours import TERRAIN_COLOURS, palette, text_on
from gm.pictures.geometry import Board, Point, board, contains, edge_distance

TERRAIN_FILL = {
    Terrain.SEA: TERRAIN_COLOURS["sea"],
    Terrain.LAKE: TERRAIN_COLOURS["lake"],
    Terrain.LAND: TERRAIN_COLOURS["land"],
    Terrain.MOUNTAIN: "url(#mountain)",
    Terrain.IMPASSABLE: TERRAIN_COLOURS["impassable"],
}
ICE_FILL = "url(#ice)"
UNIT_CLASS = {UnitType.ARMY: "army", UnitType.FLEET: "fleet", UnitType.ARMY_FLEET: "army-fleet"}
UNIT_LETTER = {UnitType.ARMY: "A", UnitType.FLEET: "F", UnitType.ARMY_FLEET: "A/F"}
OK, FAILED, VOID = "#1b1b1b", "#c00000", "#8a8a8a"
CODES_FROM = 8  # from this many powers on, each unit shows its power's code

_DEFS = (
    '<defs>'
    '<pattern id="mountain" width="14" height="14" patternUnits="userSpaceOnUse">'
    f'<rect width="14" height="14" fill="{TERRAIN_COLOURS["mountain"]}"/>'
    '<path d="M1 12 L7 3 L13 12" fill="none" stroke="#7a6440" stroke-width="1.2"/></pattern>'
    '<pattern id="ice" width="10" height="10" patternUnits="userSpaceOnUse">'
    f'<rect width="10" height="10" fill="{TERRAIN_COLOURS["ice"]}"/>'
    '<path d="M0 10 L10 0" stroke="#9cc3dc" stroke-width="1"/></pattern>'
    '<pattern id="changed" width="8" height="8" patternUnits="userSpaceOnUse">'
    '<path d="M0 8 L8 0" stroke="#e65100" stroke-width="1.6"/></pattern>'
    '<pattern id="frozen" width="9" height="9" patternUnits="userSpaceOnUse">'
    '<path d="M0 0 L9 9 M9 0 L0 9" stroke="#5a8fb5" stroke-width="0.9"/></pattern>'
    '</defs>'
)

# legend: mark -> (drawing of the key at x, y; words)
_LEGEND_WORDS = {
    "move-ok": "move (succeeded)",
    "move-failed": "move (failed: bounced or cut)",
    "move-void": "order void (illegal)",
    "retreat-ok": "retreat",
    "retreat-failed": "retreat (failed)",
    "hold": "hold",
    "support-ok": "support",
    "support-failed": "support (cut or failed)",
    "convoy-ok": "convoy",
    "convoy-failed": "convoy (failed)",
    "build": "build",
    "remove": "removal or disband",
    "transform": "transforms (army <-> fleet)",
    "geo": "geophysical event ordered",
    "dislodged": "dislodged unit",
    "retreat-option": "where a dislodged unit may retreat",
    "terrain-changed": "terrain or ice changed this phase",
    "new-centre": "new supply centre",
    "cut-border": "border cut (no crossing)",
    "opened-border": "border opened again",
    "passage": "passage (a border of no length)",
    "neutral": "neutral garrison (no power's unit)",
    "link": "link (provinces joined across the board)",
    "one-way": "crossed one way only",
    "army-only": "border only armies cross",
    "fleet-only": "border only fleets cross",
    "frozen": "frozen region (in this phase)",
    "split-coast": "coast of a province with several (nc, sc: F Spa/nc)",
    "no-order": "unit without an order yet",
}

# the legend of orders as they stand (an acknowledgement's picture): not yet adjudicated
_STANDING_WORDS = {
    "move-ok": "move ordered",
    "move-void": "order void or refused (illegal)",
    "retreat-ok": "retreat ordered",
    "support-ok": "support ordered",
    "convoy-ok": "convoy ordered",
    "build": "build ordered",
    "remove": "removal or disband ordered",
    "transform": "transform ordered (army <-> fleet)",
}
NO_ORDER = "#e65100"


@cache
def _colours(powers: tuple[str, ...]) -> dict[str, str]:
    return dict(zip(powers, palette(len(powers)), strict=True))


def power_colour(variant: Variant, power: str) -> str:
    """The colour of `power`'s units and centres (by its place in the variant)."""
    return _colours(variant.power_names).get(power, "#777777")


escape = cache(escape)  # the same few names and units, again and again
quoteattr = cache(quoteattr)


def _pts(poly: Iterable[Point]) -> str:
    return " ".join(f"{x:g},{y:g}" for x, y in poly)


# styles shared by many marks, written once on the group that holds them (SVG inherits them)
_LABEL_STYLE = (' text-anchor="middle" font-size="11" font-weight="bold" fill="#202020" '
                'stroke="#ffffff" stroke-width="2.6" paint-order="stroke"')
_CENTRE_STYLE = ' stroke="#000" stroke-width="1.5"'
_UNIT_TEXT_STYLE = ' text-anchor="middle" font-size="12" font-weight="bold"'


def _n(value: float) -> str:
    """A coordinate to a tenth, written short (`12`, not `12.0`)."""
    return f"{round(value, 1):g}"


@dataclass(frozen=True)
class _Static:
    """What the picture of a variant's board always has: each province's polygon as SVG
    points, where its unit, name and centre go, where a dislodged unit stands beside them, and
    its full name."""

    board: Board
    points: dict[str, str]
    unit_at: dict[str, Point]
    label_at: dict[str, Point]
    centre_at: dict[str, Point]
    dislodged_at: dict[str, Point]
    names: dict[str, str]
    order: tuple[str, ...]

    def __hash__(self) -> int:  # one per variant (`_static` is cached): hashed by identity
        return id(self)

    def __eq__(self, other: object) -> bool:
        return self is other


Box = tuple[float, float, float, float]  # left, top, right, bottom
Circle = tuple[float, float, float]  # x, y, radius
LABEL_TRIES = ((0, -18), (0, 21), (-28, 0), (28, 0), (0, -27), (0, 31), (-34, -14), (34, -14),
               (-34, 14), (34, 14), (-44, 0), (44, 0))
CENTRE_TRIES = ((17, 12), (-17, 12), (17, -8), (-17, -8), (0, 20), (14, 0), (-14, 0), (0, 14),
                (0, -14), (10, 10), (-22, 0), (22, 0), (0, 26), (0, -26))
DISLODGED_TRIES = ((18, 20), (-18, 20), (-20, -18), (20, -20), (0, 26), (-30, 0), (0, -28),
                   (28, 22), (-28, 22), (-28, -22), (28, -24), (0, 36), (-40, 0), (0, -38),
                   (40, 14), (-40, 14), (-40, -14), (40, -14))
CENTRE_R = 6.25  # a centre marker's radius, its outline included
_Shape = TypeVar("_Shape", bound=tuple[float, ...])


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _touches(b: Box, c: Circle) -> bool:
    dx = max(b[0] - c[0], 0.0, c[0] - b[2])
    dy = max(b[1] - c[1], 0.0, c[1] - b[3])
    return dx * dx + dy * dy < c[2] * c[2]


def _label_half_width(text: str) -> float:
    """Half the width of a province's name as drawn (11 px bold DejaVu Sans, halo included)."""
    return (sum(8.6 if c.isupper() else 7.2 for c in text) + 2.6) / 2


def _badge_left(x: float, body: float) -> float:
    """Where a power's code starts: right of the unit's mark (`body`: its half width)."""
    return x + body + 1.5


def _place(poly: tuple[Point, ...], at: Point, tries: Sequence[tuple[float, float]],
           keep: float, free: Callable[[Point], bool], *, beside: bool = False) -> Point:
    """The first of `at + tries` inside `poly` with `keep` clearance where `free` holds (nothing
    covers what goes there); else the try that comes nearest to that. `beside`: a try outside
    `poly` will do where none inside is free."""
    best, best_score = (at[0] + tries[0][0], at[1] + tries[0][1]), (False, False, -math.inf)
    for dx, dy in tries:
        pt = (at[0] + dx, at[1] + dy)
        inside = contains(poly, pt)
        if not inside and not beside:
            continue
        score = (free(pt), inside, min(edge_distance(poly, pt), keep) if inside else 0.0)
        if score == (True, True, keep):
            return pt
        if score > best_score:
            best, best_score = pt, score
    return best


@cache
def _static(variant: Variant) -> _Static:
    """Where each province's unit, name and centre go: the name and the centre where no unit
    (nor, from CODES_FROM powers on, its power's code beside it) in any province covers them,
    and the centre clear of every name; a dislodged unit beside them, clear of them all.
    Once per variant (a Variant is hashed by identity: a variant file read again is drawn
    again)."""
    b = board(variant)
    provinces = variant.map.provinces
    coded = len(variant.power_names) >= CODES_FROM
    code = max((len(p.letter) for p in variant.powers), default=1)
    unit_at = b.anchors | b.units
    # what a unit may cover: an army's circle, a fleet's box (wider with a coast), its code
    boxes: list[Box] = []
    circles: list[Circle] = []

    def unit_shapes(abbr: str, x: float, y: float, pad: float = 0.0) -> tuple[list[Box], Circle]:
        """A unit's mark (`pad`: how much wider a dislodged one's outline is) and code."""
        body = (21.25 if variant.map.coasts.get(abbr) else 10.75) + pad
        out = [(x - body, y - 10.25 - pad, x + body, y + 10.25 + pad)]
        if coded:
            left = _badge_left(x, body - 0.75)
            out.append((left - 0.75, y - 6.75, left + 5.75 + 7 * code, y + 6.75))
        return out, (x, y, 11.25 + pad)

    for abbr, (x, y) in unit_at.items():
        unit_boxes, circle = unit_shapes(abbr, x, y)
        boxes += unit_boxes
        circles.append(circle)

    def near(at: Point, shapes: Sequence[_Shape]) -> list[_Shape]:
        return [s for s in shapes if abs(s[0] - at[0]) < 120 and abs(s[1] - at[1]) < 90]

    label_at: dict[str, Point] = {}
    for abbr, poly in b.polygons.items():
        a = unit_at[abbr]
        half = _label_half_width(abbr.upper() if provinces[abbr].terrain.is_water else abbr)
        near_boxes, near_circles = near(a, boxes), near(a, circles)

        def label_free(pt: Point, half: float = half, near_boxes: list[Box] = near_boxes,
                       near_circles: list[Circle] = near_circles) -> bool:
            box = (pt[0] - half, pt[1] - 6.0, pt[0] + half, pt[1] + 6.0)
            return not any(_meets(box, o) for o in near_boxes) \
                and not any(_touches(box, c) for c in near_circles)

        label_at[abbr] = b.labels.get(abbr) or _place(poly, a, LABEL_TRIES, 6.0, label_free)
        boxes.append((label_at[abbr][0] - half, label_at[abbr][1] - 6.0,
                      label_at[abbr][0] + half, label_at[abbr][1] + 6.0))
    centre_at: dict[str, Point] = {}
    for abbr, poly in b.polygons.items():
        a = unit_at[abbr]
        near_boxes, near_circles = near(a, boxes), near(a, circles)

        def centre_free(pt: Point, near_boxes: list[Box] = near_boxes,
                        near_circles: list[Circle] = near_circles) -> bool:
            return not any(_touches(o, (*pt, CENTRE_R)) for o in near_boxes) \
                and not any(math.dist(pt, c[:2]) < c[2] + CENTRE_R for c in near_circles)

        centre_at[abbr] = _place(poly, a, CENTRE_TRIES, 6.0, centre_free)
    circles += [(x, y, CENTRE_R) for x, y in centre_at.values()]
    dislodged_at: dict[str, Point] = {}
    for abbr, poly in b.polygons.items():
        a = unit_at[abbr]
        near_boxes, near_circles = near(a, boxes), near(a, circles)

        def dislodged_free(pt: Point, abbr: str = abbr, near_boxes: list[Box] = near_boxes,
                           near_circles: list[Circle] = near_circles) -> bool:
            own_boxes, own = unit_shapes(abbr, *pt, pad=0.5)
            return not any(_meets(box, o) for box in own_boxes for o in near_boxes) \
                and not any(_touches(box, c) for box in own_boxes for c in near_circles) \
                and not any(_touches(o, own) for o in near_boxes) \
                and not any(math.dist(pt, c[:2]) < c[2] + own[2] for c in near_circles)

        dislodged_at[abbr] = _place(poly, a, DISLODGED_TRIES, 12.0, dislodged_free, beside=True)
    return _Static(
        b, {a: _pts(poly) for a, poly in b.polygons.items()}, unit_at, label_at, centre_at,
        dislodged_at, {a: escape(provinces[a].name) for a in b.polygons},
        tuple(sorted(b.polygons)))


@cache
def _mix(base: str, tint: str, share: float) -> str:
    """`base` with `share` of `tint` mixed in (both `#rrggbb`)."""
    mixed = (round(int(base[i:i + 2], 16) * (1 - share) + int(tint[i:i + 2], 16) * share)
             for i in (1, 3, 5))
    return "#" + "".join(f"{c:02x}" for c in mixed)


@lru_cache(maxsize=1 << 14)
def _province(static: _Static, abbr: str, terrain: Terrain, iced: bool, owner: str | None,
              colour: str | None, changed: bool, frozen: bool) -> str:
    """A province's polygon as it looks now (remembered: most provinces look the same in many
    pictures). `colour`: its centre's owner's."""
    fill = ICE_FILL if iced else TERRAIN_FILL[terrain]
    if colour is not None and fill.startswith("#"):  # an owned centre: tinted by its owner
        fill, colour = _mix(fill, colour, 0.22), None
    classes = f"province {terrain.value}" + (" ice" if iced else "")
    points = static.points[abbr]
    out = [
        f'<g id="p-{abbr}" class="{classes}" '
        f'data-terrain="{terrain.value}" data-ice="{"yes" if iced else "no"}"'
        f'{" data-owner=" + quoteattr(owner) if owner else ""}>'
        f'<title>{static.names[abbr]} ({terrain.value}{", ice" if iced else ""})</title>'
        # no outline: the borders are drawn over all fills at once (one path); the fill's
        # own edge needs no smoothing under them
        f'<polygon points="{points}" fill="{fill}" shape-rendering="crispEdges"/>'
    ]
    if colour is not None:  # a patterned fill: the owner's tint goes over it
        out.append(f'<polygon points="{points}" fill="{colour}" fill-opacity="0.22" '
                   f'stroke="none"/>')
    if frozen:
        out.append(f'<polygon data-mark="frozen" points="{points}" fill="url(#frozen)" '
                   f'stroke="#5a8fb5" stroke-width="2"/>')
    if changed:
        out.append(f'<polygon data-mark="terrain-changed" points="{points}" '
                   f'fill="url(#changed)" fill-opacity="0.6" stroke="#e65100" '
                   f'stroke-width="2.5"/>')
    out.append("</g>")
    return "".join(out)


def _label(static: _Static, abbr: str, water: bool) -> str:
    """The province's name (Geophysical rule 9: a sea's or lake's in capitals)."""
    x, y = static.label_at[abbr]
    text = abbr.upper() if water else abbr
    return f'<text class="label" x="{_n(x)}" y="{_n(y + 4)}" data-province="{abbr}">{text}</text>'



def _centre(static: _Static, abbr: str, owner: str | None, colour: str | None,
            new: bool) -> str:
    x, y = static.centre_at[abbr]
    star = ""
    if new:
        star = (f'<circle data-mark="new-centre" cx="{_n(x)}" cy="{_n(y)}" r="9.5" '
                f'fill="none" stroke="#e65100" stroke-width="2.5"/>')
    return (f'{star}<circle class="centre" data-province="{abbr}" data-owner='
            f'{quoteattr(owner or "")} cx="{_n(x)}" cy="{_n(y)}" r="5.5" '
            f'fill="{colour or "#ffffff"}"/>')


def _half_width(unit: Unit) -> float:
    """Half the width of a unit's mark: an army's circle, else a box wider with a coast."""
    if unit.type is UnitType.ARMY and unit.location.coast is None:
        return 10.5
    return (20 + 7 * (len(UNIT_LETTER[unit.type]) - 1)
            + (0 if unit.location.coast is None else 7 * (1 + len(unit.location.coast)))) / 2


def _code_box(unit: Unit, code: str) -> Box:
    """The box of the power's code right of a unit's mark, from the unit's middle."""
    left = _badge_left(0.0, _half_width(unit)) - 0.75
    return left, -6.75, left + 6.5 + 7 * len(code), 6.75


def _mark_reach(unit: Unit, direction: Point, margin: float) -> float:
    """How far from a unit's middle a line leaving it in `direction` (a unit vector) is
    `margin` clear of its mark (an army's circle, else its box: wide for a fleet on a named
    coast)."""
    half = _half_width(unit) + margin
    if unit.type is UnitType.ARMY and unit.location.coast is None:
        return half
    ux, uy = abs(direction[0]), abs(direction[1])
    return min(half / ux if ux else math.inf, (9.5 + margin) / uy if uy else math.inf)


def _code_reach(unit: Unit, code: str, direction: Point) -> float:
    """How far from a unit's middle a line leaving it in `direction` (a unit vector) is clear
    of the box of the power's code right of its mark; 0 if the line does not cross the box."""
    ux, uy = direction
    if not code or ux <= 0:
        return 0.0
    left, _, right, half = _code_box(unit, code)
    leave = right / ux if abs(uy) * right <= half * ux else half / abs(uy)
    return leave + 2.0 if left / ux < leave else 0.0


@lru_cache(maxsize=1 << 14)
def _unit(unit: Unit, colour: str, x: float, y: float, dislodged: bool, code: str) -> str:
    """A unit's mark (remembered: the same units stand in the same places in many pictures)."""
    classes = f"unit {UNIT_CLASS[unit.type]}" + (" dislodged" if dislodged else "")
    stroke = (' stroke="#c00000" stroke-width="2.5" stroke-dasharray="4 2"' if dislodged
              else ' stroke="#ffffff" stroke-width="1.5"')
    coast = unit.location.coast
    letter = UNIT_LETTER[unit.type]
    label = letter if coast is None else f"{letter}/{coast}"
    width = 20 + 7 * (len(label) - 1)
    shape = (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="10.5" fill="{colour}"{stroke}/>'
             if unit.type is UnitType.ARMY and coast is None else
             f'<rect x="{_n(x - width / 2)}" y="{_n(y - 9.5)}" width="{width}" height="19" '
             f'rx="4" fill="{colour}"{stroke}/>')
    tag = ""
    if code:  # beside the mark, where the layout (_static) keeps names and centres away
        left = _badge_left(x, _half_width(unit))
        tag = (f'<rect class="code" x="{_n(left)}" y="{_n(y - 6)}" width="{5 + 7 * len(code)}" '
               f'height="12" rx="2" fill="#ffffff" stroke="{colour}" stroke-width="1.5"/>'
               f'<text class="code" x="{_n(left + 2.5 + 3.5 * len(code))}" y="{_n(y + 3.6)}" '
               f'font-size="10" fill="#000">{escape(code)}</text>')
    return (f'<g class={quoteattr(classes)} data-power={quoteattr(unit.power)} '
            f'data-province={quoteattr(unit.location.province)}><title>'
            f'{escape(unit.power)} {escape(str(unit))}{" (dislodged)" if dislodged else ""}'
            f'</title>{shape}<text x="{_n(x)}" y="{_n(y + 4.5)}" '
            f'fill="{text_on(colour)}">{escape(label)}</text>{tag}</g>')


def _arrow(a: Point, b: Point, colour: str, mark: str, *, dash: str = "", width: float = 3.0,
           head: bool = True, cross: bool = False, start_gap: float = 12.0,
           end_gap: float = 12.0, title: str = "") -> str:
    """A line from a to b (shortened by the gaps), with an arrowhead, crossed if it failed."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    if length < start_gap + end_gap + 6:
        start_gap = end_gap = max(0.0, (length - 6) / 2)
    x1, y1 = a[0] + ux * start_gap, a[1] + uy * start_gap
    x2, y2 = b[0] - ux * end_gap, b[1] - uy * end_gap
    hx, hy = x2 - ux * 9, y2 - uy * 9
    out = [f'<g data-mark="{mark}">' if mark else "<g>"]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    line_end = (hx, hy) if head else (x2, y2)
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(line_end[0])}" y2="{_n(line_end[1])}" '
               f'stroke="{colour}" stroke-width="{width}"{dashed} stroke-linecap="round"/>')
    if head:
        px, py = -uy * 5.5, ux * 5.5
        out.append(f'<polygon points="{_n(x2)},{_n(y2)} {_n(hx + px)},{_n(hy + py)} '
                   f'{_n(hx - px)},{_n(hy - py)}" fill="{colour}"/>')
    if cross:
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        out.append(_cross(cx, cy, 6.0))
    out.append("</g>")
    return "".join(out)


def _cross(x: float, y: float, r: float) -> str:
    return (f'<path d="M{_n(x - r)} {_n(y - r)} L{_n(x + r)} {_n(y + r)} M{_n(x + r)} '
            f'{_n(y - r)} L{_n(x - r)} {_n(y + r)}" stroke="{FAILED}" stroke-width="3" '
            f'stroke-linecap="round"/>')


class _Orders:
    """Draws the orders of a phase on the position they were given in."""

    def __init__(self, static: _Static, gmap: GameMap, colours: dict[str, str],
                 codes: dict[str, str], units: Iterable[Unit]) -> None:
        self.static = static
        self.gmap = gmap
        self.colours = colours
        self.codes = codes
        self.units = {u.location.province: u for u in units}
        self.used: set[str] = set()
        self.out: list[str] = []
        self.under: list[str] = []  # drawn below the units: a hold's ring (the code stays whole)
        self.moves: dict[str, str] = {}  # province a unit moves from -> to
        self.waiting: dict[str, Point] = {}  # province -> where its dislodged unit is drawn

    def gap(self, province: str, a: Point, b: Point, least: float) -> float:
        """An arrow's gap at `province`'s unit (at `a`, the arrow going towards `b`): `least`,
        or wider where the arrow would cross the unit's mark (a fleet's box on a named coast
        is wide) or the power code drawn beside it."""
        unit = self.units.get(province)
        if unit is None:
            return least
        length = math.dist(a, b) or 1.0
        direction = ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
        return max(least, _mark_reach(unit, direction, 2.0),
                   _code_reach(unit, self.codes.get(unit.power, ""), direction))

    def dot_gap(self, province: str, a: Point, b: Point, least: float,
                radius: float) -> float:
        """Where a line from `b` ending in a dot of `radius` stops before `province`'s unit
        (at `a`): `gap`, and further out until the dot is clear of the unit's code."""
        gap = self.gap(province, a, b, least)
        unit = self.units.get(province)
        code = "" if unit is None else self.codes.get(unit.power, "")
        if unit is None or not code:
            return gap
        length = math.dist(a, b) or 1.0
        ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
        left, top, right, bottom = _code_box(unit, code)
        while gap < length:
            dx = max(left - ux * gap, 0.0, ux * gap - right)
            dy = max(top - uy * gap, 0.0, uy * gap - bottom)
            if dx * dx + dy * dy >= radius * radius:
                break
            gap += 1.0
        return gap

    def at(self, loc: Location | str) -> Point:
        province = loc if isinstance(loc, str) else loc.province
        return self.static.unit_at.get(province, (0.0, 0.0))

    def mark(self, name: str) -> str:
        self.used.add(name)
        return name

    def draw(self, results: Sequence[OrderResult]) -> None:
        for r in results:
            if isinstance(r.order, Move | Retreat):
                self.moves[r.order.unit.province] = r.order.dest.province
        for r in results:  # supports and convoys first: the moves go over them
            self.draw_help(r)
        for r in results:
            self.draw_own(r)

    def _state(self, r: OrderResult) -> str:
        return {Outcome.SUCCEEDS: "ok", Outcome.FAILS: "failed"}.get(r.outcome, "void")

    def draw_help(self, r: OrderResult) -> None:
        o = r.order
        if not isinstance(o, SupportHold | SupportMove | Convoy):
            return
        state = self._state(r)
        kind = "convoy" if isinstance(o, Convoy) else "support"
        mark = self.mark(f"{kind}-{state}" if state != "void" else "move-void")
        colour = {"ok": OK, "failed": FAILED}.get(state, VOID)
        start = self.at(o.unit.location)
        target = self.at(o.target.location)
        if isinstance(o, SupportHold):  # to the supported unit's rim: its letter stays clear
            gap = self.dot_gap(o.target.location.province, target, start, 13.0, 4.0)
            length = math.dist(start, target) or 1.0
            end = (target[0] + (start[0] - target[0]) * gap / length,
                   target[1] + (start[1] - target[1]) * gap / length)
        else:
            dest = self.at(o.dest)
            end = ((target[0] + dest[0]) / 2, (target[1] + dest[1]) / 2)
        dash = "2 5" if kind == "convoy" else "7 4"
        self.out.append(_arrow(start, end, colour, mark, dash=dash, width=2.2, head=False,
                               cross=state == "failed", end_gap=4.0, title=str(o),
                               start_gap=self.gap(o.unit.province, start, end, 12.0)))
        self.out.append(f'<circle cx="{_n(end[0])}" cy="{_n(end[1])}" r="3.5" fill="{colour}"/>')

    def draw_own(self, r: OrderResult) -> None:
        o = r.order
        state = self._state(r)
        colour = self.colours.get(r.power, OK) if state == "ok" else (
            FAILED if state == "failed" else VOID)
        if isinstance(o, Move | Retreat | Disembark):
            kind = "retreat" if isinstance(o, Retreat) else "move"
            mark = self.mark("move-void" if state == "void" else f"{kind}-{state}")
            # a retreat leaves the dislodged unit where it waits beside its province
            waiting = self.waiting.get(o.unit.province) if isinstance(o, Retreat) else None
            a, b = waiting or self.at(o.unit.location), self.at(o.dest)
            self.out.append(_arrow(a, b, colour, mark, dash="" if state == "ok" else "8 4",
                                   cross=state == "failed", title=str(o),
                                   start_gap=13.0 if waiting else
                                   self.gap(o.unit.province, a, b, 12.0),
                                   end_gap=self.gap(o.dest.province, b, a, 12.0)))
        elif isinstance(o, Embark):
            mark = self.mark("move-void" if state == "void" else f"move-{state}")
            a, b = self.at(o.unit.location), self.at(o.fleet)
            self.out.append(_arrow(a, b, colour, mark, dash="" if state == "ok" else "8 4",
                                   cross=state == "failed", title=str(o),
                                   start_gap=self.gap(o.unit.province, a, b, 12.0),
                                   end_gap=self.gap(o.fleet.province, b, a, 12.0)))
        elif isinstance(o, Hold):
            x, y = self.at(o.unit.location)
            self.under.append(f'<circle data-mark="{self.mark("hold")}" cx="{_n(x)}" '
                              f'cy="{_n(y)}" r="15" fill="none" stroke="{OK}" '
                              f'stroke-width="2"/>')
        elif isinstance(o, Build):
            x, y = self.at(o.unit.location)
            ok = state == "ok"
            self.out.append(
                f'<g data-mark="{self.mark("build" if ok else "move-void")}"><title>'
                f'{escape(str(o))}</title><circle cx="{_n(x)}" cy="{_n(y)}" r="16" '
                f'fill="none" stroke="{"#2e7d32" if ok else VOID}" stroke-width="3"/>'
                f'<text x="{_n(x + 15)}" y="{_n(y - 9)}" font-size="16" font-weight="bold" '
                f'fill="{"#2e7d32" if ok else VOID}">+</text></g>')
        elif isinstance(o, Remove | Disband):
            x, y = self.at(o.unit.location)
            cross = _cross(x, y, 12.0) if state != "void" else _cross(x, y, 12.0).replace(
                f'stroke="{FAILED}"', f'stroke="{VOID}"')
            mark = self.mark("remove" if state != "void" else "move-void")
            self.out.append(f'<g data-mark="{mark}"><title>{escape(str(o))}</title>{cross}</g>')
        elif isinstance(o, Transform):
            x, y = self.at(o.unit.location)
            void = state == "void"
            self.out.append(f'<g data-mark="{self.mark("move-void" if void else "transform")}">'
                            f'<title>{escape(str(o))}</title><circle cx="{_n(x)}" '
                            f'cy="{_n(y)}" r="15" fill="none" '
                            f'stroke="{VOID if void else "#6a1b9a"}" '
                            f'stroke-width="2" stroke-dasharray="3 2"/></g>')
        elif isinstance(o, GeoEvent | SupportEvent):
            event = o.event if isinstance(o, SupportEvent) else o
            target = event.target
            x, y = self.at(target.province)
            void = state == "void"
            brown = VOID if void else "#8d5524"
            parts = [f'<g data-mark="{self.mark("move-void" if void else "geo")}"><title>'
                     f'{escape(str(o))}</title>']
            if target.other is not None:
                x2, y2 = self.at(target.other)
                parts.append(f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x2)}" y2="{_n(y2)}" '
                             f'stroke="{brown}" stroke-width="3" stroke-dasharray="2 3"/>')
            parts.append(f'<rect x="{_n(x - 14)}" y="{_n(y - 14)}" width="28" height="28" '
                         f'fill="none" stroke="{brown}" stroke-width="2.5" '
                         f'transform="rotate(45 {_n(x)} {_n(y)})"/></g>')
            self.out.append("".join(parts))


    def draw_unordered(self, units: Iterable[tuple[Unit, Point]]) -> None:
        """A ring and a question mark on each unit (at its point) still without an order."""
        for unit, (x, y) in units:
            self.out.append(
                f'<g data-mark="{self.mark("no-order")}" data-province='
                f'{quoteattr(unit.location.province)}><title>{escape(str(unit))}: no order'
                f'</title><circle cx="{_n(x)}" cy="{_n(y)}" r="15" fill="none" '
                f'stroke="{NO_ORDER}" stroke-width="2.5" stroke-dasharray="4 3"/>'
                f'<text x="{_n(x + 14)}" y="{_n(y - 8)}" font-size="15" font-weight="bold" '
                f'fill="{NO_ORDER}" stroke="#ffffff" stroke-width="2.5" paint-order="stroke">?'
                f'</text></g>')


def _frozen(variant: Variant, state: GameState) -> frozenset[str]:
    """The regions frozen in this phase (Abstraction2 rule 5, any variant file's `[frozen]`)."""
    found = variant.hooks.frozen_provinces
    return frozenset() if found is None else found(state)


COAST_COLOUR = "#0d47a1"
COAST_INSET = 13.0  # how far inside its province a coast's label stands from the coast


_MARKS: dict[tuple[int, int], tuple[_Static, GameMap, list[str]]] = {}  # by identity


def _marks_of(static: _Static, gmap: GameMap) -> list[str]:
    """`_coast_marks` of this map, remembered (a map under one overlay is one GameMap object,
    gm.engine.variant.Variant.map_for, and its coasts do not change)."""
    key = (id(static), id(gmap))
    found = _MARKS.get(key)
    if found is None or found[0] is not static or found[1] is not gmap:
        if len(_MARKS) >= 64:
            _MARKS.clear()
        found = _MARKS[key] = (static, gmap, _coast_marks(static.board, static, gmap))
    return found[2]


_LINES: dict[tuple[int, frozenset[str]], tuple[_Static, tuple[str, str]]] = {}


def _lines(static: _Static, water: frozenset[str]) -> tuple[str, str]:
    """The borders and the coasts (drawn stronger than borders on land or at sea) of the
    board with these provinces water, remembered."""
    key = (id(static), water)
    found = _LINES.get(key)
    if found is None or found[0] is not static:
        inland: list[str] = []
        coasts: list[str] = []
        for s in static.board.stretches:
            (coasts if (s.a in water) != (s.b in water) else inland).append(
                "M" + " L".join(f"{x:g} {y:g}" for x, y in s.points))
        if len(_LINES) >= 64:
            _LINES.clear()
        found = _LINES[key] = (static, (
            f'<path class="borders" d="{" ".join(inland)}" fill="none" '
            f'stroke="#6b6b6b" stroke-width="0.8"/>',
            f'<path class="coasts" d="{" ".join(coasts)}" fill="none" '
            f'stroke="#3a3a3a" stroke-width="1.8" stroke-linejoin="round"/>'))
    return found[1]


def _coast_marks(b: Board, static: _Static, gmap: GameMap) -> list[str]:
    """Each coast of a province with several (Spain's nc and sc): its stretches of coastline
    drawn strong and its label just inside the province, beside the longest of them, so a
    reader sees where `F Spa/nc` stands."""
    out: list[str] = []
    if not gmap.coasts or not isinstance(gmap.deriver, RingTopology):
        return out
    slots = gmap.deriver.coast_slots(gmap)
    for abbr, labels in sorted(gmap.coasts.items()):
        if abbr not in b.polygons:
            continue
        ax, ay = static.unit_at[abbr]
        for label in labels:
            seas = gmap.coast_seas.get(Location(abbr, label), frozenset())
            lines = [b.stretches[b.slots[(abbr, i)]].points
                     for i, named in sorted(slots.get(abbr, {}).items()) if named == label]
            if not lines:
                continue
            longest = max(lines, key=lambda ps: sum(math.dist(ps[i], ps[i + 1])
                                                    for i in range(len(ps) - 1)))
            tx, ty = _inset(b.polygons[abbr], longest, (ax, ay))
            path = " ".join("M" + " L".join(f"{x:g} {y:g}" for x, y in ps) for ps in lines)
            out.append(
                f'<g class="coast" data-mark="split-coast" data-province="{abbr}" '
                f'data-coast="{label}"><title>{static.names[abbr]} ({label}): the coast on '
                f'{escape(", ".join(sorted(seas)))}</title>'
                f'<path d="{path}" fill="none" stroke="{COAST_COLOUR}" stroke-width="3.2" '
                f'stroke-linecap="round" stroke-linejoin="round"/>'
                f'<text x="{_n(tx)}" y="{_n(ty + 3.5)}" text-anchor="middle" font-size="10" '
                f'font-weight="bold" fill="{COAST_COLOUR}" stroke="#ffffff" '
                f'stroke-width="2.4" paint-order="stroke">{label}</text></g>')
    return out


def _inset(poly: tuple[Point, ...], line: Sequence[Point], anchor: Point) -> Point:
    """A point just inside `poly` beside the middle of `line` (a stretch of its outline): off
    the line at right angles, on whichever side is inside; else towards `anchor`."""
    lengths = [math.dist(line[i], line[i + 1]) for i in range(len(line) - 1)]
    left, k = sum(lengths) / 2, 0
    while k < len(lengths) - 1 and left > lengths[k]:
        left -= lengths[k]
        k += 1
    (x1, y1), (x2, y2) = line[k], line[k + 1]
    size = lengths[k] or 1.0
    mx, my = x1 + (x2 - x1) * left / size, y1 + (y2 - y1) * left / size
    nx, ny = -(y2 - y1) / size, (x2 - x1) / size
    for depth in (COAST_INSET, -COAST_INSET, 0.6 * COAST_INSET, -0.6 * COAST_INSET):
        pt = (mx + nx * depth, my + ny * depth)
        if contains(poly, pt) and edge_distance(poly, pt) >= 0.4 * abs(depth):
            return pt
    away = math.hypot(anchor[0] - mx, anchor[1] - my) or 1.0
    share = min(0.5, COAST_INSET / away)
    return mx + (anchor[0] - mx) * share, my + (anchor[1] - my) * share


def _stretch_mid(b: Board, a: str, c: str) -> Point | None:
    key = tuple(sorted((a, c)))
    for s in b.stretches:
        if (s.a, s.b) == key:
            return s.points[len(s.points) // 2]
    return None


NEUTRAL_GREY = "#777777"  # a neutral garrison's units (and any unit of no listed power)
_ONLY_STYLE = {"army-only": ("#6d4c41", "6 4"), "fleet-only": ("#00897b", "9 3")}


def _only_borders(variant: Variant, b: Board, used: set[str]) -> list[str]:
    """The borders only armies (or only fleets) cross (map data `border A B armies|fleets`),
    drawn over their stretch of border in the mark's colour and dashes."""
    deriver = variant.map.deriver
    pairs = [(pair, mark) for mark, attr in (("army-only", "army_only"),
                                             ("fleet-only", "fleet_only"))
             for pair in sorted(getattr(deriver, attr, ()))]
    out = []
    for (a, c), mark in pairs:
        for s in b.stretches:
            if (s.a, s.b) == (a, c):
                used.add(mark)
                colour, dashes = _ONLY_STYLE[mark]
                out.append(f'<polyline class="{mark}" data-mark="{mark}" '
                           f'data-between={quoteattr(a + "-" + c)} points="{_pts(s.points)}" '
                           f'fill="none" stroke="{colour}" stroke-width="3" '
                           f'stroke-dasharray="{dashes}" stroke-linecap="round"/>')
    for a, c in sorted(getattr(deriver, "links", ())):
        used.add("link")
        out.append(f'<polyline class="link" data-mark="link" data-between='
                   f'{quoteattr(a + "-" + c)} points="{_pts((b.anchors[a], b.anchors[c]))}" '
                   f'fill="none" stroke="#6a1b9a" stroke-width="2" stroke-dasharray="10 4 2 4"/>')
    for a, c in sorted(getattr(deriver, "one_way", ())):
        key = (a, c) if a <= c else (c, a)
        mid = _stretch_mid(b, a, c)
        if mid is None:  # a passage or a link: the middle of the line between the two
            (x1, y1), (x2, y2) = b.anchors[a], b.anchors[c]
            mid = ((x1 + x2) / 2, (y1 + y2) / 2)
        used.add("one-way")
        out.append(f'<g class="one-way" data-mark="one-way" data-between='
                   f'{quoteattr(key[0] + "-" + key[1])} data-from={quoteattr(a)}>'
                   f'{_arrowhead(mid, b.anchors[a], b.anchors[c])}</g>')
    return out


def _arrowhead(at: Point, start: Point, end: Point) -> str:
    """A filled arrowhead at `at`, pointing the way from `start` to `end`."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    x, y = at
    tip = (x + 9 * ux, y + 9 * uy)
    left = (x - 7 * ux - 7 * uy, y - 7 * uy + 7 * ux)
    right = (x - 7 * ux + 7 * uy, y - 7 * uy - 7 * ux)
    return (f'<polygon points="{_pts((tip, left, right))}" fill="#6a1b9a" stroke="#ffffff" '
            f'stroke-width="1"/>')


def render_map_svg(variant: Variant, state: GameState, title: str, *,
                   results: Sequence[OrderResult] = (),
                   previous: GameState | None = None, standing: bool = False,
                   unordered: Sequence[Unit] = ()) -> str:
    """The picture of `state` on `variant`'s map, headed by `title` (game and phase).
    `results`: the orders given in `state` with their outcomes, drawn on it (the orders
    picture). `previous`: the position before the phase, to mark what it changed (the
    position picture). `standing`: the results are orders as they stand, not adjudicated
    (an acknowledgement's picture: accepted orders read "ordered", refused ones void), and
    the `unordered` units (a unit dislodged in `state` where it waits) are marked "no order"."""
    static = _static(variant)
    b = static.board
    gmap = variant.map_for(state)
    before = None if previous is None else variant.map_for(previous)
    powers = variant.power_names  # a property that builds its tuple: asked once
    colours = _colours(powers)
    codes = {p.name: p.letter for p in variant.powers} if len(powers) >= CODES_FROM else {}
    frozen = _frozen(variant, state)
    used: set[str] = set()
    out_board: list[str] = []
    centres = gmap.centres
    water: set[str] = set()
    for abbr in static.order:
        terrain = gmap.terrain.get(abbr, variant.map.provinces[abbr].terrain)
        if terrain.is_water:
            water.add(abbr)
        owner = state.owners.get(abbr) if abbr in centres else None
        changed = before is not None and (before.terrain.get(abbr) is not terrain
                                          or (abbr in before.iced) != (abbr in gmap.iced))
        if changed:
            used.add("terrain-changed")
        if abbr in frozen:
            used.add("frozen")
        out_board.append(_province(static, abbr, terrain, abbr in gmap.iced, owner,
                                   None if owner is None else colours.get(owner, "#777777"),
                                   changed, abbr in frozen))
    for hole, poly in b.holes.items():
        out_board.append(f'<polygon class="hole" data-edge={quoteattr(hole)} '
                         f'points="{_pts(poly)}" fill="#7d7d7d" stroke="#333"/>')
    out_board.extend(_lines(static, frozenset(water)))
    for (a, c), link in b.passages.items():
        used.add("passage")
        out_board.append(f'<polyline class="passage" data-mark="passage" '
                         f'data-between={quoteattr(a + "-" + c)} points="{_pts(link)}" '
                         f'fill="none" stroke="#0d47a1" stroke-width="2.5" '
                         f'stroke-dasharray="1 5" stroke-linecap="round" '
                         f'stroke-linejoin="round"/>')
    marks = _marks_of(static, gmap)
    if marks:
        used.add("split-coast")
        out_board.extend(marks)
    out_board.extend(_only_borders(variant, b, used))
    old_cuts = frozenset() if previous is None else previous.cut_borders
    for pair, mark in ([(p, "cut-border") for p in sorted(state.cut_borders)]
                       + [(p, "opened-border") for p in sorted(old_cuts - state.cut_borders)]):
        mid = _stretch_mid(b, *pair)
        if mid is None:
            continue
        used.add(mark)
        colour = "#c00000" if mark == "cut-border" else "#2e7d32"
        x, y = mid
        out_board.append(
            f'<g class="{mark}" data-mark="{mark}" data-between='
            f'{quoteattr(pair[0] + "-" + pair[1])}>'
            f'<circle cx="{_n(x)}" cy="{_n(y)}" r="7" fill="#ffffff" stroke="{colour}" '
            f'stroke-width="2.5"/>'
            + (_cross(x, y, 4.0) if mark == "cut-border" else
               f'<path d="M{_n(x - 4)} {_n(y)} L{_n(x + 4)} {_n(y)}" stroke="{colour}" '
               f'stroke-width="2.5"/>') + "</g>")
    old_centres = None if before is None else before.centres
    out_board.append(f'<g class="centres"{_CENTRE_STYLE}>')
    for abbr in static.order:
        if abbr in centres:
            owner = state.owners.get(abbr)
            new = old_centres is not None and abbr not in old_centres
            if new:
                used.add("new-centre")
            out_board.append(_centre(static, abbr, owner,
                                     None if owner is None else colours.get(owner, "#777777"),
                                     new))
    out_board.append("</g>")
    units: list[str] = [f'<g class="units"{_UNIT_TEXT_STYLE}>']
    for unit in sorted(state.units):
        x, y = static.unit_at.get(unit.location.province, (0.0, 0.0))
        if unit.power == NEUTRAL:
            used.add("neutral")
        units.append(_unit(unit, colours.get(unit.power, NEUTRAL_GREY), x, y, False,
                           codes.get(unit.power, "")))
    for d in sorted(state.dislodged, key=lambda d: d.unit):
        used.add("dislodged")
        province = d.unit.location.province
        x, y = static.dislodged_at.get(province, (0.0, 0.0))
        for loc in retreat_options(gmap, state, d):
            used.add("retreat-option")
            units.append(_arrow((x, y), static.unit_at[loc.province], FAILED, "retreat-option",
                                dash="2 4", width=1.8, start_gap=11.0, end_gap=13.0,
                                title=f"{d.unit} may retreat to {loc}"))
        units.append(_unit(d.unit, colours.get(d.unit.power, "#777777"), x, y, True,
                           codes.get(d.unit.power, "")))
    orders = _Orders(static, gmap, colours, codes, state.units)
    orders.waiting = {d.unit.location.province: static.dislodged_at.get(
        d.unit.location.province, (0.0, 0.0)) for d in state.dislodged}
    orders.draw(results)
    waiting = {d.unit: orders.waiting[d.unit.location.province] for d in state.dislodged}
    orders.draw_unordered((u, waiting.get(u) or static.unit_at.get(u.location.province,
                                                                     (0.0, 0.0)))
                          for u in unordered)
    used |= orders.used
    labels = [f'<g class="labels"{_LABEL_STYLE}>',
              *(_label(static, abbr, abbr in water) for abbr in static.order), "</g>"]
    units.append("</g>")

    legend, legend_height = _legend(variant, powers, colours, codes, state, used, b.height + 8,
                                    b.width, _LEGEND_WORDS | _STANDING_WORDS if standing
                                    else _LEGEND_WORDS)
    height = b.height + 8 + legend_height + 30
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{b.width:.0f}" '
        f'height="{height + 0:.0f}" viewBox="0 -30 {b.width:.0f} {height:.0f}" '
        f'font-family="DejaVu Sans, Arial, sans-serif" data-variant={quoteattr(variant.name)}>',
        f'<title>{escape(title)}</title>', _DEFS,
        f'<rect y="-30" width="{b.width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        f'<rect width="{b.width:g}" height="{b.height:g}" fill="none" stroke="#555"/>',
    ]
    # the heading last: above the board, it covers nothing, and what comes before it is the
    # same in every game at the same position (gm.pictures.paint keeps that board painted)
    heading = f'<text x="10" y="-9" font-size="17" font-weight="bold">{escape(title)}</text>'
    return "\n".join([*head, *out_board, *orders.under, *units, *orders.out, *labels, *legend,
                      heading, "</svg>"]) + "\n"


def _legend(variant: Variant, powers: tuple[str, ...], colours: dict[str, str],
            codes: dict[str, str], state: GameState, used: set[str], top: float,
            width: float, words: dict[str, str]) -> tuple[list[str], float]:
    """Each power's colour, code and centre count; the terrain fills; each mark used."""
    rows = []
    counts = Counter(state.owners.values())  # each power's centres
    per_row = max(1, int(width // 190))
    for i, power in enumerate(powers):
        x, y = 10 + 190 * (i % per_row), top + 20 * (i // per_row)
        code = f"{codes[power]} " if power in codes else ""
        rows.append(
            f'<g class="legend-power" data-power={quoteattr(power)}>'
            f'<rect x="{x}" y="{y}" width="14" height="14" fill="{colours[power]}"/>'
            f'<text x="{x + 20}" y="{y + 12}" font-size="12">{escape(code)}{escape(power)}: '
            f'{counts[power]}</text></g>')
    y = top + 20 * ((len(powers) + per_row - 1) // per_row) + 6
    keys = (("sea", TERRAIN_FILL[Terrain.SEA]), ("lake", TERRAIN_FILL[Terrain.LAKE]),
            ("land", TERRAIN_FILL[Terrain.LAND]), ("mountain", TERRAIN_FILL[Terrain.MOUNTAIN]),
            ("impassable", TERRAIN_FILL[Terrain.IMPASSABLE]), ("ice", ICE_FILL))
    per_row = max(1, int(width // 125))  # a narrow board (a small variant file's): wrapped
    for i, (word, fill) in enumerate(keys):
        x, ty = 10 + 125 * (i % per_row), y + 20 * (i // per_row)
        rows.append(f'<rect x="{x}" y="{ty}" width="14" height="14" fill="{fill}" '
                    f'stroke="#555"/><text x="{x + 20}" y="{ty + 12}" font-size="12">{word}'
                    f'</text>')
    y += 22 + 20 * ((len(keys) - 1) // per_row)
    marks = [m for m in words if m in used]
    # columns as wide as the widest entry used (its key, then its words at about 7 px a
    # character in 12 px DejaVu Sans), so that no entry runs into the next or off the picture
    column = max([280, *(44 + 7 * len(words[m]) + 16 for m in marks)])
    per_row = max(1, int((width - 10) // column))
    for i, mark in enumerate(marks):
        x, my = 10 + column * (i % per_row), y + 20 * (i // per_row)
        rows.append(f'<g data-legend="{mark}">{_key(mark, x, my)}<text x="{x + 44}" '
                    f'y="{my + 12}" font-size="12">{escape(words[mark])}</text></g>')
    y += 20 * ((len(marks) + per_row - 1) // per_row)
    return rows, y - top


def _key(mark: str, x: float, y: float) -> str:
    """The legend's small drawing of a mark."""
    a, b = (x, y + 7), (x + 36, y + 7)
    if mark in ("move-ok", "retreat-ok"):
        return _arrow(a, b, OK, "", start_gap=0, end_gap=0)
    if mark in ("move-failed", "retreat-failed"):
        return _arrow(a, b, FAILED, "", dash="8 4", cross=True, start_gap=0, end_gap=0)
    if mark == "move-void":
        return _arrow(a, b, VOID, "", dash="8 4", start_gap=0, end_gap=0)
    if mark.startswith(("support", "convoy")):
        colour = OK if mark.endswith("ok") else FAILED
        dash = "2 5" if mark.startswith("convoy") else "7 4"
        return _arrow(a, b, colour, "", dash=dash, width=2.2, head=False,
                      cross=mark.endswith("failed"), start_gap=0, end_gap=0)
    if mark == "retreat-option":
        return _arrow(a, b, FAILED, "", dash="2 4", width=1.8, start_gap=0, end_gap=0)
    if mark == "hold":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="none" stroke="{OK}" ' \
               f'stroke-width="2"/>'
    if mark == "build":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="none" stroke="#2e7d32" ' \
               f'stroke-width="3"/>'
    if mark == "remove":
        return _cross(x + 18, y + 7, 6)
    if mark == "transform":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="none" stroke="#6a1b9a" ' \
               f'stroke-width="2" stroke-dasharray="3 2"/>'
    if mark == "geo":
        return f'<rect x="{x + 12}" y="{y + 1}" width="12" height="12" fill="none" ' \
               f'stroke="#8d5524" stroke-width="2.5" transform="rotate(45 {x + 18} {y + 7})"/>'
    if mark == "dislodged":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="#dddddd" stroke="#c00000" ' \
               f'stroke-width="2.5" stroke-dasharray="4 2"/>'
    if mark == "terrain-changed":
        return f'<rect x="{x + 4}" y="{y}" width="28" height="14" fill="url(#changed)" ' \
               f'stroke="#e65100" stroke-width="2"/>'
    if mark == "frozen":
        return f'<rect x="{x + 4}" y="{y}" width="28" height="14" fill="url(#frozen)" ' \
               f'stroke="#5a8fb5" stroke-width="2"/>'
    if mark == "new-centre":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="none" stroke="#e65100" ' \
               f'stroke-width="2.5"/>'
    if mark == "cut-border":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="#fff" stroke="#c00000" ' \
               f'stroke-width="2.5"/>{_cross(x + 18, y + 7, 4.0)}'
    if mark == "opened-border":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="#fff" stroke="#2e7d32" ' \
               f'stroke-width="2.5"/>'
    if mark == "no-order":
        return f'<circle cx="{x + 18}" cy="{y + 7}" r="7" fill="none" stroke="{NO_ORDER}" ' \
               f'stroke-width="2.5" stroke-dasharray="4 3"/>'
    if mark == "split-coast":
        return f'<line x1="{x + 2}" y1="{y + 11}" x2="{x + 34}" y2="{y + 11}" ' \
               f'stroke="{COAST_COLOUR}" stroke-width="3.2" stroke-linecap="round"/>' \
               f'<text x="{x + 18}" y="{y + 7}" text-anchor="middle" font-size="10" ' \
               f'font-weight="bold" fill="{COAST_COLOUR}">nc</text>'
    if mark == "neutral":
        return f'<rect x="{x + 11}" y="{y}" width="14" height="14" fill="{NEUTRAL_GREY}"/>'
    if mark == "link":
        return f'<line x1="{x}" y1="{y + 7}" x2="{x + 36}" y2="{y + 7}" stroke="#6a1b9a" ' \
               f'stroke-width="2" stroke-dasharray="10 4 2 4"/>'
    if mark == "one-way":
        return _arrowhead((x + 18, y + 7), (x, y + 7), (x + 36, y + 7))
    if mark in _ONLY_STYLE:
        colour, dashes = _ONLY_STYLE[mark]
        return f'<line x1="{x}" y1="{y + 7}" x2="{x + 36}" y2="{y + 7}" stroke="{colour}" ' \
               f'stroke-width="3" stroke-dasharray="{dashes}" stroke-linecap="round"/>'
    if mark == "passage":
        return f'<line x1="{x}" y1="{y + 7}" x2="{x + 36}" y2="{y + 7}" stroke="#0d47a1" ' \
               f'stroke-width="2.5" stroke-dasharray="1 5" stroke-linecap="round"/>'
    return ""
