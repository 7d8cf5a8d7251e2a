"""Joins with power preferences (JOIN ... PREFER): kept until the game starts and seats them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from gm.store.models import JoinRequest
from gm.store.powers import address_key


@dataclass(frozen=True)
class JoinRequestRecord:
    id: int
    game_id: int
    address: str
    password_hash: str
    preferences: tuple[str, ...]
    joined_at: datetime


def _record(row: JoinRequest) -> JoinRequestRecord:
    return JoinRequestRecord(row.id, row.game_id, row.address, row.password_hash,
                             tuple(row.preferences), row.joined_at)


def put(session: Session, game_id: int, address: str, password_hash: str,
        preferences: Sequence[str], *, now: datetime) -> bool:
    """Record (or renew) the request of `address`; True if it is new."""
    key = address_key(address)
    row = session.scalar(select(JoinRequest).where(
        JoinRequest.game_id == game_id, JoinRequest.address_key == key))
    new = row is None
    if row is None:
        row = JoinRequest(game_id=game_id, address=address, address_key=key, joined_at=now)
        session.add(row)
    row.password_hash = password_hash
    row.preferences = list(preferences)
    session.flush()
    return new


def requests_for(session: Session, game_id: int) -> list[JoinRequestRecord]:
    rows = session.scalars(select(JoinRequest).where(JoinRequest.game_id == game_id)
                           .order_by(JoinRequest.id))
    return [_record(r) for r in rows]


def drop(session: Session, game_id: int, address: str | None = None) -> None:
    """Remove the game's requests (or the one of `address`)."""
    stmt = delete(JoinRequest).where(JoinRequest.game_id == game_id)
    if address is not None:
        stmt = stmt.where(JoinRequest.address_key == address_key(address))
    session.execute(stmt)


def move(session: Session, old: str, new: str) -> None:
    """The requests of `old` become requests of `new` (SET ADDRESS)."""
    for row in session.scalars(select(JoinRequest).where(
            JoinRequest.address_key == address_key(old))):
        row.address, row.address_key = new, address_key(new)
    session.flush()
