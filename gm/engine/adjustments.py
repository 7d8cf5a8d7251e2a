"""Adjustment adjudication: builds, waived builds and removals, then civil disorder.

Each power may build as many units as it owns centres beyond its units, and must remove as many
as it has units beyond its centres. Orders are carried out in the order given, skipping those
that cannot be (DATC 4.D.4-4.D.6): the first legal builds are used and extra ones ignored
(6.I.1), one build per province (6.I.7), the same unit is not removed twice (6.J.2). Builds not
ordered are waived; removals not ordered are made by the civil disorder rule
(gm.engine.civil_disorder, DATC 6.J).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from gm.engine.civil_disorder import FAR, disorder_removals
from gm.engine.legality import check_adjustment_order, error_reason, spec_of, unreadable
from gm.engine.map import GameMap
from gm.engine.orders import Build, Remove, Waive
from gm.engine.reasons import NOTHING, Fate, Reason, Void
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.rulebook import plays_2023
from gm.engine.state import GameState
from gm.engine.units import NEUTRAL, Unit, UnitType

# the reasons given most often, made once
NO_ORDER = Reason(Fate.NO_ORDER)
WAIVED = Reason(Fate.WAIVED)

# Enum members as module constants (an enum class attribute costs a lookup each time).
_ILLEGAL = Outcome.ILLEGAL
_SUCCEEDS = Outcome.SUCCEEDS
_ARMY_FLEET = UnitType.ARMY_FLEET

__all__ = ["adjustment_delta", "adjustment_deltas", "resolve_adjustments"]


def adjustment_delta(state: GameState, power: str, centres: Collection[str] | None = None) -> int:
    """Centres `power` owns (of `centres`, the map's current supply centres, if given) minus its
    units: builds if positive, removals if negative."""
    owned = sum(
        1 for c, p in state.owners.items() if p == power and (centres is None or c in centres)
    )
    # An A/F is two units, its army and its fleet (A/F rules, gm.engine.army_fleet).
    return owned - sum(2 if u.type is _ARMY_FLEET else 1
                       for u in state.units if u.power == power)


def adjustment_deltas(state: GameState, centres: Collection[str] | None = None) -> dict[str, int]:
    """`adjustment_delta` for every power with a unit or a centre."""
    # One pass over centres and units (as adjustment_delta for each power).
    counts: dict[str, int] = {}
    for centre, owner in state.owners.items():
        counts[owner] = counts.get(owner, 0) + (centres is None or centre in centres)
    for u in state.units:
        if u.power == NEUTRAL:
            continue  # a neutral garrison is never built or removed
        # An A/F is two units, its army and its fleet (A/F rules, gm.engine.army_fleet).
        counts[u.power] = counts.get(u.power, 0) - (2 if u.type is _ARMY_FLEET else 1)
    return {p: counts[p] for p in sorted(counts)}


def resolve_adjustments(
    gmap: GameMap,
    state: GameState,
    submitted: Sequence[Submitted],
    build_sites: Mapping[str, frozenset[str]],
) -> PhaseOutcome:
    """Adjudicate an adjustment phase.

    `build_sites[power]` are the provinces where `power` may build now (the variant decides:
    standard, its owned home centres). Returns the position with builds and removals made (same
    phase), one result per submitted order, one per build left unused ("no order: build
    waived") and one per unit removed by civil disorder.
    """
    deltas = adjustment_deltas(state, gmap.centres)
    used: dict[str, int] = {}  # builds or removals counted so far, per power
    built_in: set[str] = set()
    removed: set[str] = set()
    new_units: list[Unit] = []
    results: list[OrderResult] = []
    for sub in submitted:
        if sub.order is None:
            results.append(OrderResult(sub.power, None, sub.text, _ILLEGAL,
                                       unreadable(sub.error)))
            continue
        delta = deltas.get(sub.power, 0)
        checked = check_adjustment_order(gmap, state, sub.power, sub.order, build_sites, delta)
        if not isinstance(checked, (Build, Remove, Waive)):
            results.append(OrderResult(
                sub.power, sub.order, sub.text, _ILLEGAL, error_reason(checked)))
            continue
        limit = abs(delta)
        count = used.get(sub.power, 0)
        why: Reason | None = None
        outcome, reason = _ILLEGAL, NOTHING
        if isinstance(checked, Remove):
            province = checked.unit.province
            if province in removed:
                why = Reason(Void.ALREADY_REMOVED, unit=str(checked.unit))
            elif count >= limit:
                why = Reason(Void.REMOVE_ONLY, power=sub.power, count=limit)
            else:
                removed.add(province)
                used[sub.power] = count + 1
                outcome, reason = _SUCCEEDS, Reason(Fate.REMOVED, unit=str(checked.unit))
        elif count >= limit:
            why = Reason(Void.BUILD_ONLY, power=sub.power, count=limit)
        elif isinstance(checked, Waive):
            used[sub.power] = count + 1
            outcome, reason = _SUCCEEDS, WAIVED
        else:
            province = checked.unit.province
            if province in built_in:
                why = Reason(Void.ALREADY_BUILT, province=province)
            else:
                built_in.add(province)
                used[sub.power] = count + 1
                assert checked.unit.type is not None
                new_units.append(Unit(sub.power, checked.unit.type, checked.unit.location))
                outcome, reason = _SUCCEEDS, Reason(Fate.BUILDS, unit=str(checked.unit))
        if why is not None:
            outcome, reason = _ILLEGAL, why
        results.append(OrderResult(sub.power, checked, sub.text, outcome, reason))
    extra: list[OrderResult] = []
    for power, delta in deltas.items():
        missing = abs(delta) - used.get(power, 0)
        if missing <= 0:
            continue
        if delta > 0:
            for _ in range(missing):
                extra.append(OrderResult(power, Waive(), "Waive", _SUCCEEDS,
                                         NO_ORDER.then(WAIVED)))
            continue
        # DATC 6.J: the missing removals by civil disorder.
        left = [u for u in state.units if u.power == power and u.province not in removed]
        if plays_2023(state):  # DATC v3.0 6.J: from the nearest centre the power owns
            homes: Sequence[str] = [c for c in state.centres_of(power) if c in gmap.centres]
            where = "an owned centre"
        else:
            homes = state.homes.get(power) or state.centres_of(power)
            where = "home"
        for unit, distance in disorder_removals(gmap, left, homes, missing, plays_2023(state)):
            removed.add(unit.province)
            order = Remove(spec_of(unit))
            how = Reason(Fate.DISORDER, count=distance, other=where) if distance < FAR else \
                Reason(Fate.DISORDER, count=-1,
                       other="a home centre" if where == "home" else where)
            extra.append(OrderResult(power, order, str(order), _SUCCEEDS, NO_ORDER.then(how)))
    units = tuple(u for u in state.units if u.location.province not in removed) + tuple(new_units)
    return PhaseOutcome(state=state.evolve(units=units), results=tuple(results + extra))
