"""Phases, the game history: the state before each phase and, once adjudicated, its results.

A game's phases are numbered 0, 1, 2, ... (unique per game). The last one is the current phase;
it is open until its results are recorded, after which it never changes. Recording results is
a conditional update (only while open) and the next phase takes the next index, so no phase can
be adjudicated twice even by two processes; `claim_next_due_phase` makes them not even try.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Select, Table, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.util import identity_key

from gm.engine.phase import Phase
from gm.engine.results import OrderResult
from gm.engine.state import GameState
from gm.store.claims import claiming, require_writer
from gm.store.errors import NotFound, PhaseClosed, PhaseStillOpen
from gm.store.games import lock_game
from gm.store.models import Game, PhaseRow
from gm.store.rows import PhaseRecord, StoredResult
from gm.store.statuses import GameStatus

PHASES = cast(Table, PhaseRow.__table__)  # for plain statements that skip the ORM


def to_record(row: PhaseRow | Any) -> PhaseRecord:
    """The record of a mapped PhaseRow or of a plain row of all its columns."""
    return PhaseRecord(
        id=row.id,
        game_id=row.game_id,
        index=row.phase_index,
        phase=Phase(row.season, row.year, row.type),
        state=GameState.from_json(row.state),
        results=None
        if row.results is None
        else tuple(StoredResult.from_json(r) for r in row.results),
        events=None if row.events is None else tuple(row.events),
        opened_at=row.opened_at,
        deadline_at=row.deadline_at,
        adjudicated_at=row.adjudicated_at,
    )


def _row(session: Session, phase_id: int) -> PhaseRow:
    row = session.get(PhaseRow, phase_id, populate_existing=True)
    if row is None:
        raise NotFound(f"no phase with id {phase_id}")
    return row


def open_phase(
    session: Session,
    game_id: int,
    state: GameState,
    *,
    now: datetime,
    deadline_at: datetime | None = None,
) -> PhaseRecord:
    """Append the game's next phase, starting from `state` (its phase names the phase).

    PhaseStillOpen if the current phase has no results yet.
    """
    lock_game(session, game_id)
    last = session.execute(
        select(PhaseRow.phase_index, PhaseRow.adjudicated_at)
        .where(PhaseRow.game_id == game_id)
        .order_by(PhaseRow.phase_index.desc())
        .limit(1)
    ).first()
    if last is not None and last.adjudicated_at is None:
        raise PhaseStillOpen(f"phase {last.phase_index} of game {game_id} is not adjudicated")
    row = PhaseRow(
        game_id=game_id,
        phase_index=0 if last is None else last.phase_index + 1,
        season=state.phase.season,
        year=state.phase.year,
        type=state.phase.type,
        state=state.to_json(),
        opened_at=now,
        deadline_at=deadline_at,
    )
    session.add(row)
    session.flush()
    return to_record(row)


def open_next_phase(
    session: Session,
    previous: PhaseRecord,
    state: GameState,
    *,
    now: datetime,
    deadline_at: datetime | None = None,
) -> PhaseRecord:
    """`open_phase` after `previous`, the game's last phase, just closed in this transaction
    by the caller, who holds the game lock: one INSERT (the unique phase index still refuses a
    second phase at the same place)."""
    table = PHASES
    new_id = session.execute(
        insert(table).returning(table.c.id),
        {"game_id": previous.game_id, "phase_index": previous.index + 1,
         "season": state.phase.season, "year": state.phase.year, "type": state.phase.type,
         "state": state.to_json(), "opened_at": now, "deadline_at": deadline_at},
    ).scalar_one()
    return PhaseRecord(
        id=new_id, game_id=previous.game_id, index=previous.index + 1, phase=state.phase,
        state=state, results=None, events=None, opened_at=now, deadline_at=deadline_at,
        adjudicated_at=None,
    )


def get_phase(session: Session, phase_id: int) -> PhaseRecord:
    return to_record(_row(session, phase_id))


def phase_at(session: Session, game_id: int, index: int) -> PhaseRecord:
    row = session.scalar(
        select(PhaseRow).where(PhaseRow.game_id == game_id, PhaseRow.phase_index == index)
    )
    if row is None:
        raise NotFound(f"game {game_id} has no phase {index}")
    return to_record(row)


_CURRENT = (  # built once: every order message reads its game's phase
    select(PHASES)
    .where(PHASES.c.game_id == bindparam("game_id"))
    .order_by(PHASES.c.phase_index.desc())
    .limit(1)
)


def current_phase(session: Session, game_id: int) -> PhaseRecord | None:
    """The game's last phase (open unless the game is over), or None before the first."""
    row = session.execute(_CURRENT, {"game_id": game_id}).first()
    return None if row is None else to_record(row)


def current_phases(session: Session, game_ids: Collection[int]) -> dict[int, PhaseRecord]:
    """`current_phase` of many games in one query, by game id (games without phases left out)."""
    if not game_ids:
        return {}
    last = (
        select(PhaseRow.game_id, func.max(PhaseRow.phase_index).label("last"))
        .where(PhaseRow.game_id.in_(list(game_ids)))
        .group_by(PhaseRow.game_id)
        .subquery()
    )
    rows = session.scalars(
        select(PhaseRow)
        .join(last, (last.c.game_id == PhaseRow.game_id) & (last.c.last == PhaseRow.phase_index))
        .execution_options(populate_existing=True)
    )
    return {r.game_id: to_record(r) for r in rows}


def history(session: Session, game_id: int) -> list[PhaseRecord]:
    """Every phase of the game, first to last."""
    rows = session.scalars(
        select(PhaseRow).where(PhaseRow.game_id == game_id).order_by(PhaseRow.phase_index)
    )
    return [to_record(r) for r in rows]


def phase_count(session: Session, game_id: int) -> int:
    return session.scalar(
        select(func.count()).select_from(PhaseRow).where(PhaseRow.game_id == game_id)
    ) or 0


def set_deadline(session: Session, phase_id: int, deadline_at: datetime | None) -> PhaseRecord:
    """Move the deadline of an open phase (PhaseClosed once adjudicated)."""
    done = session.execute(
        update(PhaseRow)
        .where(PhaseRow.id == phase_id, PhaseRow.adjudicated_at.is_(None))
        .values(deadline_at=deadline_at)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        _row(session, phase_id)  # NotFound if there is no such phase
        raise PhaseClosed(f"phase {phase_id} is adjudicated: its deadline cannot change")
    return to_record(_row(session, phase_id))


def record_results(
    session: Session,
    phase_id: int,
    results: Sequence[OrderResult | StoredResult],
    *,
    now: datetime,
    events: Sequence[str] = (),
) -> PhaseRecord:
    """Store the phase's results, closing it for good (PhaseClosed if it was closed already)."""
    close_phase(session, phase_id, results, now=now, events=events)
    return to_record(_row(session, phase_id))


def close_phase(
    session: Session,
    phase_id: int,
    results: Sequence[OrderResult | StoredResult],
    *,
    now: datetime,
    events: Sequence[str] = (),
) -> None:
    """`record_results` without reading the phase back (one UPDATE)."""
    stored = [(r if isinstance(r, StoredResult) else StoredResult.of(r)).to_json() for r in results]
    table = PHASES
    done = session.execute(
        update(table)
        .where(table.c.id == phase_id, table.c.adjudicated_at.is_(None))
        .values(results=stored, events=list(events), adjudicated_at=now)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        _row(session, phase_id)
        raise PhaseClosed(f"phase {phase_id} was adjudicated already")
    loaded = session.identity_map.get(identity_key(PhaseRow, phase_id))
    if loaded is not None:  # the row changed under the session: read it again when used
        session.expire(loaded)


# a phase to open after `previous` (the game's last, closed in this transaction): previous,
# the state, the deadline
NewPhase = tuple[PhaseRecord, GameState, datetime | None]


def open_phases(session: Session, opening: Sequence[NewPhase], *, now: datetime) -> None:
    """`open_next_phase` for many games in one multi-row INSERT, when nobody needs the new
    phases' ids now."""
    if not opening:
        return
    session.execute(insert(PHASES).returning(PHASES.c.id), [  # RETURNING: one multi-row
        {"game_id": previous.game_id, "phase_index": previous.index + 1,
         "season": state.phase.season, "year": state.phase.year, "type": state.phase.type,
         "state": state.to_json(), "opened_at": now, "deadline_at": deadline_at}
        for previous, state, deadline_at in opening])


ClosedPhase = tuple[int, Sequence[OrderResult | StoredResult], Sequence[str]]  # id, results, events


def close_phases(session: Session, closing: Sequence[ClosedPhase], *, now: datetime) -> None:
    """`close_phase` for many phases in one UPDATE run for each (one round trip on PostgreSQL:
    psycopg pipelines them); PhaseClosed if any was adjudicated already."""
    if not closing:
        return
    table = PHASES
    done = session.execute(
        update(table)
        .where(table.c.id == bindparam("p_id"), table.c.adjudicated_at.is_(None))
        .values(results=bindparam("p_results"), events=bindparam("p_events"),
                adjudicated_at=bindparam("p_at")),
        [{"p_id": phase_id,
          "p_results": [(r if isinstance(r, StoredResult) else StoredResult.of(r)).to_json()
                        for r in results],
          "p_events": list(events), "p_at": now} for phase_id, results, events in closing])
    if done.rowcount != len(closing):  # type: ignore[attr-defined]
        raise PhaseClosed(f"one of phases {[c[0] for c in closing]} was adjudicated already")
    for phase_id, _results, _events in closing:
        loaded = session.identity_map.get(identity_key(PhaseRow, phase_id))
        if loaded is not None:  # the row changed under the session: read it again when used
            session.expire(loaded)


def _due_query(now: datetime) -> Select[tuple[int, int]]:
    return (
        select(PhaseRow.id, PhaseRow.game_id)
        .join(Game, Game.id == PhaseRow.game_id)
        .where(
            Game.status == GameStatus.ACTIVE,
            PhaseRow.adjudicated_at.is_(None),
            PhaseRow.deadline_at <= now,
        )
        .order_by(PhaseRow.deadline_at, PhaseRow.id)
    )


def next_deadline(session: Session, after: datetime) -> datetime | None:
    """The earliest deadline after `after` of an open phase of an active game."""
    return session.scalar(
        select(func.min(PhaseRow.deadline_at))
        .join(Game, Game.id == PhaseRow.game_id)
        .where(Game.status == GameStatus.ACTIVE, PhaseRow.adjudicated_at.is_(None),
               PhaseRow.deadline_at > after))


def due_phases(session: Session, now: datetime, *, limit: int = 100) -> list[PhaseRecord]:
    """Open phases of active games whose deadline has passed, earliest deadline first
    (a listing only: adjudicate through `claim_due_phase` or `claim_next_due_phase`)."""
    ids = [r.id for r in session.execute(_due_query(now).limit(limit))]
    return [to_record(_row(session, i)) for i in ids]


def _still_due(session: Session, game_id: int, now: datetime) -> PhaseRecord | None:
    """With the game locked: its open phase if the game is active and the deadline passed.
    Read afresh, so a phase another worker adjudicated meanwhile is seen as adjudicated."""
    status = session.scalar(select(Game.status).where(Game.id == game_id))
    phase = current_phase(session, game_id)
    if status is not GameStatus.ACTIVE or phase is None or phase.adjudicated:
        return None
    if phase.deadline_at is None or phase.deadline_at > now:
        return None
    return phase


def claim_due_phase(session: Session, game_id: int, now: datetime) -> PhaseRecord | None:
    """Lock the game and return its phase if that is due; None if it is not due or another
    worker holds the game. The claim lasts until the transaction ends: adjudicate, record the
    results and open the next phase in this same transaction."""
    require_writer(session)
    if not lock_game(session, game_id, skip_locked=True):
        return None
    return _still_due(session, game_id, now)


def claim_next_due_phase(session: Session, now: datetime) -> PhaseRecord | None:
    """Claim the due phase with the earliest deadline among games no other worker holds."""
    require_writer(session)
    passed: set[int] = set()
    while True:
        stmt = _due_query(now)
        if passed:
            stmt = stmt.where(PhaseRow.game_id.not_in(passed))
        candidate = session.execute(claiming(stmt.limit(1), skip_locked=True, of=Game)).first()
        if candidate is None:
            return None
        phase = _still_due(session, candidate.game_id, now)
        if phase is not None:
            return phase
        passed.add(candidate.game_id)  # adjudicated by another worker since the query began


def rollback_to(
    session: Session,
    game_id: int,
    index: int,
    *,
    actor: str,
    now: datetime,
    deadline_at: datetime | None = None,
    inbound_id: int | None = None,
) -> PhaseRecord:
    """The GM's ROLLBACK: phase `index` becomes the open phase again, opened `now` (its results
    cleared, its orders kept: orders older than the opening do not make it process early);
    later phases and their orders are removed. Nothing is lost: the removed rows
    go, whole, into an audit-log entry ("rollback") in the same transaction."""
    from gm.store.audit import record_action
    from gm.store.submissions import order_sets

    lock_game(session, game_id)
    target = phase_at(session, game_id, index)
    later = [p for p in history(session, game_id) if p.index >= index]
    archived = [
        {
            "index": p.index,
            "phase": str(p.phase),
            "state": p.state.to_json(),
            "results": None if p.results is None else [r.to_json() for r in p.results],
            "events": None if p.events is None else list(p.events),
            "deadline_at": None if p.deadline_at is None else p.deadline_at.isoformat(),
            "adjudicated_at": None if p.adjudicated_at is None else p.adjudicated_at.isoformat(),
            "orders": [
                {
                    "power": s.power,
                    "submitted_at": s.submitted_at.isoformat(),
                    "inbound_id": s.inbound_id,
                    "valid": s.valid,
                    "lines": [[ln.text, ln.canonical, ln.error] for ln in s.lines],
                }
                for s in order_sets(session, p.id)
            ]
            if p.index > index
            else [],
        }
        for p in later
    ]
    record_action(
        session,
        actor=actor,
        action="rollback",
        now=now,
        game_id=game_id,
        details={"to": index, "phase": str(target.phase), "discarded": archived},
        inbound_id=inbound_id,
    )
    session.execute(
        delete(PhaseRow).where(PhaseRow.game_id == game_id, PhaseRow.phase_index > index)
    )
    session.execute(
        update(PhaseRow)
        .where(PhaseRow.id == target.id)
        .values(results=None, events=None, adjudicated_at=None, deadline_at=deadline_at,
                opened_at=now)
    )
    session.expire_all()
    return get_phase(session, target.id)


def unstart(
    session: Session, game_id: int, *, actor: str, now: datetime, inbound_id: int | None = None
) -> None:
    """The GM's UNSTART: the game's phases (only its first, not adjudicated) and their orders
    are removed, the game is forming again. What is removed goes, whole, into an audit-log
    entry ("unstart") in the same transaction."""
    from gm.store.audit import record_action
    from gm.store.games import set_game_status
    from gm.store.submissions import order_sets

    lock_game(session, game_id)
    removed = [
        {
            "index": p.index,
            "phase": str(p.phase),
            "state": p.state.to_json(),
            "deadline_at": None if p.deadline_at is None else p.deadline_at.isoformat(),
            "orders": [
                {"power": s.power, "submitted_at": s.submitted_at.isoformat(),
                 "inbound_id": s.inbound_id, "valid": s.valid,
                 "lines": [[ln.text, ln.canonical, ln.error] for ln in s.lines]}
                for s in order_sets(session, p.id)
            ],
        }
        for p in history(session, game_id)
    ]
    record_action(session, actor=actor, action="unstart", now=now, game_id=game_id,
                  details={"discarded": removed}, inbound_id=inbound_id)
    session.execute(delete(PhaseRow).where(PhaseRow.game_id == game_id))
    session.expire_all()
    set_game_status(session, game_id, GameStatus.FORMING, now=now)
