"""Every order result says why as a value (gm.engine.reasons: `Void` and `Fate` kinds with their
fields, followed by `parts`); its words are made from the value in one place
(gm.engine.reason_words), and a stored result reads back the same value."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.engine.errors import ErrorCode
from gm.engine.reason_words import says, unheaded, words
from gm.engine.reasons import NOTHING, Fate, Kind, Reason, Void
from gm.engine.results import OrderResult
from gm.scenario.format import read_file
from gm.scenario.runner import run_case
from gm.store.rows import StoredResult
from tests.support.boards import adjustments, movement, result, retreats

KINDS: list[Kind] = [*Void, *Fate]
SCENARIOS = Path(__file__).parent.parent / "scenarios"


def filled(kind: Kind) -> Reason:
    """A reason of `kind` with every field given."""
    if kind in (Fate.ORDER_ERROR, Fate.AMBIGUOUS):
        return Reason(kind, other=ErrorCode.STATED.value, facts=(("message", "no unit in Bur"),))
    return Reason(kind, power="France", unit="A Par", province="Bur", other="Pic", count=2,
                  names=("F Bre", "F Mao"), against=1, convoy=True, more=("Bel",))


@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_every_kind_has_words(kind: Kind) -> None:
    said = words(filled(kind))
    assert says(kind) is not None
    assert "{" not in said and "}" not in said
    assert said or kind is Fate.NOTHING


@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_every_kind_is_kept_as_json(kind: Kind) -> None:
    reason = filled(kind).then(Reason(Fate.DISLODGED, unit="A Mun", power="Germany"))
    again = Reason.from_json(json.loads(json.dumps(reason.to_json())))
    assert again == reason and again is not None and again.kind is kind
    assert words(again) == words(reason)


texts = st.text(min_size=1, max_size=8)
leaf = st.builds(Reason, st.sampled_from(KINDS), texts | st.just(""), texts | st.just(""),
                 texts | st.just(""), texts | st.just(""), st.integers(-1, 20),
                 st.lists(texts, max_size=3).map(tuple), st.integers(0, 9), st.booleans(),
                 st.lists(st.tuples(texts, texts), max_size=2).map(tuple))
reasons = st.recursive(leaf, lambda inner: st.builds(
    lambda r, parts: r.then(*parts), leaf, st.lists(inner, min_size=1, max_size=2)),
    max_leaves=4)


@given(reasons)
def test_any_reason_comes_back_from_json(reason: Reason) -> None:
    assert Reason.from_json(json.loads(json.dumps(reason.to_json()))) == reason


def test_a_void_and_a_fate_of_the_same_name_stay_apart() -> None:
    assert Reason.from_json(Reason(Void.REPLACED).to_json()) == Reason(Void.REPLACED)
    assert Reason.from_json({"kind": "holds", "fate": True}) == Reason(Fate.HOLDS)
    assert Reason.from_json({"kind": "holds"}) is None  # no void kind of that name
    assert Reason.from_json({"kind": "holds", "fate": True, "parts": [{"kind": "?"}]}) is None


def test_a_bounce_and_a_dislodgement_say_who_and_how_strong() -> None:
    # DATC 6.A.10-like: two equal moves bounce; a supported attack dislodges
    outcome = movement(["France: A Par", "Germany: A Mun"],
                       ["France: A Par - Bur", "Germany: A Mun - Bur"])
    bounce = result(outcome, "France: A Par - Bur")
    assert bounce.why == Reason(Fate.BOUNCED, unit="A Mun", count=1, against=1)
    assert bounce.reason == "bounced with A Mun (1 against 1)"
    outcome = movement(["France: A Bur", "Germany: A Mun", "Germany: A Ruh"],
                       ["France: A Bur H", "Germany: A Mun - Bur", "Germany: A Ruh S A Mun - Bur"])
    lost = result(outcome, "France: A Bur H")
    assert lost.why == Reason(Fate.DISLODGED, unit="A Mun", power="Germany")
    assert lost.reason == "dislodged by A Mun (Germany)"
    assert result(outcome, "Germany: A Mun - Bur").why == Reason(
        Fate.MOVES_DISLODGING, province="Bur", unit="A Bur")


def test_a_cut_support_and_a_unit_without_orders() -> None:
    outcome = movement(["France: A Par", "France: A Bur", "Germany: A Ruh", "Germany: A Mun"],
                       ["France: A Bur S A Par", "Germany: A Ruh - Bur"])
    assert result(outcome, "France: A Bur S A Par").why == Reason(Fate.SUPPORT_CUT_BY,
                                                                   unit="A Ruh")
    idle = result(outcome, "Germany: A Mun H")
    assert idle.why == Reason(Fate.NO_ORDER, parts=(Reason(Fate.HOLDS),))
    assert idle.reason == "no order: holds"


def test_retreats_and_civil_disorder_say_why() -> None:
    outcome = retreats(["France: A Pic"], [("Germany: A Bur", "Mun"), ("Italy: A Gas", "Spa")],
                       ["Germany: A Bur - Par", "Italy: A Gas - Par"])
    clash = result(outcome, "Germany: A Bur - Par")
    assert clash.why == Reason(Fate.RETREATS_CLASHED, names=("A Gas",), province="Par")
    assert clash.reason == "disbanded: A Gas also retreated to Par"
    outcome = adjustments(["Germany: A Kie", "Germany: A Ber", "Germany: A Mun"],
                          {"Kie": "Germany"}, [])
    removed = [r for r in outcome.results if r.power == "Germany"]
    assert removed and all(r.why.kind is Fate.NO_ORDER for r in removed)
    assert {p.kind for r in removed for p in r.why.parts} == {Fate.DISORDER}
    assert all(r.reason.startswith("no order: removed by civil disorder (") for r in removed)


def test_an_order_error_keeps_its_code_and_fields() -> None:
    outcome = movement(["France: A Par"], ["France: A Mun - Ruh"])
    refused = result(outcome, "France: A Mun - Ruh")
    assert refused.why.kind is Fate.ORDER_ERROR
    assert ErrorCode(refused.why.other) is ErrorCode.STATED
    assert refused.reason == unheaded(refused.why) == dict(refused.why.facts)["message"]


@cache
def scenario_results(folder: str) -> tuple[OrderResult, ...]:
    cases = [c for path in sorted((SCENARIOS / folder).glob("*.txt")) for c in read_file(path)]
    return tuple(r for case in cases for r in run_case(case).results)


@pytest.mark.parametrize("folder", sorted(p.name for p in SCENARIOS.iterdir() if p.is_dir()))
def test_a_stored_result_reads_back_its_reason(folder: str) -> None:
    """Every result of the scenarios, stored and read back, has the same reason and words."""
    found = scenario_results(folder)
    assert found
    for r in found:
        assert r.why is not NOTHING or not r.reason
        again = StoredResult.from_json(json.loads(json.dumps(StoredResult.of(r).to_json())))
        assert again.why == r.why and again.why.kind is r.why.kind
        assert again.reason == r.reason == words(again.why)


@pytest.mark.parametrize("folder", ["datc", "datc_v3", "datc_2023"])
def test_the_standard_rules_give_no_reason_in_words_only(folder: str) -> None:
    """The standard adjudicators type every reason they give (none is a stated sentence)."""
    def kinds(reason: Reason) -> set[Kind]:
        return {reason.kind}.union(*(kinds(p) for p in reason.parts))
    for r in scenario_results(folder):
        assert Fate.STATED not in kinds(r.why), (r.text, r.reason)


@pytest.mark.parametrize("folder", ["abstraction2", "geophysical"])
def test_the_variants_rules_give_no_reason_in_words_only(folder: str) -> None:
    """Abstraction2's exchanges and Geophysical's events, stabilisations and ice give typed
    reasons too: none of their results is a stated sentence."""
    def kinds(reason: Reason) -> set[Kind]:
        return {reason.kind}.union(*(kinds(p) for p in reason.parts))
    found = scenario_results(folder)
    assert any(r.why.kind is Fate.EXCHANGE_UNEQUAL or r.why.kind is Fate.HOLDS_AGAINST
               for r in found)
    for r in found:
        assert Fate.STATED not in kinds(r.why), (r.text, r.reason)


def test_a_listing_reason_words_its_parts_as_a_list() -> None:
    """"holds against A, B" and "overcome by A (...)": the events follow as a list."""
    holds = Reason(Fate.HOLDS_AGAINST).then(Reason(Fate.AN_EVENT, power="France",
                                                   other="Erode Mos"),
                                            Reason(Fate.AN_EVENT, power="Italy",
                                                   other="Uplift ADR"))
    assert words(holds) == "holds against France's Erode Mos, Italy's Uplift ADR"
    trimmed = Reason(Fate.STABILISE_TRIMMED_AFTER, power="Russia", count=1, against=3,
                     other="4", province="3").then(Reason(Fate.NO_EVENT_THERE))
    assert words(trimmed) == ("1 of the 3 counted: Russia owns 4 centre(s) and may stabilise "
                              "that many times (rule 1b), 3 already ordered; the other 2 "
                              "refused; no event there")
