"""Orders sent ahead (AHEAD): kept per game and power for the next phase of a kind."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from gm.engine.phase import PhaseType
from gm.store.models import OrderAhead


@dataclass(frozen=True)
class OrderAheadRecord:
    id: int
    game_id: int
    power: str
    phase_type: PhaseType
    after_index: int  # for the first phase of its type after this phase index
    text: str
    submitted_at: datetime


def _record(row: OrderAhead) -> OrderAheadRecord:
    return OrderAheadRecord(row.id, row.game_id, row.power, row.phase_type, row.after_index,
                            row.text, row.submitted_at)


def add(session: Session, game_id: int, power: str, phase_type: PhaseType, after_index: int,
        text: str, *, now: datetime) -> None:
    session.add(OrderAhead(game_id=game_id, power=power, phase_type=phase_type,
                           after_index=after_index, text=text, submitted_at=now))
    session.flush()


def of_power(session: Session, game_id: int, power: str) -> list[OrderAheadRecord]:
    rows = session.scalars(select(OrderAhead).where(
        OrderAhead.game_id == game_id, OrderAhead.power == power).order_by(OrderAhead.id))
    return [_record(r) for r in rows]


def of_game(session: Session, game_id: int) -> list[OrderAheadRecord]:
    rows = session.scalars(select(OrderAhead).where(OrderAhead.game_id == game_id)
                           .order_by(OrderAhead.id))
    return [_record(r) for r in rows]


def games_with_orders(session: Session, game_ids: Collection[int]) -> list[int]:
    """Those of `game_ids` with orders ahead (one query, usually answering none)."""
    if not game_ids:
        return []
    return sorted(set(session.scalars(select(OrderAhead.game_id).where(
        OrderAhead.game_id.in_(list(game_ids))))))


def remove(session: Session, ids: Collection[int]) -> None:
    if ids:
        session.execute(delete(OrderAhead).where(OrderAhead.id.in_(list(ids))))


def clear(session: Session, game_id: int, power: str) -> int:
    """Remove the power's orders ahead; how many there were."""
    result = session.execute(delete(OrderAhead).where(
        OrderAhead.game_id == game_id, OrderAhead.power == power))
    return int(result.rowcount)  # type: ignore[attr-defined]
