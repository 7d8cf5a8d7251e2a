"""The drawn board is the map data: read back from the SVG, the provinces whose polygons share
an edge of visible length (plus the passages drawn as links) are exactly the map's borders, for
every variant, at the start and after the terrain changed (a sunk province, a cut border, a
border opened again). The polygons tile the board: no edges cross, every polygon has an area,
and together with the islands they cover the board's area exactly. Centre markers stand inside
their province; no label is covered by a unit."""

from __future__ import annotations

import math

import pytest

from gm.engine.geo import Terrain
from gm.engine.state import GameState
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from gm.variants.registry import names
from tests.support.picture_reader import SVG, area, crossings, inside, read


def _expected(variant_name: str, state: GameState) -> set[tuple[str, str]]:
    gmap = get_variant(variant_name).map_for(state)
    return {(min(p, q), max(p, q)) for p, ns in gmap.borders.items() for q in ns}


def _check(variant_name: str, state: GameState, previous: GameState | None = None) -> None:
    variant = get_variant(variant_name)
    svg = render_map_svg(variant, state, "check", previous=previous)
    _, drawn = read(svg)
    expected = _expected(variant_name, state)
    seen = drawn.borders()
    assert sorted(expected - seen) == [], "borders in the map data not drawn"
    assert sorted(seen - expected) == [], "borders drawn that the map data does not have"
    assert set(drawn.polygons) == set(variant.map.provinces)


@pytest.mark.parametrize("name", names())
def test_drawn_borders_are_the_map_borders_at_the_start(name: str) -> None:
    _check(name, get_variant(name).start_state())


@pytest.mark.parametrize("name", names())
def test_drawn_borders_follow_terrain_changes(name: str) -> None:
    """Holland (or the first land province) sunk, a mountain raised, the first border cut; then
    the cut border opened again: the drawn borders are the changed map's, and each cut or
    opened border carries its mark."""
    variant = get_variant(name)
    start = variant.start_state()
    gmap = variant.map
    land = sorted(p for p, t in gmap.terrain.items() if t is Terrain.LAND)
    sunk = "Hol" if "Hol" in gmap.terrain else land[0]
    a = land[1] if land[1] != sunk else land[2]
    b = sorted(q for q in gmap.borders[a] if q != sunk)[0]
    cut = (min(a, b), max(a, b))
    changed = start.evolve(terrain={**start.terrain, sunk: Terrain.SEA, a: Terrain.MOUNTAIN},
                           cut_borders=frozenset({cut}))
    _check(name, changed, previous=start)
    root, _ = read(render_map_svg(variant, changed, "cut", previous=start))
    marks = {(g.get("data-mark"), g.get("data-between")) for g in root.iter(f"{SVG}g")
             if g.get("data-between")}
    assert marks == {("cut-border", f"{cut[0]}-{cut[1]}")}
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"p-{sunk}")
    assert group.get("data-terrain") == "sea"
    label = next(t for t in root.iter(f"{SVG}text") if t.get("data-province") == sunk)
    assert label.text == sunk.upper()  # Geophysical rule 9: a sea's name in capitals
    opened = changed.evolve(cut_borders=frozenset())
    _check(name, opened, previous=changed)
    root, _ = read(render_map_svg(variant, opened, "open", previous=changed))
    marks = {(g.get("data-mark"), g.get("data-between")) for g in root.iter(f"{SVG}g")
             if g.get("data-between")}
    assert marks == {("opened-border", f"{cut[0]}-{cut[1]}")}


@pytest.mark.parametrize("name", ["standard", "abstraction2"])
def test_the_polygons_tile_the_board(name: str) -> None:
    variant = get_variant(name)
    _, drawn = read(render_map_svg(variant, variant.start_state(), "tiles"))
    assert crossings(drawn) == []
    small = {p: area(poly) for p, poly in drawn.polygons.items() if area(poly) < 300}
    assert small == {}, "provinces too small to see (or drawn the wrong way round)"
    total = sum(area(p) for p in drawn.polygons.values()) + sum(abs(area(h)) for h in drawn.holes)
    assert math.isclose(total, drawn.width * drawn.height, rel_tol=1e-3)


def test_the_known_borders_of_the_issue_are_drawn() -> None:
    """Borders a player plans with (A Mun - Sil) are shared edges; Lorraine and Swabia
    (Abstraction2 rule 4) and Marseilles and Paris do not touch."""
    for name, present, absent in (
        ("standard", [("Mun", "Sil"), ("Bre", "MAO"), ("Lon", "NTH"), ("Mar", "Spa"),
                      ("Rom", "Ven"), ("ENG", "MAO"), ("Ber", "Mun"), ("Den", "Swe")],
         [("Mar", "Par"), ("Ber", "Den"), ("Alb", "Apu"), ("Bel", "Lon"), ("BAR", "Fin")]),
        ("abstraction2", [("Bur", "Ruh"), ("CMS", "TYS"), ("SAO", "WMS"), ("Nap", "Sic")],
         [("Lor", "Swa"), ("AEG", "EMS"), ("CMS", "CYS")]),
    ):
        variant = get_variant(name)
        _, drawn = read(render_map_svg(variant, variant.start_state(), name))
        seen = drawn.borders()
        for a, b in present:
            assert (min(a, b), max(a, b)) in seen, (a, b)
        for a, b in absent:
            assert (min(a, b), max(a, b)) not in seen, (a, b)
    assert {("CMS", "TYS"), ("SAO", "WMS")} <= drawn.passages  # links, not shared edges
    assert ("CMS", "TYS") not in drawn.shared()


@pytest.mark.parametrize("name", ["standard", "abstraction2"])
def test_centres_inside_and_labels_not_covered(name: str) -> None:
    variant = get_variant(name)
    root, drawn = read(render_map_svg(variant, variant.start_state(), "labels"))
    for c in root.iter(f"{SVG}circle"):
        if c.get("class") == "centre":
            province = c.get("data-province") or ""
            assert inside(drawn.polygons[province], (float(c.get("cx") or 0),
                                                     float(c.get("cy") or 0))), province
    units = []
    for g in root.iter(f"{SVG}g"):
        if "unit" in (g.get("class") or "").split():
            text = g.find(f"{SVG}text")
            assert text is not None
            units.append((float(text.get("x") or 0), float(text.get("y") or 0) - 4.5))
    for t in root.iter(f"{SVG}text"):
        if t.get("class") != "label":
            continue
        x, y = float(t.get("x") or 0), float(t.get("y") or 0) - 4
        width = 7.5 * len(t.text or "")
        assert x - width / 2 >= 0 and x + width / 2 <= drawn.width, t.text
        for ux, uy in units:  # the label's box and the unit's (about 22 by 19) do not meet
            assert abs(ux - x) >= (width + 22) / 2 or abs(uy - y) >= (11 + 19) / 2, t.text
