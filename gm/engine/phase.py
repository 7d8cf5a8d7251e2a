"""Phases of the game calendar: a year, a season name from the variant's calendar, a kind."""

from __future__ import annotations

import re
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
    "July", ...). Calendars (gm.engine.calendar) know the order of seasons.
    """

    season: str
    year: int
    type: PhaseType

    def __str__(self) -> str:
        return f"{self.season} {self.year}, {self.type.value}"

    @property
    def short(self) -> str:
        """Compact form, e.g. S1901M (first letter of the season)."""
        return f"{self.season[0].upper()}{self.year}{self.type.letter}"

    @staticmethod
    def parse_long(text: str) -> Phase | None:
        """Parse `<Season words> <year>[,] <Type>`; season names are taken as written."""
        m = re.fullmatch(
            r"\s*([A-Za-z][A-Za-z ]*?)\s+(\d{3,4})\s*,?\s*"
            r"(movement|retreats?|adjustments?|builds?)\s*",
            text,
            re.IGNORECASE,
        )
        if not m:
            return None
        kind = m.group(3).lower()
        ptype = (
            PhaseType.MOVEMENT
            if kind.startswith("m")
            else PhaseType.RETREAT
            if kind.startswith("r")
            else PhaseType.ADJUSTMENT
        )
        return Phase(m.group(1).strip().title(), int(m.group(2)), ptype)
