"""What the variants on the standard board share with the standard game, which is declared by
its file (gm/variants/data/standard.toml, read by gm.variants.varfile) like any other variant:
its powers (`POWERS`, read from that file when this module is imported, for the variants whose
tables need them before any variant is built) and a way to write starting units.
"""

from __future__ import annotations

import tomllib

from gm.engine.geo import Location
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Power
from gm.paths import VARIANT_DATA

FILE = VARIANT_DATA / "standard.toml"
_DECLARED = tomllib.loads(FILE.read_text(encoding="utf-8"))

POWERS = tuple(Power(p["name"], p["adjective"], p["code"]) for p in _DECLARED["powers"])


def start_units(spec: dict[str, tuple[str, ...]]) -> tuple[Unit, ...]:
    """Units from `{power: ("A Bud", "F StP/sc", ...)}` written with canonical abbreviations."""
    units = []
    for power, items in spec.items():
        for item in items:
            kind, where = item.split(" ", 1)
            units.append(Unit(power, UnitType(kind), Location.parse(where)))
    return tuple(sorted(units))
