"""Geophysical Diplomacy (Jeremy Maiden): the standard game on a map the players reshape.

Each movement phase every power may order one terrain event (or support another power's, or in
Spring create a centre) and stabilise spaces and borders; the events are adjudicated before
movement (gm.variants.geo_events). The standard board with Switzerland a mountain, Iceland
coastal land and the Caspian a lake (RULINGS: Geophysical); standard 18-centre solo.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from gm.engine.map import GameMap
from gm.engine.movement import resolve_movement
from gm.engine.orders import Move
from gm.engine.phase import PhaseType
from gm.engine.results import Outcome, PhaseOutcome, Submitted
from gm.engine.state import GameState
from gm.engine.variant import Hooks, HookStep, OrderKind, Variant
from gm.variants.geo_events import (
    ICE_KEY,
    display_location,
    display_name,
    display_text,
    display_unit,
    event_on_arrival,
    events_before_movement,
    refuse_outside_movement,
)
from gm.variants.special_rules import HookSet

__all__ = ["display_location", "display_name", "display_unit", "rules"]

HELP = """\
Geophysical Diplomacy (Jeremy Maiden): the standard game, and the players reshape the map.

Rules
1. Each movement phase each power may (a) cause one geophysical event, and (b) stabilise a
   space or border once for each supply centre it owns.
2. Events: Uplift (a sea or lake becomes land), Erode (a mountain becomes land, land becomes
   sea, or a lake if inland), Orogenesis (land becomes a mountain, impassable), Earthquake on
   a border (separates the two spaces; on a cut border it closes the gap), Ice advance and Ice
   retreat (the top of the board is permanently frozen).
3. A stabilised space or border cancels any event on it, but a power may use its event to
   support another power's event, and may stabilise a space more than once. Example: TURKEY
   Erode Mos; AUSTRIA Support TURKISH Erode Mos; RUSSIA 2 Stabilize Mos: no change.
4. Events are adjudicated before movement; units left in illegal positions are destroyed.
5. Mountains are impassable; Switzerland starts as one.
6. Two events on one space combine: Erode and Orogenesis give no change.
7. Centres under water or turned to mountain are downgraded. On a Spring move a power may
   create a new centre instead of an event, anywhere, controlled or not.
8. An army may cross ice if it keeps moving; one that stays on the same ice for two seasons is
   destroyed. Fleets cannot enter ice; an engulfed fleet cannot move and still needs a centre.
9. Seas are written in capitals, land in title case: F(BUR) C A(Bel)-Mar. Extra spaces:
   Switzerland (Swi), Iceland (Ice), Caspian Sea (CAS). Name coasts where they are ambiguous.
   A lake is a sea; fleets may be built in centres on its coast and are destroyed if it is
   filled in.

Orders (besides the units' orders, each on its own line):
  Uplift NTH / Erode Mos / Orogenesis Bur / Earthquake Mun-Ber / Ice advance StP /
  Ice retreat NWG / Support Turkish Erode Mos / Create centre Bur (Spring only) /
  Stabilize Mos / 2 Stabilize Mos / Stabilize Mun-Ber
  The rules' own wordings are read too: Marine platform uplift NTH / Erosion of Mos /
  Orogenisis Bur / Earthquake along the border Mun-Ber / Ice advance in NWG / Supports
  Turkey's Erode Mos / Create new s.c. in Bur / Stabilize Mos twice / Stabilize the boundary
  Mun-Ber

Rulings (binding for this game)
- Elevation: sea or lake 0, land 1, mountain 2. Uplift +1 on a sea or lake, Erode -1 on land
  or a mountain, Orogenesis +1 on land. Successful events on one space add up, limited to 0..2
  (two erosions of land: sea or lake; two uplifts of a sea: a mountain). Water that borders a
  sea is sea, other water a lake; a lake that comes to border a sea becomes sea.
- An event succeeds if its strength (1 plus the supports that match it) exceeds the number of
  stabilisations of its target. A support matches only the named power's event of the same
  kind on the same target. A power cannot support its own event.
- Events are checked against the map as it stands at the start of the phase (an ice advance
  must border ice that is already there), and all succeed or fail together.
- One event order per power and phase: the last one given counts, the earlier are void.
  Stabilisations beyond the centres a power owns are refused, in the order given: with one
  centre, `2 Stabilize Mos` counts once and the second is refused (the reply says so).
- Earthquake: cuts an open border, reopens a cut one; several earthquakes on one border act as
  one. A cut border where a side is water is recorded and blocks movement only once both sides
  are land.
- Ice: the polar ice is an edge along the top bordering NAO, NWG, BAR and Ice. Ice advance
  targets a space bordering that edge or an iced space; ice retreat an iced space not
  completely surrounded by ice (the polar edge counts as ice; the other edges and Ireland,
  which stays off the board, are ignored). Ice lies over the terrain: events still change
  what is underneath.
- An army that starts two consecutive movement phases in the same iced space is destroyed at
  the start of the second (after that phase's events). An army may stand on iced water; it
  drowns if the ice retreats from under it.
- A fleet in a sea or lake that becomes land is destroyed (the water is filled in). A fleet on
  a coast that is gone is destroyed; one whose coasts changed keeps to the coast sharing the
  most water with its old one. An army on water, and any unit on a mountain, is destroyed.
- A new centre (Spring only, on land that is not a centre) is neutral until a unit takes it at
  the Autumn ownership update. It cannot be stabilised against or supported. A centre that
  goes under water or becomes a mountain stops being a centre and loses its owner, for good.
- Unit orders are read again after the events against the new map: a coast that has become
  ambiguous must be named, and the order is refused with the coasts listed. A coast named for
  a space that gets its coasts in the events counts (with Apulia eroded, F Nap - Rom/sc).
- At the start Switzerland is a mountain, Iceland coastal land (bordering NAO and NWG) and
  the Caspian a lake (bordering Mos, Sev and Arm); Ireland stays off the board.
- The fleet in Sevastopol starts on its Black Sea coast (Sev/sc): with the Caspian a lake,
  Sevastopol has two coasts (Sev/sc, Sev/ec), and so has Armenia (Arm/nc, Arm/wc).
- Scenario files (gm scenario) write ice over the terrain as `BAR: ice` in PRESTATE_TERRAIN
  and POSTSTATE_TERRAIN, cut borders as `cut Mun-Ber`, and the army on ice as the state line
  `ice-turns A BAR: 1` (it started one movement phase on that ice); a fleet written without
  a coast in a space with a sea coast and lake coasts (F Sev) stands on the sea coast.
- Event orders in retreat and adjustment phases are refused. Standard 18-centre solo.
"""


def _before_phase(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, Sequence[Submitted]]:
    if state.phase.type is PhaseType.MOVEMENT:
        return events_before_movement(variant, state, submitted)
    return refuse_outside_movement(state, submitted)


def _resolve_movement(
    gmap: GameMap, state: GameState, submitted: Sequence[Submitted]
) -> PhaseOutcome:
    """The standard adjudication; then rule 8's ice counters are kept only for armies that
    stayed where they were (neither moved nor dislodged)."""
    outcome = resolve_movement(gmap, state, submitted)
    left = {
        r.order.unit.location.province
        for r in outcome.results
        if r.outcome is Outcome.SUCCEEDS and isinstance(r.order, Move)
    } | {d.unit.province for d in outcome.state.dislodged}
    extra = {
        k: v for k, v in outcome.state.extra.items()
        if not (k.startswith(ICE_KEY + " ") and k.split()[-1] in left)
    }
    if extra == outcome.state.extra:
        return outcome
    return PhaseOutcome(outcome.state.evolve(extra=extra), outcome.results, outcome.events)


def _display_names(gmap: GameMap, text: str) -> str:
    """Rule 9 in reports: `F(BUR) C A(Bel)-Mar`."""
    return display_text(text, gmap)


@cache
def rules() -> HookSet:
    """Geophysical's special rules, the hook set its file (geophysical.toml) names: the
    terrain orders before movement, ice counters, rule 9's place names in reports."""
    return HookSet(
        hooks=Hooks(before_phase=_before_phase, resolve_movement=_resolve_movement,
                    display_names=_display_names, on_arrival=event_on_arrival),
        order_kinds=frozenset({OrderKind.GEO}),
        help=HELP,
    )

