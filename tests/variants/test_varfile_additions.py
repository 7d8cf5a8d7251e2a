"""What the variant-file format says beyond terrain and rings, each read, checked with its
line, adjudicated (the scenario cases of the second test variant, The Marches, in
tests/variants/marches), summarised and drawn: borders only armies or only fleets cross;
neutral garrisons and centres owned at the start that are not homes; build sites for one kind
of unit; a last game year with the powers ranked by centres."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gm.engine.game import advance, alive_powers, orders_needed
from gm.engine.geo import Location
from gm.engine.orders import Build, UnitSpec
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Submitted
from gm.engine.units import NEUTRAL, UnitType
from gm.export.scenario import Recorder
from gm.variants.mapdata import parse_map
from gm.variants.varfile import read_variant
from tests.support.environment import clean_env
from tests.support.scripted import Script, scripted_orders

MARCHES = Path(__file__).resolve().parent / "marches"


def _gm(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gm", *map(str, args)], env=clean_env(),
                          capture_output=True, text=True, timeout=300)


def _copy(tmp_path: Path, *edits: tuple[str, str], toml: bool = False) -> Path:
    """The Marches' files in tmp_path, the map (or, with `toml`, the variant file) edited."""
    files = {name: (MARCHES / name).read_text() for name in ("marches.toml", "marches.map")}
    target = "marches.toml" if toml else "marches.map"
    for old, new in edits:
        assert old in files[target], old
        files[target] = files[target].replace(old, new, 1)
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path / "marches.toml"


def _map_line(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_the_scenario_cases_of_the_marches_pass() -> None:
    done = _gm("scenario", "--variants", MARCHES, MARCHES / "marches-cases.txt")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == "23 passed, 0 failed\n", done.stdout


# -- borders only armies or only fleets cross --------------------------------------------------
def test_a_border_only_fleets_cross_keeps_armies_out_and_lets_fleets_through() -> None:
    gmap = read_variant(MARCHES / "marches.toml").variant.map
    assert not gmap.army_can_move("Cap", "Ist") and not gmap.army_can_move("Ist", "Cap")
    assert gmap.fleet_can_move(Location("Cap"), Location("Ist", "nc"))
    assert gmap.fleet_can_move(Location("Ist", "sc"), Location("Cap"))
    # a border only armies cross: the army crosses, the fleet goes round by the Lagoon
    assert gmap.army_can_move("Hol", "Ist") and gmap.army_can_move("Ist", "Hol")
    assert not gmap.fleet_can_move(Location("Hol"), Location("Ist", "sc"))
    assert not gmap.fleet_can_move(Location("Ist", "sc"), Location("Hol"))
    assert gmap.fleet_can_move(Location("LAG"), Location("Ist", "sc"))
    # the borders are still borders (for civil disorder's distances, supports' wording)
    assert gmap.adjacent("Cap", "Ist") and gmap.adjacent("Hol", "Ist")


def test_the_same_map_without_the_lines_lets_both_cross(tmp_path: Path) -> None:
    path = _copy(tmp_path, ("border Cap Ist fleets\n", ""), ("border Hol Ist armies\n", ""))
    gmap = read_variant(path).variant.map
    assert gmap.army_can_move("Cap", "Ist")
    assert gmap.fleet_can_move(Location("Hol"), Location("Ist", "sc"))


@pytest.mark.parametrize(("line", "message"), [
    ("border Cap Ist boats", "cannot read 'border Cap Ist boats': a border is restricted with "
     "`border <A> <B> armies` (only armies cross it) or `border <A> <B> fleets` (only fleets "
     "do)"),
    ("border Cap Ist", "cannot read 'border Cap Ist'"),
    ("border Capp Ist armies", "unknown province 'Capp' in a border line (did you mean "
     "Cap?)"),
    ("border Nor Dun armies", "Nor and Dun do not border each other: `border Nor Dun armies` "
     "restricts a border the rings draw"),
    ("border Ist Cap armies", "the border Cap-Ist is restricted twice: keep one line"),
])
def test_a_bad_border_line_is_refused_at_its_line(tmp_path: Path, line: str,
                                                  message: str) -> None:
    path = _copy(tmp_path, ("border Hol Ist armies\n", f"border Hol Ist armies\n{line}\n"))
    done = _gm("variant", "check", path)
    assert done.returncode == 1
    where = (tmp_path / "marches.map").read_text().splitlines().index(line) + 1
    assert f"{tmp_path / 'marches.map'}:{where}: {message}" in done.stdout, done.stdout


def test_a_border_line_on_a_passage_is_read() -> None:
    text = (MARCHES / "marches.map").read_text().replace(
        "border Cap Ist fleets\n", "border Cap Ist fleets\nborder NSO SSO armies\n")
    data = parse_map(text, "marches.map")
    assert data.only[("NSO", "SSO")] == "armies"
    assert not data.game_map().fleet_can_move(Location("NSO"), Location("SSO"))


def test_a_border_no_unit_of_its_kind_crosses_is_a_warning(tmp_path: Path) -> None:
    # armies only between a coast and a sea: nothing can cross there
    path = _copy(tmp_path, ("border Hol Ist armies\n", "border Hol Ist armies\n"
                                                      "border Nor WBY armies\n"))
    read = read_variant(path)
    line = _map_line(tmp_path / "marches.map", "border Nor WBY")
    assert [str(w) for w in read.warnings] == [
        f"{tmp_path / 'marches.map'}:{line}: warning: `border Nor WBY armies`: no army can "
        "cross between Nor and WBY at the start (both sides must be land), so the border is "
        "closed to every unit; if that is not what you mean, write the other kind"]
    assert not read.variant.map.fleet_can_move(Location("Nor"), Location("WBY"))


def test_an_inline_map_reports_the_variant_file_s_line(tmp_path: Path) -> None:
    toml = (MARCHES / "marches.toml").read_text().replace(
        'map = "marches.map"', 'map = """\n' + (MARCHES / "marches.map").read_text().replace(
            "border Cap Ist fleets", "border Cap Ist ships") + '"""')
    path = tmp_path / "inline.toml"
    path.write_text(toml)
    done = _gm("variant", "check", path)
    assert done.returncode == 1
    line = _map_line(path, "border Cap Ist ships")
    assert f"{path}:{line}: cannot read 'border Cap Ist ships'" in done.stdout


def test_check_summarises_and_draws_the_borders(tmp_path: Path) -> None:
    done = _gm("variant", "check", MARCHES / "marches.toml", "--draw", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("borders only armies or only fleets cross: Cap-Ist (fleets), Hol-Ist (armies)"
            in done.stdout.splitlines())
    svg = (tmp_path / "marches-start.svg").read_text()
    assert 'class="fleet-only" data-mark="fleet-only" data-between="Cap-Ist"' in svg
    assert 'class="army-only" data-mark="army-only" data-between="Hol-Ist"' in svg
    assert "border only armies cross" in svg and "border only fleets cross" in svg
    # the neutral garrisons, grey, with their legend
    assert 'data-legend="neutral"' in svg and "neutral garrison (no power's unit)" in svg


# -- neutral garrisons and centres owned at the start that are not homes ----------------------
def test_garrisons_and_owned_centres_are_in_the_first_position() -> None:
    v = read_variant(MARCHES / "marches.toml").variant
    state = v.start_state()
    assert sorted(str(u) for u in state.units if u.power == NEUTRAL) == ["A Hol", "A Rid"]
    assert state.owners["Fel"] == "Norland" and v.homes["Norland"] == ("Cap", "Nor")
    assert "Hol" not in state.owners and "Rid" not in state.owners
    # a garrison is no power: nobody orders it, it is never eliminated
    assert NEUTRAL not in orders_needed(v, state)
    assert NEUTRAL not in alive_powers(state)


def test_garrisons_hold_through_years_of_play() -> None:
    v = read_variant(MARCHES / "marches.toml").variant
    state = v.start_state()
    for _ in range(6):  # three years: nobody orders, garrisons stay, no centre changes hands
        state = advance(v, state, ()).state
    assert state.phase.year == 1904
    assert sorted(str(u) for u in state.units if u.power == NEUTRAL) == ["A Hol", "A Rid"]
    assert "Hol" not in state.owners and state.owners["Fel"] == "Norland"


@pytest.mark.parametrize(("edit", "needle", "message"), [
    (('owns = ["Fel"]', 'owns = ["Ash"]'), "owns =",
     "owns: Ash is no supply centre: mark it `centre` in the map, or leave it out of the "
     "centres Norland owns"),
    (('owns = ["Fel"]', 'owns = ["Kar"]'), "owns =",
     "owns: Kar is a home centre of Eastria, which owns it at the start: leave it out of owns, "
     "or out of the homes of Eastria"),
    (('owns = ["Fel"]', 'owns = ["Nor"]'), "owns =",
     "owns: Nor is a home centre of Norland, which owns it at the start: it is owned as a home "
     "already; leave it out of owns"),
    (('owns = ["Fel"]', 'owns = ["Fellhavn"]'), "owns =",
     "the centres Norland owns: there is no province 'Fellhavn' on the map; did you mean Fel "
     "(Fellhaven)?"),
    (('units = ["F Sun", "A Bay"]', 'units = ["F Sun", "A Bay"]\nowns = ["Fel"]'),
     "owns =", "owns: Fel is owned by Norland already"),
    (('neutral = ["A Hol", "A Rid"]', 'neutral = ["A Hol", "A Kar"]'), "neutral =",
     "'A Kar': Kar already holds a unit of Eastria; one unit per province"),
    (('neutral = ["A Hol", "A Rid"]', 'neutral = ["A Hol", "F Eas"]'), "neutral =",
     "'F Eas': a fleet inland; Eas has no coast"),
    (('neutral = ["A Hol", "A Rid"]', 'neutral = ["A Hol", "A Hol"]'), "neutral =",
     "'A Hol': Hol already holds a neutral garrison; one unit per province"),
    (('name = "Southia"', 'name = "Neutral"'), 'name = "Neutral"',
     "a power cannot be called Neutral: the name is kept for neutral garrisons"),
])
def test_bad_garrisons_and_owned_centres_are_refused_at_their_line(
        tmp_path: Path, edit: tuple[str, str], needle: str, message: str) -> None:
    path = _copy(tmp_path, edit, toml=True)
    text = path.read_text()
    line = text[:text.rindex(needle)].count("\n") + 1  # the last such line
    done = _gm("variant", "check", path)
    assert done.returncode == 1
    assert f"{path}:{line}: {message}" in done.stdout, done.stdout


def test_check_summarises_garrisons_and_owned_centres() -> None:
    done = _gm("variant", "check", MARCHES / "marches.toml")
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert "  Norland (Norlandish, N): homes Cap, Nor; units A Nor, F Cap; owns Fel" in lines
    assert "neutral garrisons: A Hol, A Rid" in lines


# -- build sites for one kind of unit ----------------------------------------------------------
def test_build_sites_for_one_kind_are_read_and_told_in_help() -> None:
    read = read_variant(MARCHES / "marches.toml")
    assert ("\n\nBuild sites for one kind of unit: Cap (fleets only), Nor (armies only)."
            in read.variant.help)
    assert 'build_only = { Cap = "fleets", Nor = "armies" }' in "; ".join(read.options)


@pytest.mark.parametrize(("edit", "message"), [
    ('Cap = "fleets"', 'Cap = "boats"'),
    ('Cap = "fleets"', 'Ash = "armies"'),
    ('Cap = "fleets"', 'Kar = "fleets"'),
    ('Cap = "fleets"', 'Capp = "fleets"'),
])
def test_bad_build_sites_for_one_kind_are_refused_at_their_line(
        tmp_path: Path, edit: str, message: str) -> None:
    path = _copy(tmp_path, (edit, message), toml=True)
    line = _map_line(path, "build_only = {")
    expected = {
        'Cap = "boats"': "build_only: Cap = 'boats': write \"armies\" or \"fleets\"",
        'Ash = "armies"': "build_only: Ash is no supply centre, so nothing is built there: "
                          "leave it out of build_only, or mark it `centre`",
        'Kar = "fleets"': "build_only: Kar has no coast, so no fleet can be built there: "
                          "write Kar = \"armies\", or leave it out",
        'Capp = "fleets"': "build_only: there is no province 'Capp' on the map; did you mean "
                           "Cap (Cape Tarn)?",
    }[message]
    done = _gm("variant", "check", path)
    assert done.returncode == 1
    assert f"{path}:{line}: {expected}" in done.stdout, done.stdout


# -- a last game year, the powers ranked by centres -------------------------------------------
def test_the_game_ends_after_the_winter_of_the_last_year_with_the_ranking() -> None:
    v = read_variant(MARCHES / "marches.toml").variant
    assert ("The game ends at the end of 1904 unless a power has won before; the powers are\n"
            "then ranked by the supply centres they own.") in v.help
    # Norland has a build to make in the Winter of 1904: the game ends only after it
    state = v.start_state().evolve(phase=Phase("Fall", 1904, PhaseType.MOVEMENT),
                                   units=tuple(u for u in v.start_units if str(u) != "F Cap"))
    step = advance(v, state, ())
    assert str(step.state.phase) == "Winter 1904, Adjustment" and not step.state.finished
    build = Submitted("Norland", "Build F Cap",
                      Build(UnitSpec(UnitType.FLEET, Location("Cap"))))
    step = advance(v, step.state, (build,))
    assert step.state.finished and step.state.winners == ()
    assert step.reports[-1].events[-1] == (
        "The game ends with 1904, its last year. The powers ranked by supply centres: "
        "1. Norland 3, 2. Eastria 2, 2. Southia 2.")
    assert "nobody won" not in " ".join(step.reports[-1].events)


def test_the_game_goes_on_through_the_years_before() -> None:
    v = read_variant(MARCHES / "marches.toml").variant
    state = v.start_state().evolve(phase=Phase("Fall", 1903, PhaseType.MOVEMENT))
    step = advance(v, state, ())
    assert not step.state.finished and str(step.state.phase) == "Spring 1904, Movement"


@pytest.mark.parametrize("value", ["1900", '"1910"', "true"])
def test_a_last_year_before_the_start_or_not_a_year_is_refused(tmp_path: Path,
                                                               value: str) -> None:
    path = _copy(tmp_path, ("last_year = 1904", f"last_year = {value}"), toml=True)
    done = _gm("variant", "check", path)
    assert done.returncode == 1
    line = _map_line(path, "last_year = ")
    shown = {"1900": "1900", '"1910"': "'1910'", "true": "True"}[value]
    assert (f"{path}:{line}: last_year must be a year from the start's (1901) on, e.g. "
            f"last_year = 1910, not {shown}") in done.stdout, done.stdout


# -- long links and one-way borders ------------------------------------------------------------
def test_help_tells_what_the_board_does_not_draw() -> None:
    text = read_variant(MARCHES / "marches.toml").variant.help
    for told in ("Only armies cross the border Hol-Ist.", "Only fleets cross the border Cap-Ist.",
                 "Linked across the board (they border each other): Ash-Nor.",
                 "Crossed one way only: from Kar to Fel.",
                 "Neutral garrisons: A Hol, A Rid. They hold (a power may support them), are\n"
                 "destroyed when dislodged, and take no centre."):
        assert f"\n\n{told}" in text, (told, text)


def test_a_link_and_a_one_way_border_are_derived() -> None:
    gmap = read_variant(MARCHES / "marches.toml").variant.map
    assert gmap.army_can_move("Nor", "Ash") and gmap.army_can_move("Ash", "Nor")
    assert gmap.fleet_can_move(Location("Nor"), Location("Ash"))
    assert gmap.fleet_can_move(Location("Ash"), Location("Nor"))
    assert gmap.army_can_move("Kar", "Fel") and not gmap.army_can_move("Fel", "Kar")


def test_a_link_reaches_water_and_a_coast_but_not_split_coasts() -> None:
    text = (MARCHES / "marches.map").read_text().replace(
        "link Nor Ash\n", "link Nor Ash\nlink WOC DEE\nlink Ist Rid\nlink Sun LAG\n")
    gmap = parse_map(text, "marches.map").game_map()
    assert gmap.fleet_can_move(Location("WOC"), Location("DEE"))
    assert gmap.fleet_can_move(Location("LAG"), Location("Sun"))
    assert gmap.army_can_move("Ist", "Rid")
    assert not gmap.fleet_targets_in(Location("Rid"), "Ist")  # which coast? none


def test_a_link_may_be_one_way_and_for_one_kind_of_unit() -> None:
    text = (MARCHES / "marches.map").read_text().replace(
        "link Nor Ash\n", "link Nor Ash\nborder Ash Nor armies\noneway Ash Nor\n")
    gmap = parse_map(text, "marches.map").game_map()
    assert gmap.army_can_move("Ash", "Nor") and not gmap.army_can_move("Nor", "Ash")
    assert not gmap.fleet_can_move(Location("Ash"), Location("Nor"))


def test_a_one_way_sea_lane_carries_fleets_one_way() -> None:
    text = (MARCHES / "marches.map").read_text().replace(
        "oneway Kar Fel\n", "oneway Kar Fel\noneway SSO LAG\n")
    gmap = parse_map(text, "marches.map").game_map()
    assert gmap.fleet_can_move(Location("SSO"), Location("LAG"))
    assert not gmap.fleet_can_move(Location("LAG"), Location("SSO"))


@pytest.mark.parametrize(("line", "message"), [
    ("link Nor WBY", "Nor and WBY border each other already: no link; leave the line out"),
    ("link Nor", "cannot read 'link Nor': write `link <A> <B>`"),
    ("link Nor Nor", "a link joins two provinces, not Nor and itself"),
    ("link Nor Ashh", "unknown province 'Ashh' in a link line (did you mean Ash?)"),
    ("oneway Nor Ash Dun", "cannot read 'oneway Nor Ash Dun': write `oneway <A> <B>`"),
    ("oneway Nor Dun", "Nor and Dun do not border each other: `oneway Nor Dun` makes a border "
     "one-way; put the two provinces' rings together, or join them first with `link Nor "
     "Dun`"),
    ("oneway Fel Kar", "the border Fel-Kar is made one-way twice: keep one line"),
])
def test_a_bad_link_or_oneway_line_is_refused_at_its_line(tmp_path: Path, line: str,
                                                          message: str) -> None:
    path = _copy(tmp_path, ("oneway Kar Fel\n", f"oneway Kar Fel\n{line}\n"))
    done = _gm("variant", "check", path)
    assert done.returncode == 1
    where = (tmp_path / "marches.map").read_text().splitlines().index(line) + 1
    assert f"{tmp_path / 'marches.map'}:{where}: {message}" in done.stdout, done.stdout


def test_a_link_no_unit_can_cross_is_a_warning(tmp_path: Path) -> None:
    path = _copy(tmp_path, ("link Nor Ash\n", "link Nor Ash\nlink Kar SSO\n"))
    read = read_variant(path)
    line = _map_line(tmp_path / "marches.map", "link Kar SSO")
    assert [str(w) for w in read.warnings] == [
        f"{tmp_path / 'marches.map'}:{line}: warning: `link Kar SSO`: no unit can cross it at "
        "the start (armies cross a link between land, fleets one between water or coasts, a "
        "split coast only by armies); if that is not what you mean, link other provinces"]


def test_check_summarises_and_draws_links_and_one_way_borders(tmp_path: Path) -> None:
    done = _gm("variant", "check", MARCHES / "marches.toml", "--draw", tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "borders: 43 (passages and links not counted)" in lines
    assert "links: Ash-Nor" in lines and "one-way: Kar to Fel" in lines
    svg = (tmp_path / "marches-start.svg").read_text()
    assert 'class="link" data-mark="link" data-between="Ash-Nor"' in svg
    assert 'class="one-way" data-mark="one-way" data-between="Fel-Kar" data-from="Kar"' in svg
    assert "link (provinces joined across the board)" in svg
    assert "crossed one way only" in svg


# -- a recorded game of The Marches replays as scenario cases ---------------------------------
def test_a_recorded_game_with_garrisons_replays_as_scenario_cases(tmp_path: Path) -> None:
    v = read_variant(MARCHES / "marches.toml").variant
    recorder = Recorder(v, "marches-game")
    script: Script = {
        "S1901M": {"Eastria": ["A Kar - Fel", "A Eas - Hol"], "Norland": ["A Nor - Ash",
                                                                          "F Cap - Ist/nc"]},
        "F1901M": {"Eastria": ["A Fel S A Eas - Hol", "A Eas - Hol"]},
        "W1901A": {"Eastria": ["Build A Kar", "Build A Eas"], "Norland": ["Build A Cap"]},
        "S1902M": {"Eastria": ["A Fel - Ist", "A Hol S A Fel - Ist"]},
        "S1902R": {"Norland": ["F Ist/nc - NSO"]},
    }
    state = v.start_state()
    while str(state.phase) != "Fall 1902, Movement":
        state = recorder.advance(state, scripted_orders(v, state, script)).state
    assert [str(u) for u in state.units if u.power == NEUTRAL] == ["A Rid"]
    assert "Norland: F NSO" in [f"{u.power}: {u}" for u in state.units]
    path = tmp_path / "marches-game.txt"
    path.write_text(recorder.text())
    done = _gm("scenario", "--variants", MARCHES, path)
    assert done.returncode == 0 and done.stdout.endswith(" 0 failed\n"), done.stdout[-3000:]
    assert "Neutral: A Rid" in path.read_text()
