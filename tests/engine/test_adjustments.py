"""Adjustment adjudication on the standard map: builds, waives, removals and civil disorder
(DATC 6.I and 6.J, v2.4: distance to home centres)."""

from __future__ import annotations

import pytest

from gm.engine.adjustments import adjustment_delta, adjustment_deltas
from gm.engine.civil_disorder import FAR, distance_home
from gm.engine.results import Outcome
from tests.support.boards import WINTER, adjustments, board, position, result, std, unit

RUSSIA3 = {"Mos": "Russia", "StP": "Russia", "War": "Russia"}
ITALY3 = {"Ven": "Italy", "Rom": "Italy", "Nap": "Italy"}


def test_first_legal_builds_count_and_extra_builds_are_ignored() -> None:
    # DATC 6.I.1
    outcome = adjustments(
        ["Russia: A War", "Germany: A Par"],
        {"War": "Russia", "Kie": "Germany", "Mun": "Germany"},
        ["Germany: Build A War", "Germany: Build A Kie", "Germany: Build A Mun"],
    )
    assert board(outcome) == {"Russia: A War", "Germany: A Par", "Germany: A Kie"}
    assert result(outcome, "Germany: Build A War").outcome is Outcome.ILLEGAL
    assert result(outcome, "Germany: Build A Kie").reason == "builds A Kie"
    extra = result(outcome, "Germany: Build A Mun")
    assert extra.outcome is Outcome.ILLEGAL
    assert extra.reason == "void: Germany may build only 1"


def test_only_one_build_in_a_province() -> None:
    # DATC 6.I.7
    outcome = adjustments(
        ["Russia: A War"], RUSSIA3, ["Russia: Build A Mos", "Russia: Build A Mos"],
    )
    assert board(outcome) == {"Russia: A War", "Russia: A Mos"}
    second = [r for r in outcome.results if r.text == "Build A Mos"][1]
    assert second.reason == "void: a unit is already built in Mos"
    # The build left over is waived.
    assert result(outcome, "Russia: Waive").reason == "no order: build waived"


def test_fleet_build_in_stp_needs_a_coast() -> None:
    # DATC 6.B.14
    outcome = adjustments(["Russia: A Mos"], {"Mos": "Russia", "StP": "Russia"},
                          ["Russia: Build F StP"])
    assert board(outcome) == {"Russia: A Mos"}
    assert result(outcome, "Russia: Build F StP").reason == (
        "ambiguous: Build F StP: say which coast, StP/nc or StP/sc")
    outcome = adjustments(["Russia: A Mos"], {"Mos": "Russia", "StP": "Russia"},
                          ["Russia: Build F StP/nc"])
    assert board(outcome) == {"Russia: A Mos", "Russia: F StP/nc"}


def test_waive_uses_a_build() -> None:
    outcome = adjustments(["Russia: A War"], RUSSIA3,
                          ["Russia: Waive", "Russia: Build A Mos", "Russia: Build A StP"])
    assert board(outcome) == {"Russia: A War", "Russia: A Mos"}
    assert result(outcome, "Russia: Waive").reason == "build waived"
    assert result(outcome, "Russia: Build A StP").outcome is Outcome.ILLEGAL


def test_too_many_removals() -> None:
    # DATC 6.J.1: the first legal removal counts.
    outcome = adjustments(
        ["France: A Pic", "France: A Par"], {"Par": "France"},
        ["France: Remove F LYO", "France: Remove A Pic", "France: Remove A Par"],
    )
    assert board(outcome) == {"France: A Par"}
    assert result(outcome, "France: Remove F LYO").reason == "no unit in LYO"
    assert result(outcome, "France: Remove A Par").reason == "void: France needs to remove only 1"


def test_removing_the_same_unit_twice() -> None:
    # DATC 6.J.2: the second removal is made by civil disorder (the fleet is farthest).
    outcome = adjustments(
        ["France: A Pic", "France: A Par", "France: F LYO"], {"Par": "France"},
        ["France: Remove A Par", "France: Remove A Par"],
    )
    assert board(outcome) == {"France: A Pic"}
    assert [r.reason for r in outcome.results][1] == "void: A Par is already removed"
    assert result(outcome, "France: Remove F LYO").reason == (
        "no order: removed by civil disorder (1 move from home)")


@pytest.mark.parametrize(
    ("units", "owners", "kept"),
    [
        # 6.J.3: two armies, different distance: Swe is farther.
        (["A Mos", "A StP", "A Lvn", "A Swe"], RUSSIA3, ["A Mos", "A StP", "A Lvn"]),
        # 6.J.4: equal distance: alphabetical (Livonia before Ukraine).
        (["A Mos", "A StP", "A Lvn", "A Ukr"], RUSSIA3, ["A Mos", "A StP", "A Ukr"]),
        # 6.J.5: two fleets, different distance.
        (["A Mos", "A StP", "F SKA", "F Ber"], RUSSIA3, ["A Mos", "A StP", "F SKA"]),
        # 6.J.6: two fleets, equal distance: alphabetical.
        (["A Mos", "A StP", "F SKA", "F BAL"], RUSSIA3, ["A Mos", "A StP", "F SKA"]),
        # 6.J.7: equal distance: fleets before armies, then alphabetical.
        (["A Boh", "F SKA", "F NTH"], {"StP": "Russia", "War": "Russia"}, ["A Boh", "F SKA"]),
        # 6.J.8: the fleet is nearer than the army.
        (["A Mos", "A StP", "A Tyr", "F BAL"], RUSSIA3, ["A Mos", "A StP", "F BAL"]),
        # 6.J.9: distance counted from both coasts of StP.
        (["A Tyr", "F BAL"], {"StP": "Russia"}, ["F BAL"]),
        (["A Tyr", "F SKA"], {"StP": "Russia"}, ["F SKA"]),
    ],
)
def test_civil_disorder_russia(units: list[str], owners: dict[str, str], kept: list[str]) -> None:
    outcome = adjustments([f"Russia: {u}" for u in units], owners, [])
    assert board(outcome) == {f"Russia: {u}" for u in kept}


@pytest.mark.parametrize(
    "units",
    [
        # 6.J.10: counting the convoy distance...
        ["A Ven", "F ION", "A Gre", "A Sil"],
        # 6.J.11: ...even without a fleet to convoy.
        ["A Ven", "A Rom", "A Gre", "A Sil"],
    ],
)
def test_civil_disorder_armies_cross_water(units: list[str]) -> None:
    outcome = adjustments([f"Italy: {u}" for u in units], ITALY3, [])
    assert "Italy: A Sil" not in board(outcome)
    assert result(outcome, "Italy: Remove A Sil").reason == (
        "no order: removed by civil disorder (3 moves from home)")


def test_distances() -> None:
    homes = ("Mos", "Sev", "StP", "War")
    assert distance_home(std(), unit("Russia: A Mos"), homes) == 0
    assert distance_home(std(), unit("Russia: A Tyr"), homes) == 3
    assert distance_home(std(), unit("Russia: F SKA"), homes) == 2
    assert distance_home(std(), unit("Italy: A Gre"), ("Ven", "Rom", "Nap")) == 2
    assert distance_home(std(), unit("Russia: F BLA"), ("Mos", "War")) == FAR


def test_missing_builds_are_waived() -> None:
    outcome = adjustments(["Russia: A War"], RUSSIA3, [])
    assert board(outcome) == {"Russia: A War"}
    assert [(r.power, r.reason) for r in outcome.results] == [
        ("Russia", "no order: build waived"), ("Russia", "no order: build waived")]


def test_orders_of_powers_without_adjustments() -> None:
    outcome = adjustments(["France: A Par"], {"Par": "France"}, ["France: Build A Par",
                                                                 "France: Remove A Par"])
    assert board(outcome) == {"France: A Par"}
    assert result(outcome, "France: Build A Par").reason == "France has no builds"
    assert result(outcome, "France: Remove A Par").reason == (
        "France has no units to remove")


def test_deltas() -> None:
    state = position("Russia: A War", "France: A Par", "France: A Bur", phase=WINTER,
                     owners={"War": "Russia", "Mos": "Russia", "Par": "France"})
    assert adjustment_delta(state, "Russia") == 1
    assert adjustment_delta(state, "France") == -1
    assert adjustment_delta(state, "Russia", centres={"War"}) == 0
    assert adjustment_deltas(state, std().centres) == {"France": -1, "Russia": 1}
