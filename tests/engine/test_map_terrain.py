"""Terrain changes re-derive the standard map: opened spaces, sunk and dried provinces, coasts
that appear, split or vanish, cut borders, ice, mountains, centres."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap, Overlay
from gm.engine.units import UnitType
from gm.variants.maps import standard_map

A, F = UnitType.ARMY, UnitType.FLEET
LAND, SEA, LAKE = Terrain.LAND, Terrain.SEA, Terrain.LAKE
MOUNTAIN, IMPASSABLE = Terrain.MOUNTAIN, Terrain.IMPASSABLE


def loc(text: str) -> Location:
    return Location.parse(text)


def fleet(gmap: GameMap, src: str, dst: str) -> bool:
    return gmap.fleet_can_move(loc(src), loc(dst))


def fleet_dests(gmap: GameMap, src: str) -> set[str]:
    return {str(d) for d in gmap.fleet_adj[loc(src)]}


def changed(**terrain: Terrain) -> GameMap:
    return standard_map().with_overlay(Overlay(terrain=terrain))


# -- the extra spaces, opened ------------------------------------------------------------------


def test_switzerland_opens_as_inland_land() -> None:
    gmap = changed(Swi=standard_map().provinces["Swi"].opens_as or IMPASSABLE)
    assert gmap.terrain["Swi"] is LAND
    assert gmap.army_adj["Swi"] == {"Mar", "Pie", "Tyr", "Mun", "Bur"}
    for n in ("Mar", "Pie", "Tyr", "Mun", "Bur"):
        assert gmap.army_can_move(n, "Swi")
    assert not gmap.is_coastal("Swi")
    assert gmap.can_occupy(A, loc("Swi"))
    assert not gmap.can_occupy(F, loc("Swi"))


def test_iceland_opens_as_coastal_island() -> None:
    gmap = changed(Ice=LAND)
    assert gmap.is_coastal("Ice")
    assert fleet_dests(gmap, "Ice") == {"NAO", "NWG"}
    assert fleet(gmap, "NAO", "Ice") and fleet(gmap, "NWG", "Ice")
    assert gmap.army_adj["Ice"] == frozenset()  # an island: armies come by convoy
    assert gmap.can_occupy(A, loc("Ice")) and gmap.can_occupy(F, loc("Ice"))
    assert "Ice" in gmap.polar


def test_ireland_opens_as_coastal_island() -> None:
    gmap = changed(Ire=LAND)
    assert fleet_dests(gmap, "Ire") == {"NAO", "IRI"}
    assert gmap.army_adj["Ire"] == frozenset()
    assert fleet(gmap, "NAO", "IRI")  # the two seas still meet, north and south of Ireland


def test_caspian_opens_as_lake() -> None:
    gmap = changed(CAS=standard_map().provinces["CAS"].opens_as or IMPASSABLE)
    assert gmap.terrain["CAS"] is LAKE
    # connected to no other sea: it reaches only its own shores
    assert {d.province for d in gmap.fleet_adj[loc("CAS")]} == {"Mos", "Sev", "Arm"}
    assert gmap.is_coastal("Mos")
    assert fleet(gmap, "Mos", "CAS") and fleet(gmap, "CAS", "Mos")
    # Sev and Arm now have a Black Sea coast and a separate Caspian coast
    assert gmap.is_split("Sev") and gmap.is_split("Arm")
    (sev_cas,) = gmap.fleet_targets_in(loc("CAS"), "Sev")
    (arm_cas,) = gmap.fleet_targets_in(loc("CAS"), "Arm")
    (sev_bla,) = gmap.fleet_targets_in(loc("BLA"), "Sev")
    assert sev_cas != sev_bla
    assert gmap.fleet_can_move(sev_cas, Location("Mos"))  # the Mos-Sev border ends on CAS
    assert gmap.fleet_can_move(sev_cas, arm_cas)
    assert gmap.fleet_can_move(sev_bla, Location("Rum"))
    assert not gmap.fleet_can_move(sev_bla, Location("Mos"))
    assert {sev_cas.coast, sev_bla.coast} == set(gmap.coasts["Sev"])


def test_caspian_dried_to_land_joins_the_east() -> None:
    """Sahara S04: the Caspian becomes a passable land space."""
    gmap = changed(CAS=LAND)
    assert gmap.army_adj["CAS"] == {"Mos", "Sev", "Arm"}
    assert not gmap.is_coastal("CAS")
    assert gmap.army_can_move("Arm", "CAS")


# -- sinking and drying ------------------------------------------------------------------------


def test_holland_sunk_makes_ruhr_coastal() -> None:
    """Deluge II, W1901: Hol submerges."""
    base = standard_map()
    assert not base.is_coastal("Ruh")
    assert base.army_can_move("Bel", "Hol")
    gmap = changed(Hol=SEA)
    assert gmap.is_coastal("Ruh")
    assert fleet(gmap, "Hol", "Ruh") and fleet(gmap, "Ruh", "Hol")
    assert fleet(gmap, "Ruh", "Kie")  # their border ends on Hol, now water
    assert fleet(gmap, "Ruh", "Bel")
    assert not fleet(gmap, "Ruh", "Mun")
    assert not gmap.army_can_move("Bel", "Hol")
    assert not gmap.can_occupy(A, loc("Hol"))
    assert gmap.can_occupy(F, loc("Hol"))
    assert fleet_dests(gmap, "Hol") == {"HEL", "NTH", "Bel", "Kie", "Ruh"}


def test_burgundy_gains_two_separate_coasts() -> None:
    gmap = changed(Pic=SEA, Bel=SEA, Gas=SEA)
    assert gmap.is_split("Bur")
    labels = gmap.coasts["Bur"]
    assert len(labels) == 2 and len(set(labels)) == 2
    (north,) = gmap.fleet_targets_in(loc("Pic"), "Bur")
    assert gmap.fleet_targets_in(loc("Bel"), "Bur") == (north,)
    (south,) = gmap.fleet_targets_in(loc("Gas"), "Bur")
    assert north != south
    assert gmap.coast_seas[north] == {"Pic", "Bel"}
    assert gmap.coast_seas[south] == {"Gas"}
    assert gmap.fleet_can_move(north, Location("Ruh"))  # Bur-Ruh ends on Bel
    assert not gmap.fleet_can_move(south, Location("Ruh"))
    assert not gmap.fleet_can_move(north, Location("Gas"))
    assert not gmap.can_occupy(F, loc("Bur"))  # a coast must be named
    assert gmap.can_occupy(F, north)


def test_spain_keeps_one_coast_then_none() -> None:
    gmap = changed(MAO=LAND)
    assert not gmap.is_split("Spa")
    assert gmap.is_coastal("Spa")
    # MAO, now land, still shares a coastline with Spa: their border ends on WMS
    assert {d.province for d in gmap.fleet_adj[loc("Spa")]} == {"LYO", "WMS", "Mar", "MAO"}
    assert fleet(gmap, "LYO", "Spa")
    assert not gmap.is_coastal("Por")  # Portugal's only water was MAO
    assert gmap.army_can_move("MAO", "Spa")

    inland = changed(MAO=LAND, LYO=LAND, WMS=LAND)
    assert not inland.is_coastal("Spa")
    assert inland.fleet_locations("Spa") == ()
    assert not inland.can_occupy(F, loc("Spa"))
    assert inland.army_can_move("Spa", "LYO")


def test_all_seas_dried() -> None:
    """Sahara by 1906: every sea is land; no fleet can stand anywhere."""
    base = standard_map()
    seas = {p: LAND for p, t in base.terrain.items() if t is SEA}
    gmap = base.with_overlay(Overlay(terrain=seas))
    assert gmap.fleet_adj == {}
    assert gmap.coasts == {}
    assert gmap.army_can_move("NTH", "Lon") and gmap.army_can_move("MAO", "NAO")


def test_all_land_sunk() -> None:
    """Deluge II by 1908: every land province is sea; armies have nowhere to go."""
    base = standard_map()
    land = {p: SEA for p, t in base.terrain.items() if t is LAND}
    gmap = base.with_overlay(Overlay(terrain=land))
    assert gmap.army_adj == {}
    assert fleet(gmap, "Mos", "Sev") and fleet(gmap, "Lon", "NTH")
    assert not fleet(gmap, "Mos", "CAS")  # still impassable


def test_new_coast_labels_are_compass_directions() -> None:
    gmap = changed(CAS=LAKE, Pic=SEA, Bel=SEA, Gas=SEA)
    for p in ("Sev", "Arm", "Bur"):
        assert set(gmap.coasts[p]) <= {"nc", "ec", "sc", "wc", "nec", "sec", "swc", "nwc"}
    (sev_cas,) = gmap.fleet_targets_in(loc("CAS"), "Sev")
    assert sev_cas.coast == "ec"  # the Caspian lies east of Sevastopol
    (bur_north,) = gmap.fleet_targets_in(loc("Pic"), "Bur")
    assert bur_north.coast == "nc"


def test_standard_labels_survive_a_change_elsewhere() -> None:
    gmap = changed(Hol=SEA, CAS=LAKE)
    assert gmap.coasts["Spa"] == ("nc", "sc")
    assert gmap.coasts["StP"] == ("nc", "sc")
    assert gmap.coasts["Bul"] == ("ec", "sc")


def test_follow_coast() -> None:
    base = standard_map()
    no_mao = changed(MAO=LAND)
    assert no_mao.follow_coast(loc("Spa/sc"), base) == loc("Spa")
    lake = changed(CAS=LAKE)
    (sev_bla,) = lake.fleet_targets_in(loc("BLA"), "Sev")
    assert lake.follow_coast(loc("Sev"), base) == sev_bla
    assert base.follow_coast(sev_bla, lake) == loc("Sev")
    assert changed(Sev=SEA).follow_coast(loc("Sev"), base) == loc("Sev")
    assert changed(BLA=LAND, CAS=LAND).follow_coast(loc("Sev"), base) is None


# -- cut borders, ice, mountains ---------------------------------------------------------------


def test_cut_border_blocks_armies_and_fleets() -> None:
    base = standard_map()
    gmap = base.with_overlay(Overlay(cut_borders=frozenset({("Bre", "Pic"), ("Bur", "Par")})))
    assert not gmap.army_can_move("Bre", "Pic") and not gmap.army_can_move("Pic", "Bre")
    assert not fleet(gmap, "Bre", "Pic") and not fleet(gmap, "Pic", "Bre")
    assert not gmap.army_can_move("Par", "Bur")
    assert gmap.army_can_move("Par", "Pic") and fleet(gmap, "Bre", "ENG")
    assert gmap.adjacent("Bre", "Pic")  # the border is still there, only closed


def test_cut_border_order_does_not_matter() -> None:
    gmap = standard_map().with_overlay(Overlay(cut_borders=frozenset({("Pic", "Bre")})))
    assert not gmap.army_can_move("Bre", "Pic")


def test_cut_border_with_water_waits_until_both_sides_are_land() -> None:
    """Geophysical: a split with sea on a side has no effect until both spaces are land."""
    cut = frozenset({("Bre", "ENG"), ("ENG", "NTH")})
    gmap = standard_map().with_overlay(Overlay(cut_borders=cut))
    assert fleet(gmap, "Bre", "ENG") and fleet(gmap, "ENG", "NTH")
    dried = standard_map().with_overlay(Overlay(terrain={"ENG": LAND}, cut_borders=cut))
    assert not dried.army_can_move("Bre", "ENG")
    assert dried.army_can_move("ENG", "Lon")


def test_ice() -> None:
    """Geophysical rule 8: fleets cannot enter ice; an engulfed fleet cannot move."""
    gmap = standard_map().with_overlay(Overlay(iced=frozenset({"NWG", "StP"})))
    assert gmap.iced == {"NWG", "StP"}
    assert gmap.fleet_adj[loc("NWG")] == frozenset()
    assert not fleet(gmap, "NAO", "NWG") and not fleet(gmap, "NTH", "NWG")
    assert not fleet(gmap, "BAR", "StP/nc") and not fleet(gmap, "BOT", "StP/sc")
    assert gmap.fleet_adj[loc("StP/sc")] == frozenset()
    assert gmap.can_occupy(F, loc("NWG"))  # an engulfed fleet stays where it is
    assert fleet(gmap, "NAO", "Cly") and fleet(gmap, "BAR", "Nwy")
    # armies cross frozen spaces, frozen seas included
    assert gmap.army_can_move("Mos", "StP")
    assert gmap.army_can_move("Nwy", "NWG") and gmap.army_can_move("NWG", "Edi")
    assert gmap.can_occupy(A, loc("NWG"))
    assert not standard_map().can_occupy(A, loc("NWG"))


def test_mountains_and_impassable_spaces_take_no_units() -> None:
    gmap = changed(Swi=MOUNTAIN, Mun=MOUNTAIN, Ven=IMPASSABLE)
    for p in ("Swi", "Mun", "Ven"):
        assert not gmap.is_passable(p)
        for kind in UnitType:
            assert not gmap.can_occupy(kind, loc(p))
        assert p not in gmap.army_adj
        assert all(p not in dests for dests in gmap.army_adj.values())
        assert all(d.province != p for dests in gmap.fleet_adj.values() for d in dests)
    assert not fleet(gmap, "Tri", "Ven")
    assert not fleet(gmap, "Apu", "Ven")


def test_coastline_needs_water_at_an_end_of_the_border() -> None:
    """Pie-Tus and Mar-Pie share coastlines only because their borders end on LYO."""
    gmap = changed(LYO=LAND)
    assert not gmap.is_coastal("Pie")
    assert not gmap.is_coastal("Mar")
    assert Location("Pie") not in gmap.fleet_adj
    assert fleet(gmap, "Tus", "Rom")  # their border ends on TYS
    assert gmap.fleet_targets_in(loc("Tus"), "Pie") == ()


# -- centres and caching -----------------------------------------------------------------------


def test_centres_override() -> None:
    base = standard_map()
    centres = (base.centres - {"Smy", "Tun"}) | {"AEG", "TYS"}
    gmap = base.with_overlay(Overlay(centres=centres))
    assert gmap.centres == centres
    assert base.with_overlay(Overlay()).centres == base.centres


def test_overlays_are_cached() -> None:
    base = standard_map()
    assert base.with_overlay(Overlay()) is base
    one = base.with_overlay(Overlay(terrain={"Hol": SEA}))
    assert base.with_overlay(Overlay(terrain={"Hol": SEA})) is one
    assert one.with_overlay(Overlay()) is base
    assert base.with_overlay(Overlay(terrain={"Hol": LAND})) is base  # no change at all
    assert one.overlay.terrain == {"Hol": SEA}


def test_base_map_survives_a_full_cache() -> None:
    base = standard_map()
    for p in sorted(base.provinces):
        for t in (LAND, SEA, MOUNTAIN, IMPASSABLE):
            base.with_overlay(Overlay(terrain={p: t}))
    assert base.with_overlay(Overlay()) is base


def test_unknown_province_in_overlay() -> None:
    with pytest.raises(ValueError, match="Atl"):
        standard_map().with_overlay(Overlay(terrain={"Atl": SEA}))


# -- invariants over random terrain ------------------------------------------------------------

PROVINCES = sorted(standard_map().provinces)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(PROVINCES), st.sampled_from(list(Terrain)), max_size=30),
    st.frozensets(st.sampled_from(PROVINCES), max_size=4),
)
def test_invariants_under_random_terrain(terrain: dict[str, Terrain], iced: frozenset[str]) -> None:
    base = standard_map()
    gmap = base.with_overlay(Overlay(terrain=terrain, iced=iced))
    water = {p for p, t in gmap.terrain.items() if t.is_water}
    land = {p for p, t in gmap.terrain.items() if t is LAND}
    walkable = land | (water & iced)
    # armies: exactly the borders between walkable provinces
    for p in walkable:
        assert gmap.army_adj[p] == {q for q in gmap.borders[p] if q in walkable}
    assert set(gmap.army_adj) == walkable
    # fleets: symmetric, between bordering provinces, never into or out of ice
    for src, dests in gmap.fleet_adj.items():
        assert src.province in water | land
        for d in dests:
            assert src in gmap.fleet_adj[d]
            assert gmap.adjacent(src.province, d.province)
            assert src.province not in iced and d.province not in iced
    # water to water: exactly the borders between un-iced water
    for w in water - iced:
        expected = {q for q in gmap.borders[w] if q in water - iced}
        assert {d.province for d in gmap.fleet_adj[Location(w)] if d.province in water} == expected
    # coasts: a land province is coastal iff it borders water; labels distinct
    for p in land:
        assert gmap.is_coastal(p) == any(q in water for q in gmap.borders[p])
        labels = gmap.coasts.get(p, ())
        assert len(set(labels)) == len(labels) != 1
        for place in gmap.fleet_locations(p):
            assert gmap.coast_seas[place] <= water
            assert gmap.can_occupy(F, place)
        if labels:
            seas = [gmap.coast_seas[Location(p, c)] for c in labels]
            assert set().union(*seas) == {q for q in gmap.borders[p] if q in water}
    # the standard coast names stay while their coasts are as on the standard board
    standard = ("Spa", "MAO", "Gas", "Mar", "LYO", "WMS", "Por")
    if all(gmap.terrain[p] is base.terrain[p] for p in standard):
        assert gmap.coasts["Spa"] == ("nc", "sc")
