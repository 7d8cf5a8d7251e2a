"""A variant's calendar: its seasons in order, the phases of each, and how phases are named.

A year is a sequence of seasons (Spring, Fall, Winter; or the months of Abstraction2); each season
has one or more phase types in order (Spring: Movement then Retreat; Winter: Adjustment). Seasons
have aliases (Autumn for Fall), a short-form code (S, F, W; Jan, Feb, ... where one letter is
ambiguous) and may be renamed from a given year on (Sahara rule 6: Spring becomes Early Summer
from 1905). `Phase.season` always holds the canonical name; `display` gives the name of the year.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Final

from gm.engine.phase import Phase, PhaseType

# Words accepted for each phase type, e.g. in `Spring 1901, Movement` or `Winter 1901 builds`.
_TYPE_WORDS: dict[str, PhaseType] = {
    "movement": PhaseType.MOVEMENT,
    "movements": PhaseType.MOVEMENT,
    "move": PhaseType.MOVEMENT,
    "moves": PhaseType.MOVEMENT,
    "retreat": PhaseType.RETREAT,
    "retreats": PhaseType.RETREAT,
    "adjustment": PhaseType.ADJUSTMENT,
    "adjustments": PhaseType.ADJUSTMENT,
    "build": PhaseType.ADJUSTMENT,
    "builds": PhaseType.ADJUSTMENT,
}
_TYPE_LETTERS: dict[str, PhaseType] = {
    "m": PhaseType.MOVEMENT,
    "r": PhaseType.RETREAT,
    "a": PhaseType.ADJUSTMENT,
    "b": PhaseType.ADJUSTMENT,
}


@dataclass(frozen=True)
class Season:
    """One season of the year and the phases played in it.

    `updates_ownership`: supply-centre ownership is updated after this season's movement and
    retreats (standard: Fall; Abstraction2: August, November, February, May).
    `renamed`: (from_year, name) pairs, latest last: the season's name from that year on.
    """

    name: str
    phases: tuple[PhaseType, ...]
    aliases: tuple[str, ...] = ()
    code: str = ""
    updates_ownership: bool = False
    renamed: tuple[tuple[int, str], ...] = ()

    @property
    def short_code(self) -> str:
        return self.code or self.name[0].upper()

    def display(self, year: int) -> str:
        """The season's name in `year` (Sahara renames its seasons from 1905)."""
        name = self.name
        for since, new in self.renamed:
            if year >= since:
                name = new
        return name

    def names(self) -> tuple[str, ...]:
        """Every name this season is known by (canonical, aliases, later names)."""
        return (self.name, *self.aliases, *(n for _, n in self.renamed))


class Calendar:
    """The seasons of a year in order. The year changes after the last season. A frozen value,
    equal by its seasons."""

    __match_args__: ClassVar[tuple[str, ...]] = ("seasons",)

    def __init__(self, seasons: tuple[Season, ...]) -> None:
        self.seasons: Final = seasons
        codes = [s.short_code.lower() for s in self.seasons]
        if len(set(codes)) != len(codes):
            raise ValueError(f"season codes are not unique: {codes}")
        # Lower-case name -> season (the first season in order with that name).
        by_name: dict[str, Season] = {}
        for s in seasons:
            for n in s.names():
                by_name.setdefault(n.lower(), s)
        self._by_name: Final = by_name
        # Filled as they are met (the phase cycle asks for the same few again and again):
        # season names as phases write them -> season; (season as written, phase type) ->
        # _index; texts read by `parse` -> what they read as.
        self._as_written: Final[dict[str, Season]] = {}
        self._positions: Final[dict[tuple[str, PhaseType], tuple[int, int]]] = {}
        self._parsed: Final[dict[str, Phase | None]] = {}

    def __eq__(self, other: object) -> bool:
        if type(other) is not Calendar:
            return NotImplemented
        return self.seasons == other.seasons

    def __hash__(self) -> int:
        return hash((self.seasons,))

    def __repr__(self) -> str:
        return f"Calendar(seasons={self.seasons!r})"

    # -- lookup --------------------------------------------------------------------------------
    def season(self, name: str) -> Season | None:
        """The season called `name` (canonical name, alias or later name; any case)."""
        return self._by_name.get(" ".join(name.lower().replace("-", " ").split()))

    def season_of(self, phase: Phase) -> Season:
        s = self._as_written.get(phase.season)
        if s is None:
            s = self.season(phase.season)
            if s is None:
                raise ValueError(f"{phase.season!r} is not a season of this calendar")
            self._as_written[phase.season] = s
        return s

    def _index(self, phase: Phase) -> tuple[int, int]:
        key = (phase.season, phase.type)
        found = self._positions.get(key)
        if found is not None:
            return found
        s = self.season_of(phase)
        si = self.seasons.index(s)
        if phase.type not in s.phases:
            raise ValueError(f"{s.name} has no {phase.type.value} phase")
        found = self._positions[key] = (si, s.phases.index(phase.type))
        return found

    def key(self, phase: Phase) -> tuple[int, int, int]:
        """A sort key: phases compare in the order they are played."""
        si, ti = self._index(phase)
        return phase.year, si, ti

    # -- sequence ------------------------------------------------------------------------------
    def next(self, phase: Phase) -> Phase:
        """The phase after `phase` (whether or not it will need orders)."""
        si, ti = self._index(phase)
        season = self.seasons[si]
        if ti + 1 < len(season.phases):
            return Phase(season.name, phase.year, season.phases[ti + 1])
        year = phase.year
        si += 1
        if si == len(self.seasons):
            si, year = 0, year + 1
        nxt = self.seasons[si]
        return Phase(nxt.name, year, nxt.phases[0])

    def is_last_of_season(self, phase: Phase) -> bool:
        si, ti = self._index(phase)
        return ti == len(self.seasons[si].phases) - 1

    # -- names ---------------------------------------------------------------------------------
    def format(self, phase: Phase) -> str:
        """`Spring 1901, Movement`, with the season's name for that year."""
        name = self.season_of(phase).display(phase.year)
        return f"{name} {phase.year}, {phase.type.value}"

    def short(self, phase: Phase) -> str:
        """The short form, e.g. `S1901M`, `F1901R`, `W1901A`."""
        return f"{self.season_of(phase).short_code}{phase.year}{phase.type.letter}"

    def parse(self, text: str) -> Phase | None:
        """Read a phase name: `Spring 1901, Movement`, `Autumn 1901 Retreats`, `Fall 1901`
        (the season's first phase), or the short form `S1901M`. Season names may be aliases or
        later names. None if the text names no phase of this calendar.

        jDip-style test files call the adjustment phase after Fall `Fall 1901, Adjustment`; a
        season without that phase type is read as the next season of the same year that has it.
        """
        known = self._parsed  # phases are values: one text reads the same every time
        if text in known:
            return known[text]
        spaced = " ".join(text.strip().split())
        phase = self._parse_long(spaced) or self._parse_short(spaced)
        if len(known) < 4096:
            known[text] = phase
        return phase

    def _parse_long(self, text: str) -> Phase | None:
        m = re.fullmatch(r"([A-Za-z][A-Za-z .-]*?)\s*(\d{3,4})\s*(?:,?\s*([A-Za-z]+))?", text)
        if not m:
            return None
        season = self.season(m.group(1))
        if season is None:
            return None
        if m.group(3) is None:
            return Phase(season.name, int(m.group(2)), season.phases[0])
        ptype = _TYPE_WORDS.get(m.group(3).lower())
        if ptype is None:
            return None
        return self._place(season, int(m.group(2)), ptype)

    def _parse_short(self, text: str) -> Phase | None:
        # Also `A05` (a season code and a two-digit year, as in the Sahara tables: the season's
        # first phase of 1905) and the initials of a name of several words (`ES1905M`).
        m = re.fullmatch(r"([A-Za-z]+?)(\d{2}|\d{3,4})([A-Za-z]?)", text)
        if not m:
            return None
        code = m.group(1).lower()
        season = next((s for s in self.seasons if s.short_code.lower() == code), None)
        if season is None:  # an alias's initial, if only one season has it (A1901M = Autumn)
            found = [s for s in self.seasons if any(n[0].lower() == code for n in s.names())]
            season = found[0] if len(found) == 1 and len(code) == 1 else None
        if season is None and len(code) > 1:  # ES = Early Summer, BS = Between Summers
            found = [s for s in self.seasons
                     if any(len(n.split()) > 1 and "".join(w[0] for w in n.split()).lower() == code
                            for n in s.names())]
            season = found[0] if len(found) == 1 else None
        year = int(m.group(2)) + (1900 if len(m.group(2)) == 2 else 0)
        if season is None:
            return None
        if not m.group(3):
            return Phase(season.name, year, season.phases[0])
        ptype = _TYPE_LETTERS.get(m.group(3).lower())
        if ptype is None:
            return None
        return self._place(season, year, ptype)

    def _place(self, season: Season, year: int, ptype: PhaseType) -> Phase | None:
        if ptype in season.phases:
            return Phase(season.name, year, ptype)
        for later in self.seasons[self.seasons.index(season) + 1 :]:
            if ptype in later.phases:
                return Phase(later.name, year, ptype)
        return None


def standard_calendar() -> Calendar:
    """Spring (moves, retreats), Fall (moves, retreats; ownership update), Winter (adjustments)."""
    return Calendar(
        (
            Season("Spring", (PhaseType.MOVEMENT, PhaseType.RETREAT)),
            Season(
                "Fall",
                (PhaseType.MOVEMENT, PhaseType.RETREAT),
                aliases=("Autumn",),
                updates_ownership=True,
            ),
            Season("Winter", (PhaseType.ADJUSTMENT,)),
        )
    )
