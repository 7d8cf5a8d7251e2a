"""Abstraction2: the map derived from gm/variants/data/abstraction2.map against the
transcription (tests/data/abstraction2/transcription.yaml), rule 4's passages, and the map
format's `passage` line the map needs."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.engine.army_fleet import unit_count
from gm.engine.errors import OrderError
from gm.engine.game import start_state
from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Submitted
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.export.scenario import Recorder
from gm.notation import parse_orders
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case
from gm.variants.abstraction2 import frozen_rules
from gm.variants.mapdata import MapDataError, load_map, parse_map
from gm.variants.maps import map_data, ring_map
from gm.variants.registry import canonical_name, get_variant
from gm.variants.standard import start_units
from tests.support.scripted import passes_gm_scenario

YAML = Path(__file__).resolve().parent.parent / "data" / "abstraction2" / "transcription.yaml"
POWER_NAMES = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def _yaml_provinces() -> dict[str, tuple[str, str, bool]]:
    """abbr -> (full name, type, centre), read from the transcription's provinces section."""
    pattern = re.compile(
        r"^  (\w+): \{name: ([^,]+), type: (\w+), sc: (true|false)\}$", re.MULTILINE
    )
    return {m[1]: (m[2], m[3], m[4] == "true") for m in pattern.finditer(YAML.read_text())}


def _yaml_borders() -> dict[frozenset[str], set[str]]:
    """{A, B} -> the unit kinds that cross the border (army, fleet), from the borders section."""
    pattern = re.compile(r"^  - \[(\w+), (\w+), (army|fleet|army\+fleet)\]$", re.MULTILINE)
    return {
        frozenset((m[1], m[2])): set(m[3].split("+")) for m in pattern.finditer(YAML.read_text())
    }


def _derived_borders(gmap: GameMap) -> dict[frozenset[str], set[str]]:
    out: dict[frozenset[str], set[str]] = {}
    for p, ns in gmap.army_adj.items():
        for q in ns:
            out.setdefault(frozenset((p, q)), set()).add("army")
    for loc, locs in gmap.fleet_adj.items():
        for other in locs:
            out.setdefault(frozenset((loc.province, other.province)), set()).add("fleet")
    return out


def _set(words: str) -> set[str]:
    return set(words.split())


@pytest.fixture(scope="module")
def gmap() -> GameMap:
    return ring_map("abstraction2")


# -- counts (rule 1; TRANSCRIPTION-NOTES section 1) ----------------------------------------------


def test_transcription_is_read_whole() -> None:
    # The notes count 118 provinces and 338 borders; the reader must see all of them.
    assert len(_yaml_provinces()) == 118
    assert len(_yaml_borders()) == 338


def test_provinces_terrain_and_names_match_the_transcription(gmap: GameMap) -> None:
    provinces = _yaml_provinces()
    assert set(gmap.provinces) == set(provinces)
    for abbr, (name, kind, _) in provinces.items():
        prov = gmap.provinces[abbr]
        assert prov.name == name, abbr
        if kind == "sea":
            assert gmap.terrain[abbr] is Terrain.SEA, abbr
            continue
        assert gmap.terrain[abbr] is Terrain.LAND, abbr
        coastal = Location(abbr) in gmap.fleet_adj
        assert coastal == (kind == "coastal"), abbr  # coastal vs inland comes from the rings
    kinds = [k for _, k, _ in provinces.values()]
    assert (kinds.count("sea"), kinds.count("coastal"), kinds.count("inland")) == (32, 59, 27)


def test_46_centres_29_homes_17_neutral(gmap: GameMap) -> None:
    # Rule 1: "There are 46 supply centres, 29 home centres, 17 neutrals."
    provinces = _yaml_provinces()
    assert gmap.centres == frozenset(a for a, (_, _, sc) in provinces.items() if sc)
    assert len(gmap.centres) == 46
    homes = {a: p.home for a, p in gmap.provinces.items() if p.home}
    assert len(homes) == 29
    assert len(gmap.centres - set(homes)) == 17
    assert gmap.centres - set(homes) == _set(
        "Bel Bul Den Gre Hol Nwy Por Rum Ser Swe Tun Cas And Mor Egy Ire Zur"
    )
    by_power: dict[str, set[str]] = {}
    for abbr, power in homes.items():
        by_power.setdefault(power, set()).add(abbr)
    # TRANSCRIPTION-NOTES section 1 (Arc: a Russian home centre by the rules, no star drawn).
    assert by_power == {
        "Austria": {"Vie", "Bud", "Pec", "Zar"},
        "England": {"Lon", "Edi", "Lvp", "Ply"},
        "France": {"Bre", "Par", "Mar", "Lyo"},
        "Germany": {"Ber", "Mun", "Kie", "Dre"},
        "Italy": {"Rom", "Ven", "Nap", "Sic"},
        "Russia": {"Mos", "War", "StP", "Ode", "Arc"},
        "Turkey": {"Con", "Smy", "Sin", "Dam"},
    }


def test_every_transcribed_border_is_an_adjacency_of_its_kind(gmap: GameMap) -> None:
    expected = _yaml_borders()
    derived = _derived_borders(gmap)
    wrong = {
        "-".join(sorted(pair)): (sorted(expected.get(pair, ())), sorted(derived.get(pair, ())))
        for pair in expected.keys() | derived.keys()
        if expected.get(pair, set()) != derived.get(pair, set())
    }
    assert wrong == {}


def test_no_split_coasts(gmap: GameMap) -> None:
    # TRANSCRIPTION-NOTES section 1: "Split coasts: none" (StP, Bul, Den, Kie, Con one coast).
    assert dict(gmap.coasts) == {}
    assert Location("StP") in gmap.fleet_adj
    assert Location("StP", "nc") not in gmap.fleet_adj


# -- rule 4: direct passage ------------------------------------------------------------------


def _fleet(gmap: GameMap, a: str, b: str) -> bool:
    return Location(b) in gmap.fleet_adj.get(Location(a), frozenset())


@pytest.mark.parametrize(("a", "b"), [("Nap", "Sic"), ("And", "Mor")])
def test_rule4_direct_passage_for_armies_and_fleets(gmap: GameMap, a: str, b: str) -> None:
    # Rule 4: "Units may move directly between Naples and Sicily and between Andalucia and
    # Morocco without convoy."
    assert b in gmap.army_adj[a] and a in gmap.army_adj[b]
    assert _fleet(gmap, a, b) and _fleet(gmap, b, a)


@pytest.mark.parametrize(("a", "b"), [("CMS", "TYS"), ("SAO", "WMS")])
def test_rule4_seas_stay_adjacent_for_fleets(gmap: GameMap, a: str, b: str) -> None:
    # Rule 4: "This does not prevent fleets from moving directly between the Central
    # mediterranean and the Tyrrhenian Sea or between the South Atlantic and the Western
    # Mediterranean."
    assert _fleet(gmap, a, b) and _fleet(gmap, b, a)
    assert b in gmap.borders[a]


def test_rule4_egypt_arabia_armies_only(gmap: GameMap) -> None:
    # Rule 4: "Armies may move directly between Egypt and Arabia." (Arabia is inland.)
    assert "Ara" in gmap.army_adj["Egy"] and "Egy" in gmap.army_adj["Ara"]
    assert Location("Ara") not in gmap.fleet_adj


def test_rule4_lorraine_swabia_not_adjacent(gmap: GameMap) -> None:
    # Rule 4: "Armies may not move directly between Lorraine and Swabia."
    assert "Swa" not in gmap.army_adj["Lor"] and "Lor" not in gmap.army_adj["Swa"]
    assert "Swa" not in gmap.borders["Lor"]


def test_crete_is_no_province(gmap: GameMap) -> None:
    # TRANSCRIPTION-NOTES 2.3: across Crete, AEG-EMS and CMS-CYS are not adjacent.
    assert "EMS" not in gmap.borders["AEG"]
    assert "CYS" not in gmap.borders["CMS"]


def test_frozen_spaces_and_names(gmap: GameMap) -> None:
    # Rule 5's frozen spaces exist with the seed's names; rule 1's abbreviation list is read.
    assert {gmap.terrain[p] for p in ("ARO", "BAR")} == {Terrain.SEA}
    for p in ("Arc", "Lap", "Ice"):
        assert Location(p) in gmap.fleet_adj  # coastal land
    names = gmap.names
    assert names["ris"] == "RIG"
    assert names["artic ocean"] == "ARO"
    assert names["central med."] == "CMS"
    assert names["lyo"] == "Lyo" and names["gol"] == "GoL"
    assert names["mid"] == "MAO" and names["lpl"] == "Lvp"


def test_board_edges(gmap: GameMap) -> None:
    # The outer edge of the transcription: ARO-DMS-DBS-AZO-Mor-Alg-Lib-Egy-Ara-Mes-Per-Vol-Arc-BAR.
    on_edge = {p for p, es in gmap.edges.items() if es & {"~N", "~E", "~S", "~W"}}
    assert on_edge == _set("ARO DMS DBS AZO Mor Alg Lib Egy Ara Mes Per Vol Arc BAR")
    assert gmap.polar == frozenset({"DMS", "ARO", "BAR", "Arc"})


def test_map_data_passages() -> None:
    assert map_data("abstraction2").passages == {("CMS", "TYS"), ("SAO", "WMS")}


# -- the `passage` line of the map format -----------------------------------------------------

# Four seas meeting at one point; the rings make Nw-Se a border, a passage joins Ne and Sw.
_FOUR = """\
edge ~N "top"
edge ~E "right"
edge ~S "bottom"
edge ~W "left"
{passage}
Nw sea "North West" at 25,25
    ring ~N Ne Se Sw ~W
Ne sea "North East" at 75,25
    ring ~N ~E Se Nw
Se sea "South East" at 75,75
    ring Ne ~E ~S Sw Nw
Sw sea "South West" at 25,75
    ring Nw Se ~S ~W
"""


def test_passage_joins_seas_meeting_at_a_point() -> None:
    without = parse_map(_FOUR.format(passage=""), "four.map").game_map()
    assert Location("Sw") not in without.fleet_adj[Location("Ne")]
    data = parse_map(_FOUR.format(passage="passage Ne Sw"), "four.map")
    gmap = data.game_map()
    assert Location("Sw") in gmap.fleet_adj[Location("Ne")]
    assert Location("Ne") in gmap.fleet_adj[Location("Sw")]
    assert "Ne" in gmap.borders["Sw"]


def test_passage_between_land_is_for_armies() -> None:
    text = _FOUR.format(passage="passage Ne Sw").replace(" sea ", " land ")
    gmap = parse_map(text, "four.map").game_map()
    assert "Sw" in gmap.army_adj["Ne"] and "Ne" in gmap.army_adj["Sw"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("passage Ne Xx", "unknown province 'Xx' in a passage"),
        ("passage Nw Se", "Nw and Se already border each other: no passage"),
        ("passage Ne", "a passage is written: passage <A> <B>"),
    ],
)
def test_bad_passages(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "four.map"
    path.write_text(_FOUR.format(passage=line))
    with pytest.raises(MapDataError) as info:
        load_map(path)
    assert info.value.message == message
    assert info.value.line == 5


def test_passage_declared_twice(tmp_path: Path) -> None:
    path = tmp_path / "four.map"
    path.write_text(_FOUR.format(passage="passage Ne Sw\npassage Sw Ne"))
    with pytest.raises(MapDataError) as info:
        load_map(path)
    assert info.value.message == "the passage Sw-Ne is declared twice"


# -- the variant -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def variant() -> Variant:
    return get_variant("abstraction2")


@pytest.mark.parametrize("name", ["abstraction2", "Abstraction2", "Abstraction II", "abstraction"])
def test_names(name: str) -> None:
    assert canonical_name(name) == "abstraction2"


def test_starting_units_are_rule_1s(variant: Variant) -> None:
    # Rule 1: the units of each power, Austria's army for Budapest in Tyrolia.
    start = {p: sorted(str(u) for u in variant.start_units if u.power == p) for p in POWER_NAMES}
    assert start == {
        "Austria": ["A Pec", "A Tyr", "A Vie", "F Zar"],
        "England": ["A Lvp", "F Edi", "F Lon", "F Ply"],
        "France": ["A Lyo", "A Par", "F Bre", "F Mar"],
        "Germany": ["A Ber", "A Dre", "A Mun", "F Kie"],
        "Italy": ["A Rom", "A Ven", "F Nap", "F Sic"],
        "Russia": ["A Arc", "A Mos", "A War", "F Ode", "F StP"],
        "Turkey": ["A Con", "A Smy", "F Dam", "F Sin"],
    }
    state = variant.start_state()
    assert state.owners["Bud"] == "Austria" and state.unit_in("Bud") is None
    assert len(state.owners) == 29


def test_calendar_months(variant: Variant) -> None:
    # Rule 2 and RULINGS: July 1914 first; adjustments in Sep, Dec, Mar, Jun; ownership updates
    # after Aug, Nov, Feb, May.
    cal = variant.calendar
    assert variant.start_phase == Phase("July", 1914, PhaseType.MOVEMENT)
    assert variant.format_phase(variant.start_phase) == "July 1914, Movement"
    phase = variant.start_phase
    seen = []
    for _ in range(13):
        seen.append(cal.short(phase))
        phase = cal.next(phase)
        while phase.type is PhaseType.RETREAT:
            phase = cal.next(phase)
    assert seen == [
        "Jul1914M", "Aug1914M", "Sep1914A", "Oct1914M", "Nov1914M", "Dec1914A", "Jan1915M",
        "Feb1915M", "Mar1915A", "Apr1915M", "May1915M", "Jun1915A", "Jul1915M",
    ]
    updates = {s.name for s in cal.seasons if s.updates_ownership}
    assert updates == {"August", "November", "February", "May"}
    assert cal.parse("Oct1914R") == Phase("October", 1914, PhaseType.RETREAT)
    assert cal.parse("March 1915, Adjustment") == Phase("March", 1915, PhaseType.ADJUSTMENT)


def test_order_kinds_and_help(variant: Variant) -> None:
    assert variant.order_kinds == frozenset({"af", "exchange"})
    for words in ("July 1914", "Exchange Bel Den for Hol Kie with Germany", "A Lon boards F ENG",
                  "23 centres", "most units", "frozen", "Archangel", "Lorraine and Swabia"):
        assert words in variant.help, words


def test_frozen_rules_only_in_frozen_months(variant: Variant) -> None:
    units = start_units({"Russia": ("F BAR", "A Lap", "A Arc"), "England": ("A Ice", "F NWG")})
    state = variant.start_state().evolve(units=units)
    for month in ("January", "February", "April"):
        rules = frozen_rules(state.evolve(phase=Phase(month, 1915, PhaseType.MOVEMENT)))
        assert rules.hold_only == {"BAR"}
        assert rules.undislodgeable == {"BAR", "Lap", "Arc"}
        assert rules.no_convoy_from == {"Lap", "Arc"}
    for month in ("March", "May", "July", "December"):
        kind = PhaseType.ADJUSTMENT if month in ("March", "December") else PhaseType.MOVEMENT
        rules = frozen_rules(state.evolve(phase=Phase(month, 1915, kind)))
        assert not (rules.hold_only or rules.undislodgeable or rules.no_convoy_from)


# -- a whole game ------------------------------------------------------------------------------

# Orders by phase (short form); every unit not ordered holds, missing builds are waived.
_GAME = {
    # Rule 6: Germany and Russia exchange Dresden and Warsaw, both armies leaving them.
    "Jul1914M": ["Germany: A Dre - Boh", "Russia: A War - Ukr", "Russia: A Arc - Lap",
                 "Germany: Exchange Dre for War with Russia",
                 "Russia: Exchange War for Dre with Germany",
                 "England: F Lon - ENG", "England: A Lvp - Wal", "France: A Par - Pic",
                 "France: F Mar - GoL", "Italy: A Ven - Pie", "Italy: F Nap - TYS",
                 "Turkey: A Con - Bul", "Austria: A Pec - Ser", "Germany: F Kie - Den",
                 "Russia: F StP - Fin"],
    "Aug1914M": ["England: A Wal - Lon", "France: A Pic - Bel", "Italy: F TYS - Tun",
                 "Germany: F Den - Swe"],
    "Sep1914A": ["France: Build A Par", "Italy: Build F Nap", "Turkey: Build A Con",
                 "Austria: Build A Pec", "Germany: Build F Kie"],
    # Rule 3: England's army boards the fleet in the Channel.
    "Oct1914M": ["England: A Lon boards F ENG", "Italy: A Pie - Mar"],
    # ... and lands in Picardy; France drives Italy out of Marseilles.
    "Nov1914M": ["England: A/F ENG disembarks Pic", "France: A Lyo - Mar",
                 "France: F GoL S A Lyo - Mar"],
    "Nov1914R": ["Italy: A Mar - Pie"],
    # Rule 5: the army in frozen Lapland leaves overland; in March Russia builds a fleet in
    # Archangel, which must stand in April and moves in May.
    "Jan1915M": ["Russia: A Lap - Nwy"],
    "Mar1915A": ["Russia: Build F Arc"],
    "Apr1915M": ["Russia: F Arc - BAR"],
    "May1915M": ["Russia: F Arc - BAR"],
}


def _orders(variant: Variant, state: GameState, lines: list[str]) -> list[Submitted]:
    gmap = variant.map_for(state)
    out: list[Submitted] = []
    for line in lines:
        power, text = line.split(": ", 1)
        parsed = parse_orders(text, gmap, state.phase.type, variant.order_kinds)
        assert not isinstance(parsed, OrderError), (line, parsed)
        out += [Submitted(power, text, order) for order in parsed]
    return out


def test_a_whole_game_july_1914_to_december_1918(variant: Variant, tmp_path: Path) -> None:
    state = start_state(variant)
    recorder = Recorder(variant, "abstraction2-1914-1918")
    played: list[str] = []
    results: dict[str, dict[str, tuple[str, str]]] = {}
    events: dict[str, tuple[str, ...]] = {}
    while not state.finished:
        code = variant.calendar.short(state.phase)
        played.append(code)
        step = recorder.advance(state, _orders(variant, state, _GAME.get(code, [])))
        results[code] = {r.text: (r.outcome.value, r.reason) for r in step.results}
        events[code] = step.events
        state = step.state
    # Rule 2: a movement phase every month but March, June, September and December (those
    # adjust when someone builds or removes); a retreat after the moves when a unit is dislodged.
    assert played[:11] == [
        "Jul1914M", "Aug1914M", "Sep1914A", "Oct1914M", "Nov1914M", "Nov1914R",
        "Jan1915M", "Feb1915M", "Mar1915A", "Apr1915M", "May1915M",
    ]
    months = ("Jan", "Feb", "Apr", "May", "Jul", "Aug", "Oct", "Nov")
    movement = [f"{m}{y}M" for y in range(1914, 1919) for m in months]
    assert [c for c in played if c.endswith("M")] == movement[4:]  # from July 1914
    assert {c[:3] for c in played if c.endswith("A")} <= {"Mar", "Jun", "Sep", "Dec"}
    # Rule 6: the exchange at the end of July 1914.
    assert results["Jul1914M"]["Exchange Dre for War with Russia"][0] == "succeeds"
    assert any("exchange centres" in e for e in events["Jul1914M"])
    # Rule 3: boarding, then landing.
    assert results["Oct1914M"]["A Lon boards F ENG"][0] == "succeeds"
    assert results["Nov1914M"]["A/F ENG disembarks Pic"][0] == "succeeds"
    # Rule 5 and the March build in Archangel.
    assert results["Jan1915M"]["A Lap - Nwy"][0] == "succeeds"
    assert results["Mar1915A"]["Build F Arc"][0] == "succeeds"
    assert results["Apr1915M"]["F Arc - BAR"][0] == "illegal"
    assert results["May1915M"]["F Arc - BAR"][0] == "succeeds"
    # Rule 2: the game ends after the December 1918 adjustments; rule 7: most units wins.
    assert state.finished
    assert state.phase == Phase("January", 1919, PhaseType.MOVEMENT)
    counts = {p: unit_count(state, p) for p in variant.power_names}
    most = max(counts.values())
    assert state.winners == tuple(sorted(p for p, n in counts.items() if n == most))
    assert state.owners["Dre"] == "Russia" and state.owners["War"] == "Germany"
    # The whole game, one case per phase, through `gm scenario`.
    passes_gm_scenario(recorder, tmp_path)


# -- the scenario files (tests/scenarios/abstraction2) ------------------------------------------

SCENARIOS = Path(__file__).parent.parent / "scenarios" / "abstraction2"
CASES: list[Case] = [c for path in sorted(SCENARIOS.glob("*.txt")) for c in read_file(path)]

# Cases per file of the rules this module owns (af_*.txt hold the A/F rules' cases, rule 3).
RULE_FILES = {
    "rule1_map.txt": 7,
    "rule2_calendar.txt": 18,
    "rule4_passage.txt": 10,
    "rule5_frozen.txt": 22,
    "rule6_exchange.txt": 12,
    "rule7_victory.txt": 9,
}


# Cases per file of the review written from the rule text and RULINGS alone (every sentence of
# rules 1-7 and every Abstraction2 ruling at least once; review_rule3_*.txt: the A/F rules).
REVIEW_FILES = {
    "review_rule1_2_calendar.txt": 18,
    "review_rule3_af.txt": 46,
    "review_rule3_af_more.txt": 39,
    "review_rule4_passage.txt": 16,
    "review_rule5_frozen.txt": 25,
    "review_rule6_7.txt": 19,
    "review2_phases.txt": 23,  # across phases: retreats, adjustments, civil disorder, A/F
    "review3_rules.txt": 63,  # a third review: every rule sentence, edge cases across rules
}


def test_scenario_files_and_counts() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    per_file = {name: sum(1 for c in CASES if Path(c.path).name == name) for name in RULE_FILES}
    assert per_file == RULE_FILES
    review = {name: sum(1 for c in CASES if Path(c.path).name == name) for name in REVIEW_FILES}
    assert review == REVIEW_FILES
    assert {c.variant.lower() for c in CASES} == {"abstraction2"}


def test_review_cases_cite_a_rule() -> None:
    for name in REVIEW_FILES:
        lines = (SCENARIOS / name).read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                j = i
                while j > 0 and lines[j - 1].startswith("#"):
                    j -= 1
                heading = " ".join(lines[j:i])
                assert "Abstraction2 rule" in heading or "RULINGS" in heading, f"{name}:{i + 1}"


def test_rule_cases_cite_their_rule() -> None:
    for name in RULE_FILES:
        rule = name[4]
        lines = (SCENARIOS / name).read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                j = i
                while j > 0 and lines[j - 1].startswith("#"):
                    j -= 1
                heading = " ".join(lines[j:i])
                assert f"Abstraction2 rule {rule}" in heading, f"{name}:{i + 1}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_scenario_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)


def test_an_exchange_is_judged_on_arrival_through_the_hook_set(variant: Variant) -> None:
    """Taking orders reaches rule 6 through the variant's hooks (`on_arrival`): a typed reason
    for an exchange that cannot be carried out, none for one that can be as far as is known
    before the moves, and no judgement of the other orders."""
    from gm.engine.orders import Exchange, Hold, UnitSpec
    from gm.engine.reasons import Fate, Reason

    check = variant.hooks.on_arrival
    assert check is not None
    state = start_state(variant)
    while state.phase.type is not PhaseType.MOVEMENT:
        state = state.evolve(phase=variant.calendar.next(state.phase))
    power, partner = variant.power_names[0], variant.power_names[1]
    mine = sorted(state.centres_of(power))[0]
    theirs = sorted(state.centres_of(partner))[0]
    unequal = check(variant, state, power, Exchange(partner, (mine,), (theirs, mine)))
    assert unequal is not None
    assert unequal.why == Reason(Fate.EXCHANGE_UNEQUAL, count=1, against=2)
    nobody = check(variant, state, power, Exchange("Atlantis", (mine,), (theirs,)))
    assert nobody is not None and nobody.why == Reason(Fate.EXCHANGE_NO_SUCH_POWER,
                                                       other="Atlantis")
    fine = check(variant, state, power, Exchange(partner, (mine,), (theirs,)))
    assert fine is not None and fine.why is None
    unit = state.units_of(power)[0]
    assert check(variant, state, power, Hold(UnitSpec(unit.type, unit.location))) is None
