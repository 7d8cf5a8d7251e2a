"""Frozen regions (Abstraction2 rule 5), the option `[frozen]` of a variant file: in the movement
phases of the frozen months (and the retreats after them) the fleets and A/Fs in the frozen
provinces may only hold and cannot be dislodged; armies in the frozen provinces listed as
`armies` cannot be dislodged and may leave only overland (not by convoy, Fast Ferry or
boarding). Played by the A/F movement resolver (gm.engine.army_fleet), which plays the
standard rules when nobody uses A/F orders.

    [frozen]
    months = ["January", "February", "April"]
    provinces = ["ARO", "BAR", "Arc", "Lap", "Ice"]
    armies = ["Lap", "Arc"]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gm.engine.army_fleet import resolve_movement_af
from gm.engine.map import GameMap
from gm.engine.orders import Convoy, Embark, Hold, Move
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import Fate, Reason
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType

HELP_TEXT = """\
Frozen regions: in the movement phases of {months} (and the retreats after them) the fleets
in {provinces} may only hold and cannot be dislodged{armies}."""


@dataclass(frozen=True)
class FrozenRules:
    """What the frozen regions change in one movement phase: units that may only hold,
    provinces whose units cannot be dislodged, armies that may not leave by convoy."""

    hold_only: frozenset[str]
    undislodgeable: frozenset[str]
    no_convoy_from: frozenset[str]


@dataclass(frozen=True)
class FrozenRegions:
    """The frozen months (season names), the frozen provinces, and those of them whose armies
    cannot be dislodged nor leave by sea."""

    months: frozenset[str]
    provinces: frozenset[str]
    armies: frozenset[str] = frozenset()

    def is_frozen(self, phase: Phase) -> bool:
        """Are the regions frozen in this phase (a frozen month's moves and retreats)?"""
        return phase.season in self.months and phase.type is not PhaseType.ADJUSTMENT

    def frozen_in(self, state: GameState) -> frozenset[str]:
        """The provinces frozen in the position (none outside the frozen months)."""
        return self.provinces if self.is_frozen(state.phase) else frozenset()

    def rules(self, state: GameState) -> FrozenRules:
        """The rules for the position: nothing outside the frozen months."""
        if not self.is_frozen(state.phase):
            return FrozenRules(frozenset(), frozenset(), frozenset())
        fleets = frozenset(u.province for u in state.units
                           if u.province in self.provinces and u.type is not UnitType.ARMY)
        armies = frozenset(u.province for u in state.units
                           if u.province in self.armies and u.type is UnitType.ARMY)
        return FrozenRules(fleets, fleets | armies, armies)

    def help(self) -> str:
        """The rule in words, for HELP."""
        armies = (f"; armies in {', '.join(sorted(self.armies))} cannot be dislodged and may "
                  "leave only overland") if self.armies else ""
        return HELP_TEXT.format(months=", ".join(sorted(self.months)),
                                provinces=", ".join(sorted(self.provinces)), armies=armies)

    def resolve_movement(self, gmap: GameMap, state: GameState,
                         submitted: Sequence[Submitted]) -> PhaseOutcome:
        """The A/F movement resolver with the frozen regions applied. Convoys, Fast Ferries and
        boardings out of a frozen army province are void before adjudication; the unit ordered
        so holds and its result says why (one result per order, as the resolver gives)."""
        rules = self.rules(state)
        if not rules.hold_only and not rules.undislodgeable:
            return resolve_movement_af(gmap, state, submitted)
        kept: list[Submitted] = []
        void: list[tuple[Submitted, str, Unit]] = []
        for sub in submitted:
            where = _convoy_from_frozen(gmap, sub.order, rules.no_convoy_from)
            order = sub.order
            unit: Unit | None = None
            if isinstance(order, Move | Convoy | Embark):
                unit = state.unit_in(order.unit.province)
            if where is not None and unit is not None and unit.power == sub.power:
                void.append((sub, where, unit))
            else:
                kept.append(sub)
        outcome = resolve_movement_af(
            gmap, state, kept, undislodgeable=rules.undislodgeable, hold_only=rules.hold_only
        )
        if not void:
            return outcome
        # The resolver gave each unit whose only order was voided here a "no order: holds"
        # result; the voided order's own result takes its place.
        replaced = {(unit.power, unit.province) for _, _, unit in void}
        final = [
            r
            for r in outcome.results
            if not (
                isinstance(r.order, Hold)
                and r.why.kind is Fate.NO_ORDER
                and (r.power, r.order.unit.province) in replaced
            )
        ]
        for sub, where, unit in void:
            final.append(
                OrderResult(
                    sub.power,
                    sub.order,
                    sub.text,
                    Outcome.ILLEGAL,
                    Reason(Fate.FROZEN_CONVOY, province=where, unit=str(unit)),
                )
            )
        return PhaseOutcome(outcome.state, tuple(final), outcome.events)


def frozen_regions(table: Mapping[str, Any]) -> FrozenRegions:
    """The regions of a checked `[frozen]` table (months, provinces, armies)."""
    return FrozenRegions(frozenset(table["months"]), frozenset(table["provinces"]),
                         frozenset(table.get("armies", ())))


def _convoy_from_frozen(gmap: GameMap, order: object, armies: frozenset[str]) -> str | None:
    """The frozen province an order would carry an army out of by sea (a convoy or Fast
    Ferry, or boarding a fleet), if it does."""
    if isinstance(order, Convoy) and order.target.province in armies:
        return order.target.province
    if isinstance(order, Embark) and order.unit.province in armies:
        return order.unit.province
    if isinstance(order, Move) and order.unit.province in armies:
        src = order.unit.province
        if order.via_convoy or order.dest.province not in gmap.army_adj.get(src, frozenset()):
            return src
    return None
