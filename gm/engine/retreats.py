"""Retreat adjudication: each dislodged unit retreats, or is disbanded.

A dislodged unit may retreat to an adjacent place it could move to that is empty after the
movement, was not left empty by a standoff, and is not the province its attacker came from
(unless that attacker was convoyed, DATC 4.A.5 and 6.H.11). Retreats cannot be convoyed (6.H.13)
nor supported (6.H.1). Two or more units retreating to the same province are all disbanded
(6.H.7, 6.H.8). A dislodged unit with no valid retreat order is disbanded.

Rules that change where a unit may retreat and what a retreat does (the A/F rules,
gm.engine.army_fleet) give `resolve_retreats` their own `check`, `places` and `carry_out`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gm.engine.errors import OrderError
from gm.engine.geo import Location
from gm.engine.legality import check_retreat_order, retreat_places, spec_of, submitted_orders
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder, Disband, Retreat
from gm.engine.reasons import Fate, Reason
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit

# Enum members as module constants (an enum class attribute costs a lookup each time).
_FAILS = Outcome.FAILS
_ILLEGAL = Outcome.ILLEGAL
_SUCCEEDS = Outcome.SUCCEEDS

DISBANDED = Reason(Fate.DISBANDED)
NO_RETREAT_ORDER = Reason(Fate.NO_RETREAT_ORDER)
NO_RETREAT_PLACE = Reason(Fate.NO_RETREAT_PLACE)

__all__ = ["CarryOut", "RetreatCheck", "RetreatPlaces", "resolve_retreats", "retreat_options"]

# How a set of rules checks a retreat order, where a unit may retreat, and what an uncontested
# retreat does (it adds the units it places to `placed`; it says what happened).
RetreatCheck = Callable[[GameMap, GameState, str, AnyOrder], AnyOrder | OrderError]
RetreatPlaces = Callable[[GameMap, GameState, Dislodged], tuple[Location, ...]]
CarryOut = Callable[[GameMap, Unit, Retreat, list[Unit]], Reason]


def retreat_options(
    gmap: GameMap, state: GameState, dislodged: Dislodged
) -> tuple[Location, ...]:
    """The places a dislodged unit may retreat to, after the movement in `state`."""
    return retreat_places(gmap, state, dislodged)


def retreat(gmap: GameMap, unit: Unit, order: Retreat, placed: list[Unit]) -> Reason:
    """Carry out an uncontested retreat: the unit goes to its destination."""
    placed.append(unit.moved_to(order.dest))
    return Reason(Fate.RETREATS, province=str(order.dest))


def resolve_retreats(
    gmap: GameMap,
    state: GameState,
    submitted: Sequence[Submitted],
    *,
    check: RetreatCheck = check_retreat_order,
    places: RetreatPlaces = retreat_places,
    carry_out: CarryOut = retreat,
) -> PhaseOutcome:
    """Adjudicate a retreat phase (under other rules: their `check`, `places` and `carry_out`).

    Returns the position with retreated units placed and no dislodged units or contested
    provinces left (same phase; the caller advances the calendar), one result per submitted
    order, and one per dislodged unit that had no valid order ("no retreat order: disbanded").
    """
    dislodged = state.dislodged
    index = {d.unit.province: (i, d.unit.power) for i, d in enumerate(dislodged)}

    def check_one(power: str, order: AnyOrder) -> AnyOrder | OrderError:
        return check(gmap, state, power, order)

    entries, follows, tried = submitted_orders(submitted, check_one, index)
    # Where each unit tries to go; two or more to one province: all disbanded.
    going: dict[str, list[int]] = {}
    for u, e in follows.items():
        order = entries[e].order
        if isinstance(order, Retreat):
            going.setdefault(order.dest.province, []).append(u)
    placed: list[Unit] = []
    results: list[OrderResult | None] = [None] * len(entries)
    for u, e in follows.items():
        entry = entries[e]
        unit = dislodged[u].unit
        order = entry.order
        if isinstance(order, Retreat):
            rivals = [r for r in going[order.dest.province] if r != u]
            if rivals:
                outcome, reason = _FAILS, Reason(
                    Fate.RETREATS_CLASHED, names=tuple(str(dislodged[r].unit) for r in rivals),
                    province=order.dest.province)
            else:
                outcome, reason = _SUCCEEDS, carry_out(gmap, unit, order, placed)
        else:
            assert isinstance(order, Disband)
            outcome, reason = _SUCCEEDS, DISBANDED
        results[e] = OrderResult(entry.power, order, entry.text, outcome, reason)
    for e, entry in enumerate(entries):
        if results[e] is None:
            reason = entry.why
            u = next((u for u, t in tried.items() if t == e and u not in follows), -1)
            if u >= 0:
                reason = reason.then(Reason(Fate.UNIT_DISBANDED, unit=str(dislodged[u].unit)))
            results[e] = OrderResult(
                entry.power, entry.order, entry.text, entry.outcome or _ILLEGAL, reason)
    extra = []
    for u, d in enumerate(dislodged):
        if u in follows or u in tried:
            continue
        order = Disband(spec_of(d.unit))
        options = places(gmap, state, d)
        why = NO_RETREAT_ORDER if options else NO_RETREAT_PLACE
        extra.append(OrderResult(d.unit.power, order, str(order), _SUCCEEDS, why))
    extra.sort(key=lambda r: (r.power, r.text))
    final = tuple(r for r in results if r is not None) + tuple(extra)
    return PhaseOutcome(
        state=state.evolve(units=state.units + tuple(placed), dislodged=(),
                           contested=frozenset()),
        results=final,
    )
