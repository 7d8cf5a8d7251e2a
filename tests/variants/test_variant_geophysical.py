"""Geophysical Diplomacy: the scenario cases, the variant's set-up, names, and a scripted game of
several years through the real order parser and adjudicator (rules/geophysical.txt; RULINGS:
Geophysical)."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.engine.errors import OrderError
from gm.engine.game import GameStep, advance
from gm.engine.geo import Location, Terrain
from gm.engine.orders import Convoy, GeoEvent, GeoKind, GeoTarget, Stabilize
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant
from gm.export.scenario import Recorder
from gm.notation import parse_order
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case
from gm.variants.geo_events import display_name
from gm.variants.registry import get_variant
from tests.support.scripted import passes_gm_scenario

SCENARIOS = Path(__file__).parent.parent / "scenarios" / "geophysical"
CASES: list[Case] = [case for path in sorted(SCENARIOS.glob("*.txt")) for case in read_file(path)]


@pytest.fixture(scope="module")
def geo() -> Variant:
    return get_variant("geophysical")


# -- the scenario files ------------------------------------------------------------------------
# Cases per file: strength and support (rules 1, 3), combined events (rules 2, 6), earthquakes
# (rule 2d), ice (rules 2e, 8), the map after the events (rules 4, 7, 9).
FILE_SIZES = {"strength": 21, "combine": 13, "earthquake": 8, "ice": 17, "map": 15,
              # review cases written from the rule text and RULINGS alone
              "review_strength": 12, "review_terrain": 20, "review_earthquake": 8,
              "review_ice": 18, "review_centres": 13, "review_more": 16,
              # phase transitions: Autumn events, Winters on changed terrain, retreats
              "review2_phases": 11,
              # a third review: every rule sentence, interactions between the rules
              "review3_rules": 64}


def test_scenario_files_cover_the_rules() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)) == sum(FILE_SIZES.values()) >= 40
    for stem, size in FILE_SIZES.items():
        assert len(read_file(SCENARIOS / f"{stem}.txt")) == size
    assert all(c.variant.lower() == "geophysical" for c in CASES)
    for path in SCENARIOS.glob("*.txt"):
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                j = i
                while lines[j - 1].startswith("#"):
                    j -= 1
                heading = " ".join(lines[j:i])
                assert re.search(r"Geophysical rules? \d", heading), f"{path}:{i + 1}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_geophysical_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)


# -- set-up, names, help -----------------------------------------------------------------------
def test_names_and_start(geo: Variant) -> None:
    for alias in ("Geophysical Diplomacy", "geo", "GEOPHYSICAL"):
        assert get_variant(alias) is geo
    assert geo.order_kinds == {"geo"} and geo.solo_centres == 18
    gmap = geo.map_for(geo.start_state())
    # RULINGS: Geophysical: Swi a mountain, Ice coastal land, CAS a lake; Ire stays off the board
    assert gmap.terrain["Swi"] is Terrain.MOUNTAIN and not gmap.is_passable("Swi")
    assert gmap.terrain["Ice"] is Terrain.LAND and gmap.is_coastal("Ice")
    assert gmap.terrain["CAS"] is Terrain.LAKE and gmap.is_coastal("Mos")
    assert gmap.terrain["Ire"] is Terrain.IMPASSABLE
    assert Unit("Russia", UnitType.FLEET, Location("Sev", "sc")) in geo.start_units
    assert len(geo.start_units) == 22


def test_help_states_rules_and_decisions(geo: Variant) -> None:
    for words in ("Support TURKISH Erode Mos", "neutral", "Ireland", "last one given counts",
                  "several earthquakes on one border act as one", "filled in", "Sev/sc"):
        assert words in " ".join(geo.help.split())


def test_names_follow_terrain(geo: Variant) -> None:
    """Geophysical rule 9: seas in capitals, land in title case; the parser takes any case."""
    state = geo.start_state()
    state = state.evolve(terrain={**state.terrain, "Bur": Terrain.SEA, "NTH": Terrain.LAND})
    gmap = geo.map_for(state)
    assert display_name("Bur", gmap) == "BUR" and display_name("NTH", gmap) == "Nth"
    assert display_name("StP", gmap) == "StP" and display_name("ENG", gmap) == "ENG"
    assert geo.hooks.display_names is not None
    assert geo.hooks.display_names(gmap, "F Bur C A Bel - Mar") == "F BUR C A Bel - Mar"
    assert geo.hooks.display_names(gmap, "F(NTH) C A(Bel)-Hol") == "F(Nth) C A(Bel)-Hol"
    order = parse_order("F(BUR) C A(Bel)-Mar", gmap, None, geo.order_kinds)
    assert isinstance(order, Convoy) and order.unit.location.province == "Bur"
    assert parse_order("erode mos", gmap, None, geo.order_kinds) == GeoEvent(
        GeoKind.ERODE, GeoTarget("Mos"))
    stab = parse_order("2 stabilise MOS", gmap, None, geo.order_kinds)
    assert isinstance(stab, Stabilize) and stab.count == 2


# -- playing -----------------------------------------------------------------------------------
def play(geo: Variant, state: GameState, orders: Mapping[str, Sequence[str]],
         recorder: Recorder | None = None) -> GameStep:
    """Advance one phase with orders as players write them, read by the real parser against the
    map as it stands before the phase (as the service does)."""
    gmap = geo.map_for(state)
    submitted = []
    for power, lines in orders.items():
        for text in lines:
            parsed = parse_order(text, gmap, state.phase.type, geo.order_kinds)
            if isinstance(parsed, OrderError):
                submitted.append(Submitted(power, text, None, parsed))
            else:
                submitted.append(Submitted(power, text, parsed))
    if recorder is not None:  # kept as a scenario case
        return recorder.advance(state, submitted)
    return advance(geo, state, submitted)


def outcome(step: GameStep, text: str) -> tuple[Outcome, str]:
    found = [r for r in step.results if r.text == text]
    assert found, f"no result for {text!r}"
    return found[0].outcome, found[0].reason


def test_orders_are_read_again_after_the_events(geo: Variant) -> None:
    """Geophysical rule 9: `Par/nc` is no coast before the events; after Pic and Gas sink, Paris
    has two coasts and the order naming one is carried out."""
    state = geo.start_state().evolve(units=(Unit("France", UnitType.FLEET, Location("Bre")),))
    step = play(geo, state, {"England": ["Erode Pic"], "Germany": ["Erode Gas"],
                             "France": ["F Bre - Par/nc"]})
    assert step.state.units == (Unit("France", UnitType.FLEET, Location("Par", "nc")),)
    assert outcome(step, "F Bre - Par/nc")[0] is Outcome.SUCCEEDS


def test_a_count_beyond_the_allowance_keeps_what_it_covers(geo: Variant) -> None:
    """Geophysical rules 1b and 3: Russia, one centre, orders `2 Stabilize Mos`; one counts,
    the other is refused and the result says so; Turkey's erosion fails and Moscow stays."""
    state = geo.start_state().evolve(
        units=(Unit("Russia", UnitType.ARMY, Location("Mos")),),
        owners={"Mos": "Russia"})
    step = play(geo, state, {"Turkey": ["Erode Mos"], "Russia": ["2 Stabilize Mos"]})
    result, reason = outcome(step, "2 Stabilize Mos")
    assert result is Outcome.SUCCEEDS
    assert reason.startswith("1 of the 2 counted: Russia owns 1 centre(s)"), reason
    assert "the other 1 refused" in reason
    assert outcome(step, "Erode Mos") == (
        Outcome.FAILS, "strength 1 against 1 stabilisation: no change")
    assert geo.map_for(step.state).terrain["Mos"] is Terrain.LAND
    assert step.state.units == (Unit("Russia", UnitType.ARMY, Location("Mos")),)


def test_a_scripted_game(geo: Variant, tmp_path: Path) -> None:
    """Three years of Geophysical play: the seed's stand-off, a created centre taken in the
    Autumn, a sunken centre, ice engulfing a fleet, a fleet built on the Caspian coast and moved
    to the other coast when the lake is filled in, an army lost on the ice."""
    recorder = Recorder(geo, "geophysical-1901-1903")

    def play_(state: GameState, orders: Mapping[str, Sequence[str]]) -> GameStep:
        return play(geo, state, orders, recorder)

    state = geo.start_state()

    # Spring 1901: rule 3's example is a stand-off; France creates a centre in Burgundy (rule 7).
    step = play_(state, {
        "Turkey": ["Erode Mos"],
        "Austria": ["Support TURKISH Erode Mos"],
        "Russia": ["2 Stabilize Mos", "A Mos - StP", "F StP/sc - BOT", "F Sev - Rum"],
        "France": ["Create centre Bur", "A Par - Bur"],
        "England": ["F Edi - NWG"],
    })
    state = step.state
    assert str(state.phase) == "Fall 1901, Movement"
    assert outcome(step, "Erode Mos") == (
        Outcome.FAILS, "strength 2 against 2 stabilisations: no change")
    assert "Mos" not in state.terrain
    assert state.centres is not None and "Bur" in state.centres
    assert "Bur" not in state.owners  # neutral until the Autumn update

    # Fall 1901: Holland sinks before movement, the German fleet sails in; ice engulfs the
    # English fleet (rule 8); Burgundy is taken by the army standing in it.
    step = play_(state, {
        "Germany": ["Erode Hol", "F Kie - Hol"],
        "England": ["Ice advance NWG", "F NWG - NTH"],
        "Russia": ["F BOT - Swe"],
        "France": ["A Bur H"],
    })
    state = step.state
    assert str(state.phase) == "Winter 1901, Adjustment"
    assert "Holland (HOL) becomes sea." in step.events
    assert state.unit_in("Hol") == Unit("Germany", UnitType.FLEET, Location("Hol"))
    assert state.unit_in("NWG") == Unit("England", UnitType.FLEET, Location("NWG"))
    assert outcome(step, "F NWG - NTH")[0] is Outcome.ILLEGAL
    assert state.owners["Bur"] == "France" and "Hol" not in state.owners
    assert state.owners["Rum"] == state.owners["Swe"] == "Russia"

    # Winter 1901: France builds for Burgundy; Russia builds a fleet on the Caspian coast of
    # Sevastopol (rule 9: fleets can be built on a lake's coast).
    step = play_(state, {
        "France": ["Build A Par"],
        "Russia": ["Build F Sev/ec", "Build A Mos"],
    })
    state = step.state
    assert str(state.phase) == "Spring 1902, Movement"
    assert Unit("Russia", UnitType.FLEET, Location("Sev", "ec")) in state.units
    assert Unit("France", UnitType.ARMY, Location("Par")) in state.units

    # Spring 1902: ice advances into the Barents Sea and the Russian army walks onto it.
    step = play_(state, {"England": ["Ice advance BAR"], "Russia": ["A StP - BAR",
                                                                      "F Sev/ec - Mos"]})
    state = step.state
    assert state.unit_in("BAR") == Unit("Russia", UnitType.ARMY, Location("BAR"))
    assert outcome(step, "F Sev/ec - Mos")[0] is Outcome.FAILS  # A Mos stays
    assert "BAR" in state.iced

    # Fall 1902: the army starts its first phase on the ice and stays; the Caspian is filled in,
    # and the fleet on its coast is destroyed (rule 9), not moved to the Black Sea coast.
    step = play_(state, {"Turkey": ["Uplift CAS"], "Russia": ["A BAR H"]})
    state = step.state
    assert state.extra.get("ice-turns A BAR") == "1"
    assert state.unit_in("Sev") is None
    assert any("is destroyed: its coast is gone" in e for e in step.events)
    assert state.terrain["CAS"] is Terrain.LAND
    while str(state.phase) != "Spring 1903, Movement":
        state = play_(state, {}).state

    # Spring 1903: the army starts a second movement phase on the same ice: destroyed (rule 8).
    step = play_(state, {"Russia": ["A BAR - StP"]})
    state = step.state
    assert state.unit_in("BAR") is None
    assert any("BAR is destroyed" in e for e in step.events)
    assert outcome(step, "A BAR - StP")[0] is Outcome.ILLEGAL
    assert state.winners == () and not state.finished
    passes_gm_scenario(recorder, tmp_path)  # the whole game through `gm scenario`


def test_an_event_is_judged_on_arrival_through_the_hook_set(geo: Variant) -> None:
    """Taking orders reaches rule 2 through the variant's hooks (`on_arrival`): an event the
    map rules out now gets a typed reason; a possible one and the other orders get no
    judgement (the trial adjudication judges them)."""
    from gm.engine.game import start_state
    from gm.engine.reason_words import unheaded
    from gm.engine.reasons import Fate

    check = geo.hooks.on_arrival
    assert check is not None
    state = start_state(geo)
    uplift = check(geo, state, "France", GeoEvent(GeoKind.UPLIFT, GeoTarget("Bur")))
    assert uplift is not None and uplift.why is not None
    assert uplift.why.kind is Fate.UPLIFT_NOT_WATER
    assert unheaded(uplift.why) == "uplift raises a sea or lake; Bur is land"
    assert check(geo, state, "France", GeoEvent(GeoKind.ERODE, GeoTarget("Bur"))) is None
    assert check(geo, state, "France", Stabilize(GeoTarget("Bur"))) is None
