"""Inbound mail: every message as received, processed once, kept when processing fails.

A message is keyed by its Message-ID (or, without one, by a hash of its bytes): storing it again
finds the stored row, so a mail read twice from IMAP is processed once. A worker claims a new
message (`claim_next_inbound`, SKIP LOCKED on PostgreSQL), does all its effects and
`mark_processed` in the same transaction; if processing fails, the transaction is rolled back
and `mark_shunted` records the error in a new one. `requeue_inbound` replays a shunted message.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import Insert, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from gm.store.claims import claiming, require_writer
from gm.store.errors import NotFound, StoreError
from gm.store.models import InboundMessage
from gm.store.records import InboundRecord
from gm.store.statuses import InboundStatus

_KEY_MAX = 255


def inbound_key(message_id: str | None, raw: bytes) -> str:
    """The deduplication key: the Message-ID as given, or a hash of it if very long, or a hash
    of the raw message when it has no Message-ID."""
    mid = (message_id or "").strip()
    if not mid:
        return "sha256-raw:" + hashlib.sha256(raw).hexdigest()
    if len(mid) > _KEY_MAX:
        return "sha256-id:" + hashlib.sha256(mid.encode("utf-8", "replace")).hexdigest()
    return mid


def to_record(row: InboundMessage) -> InboundRecord:
    return InboundRecord(
        id=row.id,
        dedup_key=row.dedup_key,
        message_id=row.message_id,
        mailbox=row.mailbox,
        uidvalidity=row.uidvalidity,
        uid=row.uid,
        sender=row.sender,
        subject=row.subject,
        raw=row.raw,
        received_at=row.received_at,
        status=row.status,
        attempts=row.attempts,
        error=row.error,
        processed_at=row.processed_at,
    )


def _insert(session: Session) -> Insert:
    """INSERT ... ON CONFLICT DO NOTHING in the session's dialect."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(InboundMessage).on_conflict_do_nothing(
            index_elements=["dedup_key"]
        )
    return sqlite.insert(InboundMessage).on_conflict_do_nothing(index_elements=["dedup_key"])


def record_inbound(
    session: Session,
    *,
    raw: bytes,
    sender: str,
    now: datetime,
    message_id: str | None = None,
    subject: str | None = None,
    mailbox: str | None = None,
    uidvalidity: int | None = None,
    uid: int | None = None,
) -> tuple[InboundRecord, bool]:
    """Store a received message unless it is stored already; return it and whether it is new."""
    key = inbound_key(message_id, raw)
    stmt = _insert(session).values(
        dedup_key=key,
        message_id=message_id,
        mailbox=mailbox,
        uidvalidity=uidvalidity,
        uid=uid,
        sender=sender,
        subject=subject,
        raw=raw,
        received_at=now,
        status=InboundStatus.NEW,
        attempts=0,
    )
    new_id = session.scalar(stmt.returning(InboundMessage.id))
    row = session.scalar(
        select(InboundMessage)
        .where(InboundMessage.dedup_key == key)
        .execution_options(populate_existing=True)
    )
    assert row is not None
    return to_record(row), new_id is not None


def get_inbound(session: Session, inbound_id: int) -> InboundRecord:
    row = session.get(InboundMessage, inbound_id, populate_existing=True)
    if row is None:
        raise NotFound(f"no inbound message with id {inbound_id}")
    return to_record(row)


def list_inbound(
    session: Session, *, status: InboundStatus | None = None, limit: int = 100
) -> list[InboundRecord]:
    """Messages, newest first."""
    stmt = select(InboundMessage).order_by(InboundMessage.id.desc()).limit(limit)
    if status is not None:
        stmt = stmt.where(InboundMessage.status == status)
    return [to_record(r) for r in session.scalars(stmt)]


def last_uid(session: Session, mailbox: str, uidvalidity: int) -> int | None:
    """The highest IMAP UID stored for the mailbox (at this UIDVALIDITY)."""
    return session.scalar(
        select(func.max(InboundMessage.uid)).where(
            InboundMessage.mailbox == mailbox, InboundMessage.uidvalidity == uidvalidity
        )
    )


def claim_next_inbound(session: Session) -> InboundRecord | None:
    """Claim the oldest new message no other worker holds; it stays claimed until the
    transaction ends, which must mark it processed (or roll back)."""
    require_writer(session)
    stmt = (
        select(InboundMessage)
        .where(InboundMessage.status == InboundStatus.NEW)
        .order_by(InboundMessage.id)
        .limit(1)
        .execution_options(populate_existing=True)
    )
    row = session.scalar(claiming(stmt, skip_locked=True))
    return None if row is None else to_record(row)


def claim_inbound(session: Session, inbound_id: int) -> InboundRecord | None:
    """Claim this message if it is new and no other worker holds it."""
    require_writer(session)
    stmt = (
        select(InboundMessage)
        .where(InboundMessage.id == inbound_id, InboundMessage.status == InboundStatus.NEW)
        .execution_options(populate_existing=True)
    )
    row = session.scalar(claiming(stmt, skip_locked=True))
    return None if row is None else to_record(row)


def _transition(
    session: Session, inbound_id: int, src: InboundStatus, **values: object
) -> InboundRecord:
    done = session.execute(
        update(InboundMessage)
        .where(InboundMessage.id == inbound_id, InboundMessage.status == src)
        .values(**values)
    )
    if done.rowcount != 1:  # type: ignore[attr-defined]
        now = get_inbound(session, inbound_id)  # NotFound if missing
        raise StoreError(f"inbound message {inbound_id} is {now.status.value}, not {src.value}")
    return get_inbound(session, inbound_id)


def mark_processed(session: Session, inbound_id: int, *, now: datetime) -> InboundRecord:
    """The message's effects are in this transaction: it will not be processed again."""
    return _transition(
        session,
        inbound_id,
        InboundStatus.NEW,
        status=InboundStatus.PROCESSED,
        processed_at=now,
        attempts=InboundMessage.attempts + 1,
    )


def mark_shunted(
    session: Session, inbound_id: int, error: str, *, now: datetime
) -> InboundRecord:
    """Processing failed (and was rolled back): keep the message with the error."""
    row = session.scalar(
        claiming(select(InboundMessage).where(InboundMessage.id == inbound_id), skip_locked=False)
    )
    if row is None:
        raise NotFound(f"no inbound message with id {inbound_id}")
    return _transition(
        session,
        inbound_id,
        InboundStatus.NEW,
        status=InboundStatus.SHUNTED,
        error=error,
        processed_at=now,
        attempts=InboundMessage.attempts + 1,
    )


def requeue_inbound(session: Session, inbound_id: int) -> InboundRecord:
    """Replay a shunted message: it becomes new again (its last error is kept until then)."""
    return _transition(
        session, inbound_id, InboundStatus.SHUNTED, status=InboundStatus.NEW, processed_at=None
    )
