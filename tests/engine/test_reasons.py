"""Why an order is void, as a value (gm.engine.reasons): the adjudicators give each void order
its kind and fields (OrderResult.why), worded in one place (gm.engine.reason_words) the way the
reports always read; the reply's refusal is the same words without their head; the reasons are
kept with the stored results."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gm.engine.game import advance
from gm.engine.orders import Alliance, DesignateHome
from gm.engine.phase import Phase, PhaseType
from gm.engine.reason_words import head, refusal, words
from gm.engine.reasons import REPLACED, Fate, Reason, Void
from gm.engine.results import Outcome, Submitted
from gm.store.rows import StoredResult
from gm.variants import get_variant
from tests.support.boards import adjustments, movement, result

texts = st.text(min_size=1, max_size=10)
reasons = st.builds(Reason, st.sampled_from(list(Void)), texts | st.just(""),
                    texts | st.just(""), texts | st.just(""), texts | st.just(""),
                    st.integers(0, 20), st.lists(texts, max_size=3).map(tuple))


@given(reasons)
def test_every_reason_has_words_and_is_kept_as_json(reason: Reason) -> None:
    said = words(reason)
    assert said == f"{head(reason)}: {refusal(reason)}"
    assert Reason.from_json(json.loads(json.dumps(reason.to_json()))) == reason


@pytest.mark.parametrize(("reason", "said"), [
    (REPLACED, "void: replaced by a later order"),
    (Reason(Void.BUILD_ONLY, power="Germany", count=1), "void: Germany may build only 1"),
    (Reason(Void.SUPPORT_DID_NOT_HOLD, unit="F BAL", province="Swe"),
     "support void: F BAL did not hold (it moved to Swe)"),
    (Reason(Void.CONVOY_DID_NOT_MOVE, unit="A Lon", province="Bel"),
     "convoy void: A Lon did not move to Bel"),
    (Reason(Void.NO_SUCH_POWER, names=("Prussia", "Savoy")),
     "void: no power called Prussia, Savoy"),
])
def test_the_words_of_a_reason(reason: Reason, said: str) -> None:
    assert words(reason) == said
    assert refusal(reason) == said.partition(": ")[2]


def test_a_reason_not_known_here_is_none() -> None:
    assert Reason.from_json({"kind": "teleported"}) is None
    assert Reason.from_json({"kind": "replaced", "count": "two"}) is None
    assert Reason.from_json(None) is None


def test_adjustments_say_why_a_build_or_a_removal_is_void() -> None:
    # DATC 6.I.1 and 6.I.7
    outcome = adjustments(
        ["Russia: A War", "Germany: A Par"],
        {"War": "Russia", "Kie": "Germany", "Mun": "Germany"},
        ["Germany: Build A Kie", "Germany: Build A Mun"],
    )
    extra = result(outcome, "Germany: Build A Mun")
    assert extra.why == Reason(Void.BUILD_ONLY, power="Germany", count=1)
    assert extra.reason == words(extra.why)
    assert result(outcome, "Germany: Build A Kie").why == Reason(Fate.BUILDS, unit="A Kie")
    twice = adjustments(["Russia: A War"], {"Mos": "Russia", "StP": "Russia", "War": "Russia"},
                        ["Russia: Build A Mos", "Russia: Build A Mos"])
    second = [r for r in twice.results if r.text == "Build A Mos"][1]
    assert second.why == Reason(Void.ALREADY_BUILT, province="Mos")


def test_movement_says_why_an_order_or_a_support_is_void() -> None:
    outcome = movement(["France: A Par"], ["France: A Par - Bur", "France: A Par - Pic"])
    assert result(outcome, "France: A Par - Bur").why == REPLACED
    moved = result(outcome, "France: A Par - Pic").why
    assert moved == Reason(Fate.MOVES, province="Pic") and not moved.is_void
    outcome = movement(
        ["Italy: A Ven", "Italy: A Rom", "Austria: A Tri"],
        ["Italy: A Ven H", "Italy: A Rom S A Ven - Tus", "Austria: A Tri H"],
    )
    void = result(outcome, "Italy: A Rom S A Ven - Tus")
    assert void.outcome is Outcome.FAILS  # a support that does not match fails, void
    assert void.why == Reason(Void.SUPPORT_DID_NOT_MOVE, unit="A Ven", province="Tus")
    assert void.reason == "support void: A Ven did not move to Tus"


def test_a_variant_says_why_its_orders_are_void() -> None:
    """Chaos II rules 4 and 6: Home and Alliance orders are Winter orders."""
    variant = get_variant("chaos2")
    state = variant.start_state().evolve(phase=Phase("Spring", 1901, PhaseType.MOVEMENT))
    step = advance(variant, state, [Submitted("Paris", "Home Bel", DesignateHome("Bel")),
                                    Submitted("Paris", "Alliance Berlin", Alliance(("Berlin",)))])
    why = {r.text: r.why for r in step.results if r.power == "Paris"}
    assert why["Home Bel"] == Reason(Void.HOME_NOT_IN_WINTER)
    assert why["Alliance Berlin"] == Reason(Void.ALLIANCE_NOT_IN_WINTER)


def test_a_stored_result_keeps_its_reason() -> None:
    outcome = movement(["France: A Par"], ["France: A Par - Bur", "France: A Par - Pic"])
    stored = StoredResult.of(result(outcome, "France: A Par - Bur"))
    data = json.loads(json.dumps(stored.to_json()))
    assert data["why"] == {"kind": "replaced"}
    again = StoredResult.from_json(data)
    assert again.why == REPLACED and again.reason == "void: replaced by a later order"
    older = StoredResult.from_json({k: v for k, v in data.items() if k != "why"})
    assert older.why == Reason(Fate.STATED, other=again.reason)
    assert older.reason == again.reason
