"""Retreat adjudication: each dislodged unit retreats, or is disbanded.

A dislodged unit may retreat to an adjacent place it could move to that is empty after the
movement, was not left empty by a standoff, and is not the province its attacker came from
(unless that attacker was convoyed, DATC 4.A.5 and 6.H.11). Retreats cannot be convoyed (6.H.13)
nor supported (6.H.1). Two or more units retreating to the same province are all disbanded
(6.H.7, 6.H.8). A dislodged unit with no valid retreat order is disbanded.

Under the A/F rules (`army_fleet=True`; Abstraction2 rule 3, Deluge II rule 8): an A/F retreats
as a fleet, and if it retreats to a coastal space it becomes a fleet and its army is disbanded;
an army may retreat onto an adjacent fleet of its own power in a sea space, forming an A/F there
(two armies retreating onto one fleet are both disbanded, like two units retreating to one
province).
"""

from __future__ import annotations

from collections.abc import Sequence

from gm.engine.errors import OrderError
from gm.engine.geo import Location
from gm.engine.legality import (
    check_retreat_order,
    check_retreat_order_af,
    retreat_places,
    retreat_places_af,
    spec_of,
    submitted_orders,
)
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder, Disband, Retreat
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType

# Enum members as module constants (an enum class attribute costs a lookup each time).
_FAILS = Outcome.FAILS
_ILLEGAL = Outcome.ILLEGAL
_SUCCEEDS = Outcome.SUCCEEDS
_ARMY = UnitType.ARMY
_ARMY_FLEET = UnitType.ARMY_FLEET
_FLEET = UnitType.FLEET

__all__ = ["resolve_retreats", "retreat_options"]


def retreat_options(
    gmap: GameMap, state: GameState, dislodged: Dislodged, army_fleet: bool = False
) -> tuple[Location, ...]:
    """The places a dislodged unit may retreat to, after the movement in `state`."""
    if army_fleet:
        return retreat_places_af(gmap, state, dislodged)
    return retreat_places(gmap, state, dislodged)


def resolve_retreats(
    gmap: GameMap, state: GameState, submitted: Sequence[Submitted], *, army_fleet: bool = False
) -> PhaseOutcome:
    """Adjudicate a retreat phase.

    Returns the position with retreated units placed and no dislodged units or contested
    provinces left (same phase; the caller advances the calendar), one result per submitted
    order, and one per dislodged unit that had no valid order ("no retreat order: disbanded").
    """
    dislodged = state.dislodged
    index = {d.unit.province: (i, d.unit.power) for i, d in enumerate(dislodged)}

    def check(power: str, order: AnyOrder) -> AnyOrder | OrderError:
        if army_fleet:
            return check_retreat_order_af(gmap, state, power, order)
        return check_retreat_order(gmap, state, power, order)

    entries, follows, tried = submitted_orders(submitted, check, index)
    # Where each unit tries to go; two or more to one province: all disbanded.
    going: dict[str, list[int]] = {}
    for u, e in follows.items():
        order = entries[e].order
        if isinstance(order, Retreat):
            going.setdefault(order.dest.province, []).append(u)
    placed: list[Unit] = []
    boarded: dict[str, Unit] = {}  # A/F rules: sea -> the army that retreated onto its fleet
    results: list[OrderResult | None] = [None] * len(entries)
    for u, e in follows.items():
        entry = entries[e]
        unit = dislodged[u].unit
        order = entry.order
        if isinstance(order, Retreat):
            rivals = [r for r in going[order.dest.province] if r != u]
            if rivals:
                names = ", ".join(str(dislodged[r].unit) for r in rivals)
                outcome, reason = _FAILS, (
                    f"disbanded: {names} also retreated to {order.dest.province}")
            elif army_fleet:
                outcome, reason = _SUCCEEDS, _af_retreat(gmap, unit, order, placed, boarded)
            else:
                placed.append(unit.moved_to(order.dest))
                outcome, reason = _SUCCEEDS, f"retreats to {order.dest}"
        else:
            assert isinstance(order, Disband)
            outcome, reason = _SUCCEEDS, "disbanded"
        results[e] = OrderResult(entry.power, order, entry.text, outcome, reason)
    for e, entry in enumerate(entries):
        if results[e] is None:
            reason = entry.reason
            u = next((u for u, t in tried.items() if t == e and u not in follows), -1)
            if u >= 0:
                reason += f"; {dislodged[u].unit} is disbanded"
            results[e] = OrderResult(
                entry.power, entry.order, entry.text, entry.outcome or _ILLEGAL, reason
            )
    extra = []
    for u, d in enumerate(dislodged):
        if u in follows or u in tried:
            continue
        order = Disband(spec_of(d.unit))
        options = retreat_options(gmap, state, d, army_fleet)
        why = "no retreat order: disbanded" if options else "no place to retreat to: disbanded"
        extra.append(OrderResult(d.unit.power, order, str(order), _SUCCEEDS, why))
    extra.sort(key=lambda r: (r.power, r.text))
    final = tuple(r for r in results if r is not None) + tuple(extra)
    units = state.units
    if boarded:
        units = tuple(
            Unit(u.power, _ARMY_FLEET, u.location) if u.province in boarded else u
            for u in units
        )
    return PhaseOutcome(
        state=state.evolve(units=units + tuple(placed), dislodged=(), contested=frozenset()),
        results=final,
    )


def _af_retreat(
    gmap: GameMap, unit: Unit, order: Retreat, placed: list[Unit], boarded: dict[str, Unit]
) -> str:
    """Carry out an uncontested retreat under the A/F rules (Abstraction2 rule 3); the reason."""
    dest = order.dest
    if unit.type is _ARMY and gmap.is_water(dest.province):
        boarded[dest.province] = unit
        return f"retreats onto the fleet in {dest.province}, forming A/F {dest.province}"
    if unit.type is _ARMY_FLEET and not gmap.is_water(dest.province):
        placed.append(Unit(unit.power, _FLEET, dest))
        return f"retreats to {dest} as a fleet; its army is disbanded"
    placed.append(unit.moved_to(dest))
    return f"retreats to {dest}"

