"""The standard game: the 1901 map, seven powers, Spring/Fall/Winter, 18-centre solo, declared
as a variant file (gm/variants/data/standard.toml, read by gm.variants.varfile) like any other.

`ALIASES` and `POWERS` are read from the same file when this module is imported (the registry
and the variants on the standard board need them before any variant is built).
"""

from __future__ import annotations

import tomllib

from gm.engine.geo import Location
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Power, Variant
from gm.paths import VARIANT_DATA

FILE = VARIANT_DATA / "standard.toml"
_DECLARED = tomllib.loads(FILE.read_text(encoding="utf-8"))

NAME = "standard"
ALIASES: tuple[str, ...] = tuple(_DECLARED["aliases"])
POWERS = tuple(Power(p["name"], p["adjective"], p["code"]) for p in _DECLARED["powers"])


def start_units(spec: dict[str, tuple[str, ...]]) -> tuple[Unit, ...]:
    """Units from `{power: ("A Bud", "F StP/sc", ...)}` written with canonical abbreviations."""
    units = []
    for power, items in spec.items():
        for item in items:
            kind, where = item.split(" ", 1)
            units.append(Unit(power, UnitType(kind), Location.parse(where)))
    return tuple(sorted(units))


def build() -> Variant:
    from gm.variants.varfile import read_variant

    return read_variant(FILE).variant
