"""Units on the board."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from gm.engine.geo import Location
from gm.engine.record import Ordered


class UnitType(StrEnum):
    """Army, fleet, or the Abstraction army/fleet pair (A/F) that moves and fights as a fleet."""

    ARMY = "A"
    FLEET = "F"
    ARMY_FLEET = "A/F"

    @property
    def moves_as_fleet(self) -> bool:
        return self is not UnitType.ARMY

    @property
    def word(self) -> str:
        return {"A": "army", "F": "fleet", "A/F": "army/fleet"}[self.value]


class Unit(Ordered):
    """One unit: its owner, type and location. A frozen value: equal, hashed and ordered by
    (power, type, location)."""

    __slots__ = ("location", "power", "type")
    __match_args__: ClassVar[tuple[str, ...]] = ("power", "type", "location")

    def __init__(self, power: str, type: UnitType, location: Location) -> None:
        self.power: Final = power
        self.type: Final = type
        self.location: Final = location

    def __repr__(self) -> str:
        return f"Unit(power={self.power!r}, type={self.type!r}, location={self.location!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is Unit:
            return (self.power == other.power and self.type is other.type
                    and self.location == other.location)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.power, self.type, self.location))

    def _key(self) -> tuple[str, UnitType, Location]:
        return (self.power, self.type, self.location)

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        loc = self.location  # Location.__str__ written out (units are named in every result)
        if loc.coast is None:
            return f"{self.type} {loc.province}"  # a StrEnum formats as its value
        return f"{self.type} {loc.province}/{loc.coast}"

    def moved_to(self, location: Location) -> Unit:
        return Unit(self.power, self.type, location)
