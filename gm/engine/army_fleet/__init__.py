"""The A/F rules (Abstraction2 rule 3; Deluge II rule 8 adopts them): armies carried by fleets.

`legality`: which orders are possible under them; `adjudication`: boarding, movement, retreats
and adjustments under them.

An army boards a fleet of its own power in an adjacent sea before movement and forms an A/F
(`UnitType.ARMY_FLEET`), which moves and fights as one fleet; its army lands later, in the same
phase or another. A convoy is a "Fast Ferry": one sea, one fleet. gm.variants.army_fleet_help
says the rules as this engine reads them (the text players get).

How a variant switches the rules on (public API):

- `Variant.order_kinds` includes `OrderKind.ARMY_FLEET` (`Variant.army_fleet`; the parser
  then reads Embark, Disembark and the A/F shorthand lines).
- `Hooks.before_phase`: `af_before_phase(variant, state, submitted) -> (HookStep, remaining)`
  takes the Embark orders out and boards the armies (a variant with its own before_phase calls
  it from there, or `embark(gmap, state, submitted, hold_only=...)` directly). Optional:
  `resolve_movement_af` boards any Embark orders still present itself.
- `Hooks.resolve_movement`: `resolve_movement_af(gmap, state, submitted, *, undislodgeable=...,
  hold_only=...)`; for fixed frozen sets use a small function or functools.partial.
- `Hooks.resolve_retreats`: `resolve_retreats_af(gmap, state, submitted)`.
- `Hooks.resolve_adjustments`: `resolve_adjustments_af(gmap, state, submitted, build_sites)`
  (an A/F is two units for supply; `adjustment_delta` counts it so everywhere).
- Order checks at submission: `gm.engine.order_check.check_order(..., army_fleet=True)`, which
  uses this package's `legality` module.
- Counting units (e.g. Abstraction2 rule 7, "most units"): `unit_count(state, power)`.

Frozen regions (Abstraction2 rule 5) are parameters, not A/F rules: `hold_only` provinces'
units may only hold (no support, convoy, boarding or landing), `undislodgeable` provinces' units
cannot be dislodged; the standard `gm.engine.movement.resolve_movement` takes the same two.
"""

from __future__ import annotations

from gm.engine.army_fleet.adjudication import (
    AFDecisions,
    af_before_phase,
    af_retreat_options,
    embark,
    resolve_adjustments_af,
    resolve_movement_af,
    resolve_retreats_af,
    unit_count,
)
from gm.engine.army_fleet.legality import (
    check_disembark,
    check_embark,
    check_movement_order_af,
    check_retreat_order_af,
    ff_waters,
    landing_seas,
    retreat_places_af,
)

__all__ = [
    "AFDecisions",
    "af_before_phase",
    "af_retreat_options",
    "check_disembark",
    "check_embark",
    "check_movement_order_af",
    "check_retreat_order_af",
    "embark",
    "ff_waters",
    "landing_seas",
    "resolve_adjustments_af",
    "resolve_movement_af",
    "resolve_retreats_af",
    "retreat_places_af",
    "unit_count",
]
