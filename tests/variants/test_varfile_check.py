"""What the check (gm.variants.varfile.read_variant, which `gm variant check` and loading both
use) refuses or warns of in a file that would otherwise play nonsense: each case a small file
with the fault, the message and its line; and the messages themselves (the right line, the
nearest names, the four-province point explained, a ring with one mistake given back mended).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.engine.game import advance
from gm.paths import VARIANT_DATA
from gm.play.coming import coming_events
from gm.variants import registry
from gm.variants.varfile import VariantFile, VariantFileErrors, read_variant
from tests.variants.files import errors as _errors
from tests.variants.files import isthmia_copy as _copy
from tests.variants.files import line_of as _line

DATA = Path(__file__).resolve().parent / "data"

# docs/variant-files.md's triangle: a lake (The Lake) between two homes and a neutral centre
TRIANGLE = '''name = "triangle"
victory = 2
map = """
map triangle
edge ~N "the northern edge"
edge ~E "the eastern edge"
edge ~S "the southern edge"
edge ~W "the western edge"

Wes land "Westmark" at 100,100 home Red
    ring ~N Mid LAK ~S ~W
Mid land "Middlemarch" at 300,60 centre
    ring ~N Eas LAK Wes
Eas land "Eastmark" at 500,100 home Blue
    ring ~N ~E ~S LAK Mid
LAK sea "The Lake" at 300,180
    ring Mid Eas ~S Wes
"""

[[powers]]
name = "Red"
units = ["A Wes"]

[[powers]]
name = "Blue"
units = ["F Eas"]
'''


def _triangle(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    text = TRIANGLE
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "triangle.toml"
    path.write_text(text)
    return path


def _isthmia(tmp_path: Path, *, toml: tuple[str, str] | None = None,
             map_edit: tuple[str, str] | None = None) -> Path:
    """The test variant Isthmia (a split coast, a passage) in tmp_path, changed as asked."""
    return _copy(tmp_path, edit_toml=toml, edit_map=map_edit)


def _warnings(read: VariantFile) -> list[str]:
    return [str(w) for w in read.warnings]


# -- refused -----------------------------------------------------------------------------------


def test_a_passage_between_provinces_that_do_not_meet_at_a_point(tmp_path: Path) -> None:
    path = _isthmia(tmp_path, map_edit=("passage NSO SSO", "passage NSO GUL"))
    map_file = tmp_path / "isthmia.map"
    assert _errors(path) == [
        f"{map_file}:{_line(map_file, 'passage NSO GUL')}: NSO and GUL do not meet at a point: "
        "a passage joins two provinces that meet only where four meet (the ring of NSO has X Y "
        "where the ring of GUL has Y X, X and Y the two provinces between them); leave the "
        "passage out, or, if NSO and GUL share a border, list each in the other's ring"]


def test_a_supply_centre_on_an_impassable_space(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ('Mid land "Middlemarch"', 'Mid impassable "Middlemarch"'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'Mid impassable')}: Mid (Middlemarch) is a supply centre on an "
        "impassable space: no unit can ever stand there to take it; leave out `centre`, or "
        "make the space land (or open it with a `passable` event)"]


def test_a_province_marked_home_of_two_powers(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ("home Red", "home Red home Blue"))
    assert _errors(path) == [
        f"{path}:{_line(path, 'home Red home Blue')}: Wes is marked home of Red and of Blue: a "
        "centre is the home of one power; keep one `home` mark"]


def test_a_centre_listed_in_the_homes_of_two_powers(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ('units = ["F Eas"]', 'units = ["F Eas"]\nhomes = ["Eas", "Wes"]'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'homes = ')}: Wes is a home centre of Red and of Blue: a centre is "
        "the home of one power; leave it out of the homes of one of them"]


def test_a_two_coast_pin_on_a_province_with_one_coast(tmp_path: Path) -> None:
    path = _isthmia(tmp_path, map_edit=("ring WBY NSO Ist SSO GUL WOC",
                                        "ring WBY[nc] NSO Ist SSO GUL WOC"))
    map_file = tmp_path / "isthmia.map"
    assert _errors(path) == [
        f"{map_file}:{_line(map_file, 'ring WBY[nc] NSO')}: WBY[nc]: a coast pin names one of "
        "several coasts, and Cap has one coast at the start; write the ring without the [label]"]


def test_one_coast_label_pinned_to_two_coasts(tmp_path: Path) -> None:
    path = _isthmia(tmp_path, map_edit=("SSO[sc]", "SSO[nc]"))
    map_file = tmp_path / "isthmia.map"
    assert _errors(path) == [
        f"{map_file}:{_line(map_file, 'SSO[nc]')}: the coast label [nc] is pinned to 2 coasts "
        "of Ist (NSO[nc], SSO[nc]): give each coast its own label"]


def test_a_canal_on_a_sea_that_never_becomes_land(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ("victory = 2", 'victory = 2\ncanals = ["LAK"]'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'canals =')}: canals: LAK is sea, and no event makes it land: a "
        "canal is a land province whose water is one coast; leave it out of canals, or dry it "
        "with an event"]
    # Sahara's way: a sea that dries up keeps one coast
    dried = _triangle(tmp_path, ("victory = 2", 'victory = 2\ncanals = ["LAK"]\nstart = '
                                 '"Winter 1901"'),
                      ('units = ["F Eas"]\n', 'units = ["F Eas"]\n\n[[events]]\nwhen = '
                       '"W1901"\nkind = "dry"\nprovinces = ["LAK"]\n'))
    assert "LAK" in read_variant(dried).data.canals


def test_season_names_naming_a_season_the_months_calendar_has_not(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ("victory = 2", 'victory = 2\ncalendar = "months"\n'
                                'season_names = { from = 1916, Winter = "Snows" }'))
    [error] = _errors(path)
    assert error.startswith(f"{path}:{_line(path, 'season_names')}: season_names: Winter = "
                            "'Snows' cannot be read; write [season_names] with the year they "
                            "apply from and a new name for any of the seasons January, ")


def test_a_starting_fleet_on_ice(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ("victory = 2", 'victory = 2\nice = ["LAK"]'),
                     ('units = ["F Eas"]', 'units = ["F LAK"]'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'F LAK')}: 'F LAK': LAK is iced at the start, and fleets may not "
        "enter ice: make it an army (A LAK), put the fleet elsewhere, or leave LAK out of ice"]


@pytest.mark.parametrize(("edit", "needle", "expected"), [
    (('name = "triangle"', 'name = "standard"'), 'name = "standard"',
     "the name or alias 'standard' is taken by another variant (standard); give the file's "
     "variant a name of its own"),
    (('victory = 2', 'victory = 2\naliases = ["Tri", "Deluge 2"]'), "aliases =",
     "the name or alias 'Deluge 2' is taken by another variant (deluge2); leave it out of "
     "aliases or write another"),
])
def test_a_name_or_alias_of_a_built_in_variant(
        tmp_path: Path, edit: tuple[str, str], needle: str, expected: str) -> None:
    """The check refuses it as loading does: one validation (registry.taken_by)."""
    path = _triangle(tmp_path, edit)
    with pytest.raises(VariantFileErrors) as caught:
        read_variant(path, registry.taken_by(path))
    assert [str(p) for p in caught.value.problems] == [f"{path}:{_line(path, needle)}: {expected}"]
    loaded = registry.load_directory(tmp_path)
    assert loaded.names == ()
    [(refused, why)] = loaded.refused
    assert refused == path and f"{path}:{_line(path, needle)}: {expected}" in why


# -- warned of (a designer could mean it) --------------------------------------------------------


def test_a_supply_centre_on_a_sea_is_a_warning(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ('LAK sea "The Lake" at 300,180', 'LAK sea "The Lake" at 300,180 '
                                'centre'))
    read = read_variant(path)
    assert _warnings(read) == [
        f"{path}:{_line(path, 'LAK sea')}: warning: LAK (The Lake) is a supply centre on a sea: "
        "only a fleet can take it; if a centre at sea is not what you mean, make it land or "
        "leave out `centre`"]


def test_a_power_with_no_home_centre_is_a_warning(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ('"Eastmark" at 500,100 home Blue', '"Eastmark" at 500,100'),
                     ("victory = 2", "victory = 1"))
    read = read_variant(path)
    blue = [n for n, line in enumerate(path.read_text().splitlines(), 1)
            if line == "[[powers]]"][1]
    assert _warnings(read) == [
        f"{path}:{blue}: warning: Blue has no home centre: it can never build (builds = "
        "\"home\"); mark one `home Blue` in the map, or list its homes"]


def test_ice_on_land_is_a_warning(tmp_path: Path) -> None:
    read = read_variant(_triangle(tmp_path, ("victory = 2", 'victory = 2\nice = ["Mid"]')))
    path = read.path
    assert _warnings(read) == [
        f"{path}:{_line(path, 'ice =')}: warning: ice: Mid is land: armies stand on land "
        "anyway, so ice there only keeps fleets off its coast (ice is for water: armies cross "
        "it, fleets may not enter); leave Mid out of ice unless that is what you mean"]


def test_the_built_in_variant_files_pass_the_check_without_warnings() -> None:
    for path in sorted(VARIANT_DATA.glob("*.toml")):
        read = read_variant(path, registry.taken_by(path))
        assert read.warnings == (), path


# -- messages ----------------------------------------------------------------------------------


def test_an_unknown_table_reports_its_own_line(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ('[[powers]]\nname = "Red"', '[powers2]\nx = 1\n\n[[powers]]\n'
                                'name = "Red"'))
    assert f"{path}:{_line(path, '[powers2]')}: unknown key 'powers2' (did you mean 'powers'?)" \
        in " ".join(_errors(path))


def test_a_home_mark_for_an_unknown_power_points_at_the_province(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ("home Blue", "home Bleu"))
    assert _errors(path) == [
        f"{path}:{_line(path, 'home Bleu')}: Eas is marked home of 'Bleu', a power the file does "
        "not have: write `home Blue`, or give every power its homes"]


def test_a_misspelt_province_gets_the_nearest_names(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ('units = ["A Wes"]', 'units = ["A Westmrak"]'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'Westmrak')}: the unit 'A Westmrak' of Red: there is no province "
        "'Westmrak' on the map; did you mean Wes (Westmark)?"]
    # two as close as each other: both
    path = _triangle(tmp_path, ('units = ["A Wes"]', 'units = ["A Xes"]'))
    assert _errors(path) == [
        f"{path}:{_line(path, 'Xes')}: the unit 'A Xes' of Red: there is no province 'Xes' on "
        "the map; did you mean Wes (Westmark) or Eas (Eastmark)?"]


@pytest.mark.parametrize(("edit", "needle", "expected"), [
    (("victory = 2", 'victory = 2\nhooks = "sahra"'), "hooks =",
     "no hook set is called 'sahra' (did you mean 'sahara'?); a file may name only these: "),
    (("victory = 2", 'victory = 2\nbuilds = "any"\nbiulds = "any"'), "biulds",
     "unknown key 'biulds' (did you mean 'builds'?); the keys are: "),
    (("victory = 2", 'victory = 2\nterrain = { Mid = "mountian" }'), "terrain =",
     "terrain: Mid = 'mountian' (did you mean 'mountain'?): the terrains are "),
    (("victory = 2", 'victory = 2\nseason_names = { from = 1905, Sprng = "Thaw" }'),
     "season_names", "season_names: Sprng = 'Thaw' cannot be read (did you mean 'Spring'?); "),
    (('name = "Red"', 'name = "Red"\nadjectve = "Red"'), "adjectve",
     "unknown key 'adjectve' in a power (did you mean 'adjective'?); the keys are: "),
])
def test_misspelt_words_get_the_nearest(tmp_path: Path, edit: tuple[str, str], needle: str,
                                        expected: str) -> None:
    path = _triangle(tmp_path, edit)
    errors = _errors(path)
    assert any(e.startswith(f"{path}:{_line(path, needle)}: {expected}") for e in errors), errors


def test_a_four_province_point_written_the_natural_way_is_one_error_with_the_recipe(
        tmp_path: Path) -> None:
    text = '''name = "four"
victory = 1
map = """
edge ~N "n"
edge ~E "e"
edge ~S "s"
edge ~W "w"
Aa land "Aland" at 100,100 home Red
    ring ~N Bb Dd ~W
Bb sea "Bsea" at 300,100
    ring ~N ~E Cc Aa
Cc land "Cland" at 300,300 home Blue
    ring Bb ~E ~S Dd
Dd sea "Dsea" at 100,300
    ring Aa Cc ~S ~W
"""
[[powers]]
name = "Red"
units = ["A Aa"]
[[powers]]
name = "Blue"
units = ["A Cc"]
'''
    path = tmp_path / "four.toml"
    path.write_text(text)
    assert _errors(path) == [
        f"{path}:{_line(path, 'ring ~N Bb Dd ~W')}: Aa, Bb, Cc and Dd meet at one point, but a "
        "ring can only draw a point where three provinces meet: give one diagonal pair a border "
        "of no length, e.g. Bb and Dd: in the ring of Bb write Dd between Cc and Aa (Cc Dd Aa), "
        "in the ring of Dd write Bb between Aa and Cc (Aa Bb Cc); the rings of Aa and Cc stay "
        "as they are. If Aa and Cc must border each other across the point, declare "
        "`passage Aa Cc`"]
    # the recipe, followed, with the passage: good, and Aa-Cc border only as a passage
    path.write_text(text.replace("ring ~N ~E Cc Aa", "ring ~N ~E Cc Dd Aa")
                    .replace("ring Aa Cc ~S ~W", "ring Aa Bb Cc ~S ~W")
                    .replace('edge ~W "w"', 'edge ~W "w"\npassage Aa Cc'))
    read = read_variant(path)
    assert read.passages == (("Aa", "Cc"),)
    assert read.variant.map.army_can_move("Aa", "Cc")


def test_a_sea_named_with_its_article_is_not_given_another(tmp_path: Path) -> None:
    path = _triangle(tmp_path, ('units = ["F Eas"]', 'units = ["A Eas"]'),
                     ("victory = 2", 'victory = 2\nstart = "Winter 1901"\n'),
                     ('units = ["A Eas"]\n', 'units = ["A Eas"]\n\n[[events]]\nwhen = "W1901"\n'
                      'kind = "dry"\nprovinces = ["LAK"]\n'))
    v = read_variant(path).variant
    [coming] = coming_events(v, v.start_state())
    assert coming.places == ("The Lake",)  # reports' "Coming:" section
    step = advance(v, v.start_state(), [])
    words = " ".join(e for r in step.reports for e in r.events)
    assert "The Lake dries up and becomes land." in words
    assert "The The" not in words


def test_two_rings_each_with_one_pair_swapped_are_two_errors(tmp_path: Path) -> None:
    path = _isthmia(tmp_path, map_edit=("ring WBY NSO Ist SSO GUL WOC",
                                        "ring WBY Ist NSO SSO GUL WOC"))
    map_file = tmp_path / "isthmia.map"
    map_file.write_text(map_file.read_text().replace("ring Fel Kar Eas Rid LAG Ist",
                                                     "ring Fel Kar Rid Eas LAG Ist"))
    assert _errors(path) == [
        f"{map_file}:{_line(map_file, 'ring WBY Ist NSO')}: the ring of Cap does not close: it "
        "has Ist and NSO the wrong way round (clockwise around Cap, NSO needs to come before "
        "Ist): write `ring WBY NSO Ist SSO GUL WOC`",
        f"{map_file}:{_line(map_file, 'ring Fel Kar Rid')}: the ring of Hol does not close: it "
        "has Rid and Eas the wrong way round (clockwise around Hol, Eas needs to come before "
        "Rid): write `ring Fel Kar Eas Rid LAG Ist`"]
