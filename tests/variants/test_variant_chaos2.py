"""Chaos II: the scenario files of tests/scenarios/chaos2, the powers and their codes, and a
scripted game over several years through the real parser and gm.engine.game.advance."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.engine.game import GameStep, advance, orders_needed
from gm.engine.orders import Alliance, DesignateHome
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.export.scenario import Recorder
from gm.notation import parse_order
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case
from gm.variants import chaos2
from gm.variants.registry import canonical_name, get_variant
from tests.support.scripted import passes_gm_scenario

SCENARIOS = Path(__file__).parent.parent / "scenarios" / "chaos2"
CASES: list[Case] = [case for path in sorted(SCENARIOS.glob("*.txt")) for case in read_file(path)]

INLAND = {"Bud", "Mos", "Mun", "Par", "Ser", "Vie", "War"}


@pytest.fixture(scope="module")
def variant() -> Variant:
    return get_variant("chaos2")


# -- scenario files ----------------------------------------------------------------------------
def test_scenario_files_have_their_cases() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    # the project's cases and the review cases written from the rule text alone (review_*.txt)
    assert len(names) >= 92
    assert sum(n.startswith("review.") for n in names) == 33
    # phase transitions: Winters with builds, removals and designations; eliminations
    assert sum(n.startswith("review2.") for n in names) == 8
    assert sum(n.startswith("review3.") for n in names) == 37  # a third review (review3_rules)
    per_topic = {t: sum(n.split(".")[1] == t for n in names)
                 for t in ("w1900", "home", "loss", "build", "alliance", "solo", "flow")}
    assert all(n >= 2 for n in per_topic.values()), per_topic
    assert all(canonical_name(c.variant) == "chaos2" for c in CASES)


def test_every_case_cites_its_rule() -> None:
    for path in SCENARIOS.glob("*.txt"):
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                heading = []
                j = i
                while lines[j - 1].startswith("#"):
                    j -= 1
                    heading.insert(0, lines[j])
                text = " ".join(heading)
                assert "rule" in text.lower() or "RULINGS" in text, f"{path}:{i + 1}"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_chaos2_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)


# -- the powers --------------------------------------------------------------------------------
def test_names_and_aliases() -> None:
    for name in ("chaos2", "Chaos II", "chaos", "CHAOS  ii"):
        assert canonical_name(name) == "chaos2"


def test_powers_match_the_reference_table(variant: Variant) -> None:
    """RULINGS: Chaos II: the codes of the reference table (tests/data/chaos2/powers.csv), in the
    same order."""
    path = Path(__file__).resolve().parent.parent / "data" / "chaos2" / "powers.csv"
    text = path.read_text("utf-8")
    table = [line for line in text.splitlines() if not line.startswith("#")]
    rows = [(r["code"], r["centre"], r["power"]) for r in csv.DictReader(table)]
    ours = [(p.letter, variant.homes[p.name][0].lower(), p.name) for p in variant.powers]
    assert ours == rows
    assert len(variant.powers) == 34
    codes = [p.letter for p in variant.powers]
    assert "M" not in codes and "O" not in codes
    assert sorted(variant.homes[p][0] for p in variant.power_names) == sorted(variant.map.centres)


def test_powers_by_name_code_and_spacing(variant: Variant) -> None:
    assert variant.power("St Petersburg") is variant.power("st  petersburg") is variant.power("3")
    assert variant.power("v") is variant.power("Paris")
    assert variant.power("0") is variant.power("Sevastopol")
    assert variant.power("M") is None and variant.power("O") is None


def test_start(variant: Variant) -> None:
    """Chaos II rules 2 and 3: one centre each, no unit, Winter 1900 builds first."""
    state = variant.start_state()
    assert state.phase == Phase("Winter", 1900, PhaseType.ADJUSTMENT)
    assert state.units == ()
    needed = orders_needed(variant, state)
    assert len(needed) == 34
    assert all(n.builds == 1 for n in needed.values())
    assert needed["St Petersburg"].build_sites == ("StP",)


def test_help_states_rules_rulings_and_codes(variant: Variant) -> None:
    text = variant.help
    for needle in ("Chaos II", "7. The starting centre", "Home Bel", "Alliance Paris Berlin",
                   "one third", "3  StP  St Petersburg", "9  War  Warsaw", "A Winter is played",
                   "retreats", "SIGNON 3mygame"):
        assert needle in text, needle
    assert variant.order_kinds == frozenset({"home", "alliance"})


def test_alliance_members_as_written(variant: Variant) -> None:
    found, unknown = chaos2.alliance_members(variant, ("St", "Petersburg,Paris", "R", "Par"))
    assert found == ["St Petersburg", "Paris", "Moscow", "Paris"] and unknown == []
    assert chaos2.alliance_members(variant, ("Prussia", "Kiel")) == (["Kiel"], ["Prussia"])
    assert chaos2.alliance_members(variant, ("St.", "Petersburg")) == (["St Petersburg"], [])


# -- a scripted game ---------------------------------------------------------------------------
def _play(variant: Variant, state: GameState, orders: Mapping[str, Sequence[str]],
          recorder: Recorder | None = None) -> GameStep:
    """Advance with the orders as players write them, read by the real parser (kept by
    `recorder` as a scenario case, if given)."""
    gmap = variant.map_for(state)
    submitted = []
    for power, texts in orders.items():
        for text in texts:
            order = parse_order(text, gmap, state.phase.type, variant.order_kinds)
            assert not hasattr(order, "message"), (text, order)
            submitted.append(Submitted(power, text, order))  # type: ignore[arg-type]
    if recorder is not None:
        return recorder.advance(state, submitted)
    return advance(variant, state, submitted)


def _outcome(step: GameStep, text: str) -> tuple[Outcome, str]:
    found = [r for r in step.results if r.text == text]
    assert len(found) == 1, (text, step.results)
    return found[0].outcome, found[0].reason


def test_a_game_from_winter_1900(variant: Variant, tmp_path: Path) -> None:
    """Rules 3-5 and 7 over five years: builds, a refused and an accepted designation, a home
    lost in a Spring, a skipped Winter, the designation regained without an allowance."""
    recorder = Recorder(variant, "chaos2-1900-1904")

    def play(state: GameState, orders: Mapping[str, Sequence[str]]) -> GameStep:
        return _play(variant, state, orders, recorder)

    coasts = {"StP": "StP/nc", "Spa": "Spa/sc", "Bul": "Bul/ec"}
    build = {p.name: [f"Build {'A' if c in INLAND else 'F'} {coasts.get(c, c)}"]
             for p in variant.powers for c in variant.homes[p.name]}
    build["Belgium"] = ["Build A Bel"]
    step = play(variant.start_state(), build)
    state = step.state
    assert state.phase == Phase("Spring", 1901, PhaseType.MOVEMENT)
    assert len(state.units) == 34
    assert state.extra["winter-owner StP"] == "St Petersburg"

    state = play(state, {"Paris": ["A Par - Pic"], "Belgium": ["A Bel - Ruh"]}).state
    step = play(state, {"Paris": ["A Pic - Bel"]})
    state = step.state
    # Chaos II rule 7: Belgium's starting centre is lost in the Autumn.
    assert "Bel is no longer a home centre of Belgium: a unit of Paris occupies it " \
           "(Chaos II rule 7)." in step.events
    assert state.owners["Bel"] == "Paris" and state.homes["Belgium"] == ()
    assert state.phase == Phase("Winter", 1901, PhaseType.ADJUSTMENT)

    # Chaos II rule 4: Bel owned in one Winter only: refused; Paris builds at home.
    step = play(state, {"Paris": ["Home Bel", "Build A Par"], "Belgium": []})
    assert _outcome(step, "Home Bel")[0] is Outcome.ILLEGAL
    state = step.state
    assert state.homes["Paris"] == ("Par",)
    assert state.unit_in("Par") is not None and state.unit_in("Ruh") is None  # Belgium removed
    assert state.extra["winter-owner Bel"] == "Paris"

    state = play(state, {}).state  # Spring 1902
    state = play(state, {"Paris": ["A Bel - Pic"]}).state  # Fall 1902: Bel vacated
    assert state.phase == Phase("Winter", 1902, PhaseType.ADJUSTMENT)  # a designation is possible
    step = play(state, {"Paris": ["Home Bel"]})
    assert _outcome(step, "Home Bel") == (
        Outcome.SUCCEEDS, "Bel becomes a home centre of Paris (1 designation left)")
    state = step.state
    assert state.homes["Paris"] == ("Bel", "Par")
    assert state.extra["designated Paris"] == "Bel"

    # Chaos II rule 5: Holland's army in Bel at the end of the Spring: the home is lost.
    step = play(state, {"Holland": ["A Hol - Bel"]})
    state = step.state
    assert state.homes["Paris"] == ("Par",) and state.extra["lost Paris"] == "Bel"
    state = play(state, {"Holland": ["A Bel - Hol"]}).state
    # Paris still owns Bel, but it was lost since the last Winter, nobody builds, no alliance:
    # Winter 1903 is skipped (its end records owners and clears the mark).
    assert state.phase == Phase("Spring", 1904, PhaseType.MOVEMENT)
    assert state.owners["Bel"] == "Paris" and "lost Paris" not in state.extra
    state = play(state, {}).state
    state = play(state, {}).state
    assert state.phase == Phase("Winter", 1904, PhaseType.ADJUSTMENT)
    step = play(state, {"Paris": ["Home Bel"]})
    assert _outcome(step, "Home Bel") == (
        Outcome.SUCCEEDS, "Bel is a home centre of Paris again (no designation used)")
    assert step.state.homes["Paris"] == ("Bel", "Par")
    assert step.state.extra["designated Paris"] == "Bel"
    assert step.state.phase == Phase("Spring", 1905, PhaseType.MOVEMENT)
    passes_gm_scenario(recorder, tmp_path)  # the whole game through `gm scenario`


def test_home_and_alliance_orders_outside_winter_are_void(variant: Variant) -> None:
    """RULINGS: Chaos II: both are Winter orders; the hook voids them in other phases."""
    state = variant.start_state().evolve(phase=Phase("Spring", 1901, PhaseType.MOVEMENT))
    subs = [Submitted("Paris", "Home Bel", DesignateHome("Bel")),
            Submitted("Paris", "Alliance Berlin", Alliance(("Berlin",)))]
    step = advance(variant, state, subs)
    void = [r for r in step.results if r.power == "Paris" and r.order in {s.order for s in subs}]
    assert [r.outcome for r in void] == [Outcome.ILLEGAL, Outcome.ILLEGAL]
    assert "Winter" in void[0].reason
