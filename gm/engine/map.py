"""The movement graph of a map in one terrain state.

A GameMap is derived (gm.engine.topology) from map data (terrain + border rings) and the game's
map overlays; it is immutable. When terrain changes, ask the map for a new one with
`with_overlay`, which re-derives adjacency and coasts from the same topology.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Final, Protocol

from gm.engine.geo import Location, Terrain
from gm.engine.units import UnitType

# Enum members as module constants (an enum class attribute costs a lookup each time).
_LAND = Terrain.LAND
_ARMY = UnitType.ARMY
_ARMY_FLEET = UnitType.ARMY_FLEET


@dataclass(frozen=True)
class Province:
    """A province as the map data describes it (names, terrain at the start, centre, home)."""

    abbr: str
    name: str
    terrain: Terrain
    aliases: tuple[str, ...] = ()
    supply_centre: bool = False
    home: str | None = None  # the power whose home centre it is at the start
    opens_as: Terrain | None = None  # for an impassable space: the terrain it opens as
    position: tuple[float, float] | None = None  # approximate centre (x east, y south)
    unit_position: tuple[float, float] | None = None  # the picture: where its unit stands
    label_position: tuple[float, float] | None = None  # the picture: where its name stands


class Overlay:
    """The parts of a game state that change the map: terrain, ice, cut borders, centres. A
    frozen value, equal by its fields."""

    __match_args__: ClassVar[tuple[str, ...]] = ("terrain", "iced", "cut_borders", "centres")

    def __init__(
        self,
        terrain: Mapping[str, Terrain] | None = None,
        iced: frozenset[str] = frozenset(),
        cut_borders: frozenset[tuple[str, str]] = frozenset(),
        centres: frozenset[str] | None = None,
    ) -> None:
        self.terrain: Final[Mapping[str, Terrain]] = {} if terrain is None else terrain
        self.iced: Final = iced
        self.cut_borders: Final = cut_borders
        self.centres: Final = centres

    def _values(self) -> tuple[object, ...]:
        return (self.terrain, self.iced, self.cut_borders, self.centres)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Overlay:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (f"Overlay(terrain={self.terrain!r}, iced={self.iced!r}, "
                f"cut_borders={self.cut_borders!r}, centres={self.centres!r})")


class Deriver(Protocol):
    """Whatever can build a GameMap for an overlay (ring topology, or explicit adjacency)."""

    def derive(self, overlay: Overlay) -> GameMap: ...


class GameMap:
    """Provinces, their current terrain, and the derived army and fleet moves.

    - `army_adj[p]`: provinces an army in p may move to (both passable land, border not cut).
    - `fleet_adj[loc]`: locations a fleet at loc may move to (coast-specific).
    - `coasts[p]`: coast labels of a split-coast land province (two or more), else absent.
    - `borders[p]`: every province sharing a border with p (any terrain, cut or not).
    - `edges[p]`: the board-edge markers p touches ("~N", ...), absent if none.
    - `polar`: the provinces bordering the permanent polar ice (the top edge), if any.
    - `coast_seas[loc]`: for each fleet location in a land province, the water it touches.
    - `overlay`: the overlay this map was derived for.
    An army may stand on land, and on water under ice (Geophysical rule 8).
    Immutable; equal only to itself (maps are compared and cached by identity).
    """

    __match_args__: ClassVar[tuple[str, ...]] = (
        "provinces", "terrain", "army_adj", "fleet_adj", "coasts", "borders", "centres", "iced",
        "cut_borders", "deriver", "names", "edges", "polar", "coast_seas", "overlay",
    )

    def __init__(
        self,
        provinces: Mapping[str, Province],
        terrain: Mapping[str, Terrain],
        army_adj: Mapping[str, frozenset[str]],
        fleet_adj: Mapping[Location, frozenset[Location]],
        coasts: Mapping[str, tuple[str, ...]],
        borders: Mapping[str, frozenset[str]],
        centres: frozenset[str],
        iced: frozenset[str] = frozenset(),
        cut_borders: frozenset[tuple[str, str]] = frozenset(),
        deriver: Deriver | None = None,
        names: Mapping[str, str] | None = None,  # lower-case name/alias -> abbr
        edges: Mapping[str, frozenset[str]] | None = None,
        polar: frozenset[str] = frozenset(),
        coast_seas: Mapping[Location, frozenset[str]] | None = None,
        overlay: Overlay | None = None,
    ) -> None:
        self.provinces: Final = provinces
        self.terrain: Final = terrain
        self.army_adj: Final = army_adj
        self.fleet_adj: Final = fleet_adj
        self.coasts: Final = coasts
        self.borders: Final = borders
        self.centres: Final = centres
        self.iced: Final = iced
        self.cut_borders: Final = cut_borders
        self.deriver: Final = deriver
        self.names: Final[Mapping[str, str]] = {} if names is None else names
        self.edges: Final[Mapping[str, frozenset[str]]] = {} if edges is None else edges
        self.polar: Final = polar
        self.coast_seas: Final[Mapping[Location, frozenset[str]]] = (
            {} if coast_seas is None else coast_seas)
        self.overlay: Final = Overlay() if overlay is None else overlay

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"GameMap({inside})"

    # -- terrain -------------------------------------------------------------------------------
    def terrain_of(self, province: str) -> Terrain:
        return self.terrain[province]

    def is_water(self, province: str) -> bool:
        return self.terrain[province].is_water

    def is_land(self, province: str) -> bool:
        return self.terrain[province] is _LAND

    def is_coastal(self, province: str) -> bool:
        """Passable land that a fleet can stand on (it has at least one coast)."""
        return self.is_land(province) and (
            Location(province) in self.fleet_adj or bool(self.coasts.get(province))
        )

    def is_passable(self, province: str) -> bool:
        """Can any unit stand here (land, sea or lake; not mountain or impassable)?"""
        return self.terrain[province].is_passable

    def is_split(self, province: str) -> bool:
        return len(self.coasts.get(province, ())) >= 2

    def fleet_locations(self, province: str) -> tuple[Location, ...]:
        """Where in `province` a fleet may stand: one location per coast, or the province."""
        labels = self.coasts.get(province, ())
        if len(labels) >= 2:
            return tuple(Location(province, c) for c in labels)
        if Location(province) in self.fleet_adj:
            return (Location(province),)
        return ()

    # -- moves ---------------------------------------------------------------------------------
    def army_can_move(self, src: str, dst: str) -> bool:
        return dst in self.army_adj.get(src, frozenset())

    def fleet_can_move(self, src: Location, dst: Location) -> bool:
        return dst in self.fleet_adj.get(src, frozenset())

    def fleet_targets_in(self, src: Location, province: str) -> tuple[Location, ...]:
        """The locations of `province` a fleet at `src` can move to (several = ambiguous)."""
        return tuple(sorted(d for d in self.fleet_adj.get(src, ()) if d.province == province))

    def can_move(self, unit_type: UnitType, src: Location, dst: Location) -> bool:
        if unit_type is _ARMY:
            return self.army_can_move(src.province, dst.province)
        return self.fleet_can_move(src, dst)

    def can_reach_province(self, unit_type: UnitType, src: Location, province: str) -> bool:
        """Could this unit move into `province` (any coast)? Used for supports."""
        if unit_type is _ARMY:
            return self.army_can_move(src.province, province)
        return bool(self.fleet_targets_in(src, province))

    def can_occupy(self, unit_type: UnitType, loc: Location) -> bool:
        """May a unit of this type stand at loc in the current terrain?"""
        if loc.province not in self.terrain:
            return False
        if unit_type is _ARMY:
            walkable = self.is_land(loc.province) or (
                loc.province in self.iced and self.is_water(loc.province)
            )
            return walkable and loc.coast is None
        if unit_type is _ARMY_FLEET:
            return self.is_water(loc.province)
        if self.is_split(loc.province):
            return loc.coast in self.coasts[loc.province]
        return loc.coast is None and loc in self.fleet_adj

    def adjacent(self, a: str, b: str) -> bool:
        """Do the two provinces share a border (regardless of terrain)?"""
        return b in self.borders.get(a, frozenset())

    def follow_coast(self, loc: Location, before: GameMap) -> Location | None:
        """Where a fleet that stood at `loc` on the map `before` stands on this map, or None.

        Water stays water; in a land province the fleet keeps to the coast that shares the most
        water with its old coast (its old label wins a tie), e.g. after a terrain change splits
        or joins coasts. None if the province has no coast (or is not passable) now.
        """
        if loc.province not in self.terrain:
            return None
        if self.is_water(loc.province):
            return Location(loc.province)
        here = self.fleet_locations(loc.province)
        if not here or not self.is_land(loc.province):
            return None
        if len(here) == 1:
            return here[0]
        old = before.coast_seas.get(loc, frozenset())
        return max(
            here,
            key=lambda c: (len(self.coast_seas.get(c, frozenset()) & old), c.coast == loc.coast),
        )

    # -- names ---------------------------------------------------------------------------------
    def lookup(self, name: str) -> str | None:
        """The canonical abbreviation for a name, abbreviation or alias (any case), or None."""
        return self.names.get(" ".join(name.lower().split()))

    # -- changes -------------------------------------------------------------------------------
    def with_overlay(self, overlay: Overlay) -> GameMap:
        """The map re-derived for other terrain, ice, cut borders or centres."""
        if self.deriver is None:
            raise ValueError("this map has no topology to re-derive from")
        return self.deriver.derive(overlay)
