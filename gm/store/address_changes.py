"""Address changes (SET ADDRESS) waiting for their confirmation from the new address, and the
change itself: every seat, standby offer, join and game the old address has moves to the new."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from gm.store import join_requests, standby
from gm.store.models import AddressChange, Game, PowerAddress
from gm.store.powers import address_key
from gm.store.settings import OBSERVERS_KEY

CONFIRM_WITHIN = timedelta(days=7)


@dataclass(frozen=True)
class AddressChangeRecord:
    id: int
    old_address: str
    new_address: str
    code: str
    expires_at: datetime


def ask(session: Session, old: str, new: str, code: str, *, now: datetime) -> None:
    """Record a change from `old` to `new` to be confirmed with `code` (an earlier one of the
    same `old` address is replaced)."""
    session.execute(delete(AddressChange).where(
        AddressChange.old_address == old))
    session.add(AddressChange(old_address=old, new_address=new, new_key=address_key(new),
                              code=code, asked_at=now, expires_at=now + CONFIRM_WITHIN))
    session.flush()


def pending_to(session: Session, new: str, *, now: datetime) -> list[AddressChangeRecord]:
    """The changes to address `new` that can still be confirmed."""
    rows = session.scalars(select(AddressChange).where(
        AddressChange.new_key == address_key(new), AddressChange.expires_at > now)
        .order_by(AddressChange.id))
    return [AddressChangeRecord(r.id, r.old_address, r.new_address, r.code, r.expires_at)
            for r in rows]


def apply(session: Session, change: AddressChangeRecord) -> None:
    """Make the change: the old address's seats (with their passwords), GM seats, standby
    offers and joins become the new address's; the request is removed."""
    old_key, new_key = address_key(change.old_address), address_key(change.new_address)
    for row in session.scalars(select(PowerAddress).where(PowerAddress.address_key == old_key)):
        taken = session.scalar(select(PowerAddress.id).where(
            PowerAddress.power_id == row.power_id, PowerAddress.address_key == new_key))
        if taken is not None:  # the new address plays this power already
            session.delete(row)
        else:
            row.address, row.address_key = change.new_address, new_key
    session.flush()
    for game in session.scalars(select(Game)):
        if address_key(game.gm_address) == old_key:
            game.gm_address = change.new_address
        watching = game.settings.get(OBSERVERS_KEY)
        if isinstance(watching, list) and any(address_key(str(a)) == old_key for a in watching):
            kept = [a for a in watching if address_key(str(a)) not in (old_key, new_key)]
            game.settings = {**game.settings, OBSERVERS_KEY: [*kept, change.new_address]}
    standby.move(session, change.old_address, change.new_address)
    join_requests.move(session, change.old_address, change.new_address)
    session.execute(delete(AddressChange).where(AddressChange.id == change.id))
    session.flush()

