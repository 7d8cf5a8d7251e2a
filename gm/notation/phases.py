"""Reading an order for the phase it is given in.

The same words mean different orders in different phases: in a retreat phase `A Bur - Par`
is a retreat and `Remove A Bur` a disband; in an adjustment phase `A Mos D` removes the unit.
Without a phase every form keeps its natural reading (`R` retreat, `D` disband).
"""

from __future__ import annotations

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.orders import AnyOrder, Disband, Embark, Move, Remove, Retreat
from gm.engine.phase import PhaseType


def read_for_phase(
    order: AnyOrder, phase_type: PhaseType | None, text: str
) -> AnyOrder | OrderError:
    """`order` as meant in a phase of `phase_type` (unchanged when the phase is None)."""
    if phase_type is PhaseType.RETREAT:
        if isinstance(order, Move):
            if order.via_convoy:
                # Rulebook: a dislodged unit retreats to an adjacent space; no convoy.
                return OrderError(
                    ErrorKind.ILLEGAL,
                    text,
                    f'"{text.strip()}": a retreat cannot go by convoy; write a retreat to an '
                    f"adjacent space, e.g. {order.unit} R <province>.",
                )
            return Retreat(order.unit, order.dest)
        if isinstance(order, Remove):
            return Disband(order.unit)
        if isinstance(order, Embark):
            # Abstraction2 rule 3: an army may retreat onto an adjacent fleet of its power.
            return Retreat(order.unit, order.fleet)
    elif phase_type is PhaseType.ADJUSTMENT and isinstance(order, Disband):
        return Remove(order.unit)
    return order
