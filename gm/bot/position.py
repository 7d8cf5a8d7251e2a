"""The position as one power sees it, read once per phase: its units and centres, the centres
it wants, who could reach each province next, and how far each place is from a wanted centre
(for an army and for a fleet; where the bot moves an army that cannot walk to any, as on an
island, it counts the seas it would be convoyed across, three steps each: gm.bot.variant_orders
convoys it)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from gm.bot.legal import destinations
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import Move
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import Variant

FAR = 10_000  # no wanted centre can be reached
N = TypeVar("N", bound=Hashable)  # a place: a province, or a fleet's location


def _fleet_graph(gmap: GameMap) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for src, dsts in gmap.fleet_adj.items():
        graph.setdefault(src.province, set()).update(d.province for d in dsts)
    return graph


def _army_sea_graph(gmap: GameMap) -> dict[str, set[str]]:
    """The armies' graph with one-sea crossings: a coast, into a sea, out of it, onto a coast
    (three steps, so that a fleet's way is shorter where there is one)."""
    graph: dict[str, set[str]] = {p: set(adj) for p, adj in gmap.army_adj.items()}
    for src, dsts in gmap.fleet_adj.items():
        a = src.province
        for dst in dsts:
            b = dst.province
            if not gmap.is_water(a) and gmap.is_water(b):
                graph.setdefault(a, set()).add("~in " + b)
                graph.setdefault("~in " + b, set()).add("~out " + b)
            elif gmap.is_water(a) and not gmap.is_water(b):
                graph.setdefault("~out " + a, set()).add(b)
    return graph


def distances(graph: Mapping[N, Iterable[N]], sources: Iterable[N]) -> dict[N, int]:
    """Steps from each place to the nearest of `sources` over `graph`, walked backwards."""
    reverse: dict[N, set[N]] = {}
    for src, dsts in graph.items():
        for dst in dsts:
            reverse.setdefault(dst, set()).add(src)
    dist = dict.fromkeys(sources, 0)
    frontier = list(dist)
    while frontier:
        nxt = []
        for here in frontier:
            for there in reverse.get(here, ()):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    nxt.append(there)
        frontier = nxt
    return dist


@dataclass
class Position:
    """One power's view of the board in a phase."""

    variant: Variant
    gmap: GameMap
    state: GameState
    power: str
    mine: tuple[Unit, ...] = ()
    owned: frozenset[str] = frozenset()
    wanted: frozenset[str] = frozenset()  # supply centres it does not own
    occupant: dict[str, Unit] = field(default_factory=dict)  # province -> unit there
    threat: dict[str, int] = field(default_factory=dict)  # province -> foreign units reaching it
    army_far: dict[str, int] = field(default_factory=dict)  # province -> steps to a wanted centre
    army_sea_far: dict[str, int] = field(default_factory=dict)  # the same, convoyed across seas
    fleet_far: dict[Location, int] = field(default_factory=dict)  # by fleet location
    moves: dict[Unit, dict[str, Move]] = field(default_factory=dict)  # legal moves by place
    fleet_graph: dict[str, set[str]] = field(default_factory=dict)  # province -> by fleet

    @staticmethod
    def of(variant: Variant, state: GameState, power: str) -> Position:
        gmap = variant.map_for(state)
        owned = frozenset(c for c, p in state.owners.items() if p == power and c in gmap.centres)
        pos = Position(variant, gmap, state, power, state.units_of(power), owned,
                       frozenset(gmap.centres - owned))
        pos.occupant = {u.province: u for u in state.units}
        pos.fleet_graph = _fleet_graph(gmap)
        for unit in state.units:
            if unit.power == power:
                continue
            for p in pos.reach(unit):
                pos.threat[p] = pos.threat.get(p, 0) + 1
        pos.army_far = distances(gmap.army_adj, pos.wanted)
        pos.army_sea_far = distances(_army_sea_graph(gmap), pos.wanted)
        pos.fleet_far = distances(
            gmap.fleet_adj, [loc for loc in gmap.fleet_adj if loc.province in pos.wanted])
        pos.moves = {u: destinations(variant, gmap, state, u) for u in pos.mine}
        return pos

    def reach(self, unit: Unit) -> Iterable[str]:
        """Where `unit` could move next (the map's adjacency, no convoy)."""
        if unit.type is UnitType.ARMY:
            return self.gmap.army_adj.get(unit.province, ())
        return self.fleet_graph.get(unit.province, ())

    def far(self, unit_type: UnitType, place: str | Location, *, sea: bool = False) -> int:
        """Steps from `place` to a wanted centre for a unit of `unit_type` (a fleet from the
        best coast of a province, or from the location given; `sea`: an army that cannot
        walk to any counts the seas it could be convoyed across)."""
        if unit_type is UnitType.ARMY:
            province = place if isinstance(place, str) else place.province
            walk = self.army_far.get(province, FAR)
            return walk if walk < FAR or not sea else self.army_sea_far.get(province, FAR)
        if isinstance(place, Location):
            return self.fleet_far.get(place, FAR)
        return min((self.fleet_far.get(loc, FAR) for loc in self.gmap.fleet_locations(place)),
                   default=FAR)

    def foreign(self, province: str) -> Unit | None:
        """The unit of another power (or a neutral garrison) in `province`, if any."""
        unit = self.occupant.get(province)
        return unit if unit is not None and unit.power != self.power else None
