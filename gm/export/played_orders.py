"""The orders an adjudicated phase was played with, for the export: each power's latest valid
submission, and for a power without one the orders its stand-in gave at the deadline
(gm.play.stand_in: DEFEND, REPEAT, BOT), which are not stored as order sets but are in the
phase's results, as the adjudication read them. Replayed, they give the stored position."""

from __future__ import annotations

import functools

from sqlalchemy.orm import Session

from gm.engine.errors import OrderError
from gm.engine.orders import AnyOrder, Build, Disband, Hold, Remove, Retreat, Waive
from gm.engine.phase import PhaseType
from gm.engine.results import Submitted
from gm.notation.stored import stored_order
from gm.play.adjudicate import submissions
from gm.store import submissions as orders_repo
from gm.store.rows import PhaseRecord
from gm.variants import Variant

_RETREATS = (Retreat, Disband)
_ADJUSTMENTS = (Build, Remove, Waive)


def _of_phase(order: AnyOrder, kind: PhaseType) -> bool:
    """Is `order` one of a phase of `kind` (not of a phase the adjudication passed through)?"""
    if kind is PhaseType.RETREAT:
        return isinstance(order, _RETREATS)
    return kind is PhaseType.ADJUSTMENT or not isinstance(order, (*_RETREATS, *_ADJUSTMENTS))


def played_orders(session: Session, variant: Variant, record: PhaseRecord) -> list[Submitted]:
    """`record`'s orders as its adjudication used them (see the module's docstring). A unit
    of a power without orders that held is left out (a unit without an order holds); so are
    the results of the phases the adjudication passed through after `record`'s (a retreat
    no power had a choice in), which are not orders of `record`'s phase."""
    used = orders_repo.latest_valid_orders(session, record.id)
    played = submissions(session, variant, record, used)
    board = functools.cache(lambda: variant.map_for(record.state))
    kind = record.phase.type
    for result in record.results or ():
        if result.power in used or result.canonical is None:
            continue
        order = stored_order(result.order, result.canonical, board, kind, variant.order_kinds)
        if isinstance(order, OrderError) or not _of_phase(order, kind) or (
                kind is PhaseType.MOVEMENT and isinstance(order, Hold)):
            continue
        played.append(Submitted(result.power, result.canonical, order))
    return played


def order_lines(played: list[Submitted]) -> list[str]:
    """`Power: order` for each of `played`, by power (as a scenario case lists them)."""
    return [f"{s.power}: {s.order if s.order is not None else s.text}"
            for s in sorted(played, key=lambda s: s.power)]
