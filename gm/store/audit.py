"""The audit log: who did what to a game (GM commands above all), and when."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.orm import Session

from gm.store.db import plain
from gm.store.models import AuditEntry, Game
from gm.store.rows import AuditRecord


def to_record(row: AuditEntry | Any) -> AuditRecord:
    """The record of a mapped AuditEntry or of a plain row of all its columns."""
    return AuditRecord(
        id=row.id,
        game_id=row.game_id,
        game_name=row.game_name,
        actor=row.actor,
        action=row.action,
        details=dict(row.details),
        inbound_id=row.inbound_id,
        at=row.at,
    )


def record_action(
    session: Session,
    *,
    actor: str,
    action: str,
    now: datetime,
    game_id: int | None = None,
    details: Mapping[str, Any] | None = None,
    inbound_id: int | None = None,
) -> AuditRecord:
    """Log an action (`details` must be JSON-serialisable). The game's name is kept with it,
    so the entry still says which game after the game is deleted."""
    name = None if game_id is None else session.scalar(select(Game.name).where(Game.id == game_id))
    row = AuditEntry(
        game_id=game_id,
        game_name=name,
        actor=actor,
        action=action,
        details=dict(details or {}),
        inbound_id=inbound_id,
        at=now,
    )
    session.add(row)
    session.flush()
    return to_record(row)


def audit_log(
    session: Session, *, game_id: int | None = None, action: str | None = None
) -> list[AuditRecord]:
    """Entries oldest first, of one game and/or one action if given."""
    stmt = select(AuditEntry).order_by(AuditEntry.id)
    if game_id is not None:
        stmt = stmt.where(AuditEntry.game_id == game_id)
    if action is not None:
        stmt = stmt.where(AuditEntry.action == action)
    return [to_record(r) for r in session.scalars(stmt)]


_RECENT = (  # built once: every sign-on asks for its recent failures
    select(AuditEntry.__table__)
    .where(AuditEntry.game_id == bindparam("game_id"), AuditEntry.action == bindparam("action"),
           AuditEntry.at >= bindparam("since", type_=AuditEntry.at.type))
    .order_by(AuditEntry.id)
)


def recent_actions(
    session: Session, *, game_id: int, action: str, since: datetime
) -> list[AuditRecord]:
    """The game's entries of one action at or after `since`, oldest first (a plain read)."""
    rows = plain(session).execute(
        _RECENT, {"game_id": game_id, "action": action, "since": since})
    return [to_record(r) for r in rows]


def count_by_actor(session: Session, *, actor: str, action: str, since: datetime) -> int:
    """How many entries of one action `actor` (an address, in any case) made at or after
    `since`, in any game."""
    return session.scalar(
        select(func.count()).select_from(AuditEntry).where(
            AuditEntry.action == action, func.lower(AuditEntry.actor) == actor.lower(),
            AuditEntry.at >= since)) or 0


@dataclass(frozen=True)
class NewEntry:
    """An entry for `record_actions`: what `record_action` takes, with the game's name."""

    actor: str
    action: str
    at: datetime
    game_id: int | None = None
    game_name: str | None = None
    details: Mapping[str, Any] | None = None
    inbound_id: int | None = None


def record_actions(session: Session, entries: Sequence[NewEntry]) -> None:
    """Log many actions in one INSERT (the caller gives each game's name)."""
    if not entries:
        return
    session.execute(insert(AuditEntry), [
        {"game_id": e.game_id, "game_name": e.game_name, "actor": e.actor, "action": e.action,
         "details": dict(e.details or {}), "inbound_id": e.inbound_id, "at": e.at}
        for e in entries])
