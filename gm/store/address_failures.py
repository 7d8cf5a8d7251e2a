"""Addresses that fail: a seat's (or a game's GM's, `power` None) address the relay refused for
good or that bounced, kept per game (one mark per address and game) from the first failure
(`since`) until mail to it gets through (`clear`, `clear_mark`: gm.service.bounces decides
when). A seat whose address changed (SET ADDRESS, REPLACE) no longer shows the old address's
mark (`failing_in_game` names only addresses the seat or GM still has)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, bindparam, delete, select
from sqlalchemy.orm import Session

from gm.store.models import AddressFailure, Game, Power, PowerAddress
from gm.store.powers import address_key
from gm.store.statuses import GameStatus


@dataclass(frozen=True)
class FailureRecord:
    game_id: int
    power: str | None  # None: the game's GM
    address: str
    reason: str
    subject: str  # the message that bounced
    sent_at: datetime | None
    since: datetime


@dataclass(frozen=True)
class Holder:
    """A game and the seat (None: the GM) that has an address."""

    game_id: int
    power: str | None


def _record(row: AddressFailure) -> FailureRecord:
    return FailureRecord(row.game_id, row.power, row.address, row.reason, row.subject,
                         row.sent_at, row.since)


def holders(session: Session, address: str) -> list[Holder]:
    """The seats and GM seats `address` holds in games not finished, by game."""
    key = address_key(address)
    seats = session.execute(
        select(Power.game_id, Power.name).join(PowerAddress, PowerAddress.power_id == Power.id)
        .join(Game, Game.id == Power.game_id)
        .where(PowerAddress.address_key == key, Game.status != GameStatus.FINISHED)
        .order_by(Power.game_id, Power.name)).tuples().all()
    games = session.scalars(select(Game).where(Game.status != GameStatus.FINISHED)
                            .order_by(Game.id)).all()
    masters = [Holder(g.id, None) for g in games if address_key(g.gm_address) == key]
    return [*(Holder(game_id, power) for game_id, power in seats), *masters]


def mark(session: Session, holder: Holder, address: str, *, reason: str, subject: str,
         sent_at: datetime | None, now: datetime) -> FailureRecord | None:
    """Mark `address` failing for `holder`; the new mark, or None when it was marked already
    (the first failure's time and reason are kept; the message that failed becomes the
    latest one, `sent_at` and `subject`)."""
    key = address_key(address)
    existing = session.scalar(select(AddressFailure).where(
        AddressFailure.game_id == holder.game_id, AddressFailure.address_key == key))
    if existing is not None:
        if sent_at is not None and (existing.sent_at is None or sent_at > existing.sent_at):
            existing.sent_at, existing.subject = sent_at, subject
        return None
    row = AddressFailure(game_id=holder.game_id, power=holder.power, address=address,
                         address_key=key, reason=reason, subject=subject, sent_at=sent_at,
                         since=now)
    session.add(row)
    session.flush()
    return _record(row)


def clear(session: Session, addresses: list[str]) -> list[FailureRecord]:
    """Remove the marks of `addresses` (a delivery to them was accepted); the removed ones."""
    keys = {address_key(a) for a in addresses}
    if not keys:
        return []
    rows = session.scalars(select(AddressFailure).where(AddressFailure.address_key.in_(keys))
                           .order_by(AddressFailure.id)).all()
    if not rows:
        return []
    cleared = [_record(r) for r in rows]
    session.execute(delete(AddressFailure).where(AddressFailure.id.in_([r.id for r in rows])))
    return cleared


def marks_of(session: Session, addresses: list[str]) -> list[FailureRecord]:
    """The marks of `addresses`, in every game."""
    keys = {address_key(a) for a in addresses}
    if not keys:
        return []
    return [_record(r) for r in session.scalars(
        select(AddressFailure).where(AddressFailure.address_key.in_(keys))
        .order_by(AddressFailure.id))]


def clear_mark(session: Session, failure: FailureRecord) -> None:
    """Remove one game's mark of an address."""
    session.execute(delete(AddressFailure).where(
        AddressFailure.game_id == failure.game_id,
        AddressFailure.address_key == address_key(failure.address)))


def any_failing(session: Session | Connection, addresses: list[str]) -> bool:
    """Whether any of `addresses` is marked failing (one cheap query; a plain Connection will
    do)."""
    keys = sorted({address_key(a) for a in addresses})
    return bool(keys) and session.scalar(_ANY_FAILING, {"keys": keys}) is not None


_ANY_FAILING = (  # built once: the sender asks it after every message it sends
    select(AddressFailure.id)
    .where(AddressFailure.address_key.in_(bindparam("keys", expanding=True))).limit(1))


def failing_in_game(session: Session, game_id: int) -> list[FailureRecord]:
    """The game's failing addresses its seats and GM still have, seats first, by power."""
    rows = session.scalars(select(AddressFailure).where(AddressFailure.game_id == game_id)
                           .order_by(AddressFailure.power, AddressFailure.id)).all()
    if not rows:
        return []
    held = {(h.power, address_key(a)) for h, a in _addresses_of_game(session, game_id)}
    return [_record(r) for r in rows if (r.power, r.address_key) in held]


def _addresses_of_game(session: Session, game_id: int) -> list[tuple[Holder, str]]:
    seats = session.execute(
        select(Power.name, PowerAddress.address)
        .join(PowerAddress, PowerAddress.power_id == Power.id)
        .where(Power.game_id == game_id)).tuples().all()
    gm = session.scalar(select(Game.gm_address).where(Game.id == game_id))
    return [*((Holder(game_id, p), a) for p, a in seats),
            *([(Holder(game_id, None), gm)] if gm else [])]


def failing_masters(session: Session) -> list[tuple[str, FailureRecord]]:
    """The GM addresses marked failing (also when the GM plays a seat with it, which holds
    the game's one mark of the address), with their game's name (for the operator)."""
    rows = session.execute(
        select(Game.name, Game.gm_address, AddressFailure)
        .join(Game, Game.id == AddressFailure.game_id).order_by(Game.name)).tuples().all()
    return [(name, _record(row)) for name, gm, row in rows if address_key(gm) == row.address_key]
