"""Powers told apart: the colours drawn for every variant's powers are far from each other and
from the terrain (CIE76 distance in CIELAB); Chaos II's 34 included. On a board of more than
seven powers each unit carries its power's code. The PNG shows those colours inside the named
provinces: terrain where it is, an owner's tint on its centres."""

from __future__ import annotations

import itertools
import math

import pytest

from gm.engine.geo import Terrain
from gm.pictures.colours import BACKGROUND, MIN_DISTANCE, TERRAIN_COLOURS, distance, lab
from gm.pictures.png import MAX_WIDTH, svg_to_png
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from gm.variants.registry import names
from tests.support.picture_reader import SVG, inside, read
from tests.support.png_pixels import Image


def test_the_colour_distance_is_cie76() -> None:
    """Known values: white is L 100, black L 0; pure red and green are about 170.6 apart."""
    assert lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.05)
    assert lab("#000000") == pytest.approx((0.0, 0.0, 0.0), abs=0.05)
    assert distance("#ff0000", "#00ff00") == pytest.approx(170.6, abs=0.5)


@pytest.mark.parametrize("name", names())
def test_power_colours_are_far_apart_and_from_the_terrain(name: str) -> None:
    variant = get_variant(name)
    root, _ = read(render_map_svg(variant, variant.start_state(), name))
    drawn = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "legend-power":
            rect = g.find(f"{SVG}rect")
            assert rect is not None
            drawn[g.get("data-power")] = rect.get("fill") or ""
    assert set(drawn) == set(variant.power_names)
    if name == "chaos2":
        assert len(drawn) == 34
    for (p, a), (q, b) in itertools.combinations(drawn.items(), 2):
        assert distance(a, b) >= MIN_DISTANCE, (p, q, a, b)
    for p, a in drawn.items():
        for word, t in (*TERRAIN_COLOURS.items(), ("background", BACKGROUND)):
            assert distance(a, t) >= MIN_DISTANCE, (p, word)


@pytest.mark.parametrize("name", ["standard", "chaos2"])
def test_units_carry_their_power_code_when_there_are_more_than_seven(name: str) -> None:
    variant = get_variant(name)
    root, _ = read(render_map_svg(variant, variant.start_state(), name))
    letters = {p.name: p.letter for p in variant.powers}
    units = [g for g in root.iter(f"{SVG}g") if "unit" in (g.get("class") or "").split()]
    assert len(units) == len(variant.start_state().units)
    for g in units:
        codes = [t.text for t in g.iter(f"{SVG}text") if t.get("class") == "code"]
        if name == "chaos2":
            assert codes == [letters[g.get("data-power") or ""]]
        else:
            assert codes == []


def _segment_distance(p: tuple[float, float], a: tuple[float, float],
                      b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = dx * dx + dy * dy
    t = 0.0 if length == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy)
                                              / length))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _clear_point(root_polygon: list[tuple[float, float]],
                 marks: list[tuple[float, float]]) -> tuple[float, float]:
    """A point inside the polygon, away from its edges and from every unit, name and centre."""
    xs = [p[0] for p in root_polygon]
    ys = [p[1] for p in root_polygon]
    best, best_d = (0.0, 0.0), -1.0
    for i in range(31):
        for j in range(31):
            pt = (min(xs) + (max(xs) - min(xs)) * i / 30, min(ys) + (max(ys) - min(ys)) * j / 30)
            if not inside(root_polygon, pt):
                continue
            edge = min(_segment_distance(pt, a, b) for a, b in
                       zip(root_polygon, root_polygon[1:] + root_polygon[:1], strict=True))
            clear = min((math.dist(pt, m) for m in marks), default=99.0)
            d = min(edge, clear / 2)
            if d > best_d:
                best, best_d = pt, d
    return best


def _marks(root: object) -> list[tuple[float, float]]:
    out = []
    for t in root.iter(f"{SVG}text"):  # type: ignore[attr-defined]
        if t.get("x") and t.get("y"):
            out.append((float(t.get("x")), float(t.get("y")) - 4))
    for c in root.iter(f"{SVG}circle"):  # type: ignore[attr-defined]
        if c.get("cx"):
            out.append((float(c.get("cx")), float(c.get("cy"))))
    return out


def test_the_png_shows_terrain_and_owners_in_the_provinces() -> None:
    """Standard board, Holland sunk and Belgium owned by Germany: Holland's pixels are the
    sea's, Burgundy's the land's, Belgium's and Berlin's tinted towards Germany's colour, Paris's
    towards France's, Switzerland's the impassable grey."""
    variant = get_variant("standard")
    start = variant.start_state()
    state = start.evolve(terrain={"Hol": Terrain.SEA}, owners={**start.owners, "Bel": "Germany"})
    svg = render_map_svg(variant, state, "pixels")
    root, drawn = read(svg)
    zoom = 0.5
    image = Image(svg_to_png(svg, zoom=zoom))
    marks = _marks(root)

    def colour(province: str) -> str:
        x, y = _clear_point(drawn.polygons[province], marks)
        return image.pixel(x * zoom, (y + 30) * zoom)  # the title band is 30 high

    def near(a: str, b: str) -> bool:
        return distance(a, b) < 3

    assert near(colour("Hol"), TERRAIN_COLOURS["sea"])
    assert near(colour("NTH"), TERRAIN_COLOURS["sea"])
    assert near(colour("Bur"), TERRAIN_COLOURS["land"])
    assert near(colour("Swi"), TERRAIN_COLOURS["impassable"])
    legend = {g.get("data-power"): g.find(f"{SVG}rect").get("fill")  # type: ignore[union-attr]
              for g in root.iter(f"{SVG}g") if g.get("class") == "legend-power"}
    land = TERRAIN_COLOURS["land"]
    for province, owner in (("Bel", "Germany"), ("Ber", "Germany"), ("Par", "France"),
                            ("Mos", "Russia")):
        seen = colour(province)
        assert not near(seen, land), province
        # tinted: nearer its owner's colour than the plain land is
        assert distance(seen, legend[owner] or "") < distance(land, legend[owner] or "") - 5
        # and its centre marker is drawn in the owner's colour, nearest to no other power's
        marker = next(c for c in root.iter(f"{SVG}circle") if c.get("class") == "centre"
                      and c.get("data-province") == province)
        dot = image.pixel(float(marker.get("cx") or 0) * zoom,
                          (float(marker.get("cy") or 0) + 30) * zoom)
        assert min(legend.items(), key=lambda pc: distance(dot, pc[1] or ""))[0] == owner
        assert distance(dot, legend[owner] or "") < 8, province
    dot = next(c for c in root.iter(f"{SVG}circle") if c.get("data-province") == "Hol")
    assert near(image.pixel(float(dot.get("cx") or 0) * zoom,
                            (float(dot.get("cy") or 0) + 30) * zoom), "#ffffff")  # unowned


def test_a_wide_board_is_drawn_at_most_as_wide_as_the_report_shows_it() -> None:
    """Abstraction2's board is wider than the HTML report shows a picture (MAX_WIDTH): its PNG
    is scaled down as a whole, so each province's colour is still at its scaled place; the
    standard board, no wider, keeps its size."""
    variant = get_variant("abstraction2")
    start = variant.start_state()
    svg = render_map_svg(variant, start, "wide")
    root, drawn = read(svg)
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    assert width > MAX_WIDTH
    image = Image(svg_to_png(svg))
    zoom = MAX_WIDTH / width
    assert (image.width, image.height) == (MAX_WIDTH, round(height * zoom))
    marks = _marks(root)
    land, sea = TERRAIN_COLOURS["land"], TERRAIN_COLOURS["sea"]
    for province, colour in (("NAO", sea), ("BAL", sea), ("Gal", land), ("Ukr", land)):
        x, y = _clear_point(drawn.polygons[province], marks)
        assert distance(image.pixel(x * zoom, (y + 30) * zoom), colour) < 3, province
    standard = get_variant("standard")
    svg = render_map_svg(standard, standard.start_state(), "as drawn")
    root, _ = read(svg)
    image = Image(svg_to_png(svg))
    assert (image.width, image.height) == (round(float(root.get("width") or 0)),
                                           round(float(root.get("height") or 0)))
