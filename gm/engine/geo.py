"""Terrain and locations: the vocabulary the map model and the orders share."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Terrain(StrEnum):
    """What a province is made of. Ice is an overlay (see GameMap.iced), not a terrain."""

    LAND = "land"
    SEA = "sea"
    LAKE = "lake"
    MOUNTAIN = "mountain"
    IMPASSABLE = "impassable"

    @property
    def is_water(self) -> bool:
        return self in (Terrain.SEA, Terrain.LAKE)

    @property
    def is_passable(self) -> bool:
        return self in (Terrain.LAND, Terrain.SEA, Terrain.LAKE)


@dataclass(frozen=True, eq=False)
class Location:
    """A place a unit can stand: a province, plus a coast for split-coast provinces.

    `province` is always the canonical abbreviation as written in the map data (e.g. "Spa",
    "NTH"); `coast` is a lower-case coast label ("nc", "sc", "ec", ...) or None. A frozen value:
    equal and hashed by its fields, ordered by province, then coast (`Spa` < `Spa/nc` <
    `Spa/sc`): the comparisons are written out, as a dataclass's `order=True` cannot put no coast
    first (nor, compiled with mypyc, can ordering written in the class coexist with the equality
    a dataclass generates).
    """

    province: str
    coast: str | None = None

    def __str__(self) -> str:
        return self.province if self.coast is None else f"{self.province}/{self.coast}"

    def __eq__(self, other: object) -> bool:
        if type(other) is Location:
            return self.province == other.province and self.coast == other.coast
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.province, self.coast))

    def _key(self) -> tuple[str, str]:
        return (self.province, self.coast or "")

    def __lt__(self, other: Location) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Location) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Location) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Location) -> bool:
        return self._key() >= other._key()

    @property
    def bare(self) -> Location:
        """The same place without its coast."""
        return self if self.coast is None else Location(self.province)

    @staticmethod
    def parse(text: str) -> Location:
        """Read "Spa/sc" or "Spa" (canonical spelling only; players' text goes via gm.notation)."""
        if "/" in text:
            prov, coast = text.split("/", 1)
            return Location(prov, coast.lower())
        return Location(text)
