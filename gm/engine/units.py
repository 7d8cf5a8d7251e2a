"""Units on the board."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from gm.engine.geo import Location

# The owner of a neutral garrison (a variant file's `neutral` units, as DPjudge's and
# webDiplomacy's neutral units): no power; it holds, never retreats (a dislodged one is
# destroyed), takes no centre and is never built or removed.
NEUTRAL = "Neutral"


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


@dataclass(frozen=True, order=True)
class Unit:
    """One unit: its owner, type and location. A frozen value: equal, hashed and ordered by
    (power, type, location)."""

    power: str
    type: UnitType
    location: Location

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
