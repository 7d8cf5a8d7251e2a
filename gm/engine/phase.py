"""Phases of the game calendar: a year, a season name from the variant's calendar, a kind."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PhaseType(StrEnum):
    MOVEMENT = "Movement"
    RETREAT = "Retreat"
    ADJUSTMENT = "Adjustment"

    @property
    def letter(self) -> str:
        return self.value[0]


@dataclass(frozen=True)
class Phase:
    """A phase such as `Spring 1901, Movement` or `July 1914, Movement`.

    `season` is the variant calendar's canonical season name ("Spring", "Fall", "Winter",
    "July", ...). Calendars (gm.engine.calendar) know the order of seasons and read and write
    phase names, long and short.
    """

    season: str
    year: int
    type: PhaseType

    def __str__(self) -> str:
        return f"{self.season} {self.year}, {self.type.value}"
