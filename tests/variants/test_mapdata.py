"""Map data files: a small valid map, and broken ones whose errors name the file, line and
problem."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gm.engine.geo import Location, Terrain
from gm.engine.map import Overlay
from gm.paths import VARIANT_DATA
from gm.variants.mapdata import MapDataError, load_map, parse_map
from gm.variants.maps import map_data

# A square board: the sea across the top, two land provinces below meeting it at one point.
#
#   +---------------+
#   |      Sea      |
#   +-------+-------+
#   |  Aaa  |  Bbb  |
#   +-------+-------+
VALID = """\
# a tiny board
map tiny
edge ~N "top" polar
edge ~E "right"
edge ~S "bottom"
edge ~W "left"

Sea sea "The Sea" at 50,20
    aka  Big Water, BW
    ring ~N ~E Bbb Aaa ~W
Aaa land "Aland" at 25,70 home Ruritania
    ring Sea Bbb ~S ~W
Bbb land "Beeland" at 75,70 centre
    aka  Bee
    ring Sea ~E ~S Aaa
"""


def replace(old: str, new: str) -> str:
    assert old in VALID, old
    return VALID.replace(old, new)


def line_of(text: str, fragment: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if fragment in line:
            return number
    raise AssertionError(fragment)


def broken(tmp_path: Path, text: str) -> MapDataError:
    path = tmp_path / "broken.map"
    path.write_text(text)
    with pytest.raises(MapDataError) as info:
        load_map(path)
    return info.value


# -- a valid file ------------------------------------------------------------------------------


def test_valid_map_reads_and_derives() -> None:
    data = parse_map(VALID, "tiny.map")
    assert data.name == "tiny"
    assert data.polar_edge == "~N"
    assert data.rings["Sea"] == ("~N", "~E", "Bbb", "Aaa", "~W")
    gmap = data.game_map()
    assert gmap.provinces["Aaa"].home == "Ruritania"
    assert gmap.provinces["Aaa"].position == (25.0, 70.0)
    assert gmap.centres == {"Aaa", "Bbb"}
    assert gmap.army_adj == {"Aaa": {"Bbb"}, "Bbb": {"Aaa"}}
    assert gmap.fleet_can_move(Location("Aaa"), Location("Bbb"))  # their border ends on Sea
    assert gmap.fleet_can_move(Location("Sea"), Location("Aaa"))
    assert gmap.polar == {"Sea"}
    assert gmap.lookup("big  water") == "Sea" and gmap.lookup("bee") == "Bbb"
    assert gmap.lookup("beeland") == "Bbb"
    sunk = gmap.with_overlay(Overlay(terrain={"Aaa": Terrain.SEA}))
    assert sunk.fleet_can_move(Location("Aaa"), Location("Sea"))
    assert sunk.army_adj == {"Bbb": frozenset()}


def test_standard_map_file_is_valid() -> None:
    data = map_data("standard")
    assert len(data.provinces) == 79
    assert data.canals == {"Con", "Kie", "Den", "Swe"}
    assert {p for p, _ in data.pins} == {"Spa", "StP", "Bul"}


def test_pins_name_the_standard_split_coasts() -> None:
    """Without its pins, Spain's coasts would be named by compass only (MAO lies west of it)."""
    text = (VARIANT_DATA / "standard.map").read_text()
    unpinned = parse_map(re.sub(r"\[[a-z]+\]", "", text), "unpinned.map").game_map()
    labels = unpinned.coasts["Spa"]
    assert len(set(labels)) == 2
    assert labels != ("nc", "sc")
    assert map_data("standard").game_map().coasts["Spa"] == ("nc", "sc")


def test_repeated_neighbours() -> None:
    """An island between two seas (Ireland's shape): both seas meet at its two ends."""
    text = """\
edge ~W "left"
edge ~E "right"
Nsea sea "North Sea" at 50,10
    ring ~E Ssea Isl Ssea ~W
Ssea sea "South Sea" at 50,90
    ring ~W Nsea Isl Nsea ~E
Isl land "Island" at 50,50
    ring Nsea Ssea
"""
    gmap = parse_map(text, "island.map").game_map()
    assert gmap.borders["Nsea"] == {"Ssea", "Isl"}
    assert gmap.fleet_adj[Location("Isl")] == {Location("Nsea"), Location("Ssea")}
    assert not gmap.is_split("Isl")  # one run of water all around


# -- broken files ------------------------------------------------------------------------------


def test_ring_that_does_not_close(tmp_path: Path) -> None:
    text = replace("ring Sea ~E ~S Aaa", "ring Sea ~E Aaa ~S")
    err = broken(tmp_path, text)
    assert str(err).startswith(f"{tmp_path / 'broken.map'}:")
    assert "does not close" in err.message
    assert "Bbb" in err.message
    assert err.line in (line_of(text, "ring Sea ~E Aaa ~S"), line_of(text, "ring Sea Bbb"))


def test_ring_closure_names_the_missing_pair(tmp_path: Path) -> None:
    text = replace("ring ~N ~E Bbb Aaa ~W", "ring ~N ~E Aaa Bbb ~W")
    err = broken(tmp_path, text)
    assert "does not close" in err.message
    assert "needs" in err.message


def test_asymmetric_border(tmp_path: Path) -> None:
    text = replace("ring Sea ~E ~S Aaa", "ring Sea ~E ~S")
    err = broken(tmp_path, text)
    assert err.line == line_of(text, "ring Sea Bbb ~S ~W")
    assert err.message == "asymmetric border: Aaa lists Bbb, but the ring of Bbb lacks Aaa"


def test_unknown_name(tmp_path: Path) -> None:
    text = replace("ring Sea Bbb ~S ~W", "ring Sea Bxb ~S ~W")
    err = broken(tmp_path, text)
    assert err.line == line_of(text, "ring Sea Bxb")
    assert err.message == "unknown name 'Bxb' in the ring of Aaa (did you mean Bbb?)"


def test_unknown_name_suggests_the_abbreviation(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("ring Sea Bbb ~S ~W", "ring Sea bee ~S ~W"))
    assert err.message == "unknown name 'bee' in the ring of Aaa (did you mean Bbb?)"


def test_undeclared_edge(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("ring Sea Bbb ~S ~W", "ring Sea Bbb ~S ~X"))
    assert "unknown name '~X' in the ring of Aaa" in err.message


def test_duplicate_alias(tmp_path: Path) -> None:
    text = replace("aka  Bee", "aka  Bee, big water")
    err = broken(tmp_path, text)
    assert err.line == line_of(text, "aka  Bee, big water")
    aka_line = line_of(text, "aka  Big Water")
    assert err.message == (
        f"duplicate alias 'big water' for Bbb: already a name of Sea (line {aka_line})"
    )


def test_alias_equal_to_another_abbreviation(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("aka  Bee", "aka  aaa"))
    assert err.message.startswith("duplicate alias 'aaa' for Bbb: already a name of Aaa")


def test_duplicate_province(tmp_path: Path) -> None:
    text = VALID + 'Aaa land "Again" at 1,1\n    ring Sea\n'
    err = broken(tmp_path, text)
    assert err.line == line_of(text, '"Again"')
    assert (
        err.message == f"province Aaa is declared twice (first on line {line_of(VALID, 'Aland')})"
    )


def test_missing_ring(tmp_path: Path) -> None:
    text = replace("    ring Sea Bbb ~S ~W\n", "")
    err = broken(tmp_path, text)
    assert err.line == line_of(text, "Aland")
    assert err.message == "province Aaa has no ring"


def test_unknown_terrain(tmp_path: Path) -> None:
    err = broken(tmp_path, replace('Bbb land "Beeland"', 'Bbb swamp "Beeland"'))
    assert err.line == line_of(VALID, "Beeland")
    assert err.message.startswith("unknown terrain 'swamp' (use one of: land, sea, lake")


def test_opens_only_for_impassable(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("at 75,70 centre", "at 75,70 opens sea"))
    assert err.message == "only an impassable province can say what it opens as"
    data = parse_map(
        replace(
            'Bbb land "Beeland" at 75,70 centre', 'Bbb impassable "Beeland" at 75,70 opens lake'
        )
    )
    assert data.provinces["Bbb"].opens_as is Terrain.LAKE


def test_canal_must_be_land(tmp_path: Path) -> None:
    err = broken(tmp_path, replace('"The Sea" at 50,20', '"The Sea" at 50,20 canal'))
    assert err.line == line_of(VALID, "The Sea")
    assert err.message == "Sea is water: only land can be a canal"


def test_missing_position(tmp_path: Path) -> None:
    err = broken(tmp_path, replace(" at 75,70 centre", " centre"))
    assert err.line == line_of(VALID, "Beeland")
    assert err.message == "province Bbb needs its position: at X,Y"


def test_unreadable_header_word(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("at 75,70 centre", "at 75,70 capital"))
    assert "cannot read 'capital' after the name of Bbb" in err.message


def test_two_polar_edges(tmp_path: Path) -> None:
    text = replace('edge ~S "bottom"', 'edge ~S "bottom" polar')
    err = broken(tmp_path, text)
    assert err.line == line_of(text, "bottom")
    assert err.message == "only one edge may be the polar edge"


def test_pin_on_an_edge(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("ring Sea Bbb ~S ~W", "ring Sea Bbb ~S[sc] ~W"))
    assert err.message == "a coast label cannot be pinned to ~S"


def test_province_in_its_own_ring(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("ring Sea Bbb ~S ~W", "ring Sea Bbb ~S Aaa ~W"))
    assert err.message == "the ring of Aaa lists Aaa itself"


def test_neighbour_twice_in_a_row(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("ring Sea ~E ~S Aaa", "ring Sea ~E ~S Aaa Aaa"))
    assert err.message == "the ring of Bbb lists Aaa twice in a row"


def test_two_rings(tmp_path: Path) -> None:
    text = replace("    aka  Bee\n", "    ring Sea\n")
    err = broken(tmp_path, text)
    assert err.line == line_of(text, "ring Sea ~E ~S Aaa")
    assert "Bbb has two rings" in err.message


def test_indented_line_without_province(tmp_path: Path) -> None:
    err = broken(tmp_path, "    ring Aaa Bbb\n")
    assert err.line == 1
    assert err.message == "an indented line must follow a province line"


def test_unknown_block_line(tmp_path: Path) -> None:
    err = broken(tmp_path, replace("aka  Bee", "also Bee"))
    assert err.message == "unknown line 'also' in Bbb (aka or ring)"


def test_empty_file(tmp_path: Path) -> None:
    err = broken(tmp_path, "# nothing\n")
    assert err.message == "the file declares no provinces"
