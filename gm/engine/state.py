"""The complete position of a game between two phases, with a lossless JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gm.engine.geo import Location, Terrain
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType


@dataclass(frozen=True)
class Dislodged:
    """A dislodged unit awaiting retreat, and the province its attacker came from.

    `attacker_from` is None when the attack came by convoy (DATC 6.H.x: the unit may then retreat
    to the province the convoyed army came from).
    """

    unit: Unit
    attacker_from: str | None


@dataclass(frozen=True)
class GameState:
    """Everything needed to adjudicate the next phase.

    Map overlays (`terrain`, `iced`, `cut_borders`, `centres`) hold the map as it is now where it
    differs from the variant's map data; the variant's GameMap.with_overlay derives the current
    movement graph from them. `extra` carries variant state (e.g. Chaos II designations) as
    strings keyed by name.

    A frozen value, equal by its fields (hashing one fails: some are dicts); `evolve` copies
    it with some fields changed.
    """

    variant: str
    phase: Phase
    units: tuple[Unit, ...] = ()
    dislodged: tuple[Dislodged, ...] = ()
    contested: frozenset[str] = frozenset()  # standoffs of the last movement: no retreat
    owners: dict[str, str] = field(default_factory=dict)  # centre -> power
    homes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # power -> home centres
    terrain: dict[str, Terrain] = field(default_factory=dict)  # province -> terrain now
    iced: frozenset[str] = frozenset()
    cut_borders: frozenset[tuple[str, str]] = frozenset()  # each pair sorted
    centres: frozenset[str] | None = None  # None: the map data's supply centres
    extra: dict[str, str] = field(default_factory=dict)
    winners: tuple[str, ...] = ()
    finished: bool = False

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
