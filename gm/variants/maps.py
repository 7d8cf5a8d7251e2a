"""The maps the variants play on, loaded once from gm/variants/data/*.map."""

from __future__ import annotations

from functools import cache

from gm.engine.map import GameMap
from gm.paths import VARIANT_DATA
from gm.variants.mapdata import MapData, load_map


@cache
def map_data(name: str) -> MapData:
    """The validated data of the map file `<name>.map` (e.g. "standard")."""
    return load_map(VARIANT_DATA / f"{name}.map")


@cache
def ring_map(name: str) -> GameMap:
    """The GameMap of a ring map file, with the data's own terrain."""
    return map_data(name).game_map()


def standard_map() -> GameMap:
    """The standard board, plus Switzerland, Iceland, Ireland and the Caspian (impassable)."""
    return ring_map("standard")
