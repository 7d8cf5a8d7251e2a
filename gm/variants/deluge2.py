"""Deluge II (Tim Sharrock and Stephen Agar): the seas rise and Europe sinks, Winter by Winter.

Rules (rules/deluge2.txt) and rulings (RULINGS.md, "Deluge II") as this module plays them:
- rule 1: the game starts in Winter 1900 with builds in every home centre, no units on the board;
- rule 2: `A Bre transforms` (kind "transform"): the army holds (it may be supported to hold) and,
  unless dislodged, becomes a fleet at the end of the movement phase (gm.variants.transforms,
  the file's `transforms = true`);
- rules 3 and 4, Table 1: after each Winter's adjustments provinces become sea (terrain overlay);
  armies there drown, fleets stay at sea, centres there are destroyed (centres overlay);
- rule 5, Table 2: then new centres appear, controlled by (1) the unit there, (2) the last power
  to have had a unit there (GameState.extra `last-unit <Prov>: <Power>`, written after every
  movement and retreat phase for the Table 2 places still to come), (3) the power whose boundary
  it lies in (the table file's `boundary` lines), (4) nobody;
- rule 6: Iceland passable after W1901, Switzerland after W1904 (the map's `opens` terrain);
- rule 7: builds in any vacant owned centre; rule 8: the A/F rules (kind "af"), played by
  gm.engine.army_fleet (boarding before movement, its movement and retreat resolvers);
- rule 9 and RULINGS: the game ends after the W1908 adjustments, or earlier when only one power
  has units; the sole power with units wins, otherwise nobody. No 18-centre solo.
The tables are data: gm/variants/data/deluge2.tables (format in gm.variants.terrain_schedule).
The variant itself is declared by its file, gm/variants/data/deluge2.toml (gm.variants.varfile),
which names these rules as the hook set `deluge2` (`rules()`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

from gm.engine.army_fleet import (
    af_before_phase,
    resolve_adjustments_af,
    resolve_movement_af,
    resolve_retreats_af,
)
from gm.engine.calendar import standard_calendar
from gm.engine.geo import Terrain
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import Submitted
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
from gm.variants.army_fleet_help import HELP_TEXT as AF_HELP
from gm.variants.maps import standard_map
from gm.variants.special_rules import HookSet
from gm.variants.standard import POWERS
from gm.variants.terrain_schedule import (
    Tables,
    build_anywhere,
    fleet_place,
    load_tables,
    no_op_report,
    place_name,
    unit_text,
    units_with_power,
    with_centres,
    with_terrain,
)

# What each kind of table line does (gm.variants.terrain_schedule.no_op_report's words).
KINDS = {"submerge": "sea", "centre": "centre", "passable": "open"}
LAST_UNIT = "last-unit "  # GameState.extra key prefix: `last-unit Wal: England` (rule 5 step 2)
LAST_WINTER = 1908  # rule 9: the winner is the survivor after W 1908


@cache
def tables() -> Tables:
    """Tables 1 and 2, rule 6 and the rule 5 boundaries, read from deluge2.tables."""
    return load_tables(
        VARIANT_DATA / "deluge2.tables",
        standard_map(),
        standard_calendar(),
        KINDS,
        tuple(p.name for p in POWERS),
    )


# -- rules 3-6: the tables ---------------------------------------------------------------------
def apply_tables(variant: Variant, state: GameState, due: Sequence[ScheduledEvent]) -> HookStep:
    """A Winter's table entries, after its adjustments (RULINGS: submergences, then the spaces
    that open, then the new centres)."""
    events: list[str] = []
    sink = [p for e in due if e.kind == "submerge" for p in e.provinces]
    opening = [p for e in due if e.kind == "passable" for p in e.provinces]
    new = [p for e in due if e.kind == "centre" for p in e.provinces]
    state = submerge(variant, state, sink, events)
    state = open_spaces(variant, state, opening, events)
    state = new_centres(variant, state, new, events, tables().boundaries)
    return HookStep(state, events=tuple(events))


def submerge(variant: Variant, state: GameState, provinces: Sequence[str],
              events: list[str]) -> GameState:
    """Rules 3 and 4: the provinces become sea; armies drown, fleets stay at sea, centres go;
    fleets on neighbouring coasts keep to the coast that shares the most water with their old
    one (gm.variants.terrain_schedule.fleet_place)."""
    before = variant.map_for(state)
    sink = [p for p in dict.fromkeys(provinces) if not before.is_water(p)]
    if not sink:
        return state
    state = with_terrain(state, {p: Terrain.SEA for p in sink})
    centres = set(before.centres)
    for p in sink:
        words = [f"{place_name(before, p)} is submerged"]
        if p in centres:
            owner = state.owners.get(p)
            words.append(f"its supply centre{f' (owned by {owner})' if owner else ''} "
                         "is destroyed")
            centres.discard(p)
        unit = state.unit_in(p)
        if unit is not None:
            fate = "drowns" if unit.type is UnitType.ARMY else "stays, now at sea"
            words.append(f"{unit_text(unit)} {fate}")
        events.append("; ".join(words) + ".")
    state = with_centres(state, centres)
    after = variant.map_for(state)
    units: list[Unit] = []
    for unit in state.units:
        if unit.type is UnitType.ARMY:
            if after.can_occupy(UnitType.ARMY, unit.location):
                units.append(unit)
            continue
        if unit.type is UnitType.ARMY_FLEET:
            units.append(unit)
            continue
        place = fleet_place(before, after, unit.location)
        if place is None:  # cannot happen: submergence only adds water
            events.append(f"{unit_text(unit)} has no coast left and is destroyed.")
            continue
        if place != unit.location and unit.province not in sink:
            events.append(f"The coasts of {place_name(after, unit.province)} change: "
                          f"{unit_text(unit)} now stands at {place}.")
        units.append(unit.moved_to(place))
    return state.evolve(units=tuple(sorted(units)))


def open_spaces(variant: Variant, state: GameState, provinces: Sequence[str],
          events: list[str]) -> GameState:
    """Rule 6: Iceland and Switzerland become passable, as the map data says they open."""
    gmap = variant.map_for(state)
    changes = {}
    for p in dict.fromkeys(provinces):
        if gmap.is_passable(p):
            continue
        terrain = gmap.provinces[p].opens_as or Terrain.LAND
        changes[p] = terrain
    if not changes:
        return state
    state = with_terrain(state, changes)
    after = variant.map_for(state)
    for p, t in changes.items():
        kind = ("coastal land" if after.is_coastal(p) else "land") if t is Terrain.LAND else t.value
        events.append(f"{place_name(after, p)} becomes passable ({kind}).")
    return state


def new_centres(variant: Variant, state: GameState, provinces: Sequence[str],
                events: list[str], boundaries: Mapping[str, str | None]) -> GameState:
    """Rule 5: each new centre's controller, by the first of the four steps that names one.
    `boundaries` is step 3's table (Deluge II's own; a variant file has none)."""
    gmap = variant.map_for(state)
    centres = set(gmap.centres)
    owners = dict(state.owners)
    extra = dict(state.extra)
    for p in dict.fromkeys(provinces):
        if p in centres or not gmap.is_land(p):
            continue
        centres.add(p)
        name = place_name(gmap, p)
        last = extra.pop(LAST_UNIT + p, None)
        boundary = boundaries.get(p)
        unit = state.unit_in(p)
        if unit is not None:
            owner, why = unit.power, f"{unit_text(unit)} occupies it"
        elif last is not None:
            owner, why = last, f"{last} was the last to have a unit there"
        elif boundary is not None:
            owner, why = boundary, f"it lies within {boundary}'s boundary"
        else:
            events.append(f"{name} becomes a supply centre; it is neutral.")
            continue
        owners[p] = owner
        events.append(f"{name} becomes a supply centre, controlled by {owner} ({why}).")
    return state.evolve(centres=frozenset(centres), owners=owners, extra=extra)


def track_last_units(variant: Variant, state: GameState, phase: Phase) -> HookStep:
    """Rule 5 step 2: after each movement and retreat phase, note the power with a unit in each
    place Table 2 will still make a centre (`last-unit <Prov>: <Power>` in GameState.extra)."""
    if phase.type is PhaseType.ADJUSTMENT:
        return HookStep(state)
    return HookStep(_note_last_units(variant, state, phase.year))


def _note_last_units(variant: Variant, state: GameState, year: int) -> GameState:
    """`state` with `last-unit` noted for every unit standing in a Table 2 place still to come."""
    extra = dict(state.extra)
    for e in variant.scheduled:
        if e.kind != "centre" or e.year < year:
            continue
        for p in e.provinces:
            unit = state.unit_in(p)
            if unit is not None:
                extra[LAST_UNIT + p] = unit.power
    if extra == state.extra:
        return state
    return state.evolve(extra=extra)


def before_phase(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, Sequence[Submitted]]:
    """Rule 5 step 2, then rule 8 boarding. The units standing at the start of a phase stood
    there after the previous Spring or Autumn phase (or were built in a place that was already
    a centre): noting them again changes nothing in a game played from the start, and makes a
    position set up mid-game (a scenario's PRESTATE) count its units as the last ones there."""
    state = _note_last_units(variant, state, state.phase.year)
    return af_before_phase(variant, state, submitted)


# -- rule 9: victory ---------------------------------------------------------------------------
def survivor(variant: Variant, state: GameState, phase: Phase, updated: bool) -> Verdict | None:
    """Rule 9 and RULINGS: the sole power with units (dislodged ones count) wins at once; after
    the W1908 adjustments the game ends, won by the sole survivor or by nobody. A game where no
    power has a unit or a centre also ends, won by nobody."""
    powers = units_with_power(state)
    if len(powers) == 1:
        return Verdict(tuple(powers))
    if phase.type is PhaseType.ADJUSTMENT and phase.year >= LAST_WINTER:
        return Verdict(())
    if not powers and not any(c in variant.map_for(state).centres for c in state.owners):
        return Verdict(())
    return None


# -- the variant -------------------------------------------------------------------------------
def _help() -> str:
    noops = no_op_report(standard_map(), standard_calendar(), tables().lines, KINDS)
    lines = [
        "Deluge II (Tim Sharrock and Stephen Agar): the seas rise, Europe sinks.",
        "",
        "Rules:",
        "0. Regular Diplomacy rules apply except where these say otherwise.",
        "1. The game starts in Winter 1900 with builds: each power builds in each home centre,",
        "   army or fleet (Russia may build F StP/nc or F StP/sc). Decision: a Winter 1900",
        "   build that is not ordered is waived, as in any Winter.",
        "2. An army in a coastal province may, instead of moving or supporting, be ordered to",
        "   turn into a fleet, with the movement orders: `A Bre transforms` (also `A Bre turns",
        "   into a fleet`, `A Bre transforms into a fleet`). Where the province",
        "   has several coasts the coast must be named (`A Spa transforms to F Spa/sc`), else",
        "   the order is refused. It holds (and may be supported to hold) and becomes a fleet",
        "   at the end of the movement phase unless it is dislodged.",
        "3. After each Winter's adjustments, the provinces of Table 1 are submerged; a centre",
        "   there is destroyed and does not count in the next Winter.",
        "4. Armies in a province that is submerged drown. Fleets there stay, now at sea.",
        "5. After the submergences, the new centres of Table 2 appear, controlled by (1) the",
        "   unit there, else (2) the last country to have had a unit there (Spring or Autumn),",
        "   else (3) the country within whose boundary it lies, else (4) nobody.",
        "6. Iceland (coastal land) is passable after W1901; Switzerland after W1904.",
        "7. Builds may be made in any vacant supply centre the power controls.",
        "8. The Abstraction A/F rules apply (`A Lon boards F ENG`, `A/F ENG disembarks Bre`).",
        "9. The winner is the survivor, if any, after W1908.",
        "",
        "Table 1 - Submergences (after the Winter adjustments):",
        *(f"  {t.text}" for t in tables().lines if t.event.kind == "submerge"),
        "Table 2 - New supply centres (after the submergences):",
        *(f"  {t.text}" for t in tables().lines if t.event.kind == "centre"),
        "Spaces that open:",
        *(f"  {t.text}" for t in tables().lines if t.event.kind == "passable"),
        "",
        "Rulings:",
        "- Winter: retreats, adjustments, then submergences, then Iceland/Switzerland open,",
        "  then new centres.",
        "- A submerged province is sea: neighbouring provinces gain coasts (a province may gain",
        "  a second, separate coast). A fleet whose coast changes keeps to the coast that shares",
        "  the most water with its old coast (its old coast name wins a tie); the report says",
        "  where it now stands.",
        "- Rule 5 step 3 boundaries: " + ", ".join(
            f"{p} {o or 'neutral'}" for p, o in tables().boundaries.items()) + ".",
        "- Rule 5 step 2 counts the units standing there after every Spring and Autumn",
        "  movement and retreat phase since the start of the game (a unit removed in the",
        "  Winter adjustments still stood there after the Autumn).",
        "- The game ends after the W1908 adjustments, or earlier when only one power has units",
        "  (units awaiting retreat count); the sole power with units wins, otherwise nobody.",
        "  A game where nobody has a unit or a centre ends, won by nobody. There is no",
        "  18-centre victory.",
        "- A transform needs an army of yours in a coastal province; a coast named for a",
        "  province with one coast is ignored. Of several orders for one army the last counts.",
        "- Table lines already in effect when due do nothing: "
        + (" ".join(noops) if noops else "the tables have none."),
        "",
        "Rule 8 - " + AF_HELP.rstrip(),
    ]
    return "\n".join(lines)


@cache
def rules() -> HookSet:
    """Deluge II's special rules, the hook set its file (deluge2.toml) names: rules 3-6 (the
    tables), rule 7 builds, rule 8 A/F, rule 9 victory; rule 2's transforms are the file's
    `transforms = true`."""
    return HookSet(
        hooks=Hooks(
            before_phase=before_phase,  # rule 5 step 2; rule 8: boarding before movement
            resolve_movement=resolve_movement_af,  # rule 2: the file's transforms
            resolve_retreats=resolve_retreats_af,
            resolve_adjustments=resolve_adjustments_af,  # rule 8: an A/F is two units
            end_of_phase=track_last_units,
            apply_scheduled=apply_tables,
            build_sites=build_anywhere,
            victory=survivor,
        ),
        order_kinds=frozenset({OrderKind.ARMY_FLEET}),
        scheduled=tables().events,
        help=_help(),
    )

