"""Orders the text alone proves illegal, whatever the board (DATC 6.A.4, 6.A.5, 6.A.8).

Everything that depends on the position (adjacency, whose unit stands where, coasts a fleet
can reach) is checked by gm.engine.legality.
"""

from __future__ import annotations

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.orders import AnyOrder, Convoy, Move, Retreat, SupportHold, SupportMove
from gm.engine.units import UnitType


def text_error(order: AnyOrder, text: str) -> OrderError | None:
    """An ILLEGAL error when the order is impossible as written, else None."""
    reason = _reason(order)
    if reason is None:
        return None
    return OrderError(ErrorKind.ILLEGAL, text, f'"{text.strip()}": {reason}.')


def _reason(order: AnyOrder) -> str | None:
    if isinstance(order, Move | Retreat):
        if order.dest.province == order.unit.province:
            # DATC 6.A.4 (also with a convoy, 6.A.5).
            return "a unit cannot move to the province it is in"
    elif isinstance(order, SupportHold):
        if order.target.province == order.unit.province:
            # DATC 6.A.8: a unit cannot support itself.
            return "a unit cannot support itself"
    elif isinstance(order, SupportMove):
        # `A/F ENG S A ENG - Bre`, `F ENG S A ENG - Bre`, `A/F ENG S A/F ENG - Bre`: an A/F's
        # fleet supporting its army's landing (the board decides whether ENG holds an A/F).
        own_army = order.unit.type in (UnitType.ARMY_FLEET, UnitType.FLEET) and \
            order.target.type in (UnitType.ARMY, UnitType.ARMY_FLEET)
        if order.target.province == order.unit.province and not own_army:
            # An A/F's fleet may support its own army's landing (Abstraction2 rule 3:
            # `A/F ENG S A ENG - Bre`).
            return "a unit cannot support its own move"
        if order.dest.province == order.target.province:
            # DATC 6.A.5: the supported move goes nowhere.
            return "the supported unit cannot move to the province it is in"
        if order.dest.province == order.unit.province:
            # A unit supports only into a province it could move to, never its own.
            return "a unit cannot support a move into its own province"
    elif isinstance(order, Convoy):
        if order.target.province == order.unit.province:
            return "a unit cannot convoy itself"
        if order.dest.province == order.target.province:
            # DATC 6.A.5: the convoyed move goes nowhere.
            return "the convoyed unit cannot move to the province it is in"
    return None
