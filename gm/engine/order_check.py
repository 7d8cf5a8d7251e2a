"""One order as a player submits it, checked for the phase its game is in: under the standard
rules (gm.engine.legality) or, for a variant that plays them, the A/F rules
(gm.engine.army_fleet.legality; Abstraction2 rule 3, Deluge II rule 8)."""

from __future__ import annotations

from collections.abc import Mapping

from gm.engine.army_fleet.legality import (
    check_disembark,
    check_embark,
    check_movement_order_af,
    check_retreat_order_af,
    landing_seas,
)
from gm.engine.errors import OrderError
from gm.engine.legality import (
    Board,
    check_adjustment_order,
    check_movement_order,
    check_retreat_order,
)
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder, Disembark, Embark
from gm.engine.phase import PhaseType
from gm.engine.state import GameState

# Enum members as module constants (an enum class attribute costs a lookup each time).
_MOVEMENT = PhaseType.MOVEMENT
_RETREAT = PhaseType.RETREAT

__all__ = ["check_order"]


def check_order(
    gmap: GameMap,
    state: GameState,
    power: str,
    order: AnyOrder,
    build_sites: Mapping[str, frozenset[str]] | None = None,
    delta: int | None = None,
    army_fleet: bool = False,
) -> AnyOrder | OrderError:
    """Check one order of `power` for the phase `state.phase` is in.

    For adjustment phases, `build_sites` are where each power may build now and `delta` is the
    power's centres minus units (computed from `state` and the map's centres if left out).
    With `army_fleet`, the A/F rules apply (Abstraction2 rule 3, Deluge II rule 8): Embark and
    Disembark are checked too (a landing next to the A/F's sea or a sea next to it).
    """
    ptype = state.phase.type
    if ptype is _MOVEMENT and army_fleet:
        board = Board.of(gmap, state)
        if isinstance(order, Embark):
            return check_embark(board, power, order)
        if isinstance(order, Disembark):
            unit = board.units.get(order.unit.province)
            seas = landing_seas(board, unit.province) if unit is not None else frozenset()
            first = check_disembark(board, power, order)
            for sea in sorted(seas):
                if not isinstance(first, OrderError):
                    break
                first = check_disembark(board, power, order, moves_to=sea)
            return first if isinstance(first, OrderError) else first[0]
        return check_movement_order_af(gmap, state, power, order, board)
    if ptype is _MOVEMENT:
        return check_movement_order(gmap, state, power, order)
    if ptype is _RETREAT and army_fleet:
        return check_retreat_order_af(gmap, state, power, order)
    if ptype is _RETREAT:
        return check_retreat_order(gmap, state, power, order)
    if delta is None:
        owned = sum(1 for c, p in state.owners.items() if p == power and c in gmap.centres)
        delta = owned - len(state.units_of(power))
    return check_adjustment_order(gmap, state, power, order, build_sites or {}, delta)
