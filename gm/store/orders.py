"""Orders: each submission a power makes for a phase, kept whole, line by line.

A submission (order set) keeps every line as received, with its canonical form when it parsed
or its error when not. A set is valid when no line has an error; the latest valid set of each
power is what adjudication uses, and invalid ones stay on record for the player's reply and the
GM. Orders are accepted only while the phase is open, under the game lock, so an order can never
slip in after its phase was adjudicated.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from gm.store.errors import NotFound, PhaseClosed
from gm.store.games import lock_game
from gm.store.models import OrderLineRow, OrderSet, PhaseRow, Power
from gm.store.powers import power_id
from gm.store.records import OrderLine, OrderSetRecord


def _record(row: OrderSet, power: str) -> OrderSetRecord:
    return OrderSetRecord(
        id=row.id,
        phase_id=row.phase_id,
        power=power,
        inbound_id=row.inbound_id,
        submitted_at=row.submitted_at,
        valid=row.valid,
        lines=tuple(OrderLine(ln.text, ln.canonical, ln.error) for ln in row.lines),
    )


def submit_orders(
    session: Session,
    phase_id: int,
    power: str,
    lines: Sequence[OrderLine],
    *,
    now: datetime,
    inbound_id: int | None = None,
) -> OrderSetRecord:
    """Store a power's submission for an open phase (PhaseClosed once it is adjudicated)."""
    game_id = session.scalar(select(PhaseRow.game_id).where(PhaseRow.id == phase_id))
    if game_id is None:
        raise NotFound(f"no phase with id {phase_id}")
    lock_game(session, game_id)  # adjudication holds this lock while it reads the orders
    closed = session.scalar(select(PhaseRow.adjudicated_at).where(PhaseRow.id == phase_id))
    if closed is not None:
        raise PhaseClosed(f"phase {phase_id} was adjudicated: orders for it are too late")
    row = OrderSet(
        phase_id=phase_id,
        power_id=power_id(session, game_id, power),
        inbound_id=inbound_id,
        submitted_at=now,
        valid=all(line.error is None for line in lines),
        lines=[
            OrderLineRow(position=i, text=ln.text, canonical=ln.canonical, error=ln.error)
            for i, ln in enumerate(lines)
        ],
    )
    session.add(row)
    session.flush()
    return _record(row, power)


def _load_sets(session: Session, *where: ColumnElement[bool]) -> list[OrderSetRecord]:
    """Order sets matching `where`, oldest first, with their lines (two plain queries)."""
    sets = session.execute(
        select(
            OrderSet.id,
            OrderSet.phase_id,
            Power.name,
            OrderSet.inbound_id,
            OrderSet.submitted_at,
            OrderSet.valid,
        )
        .join(Power, Power.id == OrderSet.power_id)
        .where(*where)
        .order_by(OrderSet.id)
    ).all()
    lines: dict[int, list[OrderLine]] = {}
    ids = [r.id for r in sets]
    for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
        for ln in session.execute(
            select(OrderLineRow.set_id, OrderLineRow.text, OrderLineRow.canonical,
                   OrderLineRow.error)
            .where(OrderLineRow.set_id.in_(chunk))
            .order_by(OrderLineRow.set_id, OrderLineRow.position)
        ):
            lines.setdefault(ln.set_id, []).append(OrderLine(ln.text, ln.canonical, ln.error))
    return [
        OrderSetRecord(
            id=r.id,
            phase_id=r.phase_id,
            power=r.name,
            inbound_id=r.inbound_id,
            submitted_at=r.submitted_at,
            valid=r.valid,
            lines=tuple(lines.get(r.id, ())),
        )
        for r in sets
    ]


def order_sets(
    session: Session, phase_id: int, *, power: str | None = None
) -> list[OrderSetRecord]:
    """Every submission for the phase (of one power, if given), oldest first."""
    where = [OrderSet.phase_id == phase_id]
    if power is not None:
        where.append(Power.name == power)
    return _load_sets(session, *where)


def latest_valid_orders(session: Session, phase_id: int) -> dict[str, OrderSetRecord]:
    """Each power's latest valid submission for the phase: the orders adjudication uses."""
    latest = (
        select(func.max(OrderSet.id))
        .where(OrderSet.phase_id == phase_id, OrderSet.valid.is_(True))
        .group_by(OrderSet.power_id)
    )
    return {r.power: r for r in _load_sets(session, OrderSet.id.in_(latest))}


def latest_valid_orders_of_phases(
    session: Session, phase_ids: Collection[int]
) -> dict[int, dict[str, OrderSetRecord]]:
    """`latest_valid_orders` of many phases, by phase id (every phase asked for is a key)."""
    found: dict[int, dict[str, OrderSetRecord]] = {p: {} for p in phase_ids}
    ids = list(phase_ids)
    for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
        latest = (
            select(func.max(OrderSet.id))
            .where(OrderSet.phase_id.in_(chunk), OrderSet.valid.is_(True))
            .group_by(OrderSet.phase_id, OrderSet.power_id)
        )
        for r in _load_sets(session, OrderSet.id.in_(latest)):
            found[r.phase_id][r.power] = r
    return found


def order_sets_for_game(session: Session, game_id: int) -> dict[int, list[OrderSetRecord]]:
    """Every submission of the game, by phase id, oldest first (one call for a whole history)."""
    by_phase: dict[int, list[OrderSetRecord]] = {}
    for record in _load_sets(session, Power.game_id == game_id):
        by_phase.setdefault(record.phase_id, []).append(record)
    return by_phase
