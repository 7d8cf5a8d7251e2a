"""Variant files: a whole variant in one TOML file (docs/variant-files.md describes the format).

    name = "isthmia"                  # the canonical name (letters, digits, -)
    title = "Isthmia"
    aliases = ["Isthmus Diplomacy"]
    map = "isthmia.map"               # a .map file beside this one, or the map inline:
                                      # map = \"\"\" ...the .map syntax... \"\"\"
    calendar = "standard"             # or "months" (Abstraction2's: July 1914, August, ...)
    start = "Spring 1901"             # the first phase (default: the calendar's first move)
    victory = 6                       # centres for a solo; 0: no centre solo
    hooks = "standard"                # a registered hook set (gm.variants.hook_sets)
    builds = "home"                   # or "any": build in any owned centre; or "designated"
    army_fleet = false                # the A/F rules (Abstraction2 rule 3, Deluge II rule 8)
    transforms = false                # armies on a coast may become fleets (Deluge II rule 2)
    frozen = { months = ["January"], provinces = ["Nor"], armies = ["Nor"] }  # Abstraction2 r. 5
    canals = ["Cap"]                  # one coast however its water lies (Sahara's dried seas)
    terrain = { Fel = "mountain" }    # the first position's terrain where it is not the map's
    ice = ["NSO"]                     # iced at the start (armies cross, fleets may not enter)
    season_names = { from = 1905, Spring = "Early Summer" }   # renamed from a year on

    [[powers]]
    name = "Norland"
    adjective = "Norlandish"
    code = "N"
    units = ["A Nor", "F Cap"]
    homes = ["Nor", "Cap"]            # default: the map's `home Norland` marks
    owns = ["Fel"]                    # centres owned at the start that are not homes

    neutral = ["A Hol"]               # (top level) neutral garrisons: hold, never retreat
    build_only = { Cap = "fleets" }   # build sites for one kind of unit
    last_year = 1910                  # the game ends with that year; powers ranked by centres

    [[events]]                        # terrain events at the end of a season
    when = "W1901"
    kind = "submerge"                 # submerge, dry, new centre, lose centre, impassable,
    provinces = ["Fel"]               # passable

The map is read by gm.variants.mapdata (no second map reader). Every problem found is a
VariantFileError with the file, the line and what to write instead; `read_variant` collects
as many as it can before giving up (`VariantFileErrors`).
"""

from __future__ import annotations

import hashlib
import re
import textwrap
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from gm.engine.calendar import Calendar, standard_calendar
from gm.engine.frozen import replace as frozen_replace
from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap, Overlay, Province
from gm.engine.phase import Phase, PhaseType
from gm.engine.state import GameState
from gm.engine.units import NEUTRAL, Unit, UnitType
from gm.engine.variant import (
    Hooks,
    OrderKind,
    Power,
    ScheduledEvent,
    Variant,
    homes_from_map,
)
from gm.paths import VARIANT_DATA
from gm.variants.army_fleet_help import HELP_TEXT as AF_HELP
from gm.variants.build_only import KINDS as BUILD_KINDS
from gm.variants.designated import with_designated_homes
from gm.variants.file_events import KINDS as EVENT_KINDS
from gm.variants.file_events import DatedEvent, apply_file_events, event_problems
from gm.variants.frozen import FrozenRegions, frozen_regions
from gm.variants.hook_sets import HookSet, hook_set_names, load_hook_set, months_calendar
from gm.variants.last_year import with_last_year
from gm.variants.mapdata import MapData, MapDataError, nearest, normalise, parse_map
from gm.variants.maps import map_data, ring_map
from gm.variants.start_checks import start_findings
from gm.variants.terrain_schedule import build_anywhere
from gm.variants.transforms import HELP_TEXT as TRANSFORM_HELP
from gm.variants.transforms import with_transforms

MAX_BYTES = 1_000_000  # a variant file (and its map file) may be at most this long
_KEYS = ("name", "title", "aliases", "map", "calendar", "season_names", "start", "victory",
         "hooks", "builds", "army_fleet", "transforms", "frozen", "canals", "terrain", "ice",
         "powers", "events", "help", "neutral", "build_only", "last_year")
_POWER_KEYS = ("name", "adjective", "code", "units", "homes", "owns")
_EVENT_KEYS = ("when", "kind", "provinces")
_ONE = {"armies": "army", "fleets": "fleet"}
_NAME = re.compile(r"^[a-z][a-z0-9-]{0,39}$")


_CALENDARS = {"standard": standard_calendar, "months": months_calendar}
_WHEN = re.compile(r"^([A-Za-z]+)\s*(\d{2}|\d{4})$")


@dataclass(frozen=True, eq=False)
class StartTerrainVariant(Variant):
    """A variant whose first position has other terrain than its map file (a file's `terrain`,
    e.g. Geophysical's Switzerland a mountain, Iceland land and the Caspian a lake) or ice (a
    file's `ice`)."""

    start_terrain: Mapping[str, Terrain] = field(default_factory=dict)
    start_iced: frozenset[str] = frozenset()

    def start_state(self) -> GameState:
        return super().start_state().evolve(terrain=dict(self.start_terrain),
                                            iced=self.start_iced)


@dataclass(frozen=True)
class Problem:
    """One error: where (file and line) and what is wrong, with what to write instead."""

    source: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


class VariantFileErrors(ValueError):
    """A variant file that cannot be played: every problem found, in line order."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(sorted(problems, key=lambda p: (p.source, p.line)))
        super().__init__("\n".join(map(str, self.problems)))


@dataclass(frozen=True)
class VariantFile:
    """A variant read from a file: the Variant, its map data, and the hash of its text (the
    file and its map file) that a game records."""

    variant: Variant
    data: MapData
    path: Path
    digest: str
    passages: tuple[tuple[str, str], ...] = field(default=())
    warnings: tuple[Problem, ...] = field(default=())
    options: tuple[str, ...] = field(default=())  # the rule options read, for the summary
    lines: Mapping[str, tuple[str, int]] = field(default_factory=dict)  # province: file, line


class _Lines:
    """Finds the line of a key or a value in the TOML text, for error messages."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def section(self, header: str, index: int) -> int:
        """The line of the `index`-th `[[header]]` (0-based); 1 if not found."""
        found = [n for n, line in enumerate(self.lines, 1) if line.strip() == f"[[{header}]]"]
        return found[index] if index < len(found) else 1

    def key(self, key: str, start: int = 1) -> int:
        """The line where `key = ...` (or `key.x = ...`, or its `[key]` or `[[key]]` table) is
        written at or after line `start`; `start` if none is."""
        quoted = rf"(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')"
        pattern = re.compile(rf"^\s*{quoted}\s*(?:=|\.)")
        table = re.compile(rf"^\s*\[\[?\s*{quoted}\s*(?:\]|\.)")
        for n in range(start, len(self.lines) + 1):
            if pattern.match(self.lines[n - 1]) or table.match(self.lines[n - 1]):
                return n
        return start

    def value(self, text: str, start: int = 1) -> int:
        """The line where the string `text` is written (quoted) at or after line `start`."""
        for n in range(start, len(self.lines) + 1):
            if f'"{text}"' in self.lines[n - 1] or f"'{text}'" in self.lines[n - 1]:
                return n
        return start


def file_digest(path: Path) -> str:
    """The hash a game records of its variant file: sha256 of the file and its map file."""
    h = hashlib.sha256(path.read_bytes())
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError, RecursionError):
        return h.hexdigest()
    beside = _map_file(path, table.get("map"))
    if beside is not None and beside.is_file():
        h.update(beside.read_bytes())
    return h.hexdigest()


def _map_file(path: Path, value: object) -> Path | None:
    """The map file a `map = "x.map"` names beside `path`; None for an inline map."""
    if not isinstance(value, str) or "\n" in value or not value.endswith(".map"):
        return None
    return path.parent / value


def read_variant(path: Path, taken: Callable[[str], str | None] | None = None
                 ) -> VariantFile:
    """Read, check and build the variant of the file at `path`; VariantFileErrors if it has
    any problem (never another exception for a bad file). `taken(name)`: the other variant
    that already has that name or alias, if any (gm.variants.registry.taken_by): the file's
    name and aliases must be its own. What a designer may mean but probably does not is in the
    result's `warnings`."""
    source = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise VariantFileErrors([Problem(source, 1, f"the file is {size} bytes long; a "
                                             f"variant file may have at most {MAX_BYTES}")])
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except OSError as exc:
        raise VariantFileErrors(
            [Problem(source, 1, f"cannot read the file: {exc.strerror}")]) from None
    except UnicodeDecodeError:
        raise VariantFileErrors([Problem(source, 1, "the file is not UTF-8 text")]) from None
    try:
        table = tomllib.loads(text)
    except RecursionError:
        raise VariantFileErrors([Problem(source, 1, "values are nested too deeply; a variant "
                                         "file needs lists of strings and tables only")]) from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        raise VariantFileErrors([Problem(
            source, int(found[1]) if found else 1,
            f"not valid TOML ({exc}); write `key = value` lines, strings in quotes, "
            "lists in [ ]")]) from None
    reader = _Reader(path, text, table, taken)
    variant, data = reader.build()
    if reader.problems or variant is None or data is None:
        raise VariantFileErrors(reader.problems)
    warnings = tuple(sorted(reader.warnings, key=lambda p: (p.source, p.line)))
    return VariantFile(variant, data, path, file_digest(path),
                       tuple(sorted(data.passages)), warnings, reader.options(),
                       {a: (reader.map_source, n + reader.map_offset)
                        for a, n in data.lines.items()})


class _Reader:
    """Builds a Variant from a parsed TOML table, collecting problems."""

    def __init__(self, path: Path, text: str, table: dict[str, Any],
                 taken: Callable[[str], str | None] | None = None) -> None:
        self.taken = taken
        self.path = path
        self.source = str(path)
        self.at = _Lines(text)
        self.table = table
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        self.regions: FrozenRegions | None = None
        self.map_source = self.source
        self.map_offset = 0  # an inline map's first line is this many lines into the file
        self.data: MapData | None = None
        self.canal_names: set[str] = set()
        self.notes: list[str] = []  # rules the options add to HELP, one paragraph each

    def problem(self, line: int, message: str, source: str | None = None) -> None:
        self.problems.append(Problem(source or self.source, line, message))

    def warn(self, line: int, message: str, source: str | None = None) -> None:
        self.warnings.append(Problem(source or self.source, line, f"warning: {message}"))

    def map_problem(self, province: str, message: str, *, ring: bool = False,
                    warning: bool = False) -> None:
        """A problem (or warning) at the line of a province of the map (or of its ring)."""
        lines = self.data.ring_lines if ring and self.data is not None else (
            self.data.lines if self.data is not None else {})
        line = lines.get(province, 0) + self.map_offset if province in lines else self.at.key(
            "map")
        source = self.map_source if province in lines else self.source
        (self.warn if warning else self.problem)(line, message, source)

    def names_taken(self, name: str, aliases: Sequence[str]) -> None:
        """The file's name and aliases must be its own: not another variant's name or alias
        (loading refuses a file whose names are taken, so the check does too)."""
        if self.taken is None:
            return
        for key, names in (("name", (name,)), ("aliases", aliases)):
            for written in names:
                other = self.taken(written)
                if other is not None:
                    instead = ("give the file's variant a name of its own" if key == "name"
                               else "leave it out of aliases or write another")
                    self.problem(self.at.value(written, self.at.key(key)), f"the name or alias "
                                 f"{written!r} is taken by another variant ({other}); {instead}")

    def options(self) -> tuple[str, ...]:
        """The rule options the file sets (with their values), for the check's summary."""
        defaults: dict[str, object] = {"calendar": "standard", "hooks": "standard",
                                       "builds": "home", "army_fleet": False,
                                       "transforms": False}
        given = ("frozen", "canals", "terrain", "ice", "season_names", "build_only",
                 "last_year")
        return (*(f"{key} = {_toml_value(self.table.get(key, d))}"
                  for key, d in defaults.items()),
                *(f"{key} = {_toml_value(self.table[key])}" for key in given
                  if key in self.table))

    # -- typed values --------------------------------------------------------------------------
    def text(self, key: str, default: str | None = None, *, table: dict[str, Any] | None = None,
             line: int = 1) -> str | None:
        where = self.table if table is None else table
        value = where.get(key, default)
        if value is not None and not isinstance(value, str):
            self.problem(self.at.key(key, line),
                         f"{key} must be a string in quotes, not {value!r}")
            return default
        return value

    def strings(self, key: str, *, table: dict[str, Any] | None = None,
                line: int = 1) -> list[str] | None:
        where = self.table if table is None else table
        value = where.get(key)
        if value is None:
            return None
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.problem(self.at.key(key, line),
                         f'{key} must be a list of strings, e.g. {key} = ["A", "B"]')
            return None
        return value

    # -- the whole file ------------------------------------------------------------------------
    def build(self) -> tuple[Variant | None, MapData | None]:
        for key in self.table:
            if key not in _KEYS:
                self.problem(self.at.key(key), f"unknown key {key!r}{_did_you_mean(key, _KEYS)}"
                             f"; the keys are: {', '.join(_KEYS)}")
        name = self.text("name")
        if name is None or not _NAME.match(name):
            self.problem(self.at.key("name"), f"name must be given, lower case letters, digits "
                         f"and -, starting with a letter (e.g. name = \"isthmia\"), not {name!r}")
        title = self.text("title") or (name or "").title()
        aliases = self.strings("aliases") or []
        if name is not None and _NAME.match(name):
            self.names_taken(name, aliases)
        data = self.map_data()
        powers = self.powers()
        calendar = self.calendar()
        hooks, kinds, rules = self.hooks()
        if data is None or calendar is None:
            return None, None
        data = self.canals(data)
        # a built-in map: the one GameMap the other variants on it share
        source = Path(data.source)
        shared = source.parent == VARIANT_DATA and not data.canals - map_data(source.stem).canals
        gmap = ring_map(source.stem) if shared else data.game_map()
        terrain = self.terrain(gmap)
        iced = self.ice(gmap, terrain)
        if terrain or iced:
            gmap = gmap.with_overlay(Overlay(terrain=terrain, iced=iced))
        homes = self.homes(gmap, powers)
        owned = self.owned(gmap, powers, homes)
        units = self.units(gmap, powers)
        hooks, kinds = self.movement(hooks, kinds, calendar, gmap)
        only = self.build_only(gmap)
        if only:
            self.notes.append("Build sites for one kind of unit: " + ", ".join(
                f"{p} ({kind} only)" for p, kind in sorted(only.items())) + ".")
        start = self.start(calendar)
        victory = self.table.get("victory", 18)
        if not isinstance(victory, int) or isinstance(victory, bool) or not (
                0 <= victory <= len(gmap.centres)):
            said = f"{victory!r}" if "victory" in self.table else "18 (when not given)"
            self.problem(self.at.key("victory"), f"victory must be the number of centres for a "
                         f"solo, from 1 to {len(gmap.centres)} (or 0: none), not {said}")
            victory = 0
        last = self.last_year(start)
        if last is not None:
            hooks = replace(hooks, victory=with_last_year(hooks, last).victory)
            self.notes.append(f"The game ends at the end of {last} unless a power has won "
                              "before; the powers are then ranked by the supply centres they "
                              "own.")
        events = self.events(gmap, calendar, start)
        if events and rules.hooks.apply_scheduled is not None:
            self.problem(self.at.section("events", 0), "the hook set plays its own dated "
                         "changes: give events only with hooks that have none (e.g. "
                         "hooks = \"standard\")")
        elif events:
            hooks = replace(hooks, apply_scheduled=apply_file_events)
        events = events or rules.scheduled
        for found in start_findings(data, gmap, events):
            self.map_problem(found.province, found.message, ring=found.ring,
                             warning=found.warning)
        self.canals_later(data, gmap, events)
        self.restricted_borders(data, gmap)
        self.useless_links(data, gmap)
        help_text = self.text("help", "") or rules.help
        if self.regions is not None and "frozen" not in help_text.lower():
            help_text = f"{help_text}\n\n{self.regions.help()}".strip()
        if OrderKind.TRANSFORM in kinds and "transforms" not in help_text:
            help_text = f"{help_text}\n\n{TRANSFORM_HELP}".strip()
        if OrderKind.ARMY_FLEET in kinds and AF_HELP.rstrip() not in help_text:
            help_text = f"{help_text}\n\n{AF_HELP}".strip()
        self.notes[:0] = _map_notes(data, units)
        for note in self.notes:
            help_text = f"{help_text}\n\n{textwrap.fill(note, 78)}".strip()
        if self.problems or name is None or start is None:
            return None, data
        made = StartTerrainVariant if terrain or iced else Variant
        extra: dict[str, Any] = {"start_terrain": terrain, "start_iced": iced} if (
            terrain or iced) else {}
        variant = made(
            **extra,
            name=name,
            title=title,
            aliases=tuple(aliases),
            map=gmap,
            calendar=calendar,
            powers=tuple(p for p, _, _ in powers),
            start_phase=start,
            start_units=units,
            homes=homes,
            solo_centres=victory or None,
            scheduled=events,
            order_kinds=kinds,
            hooks=hooks,
            help=help_text,
            start_owned=owned,
            build_only=only,
        )
        return variant, data

    def map_data(self) -> MapData | None:
        value = self.table.get("map")
        line = self.at.key("map")
        if not isinstance(value, str) or not value.strip():
            self.problem(line, 'map must name a .map file beside this one (map = "x.map") or '
                         'hold the map inline (map = """ ... """)')
            return None
        beside = _map_file(self.path, value)
        if beside is not None:
            if "/" in value or "\\" in value or value.startswith("."):
                self.problem(line, f"the map file must lie beside the variant file: write its "
                             f"name alone (map = \"{Path(value).name}\"), not {value!r}")
                return None
            source, offset = str(beside), 0
            try:
                if beside.stat().st_size > MAX_BYTES:
                    self.problem(line, f"{value} is longer than {MAX_BYTES} bytes")
                    return None
                text = beside.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                self.problem(line, f"cannot read the map file {value}: {exc}")
                return None
        else:
            # TOML drops a newline right after the opening quotes: the map's first line is the
            # next line of the file.
            opening = self.at.lines[line - 1] if line <= len(self.at.lines) else ""
            tail = opening.split("=", 1)[-1].strip()
            offset = line if tail in ('"""', "'''") else line - 1
            source, text = self.source, value
        self.map_source, self.map_offset = source, offset
        try:
            if beside is not None and beside.parent == VARIANT_DATA:
                self.data = map_data(beside.stem)  # a built-in map: read once, shared
            else:
                self.data = parse_map(text, source)
            return self.data
        except MapDataError as exc:
            for number, message in ((exc.line, exc.message), *exc.others):
                self.problem(number + offset, _with_hint(message), source)
            return None

    def powers(self) -> list[tuple[Power, int, dict[str, Any]]]:
        value = self.table.get("powers")
        if not isinstance(value, list) or not value or not all(isinstance(v, dict)
                                                               for v in value):
            self.problem(self.at.key("powers"), "the file needs its powers, each a [[powers]] "
                         "table with name, adjective and code")
            return []
        out: list[tuple[Power, int, dict[str, Any]]] = []
        codes: dict[str, str] = {}
        names: set[str] = set()
        for i, entry in enumerate(value):
            line = self.at.section("powers", i)
            for key in entry:
                if key not in _POWER_KEYS:
                    self.problem(self.at.key(key, line), f"unknown key {key!r} in a power"
                                 f"{_did_you_mean(key, _POWER_KEYS)}; the keys are: "
                                 f"{', '.join(_POWER_KEYS)}")
            pname = self.text("name", table=entry, line=line)
            if not pname:
                self.problem(line, 'a power needs a name: name = "Norland"')
                continue
            if pname.lower() == NEUTRAL.lower():
                self.problem(self.at.key("name", line), f"a power cannot be called {pname}: "
                             "the name is kept for neutral garrisons (`neutral = [...]`); "
                             "call the power something else")
                continue
            adjective = self.text("adjective", pname, table=entry, line=line) or pname
            code = self.text("code", pname[0], table=entry, line=line) or pname[0]
            if len(code) != 1 or not code.isalnum():
                self.problem(self.at.key("code", line), f"the code of {pname} must be one "
                             f'letter or digit, e.g. code = "{pname[0]}", not {code!r}')
            elif code.upper() in codes:
                self.problem(self.at.key("code", line), f"{pname} and {codes[code.upper()]} "
                             f"have the same code {code!r}: give each power its own")
            codes.setdefault(code.upper(), pname)
            if pname.lower() in names:
                self.problem(line, f"two powers are called {pname}")
            names.add(pname.lower())
            out.append((Power(pname, adjective, code.upper()), line, entry))
        return out

    def calendar(self) -> Calendar | None:
        value = self.table.get("calendar", "standard")
        make = _CALENDARS.get(value) if isinstance(value, str) else None
        if make is None:
            self.problem(self.at.key("calendar"), f"calendar must be one of "
                         f"{', '.join(map(repr, _CALENDARS))}, not {value!r}")
            return None
        return self.season_names(make())

    def ice(self, gmap: GameMap, terrain: Mapping[str, Terrain]) -> frozenset[str]:
        """The provinces iced at the start (`ice`): armies may stand on iced water, fleets may
        not enter ice (Geophysical rule 8)."""
        given = self.strings("ice")
        if not given:
            return frozenset()
        line = self.at.key("ice")
        found = set()
        for name in given:
            prov = self.province(gmap, name, line, "ice")
            if prov is None:
                continue
            if not terrain.get(prov, gmap.terrain[prov]).is_passable:
                self.problem(line, f"ice: {prov} is {terrain.get(prov, gmap.terrain[prov])}: "
                             "ice lies on land or water; leave it out of ice")
                continue
            if terrain.get(prov, gmap.terrain[prov]) is Terrain.LAND:
                self.warn(line, f"ice: {prov} is land: armies stand on land anyway, so ice "
                          f"there only keeps fleets off its coast (ice is for water: armies "
                          f"cross it, fleets may not enter); leave {prov} out of ice unless "
                          "that is what you mean")
            found.add(prov)
        return frozenset(found)

    def season_names(self, calendar: Calendar) -> Calendar:
        """The calendar with its seasons renamed from a year on (`[season_names]`, Sahara's
        rule 6: `from = 1905`, `Spring = "Early Summer"`, ...)."""
        value = self.table.get("season_names")
        if value is None:
            return calendar
        line = self.at.key("season_names")
        if line == 1:
            line = next((n for n, text in enumerate(self.at.lines, 1)
                         if text.strip() == "[season_names]"), 1)
        seasons = [s.name for s in calendar.seasons]
        example = (f'[season_names] with the year they apply from and a new name for any of '
                   f'the seasons {", ".join(seasons)}: from = 1905, '
                   f'{seasons[0]} = "Early Summer"')
        if not isinstance(value, dict):
            self.problem(line, f"season_names must be a table: {example}")
            return calendar
        since = value.get("from")
        if not isinstance(since, int) or isinstance(since, bool) or not 1 <= since <= 9999:
            self.problem(self.at.key("from", line), f"season_names needs the year the names "
                         f"apply from, e.g. from = 1905, not {since!r}")
            return calendar
        names: dict[str, str] = {}
        for key, new in value.items():
            if key == "from":
                continue
            season = calendar.season(key)
            if season is None or not isinstance(new, str) or not new.strip():
                near = _did_you_mean(key, seasons) if season is None else ""
                self.problem(self.at.key(key, line), f"season_names: {key} = {new!r} cannot be "
                             f"read{near}; write {example}")
                continue
            names[season.name] = " ".join(new.split())
        return Calendar(tuple(
            replace(s, renamed=((since, names[s.name]),)) if s.name in names else s
            for s in calendar.seasons))

    def canals(self, data: MapData) -> MapData:
        """The map data with the file's `canals`: provinces that have one coast however their
        water lies (Sahara's seas once they dry up), as the map format's `canal` mark."""
        given = self.strings("canals")
        if not given:
            return data
        line = self.at.key("canals")
        found = set()
        for name in given:
            prov = name if name in data.provinces else data.names.get(normalise(name))
            if prov is None:
                self.problem(line, f"canals: {_unknown_province(name, data.provinces.values())}")
                continue
            found.add(prov)
        self.canal_names = found
        return frozen_replace(data, canals=set(data.canals) | found)

    def canals_later(self, data: MapData, gmap: GameMap, events: Sequence[ScheduledEvent]
                     ) -> None:
        """A canal is land with one coast: a file's canal that is not land at the start must
        become land by a dated change (Sahara's seas that dry up)."""
        made_land = {p for e in events if e.kind in ("land", "passable") for p in e.provinces}
        for prov in sorted(self.canal_names - made_land):
            terrain = gmap.terrain[prov]
            if terrain is not Terrain.LAND:
                self.problem(self.at.key("canals"), f"canals: {prov} is {terrain.value}, and "
                             "no event makes it land: a canal is a land province whose water "
                             "is one coast; leave it out of canals, or dry it with an event")

    def last_year(self, start: Phase | None) -> int | None:
        """The last game year (`last_year = 1910`): from the start's year on."""
        value = self.table.get("last_year")
        if value is None:
            return None
        first = start.year if start is not None else 1
        if not isinstance(value, int) or isinstance(value, bool) or not (
                first <= value <= 9999):
            self.problem(self.at.key("last_year"), f"last_year must be a year from the "
                         f"start's ({first}) on, e.g. last_year = {first + 9}, not {value!r}")
            return None
        return value

    def useless_links(self, data: MapData, gmap: GameMap) -> None:
        """A warning for a `link A B` no unit can cross at the start (an inland province and a
        sea, a split coast and a sea): what a designer probably does not mean."""
        for a, b in sorted(data.links):
            crosses = gmap.army_can_move(a, b) or any(
                gmap.fleet_can_move(x, y) for x in gmap.fleet_locations(a)
                for y in gmap.fleet_locations(b))
            if not crosses:
                line = data.way_lines.get((a, b), 0) + self.map_offset
                self.warn(line, f"`link {a} {b}`: no unit can cross it at the start (armies "
                          "cross a link between land, fleets one between water or coasts, a "
                          "split coast only by armies); if that is not what you mean, link "
                          "other provinces", self.map_source)

    def build_only(self, gmap: GameMap) -> dict[str, str]:
        """The build sites for one kind of unit (`build_only = { Cap = "fleets" }`): each a
        supply centre where a unit of that kind can stand."""
        value = self.table.get("build_only")
        if value is None:
            return {}
        line = self._table_line("build_only")
        example = 'build_only = { Cap = "fleets", Nor = "armies" }'
        if not isinstance(value, dict):
            self.problem(line, f"build_only must be a table of centres and the kind of unit "
                         f"built there, e.g. {example}")
            return {}
        out: dict[str, str] = {}
        for name, kind in value.items():
            where = self.at.key(name, line)
            prov = self.province(gmap, name, where, "build_only")
            if prov is None:
                continue
            if kind not in BUILD_KINDS:
                near = _did_you_mean(kind, BUILD_KINDS) if isinstance(kind, str) else ""
                self.problem(where, f"build_only: {name} = {kind!r}{near}: write \"armies\" "
                             "or \"fleets\"")
            elif prov not in gmap.centres:
                self.problem(where, f"build_only: {prov} is no supply centre, so nothing is "
                             "built there: leave it out of build_only, or mark it `centre`")
            elif kind == "fleets" and not gmap.fleet_locations(prov):
                self.problem(where, f"build_only: {prov} has no coast, so no fleet can be "
                             f"built there: write {prov} = \"armies\", or leave it out")
            elif kind == "armies" and not gmap.is_land(prov):
                self.problem(where, f"build_only: {prov} is {gmap.terrain_of(prov).value}, so "
                             f"no army can be built there: write {prov} = \"fleets\", or "
                             "leave it out")
            else:
                out[prov] = kind
        return out

    def restricted_borders(self, data: MapData, gmap: GameMap) -> None:
        """A warning for a `border A B armies|fleets` line whose kind of unit cannot cross that
        border at the start anyway: the line then closes the border to every unit."""
        for (a, b), kind in sorted(data.only.items()):
            if kind == "armies":
                crosses = gmap.army_can_move(a, b)
                why = "both sides must be land"
            else:
                crosses = any(gmap.fleet_can_move(x, y) for x in gmap.fleet_locations(a)
                              for y in gmap.fleet_locations(b))
                why = "a fleet crosses between two waters, water and a coast, or two coasts " \
                      "whose border ends on water"
            if not crosses:
                line = data.only_lines.get((a, b), 0) + self.map_offset
                self.warn(line, f"`border {a} {b} {kind}`: no {_ONE[kind]} "
                          f"can cross between {a} and {b} at the start ({why}), so the border "
                          "is closed to every unit; if that is not what you mean, write the "
                          "other kind", self.map_source)

    def terrain(self, gmap: GameMap) -> dict[str, Terrain]:
        """The first position's terrain where it differs from the map (`[terrain]`,
        Geophysical's `Swi = "mountain"`)."""
        value = self.table.get("terrain")
        if value is None:
            return {}
        line = self.at.key("terrain")
        if line == 1:
            line = next((n for n, text in enumerate(self.at.lines, 1)
                         if text.strip() == "[terrain]"), 1)
        kinds = ", ".join(t.value for t in Terrain)
        if not isinstance(value, dict):
            self.problem(line, f'terrain must be a table of provinces and terrains, e.g. '
                         f'terrain = {{ Swi = "mountain" }} (terrains: {kinds})')
            return {}
        out: dict[str, Terrain] = {}
        for name, kind in value.items():
            where = self.at.key(name, line)
            prov = self.province(gmap, name, where, "terrain")
            if prov is None:
                continue
            if kind not in {t.value for t in Terrain}:
                near = _did_you_mean(kind, (t.value for t in Terrain)) if isinstance(
                    kind, str) else ""
                self.problem(where, f"terrain: {name} = {kind!r}{near}: the terrains are "
                             f"{kinds}")
                continue
            out[prov] = Terrain(kind)
        return out

    def hooks(self) -> tuple[Hooks, frozenset[str], HookSet]:
        name = self.text("hooks", "standard") or "standard"
        found = load_hook_set(name)
        if isinstance(found, str):
            self.problem(self.at.key("hooks"), f"{found}; fix or reinstall the package, or "
                         "name another hook set")
            return Hooks(), frozenset(), HookSet(Hooks())
        if found is None:
            self.problem(self.at.key("hooks"), f"no hook set is called {name!r}"
                         f"{_did_you_mean(name, hook_set_names())}; a file may name only "
                         f"these: {', '.join(hook_set_names())}")
            return Hooks(), frozenset(), HookSet(Hooks())
        hooks, kinds = found.hooks, found.order_kinds
        builds = self.text("builds", "home")
        if builds == "any":
            hooks = replace(hooks, build_sites=build_anywhere)
        elif builds == "designated":
            hooks = with_designated_homes(hooks)
            kinds = kinds | {OrderKind.HOME}
        elif builds != "home":
            self.problem(self.at.key("builds"), f'builds must be "home" (owned home centres), '
                         f'"any" (any owned centre) or "designated" (owned homes, and centres '
                         f'designated as homes as in Chaos II), not {builds!r}')
        army_fleet = self.table.get("army_fleet", False)
        if not isinstance(army_fleet, bool):
            self.problem(self.at.key("army_fleet"), f"army_fleet must be true or false, not "
                         f"{army_fleet!r}")
        elif army_fleet:
            from gm.engine.army_fleet import (
                af_before_phase,
                resolve_adjustments_af,
                resolve_movement_af,
                resolve_retreats_af,
            )

            kinds = kinds | {OrderKind.ARMY_FLEET}
            hooks = replace(hooks, before_phase=hooks.before_phase or af_before_phase,
                            resolve_movement=hooks.resolve_movement or resolve_movement_af,
                            resolve_retreats=hooks.resolve_retreats or resolve_retreats_af,
                            resolve_adjustments=hooks.resolve_adjustments
                            or resolve_adjustments_af)
        return hooks, kinds, found

    def movement(self, hooks: Hooks, kinds: frozenset[str], calendar: Calendar,
                 gmap: GameMap) -> tuple[Hooks, frozenset[str]]:
        """The movement resolver the file's options ask for: frozen regions, transforms."""
        frozen = self.regions = self.frozen(calendar, gmap)
        if frozen is not None:
            from gm.engine.army_fleet import resolve_movement_af

            if hooks.resolve_movement not in (None, resolve_movement_af):
                self.problem(self.at.key("hooks"), "the hook set plays its own moves: give "
                             "[frozen] only with hooks that do not (e.g. hooks = \"standard\")")
            else:
                hooks = replace(hooks, resolve_movement=frozen.resolve_movement,
                                frozen_provinces=frozen.frozen_in)
        transforms = self.table.get("transforms", False)
        if not isinstance(transforms, bool):
            self.problem(self.at.key("transforms"), f"transforms must be true (armies on a "
                         f"coast may become fleets, Deluge II rule 2) or false, not "
                         f"{transforms!r}")
        elif transforms:
            from gm.engine.movement import resolve_movement

            kinds = kinds | {OrderKind.TRANSFORM}
            hooks = replace(hooks, resolve_movement=with_transforms(
                hooks.resolve_movement or resolve_movement))
        return hooks, kinds

    def frozen(self, calendar: Calendar, gmap: GameMap) -> FrozenRegions | None:
        """The file's `[frozen]` regions (Abstraction2 rule 5), checked; None if it has none."""
        value = self.table.get("frozen")
        if value is None:
            return None
        line = self._table_line("frozen")
        example = ('[frozen] with months = ["January"], provinces = ["BAR", "Lap"] and, if '
                   'armies there cannot be dislodged nor leave by sea, armies = ["Lap"]')
        if not isinstance(value, dict):
            self.problem(line, f"frozen must be a table: {example}")
            return None
        for key in value:
            if key not in ("months", "provinces", "armies"):
                self.problem(self.at.key(key, line), f"unknown key {key!r} in frozen; write "
                             f"{example}")
        months = []
        for name in self.strings("months", table=value, line=line) or []:
            season = calendar.season(name)
            if season is None or PhaseType.MOVEMENT not in season.phases:
                moves = ", ".join(s.name for s in calendar.seasons
                                  if PhaseType.MOVEMENT in s.phases)
                self.problem(self.at.key("months", line), f"frozen: {name!r} is not a season "
                             f"of the calendar with moves"
                             f"{_did_you_mean(name, (s.name for s in calendar.seasons))}; the "
                             f"seasons are {moves}")
                continue
            months.append(season.name)
        places: dict[str, list[str]] = {"provinces": [], "armies": []}
        for key, found in places.items():
            for name in self.strings(key, table=value, line=line) or []:
                prov = self.province(gmap, name, self.at.key(key, line), f"frozen {key}")
                if prov is not None:
                    found.append(prov)
        if not months or not places["provinces"]:
            self.problem(line, f"frozen needs its months and provinces: {example}")
            return None
        outside = sorted(set(places["armies"]) - set(places["provinces"]))
        if outside:
            self.problem(self.at.key("armies", line), f"frozen armies: {', '.join(outside)} "
                         "must also be among the frozen provinces")
        return frozen_regions({"months": months, **places})

    def _table_line(self, key: str) -> int:
        """The line of `key = ...` or of its `[key]` header."""
        found = self.at.key(key)
        if found == 1:
            found = next((n for n, text in enumerate(self.at.lines, 1)
                          if text.strip() == f"[{key}]"), 1)
        return found

    def province(self, gmap: GameMap, name: str, line: int, what: str) -> str | None:
        found = gmap.lookup(name)
        if found is None:
            self.problem(line, f"{what}: {_unknown_province(name, gmap.provinces.values())}")
        return found

    def homes(self, gmap: GameMap, powers: list[tuple[Power, int, dict[str, Any]]]
              ) -> dict[str, tuple[str, ...]]:
        try:
            homes = homes_from_map(gmap, [p for p, _, _ in powers])
        except ValueError:
            # the map's `home` marks are for other powers: fine if every power names its homes
            homes = {p.name: () for p, _, _ in powers}
            if not powers or any("homes" not in entry for _, _, entry in powers):
                self.unknown_home_marks(gmap, [p for p, _, _ in powers])
        for power, line, entry in powers:
            given = self.strings("homes", table=entry, line=line)
            if given is None:
                continue
            where = self.at.key("homes", line)
            listed = []
            for name in given:
                prov = self.province(gmap, name, where, f"the homes of {power.name}")
                if prov is None:
                    continue
                if prov not in gmap.centres:
                    self.problem(where, f"{prov}, a home centre of {power.name}, is no supply "
                                 f"centre: mark it `centre` in the map, or leave it out of homes")
                    continue
                listed.append(prov)
            homes[power.name] = tuple(sorted(listed))
        first: dict[str, str] = {}
        for power, line, entry in powers:
            for prov in homes.get(power.name, ()):
                if prov in first:
                    where = self.at.key("homes", line) if "homes" in entry else line
                    self.problem(where, f"{prov} is a home centre of {first[prov]} and of "
                                 f"{power.name}: a centre is the home of one power; leave it "
                                 f"out of the homes of one of them")
                first.setdefault(prov, power.name)
            if not homes.get(power.name):
                builds = self.table.get("builds", "home")
                self.warn(line, f"{power.name} has no home centre" + (
                    ": it can never build (builds = \"home\"); mark one `home "
                    f"{power.name}` in the map, or list its homes" if builds == "home" else
                    f"; mark one `home {power.name}` in the map, or list its homes, unless "
                    "it is meant to start without"))
        return homes

    def unknown_home_marks(self, gmap: GameMap, powers: Sequence[Power]) -> None:
        """Each `home X` mark of the map that names no power of the file, at its line."""
        known = {key.lower(): p.name for p in powers for key in (p.name, p.adjective)}
        for prov in gmap.provinces.values():
            if prov.home is None or prov.home.lower() in known:
                continue
            near = nearest(prov.home, [p.name for p in powers])
            instead = f"`home {near[0]}`" if near else (
                "`home` and one of the powers: " + ", ".join(p.name for p in powers))
            self.map_problem(prov.abbr, f"{prov.abbr} is marked home of {prov.home!r}, a power "
                             f"the file does not have: write {instead}, or give every power "
                             "its homes")

    def owned(self, gmap: GameMap, powers: list[tuple[Power, int, dict[str, Any]]],
              homes: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        """The centres each power owns at the start that are not its homes (`owns`): each a
        supply centre, no power's home, owned by one power."""
        home_of = {c: p for p, cs in homes.items() for c in cs}
        owner: dict[str, str] = {}
        out: dict[str, tuple[str, ...]] = {}
        for power, line, entry in powers:
            given = self.strings("owns", table=entry, line=line)
            if not given:
                continue
            where = self.at.key("owns", line)
            found = []
            for name in given:
                prov = self.province(gmap, name, where, f"the centres {power.name} owns")
                if prov is None:
                    continue
                if prov not in gmap.centres:
                    self.problem(where, f"owns: {prov} is no supply centre: mark it `centre` "
                                 f"in the map, or leave it out of the centres {power.name} owns")
                elif prov in home_of:
                    instead = ("it is owned as a home already; leave it out of owns"
                               if home_of[prov] == power.name else
                               f"leave it out of owns, or out of the homes of {home_of[prov]}")
                    self.problem(where, f"owns: {prov} is a home centre of {home_of[prov]}, "
                                 f"which owns it at the start: {instead}")
                elif prov in owner:
                    self.problem(where, f"owns: {prov} is owned by {owner[prov]} already: a "
                                 "centre has one owner; leave it out of one of them")
                else:
                    owner[prov] = power.name
                    found.append(prov)
            out[power.name] = tuple(sorted(found))
        return out

    def units(self, gmap: GameMap, powers: list[tuple[Power, int, dict[str, Any]]]
              ) -> tuple[Unit, ...]:
        units: list[Unit] = []
        taken: dict[str, str] = {}
        neutral = self.strings("neutral") or []
        garrisons = [(Power(NEUTRAL, NEUTRAL, ""), self.at.key("neutral"), {"units": neutral})]
        for power, line, entry in [*powers, *garrisons]:
            for item in self.strings("units", table=entry, line=line) or []:
                where = self.at.value(item, line)
                unit = self.unit(gmap, power.name, item, where)
                if unit is None:
                    continue
                if unit.province in taken:
                    holder = ("a neutral garrison" if taken[unit.province] == NEUTRAL
                              else f"a unit of {taken[unit.province]}")
                    self.problem(where, f"{item!r}: {unit.province} already holds {holder}; "
                                 "one unit per province")
                    continue
                taken[unit.province] = power.name
                units.append(unit)
        return tuple(sorted(units))

    def unit(self, gmap: GameMap, power: str, item: str, line: int) -> Unit | None:
        kind, _, where = item.strip().partition(" ")
        if kind.upper() not in ("A", "F") or not where.strip():
            self.problem(line, f"cannot read the unit {item!r} of {power}: write \"A Nor\" "
                         f'(an army) or "F Cap" (a fleet), "F Ist/nc" on a split coast')
            return None
        prov_name, _, coast = where.strip().partition("/")
        prov = self.province(gmap, prov_name, line, f"the unit {item!r} of {power}")
        if prov is None:
            return None
        utype = UnitType(kind.upper())
        loc = Location(prov, coast.lower() or None)
        if not gmap.is_passable(prov):
            self.problem(line, f"{item!r}: {prov} is {gmap.terrain_of(prov).value}: no unit can "
                         f"stand there; put the unit on land or sea")
        elif utype is UnitType.FLEET and gmap.is_split(prov) and loc.coast is None:
            options = " or ".join(f"F {prov}/{c}" for c in gmap.coasts[prov])
            self.problem(line, f"{item!r}: {prov} has several coasts: write {options}")
        elif utype is UnitType.FLEET and not gmap.fleet_locations(prov):
            self.problem(line, f"{item!r}: a fleet inland; {prov} has no coast: make it an "
                         f"army (A {prov}) or put the fleet on a coast or at sea")
        elif utype is UnitType.FLEET and prov in gmap.iced:
            self.problem(line, f"{item!r}: {prov} is iced at the start, and fleets may not "
                         f"enter ice: make it an army (A {prov}), put the fleet elsewhere, or "
                         f"leave {prov} out of ice")
        elif utype is UnitType.ARMY and gmap.is_water(prov):
            self.problem(line, f"{item!r}: an army at sea; make it a fleet (F {prov}) or put "
                         "the army on land")
        elif not gmap.can_occupy(utype, loc):
            coasts = ", ".join(str(x) for x in gmap.fleet_locations(prov)) or "none"
            self.problem(line, f"{item!r}: there is no such place for the unit (the coasts of "
                         f"{prov}: {coasts})")
        else:
            return Unit(power, utype, loc)
        return None

    def start(self, calendar: Calendar) -> Phase | None:
        value = self.text("start")
        if value is None:
            if self.table.get("calendar") == "months":
                return Phase("July", 1914, PhaseType.MOVEMENT)  # as Abstraction2 starts
            first = calendar.seasons[0]
            return Phase(first.name, 1901, first.phases[0])
        phase = calendar.parse(value)
        if phase is None:
            found = re.match(r"^\s*(.+?)\s+(\d{3,4})\s*$", value)
            season = calendar.season(found[1]) if found else None
            if found and season is not None:
                phase = Phase(season.name, int(found[2]), season.phases[0])
        if phase is None or phase.type is PhaseType.RETREAT:
            self.problem(self.at.key("start"), f"start must be a season and a year of the "
                         f"calendar, e.g. start = \"{calendar.seasons[0].name} 1901\", "
                         f"not {value!r}")
            return None
        return phase

    def events(self, gmap: GameMap, calendar: Calendar, start: Phase | None
               ) -> tuple[ScheduledEvent, ...]:
        """The file's `[[events]]` in the order written, each checked: it must be able to
        happen when it comes due (gm.variants.file_events.event_problems)."""
        value = self.table.get("events", [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            self.problem(self.at.key("events"), "events must be [[events]] tables with "
                         "when, kind and provinces")
            return ()
        out: list[DatedEvent] = []
        for i, entry in enumerate(value):
            line = self.at.section("events", i)
            for key in entry:
                if key not in _EVENT_KEYS:
                    self.problem(self.at.key(key, line), f"unknown key {key!r} in an event"
                                 f"{_did_you_mean(key, _EVENT_KEYS)}; the keys are: "
                                 f"{', '.join(_EVENT_KEYS)}")
            when = self.text("when", "", table=entry, line=line) or ""
            found = _WHEN.match(when.strip())
            season = _season(calendar, found[1]) if found else None
            if found is None or season is None:
                self.problem(self.at.key("when", line), f"when must be {_when_example(calendar)}"
                             f", not {when!r}")
                continue
            year = int(found[2]) + (1900 if len(found[2]) == 2 else 0)
            kind = self.text("kind", "", table=entry, line=line) or ""
            if kind not in EVENT_KINDS:
                self.problem(self.at.key("kind", line), f"unknown event kind {kind!r}"
                             f"{_did_you_mean(kind, EVENT_KINDS)}; the kinds are: "
                             f"{', '.join(EVENT_KINDS)}")
                continue
            provinces = []
            for name in self.strings("provinces", table=entry, line=line) or []:
                prov = self.province(gmap, name, self.at.key("provinces", line), "an event")
                if prov is not None:
                    provinces.append(prov)
            if provinces:
                out.append(DatedEvent(ScheduledEvent(season, year, EVENT_KINDS[kind],
                                                     tuple(provinces)), line))
        if start is not None:
            for number, message in event_problems(gmap, calendar, start, out):
                self.problem(number, message)
        return tuple(d.event for d in out)


def _map_notes(data: MapData, units: Sequence[Unit]) -> list[str]:
    """What HELP tells players of the map and start beyond the board's drawing: borders only
    armies or only fleets cross, long links, one-way borders, neutral garrisons."""
    notes = []
    for kind in ("armies", "fleets"):
        pairs = [f"{a}-{b}" for (a, b), k in sorted(data.only.items()) if k == kind]
        if pairs:
            notes.append(f"Only {kind} cross the border{'s' if len(pairs) > 1 else ''} "
                         f"{', '.join(pairs)}.")
    if data.links:
        notes.append("Linked across the board (they border each other): "
                     + ", ".join(f"{a}-{b}" for a, b in sorted(data.links)) + ".")
    if data.one_way:
        notes.append("Crossed one way only: "
                     + ", ".join(f"from {a} to {b}" for a, b in sorted(data.one_way)) + ".")
    garrisons = [str(u) for u in units if u.power == NEUTRAL]
    if garrisons:
        notes.append(f"Neutral garrisons: {', '.join(garrisons)}. They hold (a power may "
                     "support them), are destroyed when dislodged, and take no centre.")
    return notes


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    """` (did you mean 'aliases'?)` for a misspelt key or word; empty if none is close."""
    near = nearest(word, known)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _unknown_province(name: str, provinces: Iterable[Province]) -> str:
    """`there is no province 'Nordmrak' on the map; did you mean Nor (Nordmark)?`, or, with
    nothing close, some of the map's abbreviations."""
    provinces = sorted(provinces, key=lambda p: p.abbr)
    owner = {normalise(n): p for p in provinces for n in (p.abbr, p.name, *p.aliases)}
    near = [owner[n] for n in nearest(name, owner, 3)]
    if near:
        said = " or ".join(dict.fromkeys(f"{p.abbr} ({p.name})" for p in near))
        return f"there is no province {name!r} on the map; did you mean {said}?"
    return (f"there is no province {name!r} on the map; write one of its abbreviations "
            f"({', '.join(p.abbr for p in provinces[:8])}, ...)")


def _toml_value(value: object) -> str:
    """A value as a variant file writes it (`"home"`, `true`, `["ION"]`, `{ from = 1905 }`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml_value, value)) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


def _when_example(calendar: Calendar) -> str:
    """What `when` accepts, with an example from the calendar (the months' names, or the
    standard year's season letters)."""
    if calendar.season("Winter") is not None:
        return 'a season\'s letter and a year, e.g. when = "W1901" (Winter 1901)'
    last = next(s for s in reversed(calendar.seasons) if PhaseType.ADJUSTMENT in s.phases)
    first = calendar.seasons[0]
    return (f'a month and a year, e.g. when = "{last.name} 1914" or when = '
            f'"{first.short_code}1915" ({first.name} 1915)')


def _season(calendar: Calendar, letter: str) -> str | None:
    for s in calendar.seasons:
        if letter.lower() in (s.short_code.lower(), *(n.lower() for n in s.names())):
            return s.name
    initials = [s for s in calendar.seasons if any(n[0].lower() == letter.lower()
                                                    for n in s.names())]
    return initials[0].name if len(initials) == 1 else None


def _with_hint(message: str) -> str:
    """A ring error with what to write instead: two provinces that meet only at a point where
    four meet cannot be drawn as ring neighbours; they are a passage."""
    found = re.match(r"asymmetric border: (\S+) lists (\S+), but the ring of \S+ lacks", message)
    if found:
        p, q = found[1], found[2]
        return (f"{message}: add {p} to the ring of {q} where they meet, or, if {p} and {q} "
                f"meet only at a point (a border that cannot be drawn), take {q} out of the "
                f"ring of {p} and declare the border a passage: `passage {p} {q}`")
    return message


def position_problems(variant: Variant, state: GameState) -> list[str]:
    """Why a game's position does not fit `variant` (a variant file changed under the game):
    a power, a province, a unit's place, an owned or home centre the variant no longer has.
    Empty if it fits."""
    gmap = variant.map
    powers = set(variant.power_names)
    problems: list[str] = []
    gone = sorted({p for p in (*state.terrain, *state.owners, *(h for hs in state.homes.values()
                                                               for h in hs))
                   if p not in gmap.provinces})
    if gone:
        problems.append(f"the map has no province {', '.join(gone)} any more")
    here = variant.map_for(state) if not gone else gmap
    units = [*state.units, *(d.unit for d in state.dislodged)]
    for unit in units:
        if unit.power not in powers and unit.power != NEUTRAL:
            problems.append(f"{unit} belongs to {unit.power}, a power the variant no longer has")
        elif unit.province not in gmap.provinces:
            problems.append(f"{unit} ({unit.power}) stands in {unit.province}, which the map no "
                            "longer has")
        elif not here.can_occupy(unit.type, unit.location):
            problems.append(f"{unit} ({unit.power}) can no longer stand at {unit.location}")
    owners = sorted({o for o in (*state.owners.values(), *state.homes) if o not in powers})
    if owners:
        problems.append(f"the variant has no power {', '.join(owners)} any more")
    return problems
