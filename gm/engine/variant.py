"""The variant contract: map, calendar, powers, start, scheduled events, order kinds and hooks,
as data. The engine's game flow (gm.engine.game) runs any Variant; the variants themselves
(gm.variants) fill it in.

A variant differs from the standard game only where its rules say so. The game flow
(gm.engine.game) runs the standard phase cycle and calls a variant's hooks at fixed points:

- `before_phase`: before a phase is adjudicated; it may change the position and take the
  orders that are the variant's own (movement: Abstraction2 rule 3 embarkation, Geophysical
  rule 4 events, Sahara's "must not change" instructions; adjustments: Chaos II home
  designations and alliance declarations).
- `resolve_movement`, `resolve_retreats`, `resolve_adjustments`: replace the standard
  adjudicator of that phase type where the variant's rules change it (A/F convoys and retreats
  of Abstraction2 and Deluge II rule 8; Abstraction2 rule 5 frozen fleets and Arc builds).
- `after_movement`: after adjudication, before retreats, with every order as submitted
  (Deluge II rule 2 transforms, Abstraction2 rule 6 exchanges of centres).
- `end_of_phase`: after every phase, played or skipped (Chaos II home loss, frozen regions).
- `apply_scheduled`: at the end of a season, the variant's table entries due then (Deluge II
  Tables 1 and 2, Sahara rules 2, 3, 5); runs before the ownership update.
- `build_sites`: where a power may build (standard: owned home centres; Deluge II rule 7 and
  Sahara rule 4: any owned centre; Chaos II: starting centre and designations).
- `adjustment_needed`: whether an adjustment phase is played (Chaos II Winters carry home
  designations and alliance declarations even without builds).
- `victory`: who has won after a phase (standard: 18 centres at the ownership update).
- `optional_orders`: orders of the variant's own a power may give in this phase but need not
  (Chaos II: `Home Bel` and `Alliance ...` in a Winter), so that the phase waits for them.
- `display_names`: how reports write an order's place names on the current map (Geophysical
  rule 9: seas in capitals, land in title case, `F(BUR) C A(Bel)-Mar`).
- `frozen_provinces`: the provinces frozen in a position (Abstraction2 rule 5, a variant file's
  `[frozen]`), for the pictures.
- `on_arrival`: taking orders, the variant's judgement of one of its own orders as it arrives
  (`OnArrival`: Abstraction2 rule 6 exchanges, Geophysical rule 2 events), before the trial
  adjudication that judges the others.

A hook left as None means the standard behaviour.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from gm.engine.calendar import Calendar
from gm.engine.map import GameMap, Overlay
from gm.engine.orders import Build
from gm.engine.phase import Phase, PhaseType
from gm.engine.reason_words import words
from gm.engine.reasons import Fate, Reason
from gm.engine.results import OrderResult, PhaseOutcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType

_BUILT_KIND = {"armies": UnitType.ARMY, "fleets": UnitType.FLEET}


class OrderKind(StrEnum):
    """The orders of its own a variant allows, beyond the standard ones (`Variant.order_kinds`;
    gm.notation reads them only where the game allows them). Equal to their names as strings."""

    ARMY_FLEET = "af"  # Embark, Disembark, Fast Ferry (Abstraction2 rule 3, Deluge II rule 8)
    TRANSFORM = "transform"  # Deluge II rule 2
    KEEP_FLEET = "keep fleet"  # Sahara rule 2
    EXCHANGE = "exchange"  # Abstraction2 rule 6
    HOME = "home"  # Chaos II home designations
    ALLIANCE = "alliance"  # Chaos II alliance declarations
    GEO = "geo"  # Geophysical events


@dataclass(frozen=True)
class Power:
    """A great power: `Austria`, adjective `Austrian`, one-letter code `A`."""

    name: str
    adjective: str
    letter: str


@dataclass(frozen=True)
class ScheduledEvent:
    """A change a variant's tables schedule, e.g. Deluge II Table 1 `W 1901: Lon` (submerge).

    It takes effect at the end of `season` of `year` (after its moves and retreats, or after its
    adjustments, whichever is the season's last phase). `kind` is the variant's own word
    ("submerge", "new centre", "lose centre", "impassable", "passable", "dry"); the variant's
    `apply_scheduled` hook gives it meaning.
    """

    season: str
    year: int
    kind: str
    provinces: tuple[str, ...]


@dataclass(frozen=True)
class HookStep:
    """What a hook did: the new position, results for orders it consumed, events in words."""

    state: GameState
    results: tuple[OrderResult, ...] = ()
    events: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The end of a game: who won (possibly nobody) and whether play stops."""

    winners: tuple[str, ...]
    finished: bool = True
    events: tuple[str, ...] = ()  # what reports say of the end beyond who won (a ranking)


Resolver = Callable[[GameMap, GameState, Sequence[Submitted]], PhaseOutcome]
AdjustmentResolver = Callable[
    [GameMap, GameState, Sequence[Submitted], Mapping[str, frozenset[str]]], PhaseOutcome
]
BeforePhase = Callable[
    ["Variant", GameState, Sequence[Submitted]], tuple[HookStep, Sequence[Submitted]]
]
AfterMovement = Callable[["Variant", GameState, Sequence[Submitted]], HookStep]
EndOfPhase = Callable[["Variant", GameState, Phase], HookStep]
ApplyScheduled = Callable[["Variant", GameState, Sequence[ScheduledEvent]], HookStep]
BuildSites = Callable[["Variant", GameState, str], frozenset[str]]
AdjustmentNeeded = Callable[["Variant", GameState], bool]
VictoryRule = Callable[["Variant", GameState, Phase, bool], Verdict | None]
OptionalOrders = Callable[["Variant", GameState], Mapping[str, tuple[str, ...]]]
DisplayNames = Callable[[GameMap, str], str]


@dataclass(frozen=True)
class OnArrival:
    """A variant's judgement of an order of its own as it arrives: `why` it cannot be carried
    out, or None when nothing known before adjudication stops it (and no trial adjudication is
    needed)."""

    why: Reason | None = None


# the variant, the position, the power and its order; None: the variant has no judgement of it
# on arrival (a trial adjudication judges it)
ArrivalCheck = Callable[["Variant", GameState, str, object], OnArrival | None]
FrozenProvinces = Callable[[GameState], frozenset[str]]


@dataclass(frozen=True)
class Hooks:
    """The points of the phase cycle where a variant may depart from the standard game."""

    before_phase: BeforePhase | None = None
    resolve_movement: Resolver | None = None
    resolve_retreats: Resolver | None = None
    resolve_adjustments: AdjustmentResolver | None = None
    after_movement: AfterMovement | None = None
    end_of_phase: EndOfPhase | None = None
    apply_scheduled: ApplyScheduled | None = None
    build_sites: BuildSites | None = None
    adjustment_needed: AdjustmentNeeded | None = None
    victory: VictoryRule | None = None
    optional_orders: OptionalOrders | None = None
    display_names: DisplayNames | None = None  # reports: place names as the map now is
    frozen_provinces: FrozenProvinces | None = None  # pictures: the regions frozen now
    on_arrival: ArrivalCheck | None = None  # taking orders: its own orders judged on arrival


@dataclass(frozen=True, eq=False)
class Variant:
    """A playable game: everything the game flow needs to run it.

    `homes` maps each power to its home centres at the start (from the map data unless given).
    `start_phase` is the first phase needing orders (`Spring 1901, Movement`, or `Winter 1900,
    Adjustment` for variants that start with builds); `start_units` the units on the board then.
    `solo_centres` is the standard victory condition (None: the variant has no centre solo).
    `order_kinds` names the extra orders the variant allows (OrderKind); with
    `OrderKind.ARMY_FLEET` the A/F rules apply (`army_fleet`).
    `help` is the variant's rules and the project's rulings on them, for players (`HELP <variant>`).
    Immutable, equal only to itself; `dataclasses.replace` makes a changed copy.
    """

    name: str
    title: str
    aliases: tuple[str, ...]
    map: GameMap
    calendar: Calendar
    powers: tuple[Power, ...]
    start_phase: Phase
    start_units: tuple[Unit, ...] = ()
    homes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    solo_centres: int | None = 18
    scheduled: tuple[ScheduledEvent, ...] = ()
    order_kinds: frozenset[str] = frozenset()
    hooks: Hooks = Hooks()
    help: str = ""
    # centres owned at the start that are not homes (a variant file's `owns`), per power
    start_owned: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # build sites for one kind of unit (a variant file's `build_only`): "armies" or "fleets"
    build_only: Mapping[str, str] = field(default_factory=dict)

    def build_refused(self, order: object) -> Reason | None:
        """Why `order` (a build) may not be given where only one kind of unit is built (as
        DPjudge map files and webDiplomacy variants mark some centres); None if it may."""
        if not self.build_only or not isinstance(order, Build) or order.unit.type is None:
            return None
        where = order.unit.location.province
        kind = self.build_only.get(where)
        if kind is None or _BUILT_KIND[kind] is order.unit.type:
            return None
        return Reason(Fate.BUILD_KIND_ONLY, unit=str(order.unit), other=str(kind),
                      province=where)

    def build_refusal(self, order: object) -> str | None:
        """`build_refused` in words, as a reply refusing the order gives it."""
        why = self.build_refused(order)
        return None if why is None else words(why)

    @property
    def army_fleet(self) -> bool:
        """Whether the A/F rules apply (Abstraction2 rule 3, Deluge II rule 8): armies board
        fleets, an A/F moves as a fleet, an army may retreat onto a fleet (gm.engine.army_fleet)."""
        return OrderKind.ARMY_FLEET in self.order_kinds

    # -- powers --------------------------------------------------------------------------------
    @property
    def power_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.powers)

    def power(self, name: str) -> Power | None:
        """The power called `name`: its name, adjective or letter, in any case; a dot reads
        as a space (Chaos II `St. Petersburg`, `St.Petersburg`)."""
        key = " ".join(name.lower().split())
        found = self._power_index.get(key)
        if found is None and "." in key:
            found = self._power_index.get(" ".join(key.replace(".", " ").split()))
        return found

    @cached_property
    def _power_index(self) -> dict[str, Power]:
        return {
            key.lower(): p for p in self.powers for key in (p.letter, p.adjective, p.name)
        }

    # -- map -----------------------------------------------------------------------------------
    def map_for(self, state: GameState) -> GameMap:
        """The map as it is in `state` (terrain, ice, cut borders and centres applied); the
        map's deriver caches one GameMap per distinct overlay."""
        if not (state.terrain or state.iced or state.cut_borders) and state.centres is None:
            return self.map
        overlay = Overlay(dict(state.terrain), state.iced, state.cut_borders, state.centres)
        return self.map.with_overlay(overlay)

    # -- calendar ------------------------------------------------------------------------------
    def parse_phase(self, text: str) -> Phase | None:
        return self.calendar.parse(text)

    def format_phase(self, phase: Phase) -> str:
        return self.calendar.format(phase)

    def scheduled_for(self, phase: Phase) -> tuple[ScheduledEvent, ...]:
        """The table entries that take effect at the end of `phase`'s season."""
        season = self.calendar.season_of(phase).name
        return tuple(e for e in self.scheduled if e.season == season and e.year == phase.year)

    # -- start ---------------------------------------------------------------------------------
    def start_state(self) -> GameState:
        """The position before the first phase: start units, home centres owned by their power
        (and the centres a power owns at the start without their being homes)."""
        owners = {c: p for p, centres in self.homes.items() for c in centres}
        owners.update((c, p) for p, centres in self.start_owned.items() for c in centres)
        return GameState(
            variant=self.name,
            phase=self.start_phase,
            units=self.start_units,
            owners=owners,
            homes={p: tuple(h) for p, h in self.homes.items()},
        )

    @property
    def starts_with_builds(self) -> bool:
        return self.start_phase.type is PhaseType.ADJUSTMENT


def homes_from_map(gmap: GameMap, powers: Sequence[Power]) -> dict[str, tuple[str, ...]]:
    """Each power's home centres as the map data marks them (`Province.home`, any case)."""
    by_key = {key.lower(): p.name for p in powers for key in (p.name, p.adjective)}
    homes: dict[str, list[str]] = {p.name: [] for p in powers}
    for prov in gmap.provinces.values():
        if prov.home is None:
            continue
        owner = by_key.get(prov.home.lower())
        if owner is None:
            raise ValueError(f"map data names an unknown power {prov.home!r} for {prov.abbr}")
        homes[owner].append(prov.abbr)
    return {p: tuple(sorted(h)) for p, h in homes.items()}
