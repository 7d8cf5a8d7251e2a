"""The complete position of a game between two phases, with a lossless JSON form."""

from __future__ import annotations

import json
from typing import Any, ClassVar, Final

from gm.engine.geo import Location, Terrain
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType


class Dislodged:
    """A dislodged unit awaiting retreat, and the province its attacker came from.

    `attacker_from` is None when the attack came by convoy (DATC 6.H.x: the unit may then retreat
    to the province the convoyed army came from).
    """

    __slots__ = ("attacker_from", "unit")
    __match_args__: ClassVar[tuple[str, ...]] = ("unit", "attacker_from")

    def __init__(self, unit: Unit, attacker_from: str | None) -> None:
        self.unit: Final = unit
        self.attacker_from: Final = attacker_from

    # A frozen value, written out: this module stays plain Python (see setup.py).
    def __repr__(self) -> str:
        return f"Dislodged(unit={self.unit!r}, attacker_from={self.attacker_from!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is Dislodged:
            return self.unit == other.unit and self.attacker_from == other.attacker_from
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.unit, self.attacker_from))


class GameState:
    """Everything needed to adjudicate the next phase.

    Map overlays (`terrain`, `iced`, `cut_borders`, `centres`) hold the map as it is now where it
    differs from the variant's map data; the variant's GameMap.with_overlay derives the current
    movement graph from them. `extra` carries variant state (e.g. Chaos II designations) as
    strings keyed by name.

    A frozen value written out (a dataclass costs its module's import and a class built at
    start-up): equal by its fields (not hashable: some are dicts); `evolve` copies it with some
    fields changed, as does gm.engine.values.replace.
    """

    __match_args__: ClassVar[tuple[str, ...]] = (
        "variant", "phase", "units", "dislodged", "contested", "owners", "homes", "terrain",
        "iced", "cut_borders", "centres", "extra", "winners", "finished",
    )

    def __init__(
        self,
        variant: str,
        phase: Phase,
        units: tuple[Unit, ...] = (),
        dislodged: tuple[Dislodged, ...] = (),
        contested: frozenset[str] = frozenset(),  # standoffs of the last movement: no retreat
        owners: dict[str, str] | None = None,  # centre -> power
        homes: dict[str, tuple[str, ...]] | None = None,  # power -> home centres
        terrain: dict[str, Terrain] | None = None,  # province -> terrain now
        iced: frozenset[str] = frozenset(),
        cut_borders: frozenset[tuple[str, str]] = frozenset(),  # each pair sorted
        centres: frozenset[str] | None = None,  # None: the map data's supply centres
        extra: dict[str, str] | None = None,
        winners: tuple[str, ...] = (),
        finished: bool = False,
    ) -> None:
        self.variant: Final = variant
        self.phase: Final = phase
        self.units: Final = units
        self.dislodged: Final = dislodged
        self.contested: Final = contested
        self.owners: Final = {} if owners is None else owners
        self.homes: Final = {} if homes is None else homes
        self.terrain: Final = {} if terrain is None else terrain
        self.iced: Final = iced
        self.cut_borders: Final = cut_borders
        self.centres: Final = centres
        self.extra: Final = {} if extra is None else extra
        self.winners: Final = winners
        self.finished: Final = finished

    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"GameState({inside})"

    # -- queries -------------------------------------------------------------------------------
    def unit_in(self, province: str) -> Unit | None:
        for u in self.units:
            if u.location.province == province:
                return u
        return None

    def units_of(self, power: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.power == power)

    def centres_of(self, power: str) -> tuple[str, ...]:
        return tuple(sorted(c for c, p in self.owners.items() if p == power))

    def evolve(self, **changes: Any) -> GameState:
        """A copy with `changes` (as dataclasses.replace would make); TypeError for a name that
        is not a field."""
        if not changes.keys() <= _STATE_FIELDS:
            unknown = ", ".join(sorted(changes.keys() - _STATE_FIELDS))
            raise TypeError(f"GameState has no field {unknown}")
        copy = object.__new__(type(self))
        values = copy.__dict__
        values.update(self.__dict__)
        values.update(changes)
        return copy

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "phase": {"season": self.phase.season, "year": self.phase.year,
                      "type": self.phase.type.value},
            "units": [_unit_json(u) for u in sorted(self.units)],
            "dislodged": [
                {**_unit_json(d.unit), "attacker_from": d.attacker_from}
                for d in sorted(self.dislodged, key=lambda d: d.unit)
            ],
            "contested": sorted(self.contested),
            "owners": dict(sorted(self.owners.items())),
            "homes": {p: list(h) for p, h in sorted(self.homes.items())},
            "terrain": {p: t.value for p, t in sorted(self.terrain.items())},
            "iced": sorted(self.iced),
            "cut_borders": [list(b) for b in sorted(self.cut_borders)],
            "centres": None if self.centres is None else sorted(self.centres),
            "extra": dict(sorted(self.extra.items())),
            "winners": list(self.winners),
            "finished": self.finished,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameState:
        ph = data["phase"]
        return GameState(
            variant=data["variant"],
            phase=Phase(ph["season"], int(ph["year"]), PhaseType(ph["type"])),
            units=tuple(_unit_from(u) for u in data.get("units", [])),
            dislodged=tuple(
                Dislodged(_unit_from(d), d.get("attacker_from")) for d in data.get("dislodged", [])
            ),
            contested=frozenset(data.get("contested", [])),
            owners=dict(data.get("owners", {})),
            homes={p: tuple(h) for p, h in data.get("homes", {}).items()},
            terrain={p: Terrain(t) for p, t in data.get("terrain", {}).items()},
            iced=frozenset(data.get("iced", [])),
            cut_borders=frozenset(
                (str(b[0]), str(b[1])) for b in data.get("cut_borders", [])
            ),
            centres=None if data.get("centres") is None else frozenset(data["centres"]),
            extra=dict(data.get("extra", {})),
            winners=tuple(data.get("winners", [])),
            finished=bool(data.get("finished", False)),
        )

    @staticmethod
    def loads(text: str) -> GameState:
        return GameState.from_json(json.loads(text))


_STATE_FIELDS = frozenset(GameState.__match_args__)


def _unit_json(u: Unit) -> dict[str, Any]:
    return {"power": u.power, "type": u.type.value, "location": str(u.location)}


def _unit_from(d: dict[str, Any]) -> Unit:
    return Unit(d["power"], UnitType(d["type"]), Location.parse(d["location"]))
