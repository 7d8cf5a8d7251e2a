"""Order legality under the A/F rules (Abstraction2 rule 3; Deluge II rule 8 adopts them): is an
order possible on this board, before anyone's orders are known?

An army boards a fleet of its own power in an adjacent sea (`check_embark`); an A/F's army lands
next to its sea or the sea its fleet moves to (`check_disembark`); an A/F moves as a fleet and
never enters a coastal province, a convoy ("Fast Ferry") crosses one sea via one fleet, and
landings may be supported (`check_movement_order_af`); an army may retreat onto a fleet of its
own power (`check_retreat_order_af`). Everything else is the standard check, gm.engine.legality.
"""

from __future__ import annotations

from gm.engine.errors import OrderError
from gm.engine.geo import Location
from gm.engine.legality import (
    _NO_WATERS,
    Board,
    MapFacts,
    _dislodged_in,
    _err,
    _own_unit,
    _place_problem,
    _reach,
    _same,
    check_movement_order,
    check_retreat_order,
    hold_only_error,
    retreat_places,
    spec_of,
)
from gm.engine.map import GameMap
from gm.engine.orders import (
    AnyOrder,
    Convoy,
    Disband,
    Disembark,
    Embark,
    Move,
    Order,
    Retreat,
    SupportMove,
    UnitSpec,
)
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType

# Enum members as module constants (an enum class attribute costs a lookup each time).
_ARMY = UnitType.ARMY
_ARMY_FLEET = UnitType.ARMY_FLEET
_FLEET = UnitType.FLEET

__all__ = [
    "check_disembark",
    "check_embark",
    "check_movement_order_af",
    "check_retreat_order_af",
    "ff_waters",
    "landing_seas",
    "retreat_places_af",
]


def ff_waters(board: Board, src: str, dst: str, exclude: str | None = None) -> tuple[str, ...]:
    """The seas whose fleet (not an A/F) could Fast Ferry an army from `src` to `dst`: a
    convoy crosses a single sea space via a single fleet (Abstraction2 rule 3)."""
    touching = board.facts.touching
    both = touching.get(src, _NO_WATERS) & touching.get(dst, _NO_WATERS)
    return tuple(sorted(
        w for w in both
        if w != exclude and (u := board.units.get(w)) is not None and u.type is _FLEET
    ))


def landing_seas(board: Board, sea: str) -> frozenset[str]:
    """The seas an A/F in `sea` could land its army from this phase: its own, or one next to
    it that the A/F moves to first (Abstraction2 rule 3, `A/F(ENG)-MAO, A disembarks Por`)."""
    seas = {sea}
    for loc in board.gmap.fleet_adj.get(Location(sea), ()):
        if loc.province in board.facts.water:
            seas.add(loc.province)
    return frozenset(seas)


def check_movement_order_af(
    gmap: GameMap,
    state: GameState,
    power: str,
    order: AnyOrder,
    board: Board | None = None,
    hold_only: frozenset[str] = frozenset(),
) -> Order | OrderError:
    """`check_movement_order` under the A/F rules (Abstraction2 rule 3): an A/F never enters a
    coastal province and may not Fast Ferry; a convoy ("Fast Ferry") crosses one sea via one
    fleet; an A/F's fleet may support the landing of its own army; others may support an A/F's
    army landing. Embark and Disembark are checked by `check_embark` and `check_disembark`."""
    if board is None:
        board = Board.of(gmap, state)
    if hold_only:
        frozen = hold_only_error(board, power, order, hold_only)
        if frozen is not None:
            return frozen
    if isinstance(order, (Move, SupportMove, Convoy)):
        unit = _own_unit(board, power, order)
        if isinstance(unit, OrderError):
            return unit
        me = order.unit if _same(order.unit, unit) else spec_of(unit)
        special = _check_af(board, unit, me, order)
        if special is not None:
            return special
    return check_movement_order(gmap, state, power, order, board)


def _check_af(
    board: Board, unit: Unit, me: UnitSpec, order: Move | SupportMove | Convoy
) -> Order | OrderError | None:
    """The A/F rules' answer for an order, or None where the standard check applies."""
    gmap = board.gmap
    land = board.facts.land
    if isinstance(order, Move):
        dest = order.dest.province
        if unit.type is _ARMY_FLEET and dest in land and order.unit.type is _ARMY:
            return Disembark(me, Location(dest))  # `A ENG - Bre`: the army of A/F ENG lands
        if unit.type is _ARMY_FLEET and dest in land:
            return _err(order, f"{unit} cannot move to {dest}: an A/F never enters a coastal "
                               "province; its army disembarks instead")
        if unit.type is _ARMY and dest in land and dest in board.facts.passable \
                and not gmap.army_can_move(unit.province, dest):
            if ff_waters(board, unit.province, dest):
                return Move(me, Location(dest), order.via_convoy)
            return _err(order, f"{unit} cannot move to {dest}: not adjacent, and no fleet in a "
                               "sea next to both to Fast Ferry it (one sea space only)")
        return None
    if isinstance(order, Convoy):
        if unit.type is _ARMY_FLEET:
            return _err(order, f"{unit} cannot convoy: an A/F may not Fast Ferry")
        target = board.units.get(order.target.province)
        dest = order.dest.province
        if unit.type is _FLEET and unit.province in board.facts.water \
                and target is not None and target.type is _ARMY and dest in land:
            touching = board.facts.touching
            if unit.province not in touching.get(target.province, _NO_WATERS) or \
                    unit.province not in touching.get(dest, _NO_WATERS):
                return _err(order, f"{unit} cannot Fast Ferry {target} to {dest}: a Fast Ferry "
                                   "crosses one sea space, next to both")
        return None
    target = board.units.get(order.target.province)
    dest = order.dest.province
    if target is None or dest not in land:
        return None
    if target.type is _ARMY_FLEET:
        return _check_landing_support(board, unit, me, order, target)
    if target.type is _ARMY and target is not unit \
            and not gmap.army_can_move(target.province, dest) and dest != unit.province \
            and dest in board.facts.passable and _reach(board, unit, dest) \
            and not ff_waters(board, target.province, dest, exclude=unit.province):
        return _err(order, f"the supported move is impossible: {target} cannot reach {dest} "
                           "(a Fast Ferry crosses one sea space)")
    return None


def _check_landing_support(
    board: Board, unit: Unit, me: UnitSpec, order: SupportMove, target: Unit
) -> SupportMove | OrderError:
    """A support of an A/F's army landing in `order.dest` (Abstraction2 rule 3: `A/F(ENG)
    disembarks A(ENG)-Bre S by F(ENG)`)."""
    dest = order.dest.province
    seas = board.facts.touching.get(dest, _NO_WATERS)
    if target is unit:
        if unit.province not in seas:
            return _err(order, f"{unit} cannot support its army landing in {dest}: "
                               f"{dest} is not next to {unit.province}")
        return SupportMove(me, UnitSpec(_ARMY, unit.location), Location(dest))
    if dest == unit.province:
        return _err(order, f"{unit} cannot support a move into its own province")
    if not _reach(board, unit, dest):
        return _err(order, f"{unit} cannot support a move to {dest}: it could not move there "
                           "itself")
    if seas.isdisjoint(landing_seas(board, target.province)):
        return _err(order, f"the supported move is impossible: the army of {target} cannot "
                           f"land in {dest}")
    return SupportMove(me, spec_of(target), Location(dest))


def check_embark(
    board: Board, power: str, order: Embark, hold_only: frozenset[str] = frozenset()
) -> Embark | OrderError:
    """An army of `power` boards a fleet of `power` in an adjacent sea (Abstraction2 rule 3)."""
    unit = _own_unit(board, power, order)
    if isinstance(unit, OrderError):
        return unit
    if unit.type is not _ARMY:
        return _err(order, f"{unit} cannot board a fleet: only an army boards")
    sea = order.fleet.province
    fleet = board.units.get(sea)
    if fleet is None or fleet.type is _ARMY:
        return _err(order, _place_problem(board.gmap, sea) or f"no fleet in {sea}")
    if fleet.type is _ARMY_FLEET:
        return _err(order, f"{fleet} already carries an army")
    if fleet.power != power:
        return _err(order, f"{fleet} belongs to {fleet.power}: an army boards only a fleet of "
                           "its own power")
    if sea not in board.facts.water:
        return _err(order, f"{fleet} is not at sea: an army boards a fleet in a sea space")
    if sea not in board.facts.touching.get(unit.province, _NO_WATERS):
        return _err(order, f"{unit} cannot board {fleet}: not adjacent")
    if sea in hold_only:
        return _err(order, f"{fleet} is frozen in: it may not carry an army")
    return Embark(spec_of(unit), fleet.location)


def check_disembark(
    board: Board,
    power: str,
    order: Disembark,
    moves_to: str | None = None,
    hold_only: frozenset[str] = frozenset(),
) -> tuple[Disembark, str] | OrderError:
    """An A/F's army lands in a coastal province next to the A/F's sea, or next to `moves_to`,
    the sea the A/F's fleet is ordered to move to (Abstraction2 rule 3). Returns the order
    resolved and the sea the army lands from."""
    unit = _own_unit(board, power, order)
    if isinstance(unit, OrderError):
        return unit
    if unit.type is not _ARMY_FLEET:
        return _err(order, f"{unit} carries no army: only an A/F disembarks")
    if unit.province in hold_only:
        return _err(order, f"{unit} is frozen in: its army cannot disembark")
    dest = order.dest.province
    problem = _place_problem(board.gmap, dest)
    if problem is not None:
        return _err(order, problem)
    if dest not in board.facts.land:
        return _err(order, f"the army of {unit} cannot land in {dest}: it is not land")
    me = spec_of(unit)
    seas = board.facts.touching.get(dest, _NO_WATERS)
    if unit.province in seas:
        return Disembark(me, Location(dest)), unit.province
    if moves_to is not None and moves_to in seas:
        return Disembark(me, Location(dest)), moves_to
    if moves_to is None:
        return _err(order, f"the army of {unit} cannot land in {dest}: not next to "
                           f"{unit.province}")
    return _err(order, f"the army of {unit} cannot land in {dest}: not next to "
                       f"{unit.province} nor to {moves_to}, where the A/F moves")


def retreat_places_af(
    gmap: GameMap, state: GameState, dislodged: Dislodged
) -> tuple[Location, ...]:
    """`retreat_places` under the A/F rules (Abstraction2 rule 3): an A/F retreats as a fleet
    (to a coastal place it becomes a fleet, its army disbanded); an army may also retreat onto
    an adjacent fleet (not an A/F) of its own power in a sea space, forming an A/F."""
    places = retreat_places(gmap, state, dislodged)
    unit = dislodged.unit
    if unit.type is not _ARMY:
        return places
    water = MapFacts.of(gmap).water
    boards = [
        Location(u.province)
        for u in state.units
        if u.type is _FLEET and u.power == unit.power and u.province in water
        and u.province in MapFacts.of(gmap).touching.get(unit.province, _NO_WATERS)
    ]
    return tuple(sorted((*places, *boards)))


def check_retreat_order_af(
    gmap: GameMap, state: GameState, power: str, order: AnyOrder
) -> Retreat | Disband | OrderError:
    """`check_retreat_order` under the A/F rules: also an army's retreat onto a fleet."""
    if isinstance(order, Retreat):
        dislodged = _dislodged_in(state, order.unit.province)
        if dislodged is not None and dislodged.unit.power == power \
                and dislodged.unit.type is _ARMY:
            unit = dislodged.unit
            dest = Location(order.dest.province)
            if dest in retreat_places_af(gmap, state, dislodged) and \
                    dest not in retreat_places(gmap, state, dislodged):
                return Retreat(spec_of(unit), dest)
            there = state.unit_in(dest.province)
            if gmap.is_water(dest.province) and gmap.adjacent(unit.province, dest.province):
                if there is None:
                    why = "an army retreats to sea only onto a fleet of its own power"
                elif there.type is _ARMY_FLEET:
                    why = f"{there} already carries an army"
                elif there.power != power:
                    why = f"{there} belongs to {there.power}: an army retreats only onto a " \
                          "fleet of its own power"
                else:
                    why = f"{there} cannot take it"
                return _err(order, f"{unit} cannot retreat to {dest}: {why}")
    return check_retreat_order(gmap, state, power, order)
