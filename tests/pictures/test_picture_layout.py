"""What stands in a province can be read: read back from the drawn SVG, no province's name is
covered by a unit's mark or by the power code beside it (Chaos II: 34 powers, each unit shows its
power's code), no centre marker lies under a unit, its code or a name, and no unit or code
covers another (a dislodged unit stands beside the one that dislodged it); on the start of
every variant and on boards where every province holds a unit (any position of the 34 powers,
benchmarks/bench_pictures.py's included, puts its units on some of these places), also with a
dislodged unit beside each. Ireland (Abstraction2) is an
island of fair size, round rather than a sliver."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from gm.engine.game import advance
from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.notation import parse_order
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from gm.variants.registry import names
from tests.support.picture_reader import SVG, area, read, styles
from tests.support.positions import submitted

Box = tuple[float, float, float, float]  # left, top, right, bottom
BOLD_11 = {"upper": 8.4, "other": 7.0}  # DejaVu Sans Bold at 11 px: a letter's usual advance
HALO = 1.3  # the white outline round a name


@dataclass
class Shape:
    """A drawn thing as a box, or a circle (x, y, radius) when it is one."""

    what: str
    box: Box
    circle: tuple[float, float, float] | None = None

    def meets(self, other: Shape) -> bool:
        a, b = self.box, other.box
        if not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]):
            return False
        if self.circle and other.circle:
            (x1, y1, r1), (x2, y2, r2) = self.circle, other.circle
            return math.dist((x1, y1), (x2, y2)) < r1 + r2
        for round_one, boxed in ((self.circle, b), (other.circle, a)):
            if round_one:
                x, y, r = round_one
                dx = max(boxed[0] - x, 0.0, x - boxed[2])
                dy = max(boxed[1] - y, 0.0, y - boxed[3])
                return dx * dx + dy * dy < r * r
        return True


def _circle(what: str, x: float, y: float, r: float) -> Shape:
    return Shape(what, (x - r, y - r, x + r, y + r), (x, y, r))


def _f(e: ET.Element, name: str) -> float:
    return float(e.get(name) or 0)


def _shapes(root: ET.Element) -> tuple[list[Shape], list[Shape], list[Shape], list[Shape]]:
    """The names, unit marks, power codes and centre markers drawn."""
    labels, marks, codes, centres = [], [], [], []
    style = styles(root)
    for t in root.iter(f"{SVG}text"):
        if t.get("class") == "label":
            text = t.text or ""
            half = sum(BOLD_11["upper"] if c.isupper() else BOLD_11["other"]
                       for c in text) / 2 + HALO
            x, base = _f(t, "x"), _f(t, "y")
            labels.append(Shape(f"name {text}", (x - half, base - 8.0 - HALO / 2, x + half,
                                                 base + 2.5)))
    for g in root.iter(f"{SVG}g"):
        if "unit" not in (g.get("class") or "").split():
            continue
        who = f"{g.get('data-power')} unit in {g.get('data-province')}" + (
            " (dislodged)" if "dislodged" in (g.get("class") or "") else "")
        drawn = [e for e in g if e.tag in (f"{SVG}circle", f"{SVG}rect")]
        for i, e in enumerate(drawn):  # the unit's mark, then the box of its code if shown
            what = f"code of {who}" if i else who
            pad = float(style[e].get("stroke-width", 0)) / 2  # its outline
            if e.tag == f"{SVG}circle":
                shape = _circle(what, _f(e, "cx"), _f(e, "cy"), _f(e, "r") + pad)
            else:
                shape = Shape(what, (_f(e, "x") - pad, _f(e, "y") - pad,
                                     _f(e, "x") + _f(e, "width") + pad,
                                     _f(e, "y") + _f(e, "height") + pad))
            (codes if i else marks).append(shape)
    for c in root.iter(f"{SVG}circle"):
        if c.get("class") == "centre":
            centres.append(_circle(f"centre {c.get('data-province')}", _f(c, "cx"),
                                   _f(c, "cy"),
                                   _f(c, "r") + float(style[c]["stroke-width"]) / 2))
    return labels, marks, codes, centres


def _overlaps(first: list[Shape], second: list[Shape]) -> list[tuple[str, str]]:
    return [(a.what, b.what) for a in first for b in second if a.meets(b)]


def _full_board(variant: Variant, fleets: bool) -> GameState:
    """Every province that can hold a unit holds one, the powers taken in turn: fleets where a
    fleet can stand (on a coast of its own where the province has coasts) if `fleets`, else
    armies where an army can stand."""
    gmap = variant.map
    powers = variant.power_names
    units = []
    for i, province in enumerate(sorted(gmap.provinces)):
        army = gmap.is_passable(province) and not gmap.terrain[province].is_water
        afloat = sorted((loc for loc in gmap.fleet_adj if loc.province == province),
                        key=lambda loc: loc.coast or "")
        if afloat and (fleets or not army):
            units.append(Unit(powers[i % len(powers)], UnitType.FLEET, afloat[-1]))
        elif army:
            units.append(Unit(powers[i % len(powers)], UnitType.ARMY, Location(province)))
    return variant.start_state().evolve(units=tuple(units))


def _dislodged_everywhere(variant: Variant) -> GameState:
    """Armies everywhere, and in each province where one stands another power's army that
    it dislodged (drawn beside it, awaiting its retreat)."""
    state = _full_board(variant, fleets=False)
    powers = variant.power_names
    return state.evolve(dislodged=tuple(
        Dislodged(Unit(powers[(powers.index(u.power) + 1) % len(powers)], UnitType.ARMY,
                       u.location), None)
        for u in state.units if u.type is UnitType.ARMY))


def _positions() -> list[tuple[str, str, GameState]]:
    out = [(name, "start", get_variant(name).start_state()) for name in names()]
    for name in ("chaos2", "abstraction2", "standard"):
        variant = get_variant(name)
        out += [(name, "fleets everywhere", _full_board(variant, fleets=True)),
                (name, "armies everywhere", _full_board(variant, fleets=False)),
                (name, "dislodged everywhere", _dislodged_everywhere(variant))]
    return out


@pytest.mark.parametrize(("name", "what", "state"), _positions(),
                         ids=[f"{n}-{w}" for n, w, _ in _positions()])
def test_units_their_codes_names_and_centres_do_not_overlap(name: str, what: str,
                                                            state: GameState) -> None:
    variant = get_variant(name)
    root, _ = read(render_map_svg(variant, state, f"{name}: {what}"))
    labels, marks, codes, centres = _shapes(root)
    assert len(labels) == len(variant.map.provinces)
    units = len(state.units) + len(state.dislodged)
    assert len(marks) == units and len(centres) == len(variant.map.centres)
    # from 8 powers on every unit shows its power's code (Chaos II: 34 powers)
    assert len(codes) == (units if len(variant.powers) >= 8 else 0)
    assert _overlaps(codes, labels) == [], "a power's code covers a name"
    assert _overlaps(marks, labels) == [], "a unit covers a name"
    assert _overlaps(centres, [*marks, *codes, *labels]) == [], "a centre marker is covered"
    drawn = [*marks, *codes]
    assert [(a, b) for a, b in _overlaps(drawn, drawn) if a < b
            and a.removeprefix("code of ") != b.removeprefix("code of ")] == [], \
        "units or their codes cover each other"


def test_the_34_power_board_shows_every_code_beside_its_unit() -> None:
    """Chaos II: each unit's code is its power's letter, drawn right of its mark, level with
    it, where no name is (the names of Liverpool, Denmark, Berlin, Paris included)."""
    variant = get_variant("chaos2")
    state = _full_board(variant, fleets=False)
    root, _ = read(render_map_svg(variant, state, "codes"))
    letters = {p.name: p.letter for p in variant.powers}
    labels, _, _, _ = _shapes(root)
    for g in root.iter(f"{SVG}g"):
        if "unit" not in (g.get("class") or "").split():
            continue
        mark = next(e for e in g if e.tag in (f"{SVG}circle", f"{SVG}rect"))
        code = next(e for e in g if e.tag == f"{SVG}text" and e.get("class") == "code")
        assert code.text == letters[g.get("data-power") or ""]
        x = _f(mark, "cx") if mark.tag == f"{SVG}circle" else _f(mark, "x") + _f(mark, "width") / 2
        y = _f(mark, "cy") if mark.tag == f"{SVG}circle" else _f(mark, "y") + _f(mark, "height") / 2
        assert _f(code, "x") > x + 10 and abs(_f(code, "y") - 3.6 - y) < 0.2
    named = {s.what for s in labels}
    assert {"name Lvp", "name Den", "name Ber", "name Par"} <= named


def _crosses(start: tuple[float, float], end: tuple[float, float], box: Box) -> bool:
    """Does the segment pass through the box (tested every half unit along it)?"""
    steps = max(1, int(math.dist(start, end) * 2))
    return any(box[0] < start[0] + (end[0] - start[0]) * k / steps < box[2]
               and box[1] < start[1] + (end[1] - start[1]) * k / steps < box[3]
               for k in range(steps + 1))


def test_moves_leave_and_reach_a_unit_clear_of_its_code() -> None:
    """Chaos II, a unit in every province, each ordered to a neighbour (the real parser and
    adjudicator; most bounce): no move's arrow runs over the power code of the unit it leaves
    or of the unit standing where it goes, whichever way it points."""
    variant = get_variant("chaos2")
    state = _full_board(variant, fleets=False).evolve(
        phase=Phase("Fall", 1905, PhaseType.MOVEMENT))
    gmap = variant.map
    given = []
    for i, unit in enumerate(state.units):
        reach = sorted(gmap.army_adj.get(unit.province, ())) if unit.type is UnitType.ARMY \
            else sorted(str(loc) for loc in gmap.fleet_adj.get(unit.location, ()))
        text = f"{unit} - {reach[i % len(reach)]}"
        order = parse_order(text, gmap, state.phase.type)
        assert not isinstance(order, Exception), text
        given.append(Submitted(unit.power, text, order))
    results = advance(variant, state, given).reports[0].results
    root, _ = read(render_map_svg(variant, state, "moves", results=results))
    code_of: dict[str, Box] = {}
    for g in root.iter(f"{SVG}g"):
        if "unit" in (g.get("class") or "").split():
            rect = next(e for e in g if e.tag == f"{SVG}rect" and e.get("class") == "code")
            code_of[g.get("data-province") or ""] = (
                _f(rect, "x"), _f(rect, "y"), _f(rect, "x") + _f(rect, "width"),
                _f(rect, "y") + _f(rect, "height"))
    arrows = eastward = 0
    for g in root.iter(f"{SVG}g"):
        if not (g.get("data-mark") or "").startswith("move"):
            continue
        title = g.find(f"{SVG}title")
        assert title is not None and title.text
        ends = re.findall(r"\b([A-Z][A-Za-z]{2})\b(?:/[a-z]+)?", title.text.split(" ", 1)[1])
        line = g.find(f"{SVG}line")
        head = g.find(f"{SVG}polygon")
        assert line is not None and head is not None and len(ends) == 2, title.text
        tip = tuple(float(v) for v in (head.get("points") or "").split()[0].split(","))
        segment = ((_f(line, "x1"), _f(line, "y1")), (tip[0], tip[1]))
        for province in ends:
            if province in code_of:
                assert not _crosses(*segment, code_of[province]), (title.text, province)
        arrows += 1
        (x1, y1), (x2, y2) = segment
        eastward += x2 - x1 > abs(y2 - y1)
    assert arrows == len(state.units)
    assert eastward > 10  # the side the codes are on


def test_ireland_is_an_island_of_fair_size() -> None:
    """Abstraction2: Ireland, between the Hebrides, the Irish Sea and the North Atlantic, is
    drawn round (about as wide as high) and no smaller than Wales, not a sliver beside its
    seas; the English provinces each have room for a unit, a centre and a name (the test
    above) and are no smaller than half of Ireland."""
    variant = get_variant("abstraction2")
    _, drawn = read(render_map_svg(variant, variant.start_state(), "Ireland"))
    ireland = drawn.polygons["Ire"]
    xs, ys = [p[0] for p in ireland], [p[1] for p in ireland]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    assert 0.75 < width / height < 1.33
    assert area(ireland) > 0.7 * width * height  # round, not a thin triangle
    assert area(ireland) >= area(drawn.polygons["Wal"])
    for province in ("Ply", "Lon", "Wal", "Lvp", "Edi", "Yor", "Cly"):
        assert area(drawn.polygons[province]) > 0.5 * area(ireland), province


def test_a_support_to_hold_ends_at_the_rim_of_the_unit_it_supports() -> None:
    """Chaos II, a unit in every province, each supporting a neighbour to hold: each support's
    line and the dot that ends it stop at the supported unit's rim, off its letter and its
    power code (they used to end on the unit's middle, over its letter)."""
    variant = get_variant("chaos2")
    state = _full_board(variant, fleets=False).evolve(
        phase=Phase("Fall", 1905, PhaseType.MOVEMENT))
    gmap = variant.map
    at = {u.province: u for u in state.units}
    given = []
    for unit in state.units:
        near = sorted(p for p in gmap.borders.get(unit.province, ()) if p in at)
        for province in near:
            text = f"{unit} S {at[province]}"
            order = parse_order(text, gmap, state.phase.type)
            if not isinstance(order, Exception):
                given.append(Submitted(unit.power, text, order))
                break
    results = advance(variant, state, given).reports[0].results
    given = [r for r in results if r.outcome in (Outcome.SUCCEEDS, Outcome.FAILS)]
    assert len(given) > len(state.units) / 2  # the others are void: drawn grey, not checked
    root, _ = read(render_map_svg(variant, state, "supports", results=results))
    _, marks, codes, _ = _shapes(root)
    mark_of = {m.what.split(" unit in ")[1]: m for m in marks if " unit in " in m.what}
    code_of = {c.what.split(" unit in ")[1]: c for c in codes}
    supports = 0
    children = list(root)
    for index, g in enumerate(children):
        if not (g.get("data-mark") or "").startswith("support"):
            continue
        title = g.find(f"{SVG}title")
        line = g.find(f"{SVG}line")
        dot = children[index + 1]
        assert title is not None and title.text and line is not None and dot.get("r") == "3.5"
        supported = title.text.split(" S ", 1)[1].split()[-1]
        end = (_f(dot, "cx"), _f(dot, "cy"))
        x, y, r = mark_of[supported].circle or (0.0, 0.0, 0.0)
        assert math.dist(end, (x, y)) >= r, (title.text, "the dot covers the unit")
        assert math.dist((_f(line, "x2"), _f(line, "y2")), (x, y)) >= r - 0.5, title.text
        if supported in code_of:
            assert not code_of[supported].meets(_circle("dot", *end, 3.5)), title.text
        supports += 1
    assert supports == len(given)


def test_a_hold_ring_lies_under_the_unit_and_its_code() -> None:
    """The ring of a hold is drawn before the units, so the power code beside a holding unit
    (Chaos II) is whole over it."""
    variant = get_variant("chaos2")
    state = _full_board(variant, fleets=False).evolve(
        phase=Phase("Fall", 1905, PhaseType.MOVEMENT))
    given = []
    for unit in state.units:
        order = parse_order(f"{unit} H", variant.map, state.phase.type)
        assert not isinstance(order, Exception)
        given.append(Submitted(unit.power, f"{unit} H", order))
    root, _ = read(render_map_svg(variant, state, "holds",
                                  results=advance(variant, state, given).reports[0].results))
    drawn = list(root.iter())  # in the order drawn
    rings = [i for i, e in enumerate(drawn) if e.get("data-mark") == "hold"]
    units = [i for i, e in enumerate(drawn) if "unit" in (e.get("class") or "").split()]
    assert len(rings) == len(units) == len(state.units) and max(rings) < min(units)


def test_an_arrow_leaves_a_fleet_on_a_named_coast_clear_of_its_box() -> None:
    """A fleet on a named coast has a wide box (`F/sc`): its move's arrow starts outside it,
    whichever way it points, as an army's starts outside its circle."""
    variant = get_variant("standard")
    state = variant.start_state().evolve(units=(
        Unit("Russia", UnitType.FLEET, Location("StP", "sc")),
        Unit("France", UnitType.FLEET, Location("Spa", "nc")),
        Unit("Turkey", UnitType.FLEET, Location("Bul", "sc")),
        Unit("Germany", UnitType.ARMY, Location("Mun"))))
    lines = ("Russia: F StP/sc - BOT", "France: F Spa/nc - MAO", "Turkey: F Bul/sc - AEG",
             "Germany: A Mun - Boh")
    results = advance(variant, state, submitted(variant, state, *lines)).reports[0].results
    root, _ = read(render_map_svg(variant, state, "coasts", results=results))
    _, marks, _, _ = _shapes(root)
    mark_of = {m.what.split(" in ")[1]: m for m in marks}
    starts = 0
    for g in root.iter(f"{SVG}g"):
        if (g.get("data-mark") or "").startswith("move"):
            title = g.find(f"{SVG}title")
            line = g.find(f"{SVG}line")
            assert title is not None and title.text and line is not None
            origin = title.text.split()[1].split("/")[0]
            start = (_f(line, "x1"), _f(line, "y1"))
            assert not mark_of[origin].meets(_circle("start", *start, 1.0)), title.text
            starts += 1
    assert starts == len(lines)
