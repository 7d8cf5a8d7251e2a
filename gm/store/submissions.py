"""Orders: each submission a power makes for a phase, kept whole, line by line.

A submission (order set) keeps every line as received, with its canonical form and the order as
a value (gm.engine.order_json: read back without the grammar) when it parsed, or its error when
not. A set is valid when no line has an error; the latest valid set of each
power is what adjudication uses, and invalid ones stay on record for the player's reply and the
GM. Orders are accepted only while the phase is open, under the game lock, so an order can never
slip in after its phase was adjudicated (a message's orders take it at the commit and check the
phase again there: gm.store.commit_locks).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, Row, Table, bindparam, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from gm.engine.order_json import decoded
from gm.store.commit_locks import lock_at_commit
from gm.store.db import plain
from gm.store.errors import NotFound, PhaseClosed
from gm.store.games import lock_game
from gm.store.models import OrderLineRow, OrderSet, PhaseRow, Power
from gm.store.powers import power_id
from gm.store.rows import OrderLine, OrderSetRecord, order_value

# Built once (every order message runs them; a statement built anew costs more than its run).
_PHASE_AND_POWER = (
    select(PhaseRow.game_id, PhaseRow.adjudicated_at, Power.id)
    .outerjoin(Power, (Power.game_id == PhaseRow.game_id) & (Power.name == bindparam("power")))
    .where(PhaseRow.id == bindparam("phase_id"))
)
_SETS = cast(Table, OrderSet.__table__)
_NEW_SET = insert(_SETS).returning(_SETS.c.id)
_NEW_SET_OF_POWER = (  # the power's id read within the INSERT (the caller read the phase)
    insert(_SETS)
    .values(power_id=select(Power.id)
            .where(Power.game_id == bindparam("of_game"), Power.name == bindparam("of_power"))
            .scalar_subquery())
    .returning(_SETS.c.id))
_NEW_LINES = insert(cast(Table, OrderLineRow.__table__))
_LATEST_OF_POWER = (  # a power's latest valid set joined to its lines
    select(OrderSet.id, OrderSet.phase_id, OrderSet.inbound_id, OrderSet.submitted_at,
           OrderSet.valid, OrderLineRow.text, OrderLineRow.canonical, OrderLineRow.error,
           OrderLineRow.value, OrderLineRow.position)
    .outerjoin(OrderLineRow, OrderLineRow.set_id == OrderSet.id)
    .where(OrderSet.id == (
        select(OrderSet.id)
        .join(Power, Power.id == OrderSet.power_id)
        .where(OrderSet.phase_id == bindparam("phase_id"), Power.name == bindparam("power"),
               OrderSet.valid.is_(True), OrderSet.late.is_(False))
        .order_by(OrderSet.id.desc())
        .limit(1)
        .scalar_subquery()))
    .order_by(OrderLineRow.position)
)


def submit_orders(
    session: Session,
    phase_id: int,
    power: str,
    lines: Sequence[OrderLine],
    *,
    now: datetime,
    inbound_id: int | None = None,
    game_id: int | None = None,
    late: bool = False,
    at_commit: bool = False,
    read_open: bool = False,
) -> OrderSetRecord:
    """Store a power's submission for an open phase (PhaseClosed once it is adjudicated), or,
    `late`, for an adjudicated phase it arrived in time for (kept aside: `take_late`).
    `game_id`, the phase's game, saves a look-up when the caller knows it. Plain statements:
    the game lock, one read of the phase and power, one INSERT of the set, one of its lines.
    `at_commit`: the game lock is taken at the commit, with the phase checked again then
    (gm.store.commit_locks), not now. `read_open`: the caller read the phase open (or, `late`,
    adjudicated), in game `game_id`, and the power there, in this transaction (on SQLite its
    write lock has kept them so since; on PostgreSQL, with `at_commit`, the phase is checked
    again at the commit): the set is stored in one INSERT, which reads the power's id."""
    if read_open and game_id is not None:
        return _insert_set(session, phase_id, power, lines, now=now, inbound_id=inbound_id,
                           game_id=game_id, late=late, at_commit=at_commit)
    if game_id is None:
        game_id = session.scalar(select(PhaseRow.game_id).where(PhaseRow.id == phase_id))
        if game_id is None:
            raise NotFound(f"no phase with id {phase_id}")
    _lock(session, game_id, phase_id, late=late, at_commit=at_commit)
    conn = plain(session)  # plain statements, without the ORM's loading and flushing
    found = conn.execute(_PHASE_AND_POWER, {"phase_id": phase_id, "power": power}).first()
    if found is None or found.game_id != game_id:
        raise NotFound(f"no phase with id {phase_id} in game {game_id}")
    if found.adjudicated_at is not None and not late:
        raise PhaseClosed(f"phase {phase_id} was adjudicated: orders for it are too late")
    if found.id is None:
        power_id(session, game_id, power)  # raises NotFound
    valid = all(line.error is None for line in lines)
    set_id = conn.execute(
        _NEW_SET,
        {"phase_id": phase_id, "power_id": found.id, "inbound_id": inbound_id,
         "submitted_at": now, "valid": valid, "late": late},
    ).scalar_one()
    return _with_lines(conn, set_id, phase_id, power, lines, now=now, inbound_id=inbound_id,
                       valid=valid)


def _lock(session: Session, game_id: int, phase_id: int, *, late: bool, at_commit: bool
          ) -> None:
    """The game lock a stored set needs: adjudication holds it while it reads the orders (on
    SQLite every writing transaction holds the database's write lock from its BEGIN
    IMMEDIATE); `at_commit`, taken at the commit (gm.store.commit_locks)."""
    if session.get_bind().dialect.name == "sqlite":
        return
    if at_commit:
        lock_at_commit(session, game_id, phase_id, late=late)
    else:
        lock_game(session, game_id)


def _with_lines(conn: Connection, set_id: int, phase_id: int, power: str,
                lines: Sequence[OrderLine], *, now: datetime, inbound_id: int | None,
                valid: bool) -> OrderSetRecord:
    """Set `set_id`'s lines stored, and its record."""
    _insert_lines(conn, set_id, lines)
    return OrderSetRecord(
        id=set_id, phase_id=phase_id, power=power, inbound_id=inbound_id, submitted_at=now,
        valid=valid, lines=tuple(lines))


def _insert_set(session: Session, phase_id: int, power: str, lines: Sequence[OrderLine], *,
                now: datetime, inbound_id: int | None, game_id: int, late: bool,
                at_commit: bool) -> OrderSetRecord:
    """`submit_orders` for a phase and power the caller read in this transaction."""
    _lock(session, game_id, phase_id, late=late, at_commit=at_commit)
    conn = plain(session)
    valid = all(line.error is None for line in lines)
    set_id = conn.execute(
        _NEW_SET_OF_POWER,
        {"phase_id": phase_id, "of_game": game_id, "of_power": power, "inbound_id": inbound_id,
         "submitted_at": now, "valid": valid, "late": late},
    ).scalar_one()
    return _with_lines(conn, set_id, phase_id, power, lines, now=now, inbound_id=inbound_id,
                       valid=valid)


def _insert_lines(conn: Connection, set_id: int, lines: Sequence[OrderLine]) -> None:
    """The set's lines, in one INSERT."""
    if lines:
        conn.execute(_NEW_LINES, [
            {"set_id": set_id, "position": i, "text": ln.text, "canonical": ln.canonical,
             "error": ln.error, "value": order_value(ln.order)}
            for i, ln in enumerate(lines)])


def _line(row: Row[Any]) -> OrderLine:
    """An order line as read, its value decoded (gm.engine.order_json)."""
    return OrderLine(row.text, row.canonical, row.error, decoded(row.value))


def _load_sets(session: Session, *where: ColumnElement[bool],
               late: bool = False) -> list[OrderSetRecord]:
    """Order sets matching `where` (kept aside as read late, or not), oldest first, with their
    lines (two plain queries)."""
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
        .where(OrderSet.late.is_(late), *where)
        .order_by(OrderSet.id)
    ).all()
    lines: dict[int, list[OrderLine]] = {}
    ids = [r.id for r in sets]
    for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
        for ln in session.execute(
            select(OrderLineRow.set_id, OrderLineRow.text, OrderLineRow.canonical,
                   OrderLineRow.error, OrderLineRow.value)
            .where(OrderLineRow.set_id.in_(chunk))
            .order_by(OrderLineRow.set_id, OrderLineRow.position)
        ):
            lines.setdefault(ln.set_id, []).append(_line(ln))
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
        .where(OrderSet.phase_id == phase_id, OrderSet.valid.is_(True),
               OrderSet.late.is_(False))
        .group_by(OrderSet.power_id)
    )
    return {r.power: r for r in _load_sets(session, OrderSet.id.in_(latest))}


def refused_last(session: Session, phase_id: int) -> set[str]:
    """The powers whose latest submission for the phase is not valid (a message of theirs had
    a refused line, and no clean one came after it): their orders stand, but they are not
    ready (njudge `data/deadlines`: "An error free set of orders will be required to set the
    'has submitted orders' status")."""
    latest = (
        select(func.max(OrderSet.id))
        .where(OrderSet.phase_id == phase_id)
        .group_by(OrderSet.power_id)
    )
    return set(session.scalars(
        select(Power.name).join(OrderSet, OrderSet.power_id == Power.id)
        .where(OrderSet.id.in_(latest), OrderSet.valid.is_(False))))


def latest_valid_orders_of(session: Session, phase_id: int,
                           power: str) -> OrderSetRecord | None:
    """One power's latest valid submission for the phase (what `latest_valid_orders` has for
    it), or None."""
    rows = plain(session).execute(
        _LATEST_OF_POWER, {"phase_id": phase_id, "power": power}).all()
    if not rows:
        return None
    r = rows[0]
    return OrderSetRecord(
        id=r.id, phase_id=r.phase_id, power=power, inbound_id=r.inbound_id,
        submitted_at=r.submitted_at, valid=r.valid,
        lines=tuple(_line(x) for x in rows if x.position is not None))


def latest_valid_orders_of_phases(
    session: Session, phase_ids: Collection[int]
) -> dict[int, dict[str, OrderSetRecord]]:
    """`latest_valid_orders` of many phases, by phase id (every phase asked for is a key)."""
    found: dict[int, dict[str, OrderSetRecord]] = {p: {} for p in phase_ids}
    ids = list(phase_ids)
    for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
        latest = (
            select(func.max(OrderSet.id))
            .where(OrderSet.phase_id.in_(chunk), OrderSet.valid.is_(True),
                   OrderSet.late.is_(False))
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


def late_sets(session: Session, phase_id: int) -> list[OrderSetRecord]:
    """The submissions for an adjudicated phase that arrived while it was open but were read
    after it was adjudicated, oldest first (not among its orders until `take_late`)."""
    return _load_sets(session, OrderSet.phase_id == phase_id, late=True)


def phases_with_late_sets(session: Session, since: datetime) -> list[int]:
    """The phases that have submissions kept aside as read late, read since `since` (those
    the GM may not have been told of yet: older ones are not looked at again)."""
    return list(session.scalars(
        select(OrderSet.phase_id)
        .where(OrderSet.late.is_(True), OrderSet.submitted_at >= since).distinct()
        .order_by(OrderSet.phase_id)))


def take_late(session: Session, phase_id: int) -> int:
    """Make the phase's late submissions its orders (each newer than the power's earlier ones,
    so the latest); how many there were."""
    taken = session.execute(
        update(OrderSet).where(OrderSet.phase_id == phase_id, OrderSet.late.is_(True))
        .values(late=False).execution_options(synchronize_session=False))
    return int(getattr(taken, "rowcount", 0) or 0)
