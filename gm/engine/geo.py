"""Terrain and locations: the vocabulary the map model and the orders share."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final

from gm.engine.record import Ordered


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


class Location(Ordered):
    """A place a unit can stand: a province, plus a coast for split-coast provinces.

    `province` is always the canonical abbreviation as written in the map data (e.g. "Spa",
    "NTH"); `coast` is a lower-case coast label ("nc", "sc", "ec", ...) or None. A frozen value:
    equal and hashed by its fields (the hash kept: locations are the keys of the map's tables,
    looked up for every order), ordered by province, then coast (`Spa` < `Spa/nc` < `Spa/sc`).
    """

    __slots__ = ("_hash", "coast", "province")
    __match_args__: ClassVar[tuple[str, ...]] = ("province", "coast")

    def __init__(self, province: str, coast: str | None = None) -> None:
        self.province: Final = province
        self.coast: Final = coast
        self._hash: Final = hash((province, coast))

    def __repr__(self) -> str:
        return f"Location(province={self.province!r}, coast={self.coast!r})"

    def __str__(self) -> str:
        return self.province if self.coast is None else f"{self.province}/{self.coast}"

    def __eq__(self, other: object) -> bool:
        if type(other) is Location:
            return self.province == other.province and self.coast == other.coast
        return NotImplemented

    def __hash__(self) -> int:
        return self._hash

    def _key(self) -> tuple[str, str]:
        return (self.province, self.coast or "")

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
