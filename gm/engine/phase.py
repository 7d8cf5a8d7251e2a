"""Phases of the game calendar: a year, a season name from the variant's calendar, a kind."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar, Final


class PhaseType(StrEnum):
    MOVEMENT = "Movement"
    RETREAT = "Retreat"
    ADJUSTMENT = "Adjustment"

    @property
    def letter(self) -> str:
        return self.value[0]


class Phase:
    """A phase such as `Spring 1901, Movement` or `July 1914, Movement`.

    `season` is the variant calendar's canonical season name ("Spring", "Fall", "Winter",
    "July", ...). Calendars (gm.engine.calendar) know the order of seasons and read and write
    phase names, long and short.
    """

    __slots__ = ("season", "type", "year")
    __match_args__: ClassVar[tuple[str, ...]] = ("season", "year", "type")

    def __init__(self, season: str, year: int, type: PhaseType) -> None:
        self.season: Final = season
        self.year: Final = year
        self.type: Final = type

    def __repr__(self) -> str:
        return f"Phase(season={self.season!r}, year={self.year!r}, type={self.type!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is Phase:
            return (self.season == other.season and self.year == other.year
                    and self.type is other.type)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.season, self.year, self.type))

    def __str__(self) -> str:
        return f"{self.season} {self.year}, {self.type.value}"
