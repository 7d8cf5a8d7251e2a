"""Sahara (Kyalo Brooks): the seas dry up, centres move, the desert advances north.

Rules (rules/sahara.txt) and rulings (RULINGS.md, "Sahara") as this module plays them:
- rule 2: seas become land at the listed seasons (and the Caspian, Ireland, Iceland become
  passable land; a dried sea has one coast: `sahara_map`); a fleet left on a coastal province
  stays a fleet (on the one coast it still has, if its own dried up); a fleet stranded inland
  becomes an army of its power, unless its owner ordered `F ION no change` (kind "keep
  fleet", with the moves or the retreats) that season: then it is disbanded. The order is kept
  in GameState.extra as `keep-fleet <Prov>: <Power>` (Prov: where the fleet is now; the key
  follows the fleet through the season's moves and retreats);
- rule 3: centres become ordinary spaces, and ordinary spaces become centres (centres overlay);
  a centre created in an Autumn counts in that Autumn's ownership update, in a Spring it stays
  neutral until the next Autumn update;
- rule 4: builds in any unoccupied owned centre;
- rule 5: spaces become impassable; units there are disbanded; no unit enters them afterwards;
- rule 6: from 1905 Spring, Autumn and Winter are Early Summer, Late Summer, Between Summers;
- rule 7 and RULINGS: after the Between Summers 1911 adjustments the power with a unit in
  Iceland wins, otherwise nobody; there is no 18-centre victory.
All changes of a season happen after its moves and retreats, before adjustments. The tables are
data: gm/variants/data/sahara.tables (format in gm.variants.terrain_schedule).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from gm.engine.calendar import Calendar, Season
from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap
from gm.engine.movement import resolve_movement
from gm.engine.orders import KeepFleet, Move, Retreat
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import Fate, Reason
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.retreats import resolve_retreats
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import (
    Hooks,
    HookStep,
    OrderKind,
    ScheduledEvent,
    Variant,
    Verdict,
)
from gm.paths import VARIANT_DATA
from gm.variants.maps import standard_map
from gm.variants.special_rules import HookSet
from gm.variants.terrain_schedule import (
    Tables,
    build_anywhere,
    capital,
    fleet_place,
    load_tables,
    no_op_report,
    place_name,
    unit_text,
    with_centres,
    with_terrain,
)

KINDS = {
    "land": "land",
    "lose": "lose",
    "lose-all-except": "lose-all-except",
    "centre": "centre",
    "impassable": "impassable",
}
KEEP = "keep-fleet "  # GameState.extra key prefix: `keep-fleet ION: Italy` (rule 2)
RENAMED = 1905  # rule 6
FINAL = Phase("Winter", 1911, PhaseType.ADJUSTMENT)  # rule 7: after Between Summers 1911
ICELAND = "Ice"


def sahara_calendar() -> Calendar:
    """The standard year; from 1905 Early Summer, Late Summer, Between Summers (rule 6)."""
    return Calendar(
        (
            Season("Spring", (PhaseType.MOVEMENT, PhaseType.RETREAT),
                   renamed=((RENAMED, "Early Summer"),)),
            Season("Fall", (PhaseType.MOVEMENT, PhaseType.RETREAT), aliases=("Autumn",),
                   updates_ownership=True, renamed=((RENAMED, "Late Summer"),)),
            Season("Winter", (PhaseType.ADJUSTMENT,), renamed=((RENAMED, "Between Summers"),)),
        )
    )


@cache
def tables() -> Tables:
    """Rules 2, 3 and 5, read from sahara.tables."""
    return load_tables(VARIANT_DATA / "sahara.tables", standard_map(), sahara_calendar(), KINDS)


# -- rule 2: "no change" orders ----------------------------------------------------------------
def take_keep_orders(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, Sequence[Submitted]]:
    """Take the `F ION no change` orders out of the phase's orders and note them (rule 2).

    A movement phase starts a season's instructions: older notes are dropped first. In a
    retreat phase the order is for a dislodged fleet (it follows the fleet's retreat)."""
    movement = state.phase.type is PhaseType.MOVEMENT
    retreat = state.phase.type is PhaseType.RETREAT
    extra = dict(state.extra)
    if movement:
        extra = {k: v for k, v in extra.items() if not k.startswith(KEEP)}
    rest: list[Submitted] = []
    results: list[OrderResult] = []
    for sub in submitted:
        order = sub.order
        if not isinstance(order, KeepFleet):
            rest.append(sub)
            continue
        prov = order.unit.province
        unit = state.unit_in(prov)
        if retreat:
            unit = next((d.unit for d in state.dislodged if d.unit.province == prov), None)
        if not (movement or retreat):
            reason = Reason(Fate.NO_CHANGE_NOT_NOW)
        elif unit is None or unit.power != sub.power:
            reason = Reason(Fate.NO_UNIT, power=sub.power, province=prov)
        elif unit.type is not UnitType.FLEET:
            reason = Reason(Fate.NOT_A_FLEET, unit=str(unit))
        else:
            extra[KEEP + prov] = sub.power
            results.append(OrderResult(
                sub.power, order, sub.text, Outcome.SUCCEEDS,
                Reason(Fate.KEEPS_FLEET, unit=str(unit))))
            continue
        results.append(OrderResult(sub.power, order, sub.text, Outcome.ILLEGAL, reason))
    new_state = state if extra == state.extra else state.evolve(extra=extra)
    return HookStep(new_state, tuple(results)), rest


def _follow_notes(before: GameState, after: PhaseOutcome) -> PhaseOutcome:
    """Move each `keep-fleet` note with its fleet: to where it moved or retreated; dropped if
    the fleet was disbanded or destroyed."""
    notes = {k[len(KEEP):]: v for k, v in before.extra.items() if k.startswith(KEEP)}
    if not notes:
        return after
    went: dict[str, str] = {}
    for r in after.results:
        if r.outcome is Outcome.SUCCEEDS and isinstance(r.order, (Move, Retreat)):
            went[r.order.unit.province] = r.order.dest.province
    state = after.state
    extra = {k: v for k, v in state.extra.items() if not k.startswith(KEEP)}
    waiting = {d.unit.province for d in state.dislodged if d.unit.type is UnitType.FLEET}
    for prov, power in notes.items():
        where = went.get(prov, prov)
        unit = state.unit_in(where)
        if (unit is not None and unit.power == power and unit.type is UnitType.FLEET) or (
            where == prov and prov in waiting
        ):
            extra[KEEP + where] = power
    return PhaseOutcome(state.evolve(extra=extra), after.results, after.events)


def movement_with_notes(gmap: GameMap, state: GameState,
                        submitted: Sequence[Submitted]) -> PhaseOutcome:
    return _follow_notes(state, resolve_movement(gmap, state, submitted))


def retreats_with_notes(gmap: GameMap, state: GameState,
                        submitted: Sequence[Submitted]) -> PhaseOutcome:
    return _follow_notes(state, resolve_retreats(gmap, state, submitted))


# -- rules 2, 3, 5: the season's changes -------------------------------------------------------
def apply_tables(variant: Variant, state: GameState, due: Sequence[ScheduledEvent]) -> HookStep:
    """The season's changes, after its moves and retreats: seas become land, spaces become
    impassable (units there disbanded), fleets left inland become armies or are disbanded,
    then centres are lost and created."""
    events: list[str] = []
    before = variant.map_for(state)
    terrain: dict[str, Terrain] = {}
    for p in (p for e in due if e.kind == "land" for p in e.provinces):
        if before.terrain[p] is Terrain.LAND or p in terrain:
            continue
        terrain[p] = Terrain.LAND
        if before.is_water(p):
            events.append(f"{capital(place_name(before, p))} dries up and becomes land.")
        else:
            events.append(f"{capital(place_name(before, p))} becomes passable land.")
    closing = [p for e in due if e.kind == "impassable" for p in e.provinces]
    closing = [p for p in dict.fromkeys(closing) if before.terrain[p] is not Terrain.IMPASSABLE]
    terrain.update({p: Terrain.IMPASSABLE for p in closing})
    state = with_terrain(state, terrain)
    after = variant.map_for(state)
    for p in closing:
        unit = state.unit_in(p)
        fate = f"; {unit_text(unit)} is disbanded" if unit is not None else ""
        events.append(f"{capital(place_name(after, p))} becomes impassable{fate}.")
    state = _settle_units(state, before, after, events)
    state = _centres(variant, state, due, events)
    extra = {k: v for k, v in state.extra.items() if not k.startswith(KEEP)}
    return HookStep(state.evolve(extra=extra), events=tuple(events))


def _settle_units(state: GameState, before: GameMap, after: GameMap,
                  events: list[str]) -> GameState:
    """Rule 2 for every fleet, rule 5 for every unit, after the terrain has changed."""
    units: list[Unit] = []
    for unit in state.units:
        prov = unit.province
        if not after.is_passable(prov):
            continue  # rule 5: disbanded (said with the space)
        if unit.type is not UnitType.FLEET:
            if after.can_occupy(unit.type, unit.location):
                units.append(unit)
            continue
        place = fleet_place(before, after, unit.location)
        if place is None:
            if state.extra.get(KEEP + prov) == unit.power:
                events.append(f"{unit_text(unit)} is stranded inland and is disbanded, as "
                              f"{unit.power} ordered.")
                continue
            army = Unit(unit.power, UnitType.ARMY, Location(prov))
            events.append(f"{unit_text(unit)} is stranded inland and becomes an army: {army}.")
            units.append(army)
            continue
        if before.is_water(prov) and not after.is_water(prov):
            at = f", at {place}" if place.coast is not None else ""
            events.append(f"{unit_text(unit)} is left on a coast and stays a fleet{at}.")
        elif (old := before.coast_seas.get(unit.location, frozenset())) and not (
                old & after.coast_seas.get(place, frozenset())):
            events.append(f"{unit_text(unit)} loses its coast and moves to the coast its "
                          f"province keeps: {place}.")
        elif place != unit.location:
            events.append(f"The coasts of {place_name(after, prov)} change: {unit_text(unit)} "
                          f"now stands at {place}.")
        units.append(unit.moved_to(place))
    return state.evolve(units=tuple(sorted(units)))


def _centres(variant: Variant, state: GameState, due: Sequence[ScheduledEvent],
             events: list[str]) -> GameState:
    """Rule 3: centres lost, then centres created (neutral until an ownership update). A centre
    that becomes impassable stays one until rule 3 says otherwise (the Aegean: A05 to S06)."""
    gmap = variant.map_for(state)
    centres = set(gmap.centres)
    lost: list[str] = []
    for e in due:
        if e.kind == "lose":
            lost += e.provinces
        elif e.kind == "lose-all-except":
            lost += sorted(c for c in centres if c not in e.provinces)
    for p in dict.fromkeys(lost):
        if p not in centres:
            continue
        centres.discard(p)
        owner = state.owners.get(p)
        was = f" (it was {owner}'s)" if owner else ""
        events.append(f"{capital(place_name(gmap, p))} stops being a supply centre{was}.")
    for p in dict.fromkeys(p for e in due if e.kind == "centre" for p in e.provinces):
        if p in centres or not gmap.is_passable(p):
            continue
        centres.add(p)
        events.append(f"{capital(place_name(gmap, p))} becomes a supply centre.")
    if centres == set(gmap.centres):
        return state
    return with_centres(state, centres)


# -- rule 7 ------------------------------------------------------------------------------------
def iceland(variant: Variant, state: GameState, phase: Phase, updated: bool) -> Verdict | None:
    """Rule 7: after the Between Summers 1911 adjustments, the power with a unit in Iceland wins;
    otherwise nobody. The game ends then."""
    if variant.calendar.key(phase) < variant.calendar.key(FINAL):
        return None
    unit = state.unit_in(ICELAND)
    return Verdict((unit.power,) if unit is not None else ())


# -- the variant -------------------------------------------------------------------------------
def _help() -> str:
    cal = sahara_calendar()
    noops = no_op_report(standard_map(), cal, tables().lines, KINDS)

    def table(kind: str) -> list[str]:
        return [f"  {t.text}" for t in tables().lines if t.event.kind.startswith(kind)]

    lines = [
        "Sahara (Kyalo Brooks): the seas drain, centres move to lower ground, the desert",
        "advances north.",
        "",
        "Rules:",
        "1. The standard rules apply except where these say otherwise.",
        "2. The seas of the first table become land at the season shown (after its moves and",
        "   retreats, before adjustments). A fleet left on a coastal province stays a fleet;",
        "   a fleet stranded inland becomes an army of its power, unless its owner ordered in",
        "   that season's movement orders `F ION no change`: then it is disbanded.",
        "3. Centres become ordinary spaces and ordinary spaces become centres (tables below).",
        "4. A power may build in any unoccupied centre it owns.",
        "5. The spaces of the last table become impassable; units there are disbanded, and no",
        "   unit may enter them afterwards.",
        "6. From 1905 Spring is called Early Summer, Autumn Late Summer, Winter Between",
        "   Summers (orders and phase names accept both, and the tables' codes: A05 is Late",
        "   Summer 1905; short forms ES1905M, LS1905R, BS1905A as well as S1905M, F1905R, W1905A).",
        "7. The winner, if any, is the power with a unit in Iceland after the Between Summers",
        "   1911 adjustments.",
        "",
        "Tables (S = Spring, A = Autumn; A02 = Autumn 1902):",
        "Seas that become land:", *table("land"),
        "Centres that become ordinary spaces:", *table("lose"),
        "Ordinary spaces that become centres:", *table("centre"),
        "Spaces that become impassable:", *table("impassable"),
        "",
        "Rulings:",
        "- Names in the tables: ADS = ADR, GoL = LYO, GoB = BOT, MAO = MID, Cas = Caspian Sea,",
        "  Amy = Smyrna. Order of a season's changes: seas become land, spaces become",
        "  impassable, fleets are settled, centres are lost, then centres are created.",
        "- A sea that becomes land is coastal if it still borders a sea, otherwise inland.",
        "- A fleet whose coast dried up, in a province that keeps exactly one coast, moves to",
        "  that coast. Decision: where a province keeps several coasts, the fleet keeps to the",
        "  one sharing the most water with its old coast (its old coast name wins a tie; if",
        "  neither decides, the coast it can sail from to the most of the same places: a fleet",
        "  on Spain's west coast in Autumn 1903 stays on that shore, then named Spa/sc).",
        "- Decision: a sea that becomes land has a single coast, however the water left around",
        "  it lies: a fleet left there stays `F ION` and may sail to any water next to it, or",
        "  along the shore to a coastal province whose border with it ends on water.",
        "- `no change` is given with the fleet's movement orders (`F ION no change`; also",
        "  `F ION will not change`, `F ION won't change`, `F ION not may change`, `F ION will",
        "  not change into an army`, `F ION stays a fleet`, `F ION remains a fleet`), or, for a",
        "  dislodged fleet, with its retreat; it follows the fleet through that season's moves",
        "  and retreats. It is ignored if the fleet is not stranded.",
        "- A centre created in an Autumn is taken in that Autumn's ownership update by a unit",
        "  standing on it; created in a Spring it is neutral until the next Autumn update.",
        "- A11 `All the rest except Ice`: every centre except Iceland stops being one.",
        "- Decision: a centre that becomes impassable stays a centre until rule 3 removes it:",
        "  the Aegean, impassable from A05, is a centre until S06 and counts for its owner in",
        "  the Winter 1905 adjustments; no unit can stand or be built there.",
        "- Removals not ordered (civil disorder) follow the standard rule: the units farthest",
        "  from the power's home provinces go first, even if those are no longer centres. In",
        "  Between Summers 1911 that can be the unit in Iceland: order your removals.",
        "- Victory: only rule 7; the game ends after the Between Summers 1911 adjustments.",
        "  There is no 18-centre victory.",
        "- Table entries already in effect when due do nothing:",
        *(f"  {n}" for n in noops),
    ]
    return "\n".join(lines)


@cache
def rules() -> HookSet:
    """Sahara's special rules, the hook set its file (sahara.toml) names: rule 2 `no change`
    orders, rules 2, 3 and 5 (the tables), rule 4 builds, rule 7 victory."""
    return HookSet(
        hooks=Hooks(
            before_phase=take_keep_orders,
            resolve_movement=movement_with_notes,
            resolve_retreats=retreats_with_notes,
            apply_scheduled=apply_tables,
            build_sites=build_anywhere,
            victory=iceland,
        ),
        order_kinds=frozenset({OrderKind.KEEP_FLEET}),
        scheduled=tables().events,
        help=_help(),
    )

