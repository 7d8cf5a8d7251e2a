"""Sample engine values for storage tests and benchmarks: positions with every kind of field."""

from __future__ import annotations

from datetime import UTC, datetime

from gm.engine.geo import Location, Terrain
from gm.engine.orders import Hold, Move, SupportMove, UnitSpec
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import Reason
from gm.engine.results import OrderResult, Outcome
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)

SEASONS = (
    ("Spring", PhaseType.MOVEMENT),
    ("Spring", PhaseType.RETREAT),
    ("Fall", PhaseType.MOVEMENT),
    ("Fall", PhaseType.RETREAT),
    ("Winter", PhaseType.ADJUSTMENT),
)


def power_name(i: int) -> str:
    return f"Power{i:02d}"


def sample_state(
    *, powers: int = 7, units_per_power: int = 3, phase: Phase | None = None
) -> GameState:
    """A position with units of every type, a dislodged unit, overlays and variant extras."""
    names = [power_name(i) for i in range(powers)]
    units: list[Unit] = []
    owners: dict[str, str] = {}
    homes: dict[str, tuple[str, ...]] = {}
    kinds = (UnitType.ARMY, UnitType.FLEET, UnitType.ARMY_FLEET)
    for p, name in enumerate(names):
        provs = [f"P{p:02d}{u}" for u in range(units_per_power)]
        for u, prov in enumerate(provs):
            coast = "nc" if u % 4 == 1 else None
            units.append(Unit(name, kinds[u % 3], Location(prov, coast)))
            owners[prov] = name
        homes[name] = tuple(provs)
    return GameState(
        variant="standard",
        phase=phase or Phase("Spring", 1901, PhaseType.MOVEMENT),
        units=tuple(sorted(units)),  # the order to_json keeps
        dislodged=(Dislodged(Unit(names[0], UnitType.ARMY, Location("Spa", "sc")), "Por"),
                   Dislodged(Unit(names[-1], UnitType.FLEET, Location("NTH")), None)),
        contested=frozenset({"Bur", "Gal"}),
        owners=owners,
        homes=homes,
        terrain={"Hol": Terrain.SEA, "BAL": Terrain.LAND},
        iced=frozenset({"BOT"}),
        cut_borders=frozenset({("Den", "Kie")}),
        centres=frozenset(owners) | {"Swe"},
        extra={"designations": "A:Ber;B:Par", "ünïcode": "Œuvre"},
        winners=(),
        finished=False,
    )


def sample_results(state: GameState) -> list[OrderResult]:
    """One result per unit: holds, moves that succeed, supports that fail, with reasons."""
    results: list[OrderResult] = []
    for i, unit in enumerate(state.units):
        spec = UnitSpec(unit.type, unit.location)
        if i % 3 == 0:
            order: Hold | Move | SupportMove = Hold(spec)
            outcome, reason = Outcome.SUCCEEDS, ""
        elif i % 3 == 1:
            order = Move(spec, Location("Bur"))
            outcome, reason = Outcome.FAILS, "bounced with A Mun"
        else:
            order = SupportMove(spec, UnitSpec(UnitType.ARMY, Location("Mun")), Location("Bur"))
            outcome, reason = Outcome.FAILS, "support cut by F NTH"
        results.append(
            OrderResult(
                power=unit.power,
                order=order,
                text=str(order).lower(),
                outcome=outcome,
                why=Reason.stated(reason),
                dislodged_by="A Mun" if i == 1 else None,
                details=("cut",) if i % 3 == 2 else (),
            )
        )
    return results


def phase_sequence(count: int, start_year: int = 1901) -> list[Phase]:
    """`count` phases of the standard calendar from Spring `start_year`."""
    return [
        Phase(season, start_year + i // len(SEASONS), kind)
        for i, (season, kind) in ((i, SEASONS[i % len(SEASONS)]) for i in range(count))
    ]
