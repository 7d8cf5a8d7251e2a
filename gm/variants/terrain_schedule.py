"""Scheduled terrain and centre changes read from a table file (Deluge II, Sahara).

A variant whose rules list dated changes of the map (Deluge II Tables 1 and 2, Sahara rules 2, 3
and 5) keeps those tables as data in gm/variants/data/<variant>.tables. One line per table line:

    # comment
    <when> <kind> <name>, <name>, ...       a scheduled change
    boundary <name> <power | neutral>       (Deluge II rule 5, step 3) whose boundary a place is in

- `<when>` is a season letter and a year, as the rule texts write it: `W1901` (Winter 1901),
  `A02` (Autumn 1902; two digits are 19xx), `S03` (Spring 1903). The letter is the season's
  code or the initial of exactly one of its names (A = Autumn = Fall).
- `<kind>` is one of the kinds the variant declares (e.g. `submerge`, `centre`, `lose`); the
  variant's `apply_scheduled` hook gives it meaning.
- `<name>` is any name of a province on the variant's map: abbreviation, full name or alias
  (`Lpl`, `GoL`, `ADS`, `Amy`, `Caspian Sea`), comma separated; the loader resolves each to its
  canonical abbreviation and refuses unknown names, unknown kinds and seasons, with the line.

The rest of the module is what both variants do with such changes: set terrain, move fleets to
the coast they still have, add and remove centres, and say in words what happened.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from gm.engine.calendar import Calendar, Season
from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap
from gm.engine.phase import Phase
from gm.engine.state import GameState
from gm.engine.units import Unit
from gm.engine.variant import ScheduledEvent, Variant

# -- the table file --------------------------------------------------------------------------


class TableError(ValueError):
    """A problem in a table file, with the file and line it is on."""

    def __init__(self, source: str, line: int, message: str) -> None:
        super().__init__(f"{source}:{line}: {message}")
        self.line = line


@dataclass(frozen=True)
class TableLine:
    """One scheduled line as written (`text`) and as read (`event`), for help and no-op lists."""

    line: int
    text: str
    event: ScheduledEvent


@dataclass(frozen=True)
class Tables:
    """A variant's table file: its scheduled changes in file order, and its boundaries."""

    lines: tuple[TableLine, ...]
    boundaries: Mapping[str, str | None]  # province -> power whose boundary it is in, or None

    @property
    def events(self) -> tuple[ScheduledEvent, ...]:
        return tuple(t.event for t in self.lines)


_WHEN = re.compile(r"^([A-Za-z])(\d{2}|\d{4})$")


def season_for(calendar: Calendar, letter: str) -> Season | None:
    """The season a table's letter names: its code, or the initial of one season's names."""
    low = letter.lower()
    for s in calendar.seasons:
        if s.short_code.lower() == low:
            return s
    found = [s for s in calendar.seasons if any(n[0].lower() == low for n in s.names())]
    return found[0] if len(found) == 1 else None


def load_tables(
    path: Path,
    gmap: GameMap,
    calendar: Calendar,
    kinds: Collection[str],
    powers: Collection[str] = (),
) -> Tables:
    """Read and check a table file against the map, the calendar, the kinds and the powers."""
    source = path.name
    lines: list[TableLine] = []
    boundaries: dict[str, str | None] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue

        def fail(message: str, number: int = number) -> TableError:
            return TableError(source, number, message)

        head, _, rest = text.partition(" ")
        if head.lower() == "boundary":
            name, _, power = rest.strip().rpartition(" ")
            prov = gmap.lookup(name)
            if prov is None:
                raise fail(f"{name!r} is not a province of the map")
            if power.lower() == "neutral":
                boundaries[prov] = None
            elif power in powers:
                boundaries[prov] = power
            else:
                raise fail(f"{power!r} is not a power ({', '.join(powers)}) nor `neutral`")
            continue
        m = _WHEN.match(head)
        if m is None:
            raise fail(f"{head!r}: expected a season and year such as W1901 or A02")
        season = season_for(calendar, m.group(1))
        if season is None:
            raise fail(f"{m.group(1)!r} names no season of the calendar")
        year = int(m.group(2)) + (1900 if len(m.group(2)) == 2 else 0)
        kind, _, names = rest.strip().partition(" ")
        if kind not in kinds:
            raise fail(f"{kind!r} is not a kind of change here ({', '.join(sorted(kinds))})")
        provinces = []
        for name in (n.strip() for n in names.split(",")):
            prov = gmap.lookup(name) if name else None
            if prov is None:
                raise fail(f"{name!r} is not a province of the map")
            provinces.append(prov)
        event = ScheduledEvent(season.name, year, kind, tuple(provinces))
        lines.append(TableLine(number, text, event))
    return Tables(tuple(lines), boundaries)


# -- words -----------------------------------------------------------------------------------


def place_name(gmap: GameMap, province: str) -> str:
    """`Holland`, `the Ionian Sea` (the article for spaces that were water on the map, unless
    the name has its own: `The Shallows` stays as written)."""
    prov = gmap.provinces[province]
    if prov.terrain.is_water or (prov.opens_as is not None and prov.opens_as.is_water):
        return with_article(prov.name)
    return prov.name


def with_article(name: str) -> str:
    """`the Ionian Sea`; a name that has its own article stays as written (`The Shallows`)."""
    if name.split(" ", 1)[0].lower() in ("the", "a", "an"):
        return name
    return f"the {name}"


def unit_text(unit: Unit) -> str:
    """`A Hol (France)`."""
    return f"{unit} ({unit.power})"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- changes ---------------------------------------------------------------------------------


def current_centres(variant: Variant, state: GameState) -> frozenset[str]:
    return variant.map_for(state).centres


def with_terrain(state: GameState, changes: Mapping[str, Terrain]) -> GameState:
    terrain = dict(state.terrain)
    terrain.update(changes)
    return state.evolve(terrain=terrain)


def with_centres(state: GameState, centres: Collection[str]) -> GameState:
    """The position with these supply centres; owners of places no longer centres are dropped."""
    kept = frozenset(centres)
    owners = {c: p for c, p in state.owners.items() if c in kept}
    return state.evolve(centres=kept, owners=owners)


def fleet_place(before: GameMap, after: GameMap, loc: Location) -> Location | None:
    """Where a fleet at `loc` on `before` stands on `after`, or None if it is stranded inland.

    Water stays water. On land the fleet keeps to the coast that shares the most water with its
    old coast, its old label winning a tie; if neither decides, the coast whose fleet moves share
    the most provinces with the old coast's (a coast relabelled when another coast of its
    province dried up: Sahara, Spain's west coast after A03). A fleet on a sea that became land
    (no old coast) takes the coast touching the most water, then the first label in
    alphabetical order.
    """
    if not after.is_passable(loc.province):
        return None
    if after.is_water(loc.province):
        return Location(loc.province)
    here = after.fleet_locations(loc.province)
    if not here:
        return None
    if len(here) == 1:
        return here[0]
    if not before.is_water(loc.province):
        return _same_coast(before, after, loc, here)
    return max(here, key=lambda c: len(after.coast_seas.get(c, frozenset())))


def _same_coast(
    before: GameMap, after: GameMap, loc: Location, here: Sequence[Location]
) -> Location:
    """The coast of `here` (two or more) that continues the fleet's old coast `loc`: the most
    water in common, then the same label, then the most fleet neighbours in common."""
    water = before.coast_seas.get(loc, frozenset())
    near = {x.province for x in before.fleet_adj.get(loc, frozenset())}

    def key(c: Location) -> tuple[int, bool, int]:
        shared = len(after.coast_seas.get(c, frozenset()) & water)
        neighbours = len({x.province for x in after.fleet_adj.get(c, frozenset())} & near)
        return shared, c.coast == loc.coast, neighbours

    return max(here, key=key)


def build_anywhere(variant: Variant, state: GameState, power: str) -> frozenset[str]:
    """Deluge II rule 7, Sahara rule 4: a power may build in any centre it owns (the game flow
    keeps only the vacant ones)."""
    centres = current_centres(variant, state)
    return frozenset(c for c, p in state.owners.items() if p == power and c in centres)


def units_with_power(state: GameState) -> frozenset[str]:
    """Powers with a unit on the board or awaiting retreat."""
    return frozenset({u.power for u in state.units} | {d.unit.power for d in state.dislodged})


def replay_phase(calendar: Calendar, event: ScheduledEvent) -> Phase:
    """The last phase of the event's season (its changes take effect at its end)."""
    season = calendar.season(event.season)
    assert season is not None
    return Phase(season.name, event.year, season.phases[-1])


def no_op_report(
    gmap: GameMap, calendar: Calendar, lines: Sequence[TableLine], effects: Mapping[str, str]
) -> list[str]:
    """The table entries already in effect when they come due (RULINGS: All variants), in words.

    `effects` maps each kind to what it does: "sea", "land", "open", "impassable" (terrain),
    "centre", "lose", "lose-all-except" (centres). Entries are simulated in calendar order.
    """
    terrain = dict(gmap.terrain)
    centres = set(gmap.centres)
    out: list[str] = []
    ordered = sorted(lines, key=lambda t: (calendar.key(replay_phase(calendar, t.event)), t.line))
    for t in ordered:
        e = t.event
        effect = effects[e.kind]
        head = f"{t.text.split(' ', 1)[0]} {e.kind}"
        if effect == "lose-all-except":
            centres &= set(e.provinces)
            continue
        parts = t.text.split(" ", 2)
        written = [n.strip() for n in parts[2].split(",")] if len(parts) == 3 else []
        seen: set[str] = set()
        for i, p in enumerate(e.provinces):
            name = written[i] if i < len(written) and written[i] != p else ""
            shown = f"{name} ({p})" if name else p
            reason = None
            if p in seen:
                reason = "listed twice on this line"
            elif effect == "sea" and terrain[p].is_water:
                reason = "already sea"
            elif effect == "land" and terrain[p] is Terrain.LAND:
                reason = "already land"
            elif effect == "open" and terrain[p].is_passable:
                reason = "already passable"
            elif effect == "impassable" and terrain[p] is Terrain.IMPASSABLE:
                reason = "already impassable"
            elif effect == "centre" and p in centres:
                reason = "already a supply centre"
            elif effect == "lose" and p not in centres:
                reason = "not a supply centre then"
            seen.add(p)
            if reason is not None:
                out.append(f"{head} {shown}: {reason}; nothing happens.")
                continue
            if effect == "sea":
                terrain[p] = Terrain.SEA
                centres.discard(p)
            elif effect == "land":
                terrain[p] = Terrain.LAND
            elif effect == "open":
                terrain[p] = gmap.provinces[p].opens_as or Terrain.LAND
            elif effect == "impassable":
                terrain[p] = Terrain.IMPASSABLE
            elif effect == "centre":
                centres.add(p)
            elif effect == "lose":
                centres.discard(p)
    return out
