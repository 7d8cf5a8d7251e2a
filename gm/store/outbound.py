"""Outbound mail: the queue the sender drains, written in the transaction that caused it.

Each message carries a Message-ID fixed when it is queued, so queueing it again does nothing and
a resend after a crash is recognisable as the same mail. The sender claims due messages with a
lease (`claim_due_outbound`: attempts + 1, next attempt pushed to now + lease, SKIP LOCKED on
PostgreSQL), sends them outside any transaction, then marks each sent, or failed with the time
of the next attempt. A sender that dies mid-send leaves the lease to expire and the mail to be
sent again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from gm.store.claims import claiming, require_writer
from gm.store.errors import NotFound, StoreError
from gm.store.models import OutboundAttachment, OutboundMessage
from gm.store.records import Attachment, BodyPart, OutboundRecord
from gm.store.statuses import OutboundStatus

DEFAULT_LEASE = timedelta(minutes=10)


def to_record(row: OutboundMessage) -> OutboundRecord:
    return OutboundRecord(
        id=row.id,
        message_id=row.message_id,
        recipients=tuple(row.recipients),
        headers=tuple((str(h[0]), str(h[1])) for h in row.headers),
        parts=tuple(BodyPart(p["content_type"], p["text"]) for p in row.parts),
        attachments=tuple(
            Attachment(a.filename, a.content_type, a.data) for a in row.attachments
        ),
        status=row.status,
        attempts=row.attempts,
        next_attempt_at=row.next_attempt_at,
        last_error=row.last_error,
        created_at=row.created_at,
        sent_at=row.sent_at,
        game_id=row.game_id,
        inbound_id=row.inbound_id,
    )


def enqueue_outbound(
    session: Session,
    *,
    message_id: str,
    recipients: Sequence[str],
    headers: Sequence[tuple[str, str]],
    parts: Sequence[BodyPart],
    now: datetime,
    attachments: Sequence[Attachment] = (),
    game_id: int | None = None,
    inbound_id: int | None = None,
) -> tuple[OutboundRecord, bool]:
    """Queue a message to be sent now; if this Message-ID is queued already, return that one.
    The second value says whether the message is new."""
    existing = session.scalar(
        select(OutboundMessage).where(OutboundMessage.message_id == message_id)
    )
    if existing is not None:
        return to_record(existing), False
    if not recipients:
        raise StoreError(f"outbound message {message_id} has no recipients")
    row = OutboundMessage(
        message_id=message_id,
        recipients=list(recipients),
        headers=[[name, value] for name, value in headers],
        parts=[{"content_type": p.content_type, "text": p.text} for p in parts],
        status=OutboundStatus.QUEUED,
        attempts=0,
        next_attempt_at=now,
        created_at=now,
        game_id=game_id,
        inbound_id=inbound_id,
        attachments=[
            OutboundAttachment(
                position=i, filename=a.filename, content_type=a.content_type, data=a.data
            )
            for i, a in enumerate(attachments)
        ],
    )
    session.add(row)
    session.flush()
    return to_record(row), True


@dataclass(frozen=True)
class NewMessage:
    """A message for `enqueue_many`: what `enqueue_outbound` takes, as one value (`game_id`,
    if given, instead of the call's)."""

    message_id: str
    recipients: Sequence[str]
    headers: Sequence[tuple[str, str]]
    parts: Sequence[BodyPart]
    attachments: Sequence[Attachment] = ()
    game_id: int | None = None


def enqueue_many(session: Session, messages: Sequence[NewMessage], *, now: datetime,
                 game_id: int | None = None, inbound_id: int | None = None) -> None:
    """Queue many new messages at once (one multi-row INSERT of the messages, a look-up of
    their ids by Message-ID, one of their attachments), e.g. the reports of many games. Their
    Message-IDs must be new (`new_message_id`)."""
    if not messages:
        return
    if any(not m.recipients for m in messages):
        raise StoreError("an outbound message has no recipients")
    session.execute(insert(OutboundMessage), [
        {"message_id": m.message_id, "recipients": list(m.recipients),
         "headers": [[n, v] for n, v in m.headers],
         "parts": [{"content_type": p.content_type, "text": p.text} for p in m.parts],
         "status": OutboundStatus.QUEUED, "attempts": 0, "next_attempt_at": now,
         "created_at": now, "game_id": game_id if m.game_id is None else m.game_id,
         "inbound_id": inbound_id}
        for m in messages])
    with_files = [m for m in messages if m.attachments]
    ids: dict[str, int] = {}
    for first in range(0, len(with_files), 500):
        chunk = [m.message_id for m in with_files[first:first + 500]]
        ids.update(session.execute(
            select(OutboundMessage.message_id, OutboundMessage.id)
            .where(OutboundMessage.message_id.in_(chunk))).tuples().all())
    rows = [{"outbound_id": ids[m.message_id], "position": i, "filename": a.filename,
             "content_type": a.content_type, "data": a.data}
            for m in with_files for i, a in enumerate(m.attachments)]
    if rows:
        session.execute(insert(OutboundAttachment), rows)


def _row(session: Session, outbound_id: int) -> OutboundMessage:
    row = session.get(OutboundMessage, outbound_id, populate_existing=True)
    if row is None:
        raise NotFound(f"no outbound message with id {outbound_id}")
    return row


def get_outbound(session: Session, outbound_id: int) -> OutboundRecord:
    return to_record(_row(session, outbound_id))


def list_outbound(
    session: Session, *, status: OutboundStatus | None = None, limit: int = 100
) -> list[OutboundRecord]:
    """Messages, oldest first."""
    stmt = select(OutboundMessage).order_by(OutboundMessage.id).limit(limit)
    if status is not None:
        stmt = stmt.where(OutboundMessage.status == status)
    return [to_record(r) for r in session.scalars(stmt)]


def claim_due_outbound(
    session: Session, now: datetime, *, limit: int = 10, lease: timedelta = DEFAULT_LEASE
) -> list[OutboundRecord]:
    """Claim queued messages due by `now` (oldest first) for sending: each gets one more
    attempt and is not due again until `now + lease`. Commit before sending."""
    require_writer(session)
    stmt = (
        select(OutboundMessage)
        .where(
            OutboundMessage.status == OutboundStatus.QUEUED,
            OutboundMessage.next_attempt_at <= now,
        )
        .order_by(OutboundMessage.next_attempt_at, OutboundMessage.id)
        .limit(limit)
        .execution_options(populate_existing=True)
    )
    rows = list(session.scalars(claiming(stmt, skip_locked=True, of=OutboundMessage)))
    for row in rows:
        row.attempts += 1
        row.next_attempt_at = now + lease
    session.flush()
    return [to_record(r) for r in rows]


def mark_sent(session: Session, outbound_id: int, *, now: datetime) -> OutboundRecord:
    """The SMTP server accepted the message."""
    row = _row(session, outbound_id)
    row.status = OutboundStatus.SENT
    row.sent_at = now
    row.next_attempt_at = None
    session.flush()
    return to_record(row)


def mark_send_failed(
    session: Session, outbound_id: int, error: str, *, retry_at: datetime | None
) -> OutboundRecord:
    """Sending failed: try again at `retry_at`, or give up (status failed) when it is None."""
    row = _row(session, outbound_id)
    if row.status is OutboundStatus.SENT:
        raise StoreError(f"outbound message {outbound_id} was sent already")
    row.last_error = error
    row.next_attempt_at = retry_at
    row.status = OutboundStatus.QUEUED if retry_at is not None else OutboundStatus.FAILED
    session.flush()
    return to_record(row)


def requeue_outbound(session: Session, outbound_id: int, *, now: datetime) -> OutboundRecord:
    """Send a message that was given up on again, now."""
    row = _row(session, outbound_id)
    if row.status is not OutboundStatus.FAILED:
        raise StoreError(f"outbound message {outbound_id} is {row.status.value}, not failed")
    row.status = OutboundStatus.QUEUED
    row.next_attempt_at = now
    session.flush()
    return to_record(row)
