"""Civil disorder removals: which units go when a power does not order enough removals.

2000 rulebook (DATC v2.4 section 6.J as the reference cases assume): the units farthest from
the power's home centres go first; a unit's distance is the least number of moves to reach
any home centre, where a fleet moves as a fleet (from either coast, 6.J.9) and an army may
also cross water as if convoyed without needing fleets (6.J.10, 6.J.11). On equal distance
fleets go before armies, then units in alphabetical order of their province's name
(6.J.4-6.J.7).

2023 rulebook (DATC v3.0 section 6.J; gm.engine.rulebook): the distance is to the nearest
supply centre the power owns (6.J.11), counted in provinces crossed, land or sea, for armies
and fleets alike (6.J.8-6.J.10); ties are broken as above.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Iterable, Sequence
from typing import TypeVar

from gm.engine.map import GameMap
from gm.engine.units import Unit, UnitType

__all__ = ["FAR", "disorder_removals", "distance_home", "distance_owned"]

FAR = 10_000  # the distance of a unit that cannot reach any home centre
N = TypeVar("N", bound=Hashable)  # a place: a province, or a fleet's location


def _army_steps(gmap: GameMap, province: str) -> Iterable[str]:
    """Where an army may step when counting distance: land moves, and across water."""
    yield from gmap.army_adj.get(province, ())
    here_water = gmap.is_water(province)
    for other in gmap.borders.get(province, ()):
        terrain = gmap.terrain.get(other)
        if terrain is None or not terrain.is_passable:
            continue
        if here_water or terrain.is_water:
            yield other


def _steps(start: N, reached: Callable[[N], bool],
           neighbours: Callable[[N], Iterable[N]]) -> int:
    """The fewest steps from `start` to a place `reached` accepts, breadth first (FAR if none
    can be reached)."""
    if reached(start):
        return 0
    seen = {start}
    frontier = [start]
    steps = 0
    while frontier:
        steps += 1
        nxt: list[N] = []
        for here in frontier:
            for there in neighbours(here):
                if there in seen:
                    continue
                if reached(there):
                    return steps
                seen.add(there)
                nxt.append(there)
        frontier = nxt
    return FAR


def distance_home(gmap: GameMap, unit: Unit, homes: Collection[str]) -> int:
    """The number of moves `unit` needs to reach any of `homes` (FAR if it cannot)."""
    if unit.province in homes:
        return 0
    if unit.type is UnitType.ARMY:
        return _steps(unit.province, homes.__contains__, lambda p: _army_steps(gmap, p))
    return _steps(unit.location, lambda loc: loc.province in homes,
                  lambda loc: gmap.fleet_adj.get(loc, ()))


def distance_owned(gmap: GameMap, unit: Unit, owned: Collection[str]) -> int:
    """2023 rulebook: the provinces `unit` must cross to reach any of `owned`, moving through
    any passable province, land or sea (FAR if it cannot)."""

    def passable(p: str) -> Iterable[str]:
        for q in gmap.borders.get(p, ()):
            terrain = gmap.terrain.get(q)
            if terrain is not None and terrain.is_passable:
                yield q

    return _steps(unit.province, owned.__contains__, passable)


def disorder_removals(
    gmap: GameMap, units: Sequence[Unit], homes: Collection[str], count: int,
    rulebook_2023: bool = False,
) -> list[tuple[Unit, int]]:
    """The `count` units to remove from `units` (one power's), with their distances: from
    `homes` (2000 rulebook), or, with `rulebook_2023`, from `homes` given as the centres the
    power owns."""
    if count <= 0:
        return []
    ranked = []
    for unit in units:
        distance = distance_owned if rulebook_2023 else distance_home
        d = distance(gmap, unit, homes)
        province = gmap.provinces.get(unit.province)
        name = province.name if province is not None else unit.province
        ranked.append((-d, unit.type is UnitType.ARMY, name.lower(), unit.province, unit, d))
    ranked.sort(key=lambda r: r[:4])
    return [(r[4], r[5]) for r in ranked[:count]]
