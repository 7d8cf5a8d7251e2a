"""Map pictures: the SVG drawn from the provinces' positions shows the terrain as it is now
(a submerged province as sea, ice, mountains), centres with their owners, units and dislodged
units; every variant's map renders, in its start position and in a changed one."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gm.engine.geo import Location, Terrain
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.pictures.svg import render_map_svg
from gm.variants import get_variant
from gm.variants.registry import names

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def _province(root: ET.Element, abbr: str) -> ET.Element:
    found = [g for g in root.iter(f"{SVG}g") if g.get("id") == f"p-{abbr}"]
    assert len(found) == 1, abbr
    return found[0]


def _units(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "unit" in (g.get("class") or "").split()]


def test_the_standard_map_in_a_changed_state() -> None:
    """Holland submerged (Deluge II rule 3 style), ice on the Barents Sea (Geophysical rule 8),
    Switzerland a mountain: each is drawn as it is now, not as the map data has it."""
    variant = get_variant("standard")
    start = variant.start_state()
    state = start.evolve(
        terrain={"Hol": Terrain.SEA, "Swi": Terrain.MOUNTAIN}, iced=frozenset({"BAR"}),
        units=(*start.units, Unit("England", UnitType.FLEET, Location("Hol"))),
        dislodged=(Dislodged(Unit("Germany", UnitType.ARMY, Location("Ruh")), "Bel"),),
        owners={**start.owners, "Bel": "France"},
    )
    root = _parse(render_map_svg(variant, state, "test: Spring 1901"))
    hol = _province(root, "Hol")
    assert hol.get("data-terrain") == "sea" and "sea" in (hol.get("class") or "").split()
    assert _province(root, "Swi").get("data-terrain") == "mountain"
    bar = _province(root, "BAR")
    assert bar.get("data-ice") == "yes" and "ice" in (bar.get("class") or "").split()
    assert _province(root, "Bur").get("data-terrain") == "land"
    assert _province(root, "NTH").get("data-terrain") == "sea"
    centres = {c.get("data-province"): c.get("data-owner") for c in root.iter(f"{SVG}circle")
               if c.get("class") == "centre"}
    assert len(centres) == 34 and centres["Bel"] == "France" and centres["Par"] == "France"
    assert centres["Hol"] == "" and centres["Lon"] == "England"
    units = _units(root)
    assert len(units) == 24  # 22 at the start, the fleet in Hol, and the dislodged army
    fleet = [u for u in units if u.get("data-province") == "Hol"]
    assert fleet[0].get("class") == "unit fleet" and fleet[0].get("data-power") == "England"
    dislodged = [u for u in units if "dislodged" in (u.get("class") or "")]
    assert [(u.get("data-province"), u.get("data-power")) for u in dislodged] == [("Ruh",
                                                                                   "Germany")]
    labels = {t.text for t in root.iter(f"{SVG}text")}
    # names (sunk Holland is a sea: its name in capitals, Geophysical rule 9) and a fleet on a coast
    assert {"HOL", "Swi", "BAR", "StP", "F/sc"} <= labels
    # the unchanged start position draws Holland as land and the Barents Sea without ice
    plain = _parse(render_map_svg(variant, start, "start"))
    assert _province(plain, "Hol").get("data-terrain") == "land"
    assert _province(plain, "BAR").get("data-ice") == "no"
    assert _province(plain, "Swi").get("data-terrain") == "impassable"


@pytest.mark.parametrize("name", names())
def test_every_variant_map_renders(name: str) -> None:
    """Each variant's map at its start and with every province's terrain changed (land to sea,
    sea to land, impassable to mountain), ice on its water, and an army/fleet where there is
    water: every province is drawn once, with the terrain of the changed state."""
    variant = get_variant(name)
    start = variant.start_state()
    root = _parse(render_map_svg(variant, start, f"{name}: start"))
    gmap = variant.map
    assert len([g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith("p-")]) \
        == len(gmap.provinces)
    assert len(_units(root)) == len(start.units)
    flipped = {Terrain.LAND: Terrain.SEA, Terrain.SEA: Terrain.LAND,
               Terrain.IMPASSABLE: Terrain.MOUNTAIN, Terrain.LAKE: Terrain.LAND,
               Terrain.MOUNTAIN: Terrain.LAND}
    changed: GameState = start.evolve(
        units=(), terrain={p: flipped[t] for p, t in gmap.terrain.items()})
    water = sorted(p for p, t in changed.terrain.items() if t.is_water)
    changed = changed.evolve(iced=frozenset(water[:3]),
                             units=(Unit(variant.power_names[0], UnitType.ARMY_FLEET,
                                         Location(water[-1])),))
    root = _parse(render_map_svg(variant, changed, f"{name}: changed"))
    for abbr, terrain in changed.terrain.items():
        element = _province(root, abbr)
        assert element.get("data-terrain") == terrain.value, abbr
        assert element.get("data-ice") == ("yes" if abbr in water[:3] else "no")
    [unit] = _units(root)
    assert unit.get("class") == "unit army-fleet" and unit.get("data-province") == water[-1]
