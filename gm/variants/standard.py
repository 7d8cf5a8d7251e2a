"""The standard game: the 1901 map, seven powers, Spring/Fall/Winter, 18-centre solo."""

from __future__ import annotations

from gm.engine.calendar import standard_calendar
from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Power, Variant, homes_from_map
from gm.variants.maps import standard_map

NAME = "standard"
ALIASES = ("classic", "classical", "diplomacy", "standard diplomacy", "classic diplomacy", "std")

POWERS = (
    Power("Austria", "Austrian", "A"),
    Power("England", "English", "E"),
    Power("France", "French", "F"),
    Power("Germany", "German", "G"),
    Power("Italy", "Italian", "I"),
    Power("Russia", "Russian", "R"),
    Power("Turkey", "Turkish", "T"),
)

# The 1901 starting position (rulebook).
_START = {
    "Austria": ("A Bud", "A Vie", "F Tri"),
    "England": ("F Edi", "F Lon", "A Lvp"),
    "France": ("F Bre", "A Mar", "A Par"),
    "Germany": ("F Kie", "A Ber", "A Mun"),
    "Italy": ("F Nap", "A Rom", "A Ven"),
    "Russia": ("A War", "A Mos", "F Sev", "F StP/sc"),
    "Turkey": ("F Ank", "A Con", "A Smy"),
}


def start_units(spec: dict[str, tuple[str, ...]]) -> tuple[Unit, ...]:
    """Units from `{power: ("A Bud", "F StP/sc", ...)}` written with canonical abbreviations."""
    units = []
    for power, items in spec.items():
        for item in items:
            kind, where = item.split(" ", 1)
            units.append(Unit(power, UnitType(kind), Location.parse(where)))
    return tuple(sorted(units))


def build() -> Variant:
    gmap = standard_map()
    return Variant(
        name=NAME,
        title="Standard",
        aliases=ALIASES,
        map=gmap,
        calendar=standard_calendar(),
        powers=POWERS,
        start_phase=Phase("Spring", 1901, PhaseType.MOVEMENT),
        start_units=start_units(_START),
        homes=homes_from_map(gmap, POWERS),
    )
