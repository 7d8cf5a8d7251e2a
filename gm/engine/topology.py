"""Border rings to movement graph: the Deriver for ring maps.

A ring map gives, for every province, its neighbours in clockwise order around its border. A
neighbour may appear more than once (MAO around Spa), and the board's edges appear as markers
whose names start with "~" (they are not provinces). Two consecutive entries X, Q in P's ring
are the point where P, X and Q meet; the same point then appears as "P X" in Q's ring and as
"Q P" in X's ring (`check_rings` verifies this). From the rings and the current terrain:

- army moves: army-passable to army-passable across a border that is not cut. Army-passable is
  land, and water under ice (Geophysical rule 8: an army can cross a frozen space);
- coasts: a land province's maximal runs of water around its ring; one run is a plain coastal
  province, two or more are split coasts labelled by gm.engine.coasts. A canal province (the
  map data says which) has one coast however its water lies: fleets pass through it;
- fleet moves: water to water, water to the coast whose run contains that water, and coast to
  coast where the two land provinces' common border ends on water (the coast on each side is
  the run holding that water). Fleets may not enter ice, and a fleet in ice cannot move
  (Geophysical rule 8);
- a cut border blocks moves only while both sides are non-water (Geophysical: a split "with
  land on one side and sea on the other, or between two sea spaces [has] no effect until both
  spaces are land").

A passage (map data `passage A B`) joins two provinces that meet only at a point where four
provinces meet, as the rules of a map may say (Abstraction2 rule 4: fleets pass between CMS
and TYS across the point where Naples and Sicily meet). They border each other as across a
border of no length: armies pass if both are land, fleets if both are water.

A long link (map data `link A B`, DPjudge's and webDiplomacy's adjacency between provinces
that share no border on the board) joins two provinces anywhere: armies pass if both are land,
fleets if both are water, or water and a coast, or two coasts (a province with split coasts is
reached by a link by armies only). A one-way border (`oneway A B`: a border, passage or link
crossed only from A to B) keeps the moves from A to B and takes those from B to A away.

A border may let only armies or only fleets cross (map data `border A B armies|fleets`, as
DPjudge map files and webDiplomacy variants restrict some borders): an army-only border takes
the fleet moves across it away, a fleet-only border the army moves; nothing else changes.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from gm.engine.coasts import CoastRun, label_coasts
from gm.engine.geo import Location, Terrain
from gm.engine.map import GameMap, Overlay, Province

EDGE_PREFIX = "~"

LocKey = tuple[str, str | None]  # (province, coast): a Location while deriving (hashes fast)
OverlayKey = tuple[
    tuple[tuple[str, str], ...],
    frozenset[str],
    frozenset[tuple[str, str]],
    frozenset[str] | None,
]
_BASE_KEY: OverlayKey = ((), frozenset(), frozenset(), None)


def is_edge(name: str) -> bool:
    """Is this ring entry a board-edge marker (not a province)?"""
    return name.startswith(EDGE_PREFIX)


def border_key(a: str, b: str) -> tuple[str, str]:
    """A border as Overlay.cut_borders stores it: the two provinces in sorted order."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class RingProblem:
    """An inconsistency in a set of rings: the ring that looks wrong, and what is wrong."""

    province: str
    message: str


def _corners(ring: tuple[str, ...]) -> dict[tuple[str, str], list[int]]:
    """Each consecutive pair (ring[i], ring[i+1]) of a ring -> the indices i where it occurs."""
    out: dict[tuple[str, str], list[int]] = {}
    n = len(ring)
    for i in range(n):
        out.setdefault((ring[i], ring[(i + 1) % n]), []).append(i)
    return out


def check_rings(rings: Mapping[str, tuple[str, ...]]) -> list[RingProblem]:
    """Inconsistencies of a set of rings (each ring's neighbours must already be known names).

    Checks: no province in its own ring; at least two entries; no entry twice in a row; every
    border listed on both sides as often; every point where three provinces meet appears in
    each of their rings in the mirrored order (P's "X Q" needs Q's "P X" and X's "Q P").
    Border problems are reported first; ring-closure problems only for symmetric borders.
    """
    problems: list[RingProblem] = []
    corners = {p: _corners(r) for p, r in rings.items()}
    for p, ring in rings.items():
        if p in ring:
            problems.append(RingProblem(p, f"the ring of {p} lists {p} itself"))
            continue
        if len(ring) < 2:
            problems.append(
                RingProblem(p, f"the ring of {p} needs at least two entries, has {len(ring)}")
            )
            continue
        for a, b in corners[p]:
            if a == b:
                problems.append(RingProblem(p, f"the ring of {p} lists {a} twice in a row"))
        for q in dict.fromkeys(ring):
            if is_edge(q):
                continue
            mine, theirs = ring.count(q), rings[q].count(p)
            if mine != theirs:
                if theirs == 0:
                    text = f"asymmetric border: {p} lists {q}, but the ring of {q} lacks {p}"
                else:
                    text = (
                        f"asymmetric border: {p} lists {q} {mine} time(s), "
                        f"the ring of {q} lists {p} {theirs} time(s)"
                    )
                problems.append(RingProblem(p, text))
    if problems:
        return problems
    seen: set[tuple[str, str, str]] = set()
    for p in rings:
        for (x, q), where in corners[p].items():
            point = (p, x, q)
            if point in seen:
                continue
            seen.update({(p, x, q), (q, p, x), (x, q, p)})
            count = len(where)
            for owner, pair in ((q, (p, x)), (x, (q, p))):
                if is_edge(owner):
                    continue
                found = len(corners[owner].get(pair, ()))
                if found != count:
                    times = "" if found == 0 else f" {count} time(s), it has it {found} time(s)"
                    problems.append(
                        RingProblem(
                            owner,
                            f"the ring of {owner} does not close where {p}, {x} and {q} meet: "
                            f"the ring of {p} has {x} {q} (clockwise), so the ring of {owner} "
                            f"needs {pair[0]} {pair[1]}{times}",
                        )
                    )
    return problems



def water_runs(ring: Sequence[str], water: Collection[str], canal: bool) -> list[list[int]]:
    """The maximal runs of water slots around a ring (slot indices, clockwise): a land
    province's coasts; a canal's water is one run however it is split."""
    n = len(ring)
    wet = [q in water for q in ring]
    if not any(wet):
        return []
    if all(wet) or canal:
        return [[i for i in range(n) if wet[i]]]
    start = wet.index(False)
    runs: list[list[int]] = []
    current: list[int] = []
    for k in range(1, n + 1):
        i = (start + k) % n
        if wet[i]:
            current.append(i)
        elif current:
            runs.append(current)
            current = []
    return runs

class RingTopology:
    """A ring map's fixed part; derives the GameMap for any overlay (a gm.engine.map.Deriver).

    `rings[p]`: p's neighbours clockwise, with edge markers ("~N"). `pins[(p, i)]`: the coast
    label pinned to slot i of p's ring. `canals`: land provinces whose water is all one coast
    (fleets pass through them, as through Con, Kie, Den and Swe). Each province's `position`
    (its approximate centre) names coasts that appear during play. `polar_edge`: the edge
    marker of the permanent polar ice, if the map has one. `passages`: extra borders of no
    length between two provinces that are not ring neighbours. `army_only`, `fleet_only`:
    borders only armies (only fleets) cross. `links`: long links between provinces anywhere.
    `one_way`: (from, to) pairs of a border crossed only that way. Rings must pass
    `check_rings`.
    """

    def __init__(
        self,
        provinces: Mapping[str, Province],
        rings: Mapping[str, tuple[str, ...]],
        *,
        pins: Mapping[tuple[str, int], str] | None = None,
        canals: Iterable[str] = (),
        polar_edge: str | None = None,
        names: Mapping[str, str] | None = None,
        cache_size: int = 256,
        passages: Iterable[tuple[str, str]] = (),
        army_only: Iterable[tuple[str, str]] = (),
        fleet_only: Iterable[tuple[str, str]] = (),
        links: Iterable[tuple[str, str]] = (),
        one_way: Iterable[tuple[str, str]] = (),
    ) -> None:
        self.provinces = dict(provinces)
        self.rings = {p: tuple(rings[p]) for p in self.provinces}
        self.pins = dict(pins or {})
        self.canals = frozenset(canals)
        self.polar_edge = polar_edge
        self.names = dict(names or {})
        self.cache_size = cache_size
        self._cache: dict[OverlayKey, GameMap] = {}
        self._base: GameMap | None = None
        self._corners = {p: _corners(r) for p, r in self.rings.items()}
        self._neighbours = {
            p: tuple(dict.fromkeys(q for q in r if not is_edge(q))) for p, r in self.rings.items()
        }
        self.passages = frozenset(border_key(a, b) for a, b in passages)
        self.links = frozenset(border_key(a, b) for a, b in links)
        for a, b in self.passages | self.links:
            self._neighbours[a] += (b,)
            self._neighbours[b] += (a,)
        self.one_way = frozenset(one_way)  # (from, to): crossed that way only
        self._backwards = frozenset((b, a) for a, b in self.one_way)
        self.borders = {p: frozenset(ns) for p, ns in self._neighbours.items()}
        self.army_only = frozenset(border_key(a, b) for a, b in army_only)
        self.fleet_only = frozenset(border_key(a, b) for a, b in fleet_only)
        # ordered pairs, as the derivation looks them up
        self._no_armies = frozenset(
            x for a, b in self.fleet_only for x in ((a, b), (b, a)))
        self._no_fleets = frozenset(
            x for a, b in self.army_only for x in ((a, b), (b, a)))
        self.edges = {
            p: frozenset(q for q in r if is_edge(q))
            for p, r in self.rings.items()
            if any(is_edge(q) for q in r)
        }
        self.polar = frozenset(p for p, es in self.edges.items() if polar_edge in es)
        self.base_terrain = {p: prov.terrain for p, prov in self.provinces.items()}
        self.base_centres = frozenset(p for p, prov in self.provinces.items() if prov.supply_centre)
        self._unit = {p: self._unit_vectors(p) for p in self.provinces}
        self._locations: dict[LocKey, Location] = {}
        self._sets: dict[tuple[LocKey, ...], frozenset[Location]] = {}

    def _unit_vectors(self, p: str) -> tuple[tuple[float, float], ...]:
        """For each slot of p's ring, the unit vector from p's centre to the neighbour's."""
        here = self.provinces[p].position
        out: list[tuple[float, float]] = []
        for q in self.rings[p]:
            there = None if is_edge(q) else self.provinces[q].position
            if here is None or there is None:
                out.append((0.0, 0.0))
                continue
            dx, dy = there[0] - here[0], there[1] - here[1]
            length = math.hypot(dx, dy) or 1.0
            out.append((dx / length, dy / length))
        return tuple(out)

    # -- overlays ------------------------------------------------------------------------------
    def _key(self, overlay: Overlay) -> OverlayKey:
        for p in overlay.terrain:
            if p not in self.provinces:
                raise ValueError(f"overlay terrain names an unknown province {p!r}")
        for p in overlay.iced:
            if p not in self.provinces:
                raise ValueError(f"overlay ice names an unknown province {p!r}")
        cuts = frozenset(border_key(a, b) for a, b in overlay.cut_borders)
        for a, b in cuts:
            if a not in self.provinces or b not in self.provinces:
                raise ValueError(f"overlay cuts a border of an unknown province: {a}-{b}")
        terrain = tuple(
            sorted(
                (p, Terrain(t).value)
                for p, t in overlay.terrain.items()
                if Terrain(t) is not self.base_terrain[p]
            )
        )
        centres = None if overlay.centres is None else frozenset(overlay.centres)
        return (terrain, frozenset(overlay.iced), cuts, centres)

    def derive(self, overlay: Overlay) -> GameMap:
        """The GameMap for this overlay (cached per distinct overlay)."""
        key = self._key(overlay)
        if key == _BASE_KEY:
            if self._base is None:
                self._base = self._derive(key)
            return self._base  # kept for good: every map with no overlay is this one
        gmap = self._cache.get(key)
        if gmap is None:
            gmap = self._derive(key)
            if len(self._cache) >= self.cache_size:
                self._cache.pop(next(iter(self._cache)))
            self._cache[key] = gmap
        return gmap

    def base(self) -> GameMap:
        """The map with the data's own terrain and no ice, cuts or centre changes."""
        return self.derive(Overlay())

    # -- derivation ----------------------------------------------------------------------------
    def _runs(self, p: str, water: frozenset[str]) -> list[list[int]]:
        """The maximal runs of water slots around p's ring (slot indices, clockwise)."""
        return water_runs(self.rings[p], water, p in self.canals)

    def _coasts(
        self, land: Iterable[str], water: frozenset[str]
    ) -> tuple[dict[str, dict[int, LocKey]], dict[str, tuple[str, ...]]]:
        """Per land province: its water slots -> the fleet location there; split-coast labels."""
        slot_loc: dict[str, dict[int, LocKey]] = {}
        coasts: dict[str, tuple[str, ...]] = {}
        for p in land:
            runs = self._runs(p, water)
            if not runs:
                continue
            slots: dict[int, LocKey] = {}
            if len(runs) == 1:
                here: LocKey = (p, None)
                for i in runs[0]:
                    slots[i] = here
            else:
                units = self._unit[p]
                described = [
                    CoastRun(
                        pins=tuple(self.pins[(p, i)] for i in run if (p, i) in self.pins),
                        direction=(
                            sum(units[i][0] for i in run),
                            sum(units[i][1] for i in run),
                        ),
                    )
                    for run in runs
                ]
                labels = label_coasts(described)
                coasts[p] = tuple(sorted(labels))
                for run, label in zip(runs, labels, strict=True):
                    for i in run:
                        slots[i] = (p, label)
            slot_loc[p] = slots
        return slot_loc, coasts

    def coast_slots(self, gmap: GameMap) -> dict[str, dict[int, str]]:
        """Per province with several coasts on `gmap` (this topology's map under an overlay):
        each water slot of its ring -> the label of the coast there (for the pictures)."""
        water = frozenset(p for p in self.provinces if gmap.is_water(p))
        slot_loc, _ = self._coasts(sorted(gmap.coasts), water)
        return {p: {i: label for i, (_, label) in slots.items() if label is not None}
                for p, slots in slot_loc.items()}

    def _location(self, key: LocKey) -> Location:
        loc = self._locations.get(key)
        if loc is None:
            loc = self._locations[key] = Location(*key)
        return loc

    def _frozen(self, keys: set[LocKey]) -> frozenset[Location]:
        """The frozenset of these locations, shared between derivations (it hashes slowly)."""
        key = tuple(sorted(keys, key=lambda k: (k[0], k[1] or "")))
        fs = self._sets.get(key)
        if fs is None:
            if len(self._sets) >= 50_000:
                self._sets.clear()
            fs = self._sets[key] = frozenset(self._location(k) for k in key)
        return fs

    def _link_pairs(self, slot_loc: Mapping[str, Mapping[int, LocKey]],
                    water: frozenset[str], land: frozenset[str]
                    ) -> list[tuple[LocKey, LocKey]]:
        """The fleet moves of the long links: water to water, water to a coast, coast to coast
        (a province with split coasts has none: which coast would the link reach?)."""
        out: list[tuple[LocKey, LocKey]] = []
        for a, b in self.links:
            ends: list[LocKey] = []
            for p in (a, b):
                one_coast = p in slot_loc and set(slot_loc[p].values()) == {(p, None)}
                if p in water or (p in land and one_coast):
                    ends.append((p, None))
            if len(ends) == 2:
                out.append((ends[0], ends[1]))
        return out

    def _derive(self, key: OverlayKey) -> GameMap:
        terrain_changes, iced, cuts, centres = key
        terrain = dict(self.base_terrain)
        for p, t in terrain_changes:
            terrain[p] = Terrain(t)
        water = frozenset(p for p, t in terrain.items() if t.is_water)
        land_set = frozenset(p for p, t in terrain.items() if t is Terrain.LAND)
        # Geophysical: a cut border blocks movement only once both sides are land.
        blocking = frozenset(
            (a, b) for a, b in cuts if a not in water and b not in water
        ) | frozenset((b, a) for a, b in cuts if a not in water and b not in water)
        # and the borders only fleets cross, and one-way borders crossed backwards
        no_army = blocking | self._no_armies | self._backwards

        # Armies: land, and water under ice.
        walkable = land_set | (water & iced)
        army_adj = {
            p: frozenset(q for q in self._neighbours[p] if q in walkable and (p, q) not in no_army)
            for p in walkable
        }

        slot_loc, coasts = self._coasts(sorted(land_set), water)
        links: dict[LocKey, set[LocKey]] = {(w, None): set() for w in water}
        coast_seas: dict[LocKey, set[str]] = {}
        for p, slots in slot_loc.items():
            ring = self.rings[p]
            for i, loc in slots.items():
                links.setdefault(loc, set())
                coast_seas.setdefault(loc, set()).add(ring[i])

        pairs: list[tuple[LocKey, LocKey]] = []
        for w in water:
            for q in self._neighbours[w]:
                if q in water:
                    pairs.append(((w, None), (q, None)))
        for p, slots in slot_loc.items():
            ring = self.rings[p]
            n = len(ring)
            for i, loc in slots.items():
                pairs.append((loc, (ring[i], None)))
            for i, q in enumerate(ring):
                if q not in land_set or (p, q) in blocking:
                    continue
                q_slots = slot_loc.get(q)
                if q_slots is None:
                    continue
                q_corners = self._corners[q]
                nq = len(self.rings[q])
                before, after = (i - 1) % n, (i + 1) % n
                if before in slots:  # the point (p, w, q): q's ring has "p w"
                    for j in q_corners.get((p, ring[before]), ()):
                        pairs.append((slots[before], q_slots[(j + 1) % nq]))
                if after in slots:  # the point (p, q, w): q's ring has "w p"
                    for j in q_corners.get((ring[after], p), ()):
                        pairs.append((slots[after], q_slots[j]))
        pairs.extend(self._link_pairs(slot_loc, water, land_set))
        backwards = self._backwards
        for a, b in pairs:
            if a[0] in iced or b[0] in iced:
                continue  # Geophysical rule 8: fleets cannot move through ice fields
            if (a[0], b[0]) in self._no_fleets:
                continue  # an army-only border
            if (a[0], b[0]) not in backwards:
                links[a].add(b)
            if (b[0], a[0]) not in backwards:
                links[b].add(a)

        return GameMap(
            provinces=self.provinces,
            terrain=terrain,
            army_adj=army_adj,
            fleet_adj={self._location(k): self._frozen(v) for k, v in links.items()},
            coasts=coasts,
            borders=self.borders,
            centres=self.base_centres if centres is None else centres,
            iced=iced,
            cut_borders=cuts,
            deriver=self,
            names=self.names,
            edges=self.edges,
            polar=self.polar,
            coast_seas={self._location(k): frozenset(ws) for k, ws in coast_seas.items()},
            overlay=Overlay(
                terrain={p: Terrain(t) for p, t in terrain_changes},
                iced=iced,
                cut_borders=cuts,
                centres=centres,
            ),
        )
