"""Deluge II: the rule cases (tests/scenarios/deluge2), the tables against the rule text, the
table file's loader, the help text, and a whole scripted game from Winter 1900 to the end."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.engine.game import advance
from gm.engine.geo import Location, Terrain
from gm.engine.orders import Transform, UnitSpec
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.export.scenario import Recorder
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case
from gm.variants import deluge2
from gm.variants.registry import get_variant
from gm.variants.terrain_schedule import TableError, load_tables
from tests.support.scripted import passes_gm_scenario, scripted_orders

DIR = Path(__file__).parent.parent / "scenarios" / "deluge2"
CASES: list[Case] = [case for path in sorted(DIR.glob("*.txt")) for case in read_file(path)]
OWN = [p for p in sorted(DIR.glob("*.txt")) if not p.name.startswith("af_")]
OWN_CASES = 226  # the cases of this module's files (af_*.txt belong to the A/F rules' tests)
TABLES = Path(__file__).resolve().parent.parent / "data" / "rules" / "deluge2-tables.txt"
RULES = TABLES.read_text(encoding="utf-8")  # the rule text's tables


@pytest.fixture(scope="module")
def variant() -> Variant:
    return get_variant("Deluge II")


# -- the rule cases ----------------------------------------------------------------------------
def test_case_count_and_names() -> None:
    own = [c for p in OWN for c in read_file(p)]
    assert len(own) == OWN_CASES >= 40
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"


def test_every_case_cites_its_rule() -> None:
    for path in OWN:
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                j = i
                while lines[j - 1].startswith("#"):
                    j -= 1
                assert lines[j:i], f"{path}:{i + 1}: no comment"
                assert "Deluge II" in lines[j], f"{path}:{i + 1}: the comment cites no rule"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)


# -- the tables are the rule text's ------------------------------------------------------------
def _text_table(title: str) -> dict[int, set[str]]:
    """`W 1901: Lon, Hol, ...` lines of the rule text's table `title`, names as written."""
    part = RULES.split(title, 1)[1]
    out: dict[int, set[str]] = {}
    for m in re.finditer(r"^W (\d{4}): (.+?)\.?$", part, re.MULTILINE):
        year = int(m.group(1))
        if year in out:
            break  # the next table
        out[year] = {n.strip() for n in m.group(2).split(",")}
    return out


def _data(variant: Variant, kind: str) -> dict[int, set[str]]:
    out: dict[int, set[str]] = {}
    for e in variant.scheduled:
        if e.kind == kind:
            assert e.season == "Winter"
            out.setdefault(e.year, set()).update(e.provinces)
    return out


def _canonical(variant: Variant, table: dict[int, set[str]]) -> dict[int, set[str]]:
    out = {}
    for year, names in table.items():
        found = {variant.map.lookup(n) for n in names}
        assert None not in found, names
        out[year] = {p for p in found if p is not None}
    return out


def test_table1_is_the_rule_text(variant: Variant) -> None:
    table = _canonical(variant, _text_table("Table 1 - Submergences"))
    assert table == _data(variant, "submerge")
    assert sorted(table) == list(range(1901, 1908))
    assert table[1902] >= {"Lvp"}  # written Lpl


def test_table2_is_the_rule_text(variant: Variant) -> None:
    table = _canonical(variant, _text_table("Table 2 - New Supply Centres"))
    assert table == _data(variant, "centre")


def test_rule6_and_boundaries(variant: Variant) -> None:
    assert _data(variant, "passable") == {1901: {"Ice"}, 1904: {"Swi"}}
    assert dict(deluge2.tables().boundaries) == {
        "Wal": "England", "Ruh": "Germany", "Tyr": "Austria", "Ukr": "Russia", "Pie": "Italy",
        "Boh": "Austria", "Sil": "Germany", "Ice": None, "Swi": None, "NAf": None,
    }


def test_all_land_but_switzerland_sinks(variant: Variant) -> None:
    sunk = set().union(*_data(variant, "submerge").values())
    land = {p for p, t in variant.map.terrain.items() if t is Terrain.LAND}
    assert land - sunk == set()  # every land province of the board sinks ...
    assert "Swi" not in sunk  # ... and Switzerland, opened in W1904, is what is left


# -- the table file ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("W1901 submerge Lon, Atlantis", "'Atlantis' is not a province"),
        ("W1901 flood Lon", "'flood' is not a kind"),
        ("X1901 submerge Lon", "'X' names no season"),
        ("1901 submerge Lon", "expected a season and year"),
        ("boundary Wal Wales", "'Wales' is not a power"),
        ("boundary Nowhere England", "'Nowhere' is not a province"),
    ],
)
def test_loader_refuses_bad_lines(variant: Variant, tmp_path: Path, line: str,
                                  message: str) -> None:
    path = tmp_path / "bad.tables"
    path.write_text(f"# a comment\n\nW1902 submerge Yor\n{line}\n")
    with pytest.raises(TableError) as err:
        load_tables(path, variant.map, variant.calendar, deluge2.KINDS, variant.power_names)
    assert message in str(err.value)
    assert err.value.line == 4
    assert str(err.value).startswith("bad.tables:4:")


def test_loader_reads_aliases_and_short_years(variant: Variant, tmp_path: Path) -> None:
    path = tmp_path / "ok.tables"
    path.write_text("W01 submerge Lpl, Gulf of Lyon, liverpool  # comment\nboundary Ice neutral\n")
    tables = load_tables(path, variant.map, variant.calendar, deluge2.KINDS, variant.power_names)
    (event,) = tables.events
    assert (event.season, event.year, event.provinces) == ("Winter", 1901, ("Lvp", "LYO", "Lvp"))
    assert tables.boundaries == {"Ice": None}


# -- the variant -------------------------------------------------------------------------------
def test_variant_setup(variant: Variant) -> None:
    assert variant.name == "deluge2"
    assert get_variant("deluge2") is variant
    assert variant.start_phase == Phase("Winter", 1900, PhaseType.ADJUSTMENT)
    assert variant.start_units == ()
    assert variant.solo_centres is None
    assert {"transform", "af"} <= variant.order_kinds
    state = variant.start_state()
    assert state.owners["StP"] == "Russia" and state.owners["Lon"] == "England"


def test_help_lists_rules_rulings_and_decisions(variant: Variant) -> None:
    text = variant.help
    for words in ("Winter 1900", "transforms", "W1901 submerge Lon, Hol, Bel, Gas, Ven, Lvn",
                  "W1906 centre NAf", "Wal England", "Ice neutral", "after the W1908",
                  "shares", "18-centre", "Table lines already in effect", "A/F"):
        assert words in text, words


def test_transform_result_names_the_order(variant: Variant) -> None:
    state = GameState("deluge2", Phase("Spring", 1901, PhaseType.MOVEMENT),
                      units=(Unit("France", UnitType.ARMY, Location("Bre")),
                             Unit("Germany", UnitType.ARMY, Location("Mun"))))
    order = Transform(UnitSpec(UnitType.ARMY, Location("Bre")))
    step = advance(variant, state, [Submitted("France", "A Bre transforms", order)])
    (result,) = [r for r in step.results if r.power == "France"]
    assert result.order == order
    assert result.outcome is Outcome.SUCCEEDS and result.reason == "becomes F Bre"
    assert "A Bre (France) becomes a fleet: F Bre." in step.events


def test_submergence_events_in_words(variant: Variant) -> None:
    state = GameState("deluge2", Phase("Winter", 1901, PhaseType.ADJUSTMENT),
                      units=(Unit("France", UnitType.ARMY, Location("Hol")),
                             Unit("England", UnitType.FLEET, Location("Lon")),
                             Unit("Germany", UnitType.ARMY, Location("Mun"))),
                      owners={"Lon": "England", "Hol": "France", "Mun": "Germany"})
    events = advance(variant, state, []).events
    assert ("Holland is submerged; its supply centre (owned by France) is destroyed; "
            "A Hol (France) drowns.") in events
    assert ("London is submerged; its supply centre (owned by England) is destroyed; "
            "F Lon (England) stays, now at sea.") in events
    assert "Iceland becomes passable (coastal land)." in events
    assert ("Ruhr becomes a supply centre, controlled by Germany (it lies within Germany's "
            "boundary).") in events


# -- a whole game ------------------------------------------------------------------------------
# Orders by phase (short form); unlisted units hold, unlisted builds are waived. Germany walks
# into Switzerland when it opens and keeps it; everything else sinks around it.
SCRIPT: dict[str, dict[str, list[str]]] = {
    "W1900A": {
        "England": ["Build F Lon", "Build F Edi", "Build A Lvp"],
        "France": ["Build F Bre", "Build A Par", "Build A Mar"],
        "Germany": ["Build F Kie", "Build A Ber", "Build A Mun"],
        "Italy": ["Build F Nap", "Build A Rom", "Build A Ven"],
        "Austria": ["Build A Vie", "Build A Bud", "Build F Tri"],
        "Russia": ["Build F StP/nc", "Build A Mos", "Build A War", "Build F Sev"],
        "Turkey": ["Build F Ank", "Build A Con", "Build A Smy"],
    },
    "S1901M": {
        "England": ["F Lon - NTH", "A Lvp transforms"],
        "France": ["A Mar transforms", "A Par - Bur"],
        "Italy": ["A Ven - Pie"],
        "Russia": ["A War - Ukr"],
    },
    "F1901M": {"Austria": ["A Vie - Tyr"], "Turkey": ["A Con - Bul"]},
    "S1902M": {"England": ["F NTH - Hol"], "Russia": ["F Sev - BLA"]},
    "F1902M": {"France": ["A Bur transforms to F Bur/nc"]},
    "S1905M": {"Germany": ["A Mun - Swi"]},
    "W1908A": {"Germany": ["Remove F Kie"]},
}


def _orders(variant: Variant, state: GameState) -> list[Submitted]:
    return scripted_orders(variant, state, SCRIPT)


def test_whole_game(variant: Variant, tmp_path: Path) -> None:
    recorder = Recorder(variant, "deluge2-1900-1908")
    sunk_by = _canonical(variant, _text_table("Table 1 - Submergences"))
    new_by = _canonical(variant, _text_table("Table 2 - New Supply Centres"))
    base_centres = set(variant.map.centres)
    state = variant.start_state()
    winters = []
    while not state.finished:
        scripted = {t for ts in SCRIPT.get(variant.calendar.short(state.phase), {}).values()
                    for t in ts}
        step = recorder.advance(state, _orders(variant, state))
        played = step.reports[0].results
        assert {r.text for r in played if r.outcome is Outcome.SUCCEEDS} >= scripted
        state = step.state
        for report in step.reports:
            if report.phase.season != "Winter" or report.phase.year < 1901:
                continue
            year = report.phase.year
            winters.append(year)
            gmap = variant.map_for(state)
            sunk = set().union(*(ps for y, ps in sunk_by.items() if y <= year))
            new = set().union(*(ps for y, ps in new_by.items() if y <= year))
            # POSTSTATE_TERRAIN: every province sunk so far is sea, the rest as on the map.
            for p, t in variant.map.terrain.items():
                if p in sunk:
                    want = Terrain.SEA
                elif (p == "Ice" and year >= 1901) or (p == "Swi" and year >= 1904):
                    want = Terrain.LAND
                else:
                    want = t
                assert gmap.terrain[p] is want, (year, p)
            # POSTSTATE_SUPPLYCENTERS: the map's and Table 2's centres not yet submerged.
            assert set(gmap.centres) == (base_centres | new) - sunk, year
    assert winters == list(range(1901, 1909))
    assert state.winners == ("Germany",)
    assert state.units == (Unit("Germany", UnitType.ARMY, Location("Swi")),)
    assert state.owners == {"Swi": "Germany"}
    # The whole game through `gm scenario`, the map checked after every Winter that changes it.
    text = passes_gm_scenario(recorder, tmp_path)
    assert text.count("POSTSTATE_TERRAIN") >= 7 and text.count("POSTSTATE_SUPPLYCENTERS") >= 7
