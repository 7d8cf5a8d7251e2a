"""Build sites for one kind of unit (a variant file's `build_only`, as DPjudge map files and
webDiplomacy variants mark some home centres for fleets or for armies only): a build of the
other kind there is refused with its reason, and the rest of the adjustments are adjudicated
as the variant's resolver does (the build left unused is waived, DATC 4.D.4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from gm.engine.adjustments import resolve_adjustments
from gm.engine.map import GameMap
from gm.engine.orders import Build
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import UnitType
from gm.engine.variant import AdjustmentResolver, Hooks

KINDS = {"armies": UnitType.ARMY, "fleets": UnitType.FLEET}


def refusal(only: Mapping[str, str], order: object) -> str | None:
    """Why `order` may not be given where only one kind of unit is built; None if it may."""
    if not isinstance(order, Build) or order.unit.type is None:
        return None
    kind = only.get(order.unit.location.province)
    if kind is None or KINDS[kind] is order.unit.type:
        return None
    return (f"{order.unit} cannot be built: only {kind} are built in "
            f"{order.unit.location.province}")


def with_build_only(hooks: Hooks, only: Mapping[str, str]) -> Hooks:
    """`hooks` with builds of the wrong kind refused at the provinces of `only` (province ->
    "armies" or "fleets")."""
    inner: AdjustmentResolver = hooks.resolve_adjustments or resolve_adjustments
    fixed = dict(only)

    def resolve(gmap: GameMap, state: GameState, submitted: Sequence[Submitted],
                sites: Mapping[str, frozenset[str]]) -> PhaseOutcome:
        refused: list[OrderResult] = []
        kept: list[Submitted] = []
        for sub in submitted:
            why = refusal(fixed, sub.order)
            if why is None:
                kept.append(sub)
            else:
                refused.append(OrderResult(sub.power, sub.order, sub.text, Outcome.ILLEGAL,
                                           why))
        outcome = inner(gmap, state, kept, sites)
        if not refused:
            return outcome
        return PhaseOutcome(outcome.state, (*refused, *outcome.results), outcome.events)

    return replace(hooks, resolve_adjustments=resolve)

