"""Checks of a variant file's board as the game starts (its map under the file's `terrain` and
`ice`) that the map format alone cannot make: supply centres where no unit can take them, and
coast pins (`Nbr[nc]`) that name no coast or one coast twice.

Each finding names the province, whether it belongs on the province's line or its ring line,
and whether it is an error or a warning (something a designer could mean).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gm.engine.geo import Terrain
from gm.engine.map import GameMap
from gm.engine.topology import water_runs
from gm.engine.variant import ScheduledEvent
from gm.variants.mapdata import MapData

# the dated changes that make a space land (or open it) later in the game
_OPENING = ("land", "passable")


@dataclass(frozen=True)
class Finding:
    """One problem of the starting board: the province, what is wrong and what to write."""

    province: str
    message: str
    ring: bool = False  # on the province's ring line (else its header line)
    warning: bool = False


def start_findings(data: MapData, gmap: GameMap, later: Sequence[ScheduledEvent]
                   ) -> list[Finding]:
    """The centres and coast pins of the starting board that make no sense (`later`: the
    variant's dated changes, which may open a space before anyone needs to stand there)."""
    opened = {p for e in later if e.kind in _OPENING for p in e.provinces}
    return [*_centres(data, gmap, opened), *_pins(data, gmap)]


def _centres(data: MapData, gmap: GameMap, opened: set[str]) -> list[Finding]:
    out = []
    for p, prov in data.provinces.items():
        if not prov.supply_centre:
            continue
        terrain = gmap.terrain[p]
        if terrain.is_water:
            out.append(Finding(p, f"{p} ({prov.name}) is a supply centre on {_words(terrain)}: "
                               "only a fleet can take it; if a centre at sea is not what you "
                               "mean, make it land or leave out `centre`", warning=True))
        elif terrain is Terrain.MOUNTAIN and p not in opened:
            out.append(Finding(p, f"{p} ({prov.name}) is a supply centre on a mountain: no "
                               "unit can take it until the mountain opens (a `passable` event, "
                               "or a hook set's terrain orders); if that is not what you mean, "
                               "leave out `centre` or make the space land", warning=True))
        elif not terrain.is_passable and p not in opened:
            out.append(Finding(p, f"{p} ({prov.name}) is a supply centre on {_words(terrain)}: "
                               "no unit can ever stand there to take it; leave out `centre`, "
                               "or make the space land (or open it with a `passable` event)"))
    return out


def _pins(data: MapData, gmap: GameMap) -> list[Finding]:
    """Coast pins on a province that has fewer than two coasts at the start, and a label
    pinned to two of its coasts."""
    water = {p for p, t in gmap.terrain.items() if t.is_water}
    out = []
    pinned = sorted({p for p, _ in data.pins})
    for p in pinned:
        if gmap.terrain[p] is not Terrain.LAND or p in data.canals:
            continue  # a canal has one coast however its water lies: pins do not matter
        ring = data.rings[p]
        runs = water_runs(ring, water, p in data.canals)
        labels = {i: data.pins[(p, i)] for i in range(len(ring)) if (p, i) in data.pins}
        written = ", ".join(f"{ring[i]}[{label}]" for i, label in labels.items())
        if len(runs) < 2:
            coasts = "no coast" if not runs else "one coast"
            out.append(Finding(p, f"{written}: a coast pin names one of several coasts, and "
                               f"{p} has {coasts} at the start; write the ring without the "
                               "[label]", ring=True))
            continue
        where: dict[str, set[int]] = {}
        for n, run in enumerate(runs):
            for i in run:
                if i in labels:
                    where.setdefault(labels[i], set()).add(n)
        for label, found in sorted(where.items()):
            if len(found) > 1:
                out.append(Finding(p, f"the coast label [{label}] is pinned to {len(found)} "
                                   f"coasts of {p} ({written}): give each coast its own "
                                   "label", ring=True))
    return out


def _words(terrain: Terrain) -> str:
    return {Terrain.SEA: "a sea", Terrain.LAKE: "a lake", Terrain.MOUNTAIN: "a mountain",
            Terrain.IMPASSABLE: "an impassable space"}.get(terrain, terrain.value)
