"""Order legality: is an order possible on this board, before anyone's orders are known?

An order is legal when, not knowing the other orders, it could be carried out (DATC 4.E.1).
A legal order comes back *resolved*: the unit named as it really stands (type and coast filled
in) and the destination coast filled in where only one coast is reachable. An illegal order comes
back as an `OrderError` whose message says what is wrong; the unit then holds (movement) or the
order is ignored. The A/F rules' checks (Abstraction2 rule 3, Deluge II rule 8) are
gm.engine.army_fleet.legality; gm.engine.order_check checks one order under either.

Order-writing preferences (DATC section 4):
- 4.B.2: a fleet moving to a split-coast province with one reachable coast goes to that coast
  (6.B.2: F Gas - Spa goes to Spa/nc); with two reachable coasts the order is ambiguous (6.B.1).
- 4.B.3: a coast that cannot be reached makes the move illegal (6.B.3).
- 4.B.5, 4.B.6: a wrong coast for the ordered unit, or a coast where none matters (armies,
  provinces without split coasts), is ignored (6.B.10, 6.B.12).
- 4.C.1, 4.C.2: a missing or wrong unit type is ignored; the unit on the board is ordered.
- A move that needs a convoy is legal when a chain of fleets at sea could carry the army
  (DATC 6.D.8: A Gre - Nap with a fleet in ION is a move, not a hold; 6.D.32: A Yor - Hol with
  no fleet in NTH is illegal).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from gm.engine.errors import ErrorCode, ErrorKind, Fields, OrderError, compose, order_error
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitSpec,
    Waive,
)
from gm.engine.reasons import NOTHING, REPLACED, UNREADABLE, Fate, Reason
from gm.engine.results import Outcome, Submitted
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType

# Enum members as module constants (an enum class attribute costs a lookup each time).
_AMBIGUOUS = ErrorKind.AMBIGUOUS
_ILLEGAL = ErrorKind.ILLEGAL
_VOID = Outcome.ILLEGAL
_ARMY = UnitType.ARMY
_ARMY_FLEET = UnitType.ARMY_FLEET
_FLEET = UnitType.FLEET

__all__ = [
    "Board",
    "Entry",
    "MapFacts",
    "check_adjustment_order",
    "check_movement_order",
    "check_on_board",
    "check_retreat_order",
    "convoy_possible",
    "error_reason",
    "fleet_destination",
    "hold_only_error",
    "retreat_places",
    "spec_of",
    "submitted_orders",
    "unreadable",
    "waters_touching",
]


# -- map facts ---------------------------------------------------------------------------------
class MapFacts(NamedTuple):
    """What legality checks ask of a map again and again, derived once per map (through the
    GameMap API, so it holds for any terrain)."""

    passable: frozenset[str]
    water: frozenset[str]
    land: frozenset[str]
    touching: Mapping[str, frozenset[str]]  # province -> waters a fleet can move into it from
    fleet_into: Mapping[Location, Mapping[str, tuple[Location, ...]]]  # loc -> province -> locs

    @staticmethod
    def of(gmap: GameMap) -> MapFacts:
        cached = _FACTS.get(gmap)
        if cached is not None:
            return cached
        water = frozenset(p for p in gmap.terrain if gmap.is_water(p))
        touching: dict[str, set[str]] = {}
        fleet_into: dict[Location, dict[str, list[Location]]] = {}
        for src, dsts in gmap.fleet_adj.items():
            into = fleet_into.setdefault(src, {})
            for dst in dsts:
                into.setdefault(dst.province, []).append(dst)
                if src.province in water:
                    touching.setdefault(dst.province, set()).add(src.province)
        facts = MapFacts(
            passable=frozenset(p for p, t in gmap.terrain.items() if t.is_passable),
            water=water,
            land=frozenset(p for p in gmap.terrain if gmap.is_land(p)),
            touching={p: frozenset(ws) for p, ws in touching.items()},
            fleet_into={
                src: {p: tuple(sorted(locs)) for p, locs in into.items()}
                for src, into in fleet_into.items()
            },
        )
        _FACTS[gmap] = facts
        return facts


_FACTS: weakref.WeakKeyDictionary[GameMap, MapFacts] = weakref.WeakKeyDictionary()
_NO_WATERS: frozenset[str] = frozenset()
_NO_TARGETS: Mapping[str, tuple[Location, ...]] = {}


def waters_touching(gmap: GameMap) -> Mapping[str, frozenset[str]]:
    """For each province, the water provinces from which a fleet can move into it (its convoy
    neighbours)."""
    return MapFacts.of(gmap).touching


class Board(NamedTuple):
    """A position prepared for legality checks: units by province, fleets at sea."""

    gmap: GameMap
    facts: MapFacts
    units: Mapping[str, Unit]
    fleet_waters: frozenset[str]  # water provinces holding a unit that can convoy

    @staticmethod
    def of(gmap: GameMap, state: GameState) -> Board:
        facts = MapFacts.of(gmap)
        units = {u.location.province: u for u in state.units}
        water = facts.water
        waters = frozenset(
            p for p, u in units.items() if p in water and u.type is not _ARMY
        )
        return Board(gmap, facts, units, waters)

    def component(self, start: frozenset[str] | set[str], exclude: str | None = None) -> set[str]:
        """Fleet-held waters connected to `start` through fleet-held waters."""
        touching = self.facts.touching
        fleets = self.fleet_waters
        todo = [w for w in start if w in fleets and w != exclude]
        seen = set(todo)
        while todo:
            w = todo.pop()
            for nxt in touching.get(w, _NO_WATERS):
                if nxt in fleets and nxt not in seen and nxt != exclude:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen


def convoy_possible(board: Board, src: str, dst: str, exclude: str | None = None) -> bool:
    """Could fleets now at sea carry an army from `src` to `dst` (not using `exclude`)?"""
    land = board.facts.land
    if src == dst or src not in land or dst not in land or not board.fleet_waters:
        return False
    touching = board.facts.touching
    ends = touching.get(dst)
    if not ends:
        return False
    reached = board.component(touching.get(src, _NO_WATERS), exclude)
    return not reached.isdisjoint(ends)


def fleet_destination(
    gmap: GameMap, unit: Unit, dest: Location, facts: MapFacts | None = None
) -> Location | tuple[ErrorKind, str]:
    """Where in `dest` a fleet at `unit.location` would go, or why it cannot say or cannot go
    (DATC 4.B.1-4.B.3, 4.B.6)."""
    facts = facts or MapFacts.of(gmap)
    targets = facts.fleet_into.get(unit.location, _NO_TARGETS).get(dest.province, ())
    if not targets:
        return _ILLEGAL, _cannot_reach(gmap, unit, dest.province)
    if dest.coast is not None:
        if dest in targets:
            return dest
        if gmap.is_split(dest.province):
            reachable = " or ".join(str(t) for t in targets)
            return _ILLEGAL, f"{unit} cannot reach {dest}, only {reachable}"
        # 4.B.6: a coast where the province has no split coasts is ignored.
    if len(targets) == 1:
        return targets[0]
    options = " or ".join(str(t) for t in targets)
    return _AMBIGUOUS, f"{unit} - {dest.province}: say which coast, {options}"


def _cannot_reach(gmap: GameMap, unit: Unit, province: str) -> str:
    if unit.type is _ARMY:
        if gmap.is_water(province):
            return f"{unit} cannot move to {province}: an army cannot go to sea"
    elif gmap.is_land(province) and not gmap.is_coastal(province):
        return f"{unit} cannot move to {province}: a fleet cannot go inland"
    if not gmap.adjacent(unit.province, province):
        return f"{unit} cannot move to {province}: not adjacent"
    only = only_crossing(gmap, unit.province, province)
    if only is not None and only != ("fleets" if unit.type.moves_as_fleet else "armies"):
        return f"{unit} cannot move to {province}: only {only} cross that border"
    if (province, unit.province) in getattr(gmap.deriver, "one_way", ()):
        return (f"{unit} cannot move to {province}: that border is crossed from {province} "
                f"to {unit.province} only")
    if unit.type.moves_as_fleet:
        return f"{unit} cannot move to {province}: no coast leads there from {unit.location}"
    return f"{unit} cannot move to {province}"


def only_crossing(gmap: GameMap, a: str, b: str) -> str | None:
    """"armies" or "fleets" if only that kind of unit crosses the border between a and b (map
    data `border A B armies|fleets`), else None."""
    key = (a, b) if a <= b else (b, a)
    if key in getattr(gmap.deriver, "army_only", ()):
        return "armies"
    if key in getattr(gmap.deriver, "fleet_only", ()):
        return "fleets"
    return None


# -- shared pieces ------------------------------------------------------------------------------
def _err(order: object, message: str, kind: ErrorKind = _ILLEGAL) -> OrderError:
    return OrderError(kind, str(order), message)


def _not_in_phase(order: object, phase: str) -> OrderError:
    """NOT_IN_PHASE: an order of a kind a phase of `phase` does not take (named by its class)."""
    return order_error(_ILLEGAL, str(order), ErrorCode.NOT_IN_PHASE,
                       order=type(order).__name__.lower(), phase=phase)


def spec_of(unit: Unit) -> UnitSpec:
    """The unit spec that names `unit` exactly."""
    return UnitSpec(unit.type, unit.location)


def _place_problem(gmap: GameMap, province: str) -> str | None:
    if province not in gmap.terrain:
        return f"{province} is not a province of this map"
    if not gmap.terrain[province].is_passable:
        return f"{province} is impassable"
    return None


def _missing_unit(board: Board, order: object, province: str) -> OrderError:
    problem = _place_problem(board.gmap, province)
    return _err(order, problem or f"no unit in {province}")


def _same(spec: UnitSpec, unit: Unit) -> bool:
    """Does the spec name the unit exactly (type and coast as on the board)?"""
    return spec.type is unit.type and spec.location.coast == unit.location.coast


def _own_unit(board: Board, power: str, order: Order) -> Unit | OrderError:
    """The unit the order is for, if it is there and belongs to `power`."""
    province = order.unit.location.province
    unit = board.units.get(province)
    if unit is None:
        return _missing_unit(board, order, province)
    if unit.power != power:
        return _err(order, f"{unit} belongs to {unit.power}")
    return unit


# -- movement -----------------------------------------------------------------------------------
_MOVEMENT_KINDS = (Hold, Move, SupportHold, SupportMove, Convoy)


def check_movement_order(
    gmap: GameMap, state: GameState, power: str, order: AnyOrder, board: Board | None = None
) -> Order | OrderError:
    """Check a movement-phase order by `power`; return it resolved, or why it is not allowed."""
    return check_on_board(Board.of(gmap, state) if board is None else board, power, order)


def check_on_board(board: Board, power: str, order: AnyOrder) -> Order | OrderError:
    """`check_movement_order` on the board of the position (`Board.of`)."""
    if order.__class__ not in _MOVEMENT_CLASSES and not isinstance(order, _MOVEMENT_KINDS):
        return _not_in_phase(order, "movement")
    # _own_unit and _same, written out: this runs for every order of every phase.
    spec: UnitSpec = order.unit  # type: ignore[union-attr]  # a movement order: it has a unit
    location = spec.location
    unit = board.units.get(location.province)
    if unit is None:
        return _missing_unit(board, order, location.province)
    if unit.power != power:
        return _err(order, f"{unit} belongs to {unit.power}")
    me = spec if spec.type is unit.type and location.coast == unit.location.coast \
        else spec_of(unit)
    # Each class's check called by name (compiled, a direct call), the commonest first.
    if isinstance(order, Move):
        return _check_move(board, unit, me, order)
    if isinstance(order, SupportMove):
        return _check_support_move(board, unit, me, order)
    if isinstance(order, SupportHold):
        return _check_support_hold(board, unit, me, order)
    if isinstance(order, Convoy):
        return _check_convoy(board, unit, me, order)
    assert isinstance(order, Hold)
    return _check_hold(board, unit, me, order)


def _check_hold(board: Board, unit: Unit, me: UnitSpec, order: Hold) -> Hold:
    return order if me is order.unit else Hold(me)


def _check_move(board: Board, unit: Unit, me: UnitSpec, order: Move) -> Move | OrderError:
    gmap = board.gmap
    dest = order.dest.province
    if dest not in board.facts.passable:
        return _err(order, _place_problem(gmap, dest) or f"{dest} is impassable")
    if dest == unit.location.province:
        return _err(order, f"{unit} cannot move to its own province")
    if unit.type is not _ARMY:
        if order.via_convoy:
            return _err(order, f"{unit} cannot be convoyed: only armies can be convoyed")
        where = fleet_destination(gmap, unit, order.dest, board.facts)
        if isinstance(where, tuple):
            return _err(order, where[1], where[0])
        if me is order.unit and where is order.dest:
            return order
        return Move(me, where)
    # An army: coasts do not matter (4.B.6).
    src = unit.location.province
    if dest in gmap.army_adj.get(src, _NO_WATERS) or convoy_possible(board, src, dest):
        if me is order.unit and order.dest.coast is None:
            return order
        return Move(me, Location(dest), order.via_convoy)
    if dest in board.facts.water:
        return _err(order, f"{unit} cannot move to {dest}: an army cannot go to sea")
    if gmap.adjacent(src, dest):
        if only_crossing(gmap, src, dest) == "fleets":
            return _err(order, f"{unit} cannot move to {dest}: only fleets cross that border")
        if (dest, src) in getattr(gmap.deriver, "one_way", ()):
            return _err(order, f"{unit} cannot move to {dest}: that border is crossed from "
                        f"{dest} to {src} only")
        return _err(order, f"{unit} cannot move to {dest}")
    return _err(order, f"{unit} cannot move to {dest}: not adjacent, and no fleets to convoy it")


def _target(board: Board, order: Order, spec: UnitSpec) -> Unit | OrderError:
    target = board.units.get(spec.location.province)
    if target is None:
        return _missing_unit(board, order, spec.location.province)
    return target


def _reach(board: Board, unit: Unit, province: str) -> bool:
    """Could `unit` move into `province` (any coast)? The test for supports."""
    if unit.type is _ARMY:
        return board.gmap.army_can_move(unit.location.province, province)
    return province in board.facts.fleet_into.get(unit.location, _NO_TARGETS)


def _check_support_hold(
    board: Board, unit: Unit, me: UnitSpec, order: SupportHold
) -> SupportHold | OrderError:
    target = _target(board, order, order.target)
    if isinstance(target, OrderError):
        return target
    if target is unit:
        return _err(order, f"{unit} cannot support itself")  # DATC 6.A.8
    if not _reach(board, unit, target.location.province):
        return _err(order, f"{unit} cannot support {target}: it could not move to "
                           f"{target.location.province} itself")
    if me is order.unit and _same(order.target, target):
        return order
    return SupportHold(me, spec_of(target))


def _check_support_move(
    board: Board, unit: Unit, me: UnitSpec, order: SupportMove
) -> SupportMove | OrderError:
    gmap = board.gmap
    target = _target(board, order, order.target)
    if isinstance(target, OrderError):
        return target
    dest = order.dest.province
    if dest not in board.facts.passable:
        return _err(order, _place_problem(gmap, dest) or f"{dest} is impassable")
    src = target.location.province
    if target is unit:
        return _err(order, f"{unit} cannot support its own move")
    if dest == src:
        return _err(order, f"{target} cannot move to its own province")
    if dest == unit.location.province:
        # DATC 6.D.34: a unit cannot support a move into its own province.
        return _err(order, f"{unit} cannot support a move into its own province")
    if not _reach(board, unit, dest):
        # DATC 6.A.10, 6.B.5: the supporter must be able to move there itself.
        return _err(order, f"{unit} cannot support a move to {dest}: it could not move there "
                           "itself")
    same_target = _same(order.target, target)
    if target.type is not _ARMY:
        where = fleet_destination(gmap, target, order.dest, board.facts)
        if isinstance(where, tuple) and where[0] is _ILLEGAL:
            return _err(order, f"the supported move is impossible: {where[1]}")
        # 4.B.4: a support may leave the coast out; a coast given must be reachable.
        coast = order.dest.coast if gmap.is_split(dest) else None
        if me is order.unit and same_target and coast == order.dest.coast:
            return order
        return SupportMove(me, spec_of(target), Location(dest, coast))
    if dest in board.facts.water and not gmap.army_can_move(src, dest):
        return _err(order, f"the supported move is impossible: {target} cannot go to sea")
    if not gmap.army_can_move(src, dest) and not convoy_possible(
        board, src, dest, exclude=unit.location.province
    ):
        # DATC 6.D.31: the supporting fleet cannot also be the convoy.
        return _err(order, f"the supported move is impossible: {target} cannot reach {dest}")
    if me is order.unit and same_target and order.dest.coast is None:
        return order
    return SupportMove(me, spec_of(target), Location(dest))


def _check_convoy(board: Board, unit: Unit, me: UnitSpec, order: Convoy) -> Convoy | OrderError:
    gmap = board.gmap
    if unit.type is _ARMY:
        return _err(order, f"{unit} cannot convoy: only fleets convoy")
    if unit.location.province not in board.facts.water:
        # DATC 6.F.1: no convoys from coastal provinces.
        return _err(order, f"{unit} cannot convoy: only fleets at sea convoy")
    target = _target(board, order, order.target)
    if isinstance(target, OrderError):
        return target
    if target.type is not _ARMY:
        return _err(order, f"{target} cannot be convoyed: only armies can be convoyed")  # 6.A.7
    dest = order.dest.province
    problem = _place_problem(gmap, dest)
    if problem is not None:
        return _err(order, problem)
    if dest == target.province:
        return _err(order, f"{target} cannot move to its own province")  # DATC 6.A.5
    if not gmap.is_land(dest):
        return _err(order, f"{target} cannot be convoyed to {dest}: an army cannot go to sea")
    touching = board.facts.touching
    linked = board.component(frozenset({unit.location.province}))
    if linked.isdisjoint(touching.get(target.location.province, _NO_WATERS)) or \
            linked.isdisjoint(touching.get(dest, _NO_WATERS)):
        # DATC 6.G.7: a fleet that no chain of fleets links to both ends cannot convoy.
        return _err(order, f"{unit} cannot take part in a convoy from "
                           f"{target.location.province} to {dest}")
    if me is order.unit and _same(order.target, target) and order.dest.coast is None:
        return order
    return Convoy(me, spec_of(target), Location(dest))


_MOVEMENT_CLASSES = frozenset(_MOVEMENT_KINDS)


# -- retreats -----------------------------------------------------------------------------------
def _dislodged_in(state: GameState, province: str) -> Dislodged | None:
    for d in state.dislodged:
        if d.unit.province == province:
            return d
    return None


def retreat_places(gmap: GameMap, state: GameState, dislodged: Dislodged) -> tuple[Location, ...]:
    """Where a dislodged unit may retreat: an adjacent place it could move to that is empty after
    the movement, was not left empty by a standoff (DATC 6.H.6, all coasts 6.H.16), and is not
    where its attacker came from (6.H.5) unless the attacker was convoyed (6.H.11)."""
    unit = dislodged.unit
    blocked = {u.province for u in state.units} | set(state.contested)
    if dislodged.attacker_from is not None:
        blocked.add(dislodged.attacker_from)
    if unit.type is _ARMY:
        places = [Location(p) for p in gmap.army_adj.get(unit.province, ())]
    else:
        places = list(gmap.fleet_adj.get(unit.location, ()))
    return tuple(sorted(p for p in places if p.province not in blocked))


def check_retreat_order(
    gmap: GameMap, state: GameState, power: str, order: AnyOrder
) -> Retreat | Disband | OrderError:
    """Check a retreat-phase order: `Retreat` or `Disband` for one of `power`'s dislodged units."""
    if not isinstance(order, (Retreat, Disband)):
        return _not_in_phase(order, "retreat")  # DATC 6.H.1-6.H.4
    province = order.unit.province
    dislodged = _dislodged_in(state, province)
    if dislodged is None:
        return _err(order, f"no dislodged unit in {province}")
    unit = dislodged.unit
    if unit.power != power:
        return _err(order, f"{unit} belongs to {unit.power}")
    me = spec_of(unit)
    if isinstance(order, Disband):
        return Disband(me)
    dest = order.dest.province
    problem = _place_problem(gmap, dest)
    if problem is not None:
        return _err(order, problem)
    if unit.type.moves_as_fleet:
        where = fleet_destination(gmap, unit, order.dest)
        if isinstance(where, tuple):
            return _err(order, where[1], where[0])
        place = where
    else:
        if not gmap.army_can_move(unit.province, dest):
            return _err(order, _cannot_reach(gmap, unit, dest))  # no convoys (6.H.13)
        place = Location(dest)
    if state.unit_in(dest) is not None:
        return _err(order, f"{unit} cannot retreat to {dest}: it is occupied")
    if dest in state.contested:
        return _err(order, f"{unit} cannot retreat to {dest}: it was left empty by a standoff")
    if dest == dislodged.attacker_from:
        return _err(order, f"{unit} cannot retreat to {dest}: the attacker came from there")
    return Retreat(me, place)


# -- adjustments --------------------------------------------------------------------------------
def check_adjustment_order(
    gmap: GameMap,
    state: GameState,
    power: str,
    order: AnyOrder,
    build_sites: Mapping[str, frozenset[str]],
    delta: int,
) -> Build | Remove | Waive | OrderError:
    """Check one adjustment order of `power`, which may build `delta` units (negative: must
    remove). Limits across orders (too many builds, the same place twice) are the resolver's."""
    if isinstance(order, Waive):
        if delta <= 0:
            return _err(order, f"{power} has no builds to waive")
        return order
    if isinstance(order, Disband):  # "A Par disband" in an adjustment phase means removal
        order = Remove(order.unit)
    if isinstance(order, Remove):
        if delta >= 0:
            return _err(order, f"{power} has no units to remove")
        unit = state.unit_in(order.unit.province)
        if unit is None:
            return _err(order, f"no unit in {order.unit.province}")
        if unit.power != power:
            return _err(order, f"{unit} belongs to {unit.power}")
        return Remove(spec_of(unit))
    if not isinstance(order, Build):
        return _not_in_phase(order, "adjustment")
    if delta <= 0:
        return _err(order, f"{power} has no builds")
    province = order.unit.province
    problem = _place_problem(gmap, province)
    if problem is not None:
        return _err(order, problem)
    occupant = state.unit_in(province)
    if occupant is not None:
        return _err(order, f"cannot build in {province}: {occupant} is there")  # 6.I.3, 6.I.4
    sites = build_sites.get(power, frozenset())
    if province not in sites:
        listed = ", ".join(sorted(sites)) or "none"
        return _err(order, f"{power} cannot build in {province} (build sites: {listed})")
    built = _built_unit(gmap, power, order)
    if isinstance(built, OrderError):
        return built
    return Build(spec_of(built))


def _built_unit(gmap: GameMap, power: str, order: Build) -> Unit | OrderError:
    province = order.unit.province
    coast = order.unit.location.coast
    kind = order.unit.type
    split = gmap.is_split(province)
    if kind is None:
        # DATC 4.C.3 (c): army inland, fleet where a coast is named, otherwise ask.
        if split and coast in gmap.coasts[province]:
            kind = _FLEET
        elif gmap.can_occupy(_ARMY, Location(province)) and not gmap.is_coastal(province):
            kind = _ARMY
        else:
            return _err(order, f"Build {province}: say which, an army or a fleet",
                        _AMBIGUOUS)
    if kind is _ARMY_FLEET:  # A/F rules: an army boards a fleet at sea
        return _err(order, "an A/F cannot be built: build an army or a fleet (an army "
                           "boards a fleet at sea to form an A/F)")
    if kind is _ARMY:
        loc = Location(province)
    elif split:
        if coast is None:
            options = " or ".join(f"{province}/{c}" for c in gmap.coasts[province])
            return _err(order, f"Build F {province}: say which coast, {options}",
                        _AMBIGUOUS)  # DATC 6.B.14
        if coast not in gmap.coasts[province]:
            return _err(order, f"{province} has no coast {coast!r}")
        loc = Location(province, coast)
    else:
        loc = Location(province)  # 4.B.6: an irrelevant coast is ignored
    if not gmap.can_occupy(kind, loc):
        return _err(order, f"a {kind.word} cannot be built in {province}")  # DATC 6.I.2
    return Unit(power, kind, loc)


# -- submissions --------------------------------------------------------------------------------
def error_reason(error: OrderError) -> Reason:
    """An order error as the reason of an ILLEGAL result (worded `no unit in Bur`: the outcome
    word is shown beside it, so the reason does not repeat it), its code and fields kept."""
    kind = Fate.AMBIGUOUS if error.kind is _AMBIGUOUS else Fate.ORDER_ERROR
    return Reason(kind, other=_code(error).value, facts=_facts(error))


def unreadable(error: OrderError | None) -> Reason:
    """The reason of an order that could not be read: its error, or "unreadable order"."""
    if error is None:
        return UNREADABLE
    return Reason(Fate.ORDER_ERROR, other=_code(error).value, facts=_facts(error))


def _code(error: OrderError) -> ErrorCode:
    """The error's code, or STATED when its message is not the one its code and fields make."""
    if compose(error.code, error.worded_from) != error.message:
        return ErrorCode.STATED
    return error.code


def _facts(error: OrderError) -> Fields:
    if compose(error.code, error.worded_from) != error.message:
        return (("message", error.message),)
    return error.worded_from


class Entry:
    """A submitted order as a resolver keeps it until the results are written (a plain slotted
    class: one is made for every order of every phase)."""

    __slots__ = ("order", "outcome", "power", "text", "why")

    def __init__(
        self,
        power: str,
        text: str,
        order: AnyOrder | None,
        outcome: Outcome | None = None,  # set for orders void before adjudication
        why: Reason = NOTHING,
    ) -> None:
        self.power = power
        self.text = text
        self.order = order
        self.outcome = outcome
        self.why = why  # why the order is void, as a value (gm.engine.reasons)

    def __repr__(self) -> str:
        return (f"Entry(power={self.power!r}, text={self.text!r}, order={self.order!r}, "
                f"outcome={self.outcome!r}, why={self.why!r})")


Checker = Callable[[str, AnyOrder], AnyOrder | OrderError]


def submitted_orders(
    submitted: Sequence[Submitted], check: Checker, units: Mapping[str, tuple[int, str]]
) -> tuple[list[Entry], dict[int, int], dict[int, int]]:
    """Check each submitted order; the last legal order for a unit is the one it follows.

    `check(power, order)` returns the resolved order or an OrderError; `units` maps a province
    to the index and power of the unit there that orders address. Returns the entries (one per
    submission, resolved where legal), the entry each unit follows (unit index -> entry index)
    and, for units whose power gave them only illegal orders, the last of those (its result then
    tells what became of the unit).

    An illegal order is ignored and replaces nothing (DATC 4.E.1, 4.D.3: only legal orders count
    as orders); of several legal orders for one unit the last counts and the earlier ones are void,
    "replaced by a later order" (an email judge keeps a player's latest order).
    """
    entries: list[Entry] = []
    follows: dict[int, int] = {}
    tried: dict[int, int] = {}
    for idx, sub in enumerate(submitted):
        power, order = sub.power, sub.order
        entry = Entry(power, sub.text, order)
        entries.append(entry)
        if order is None:
            entry.outcome = _VOID
            entry.why = unreadable(sub.error)
            continue
        result = check(power, order)
        if isinstance(result, OrderError):
            entry.outcome = _VOID
            entry.why = error_reason(result)
            if isinstance(order, Order):
                u, owner = units.get(order.unit.location.province, (-1, ""))
                if u >= 0 and owner == power:
                    tried[u] = idx
            continue
        entry.order = result
        if not isinstance(result, Order):
            continue
        u = units[result.unit.location.province][0]
        previous = follows.get(u)
        if previous is not None:
            old = entries[previous]
            old.outcome = _VOID
            old.why = REPLACED
        follows[u] = idx
    return entries, follows, tried



# -- frozen units (Abstraction2 rule 5) ---------------------------------------------------------
def hold_only_error(
    board: Board, power: str, order: AnyOrder, hold_only: frozenset[str]
) -> OrderError | None:
    """Why an order other than Hold is refused for `power`'s unit in a `hold_only` province
    (Abstraction2 rule 5: frozen fleets must stand, may not support nor convoy), or None."""
    if not isinstance(order, Order) or isinstance(order, Hold):
        return None
    province = order.unit.location.province
    unit = board.units.get(province)
    if province not in hold_only or unit is None or unit.power != power:
        return None
    return _err(order, f"{unit} is frozen in: it must stand")
