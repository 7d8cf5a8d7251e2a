"""Variant files (gm.variants.varfile): the test variant Isthmia (tests/variants/data, a map of
twenty provinces with a passage and a split coast) reads into a playable Variant; each kind of
error is reported with its file, its line and what to write instead, several at once; hostile
files (bad TOML, huge, wrong types, a hook set that does not exist, a map outside the folder)
are refused with a message, never an exception of another kind."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gm.engine.game import advance
from gm.engine.geo import Location, Terrain
from gm.engine.orders import DesignateHome, Move, Transform, UnitSpec
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import OrderKind
from gm.variants.varfile import MAX_BYTES, StartTerrainVariant, read_variant
from tests.variants.files import errors as _errors
from tests.variants.files import isthmia_copy as _copy
from tests.variants.files import line_of as _line

DATA = Path(__file__).resolve().parent / "data"


def test_isthmia_reads_into_a_playable_variant() -> None:
    read = read_variant(DATA / "isthmia.toml")
    v = read.variant
    assert (v.name, v.title, v.aliases) == ("isthmia", "Isthmia",
                                            ("Isthmus Diplomacy", "isthmus"))
    assert len(v.map.provinces) == 20 and len(v.map.centres) == 11
    assert [(p.name, p.adjective, p.letter) for p in v.powers] == [
        ("Norland", "Norlandish", "N"), ("Eastria", "Eastrian", "E"),
        ("Southia", "Southian", "S")]
    assert v.homes == {"Norland": ("Cap", "Nor"), "Eastria": ("Eas", "Kar"),
                       "Southia": ("Bay", "Sun")}
    assert sorted(f"{u.type.value} {u.location}" for u in v.start_units) == [
        "A Bay", "A Eas", "A Kar", "A Nor", "F Cap", "F Sun"]
    assert v.solo_centres == 6 and str(v.start_phase) == "Spring 1901, Movement"
    # the split coast and the passage, derived from the rings
    assert v.map.coasts["Ist"] == ("nc", "sc")
    assert read.passages == (("NSO", "SSO"),)
    assert v.map.fleet_can_move(Location("NSO"), Location("SSO"))
    assert v.map.fleet_can_move(Location("NSO"), Location("Ist", "nc"))
    assert not v.map.fleet_can_move(Location("NSO"), Location("Ist", "sc"))
    assert v.map.can_occupy(UnitType.FLEET, Location("Ist", "sc"))
    assert len(read.digest) == 64


def test_a_ring_with_one_pair_swapped_is_one_error_with_the_ring_to_write(
        tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_map=("ring WBY NSO Ist SSO GUL WOC",
                                     "ring WBY Ist NSO SSO GUL WOC"))
    line = _line(tmp_path / "isthmia.map", "ring WBY Ist NSO")
    assert _errors(path) == [
        f"{tmp_path / 'isthmia.map'}:{line}: the ring of Cap does not close: it has Ist and "
        "NSO the wrong way round (clockwise around Cap, NSO needs to come before Ist): write "
        "`ring WBY NSO Ist SSO GUL WOC`"]


def test_a_ring_written_counterclockwise_is_one_error(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_map=("ring NSO[nc] Fel Hol LAG SSO[sc] Cap",
                                     "ring Cap SSO[sc] LAG Hol Fel NSO[nc]"))
    line = _line(tmp_path / "isthmia.map", "ring Cap SSO[sc]")
    assert _errors(path) == [
        f"{tmp_path / 'isthmia.map'}:{line}: the ring of Ist does not close: it runs "
        "counterclockwise, and a ring lists the neighbours clockwise: write "
        "`ring NSO[nc] Fel Hol LAG SSO[sc] Cap`"]


def test_a_ring_that_disagrees_with_a_neighbour_s(tmp_path: Path) -> None:
    # an entry moved two places: no one swap mends it, so every point it breaks is reported
    path = _copy(tmp_path, edit_map=("ring WBY NSO Ist SSO GUL WOC",
                                     "ring WBY Ist SSO NSO GUL WOC"))
    errors = _errors(path)
    line = _line(tmp_path / "isthmia.map", "ring WBY Ist SSO NSO")
    assert any(e.startswith(f"{tmp_path / 'isthmia.map'}:{line}: the ring of Cap does not close "
                            "where") and "so the ring of Cap needs" in e for e in errors), errors
    assert len(errors) > 1  # every problem, not the first only


def test_a_province_without_a_position(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_map=('"Nordmark" at 150,110', '"Nordmark"'))
    line = _line(tmp_path / "isthmia.map", '"Nordmark"')
    assert _errors(path) == [
        f"{tmp_path / 'isthmia.map'}:{line}: province Nor needs its position: at X,Y"]


def test_a_unit_on_an_impassable_space_and_a_fleet_inland(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_map=('Fel land "Fellhaven" at 750,110 centre',
                                     'Fel impassable "Fellhaven" at 750,110'),
                 edit_toml=('units = ["A Kar", "A Eas"]', 'units = ["A Fel", "F Kar"]'))
    line = _line(path, '"A Fel"')
    assert _errors(path) == [
        f"{path}:{line}: 'A Fel': Fel is impassable: no unit can stand there; put the unit on "
        "land or sea",
        f"{path}:{line}: 'F Kar': a fleet inland; Kar has no coast: make it an army (A Kar) or "
        "put the fleet on a coast or at sea",
    ]


def test_a_fleet_on_a_split_coast_must_name_its_coast(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_toml=('units = ["A Kar", "A Eas"]', 'units = ["F Ist", "A Kar"]'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'F Ist')}: 'F Ist': Ist has several coasts: write F Ist/nc or "
        "F Ist/sc"]


def test_a_home_centre_that_is_no_centre(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_toml=('units = ["A Nor", "F Cap"]',
                                      'units = ["A Nor", "F Cap"]\nhomes = ["Nor", "Ash"]'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'homes =')}: Ash, a home centre of Norland, is no supply centre: "
        "mark it `centre` in the map, or leave it out of homes"]


def test_two_powers_with_one_code_and_every_error_at_once(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_toml=('code = "E"', 'code = "n"'))
    text = path.read_text().replace('units = ["A Kar", "A Eas"]', 'units = ["A Kar", "F Eas"]')
    path.write_text(text)
    code_line = _line(path, 'code = "n"')
    assert _errors(path) == [
        f"{path}:{code_line}: Eastria and Norland have the same code 'n': give each power "
        "its own",
        f"{path}:{_line(path, 'F Eas')}: 'F Eas': a fleet inland; Eas has no coast: make it "
        "an army (A Eas) or put the fleet on a coast or at sea",
    ]


def test_a_border_that_cannot_be_drawn_must_be_a_passage(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_map=("passage NSO SSO\n", ""))
    text = (tmp_path / "isthmia.map").read_text().replace(
        "ring ~N Fel Ist Cap WBY", "ring ~N Fel Ist SSO Cap WBY")
    (tmp_path / "isthmia.map").write_text(text)
    line = _line(tmp_path / "isthmia.map", "ring ~N Fel Ist SSO")
    errors = _errors(path)
    assert f"{tmp_path / 'isthmia.map'}:{line}: asymmetric border: NSO lists SSO, but the ring " \
        "of SSO lacks NSO: add NSO to the ring of SSO where they meet, or, if NSO and SSO " \
        "meet only at a point (a border that cannot be drawn), take SSO out of the ring of " \
        "NSO and declare the border a passage: `passage NSO SSO`" in errors, errors


def test_an_inline_map_reports_lines_of_the_variant_file(tmp_path: Path) -> None:
    map_text = (DATA / "isthmia.map").read_text().replace('"Karst" at 950,110', '"Karst"')
    toml = (DATA / "isthmia.toml").read_text().replace(
        'map = "isthmia.map"', f'map = """\n{map_text}"""')
    path = tmp_path / "inline.toml"
    path.write_text(toml)
    assert _errors(path) == [
        f"{path}:{_line(path, 'Karst')}: province Kar needs its position: at X,Y"]


@pytest.mark.parametrize(("edit", "expected"), [
    (('victory = 6', 'victory = "six"'),
     "victory must be the number of centres for a solo, from 1 to 11 (or 0: none), not 'six'"),
    (('calendar = "standard"', 'calendar = "lunar"'),
     "calendar must be one of 'standard', 'months', not 'lunar'"),
    (('victory = 6', 'victory = 6\nhooks = "os"'),
     "no hook set is called 'os'; a file may name only these: standard, deluge2, sahara, "
     "abstraction2, chaos2, geophysical"),
    (('map = "isthmia.map"', 'map = "../isthmia.map"'),
     "the map file must lie beside the variant file: write its name alone "
     "(map = \"isthmia.map\"), not '../isthmia.map'"),
    (('victory = 6', 'victory = 6\nbuilds = "capital"'),
     'builds must be "home" (owned home centres), "any" (any owned centre) or "designated" '
     "(owned homes, and centres designated as homes as in Chaos II), not 'capital'"),
    (('aliases = [', 'alias = ['),
     "unknown key 'alias' (did you mean 'aliases'?); the keys are: name, title, aliases, map, "
     "calendar, season_names, start, victory, hooks, builds, army_fleet, transforms, frozen, "
     "canals, terrain, ice, powers, events, help, neutral, build_only, last_year"),
    (('victory = 6', 'victory = 6\nice = ["Atlantis"]'),
     "ice: there is no province 'Atlantis' on the map; write one of its abbreviations "
     "(Ash, Bay, Cap, DEE, Dun, Eas, Fel, GUL, ...)"),
    (('victory = 6', 'victory = 6\nterrain = { Fel = "mountain" }\nice = ["Fel"]'),
     "ice: Fel is mountain: ice lies on land or water; leave it out of ice"),
    (('victory = 6', 'victory = 6\nfrozen = { months = ["Monsoon"], provinces = ["SSO"] }'),
     "frozen: 'Monsoon' is not a season of the calendar with moves; the seasons are Spring, "
     "Fall"),
    (('victory = 6', 'victory = 6\nfrozen = { months = ["Spring"], provinces = ["Atlantis"] }'),
     "frozen provinces: there is no province 'Atlantis' on the map; write one of its "
     "abbreviations (Ash, Bay, Cap, DEE, Dun, Eas, Fel, GUL, ...)"),
    (('victory = 6', 'victory = 6\nfrozen = { months = ["Spring"], provinces = ["SSO"], '
      'armies = ["Bay"] }'),
     "frozen armies: Bay must also be among the frozen provinces"),
    (('victory = 6', 'victory = 6\nfrozen = ["SSO"]'),
     'frozen must be a table: [frozen] with months = ["January"], provinces = ["BAR", "Lap"] '
     'and, if armies there cannot be dislodged nor leave by sea, armies = ["Lap"]'),
    (('victory = 6', 'victory = 6\ntransforms = "yes"'),
     "transforms must be true (armies on a coast may become fleets, Deluge II rule 2) or "
     "false, not 'yes'"),
    (('victory = 6', 'victory = 6\nterrain = { Kar = "volcano" }'),
     "terrain: Kar = 'volcano': the terrains are land, sea, lake, mountain, impassable"),
    (('victory = 6', 'victory = 6\nterrain = { Atlantis = "sea" }'),
     "terrain: there is no province 'Atlantis' on the map; write one of its abbreviations "
     "(Ash, Bay, Cap, DEE, Dun, Eas, Fel, GUL, ...)"),
    (('victory = 6', 'victory = 6\nterrain = "flooded"'),
     'terrain must be a table of provinces and terrains, e.g. terrain = { Swi = "mountain" } '
     "(terrains: land, sea, lake, mountain, impassable)"),
    (('victory = 6', 'victory = 6\ncanals = ["Atlantis"]'),
     "canals: there is no province 'Atlantis' on the map; write one of its abbreviations "
     "(Ash, Bay, Cap, DEE, Dun, Eas, Fel, GUL, ...)"),
    (('victory = 6', 'victory = 6\nseason_names = { Spring = "Early Summer" }'),
     "season_names needs the year the names apply from, e.g. from = 1905, not None"),
    (('victory = 6', 'victory = 6\nseason_names = { from = 1905, Monsoon = "Rains" }'),
     "season_names: Monsoon = 'Rains' cannot be read; write [season_names] with the year they "
     "apply from and a new name for any of the seasons Spring, Fall, Winter: from = 1905, "
     'Spring = "Early Summer"'),
    (('name = "Norland"', 'name = 7'), "name must be a string in quotes, not 7"),
])
def test_wrong_values_are_refused_with_what_to_write(
        tmp_path: Path, edit: tuple[str, str], expected: str) -> None:
    path = _copy(tmp_path, edit_toml=edit)
    line = _line(path, edit[1].splitlines()[-1])
    errors = _errors(path)
    assert f"{path}:{line}: {expected}" in errors, errors


def test_bad_toml_and_a_huge_file_are_refused(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_toml=('victory = 6', 'victory = = 6'))
    [error] = _errors(path)
    assert error.startswith(f"{path}:{_line(path, 'victory = = 6')}: not valid TOML")
    huge = tmp_path / "huge.toml"
    huge.write_text("# " + "x" * MAX_BYTES)
    assert _errors(huge) == [f"{huge}:1: the file is {MAX_BYTES + 2} bytes long; a variant "
                             f"file may have at most {MAX_BYTES}"]
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert _errors(deep) == [f"{deep}:1: values are nested too deeply; a variant file needs "
                             "lists of strings and tables only"]
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00name")
    assert _errors(binary) == [f"{binary}:1: the file is not UTF-8 text"]


def test_events_are_read_and_checked(tmp_path: Path) -> None:
    good = _copy(tmp_path, edit_toml=('victory = 6', 'victory = 6\n\n[[events]]\nwhen = "W1901"'
                                      '\nkind = "submerge"\nprovinces = ["Dunmoor"]\n'))
    [event] = read_variant(good).variant.scheduled
    assert (event.season, event.year, event.kind, event.provinces) == (
        "Winter", 1901, "submerge", ("Dun",))
    shutil.rmtree(tmp_path)
    tmp_path.mkdir()
    bad = _copy(tmp_path, edit_toml=('victory = 6', 'victory = 6\n\n[[events]]\nwhen = "X1901"'
                                     '\nkind = "flood"\nprovinces = ["Atlantis"]\n'))
    assert _errors(bad) == [
        f"{bad}:{_line(bad, 'X1901')}: when must be a season's letter and a year, e.g. when = "
        "\"W1901\" (Winter 1901), not 'X1901'"]


def test_the_months_calendar_starts_in_july_1914_unless_told(tmp_path: Path) -> None:
    path = _copy(tmp_path, edit_toml=('calendar = "standard"\nstart = "Spring 1901"\n',
                                      'calendar = "months"\n'))
    v = read_variant(path).variant
    assert str(v.start_phase) == "July 1914, Movement"
    assert str(v.calendar.next(v.calendar.next(v.start_phase))) == "August 1914, Movement"


def test_season_names_canals_and_start_terrain_are_read(tmp_path: Path) -> None:
    plain = read_variant(_copy(tmp_path)).variant
    path = _copy(tmp_path, edit_toml=('victory = 6', 'victory = 6\ncanals = ["Isthmus"]\n'
                                      'terrain = { Fellhaven = "mountain", Hol = "sea" }\n'
                                      'season_names = { from = 1903, Winter = "Long Night" }'))
    v = read_variant(path).variant
    assert isinstance(v, StartTerrainVariant) and not isinstance(plain, StartTerrainVariant)
    assert plain.map.is_split("Ist") and not v.map.is_split("Ist")
    assert v.start_terrain == {"Fel": Terrain.MOUNTAIN, "Hol": Terrain.SEA}
    assert v.start_state().terrain == v.start_terrain and plain.start_state().terrain == {}
    assert not v.map.is_passable("Fel") and v.map.is_water("Hol")
    assert v.map_for(v.start_state()).terrain == v.map.terrain
    assert v.format_phase(Phase("Winter", 1903, PhaseType.ADJUSTMENT)).startswith("Long Night")
    assert v.format_phase(Phase("Winter", 1902, PhaseType.ADJUSTMENT)).startswith("Winter")
    assert v.parse_phase("Long Night 1904") == Phase("Winter", 1904, PhaseType.ADJUSTMENT)


def test_transforms_are_chosen_by_the_file(tmp_path: Path) -> None:
    plain = read_variant(_copy(tmp_path)).variant
    v = read_variant(_copy(tmp_path, edit_toml=('victory = 6',
                                                'victory = 6\ntransforms = true'))).variant
    assert OrderKind.TRANSFORM in v.order_kinds and OrderKind.TRANSFORM not in plain.order_kinds
    assert "`A Bre transforms`" in v.help and "transforms" not in plain.help
    order = Transform(UnitSpec(UnitType.ARMY, Location("Bay")))
    step = advance(v, v.start_state(), [Submitted("Southia", "A Bay transforms", order)])
    (result,) = [r for r in step.results if r.order == order]
    assert result.outcome is Outcome.SUCCEEDS and result.reason == "becomes F Bay"
    assert Unit("Southia", UnitType.FLEET, Location("Bay")) in step.state.units


def test_frozen_regions_are_chosen_by_the_file(tmp_path: Path) -> None:
    v = read_variant(_copy(tmp_path, edit_toml=(
        'victory = 6', 'victory = 6\nfrozen = { months = ["Spring"], provinces = ["South Sound"] }'
    ))).variant
    assert "Frozen regions: in the movement phases of Spring" in v.help
    fleet = Unit("Southia", UnitType.FLEET, Location("SSO"))
    move = Move(UnitSpec(UnitType.FLEET, Location("SSO")), Location("GUL"))
    for season, moved in (("Spring", False), ("Fall", True)):
        state = GameState("isthmia", Phase(season, 1901, PhaseType.MOVEMENT), units=(fleet,))
        step = advance(v, state, [Submitted("Southia", "F SSO - GUL", move)])
        (result,) = [r for r in step.results if r.power == "Southia"]
        assert (result.outcome is Outcome.SUCCEEDS) is moved, (season, result)
        assert fleet.moved_to(Location("GUL") if moved else fleet.location) in step.state.units
    own = _copy(tmp_path, edit_toml=('victory = 6', 'victory = 6\nhooks = "sahara"\nfrozen = '
                                     '{ months = ["Spring"], provinces = ["SSO"] }'))
    assert _errors(own) == [
        f"{own}:{_line(own, 'hooks = ')}: the hook set plays its own moves: give [frozen] only "
        'with hooks that do not (e.g. hooks = "standard")']


def test_ice_at_the_start_is_read(tmp_path: Path) -> None:
    """Iced water: armies cross it, fleets may not enter (the engine's ice, Geophysical 8)."""
    v = read_variant(_copy(tmp_path, edit_toml=('victory = 6', 'victory = 6\nice = ["North Sound"]'
                                                ))).variant
    assert isinstance(v, StartTerrainVariant) and v.start_iced == {"NSO"}
    assert v.start_state().iced == {"NSO"} and v.map.iced == {"NSO"}
    assert v.map.can_occupy(UnitType.ARMY, Location("NSO"))
    assert not v.map.fleet_can_move(Location("WBY"), Location("NSO"))  # fleets may not enter
    assert v.map.army_can_move("Cap", "NSO") and v.map.army_can_move("NSO", "Fel")
    plain = read_variant(_copy(tmp_path)).variant
    assert plain.map.fleet_can_move(Location("WBY"), Location("NSO"))
    assert not plain.map.army_can_move("Cap", "NSO")


def test_designated_homes_are_chosen_by_the_file(tmp_path: Path) -> None:
    v = read_variant(_copy(tmp_path, edit_toml=('victory = 6',
                                                'victory = 6\nbuilds = "designated"'))).variant
    assert OrderKind.HOME in v.order_kinds and v.hooks.victory is None
    units = (Unit("Norland", UnitType.ARMY, Location("Nor")),)
    owners = {"Nor": "Norland", "Cap": "Norland", "Fel": "Norland"}
    state = GameState("isthmia", Phase("Winter", 1901, PhaseType.ADJUSTMENT), units=units,
                      owners=owners, homes={"Norland": ("Cap", "Nor")},
                      extra={"winter-owner Fel": "Norland"})
    assert v.hooks.optional_orders is not None
    assert v.hooks.optional_orders(v, state) == {"Norland": ("Home Fel",)}
    home = DesignateHome("Fel")
    step = advance(v, state, [Submitted("Norland", "Home Fel", home)])
    (result,) = [r for r in step.results if r.order == home]
    assert result.outcome is Outcome.SUCCEEDS, result
    assert result.reason == "Fel becomes a home centre of Norland (1 designation left)"
    assert step.state.homes["Norland"] == ("Cap", "Fel", "Nor")
    spring = GameState("isthmia", Phase("Spring", 1902, PhaseType.MOVEMENT), units=units,
                       owners=owners, homes={"Norland": ("Cap", "Nor")})
    step = advance(v, spring, [Submitted("Norland", "Home Fel", home)])
    (result,) = [r for r in step.results if r.order == home]
    assert (result.outcome, result.reason) == (
        Outcome.ILLEGAL, "void: home designations are made in a Winter (Chaos II rule 4)")
