"""Powers in a game: their players' addresses, password, status, draw vote and wait flag."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from gm.store.db import plain
from gm.store.errors import NotFound
from gm.store.models import Power, PowerAddress
from gm.store.rows import PowerRecord
from gm.store.statuses import PowerStatus


def address_key(address: str) -> str:
    """The form under which addresses are compared (case-insensitive)."""
    return address.strip().lower()


def to_record(row: Power) -> PowerRecord:
    return PowerRecord(
        id=row.id,
        game_id=row.game_id,
        name=row.name,
        addresses=tuple(a.address for a in row.addresses),
        password_hash=row.password_hash,
        status=row.status,
        draw_vote=row.draw_vote,
        wait=row.wait,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _addresses(addresses: Sequence[str]) -> list[PowerAddress]:
    rows: list[PowerAddress] = []
    seen: set[str] = set()
    for address in addresses:
        key = address_key(address)
        if key and key not in seen:
            seen.add(key)
            rows.append(PowerAddress(position=len(rows), address=address.strip(), address_key=key))
    return rows


def add_power(
    session: Session,
    game_id: int,
    name: str,
    *,
    now: datetime,
    addresses: Sequence[str] = (),
    password_hash: str | None = None,
    status: PowerStatus = PowerStatus.PLAYING,
) -> PowerRecord:
    row = Power(
        game_id=game_id,
        name=name,
        status=status,
        password_hash=password_hash,
        draw_vote=False,
        wait=False,
        created_at=now,
        updated_at=now,
        addresses=_addresses(addresses),
    )
    session.add(row)
    session.flush()
    return to_record(row)


def _row(session: Session, game_id: int, name: str) -> Power:
    row = session.scalar(select(Power).where(Power.game_id == game_id, Power.name == name))
    if row is None:
        raise NotFound(f"no power {name!r} in game {game_id}")
    return row


def power_id(session: Session, game_id: int, name: str) -> int:
    return _row(session, game_id, name).id


_WITH_ADDRESSES = (  # built once: every sign-on reads its power
    select(Power.id, Power.game_id, Power.name, Power.password_hash, Power.status,
           Power.draw_vote, Power.wait, Power.created_at, Power.updated_at, PowerAddress.address)
    .outerjoin(PowerAddress, PowerAddress.power_id == Power.id)
    .where(Power.game_id == bindparam("game_id"), Power.name == bindparam("name"))
    .order_by(PowerAddress.position)
)


def get_power(session: Session, game_id: int, name: str) -> PowerRecord | None:
    """The power with its addresses (one plain read: the power joined to its addresses)."""
    # on the connection: plain rows, without the ORM's loading
    rows = plain(session).execute(_WITH_ADDRESSES, {"game_id": game_id, "name": name}).all()
    if not rows:
        return None
    r = rows[0]
    return PowerRecord(
        id=r.id, game_id=r.game_id, name=r.name,
        addresses=tuple(x.address for x in rows if x.address is not None),
        password_hash=r.password_hash, status=r.status, draw_vote=r.draw_vote, wait=r.wait,
        created_at=r.created_at, updated_at=r.updated_at)


def list_powers(session: Session, game_id: int) -> list[PowerRecord]:
    rows = session.scalars(select(Power).where(Power.game_id == game_id).order_by(Power.name))
    return [to_record(r) for r in rows]


def powers_of_games(session: Session, game_ids: Collection[int]) -> dict[int, list[PowerRecord]]:
    """`list_powers` of many games, by game id (every game asked for is a key); two plain
    queries."""
    found: dict[int, list[PowerRecord]] = {g: [] for g in game_ids}
    if not found:
        return found
    rows = session.execute(
        select(Power.id, Power.game_id, Power.name, Power.password_hash, Power.status,
               Power.draw_vote, Power.wait, Power.created_at, Power.updated_at)
        .where(Power.game_id.in_(list(found))).order_by(Power.game_id, Power.name)
    ).all()
    addresses: dict[int, list[str]] = {}
    for power_id_, address in session.execute(
        select(PowerAddress.power_id, PowerAddress.address)
        .join(Power, Power.id == PowerAddress.power_id)
        .where(Power.game_id.in_(list(found)))
        .order_by(PowerAddress.power_id, PowerAddress.position)
    ):
        addresses.setdefault(power_id_, []).append(address)
    for r in rows:
        found[r.game_id].append(PowerRecord(
            id=r.id, game_id=r.game_id, name=r.name, addresses=tuple(addresses.get(r.id, ())),
            password_hash=r.password_hash, status=r.status, draw_vote=r.draw_vote, wait=r.wait,
            created_at=r.created_at, updated_at=r.updated_at))
    return found


def powers_played_by(session: Session, address: str) -> list[PowerRecord]:
    """Every power, in any game, that this address plays."""
    stmt = (
        select(Power)
        .join(PowerAddress, PowerAddress.power_id == Power.id)
        .where(PowerAddress.address_key == address_key(address))
        .order_by(Power.game_id, Power.name)
    )
    return [to_record(r) for r in session.scalars(stmt)]


def set_players(
    session: Session, game_id: int, name: str, addresses: Sequence[str], *, now: datetime
) -> PowerRecord:
    """Replace the power's player addresses (an empty list leaves it without a player)."""
    row = _row(session, game_id, name)
    row.addresses.clear()
    session.flush()  # the old rows go before the new ones take their unique keys
    row.addresses.extend(_addresses(addresses))
    row.updated_at = now
    session.flush()
    return to_record(row)


def set_power_password(
    session: Session, game_id: int, name: str, password_hash: str | None, *, now: datetime
) -> PowerRecord:
    row = _row(session, game_id, name)
    row.password_hash = password_hash
    row.updated_at = now
    session.flush()
    return to_record(row)


def set_power_status(
    session: Session, game_id: int, name: str, status: PowerStatus, *, now: datetime
) -> PowerRecord:
    row = _row(session, game_id, name)
    row.status = status
    row.updated_at = now
    session.flush()
    return to_record(row)


def set_power_flags(
    session: Session,
    game_id: int,
    name: str,
    *,
    now: datetime,
    draw_vote: bool | None = None,
    wait: bool | None = None,
) -> PowerRecord:
    """Set the draw vote and/or the wait flag (None leaves a flag as it is)."""
    row = _row(session, game_id, name)
    if draw_vote is not None:
        row.draw_vote = draw_vote
    if wait is not None:
        row.wait = wait
    row.updated_at = now
    session.flush()
    return to_record(row)
