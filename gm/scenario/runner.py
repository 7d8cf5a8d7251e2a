"""Running scenario cases: build the position, parse the orders, advance, compare.

Each case is run as the specification describes: the variant's map in its state for the phase,
the PRESTATE blocks, every ORDERS line through the real order parser (an order that does not parse
or names no power is void; it never aborts the case), `advance` through to the next phase needing
orders, then every POSTSTATE block present compared with the result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from gm.engine.errors import OrderError
from gm.engine.game import GameStep, PhaseReport, advance
from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap
from gm.engine.orders import Move
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import Fate, Reason
from gm.engine.results import OrderResult, Outcome, Submitted
from gm.engine.rulebook import with_rulebook
from gm.engine.state import Dislodged, GameState
from gm.engine.units import NEUTRAL, Unit, UnitType
from gm.engine.variant import Power, Variant
from gm.notation import parse_order, parse_orders, parse_unit, resolve_province
from gm.scenario.format import Case, Line
from gm.variants.registry import UnknownVariant, get_variant

# Case after case repeats the same unit and order texts: parse each text once per map (maps are
# immutable and compared by identity; results are frozen values).

# Enum members as module constants (an enum class attribute costs a lookup each time).
_ILLEGAL = Outcome.ILLEGAL
_MOVEMENT = PhaseType.MOVEMENT
_SEA = Terrain.SEA
_ARMY = UnitType.ARMY
_FLEET = UnitType.FLEET


_parse_unit = lru_cache(maxsize=8192)(parse_unit)
_parse_order = lru_cache(maxsize=8192)(parse_order)
_parse_orders = lru_cache(maxsize=8192)(parse_orders)


class CaseError(ValueError):
    """A case whose position cannot be built (unknown power, province, phase, ...)."""

    def __init__(self, case: Case, line: int, message: str) -> None:
        super().__init__(f"{case.path}:{line}: {message}")


@dataclass(frozen=True)
class Difference:
    """One POSTSTATE block that disagrees: lines expected but missing, lines found unexpected."""

    block: str
    missing: tuple[str, ...]
    unexpected: tuple[str, ...]


@dataclass(frozen=True)
class CaseResult:
    """What running a case gave: the differences from its POSTSTATE blocks (none: passed),
    the reports of the phases played, the void ORDERS lines, or why the case could not run."""

    case: Case
    differences: tuple[Difference, ...] = ()
    reports: tuple[PhaseReport, ...] = ()
    void: tuple[OrderResult, ...] = ()  # ORDERS lines that never reached the adjudicator
    error: str | None = None

    @property
    def passed(self) -> bool:
        return self.error is None and not self.differences

    @property
    def results(self) -> tuple[OrderResult, ...]:
        return self.void + tuple(r for rep in self.reports for r in rep.results)

    @property
    def events(self) -> tuple[str, ...]:
        return tuple(e for rep in self.reports for e in rep.events)


def run_case(case: Case, variant: Variant | None = None) -> CaseResult:
    """Run one case (with the variant it names, unless one is given); never raises for a bad
    case (the result carries the error)."""
    try:
        return _run(case, variant or _variant(case))
    except CaseError as e:
        return CaseResult(case, error=str(e))


# -- building the position ---------------------------------------------------------------------
class _Setup:
    """A case being built: its variant, and the map names are read against."""

    gmap: GameMap

    def __init__(self, case: Case, variant: Variant) -> None:
        self.case = case
        self.variant = variant

    def fail(self, line: int, message: str) -> CaseError:
        return CaseError(self.case, line, message)

    def power(self, name: str, line: int) -> str:
        p = self.variant.power(name)
        if p is None:
            known = ", ".join(self.variant.power_names)
            raise self.fail(line, f"no power called {name!r} in {self.variant.title} ({known})")
        return p.name

    def province(self, name: str, line: int) -> str:
        found = resolve_province(name, self.gmap)
        if isinstance(found, OrderError):
            raise self.fail(line, found.message)
        return found

    def split_power(self, item: Line) -> tuple[str, str]:
        found = split_power(self.variant, item.text)
        if found is None:
            raise self.fail(item.number, f"{item.text!r}: expected `Power: ...`")
        return found

    def unit(self, item: Line) -> Unit:
        found = _unit(self.variant, self.gmap, item.text)
        if isinstance(found, str):
            raise self.fail(item.number, found)
        return found

    def units(self, block: str) -> tuple[Unit, ...]:
        items = self.case.block(block)
        if not items:
            return ()
        variant, gmap = self.variant, self.gmap
        known = _known(_UNITS, (variant, gmap))
        found = [known[text] if text in known else _unit(variant, gmap, text)
                 for _, text in items]
        if str in set(map(type, found)):  # a message: the first one is the error
            for item, unit in zip(items, found, strict=True):
                if isinstance(unit, str):
                    raise self.fail(item.number, unit)
        return tuple(found)  # type: ignore[arg-type]  # no message left: all units


# What a text reads as, per variant and map (and phase type): case after case repeats the same
# lines, and both the variants and the maps are immutable and compared by identity. A dict per
# key is quicker to ask than an lru_cache of several arguments; each is emptied when large.
_V = TypeVar("_V")
_UNITS: dict[tuple[object, ...], dict[str, Unit | str]] = {}
_OWNERS: dict[tuple[object, ...], dict[str, tuple[str, str] | str]] = {}
_SUBMISSIONS: dict[tuple[object, ...], dict[str, tuple[Submitted, ...] | OrderResult]] = {}
_KNOWN_LIMIT = 16384


def _known(table: dict[tuple[object, ...], dict[str, _V]], key: tuple[object, ...]
           ) -> dict[str, _V]:
    found = table.get(key)
    if found is None or len(found) > _KNOWN_LIMIT:
        if len(table) > 64:
            table.clear()
        found = table[key] = {}
    return found


def _unit(variant: Variant, gmap: GameMap, text: str) -> Unit | str:
    found = _unit_uncached(variant, gmap, text)
    _known(_UNITS, (variant, gmap))[text] = found
    return found


def _unit_uncached(variant: Variant, gmap: GameMap, text: str) -> Unit | str:
    """The unit a `Power: A Par` line places, or the message saying why it places none
    (variants and maps are immutable and compared by identity, so this is cached)."""
    found = split_power(variant, text)
    if found is None:
        return f"{text!r}: expected `Power: ...`"
    name, rest = found
    power = variant.power(name)
    neutral = power is None and name.strip().lower() == NEUTRAL.lower()  # a garrison
    if power is None and not neutral:
        known = ", ".join(variant.power_names)
        return f"no power called {name!r} in {variant.title} ({known})"
    spec = _parse_unit(rest, gmap)
    if isinstance(spec, OrderError):
        return spec.message
    if spec.type is None:
        return f"{rest!r}: say which unit it is (`A Par`, `F Spa/nc`)"
    return Unit(NEUTRAL if power is None else power.name, spec.type,
                _sea_coast(gmap, spec.type, spec.location, variant.map))


def _sea_coast(gmap: GameMap, kind: UnitType, loc: Location,
               base: GameMap | None = None) -> Location:
    """A fleet written without a coast in a province whose coasts are on a sea and on lakes
    stands on its one sea coast (Geophysical: `F Sev` is Sev/sc, the Caspian being a lake).
    Else, where the province had one coast on the variant's starting map (`base`) and now has
    several, the fleet stands where a fleet on that coast went (Deluge II rule 3: `F Mar`
    after Gascony sank is Mar/sc). Any other location is kept as written."""
    if kind is not _FLEET or loc.coast is not None:
        return loc
    coasts = gmap.fleet_locations(loc.province)
    if len(coasts) < 2:
        return loc
    at_sea = [c for c in coasts
              if any(gmap.terrain[w] is _SEA for w in gmap.coast_seas.get(c, ()))]
    if len(at_sea) == 1:
        return at_sea[0]
    if base is not None and base.fleet_locations(loc.province) == (loc,) \
            and base.is_land(loc.province):
        return gmap.follow_coast(loc, base) or loc
    return loc


def _coast_as_found(
    gmap: GameMap, expected: Iterable[Unit], found: Iterable[Unit]
) -> tuple[Unit, ...]:
    """An expected fleet written without a coast, in a province that has several, is the
    fleet of that power found there on whichever coast (the line does not say which: Deluge II
    coasts split as provinces sink, e.g. `F Bur` for Bur/wc)."""
    coasts = gmap.coasts  # GameMap.is_split, written out
    there: dict[str, Unit] | None = None
    out = list(expected)
    for k, u in enumerate(out):
        loc = u.location
        if u.type is not _FLEET or loc.coast is not None \
                or len(coasts.get(loc.province, ())) < 2:  # one fleet location at most
            continue
        if there is None:
            there = {f.location.province: f for f in found}
        f = there.get(loc.province)
        if f is not None and f.power == u.power and f.type is u.type:
            out[k] = f
    return tuple(out)


def split_power(variant: Variant, text: str) -> tuple[str, str] | None:
    """`Power: rest` -> (power as written, rest). Without the colon (`Italy F gol`, as in a few
    published DATC lines) the leading words naming one of the variant's powers are taken."""
    name, sep, rest = text.partition(":")
    if sep:
        return name.strip(), rest.strip()
    words = text.split()
    for j in range(len(words) - 1, 0, -1):
        if variant.power(" ".join(words[:j])) is not None:
            return " ".join(words[:j]), " ".join(words[j:])
    return None


def _variant(case: Case) -> Variant:
    try:
        return get_variant(case.variant)
    except UnknownVariant as e:
        raise CaseError(case, case.variant_line or case.line, str(e)) from None


def _phase(setup: _Setup, line: Line | None) -> Phase:
    variant = setup.variant
    if line is None:
        phase = variant.start_phase
        while phase.type is not _MOVEMENT:
            phase = variant.calendar.next(phase)
        return phase
    parsed = variant.parse_phase(line.text)
    if parsed is None:
        raise setup.fail(line.number, f"{line.text!r} is not a phase of {variant.title}")
    return parsed


def build_state(case: Case, variant: Variant) -> GameState:
    """The position a case starts from."""
    setup = _Setup(case, variant)
    phase = _phase(setup, case.setphase)
    state = _scheduled_before(variant, phase)
    state = _map_blocks(setup, state)
    setup.gmap = variant.map_for(state)

    units = setup.units("PRESTATE")
    dislodged_units = setup.units("PRESTATE_DISLODGED")
    owners = dict(state.owners)
    if case.block("PRESTATE_SUPPLYCENTER_OWNERS") is not None:
        owners = _owners(setup, "PRESTATE_SUPPLYCENTER_OWNERS")
    homes = dict(state.homes)
    for item in case.block("PRESTATE_HOMES") or ():
        name, rest = setup.split_power(item)
        homes[setup.power(name, item.number)] = tuple(
            setup.province(p, item.number) for p in rest.split()
        )
    if case.rulebook is not None:
        try:
            state = with_rulebook(state, case.rulebook.text)
        except ValueError as e:
            raise setup.fail(case.rulebook.number, str(e)) from None
    extra = dict(state.extra)
    for item in case.block("PRESTATE_STATE") or ():
        key, sep, value = item.text.rpartition(":")
        if not sep:
            raise setup.fail(item.number, f"{item.text!r}: expected `key: value`")
        extra[key.strip()] = value.strip()
    attackers, contested = _previous_movement(setup, units, dislodged_units)
    dislodged = tuple(Dislodged(u, attackers.get(u.province)) for u in dislodged_units)
    return state.evolve(
        phase=phase,
        units=units,
        dislodged=dislodged,
        contested=contested,
        owners=owners,
        homes=homes,
        extra=extra,
    )


def _scheduled_before(variant: Variant, phase: Phase) -> GameState:
    """The bare position of `phase`: the variant's start with every scheduled change of the
    seasons before `phase` applied (units and ownership come from the case)."""
    hook = variant.hooks.apply_scheduled
    if hook is None:
        return _start_state(variant).evolve(phase=phase, units=())
    state = variant.start_state().evolve(phase=phase, units=())
    cal = variant.calendar
    ends = set()
    for event in variant.scheduled:
        season = cal.season_of(Phase(event.season, event.year, _MOVEMENT))
        ends.add(Phase(season.name, event.year, season.phases[-1]))
    for end in sorted(ends, key=cal.key):
        if cal.key(end) < cal.key(phase):
            state = hook(variant, state, variant.scheduled_for(end)).state
    return state


@lru_cache(maxsize=64)
def _start_state(variant: Variant) -> GameState:
    """The variant's start position, made once (states are immutable values; the cases' blocks
    replace its parts with new dicts and sets)."""
    return variant.start_state()


def _map_blocks(setup: _Setup, state: GameState) -> GameState:
    """PRESTATE_TERRAIN, _BORDERS and _SUPPLYCENTERS: the map as the case says it is."""
    case = setup.case
    setup.gmap = setup.variant.map
    terrain = dict(state.terrain)
    iced = set(state.iced)
    read = [_terrain_item(setup, item) for item in case.block("PRESTATE_TERRAIN") or ()]
    iced_listed = {prov for prov, kind in read if kind == "ice"}
    for prov, kind in read:
        if kind == "ice":
            iced.add(prov)
        else:  # a terrain line clears the ice, unless the block lists the ice too (any order)
            terrain[prov] = Terrain(kind)
            if prov not in iced_listed:
                iced.discard(prov)
    cut = set(state.cut_borders)
    for item in case.block("PRESTATE_BORDERS") or ():
        action, pair = _border_item(setup, item)
        (cut.add if action == "cut" else cut.discard)(pair)
    centres = state.centres
    if case.block("PRESTATE_SUPPLYCENTERS") is not None:
        centres = frozenset(_centre_list(setup, "PRESTATE_SUPPLYCENTERS"))
    return state.evolve(
        terrain=terrain, iced=frozenset(iced), cut_borders=frozenset(cut), centres=centres
    )


_TERRAIN_WORDS = ("land", "sea", "lake", "mountain", "ice", "impassable")


def _terrain_item(setup: _Setup, item: Line) -> tuple[str, str]:
    prov, sep, kind = item.text.partition(":")
    kind = kind.strip().lower()
    if not sep or kind not in _TERRAIN_WORDS:
        raise setup.fail(
            item.number, f"{item.text!r}: expected `Province: {'|'.join(_TERRAIN_WORDS)}`"
        )
    return setup.province(prov.strip(), item.number), kind


def _border_item(setup: _Setup, item: Line) -> tuple[str, tuple[str, str]]:
    m = re.fullmatch(r"(?i)(cut|open)\s+(.+?)\s*-\s*(.+)", item.text)
    if not m:
        raise setup.fail(item.number, f"{item.text!r}: expected `cut Mun-Ber` or `open Mun-Ber`")
    a = setup.province(m.group(2), item.number)
    b = setup.province(m.group(3), item.number)
    pair = (a, b) if a <= b else (b, a)
    return m.group(1).lower(), pair


def _centre_list(setup: _Setup, block: str) -> list[str]:
    return [
        setup.province(word, item.number)
        for item in setup.case.block(block) or ()
        for word in item.text.split()
    ]


def _owners(setup: _Setup, block: str) -> dict[str, str]:
    """`Power: Par` or `Power: A Par` (the unit letter is ignored)."""
    variant, gmap = setup.variant, setup.gmap
    items = setup.case.block(block) or ()
    known = _known(_OWNERS, (variant, gmap))
    read = [known[text] if text in known else _owner(variant, gmap, text) for _, text in items]
    if str not in set(map(type, read)):  # every line one centre (most files)
        return dict(read)  # type: ignore[arg-type]  # no message: all (centre, power)
    owners: dict[str, str] = {}
    for item in items:
        found = _owner(variant, gmap, item.text)
        if isinstance(found, str):
            several = _several_owned(variant, gmap, item.text)
            if several is None:
                raise setup.fail(item.number, found)
            owners.update(several)
        else:
            owners[found[0]] = found[1]
    return owners


def _several_owned(variant: Variant, gmap: GameMap, text: str) -> dict[str, str] | None:
    """`France: Par Bre Mar` or `France: A Par, F Bre`: several centres on one owners line
    (each item read as a line of its own), or None if that does not read either."""
    found = split_power(variant, text)
    if found is None:
        return None
    name, rest = found
    items = rest.split(",") if "," in rest else _unit_items(rest.split())
    owners: dict[str, str] = {}
    for item in items:
        one = _owner(variant, gmap, f"{name}: {item.strip()}")
        if isinstance(one, str):
            return None
        owners[one[0]] = one[1]
    return owners or None


def _unit_items(words: list[str]) -> list[str]:
    """`A Par F Bre Mar` -> [`A Par`, `F Bre`, `Mar`]: a unit letter joins the next word."""
    items: list[str] = []
    pending = ""
    for word in words:
        if word.upper() in ("A", "F", "A/F") and not pending:
            pending = word
            continue
        items.append(f"{pending} {word}".strip())
        pending = ""
    return items


def _owner(variant: Variant, gmap: GameMap, text: str) -> tuple[str, str] | str:
    found = _owner_uncached(variant, gmap, text)
    _known(_OWNERS, (variant, gmap))[text] = found
    return found


def _owner_uncached(variant: Variant, gmap: GameMap, text: str) -> tuple[str, str] | str:
    """(centre, power) from an owners line, or the message saying why it cannot be read."""
    found = split_power(variant, text)
    if found is None:
        return f"{text!r}: expected `Power: ...`"
    name, rest = found
    words = rest.split()
    if len(words) == 2 and words[0].upper() in ("A", "F", "A/F"):
        words = words[1:]
    if len(words) != 1:
        return f"{text!r}: expected `Power: Province`"
    power = variant.power(name)
    if power is None:
        known = ", ".join(variant.power_names)
        return f"no power called {name!r} in {variant.title} ({known})"
    province = resolve_province(words[0].split("/")[0], gmap)
    if isinstance(province, OrderError):
        return province.message
    return province, power.name


def _previous_movement(
    setup: _Setup, units: Sequence[Unit], dislodged: Sequence[Unit]
) -> tuple[dict[str, str | None], frozenset[str]]:
    """From PRESTATE_RESULTS: where each dislodged unit's attacker came from (None when it came
    by convoy, DATC 6.H.11) and the provinces left vacant by a standoff (two or more failed
    moves into a province nobody stands in; DATC 6.H.6, 6.H.16)."""
    attackers: dict[str, str | None] = {}
    failed_into: dict[str, int] = {}
    for item in setup.case.block("PRESTATE_RESULTS") or ():
        word, sep, rest = item.text.partition(":")
        if not sep or word.strip().upper() not in ("SUCCESS", "FAILURE"):
            raise setup.fail(
                item.number, f"{item.text!r}: expected `SUCCESS: Power: order` or `FAILURE: ...`"
            )
        name, order_text = setup.split_power(Line(item.number, rest.strip()))
        setup.power(name, item.number)
        order = _parse_order(
            order_text, setup.gmap, _MOVEMENT, setup.variant.order_kinds
        )
        if isinstance(order, OrderError):
            raise setup.fail(item.number, order.message)
        if not isinstance(order, Move):
            continue
        target = order.dest.province
        if word.strip().upper() == "SUCCESS":
            attackers[target] = None if _came_by_convoy(setup.gmap, order) else order.unit.province
        else:
            failed_into[target] = failed_into.get(target, 0) + 1
    contested: frozenset[str] = frozenset()
    if failed_into:
        occupied = {u.location.province for u in units}
        contested = frozenset(p for p, n in failed_into.items() if n >= 2 and p not in occupied)
    return {u.province: attackers.get(u.province) for u in dislodged}, contested


def _came_by_convoy(gmap: GameMap, move: Move) -> bool:
    if move.via_convoy:
        return True
    src = move.unit.location
    if move.unit.type is _ARMY or move.unit.type is None:
        return not gmap.army_can_move(src.province, move.dest.province)
    return False


# -- orders ------------------------------------------------------------------------------------
def submissions(
    variant: Variant, state: GameState, case: Case
) -> tuple[list[Submitted], list[OrderResult]]:
    """Every order of the ORDERS lines as a submission (a line may give several, separated by
    commas: gm.notation.lines); lines naming no power of the variant are void."""
    gmap = variant.map_for(state)
    submitted: list[Submitted] = []
    void: list[OrderResult] = []
    phase_type = state.phase.type
    known = _known(_SUBMISSIONS, (variant, gmap, phase_type))
    for item in case.block("ORDERS") or ():
        text = item.text
        found = known[text] if text in known else _submission(variant, gmap, phase_type, text)
        if isinstance(found, OrderResult):
            void.append(found)
        else:
            submitted.extend(found)
    return submitted, void


def _submission(
    variant: Variant, gmap: GameMap, phase_type: PhaseType, line: str
) -> tuple[Submitted, ...] | OrderResult:
    found = _submission_uncached(variant, gmap, phase_type, line)
    _known(_SUBMISSIONS, (variant, gmap, phase_type))[line] = found
    return found


def _submission_uncached(
    variant: Variant, gmap: GameMap, phase_type: PhaseType, line: str
) -> tuple[Submitted, ...] | OrderResult:
    """One ORDERS line as submissions (one per order it gives, read with the variant's
    order kinds), or its result when it names no power (void). Both are immutable values, so
    one line's value serves every case that has the line."""
    found = split_power(variant, line)
    power = variant.power(found[0]) if found else None
    if found is not None and power is None:
        power = _misspelt_power(variant, found[0])
    if found is None or power is None:
        reason = Reason(Fate.POWER_UNKNOWN, other=found[0], names=(variant.title,)) if found \
            else Reason(Fate.POWER_UNNAMED, names=(variant.title,))
        written, text = found or ("?", line)
        return OrderResult(written, None, text, _ILLEGAL, reason)
    text = found[1]
    parsed = _parse_orders(text, gmap, phase_type, variant.order_kinds)
    if isinstance(parsed, OrderError):
        return (Submitted(power.name, text, None, parsed),)
    if len(parsed) == 1:
        return (Submitted(power.name, text, parsed[0]),)
    return tuple(Submitted(power.name, str(order), order) for order in parsed)


def _misspelt_power(variant: Variant, name: str) -> Power | None:
    """The power whose name or adjective `name` writes with two neighbouring letters swapped
    (DATC 6.A.5 in the shared reference file writes `Germnay`; its expected result reads it as
    German). Nothing looser: `Prussia` is not Russia."""
    written = name.lower()
    for p in variant.powers:
        for key in (p.name.lower(), p.adjective.lower()):
            if len(key) == len(written) and _one_swap(key, written):
                return p
    return None


def _one_swap(a: str, b: str) -> bool:
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] \
        and a[diff[1]] == b[diff[0]]


# -- running and comparing ---------------------------------------------------------------------
def _run(case: Case, variant: Variant) -> CaseResult:
    state = build_state(case, variant)
    setup = _Setup(case, variant)
    setup.gmap = variant.map_for(state)
    submitted, void = submissions(variant, state, case)
    step = advance(variant, state, submitted)
    after = step.state
    # POSTSTATE is read on the map after the phase (coasts may have changed: Deluge II rule 3).
    setup.gmap = variant.map_for(after)
    # POSTSTATE_SAME: the PRESTATE lines read again on the map after the phase (a fleet
    # written without a coast may now stand in a province with several).
    expected_units = (
        {Unit(u.power, u.type, _sea_coast(setup.gmap, u.type, u.location, variant.map))
         for u in state.units}
        if case.poststate_same else setup.units("POSTSTATE")
    )
    after_units = after.units
    expected_units = _coast_as_found(setup.gmap, expected_units, after_units)
    # Equal units print as equal lines: the lines are compared only when the units differ.
    same = _unit_keys(expected_units) == _unit_keys(after_units)
    expected_lines = set() if same else _unit_lines(expected_units)
    diffs = [None if same else _compare("POSTSTATE", expected_lines, _unit_lines(after_units))]
    diffs += _compare_optional(setup, step)
    return CaseResult(
        case,
        differences=tuple(d for d in diffs if d is not None),
        reports=step.reports,
        void=tuple(void),
    )


def _unit_keys(units: Iterable[Unit]) -> set[tuple[str, str, str, str | None]]:
    """A set equal for two collections exactly when their sets of units are equal (quicker to
    build than a set of units, whose hash is computed in Python)."""
    return {(u.power, u.type, u.location.province, u.location.coast) for u in units}


def _unit_lines(units: Iterable[Unit]) -> set[str]:
    return {f"{u.power}: {u}" for u in units}


def _compare(block: str, expected: set[str], actual: set[str]) -> Difference | None:
    if expected == actual:
        return None
    return Difference(block, tuple(sorted(expected - actual)), tuple(sorted(actual - expected)))


def _compare_optional(setup: _Setup, step: GameStep) -> list[Difference | None]:
    """Every POSTSTATE_* block the case has, compared with the position after the step."""
    case, after = setup.case, step.state
    out: list[Difference | None] = []
    if case.post_setphase is not None:
        fmt = setup.variant.format_phase
        want = {fmt(_phase(setup, case.post_setphase))}
        out.append(_compare("POSTSTATE_SETPHASE", want, {fmt(after.phase)}))
    for block, compare in _POSTSTATE_BLOCKS.items():
        items = case.block(block)
        if items is not None:
            want_lines, got_lines = compare(setup, items, after)
            out.append(_compare(block, want_lines, got_lines))
    return out


Comparison = tuple[set[str], set[str]]


def _post_dislodged(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    want = _unit_lines(setup.unit(item) for item in items)
    return want, _unit_lines(d.unit for d in after.dislodged)


def _post_owners(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    want = _owners(setup, "POSTSTATE_SUPPLYCENTER_OWNERS")
    return {f"{p}: {c}" for c, p in want.items()}, {f"{p}: {c}" for c, p in after.owners.items()}


def _post_centres(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    return set(_centre_list(setup, "POSTSTATE_SUPPLYCENTERS")), set(setup.gmap.centres)


def _post_terrain(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    # Ice lies over the terrain: an iced space reads `ice`; its terrain underneath is checked
    # only by a case that lists the ice too (`NWG: ice` and `NWG: land`).
    read = [_terrain_item(setup, item) for item in items]
    iced_listed = {prov for prov, kind in read if kind == "ice"}
    want, got = set(), set()
    for prov, kind in read:
        want.add(f"{prov}: {kind}")
        under = setup.gmap.terrain[prov].value
        iced = prov in after.iced
        now = "ice" if iced and (kind == "ice" or prov not in iced_listed) else under
        got.add(f"{prov}: {now}")
    return want, got


def _post_borders(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    want, got = set(), set()
    for item in items:
        action, (a, b) = _border_item(setup, item)
        want.add(f"{action} {a}-{b}")
        got.add(f"{'cut' if (a, b) in after.cut_borders else 'open'} {a}-{b}")
    return want, got


def _post_homes(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    want, got = set(), set()
    for item in items:
        name, rest = setup.split_power(item)
        power = setup.power(name, item.number)
        listed = sorted(setup.province(p, item.number) for p in rest.split())
        want.add(f"{power}: {' '.join(listed)}")
        got.add(f"{power}: {' '.join(sorted(after.homes.get(power, ())))}")
    return want, got


def _post_state(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    want, got = set(), set()
    # A key is found in any case and spacing (`ice-turns A Bar` is the variant's `ice-turns A BAR`).
    extra = {" ".join(k.lower().split()): v for k, v in after.extra.items()}
    for item in items:
        key, _, value = item.text.rpartition(":")
        want.add(f"{key.strip()}: {value.strip()}")
        got.add(f"{key.strip()}: {extra.get(' '.join(key.lower().split()), '(absent)')}")
    return want, got


def _post_winners(setup: _Setup, items: list[Line], after: GameState) -> Comparison:
    text = " ".join(item.text for item in items)
    want = set() if text.strip().lower() == "none" else set(
        _power_list(setup, text, items[0].number if items else setup.case.line)
    )
    return want or {"none"}, set(after.winners) or {"none"}


_POSTSTATE_BLOCKS = {
    "POSTSTATE_DISLODGED": _post_dislodged,
    "POSTSTATE_SUPPLYCENTER_OWNERS": _post_owners,
    "POSTSTATE_SUPPLYCENTERS": _post_centres,
    "POSTSTATE_TERRAIN": _post_terrain,
    "POSTSTATE_BORDERS": _post_borders,
    "POSTSTATE_HOMES": _post_homes,
    "POSTSTATE_STATE": _post_state,
    "POSTSTATE_WINNERS": _post_winners,
}


def _power_list(setup: _Setup, text: str, line: int) -> list[str]:
    """Power names separated by spaces or commas; a name may have several words (Chaos II
    `St Petersburg`): the longest run of words naming a power is taken."""
    words = text.replace(",", " ").split()
    found: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            power = setup.variant.power(" ".join(words[i:j]))
            if power is not None:
                found.append(power.name)
                i = j
                break
        else:
            raise setup.fail(line, f"no power called {words[i]!r} in {setup.variant.title}")
    return found
