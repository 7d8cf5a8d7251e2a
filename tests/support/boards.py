"""Positions and orders on the standard map for the adjudication tests.

Units are written `Power: F NTH` with canonical abbreviations; orders `Power: text` go through
the real order parser, and an order it cannot read is submitted as unreadable, as the service
would.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from gm.engine.adjustments import resolve_adjustments
from gm.engine.errors import OrderError
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.movement import resolve_movement
from gm.engine.phase import Phase, PhaseType
from gm.engine.results import OrderResult, PhaseOutcome, Submitted
from gm.engine.retreats import resolve_retreats
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.notation import parse_order
from gm.variants.maps import standard_map

SPRING = Phase("Spring", 1901, PhaseType.MOVEMENT)
RETREAT = Phase("Spring", 1901, PhaseType.RETREAT)
WINTER = Phase("Winter", 1901, PhaseType.ADJUSTMENT)

HOMES = {
    "Austria": ("Bud", "Tri", "Vie"),
    "England": ("Edi", "Lon", "Lvp"),
    "France": ("Bre", "Mar", "Par"),
    "Germany": ("Ber", "Kie", "Mun"),
    "Italy": ("Nap", "Rom", "Ven"),
    "Russia": ("Mos", "Sev", "StP", "War"),
    "Turkey": ("Ank", "Con", "Smy"),
}


@cache
def std() -> GameMap:
    return standard_map()


def unit(line: str) -> Unit:
    """`England: F StP/nc` -> the unit."""
    power, text = (s.strip() for s in line.split(":", 1))
    kind, where = text.split()
    return Unit(power, UnitType(kind), Location.parse(where))


def position(
    *lines: str,
    phase: Phase = SPRING,
    dislodged: Iterable[tuple[str, str | None]] = (),
    contested: Iterable[str] = (),
    owners: Mapping[str, str] | None = None,
) -> GameState:
    """A position: units, dislodged units with their attackers' origins, centre owners."""
    if owners is None:
        owners = {c: p for p, cs in HOMES.items() for c in cs}
    return GameState(
        variant="standard",
        phase=phase,
        units=tuple(unit(line) for line in lines),
        dislodged=tuple(Dislodged(unit(u), origin) for u, origin in dislodged),
        contested=frozenset(contested),
        owners=dict(owners),
        homes=dict(HOMES),
    )


def submit(state: GameState, *lines: str) -> list[Submitted]:
    """`Power: order` lines, read by the real parser for the state's phase."""
    out = []
    for line in lines:
        power, text = (s.strip() for s in line.split(":", 1))
        parsed = parse_order(text, std(), state.phase.type)
        if isinstance(parsed, OrderError):
            out.append(Submitted(power, text, None, parsed))
        else:
            out.append(Submitted(power, text, parsed))
    return out


def movement(units: Iterable[str], orders: Iterable[str]) -> PhaseOutcome:
    state = position(*units)
    return resolve_movement(std(), state, submit(state, *orders))


def retreats(
    units: Iterable[str],
    dislodged: Iterable[tuple[str, str | None]],
    orders: Iterable[str],
    contested: Iterable[str] = (),
) -> PhaseOutcome:
    state = position(*units, phase=RETREAT, dislodged=dislodged, contested=contested)
    return resolve_retreats(std(), state, submit(state, *orders))


def adjustments(
    units: Iterable[str],
    owners: Mapping[str, str],
    orders: Iterable[str],
    sites: Mapping[str, frozenset[str]] | None = None,
) -> PhaseOutcome:
    """An adjustment phase; build sites default to the standard rule (owned vacant homes)."""
    state = position(*units, phase=WINTER, owners=owners)
    if sites is None:
        occupied = {u.province for u in state.units}
        sites = {
            p: frozenset(h for h in homes if owners.get(h) == p and h not in occupied)
            for p, homes in HOMES.items()
        }
    return resolve_adjustments(std(), state, submit(state, *orders), sites)


def board(outcome: PhaseOutcome) -> set[str]:
    """The units after the phase, as `Power: F NTH` lines."""
    return {f"{u.power}: {u}" for u in outcome.state.units}


def dislodged(outcome: PhaseOutcome) -> dict[str, str | None]:
    """Dislodged units (`Power: A Mun`) and where their attackers came from."""
    return {f"{d.unit.power}: {d.unit}": d.attacker_from for d in outcome.state.dislodged}


def result(outcome: PhaseOutcome, line: str) -> OrderResult:
    """The result for the order `Power: text` as submitted (or as the "no order" line)."""
    power, text = (s.strip() for s in line.split(":", 1))
    found = [r for r in outcome.results if r.power == power and r.text == text]
    assert len(found) == 1, f"{line!r}: {[(r.power, r.text) for r in outcome.results]}"
    return found[0]
