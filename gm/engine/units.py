"""Units on the board."""

from __future__ import annotations

from enum import StrEnum

from gm.engine.geo import Location
from gm.engine.values import value


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


@value(order=True)
class Unit:
    """One unit: its owner, type and location."""

    power: str
    type: UnitType
    location: Location

    @property
    def province(self) -> str:
        return self.location.province

    def __str__(self) -> str:
        return f"{self.type.value} {self.location}"

    def moved_to(self, location: Location) -> Unit:
        return Unit(self.power, self.type, location)
