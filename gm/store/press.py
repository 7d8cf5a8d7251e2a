"""Press: messages between powers (and from the GM), kept per game."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from gm.store.models import PressMessage
from gm.store.rows import PressRecord

# Marks among a stored press's recipients, beside the powers (and "GM") it was sent to: it was
# sent to the observers; the GM got a copy of partial press (SET ALL PRESS).
OBSERVERS = "Observers"
GM_COPY = "GM copy"


def to_record(row: PressMessage) -> PressRecord:
    return PressRecord(
        id=row.id,
        game_id=row.game_id,
        phase_id=row.phase_id,
        from_power=row.from_power,
        from_address=row.from_address,
        to_powers=tuple(row.to_powers),
        broadcast=row.broadcast,
        anonymous=row.anonymous,
        body=row.body,
        inbound_id=row.inbound_id,
        sent_at=row.sent_at,
    )


def record_press(
    session: Session,
    game_id: int,
    *,
    from_power: str | None,
    from_address: str,
    body: str,
    now: datetime,
    to_powers: Sequence[str] = (),
    broadcast: bool = False,
    anonymous: bool = False,
    phase_id: int | None = None,
    inbound_id: int | None = None,
) -> PressRecord:
    """Store a press message: to every power when `broadcast`, else to `to_powers`.
    `from_power` None means the GM."""
    row = PressMessage(
        game_id=game_id,
        phase_id=phase_id,
        from_power=from_power,
        from_address=from_address,
        to_powers=list(to_powers),
        broadcast=broadcast,
        anonymous=anonymous,
        body=body,
        inbound_id=inbound_id,
        sent_at=now,
    )
    session.add(row)
    session.flush()
    return to_record(row)


def list_press(
    session: Session, game_id: int, *, visible_to: str | None = None
) -> list[PressRecord]:
    """The game's press, oldest first; with `visible_to`, only what that power sent or was sent."""
    rows = session.scalars(
        select(PressMessage).where(PressMessage.game_id == game_id).order_by(PressMessage.id)
    )
    records = [to_record(r) for r in rows]
    if visible_to is None:
        return records
    return [
        r
        for r in records
        if r.broadcast or r.from_power == visible_to or visible_to in r.to_powers
    ]


def press_of_games(session: Session, game_ids: Collection[int]) -> dict[int, list[PressRecord]]:
    """`list_press` of many games, by game id (every game asked for is a key)."""
    found: dict[int, list[PressRecord]] = {g: [] for g in game_ids}
    if not found:
        return found
    rows = session.scalars(
        select(PressMessage)
        .where(PressMessage.game_id.in_(list(found)))
        .order_by(PressMessage.id)
    )
    for r in rows:
        found[r.game_id].append(to_record(r))
    return found
