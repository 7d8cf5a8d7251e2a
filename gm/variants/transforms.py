"""Transforms (Deluge II rule 2), the option `transforms = true` of a variant file: an army in a
coastal province may, instead of moving or supporting, turn into a fleet where it stands
(`A Bre transforms`; `A Spa transforms to F Spa/sc` where the province has several coasts). It
holds, and becomes a fleet at the end of the movement phase unless it is dislodged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gm.engine.geo import Location
from gm.engine.legality import spec_of
from gm.engine.map import GameMap
from gm.engine.orders import Hold, Transform
from gm.engine.reasons import Fate, Reason
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.variants.terrain_schedule import unit_text

Resolver = Callable[[GameMap, GameState, Sequence[Submitted]], PhaseOutcome]

HELP_TEXT = """\
Transforms (Deluge II rule 2): an army in a coastal province may, instead of moving or
supporting, be ordered to turn into a fleet, with the movement orders: `A Bre transforms`
(`A Spa transforms to F Spa/sc` where the province has several coasts). It holds (and may be
supported to hold) and becomes a fleet at the end of the movement phase unless dislodged."""


def check_transform(gmap: GameMap, state: GameState, power: str, order: Transform) -> (
    Location | Reason
):
    """Where the fleet will stand if the transform succeeds, or why the order is illegal
    (rule 2: an army of the power, in a coastal province; a split coast must be named)."""
    prov = order.unit.province
    unit = state.unit_in(prov)
    if unit is None or unit.power != power:
        return Reason(Fate.NO_UNIT, power=power, province=prov)
    if unit.type is not UnitType.ARMY:
        return Reason(Fate.NOT_AN_ARMY, unit=str(unit))
    places = gmap.fleet_locations(prov)
    if not places or not gmap.is_land(prov):
        return Reason(Fate.NOT_COASTAL, province=prov)
    if len(places) == 1:
        return places[0]
    listed = tuple(str(p) for p in places)
    if order.coast is None or order.coast.coast is None:
        return Reason(Fate.COAST_NOT_SAID, province=prov, names=listed)
    wanted = Location(prov, order.coast.coast)
    if order.coast.province != prov or wanted not in places:
        return Reason(Fate.NOT_A_COAST, other=str(order.coast), province=prov, names=listed)
    return wanted


def with_transforms(base: Resolver) -> Resolver:
    """A movement resolver that also plays rule 2: each legal transform is given to `base` as a
    hold with the player's text; its result is reported as the transform; an army that held
    without being dislodged becomes a fleet where it stands. An illegal transform's result says
    what became of the army (it holds), as an illegal standard order's does."""

    def resolve(gmap: GameMap, state: GameState, submitted: Sequence[Submitted]) -> PhaseOutcome:
        passed: list[Submitted] = []
        illegal: dict[tuple[str, str], OrderResult] = {}  # (power, province) -> last one
        void: list[OrderResult] = []
        wanted: dict[tuple[str, str], tuple[Transform, Location]] = {}
        for sub in submitted:
            order = sub.order
            if not isinstance(order, Transform):
                passed.append(sub)
                continue
            found = check_transform(gmap, state, sub.power, order)
            if isinstance(found, Reason):
                key = (sub.power, order.unit.province)
                if key in illegal:
                    void.append(illegal[key])
                illegal[key] = OrderResult(sub.power, order, sub.text, Outcome.ILLEGAL, found)
                continue
            unit = state.unit_in(order.unit.province)
            assert unit is not None
            passed.append(Submitted(sub.power, sub.text, Hold(spec_of(unit))))
            wanted[(sub.power, sub.text)] = (Transform(spec_of(unit), order.coast), found)
        outcome = base(gmap, state, passed)
        if not wanted and not illegal:
            return outcome
        results: list[OrderResult] = []
        units = list(outcome.state.units)
        events: list[str] = []
        for r in outcome.results:
            if isinstance(r.order, Hold) and r.why.kind is Fate.NO_ORDER:
                bad = illegal.get((r.power, r.order.unit.province))
                if bad is not None:  # the army of an illegal transform held
                    fate = Reason(Fate.UNIT_FATE, unit=str(r.order.unit), parts=r.why.parts)
                    illegal[(r.power, r.order.unit.province)] = OrderResult(
                        bad.power, bad.order, bad.text, Outcome.ILLEGAL, bad.why.then(fate),
                        r.dislodged_by)
                    continue
            key = (r.power, r.text)
            if key not in wanted or not isinstance(r.order, Hold):
                results.append(r)
                continue
            order, place = wanted.pop(key)
            army = Unit(r.power, UnitType.ARMY, Location(place.province))
            if r.outcome is Outcome.SUCCEEDS and army in units:
                fleet = Unit(r.power, UnitType.FLEET, place)
                units[units.index(army)] = fleet
                events.append(f"{unit_text(army)} becomes a fleet: {fleet}.")
                results.append(OrderResult(r.power, order, r.text, Outcome.SUCCEEDS,
                                           Reason(Fate.BECOMES, unit=str(fleet))))
            else:
                outcome_word = Outcome.FAILS if r.outcome is Outcome.SUCCEEDS else r.outcome
                results.append(OrderResult(r.power, order, r.text, outcome_word,
                                           r.why if r.why.kind is not Fate.NOTHING
                                           else Reason(Fate.DISLODGED_ONLY), r.dislodged_by,
                                           r.details))
        state_after = outcome.state.evolve(units=tuple(units))
        return PhaseOutcome(state_after, (*void, *illegal.values(), *results),
                            outcome.events + tuple(events))

    return resolve
