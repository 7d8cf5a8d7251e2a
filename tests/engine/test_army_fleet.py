"""The A/F rules (Abstraction2 rule 3, Deluge II rule 8) in gm.engine.army_fleet, and the frozen
region parameters of the movement resolvers (Abstraction2 rule 5).

The scenario files tests/scenarios/abstraction2/af_*.txt and tests/scenarios/deluge2/af_*.txt
run here against the variants as registered (both switch the A/F rules on); the unit tests use
the standard map with the A/F rules switched on (positions from tests.support.boards, orders through
the real order parser with kind "af").
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.engine.army_fleet import (
    af_before_phase,
    af_retreat_options,
    check_disembark,
    embark,
    resolve_adjustments_af,
    resolve_movement_af,
    resolve_retreats_af,
    unit_count,
)
from gm.engine.errors import OrderError
from gm.engine.frozen import replace
from gm.engine.game import advance, orders_needed
from gm.engine.geo import Location
from gm.engine.legality import Board
from gm.engine.movement import resolve_movement
from gm.engine.order_check import check_order
from gm.engine.orders import Disembark, Embark, Move, UnitSpec
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Outcome, PhaseOutcome, Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Hooks, Variant
from gm.notation.lines import parse_orders
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case
from gm.variants.army_fleet_help import HELP_TEXT
from gm.variants.registry import get_variant
from tests.support.boards import RETREAT, WINTER, board, dislodged, position, result, std

SCENARIOS = Path(__file__).parent.parent / "scenarios"
AF_FILES = sorted(SCENARIOS.glob("abstraction2/af_*.txt")) + sorted(
    SCENARIOS.glob("deluge2/af_*.txt"))
CASES: list[Case] = [case for path in AF_FILES for case in read_file(path)]
KINDS = frozenset({"af"})


def test_af_scenario_counts() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    per_variant = {v: sum(1 for c in CASES if c.variant.lower() == v)
                   for v in ("abstraction2", "deluge2")}
    assert per_variant["abstraction2"] >= 45
    assert per_variant["deluge2"] >= 5


def test_af_cases_cite_their_rule() -> None:
    for path in AF_FILES:
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                j = i
                while j > 0 and lines[j - 1].startswith("#"):
                    j -= 1
                heading = " ".join(lines[j:i])
                assert "Abstraction2 rule 3" in heading, f"{path.name}:{i + 1}"
                if "deluge2" in path.parts:
                    assert "Deluge II rule 8" in heading, f"{path.name}:{i + 1}"


def test_every_rule_sentence_and_example_has_a_case() -> None:
    """Each quoted sentence fragment of rule 3 appears in some case's comment."""
    comments = (line.lstrip("#") for p in AF_FILES for line in p.read_text().splitlines()
                if line.startswith("#"))
    text = " ".join(" ".join(comments).split())
    for fragment in (
        "Embarkations are adjudicated prior to simultaneous movement",
        "a legal embarkation move can never fail",
        "will remain on board the fleet as an A/F",
        "limited to the crossing of a single sea space via a single fleet",
        "referred to as a \"Fast Ferry\"",
        "the army remains on board the fleet and an A/F is formed",
        "A convoy of more than one sea space can only be undertaken",
        "A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por",
        "the same combat value as a single fleet",
        "may support operations in coastal provinces",
        "may never enter a coastal province",
        "may not FF",
        "A/F(TYS) disembarks A(Tun), F(TYS)-WMS",
        "any fleet movement (but not support) will also fail",
        "A/F(ENG) disembarks A(ENG)-Bre S by F(ENG) will displace an unsupported A(Bre)",
        "is dislodged, then the disembarkation will be unaffected",
        "move ... the disembarkation will be unaffected",
        "if it does so the disembarkation will fail",
        "it reverts to a fleet and the army is disbanded",
        "An army may retreat on to an adjacent fleet in a sea space",
        "then all units will stand",
    ):
        assert fragment in text, fragment


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_af_scenario_case(case: Case) -> None:
    result_ = run_case(case)
    if not result_.passed:
        out = io.StringIO()
        print_result(result_, out)
        pytest.fail(out.getvalue(), pytrace=False)


# -- the standard map with the A/F rules ---------------------------------------------------------
def _submit(state: GameState, *lines: str) -> list[Submitted]:
    """`Power: order line` through the real parser with the A/F orders allowed."""
    out = []
    for line in lines:
        power, text = (s.strip() for s in line.split(":", 1))
        parsed = parse_orders(text, std(), state.phase.type, KINDS)
        if isinstance(parsed, OrderError):
            out.append(Submitted(power, text, None, parsed))
            continue
        for order in parsed:
            out.append(Submitted(power, text if len(parsed) == 1 else str(order), order))
    return out


def _move(units: list[str], orders: list[str], **frozen: frozenset[str]) -> PhaseOutcome:
    state = position(*units)
    return resolve_movement_af(std(), state, _submit(state, *orders), **frozen)


def _af_standard() -> Variant:
    """The standard game with the A/F rules switched on as a variant module would."""
    std_variant = get_variant("standard")
    return replace(
        std_variant,
        hooks=Hooks(before_phase=af_before_phase, resolve_movement=resolve_movement_af,
                    resolve_retreats=resolve_retreats_af,
                    resolve_adjustments=resolve_adjustments_af),
        order_kinds=KINDS,
    )


def test_game_flow_boards_moves_and_lands() -> None:
    # Abstraction2 rule 3, A/F Operations: the example through the phase cycle and its hooks.
    variant = _af_standard()
    state = position("England: A Lon", "England: F ENG")
    step = advance(variant, state, _submit(state, "England: A(Lon) boards F(ENG), "
                                                  "A/F(ENG)-MAO, A disembarks Por"))
    assert {f"{u.power}: {u}" for u in step.state.units} == {"England: A Por", "England: F MAO"}
    assert [(r.text, r.outcome) for r in step.results] == [
        ("A Lon boards F ENG", Outcome.SUCCEEDS),
        ("A/F ENG - MAO", Outcome.SUCCEEDS),
        ("A/F ENG disembarks Por", Outcome.SUCCEEDS),
    ]
    assert step.state.phase == Phase("Fall", 1901, PhaseType.MOVEMENT)


def test_before_phase_boards_only_in_movement() -> None:
    variant = _af_standard()
    state = position("England: A Lon", "England: F ENG")
    subs = _submit(state, "England: A Lon boards F ENG", "England: F ENG - MAO")
    step, rest = af_before_phase(variant, state, subs)
    assert {str(u) for u in step.state.units} == {"A/F ENG"}
    assert [r.reason for r in step.results] == ["boards F ENG, forming A/F ENG"]
    assert [s.text for s in rest] == ["F ENG - MAO"]
    retreat = state.evolve(phase=RETREAT)
    step, rest = af_before_phase(variant, retreat, subs)
    assert step.state is retreat and list(rest) == subs


def test_embark_refuses_a_frozen_fleet() -> None:
    # Abstraction2 rule 5: a frozen fleet "may not ... convoy"; it cannot take an army aboard.
    state = position("Russia: A Nwy", "Russia: F BAR")
    step, rest = embark(std(), state, _submit(state, "Russia: A Nwy boards F BAR"),
                        hold_only=frozenset({"BAR"}))
    assert step.state is state and rest == []
    assert step.results[0].outcome is Outcome.ILLEGAL
    assert "frozen" in step.results[0].reason


def test_landing_and_fleet_results_keep_the_order_given() -> None:
    out = _move(["Italy: A/F TYS"], ["Italy: A/F(TYS) disembarks A(Tun), F(TYS)-WMS"])
    assert [r.text for r in out.results] == ["A/F TYS disembarks Tun", "A/F TYS - WMS"]
    assert board(out) == {"Italy: A Tun", "Italy: F WMS"}


def test_landing_dislodges_as_a_convoyed_army() -> None:
    # HELP_TEXT: a landing is like a convoyed move; the dislodged unit may retreat to the sea.
    out = _move(["England: A/F ENG", "England: F MAO", "France: F Bre"],
                ["England: A/F ENG disembarks Bre", "England: F MAO S A ENG - Bre",
                 "England: A/F ENG - IRI"])
    assert board(out) == {"England: A Bre", "England: F IRI", "England: F MAO"}
    assert dislodged(out) == {"France: F Bre": None}
    assert result(out, "France: F Bre H").reason.startswith(
        "no order: dislodged by the army of A/F ENG")


def test_failed_landing_explains_the_fleet_staying() -> None:
    # Abstraction2 rule 3, Disembarkation: "the army would be left behind to drown".
    out = _move(["England: A/F ENG", "France: A Bre"],
                ["England: A/F ENG disembarks Bre", "England: A/F ENG - MAO"])
    fleet = result(out, "England: A/F ENG - MAO")
    assert fleet.outcome is Outcome.FAILS
    assert "left behind to drown" in fleet.reason
    landing = result(out, "England: A/F ENG disembarks Bre")
    assert landing.reason == "bounced with A Bre (1 against 1); the army stays aboard"


def test_later_landing_replaces_earlier() -> None:
    out = _move(["England: A/F ENG"],
                ["England: A/F ENG disembarks Bre", "England: A/F ENG disembarks Pic"])
    assert board(out) == {"England: A Pic", "England: F ENG"}
    assert result(out, "England: A/F ENG disembarks Bre").reason == (
        "void: replaced by a later order")


def test_landing_after_move_needs_a_sea_next_to_the_landing() -> None:
    # Abstraction2 rule 3, A/F Operations: the army lands "into a coastal space adjacent to the
    # second sea space"; Gascony is next to neither ENG nor IRI.
    out = _move(["England: A/F ENG"], ["England: A/F ENG - IRI", "England: A/F ENG disembarks Gas"])
    landing = result(out, "England: A/F ENG disembarks Gas")
    assert landing.outcome is Outcome.ILLEGAL
    assert "nor to IRI" in landing.reason
    assert board(out) == {"England: A/F IRI"}


def test_circularity_exception_reason() -> None:
    out = _move(["England: A/F ENG", "France: F MAO"],
                ["England: A/F ENG - MAO", "England: A/F ENG disembarks Por",
                 "France: F MAO - Por"])
    landing = result(out, "England: A/F ENG disembarks Por")
    assert landing.outcome is Outcome.FAILS
    assert "circularity exception" in landing.reason
    assert board(out) == {"England: A/F MAO", "France: F Por"}


def test_paradox_units_stand_not_szykman() -> None:
    # Abstraction2 rule 3, Circular reasoning; the standard resolver applies Szykman to the same
    # position (DATC 6.F.14), the A/F resolver makes every unit involved stand.
    units = ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG"]
    orders = ["England: F Lon S F Wal - ENG", "England: F Wal - ENG", "France: A Bre - Lon",
              "France: F ENG C A Bre - Lon"]
    state = position(*units)
    szykman = resolve_movement(std(), state, _submit(state, *orders))
    assert dislodged(szykman) == {"France: F ENG": "Wal"}
    out = _move(units, orders)
    assert board(out) == set(units) and dislodged(out) == {}
    assert all(r.outcome is Outcome.FAILS for r in out.results)
    assert {r.reason for r in out.results} == {"circular reasoning: all units involved stand"}


def test_two_fleet_convoy_refused_at_submission() -> None:
    state = position("England: A Lon", "England: F ENG", "England: F MAO")
    move = _submit(state, "England: A Lon - Por")[0].order
    assert move is not None
    standard = check_order(std(), state, "England", move)
    assert isinstance(standard, Move)  # the regular rules allow the two-fleet convoy
    checked = check_order(std(), state, "England", move, army_fleet=True)
    assert isinstance(checked, OrderError) and "one sea space" in checked.message


def test_check_order_with_af_orders() -> None:
    state = position("England: A Lon", "England: F ENG", "England: A/F IRI")
    embark_order = Embark(UnitSpec(UnitType.ARMY, Location("Lon")), Location("ENG"))
    assert check_order(std(), state, "England", embark_order, army_fleet=True) == embark_order
    assert isinstance(check_order(std(), state, "France", embark_order, army_fleet=True),
                      OrderError)
    # A landing next to a sea the A/F could move to is accepted before its move is known.
    far = Disembark(UnitSpec(UnitType.ARMY_FLEET, Location("IRI")), Location("Por"))
    assert check_order(std(), state, "England", far, army_fleet=True) == far
    inland = Disembark(UnitSpec(UnitType.ARMY_FLEET, Location("IRI")), Location("Par"))
    assert isinstance(check_order(std(), state, "England", inland, army_fleet=True), OrderError)
    coastal = Move(UnitSpec(UnitType.ARMY_FLEET, Location("IRI")), Location("Lvp"))
    refused = check_order(std(), state, "England", coastal, army_fleet=True)
    assert isinstance(refused, OrderError) and "never enters a coastal" in refused.message


def test_check_disembark_from_frozen_af() -> None:
    state = position("Russia: A/F BAR")
    board_ = Board.of(std(), state)
    order = Disembark(UnitSpec(UnitType.ARMY_FLEET, Location("BAR")), Location("StP"))
    landed = check_disembark(board_, "Russia", order)
    assert not isinstance(landed, OrderError) and landed[1] == "BAR"
    frozen = check_disembark(board_, "Russia", order, hold_only=frozenset({"BAR"}))
    assert isinstance(frozen, OrderError) and "frozen" in frozen.message


# -- retreats ------------------------------------------------------------------------------------
def test_retreat_options_include_own_fleets_only_under_af_rules() -> None:
    state = position("England: F ENG", "France: F MAO", "France: A Gas", "France: A Pic",
                     "France: A Bre", phase=RETREAT, dislodged=[("England: A Bre", "Par")])
    d = state.dislodged[0]
    assert af_retreat_options(std(), state, d) == (Location("ENG"),)
    variant = _af_standard()
    # The phase cycle keeps the army for its retreat (it is not destroyed as unretreatable).
    assert orders_needed(variant, state)["England"].units == (d.unit,)


def test_af_retreat_to_coast_becomes_fleet() -> None:
    state = position("France: F ENG", phase=RETREAT, dislodged=[("England: A/F IRI", "NAO")])
    out = resolve_retreats_af(std(), state, _submit(state, "England: A/F IRI - Wal"))
    assert board(out) == {"France: F ENG", "England: F Wal"}
    assert out.results[0].reason == "retreats to Wal as a fleet; its army is disbanded"


# -- supply: an A/F is two units ---------------------------------------------------------------
def _adjust(units: list[str], owners: dict[str, str], orders: list[str]) -> PhaseOutcome:
    state = position(*units, phase=WINTER, owners=owners)
    return resolve_adjustments_af(std(), state, _submit(state, *orders), {})


def test_unit_count_counts_af_twice() -> None:
    state = position("England: A/F ENG", "England: F Lon", "France: A Par")
    assert unit_count(state, "England") == 3
    assert unit_count(state, "France") == 1


def test_remove_army_of_af() -> None:
    # HELP_TEXT (supply): `Remove A ENG` removes only the army of A/F ENG.
    out = _adjust(["England: A/F ENG", "England: F Lon"], {"Lon": "England", "Edi": "England"},
                  ["England: Remove A ENG"])
    assert board(out) == {"England: F ENG", "England: F Lon"}
    assert out.results[0].reason == "the army of A/F ENG removed; F ENG stays"


def test_remove_whole_af() -> None:
    out = _adjust(["England: A/F ENG", "England: F Lon"], {"Lon": "England"},
                  ["England: Remove A/F ENG"])
    assert board(out) == {"England: F Lon"}
    assert out.results[0].reason == "A/F ENG removed (its army and its fleet)"


def test_civil_disorder_takes_only_the_army_when_one_is_due() -> None:
    out = _adjust(["England: A/F NAO", "England: F Lon"], {"Lon": "England", "Edi": "England"},
                  [])
    assert board(out) == {"England: F NAO", "England: F Lon"}
    assert "the army of A/F NAO removed by civil disorder" in out.results[0].reason


def test_builds_count_af_as_two() -> None:
    state = position("England: A/F ENG", phase=WINTER,
                     owners={"Lon": "England", "Edi": "England", "Lvp": "England"})
    assert orders_needed(_af_standard(), state)["England"].builds == 1


# -- frozen regions: the movement resolvers' parameters (Abstraction2 rule 5) ------------------
FROZEN_UNITS = ["Russia: F BAR", "England: F NWG", "England: F Nwy", "England: F NTH"]


@pytest.mark.parametrize("resolver", [resolve_movement, resolve_movement_af])
def test_undislodgeable_unit_is_not_dislodged(resolver: object) -> None:
    # Abstraction2 rule 5: "Frozen fleets may not ... be dislodged."
    state = position(*FROZEN_UNITS)
    orders = _submit(state, "England: F NWG - BAR", "England: F Nwy S F NWG - BAR")
    assert callable(resolver)
    out: PhaseOutcome = resolver(std(), state, orders, undislodgeable=frozenset({"BAR"}))
    assert board(out) == set(FROZEN_UNITS) and dislodged(out) == {}
    assert result(out, "England: F NWG - BAR").reason == "F BAR cannot be dislodged there"
    free: PhaseOutcome = resolver(std(), state, orders)
    assert dislodged(free) == {"Russia: F BAR": "NWG"}


@pytest.mark.parametrize("resolver", [resolve_movement, resolve_movement_af])
def test_hold_only_unit_cannot_move_or_support(resolver: object) -> None:
    # Abstraction2 rule 5: "any fleets in these spaces must stand ... may not support, convoy".
    state = position("Russia: F BAR", "Russia: A StP", "England: F Nwy")
    orders = _submit(state, "Russia: F BAR S A StP - Nwy", "Russia: A StP - Nwy")
    assert callable(resolver)
    out: PhaseOutcome = resolver(std(), state, orders, hold_only=frozenset({"BAR"}))
    support = result(out, "Russia: F BAR S A StP - Nwy")
    assert support.outcome is Outcome.ILLEGAL
    assert support.reason.startswith("F BAR is frozen in: it must stand")
    assert board(out) == {"Russia: F BAR", "Russia: A StP", "England: F Nwy"}
    moved: PhaseOutcome = resolver(std(), state, _submit(state, "Russia: F BAR - NWG"),
                                   hold_only=frozenset({"BAR"}))
    assert board(moved) == {"Russia: F BAR", "Russia: A StP", "England: F Nwy"}
    free: PhaseOutcome = resolver(std(), state, orders)
    assert board(free) == {"Russia: F BAR", "Russia: A Nwy"}


def test_undislodgeable_unit_still_has_its_support_cut() -> None:
    # Abstraction2 rule 5: an army in frozen Lapland (here StP) is not dislodged, but the attack
    # on it still cuts its support.
    state = position("Russia: A StP", "Russia: A Mos", "Germany: A Lvn", "England: F Nwy",
                     "England: F BAR")
    out = resolve_movement(std(), state, _submit(
        state, "Russia: A StP S A Mos - Lvn", "Russia: A Mos - Lvn", "England: F BAR - StP/nc",
        "England: F Nwy S F BAR - StP/nc"), undislodgeable=frozenset({"StP"}))
    assert dislodged(out) == {}
    assert result(out, "Russia: A StP S A Mos - Lvn").reason == "support cut by F BAR"
    assert result(out, "England: F BAR - StP/nc").reason == "A StP cannot be dislodged there"
    assert board(out) == {f"{u.power}: {u}" for u in state.units}


def test_undislodgeable_unit_that_leaves_is_followed() -> None:
    state = position("Russia: A StP", "England: F Nwy", "England: F BAR")
    out = resolve_movement(std(), state, _submit(
        state, "Russia: A StP - Mos", "England: F Nwy - StP/nc",
        "England: F BAR S F Nwy - StP/nc"), undislodgeable=frozenset({"StP"}))
    assert board(out) == {"Russia: A Mos", "England: F StP/nc", "England: F BAR"}


def test_help_text_states_the_choices() -> None:
    words = " ".join(HELP_TEXT.split())
    for choice in ("of its OWN power", "two units", "all the units involved stand",
                   "never fails", "one fleet in one sea", "There is no Szykman rule"):
        assert choice in words, choice
    assert re.search(r"an A/F is two units", words)


@pytest.mark.parametrize("variant", ["abstraction2", "deluge2"])
def test_help_states_each_af_ruling(variant: str) -> None:
    """RULINGS: Abstraction2, the A/F details the seed leaves open, each stated in the help of
    both A/F variants (Deluge II rule 8 takes the Abstraction A/F rules)."""
    words = " ".join(get_variant(variant).help.split())
    for ruling in (
        "An army boards a fleet of its OWN power",  # boarding own fleets only
        "A fleet carries one army",  # one army a fleet
        "an A/F is two units (its army and its fleet) for builds and removals",  # counts two
        "A landing is judged from the sea the A/F is in when movement ends",
        "the landing province also borders the sea it started in, the army still lands",
        "moves the army also when the army itself has no order",  # FF without the army's order
    ):
        assert ruling in words, ruling
    if variant == "abstraction2":  # rule 7's most-units count
        assert "An A/F counts as two units (its army and its fleet)" in words


def test_af_state_round_trips() -> None:
    state = GameState("abstraction2", Phase("July", 1914, PhaseType.RETREAT),
                      units=(Unit("England", UnitType.ARMY_FLEET, Location("ENG")),),
                      dislodged=(Dislodged(Unit("France", UnitType.ARMY_FLEET,
                                                Location("MAO")), None),))
    assert GameState.loads(state.dumps()) == state
