"""Sahara: the rule cases (tests/scenarios/sahara), the tables against the rule text, the help
text's no-op list, the renamed seasons, and a whole scripted game from Spring 1901 to the end."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.engine.game import advance
from gm.engine.geo import Location, Terrain
from gm.engine.orders import KeepFleet, UnitSpec
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.export.scenario import Recorder
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case
from gm.variants import sahara
from gm.variants.registry import get_variant
from gm.variants.terrain_schedule import TableError, load_tables
from tests.support.scripted import passes_gm_scenario, scripted_orders

DIR = Path(__file__).parent.parent / "scenarios" / "sahara"
CASES: list[Case] = [case for path in sorted(DIR.glob("*.txt")) for case in read_file(path)]
CASE_COUNT = 194  # 126, 14 in review2_phases.txt (phase transitions), 54 in review3_rules.txt
TABLES = Path(__file__).resolve().parent.parent / "data" / "rules" / "sahara-tables.txt"
RULES = TABLES.read_text(encoding="utf-8")  # the rule text's tables
TITLES = {
    "land": "Season Sea Space changes to Land",
    "lose": "Season SC changes to Ordinary Space",
    "centre": "Season Ordinary Space changes to SC",
    "impassable": "Season Spaces Become Impassable",
}


@pytest.fixture(scope="module")
def variant() -> Variant:
    return get_variant("Sahara")


# -- the rule cases ----------------------------------------------------------------------------
def test_case_count_and_names() -> None:
    assert len(CASES) == CASE_COUNT >= 40
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"


def test_every_case_cites_its_rule() -> None:
    for path in DIR.glob("*.txt"):
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                j = i
                while lines[j - 1].startswith("#"):
                    j -= 1
                assert lines[j:i], f"{path}:{i + 1}: no comment"
                assert lines[j].startswith("# Sahara rule"), f"{path}:{i + 1}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)


# -- the tables are the rule text's ------------------------------------------------------------
def _text_table(variant: Variant, kind: str) -> list[tuple[str, list[str]]]:
    """(`A02`, [canonical provinces]) for each line of the rule text's table, in order; `A11 All
    the rest except Ice` gives ("A11", ["*", "Ice"])."""
    part = RULES.split(TITLES[kind], 1)[1]
    out: list[tuple[str, list[str]]] = []
    for line in part.splitlines()[1:]:
        m = re.match(r"^([SA]\d\d) (.+)$", line.strip())
        if m is None:
            if out:
                break
            continue
        text = re.sub(r" becomes passable( land space)?$", "", m.group(2).rstrip("."))
        if text.startswith("All the rest except "):
            out.append((m.group(1), ["*", text.removeprefix("All the rest except ")]))
            continue
        names = [variant.map.lookup(n.strip()) for n in text.split(",")]
        assert None not in names, line
        out.append((m.group(1), [n for n in names if n is not None]))
    return out


def _key(season: str, year: int) -> str:
    return f"{'S' if season == 'Spring' else 'A'}{year % 100:02d}"


@pytest.mark.parametrize("kind", ["land", "lose", "centre", "impassable"])
def test_tables_are_the_rule_text(variant: Variant, kind: str) -> None:
    text = _text_table(variant, kind)
    data = [(_key(e.season, e.year), list(e.provinces)) for e in variant.scheduled
            if e.kind == kind or (kind == "lose" and e.kind == "lose-all-except")]
    if kind == "lose":
        *text, (last, rest) = text
        assert (last, rest) == ("A11", ["*", "Ice"])
        *data, tail = data
        assert tail == ("A11", ["Ice"])
    assert data == text
    assert len(text) >= 7


def test_help_lists_the_no_ops(variant: Variant) -> None:
    text = variant.help
    for words in ("S05 centre GoL (LYO): already a supply centre",
                  "S06 centre Tri: already a supply centre",
                  "A06 impassable Nap: already impassable",
                  "A08 impassable Rum: listed twice",
                  "A09 lose Tri: not a supply centre then",
                  "A10 impassable Pie: listed twice",
                  "S10 lose Tyr: not a supply centre then"):
        assert words in text, words
    for words in ("no change", "Early Summer", "Between Summers 1911", "Amy = Smyrna",
                  "18-centre", "Aegean", "A11 lose-all-except Ice"):
        assert words in text, words


def test_loader_refuses_an_unknown_name(variant: Variant, tmp_path: Path) -> None:
    path = tmp_path / "bad.tables"
    path.write_text("A02 land EMS, Atlantis\n")
    with pytest.raises(TableError, match=r"bad\.tables:1: 'Atlantis' is not a province"):
        load_tables(path, variant.map, variant.calendar, sahara.KINDS)


# -- the variant -------------------------------------------------------------------------------
def test_variant_setup(variant: Variant) -> None:
    assert variant.name == "sahara"
    assert variant.start_phase == Phase("Spring", 1901, PhaseType.MOVEMENT)
    assert len(variant.start_units) == 22
    assert variant.solo_centres is None
    assert variant.order_kinds == frozenset({"keep fleet"})


def test_seasons_renamed_from_1905(variant: Variant) -> None:
    cal = variant.calendar
    assert cal.format(Phase("Spring", 1904, PhaseType.MOVEMENT)) == "Spring 1904, Movement"
    assert cal.format(Phase("Spring", 1905, PhaseType.MOVEMENT)) == "Early Summer 1905, Movement"
    assert cal.format(Phase("Fall", 1905, PhaseType.RETREAT)) == "Late Summer 1905, Retreat"
    assert cal.format(Phase("Winter", 1905, PhaseType.ADJUSTMENT)) == (
        "Between Summers 1905, Adjustment")
    for text in ("Late Summer 1906, Movement", "Autumn 1906, Movement", "Fall 1906"):
        assert cal.parse(text) == Phase("Fall", 1906, PhaseType.MOVEMENT), text
    assert cal.parse("Between Summers 1907") == Phase("Winter", 1907, PhaseType.ADJUSTMENT)


def test_keep_fleet_result_and_event(variant: Variant) -> None:
    state = GameState("sahara", Phase("Fall", 1903, PhaseType.MOVEMENT),
                      units=(Unit("Russia", UnitType.FLEET, Location("BLA")),
                             Unit("Turkey", UnitType.ARMY, Location("Ank"))))
    order = KeepFleet(UnitSpec(UnitType.FLEET, Location("BLA")))
    step = advance(variant, state, [Submitted("Russia", "F BLA no change", order)])
    (result,) = [r for r in step.results if r.order == order]
    assert result.outcome is Outcome.SUCCEEDS
    assert ("F BLA (Russia) is stranded inland and is disbanded, as Russia ordered."
            in step.events)
    assert "The Black Sea dries up and becomes land." in step.events
    assert step.state.units == (Unit("Turkey", UnitType.ARMY, Location("Ank")),)
    assert not any(k.startswith("keep-fleet") for k in step.state.extra)


# -- a whole game ------------------------------------------------------------------------------
# Orders by phase (short form); unlisted units hold, unlisted builds are waived. England sails to
# the Norwegian Sea, is left there as an army when it dries (S06), walks into Iceland and holds it.
SCRIPT: dict[str, dict[str, list[str]]] = {
    "S1901M": {"England": ["F Edi - NWG"], "Italy": ["F Nap - ION"]},
    "F1901M": {"Turkey": ["F Ank - BLA"]},
    "F1902M": {"Italy": ["F ION - TYS"]},
    "F1903M": {"Turkey": ["F BLA no change"]},
    "F1906M": {"England": ["A NWG - Ice"]},
    "W1911A": {"England": ["Remove A Lon", "Remove A Lvp"]},
}


def _orders(variant: Variant, state: GameState) -> list[Submitted]:
    return scripted_orders(variant, state, SCRIPT)


def _expected_maps(variant: Variant) -> dict[str, tuple[dict[str, Terrain], set[str]]]:
    """Season key -> (terrain, centres) after it, computed from the rule text's tables."""
    tables = {kind: dict(_text_table(variant, kind)) for kind in TITLES}
    terrain = dict(variant.map.terrain)
    centres = set(variant.map.centres)
    out = {}
    for year in range(1901, 1912):
        for s in "SA":
            key = f"{s}{year % 100:02d}"
            for p in tables["land"].get(key, []):
                terrain[p] = Terrain.LAND
            for p in tables["impassable"].get(key, []):
                terrain[p] = Terrain.IMPASSABLE
            lost = tables["lose"].get(key, [])
            if lost[:1] == ["*"]:
                centres &= set(lost[1:])
            else:
                centres -= set(lost)
            centres |= set(tables["centre"].get(key, []))
            out[key] = (dict(terrain), set(centres))
    return out


def test_whole_game(variant: Variant, tmp_path: Path) -> None:
    recorder = Recorder(variant, "sahara-1901-1911")
    expected = _expected_maps(variant)
    state = variant.start_state()
    seasons = []
    while not state.finished:
        scripted = {t for ts in SCRIPT.get(variant.calendar.short(state.phase), {}).values()
                    for t in ts}
        step = recorder.advance(state, _orders(variant, state))
        played = step.reports[0].results
        assert {r.text for r in played if r.outcome is Outcome.SUCCEEDS} >= scripted
        state = step.state
        ends = [r.phase for r in step.reports if r.phase.type is PhaseType.RETREAT]
        if not ends:
            continue
        key = _key(ends[-1].season, ends[-1].year)
        seasons.append(key)
        terrain, centres = expected[key]
        gmap = variant.map_for(state)
        assert dict(gmap.terrain) == terrain, key  # POSTSTATE_TERRAIN, every province
        assert set(gmap.centres) == centres, key  # POSTSTATE_SUPPLYCENTERS
        if key == "A09":
            assert state.owners.get("Ice") == "England"  # taken in the Autumn 1909 update
    assert len(seasons) == 22 and seasons[0] == "S01" and seasons[-1] == "A11"
    assert state.phase.year >= 1911 and state.winners == ("England",)
    assert Unit("England", UnitType.ARMY, Location("Ice")) in state.units
    assert state.owners == {"Ice": "England"}
    # The whole game through `gm scenario`, the map checked after every season that changes it.
    text = passes_gm_scenario(recorder, tmp_path)
    assert text.count("POSTSTATE_TERRAIN") >= 10 and text.count("POSTSTATE_SUPPLYCENTERS") >= 10
