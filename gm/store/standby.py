"""Standby offers: players ready to take over an abandoned power, of one game or of any."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, or_, select
from sqlalchemy.orm import Session

from gm.store.models import StandbyOffer
from gm.store.powers import address_key


@dataclass(frozen=True)
class StandbyRecord:
    id: int
    game_id: int | None  # None: any game
    address: str
    offered_at: datetime


def _record(row: StandbyOffer) -> StandbyRecord:
    return StandbyRecord(row.id, row.game_id, row.address, row.offered_at)


def _same_game(game_id: int | None) -> ColumnElement[bool]:
    column = StandbyOffer.game_id
    return column.is_(None) if game_id is None else column == game_id


def offer(session: Session, address: str, game_id: int | None, *, now: datetime) -> bool:
    """Record `address` as standing by for `game_id` (None: any game); False if it was already."""
    key = address_key(address)
    found = session.scalar(select(StandbyOffer.id).where(
        StandbyOffer.address_key == key, _same_game(game_id)))
    if found is not None:
        return False
    session.add(StandbyOffer(game_id=game_id, address=address, address_key=key, offered_at=now))
    session.flush()
    return True


def withdraw(session: Session, address: str, game_id: int | None) -> bool:
    """Remove the offer of `address` for `game_id` (None: the offer for any game)."""
    result = session.execute(delete(StandbyOffer).where(
        StandbyOffer.address_key == address_key(address), _same_game(game_id)))
    return bool(result.rowcount)  # type: ignore[attr-defined]


def withdraw_all(session: Session, address: str) -> int:
    """Remove every offer of `address`; how many there were."""
    result = session.execute(delete(StandbyOffer).where(
        StandbyOffer.address_key == address_key(address)))
    return int(result.rowcount)  # type: ignore[attr-defined]


def offers_for(session: Session, game_id: int) -> list[StandbyRecord]:
    """Who stands by for the game: its own offers first, then the offers for any game, oldest
    first in each; an address once."""
    rows = session.scalars(select(StandbyOffer).where(
        or_(StandbyOffer.game_id == game_id, StandbyOffer.game_id.is_(None)))
        .order_by(StandbyOffer.game_id.is_(None), StandbyOffer.offered_at, StandbyOffer.id))
    seen: set[str] = set()
    out = []
    for row in rows:
        if row.address_key not in seen:
            seen.add(row.address_key)
            out.append(_record(row))
    return out


def offers_of(session: Session, address: str) -> list[StandbyRecord]:
    """The offers `address` has made."""
    rows = session.scalars(select(StandbyOffer).where(
        StandbyOffer.address_key == address_key(address)).order_by(StandbyOffer.id))
    return [_record(r) for r in rows]


def move(session: Session, old: str, new: str) -> None:
    """The offers of `old` become offers of `new` (SET ADDRESS)."""
    for row in session.scalars(select(StandbyOffer).where(
            StandbyOffer.address_key == address_key(old))):
        row.address, row.address_key = new, address_key(new)
    session.flush()
