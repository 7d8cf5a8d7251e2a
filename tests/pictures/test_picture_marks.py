"""What happened, drawn: orders adjudicated by the real engine (moves, a bounce, support,
convoy, hold; builds and removals; retreat options of a dislodged unit), the variant's events
(Abstraction2's frozen regions in their months), each mark with its legend entry; failed
orders drawn unlike successful ones."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from gm.engine.game import advance
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import UnitType
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from tests.support.picture_reader import SVG
from tests.support.positions import burgundy_dislodged, submitted, unit


def _marks(svg: str) -> tuple[ET.Element, dict[str, list[str]], set[str]]:
    """The picture, its marks (each with the titles of the marks of that kind), its legend."""
    root = ET.fromstring(svg)
    marks: dict[str, list[str]] = {}
    for e in root.iter():
        mark = e.get("data-mark")
        if mark:
            marks.setdefault(mark, []).append(e.findtext(f"{SVG}title") or "")
    legend = {g.get("data-legend") or "" for g in root.iter(f"{SVG}g") if g.get("data-legend")}
    return root, marks, legend


def test_movement_orders_and_their_outcomes_are_drawn() -> None:
    variant = get_variant("standard")
    state = variant.start_state().evolve(units=(
        unit("England", UnitType.FLEET, "NTH"), unit("England", UnitType.ARMY, "Yor"),
        unit("France", UnitType.ARMY, "Par"), unit("France", UnitType.ARMY, "Mar"),
        unit("Germany", UnitType.ARMY, "Mun"), unit("Germany", UnitType.ARMY, "Ber"),
        unit("Russia", UnitType.ARMY, "War"), unit("Austria", UnitType.ARMY, "Vie"),
        unit("Austria", UnitType.ARMY, "Bud")))
    step = advance(variant, state, submitted(
        variant, state, "England: F NTH C A Yor - Nwy", "England: A Yor - Nwy",
        "France: A Par - Bur", "France: A Mar S A Par - Bur", "Germany: A Mun - Bur",
        "Germany: A Ber H", "Russia: A War - Gal", "Austria: A Vie - Gal",
        "Austria: A Bud S A Vie - Gal"))
    results = step.reports[0].results
    _, marks, legend = _marks(render_map_svg(variant, state, "orders", results=results))
    assert sorted(marks["move-ok"]) == ["A Par - Bur", "A Vie - Gal", "A Yor - Nwy"]
    assert sorted(marks["move-failed"]) == ["A Mun - Bur", "A War - Gal"]
    assert sorted(marks["support-ok"]) == ["A Bud S A Vie - Gal", "A Mar S A Par - Bur"]
    assert marks["convoy-ok"] == ["F NTH C A Yor - Nwy"]
    assert len(marks["hold"]) == 1
    assert set(marks) <= legend and {"move-ok", "move-failed", "hold"} <= legend


def test_a_dislodged_unit_is_drawn_with_its_retreat_options() -> None:
    variant = get_variant("standard")
    state, step = burgundy_dislodged(variant)
    after = step.state
    assert after.phase.type is PhaseType.RETREAT
    root, marks, legend = _marks(render_map_svg(variant, after, "retreat", previous=state))
    dislodged = [g for g in root.iter(f"{SVG}g") if "dislodged" in (g.get("class") or "")]
    assert [(g.get("data-power"), g.get("data-province")) for g in dislodged] == [
        ("France", "Bur")]
    assert sorted(marks["retreat-option"]) == [
        f"A Bur may retreat to {p}" for p in ("Bel", "Gas", "Mar", "Par", "Pic")]
    assert set(marks) <= legend and "dislodged" in legend
    # retreating: the retreat drawn as a retreat
    step = advance(variant, after, submitted(variant, after, "France: A Bur - Pic"))
    _, marks, legend = _marks(render_map_svg(variant, after, "r",
                                             results=step.reports[0].results))
    assert marks["retreat-ok"] == ["A Bur R Pic"] and "retreat-ok" in legend


def test_builds_and_removals_are_drawn() -> None:
    variant = get_variant("standard")
    start = variant.start_state()
    owners = {c: p for c, p in start.owners.items() if c != "War"}
    state = start.evolve(phase=Phase("Winter", 1901, PhaseType.ADJUSTMENT),
                         units=tuple(u for u in start.units if u.location.province != "Mun"),
                         owners=owners)
    step = advance(variant, state, submitted(variant, state, "Germany: Build A Mun",
                                           "Russia: Remove A War"))
    _, marks, legend = _marks(render_map_svg(variant, state, "adjust",
                                             results=step.reports[0].results))
    assert marks["build"] == ["Build A Mun"] and marks["remove"] == ["Remove A War"]
    assert {"build", "remove"} <= legend


def test_frozen_regions_in_their_months() -> None:
    """Abstraction2 rule 5: the northern spaces are frozen in January, February and April."""
    variant = get_variant("abstraction2")
    start = variant.start_state()
    for month, frozen in (("January", True), ("April", True), ("July", False)):
        state = start.evolve(phase=Phase(month, 1915, PhaseType.MOVEMENT))
        root, _, legend = _marks(render_map_svg(variant, state, month))
        drawn = sorted(g.get("id", "")[2:] for g in root.iter(f"{SVG}g")
                       if any(p.get("data-mark") == "frozen" for p in g))
        if frozen:
            assert drawn == ["ARO", "Arc", "BAR", "Ice", "Lap"] and "frozen" in legend
        else:
            assert drawn == [] and "frozen" not in legend


def test_terrain_changes_and_new_centres_are_marked() -> None:
    """A province that sank, ice that advanced (Geophysical rule 8) and a new centre (Deluge II
    style) are marked, with their legend entries."""
    variant = get_variant("standard")
    start = variant.start_state()
    from gm.engine.geo import Terrain

    state = start.evolve(terrain={"Hol": Terrain.SEA}, iced=frozenset({"BAR"}), centres=frozenset(
        {*variant.map.centres, "Bur"} - {"Hol"}))
    root, marks, legend = _marks(render_map_svg(variant, state, "events", previous=start))
    changed = [g.get("id") for g in root.iter(f"{SVG}g")
               if any(p.get("data-mark") == "terrain-changed" for p in g)]
    assert changed == ["p-BAR", "p-Hol"]
    assert len(marks["new-centre"]) == 1 and {"terrain-changed", "new-centre"} <= legend
