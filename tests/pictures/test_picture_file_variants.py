"""Pictures of a variant read from a file (tests/pictures/data/frost.toml), read back from the
SVG: its frozen regions drawn in their season (the file's `[frozen]`, not a name), a marked
coast for each coast of every province with several, its small provinces drawn with room
for their unit, centre and name inside their own shape, and the places the map gives a
province's unit and name (`unit x,y`, `label x,y`) used where they are inside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.pictures.geometry import edge_distance
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from gm.variants.varfile import VariantFileErrors, read_variant
from tests.support.picture_reader import SVG, inside, read

FROST = Path(__file__).parent / "data" / "frost.toml"


@pytest.fixture(scope="module")
def frost() -> Variant:
    return read_variant(FROST).variant


def _frozen(svg: str) -> tuple[list[str], set[str]]:
    root, _ = read(svg)
    drawn = sorted((g.get("id") or "")[2:] for g in root.iter(f"{SVG}g")
                   if (g.get("id") or "").startswith("p-")
                   and any(p.get("data-mark") == "frozen" for p in g))
    legend = {g.get("data-legend") or "" for g in root.iter(f"{SVG}g")}
    return drawn, legend


def test_a_file_variants_frozen_regions_are_drawn_in_their_season(frost: Variant) -> None:
    start = frost.start_state()
    drawn, legend = _frozen(render_map_svg(frost, start, "Spring"))
    assert frost.name != "abstraction2"
    assert drawn == ["Ice", "NSE"] and "frozen" in legend
    fall = start.evolve(phase=Phase("Fall", 1901, PhaseType.MOVEMENT))
    drawn, legend = _frozen(render_map_svg(frost, fall, "Fall"))
    assert drawn == [] and "frozen" not in legend


def _coast_marks(svg: str) -> dict[tuple[str, str], tuple[float, float]]:
    root, _ = read(svg)
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("data-mark") == "split-coast":
            text = g.find(f"{SVG}text")
            assert text is not None and text.text == g.get("data-coast")
            out[(g.get("data-province") or "", g.get("data-coast") or "")] = (
                float(text.get("x") or 0), float(text.get("y") or 0) - 3.5)
    return out


@pytest.mark.parametrize("name", ["frost", "standard", "sahara"])
def test_each_split_coast_is_marked_inside_its_province(name: str, frost: Variant) -> None:
    variant = frost if name == "frost" else get_variant(name)
    svg = render_map_svg(variant, variant.start_state(), "coasts")
    marks = _coast_marks(svg)
    expected = {(p, c) for p, labels in variant.map.coasts.items() for c in labels}
    assert set(marks) == expected and expected
    _, drawn = read(svg)
    for (province, _coast), at in marks.items():
        assert inside(drawn.polygons[province], at), (province, _coast)
    root, _ = read(svg)
    assert any(g.get("data-legend") == "split-coast" for g in root.iter(f"{SVG}g"))


def test_the_marked_coast_is_the_one_on_its_sea(frost: Variant) -> None:
    """Splitland's nc faces the North Sea (above it), its sc the South Sea (below it)."""
    marks = _coast_marks(render_map_svg(frost, frost.start_state(), "coasts"))
    assert frost.map.coasts["Spl"] == ("nc", "sc")
    assert marks[("Spl", "nc")][1] < marks[("Spl", "sc")][1]


def test_small_provinces_hold_their_unit_and_centre(frost: Variant) -> None:
    """Portmouth (two neighbours, its position crowded against Westmark's) and Monaco: each
    unit's middle and centre marker stand well inside the province's own polygon."""
    state = frost.start_state().evolve(units=frozenset({
        Unit("Red", UnitType.FLEET, Location("Por")), Unit("Blue", UnitType.ARMY, Location("Mon")),
        Unit("Blue", UnitType.ARMY, Location("Eas")), Unit("Red", UnitType.ARMY, Location("Wes"))}))
    root, drawn = read(render_map_svg(frost, state, "small"))
    units = {g.get("data-province"): g for g in root.iter(f"{SVG}g")
             if "unit" in (g.get("class") or "").split()}
    centres = {c.get("data-province"): c for c in root.iter(f"{SVG}circle")
               if c.get("class") == "centre"}
    for province in ("Por", "Mon", "Eas", "Wes"):
        poly = drawn.polygons[province]
        text = units[province].find(f"{SVG}text")
        assert text is not None
        unit = (float(text.get("x") or 0), float(text.get("y") or 0) - 4.5)
        centre = (float(centres[province].get("cx") or 0), float(centres[province].get("cy") or 0))
        for what, at, room in (("unit", unit, 9.0), ("centre", centre, 5.5)):
            assert inside(poly, at), (province, what)
            assert edge_distance(poly, at) >= room, (province, what, edge_distance(poly, at))


def _with_places(tmp_path: Path, places: dict[str, str]) -> Path:
    """frost.toml with `unit x,y` / `label x,y` added to some provinces' lines."""
    text = FROST.read_text(encoding="utf-8")
    for province, added in places.items():
        line = next(li for li in text.splitlines() if li.startswith(f"{province} "))
        text = text.replace(line, f"{line} {added}")
    path = tmp_path / "frost.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _drawn_places(variant: Variant) -> tuple[dict[str, tuple[float, float]],
                                              dict[str, tuple[float, float]]]:
    state = variant.start_state()
    root, _ = read(render_map_svg(variant, state, "places"))
    units = {}
    for g in root.iter(f"{SVG}g"):
        if "unit" in (g.get("class") or "").split():
            text = g.find(f"{SVG}text")
            assert text is not None
            units[g.get("data-province") or ""] = (float(text.get("x") or 0),
                                                   float(text.get("y") or 0) - 4.5)
    labels = {t.get("data-province") or "": (float(t.get("x") or 0), float(t.get("y") or 0) - 4)
              for t in root.iter(f"{SVG}text") if t.get("class") == "label"}
    return units, labels


def test_unit_and_label_places_of_the_map_are_drawn(tmp_path: Path, frost: Variant) -> None:
    """Splitland's `unit 330,270 label 300,335`: the unit and the name stand there (moved as
    the picture moved Splitland's position: by the same offset), not where they would
    otherwise; the others are placed as before."""
    placed = read_variant(_with_places(tmp_path, {"Spl": "unit 330,270 label 300,335"})).variant
    assert placed.map.provinces["Spl"].unit_position == (330.0, 270.0)
    assert placed.map.provinces["Spl"].label_position == (300.0, 335.0)
    units, labels = _drawn_places(placed)
    plain_units, plain_labels = _drawn_places(frost)
    dx = units["Spl"][0] - 330.0  # the board's offset from the map's coordinates
    dy = units["Spl"][1] - 270.0
    assert (labels["Spl"][0] - dx, labels["Spl"][1] - dy) == pytest.approx((300.0, 335.0),
                                                                           abs=0.2)
    assert units["Spl"] != plain_units["Spl"] and labels["Spl"] != plain_labels["Spl"]
    assert abs(units["Spl"][0] - labels["Spl"][0] - 30) < 0.2  # as written: 30 east of it
    assert {p: u for p, u in units.items() if p != "Spl"} == \
        {p: u for p, u in plain_units.items() if p != "Spl"}
    _, drawn = read(render_map_svg(placed, placed.start_state(), "places"))
    assert inside(drawn.polygons["Spl"], units["Spl"])


def test_a_place_outside_its_province_is_not_used(tmp_path: Path, frost: Variant) -> None:
    """Portmouth's unit written in Westmark: the picture places it itself, as without one."""
    placed = read_variant(_with_places(tmp_path, {"Por": "unit 60,250"})).variant
    units, _ = _drawn_places(placed)
    plain, _ = _drawn_places(frost)
    assert units["Por"] == plain["Por"]


def test_a_malformed_place_is_an_error_at_its_line(tmp_path: Path) -> None:
    path = _with_places(tmp_path, {"Mon": "unit 12;30"})
    line = next(i for i, li in enumerate(path.read_text().splitlines(), 1)
                if li.startswith("Mon "))
    with pytest.raises(VariantFileErrors) as info:
        read_variant(path)
    assert [str(p) for p in info.value.problems] == [
        f"{path}:{line}: Mon: write unit X,Y, where its unit stands on the board "
        "(e.g. unit 120,340), not 'unit 12;30'"]


def test_the_legend_of_a_narrow_board_fits_it(frost: Variant) -> None:
    """Frost's board is narrower than the six terrain keys in a row: they wrap."""
    root, drawn = read(render_map_svg(frost, frost.start_state(), "legend"))
    keys = [t for t in root.iter(f"{SVG}text") if t.text in ("sea", "lake", "land", "mountain",
                                                             "impassable", "ice")]
    assert len(keys) == 6
    for t in keys:  # a key's words start left of the edge with room for "impassable"
        assert float(t.get("x") or 0) + 70 <= drawn.width, t.text
