"""Inbound mail: every message as received, processed once, kept when processing fails.

A message is keyed by what makes two mails the same one (`inbound_key`): its Message-ID, its
sender and a digest of its body (or, without a Message-ID, a hash of its bytes). Storing it
again finds the stored row, so a mail read twice from IMAP, or delivered twice, is processed
once; another message that reuses the Message-ID (a careless client or gateway), from another
sender or with other text, is a message of its own. `count_duplicate` counts each arrival of one
already stored, so the sender is told once that it was already read. A worker claims a new
message (`claim_next_inbound`, SKIP LOCKED on PostgreSQL), does all its effects and
`mark_processed` in the same transaction (or stores it as processed at once, `receive_inbound`
with `processed`, in the transaction of its effects); if processing fails, the transaction is
rolled back and `mark_shunted` records the error in a new one. A message over its sender's rate
limit (counted by `receive_inbound`) is kept as held (`mark_held`). `requeue_inbound` replays a
shunted or held message.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Integer, Table, bindparam, func, literal, select, text, update
from sqlalchemy.orm import Session

from gm.store.claims import claiming, require_writer
from gm.store.db import plain
from gm.store.errors import NotFound, StoreError
from gm.store.models import InboundMessage
from gm.store.rows import InboundRecord
from gm.store.statuses import InboundStatus

_BODY_START = re.compile(rb"\r?\n\r?\n")
_LINE_ENDS = re.compile(rb"[ \t]*\r?\n")


def body_digest(raw: bytes) -> str:
    """A digest of the message's body as sent: the bytes after the blank line that ends the
    headers, line ends and trailing blanks made alike (an IMAP copy has CRLF, a Maildir file
    LF), so a copy with other headers (another Received line) digests the same."""
    start = _BODY_START.search(raw)
    body = b"" if start is None else raw[start.end():]
    return hashlib.sha256(_LINE_ENDS.sub(b"\n", body).rstrip()).hexdigest()


def inbound_key(message_id: str | None, raw: bytes, sender: str = "") -> str:
    """The deduplication key: a hash of the Message-ID, the sender (as stored, lower case) and
    the body's digest; a hash of the raw message when it has no Message-ID."""
    mid = (message_id or "").strip()
    if not mid:
        return "sha256-raw:" + hashlib.sha256(raw).hexdigest()
    same = "\0".join((mid, sender, body_digest(raw)))
    return "mail:" + hashlib.sha256(same.encode("utf-8", "surrogateescape")).hexdigest()


def to_record(row: InboundMessage | Any) -> InboundRecord:
    """The record of a row (a mapped InboundMessage, or a result row of all its columns)."""
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
        arrived_at=row.arrived_at,
    )


_TABLE: Table = InboundMessage.__table__  # type: ignore[assignment]
_NEW_COLUMNS = ("dedup_key", "message_id", "mailbox", "uidvalidity", "uid", "sender", "subject",
                "raw", "received_at", "arrived_at", "status", "attempts", "processed_at",
                "duplicates")
# INSERT ... ON CONFLICT DO NOTHING RETURNING id, written once for SQLite and PostgreSQL alike:
# the dialects' own insert() constructs are compiled anew on every use (not cacheable).
_INSERT_NEW = text(
    f"INSERT INTO {_TABLE.name} ({', '.join(_NEW_COLUMNS)}) "
    f"VALUES ({', '.join(':' + c for c in _NEW_COLUMNS)}) "
    "ON CONFLICT (dedup_key) DO NOTHING RETURNING id"
).bindparams(*(bindparam(c, type_=_TABLE.c[c].type) for c in _NEW_COLUMNS)).columns(id=Integer)


@dataclass(frozen=True)
class Received:
    """What `receive_inbound` found: the stored message, whether it is new, and how many other
    messages its sender sent in the window asked for (0 when none was asked for)."""

    record: InboundRecord
    new: bool
    recent: int = 0


# The same INSERT, also counting the sender's other messages since a time (in its RETURNING,
# so the rate limit costs no extra round trip): the sender's rows in the window, up to a cap,
# other than this one (SQLite's RETURNING sees the new row, PostgreSQL's does not).
_INSERT_COUNTING = text(
    f"INSERT INTO {_TABLE.name} ({', '.join(_NEW_COLUMNS)}) "
    f"VALUES ({', '.join(':' + c for c in _NEW_COLUMNS)}) "
    "ON CONFLICT (dedup_key) DO NOTHING RETURNING id, "
    f"(SELECT count(*) FROM (SELECT 1 FROM {_TABLE.name} AS other "
    "WHERE other.sender = :sender AND other.received_at > :since "
    "AND other.dedup_key <> :dedup_key LIMIT :cap) AS in_window) AS recent"
).bindparams(
    *(bindparam(c, type_=_TABLE.c[c].type) for c in _NEW_COLUMNS),
    bindparam("since", type_=_TABLE.c.received_at.type), bindparam("cap", type_=Integer()),
).columns(id=Integer, recent=Integer)


def receive_inbound(
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
    processed: bool = False,
    count_since: datetime | None = None,
    count_cap: int = 0,
    arrived_at: datetime | None = None,
    key_raw: bytes | None = None,
) -> Received:
    """Store a received message unless it is stored already (one statement).

    With `processed`, a new message is stored as processed (its effects are in this
    transaction, which either commits them all or stores nothing); otherwise as new. With
    `count_since`, `recent` counts the sender's other messages that arrived after it, up to
    `count_cap` (`sender` as stored: lower case, as gm.mail.decode gives it). `arrived_at`:
    when the mail system received it (`now` if not known). `key_raw`: the whole message the
    key is made of when `raw`, what is stored, is only its beginning (a message too large).
    """
    arrived = now if arrived_at is None else arrived_at
    key = inbound_key(message_id, raw if key_raw is None else key_raw, sender)
    status = InboundStatus.PROCESSED if processed else InboundStatus.NEW
    attempts = 1 if processed else 0
    processed_at = now if processed else None
    values: dict[str, object] = {
        "dedup_key": key, "message_id": message_id, "mailbox": mailbox,
        "uidvalidity": uidvalidity, "uid": uid, "sender": sender, "subject": subject, "raw": raw,
        "received_at": now, "arrived_at": arrived, "status": status, "attempts": attempts,
        "processed_at": processed_at, "duplicates": 0}
    recent = 0
    conn = plain(session)  # one plain statement: the ORM's execute path costs more than it
    if count_since is None:
        new_id = conn.scalar(_INSERT_NEW, values)
    else:
        inserted = conn.execute(
            _INSERT_COUNTING, {**values, "since": count_since, "cap": count_cap}).first()
        new_id, recent = (None, 0) if inserted is None else (inserted.id, inserted.recent)
    if new_id is not None:  # just inserted: it is what was given (no second read)
        return Received(InboundRecord(
            id=new_id, dedup_key=key, message_id=message_id, mailbox=mailbox,
            uidvalidity=uidvalidity, uid=uid, sender=sender, subject=subject, raw=raw,
            received_at=now, status=status, attempts=attempts, error=None,
            processed_at=processed_at, arrived_at=arrived), True, recent)
    row = session.scalar(
        select(InboundMessage)
        .where(InboundMessage.dedup_key == key)
        .execution_options(populate_existing=True)
    )
    assert row is not None
    return Received(to_record(row), False)


def count_duplicate(session: Session, inbound_id: int) -> int:
    """Count another arrival of a stored message; the count before it (0: the first copy)."""
    done = session.execute(
        update(_TABLE).where(_TABLE.c.id == inbound_id)
        .values(duplicates=_TABLE.c.duplicates + 1)
        .returning(_TABLE.c.duplicates)).scalar_one()
    return int(done) - 1


def get_inbound(session: Session, inbound_id: int) -> InboundRecord:
    row = session.get(InboundMessage, inbound_id, populate_existing=True)
    if row is None:
        raise NotFound(f"no inbound message with id {inbound_id}")
    return to_record(row)


def list_inbound(
    session: Session, *, status: InboundStatus | Collection[InboundStatus] | None = None,
    limit: int = 100,
) -> list[InboundRecord]:
    """Messages (with this status, or one of these), newest first."""
    stmt = select(InboundMessage).order_by(InboundMessage.id.desc()).limit(limit)
    if isinstance(status, InboundStatus):
        stmt = stmt.where(InboundMessage.status == status)
    elif status is not None:
        stmt = stmt.where(InboundMessage.status.in_(list(status)))
    return [to_record(r) for r in session.scalars(stmt)]


def count_handled(session: Session) -> int:
    """How many stored messages are no longer waiting to be processed."""
    return session.scalar(select(func.count()).select_from(InboundMessage)
                          .where(InboundMessage.status != InboundStatus.NEW)) or 0


def held_since(session: Session, sender: str, since: datetime, *, other_than: int) -> bool:
    """Whether a message from `sender` that arrived after `since` (other than `other_than`)
    is held."""
    return session.scalar(
        select(literal(1))
        .where(InboundMessage.sender == sender, InboundMessage.received_at > since,
               InboundMessage.status == InboundStatus.HELD, InboundMessage.id != other_than)
        .limit(1)
    ) is not None


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


# built once: every message ends with it (plain: the row comes back by RETURNING)
_PROCESSED = (
    update(_TABLE)
    .where(_TABLE.c.id == bindparam("inbound_id"), _TABLE.c.status == InboundStatus.NEW)
    .values(status=InboundStatus.PROCESSED, attempts=_TABLE.c.attempts + 1,
            processed_at=bindparam("now", type_=_TABLE.c.processed_at.type))
    .returning(*_TABLE.c)
)


def _transition(
    session: Session, inbound_id: int, src: InboundStatus, **values: object
) -> InboundRecord:
    done = session.execute(
        update(_TABLE)  # plain (no ORM synchronising): the row comes back by RETURNING
        .where(_TABLE.c.id == inbound_id, _TABLE.c.status == src)
        .values(**values)
        .returning(*_TABLE.c)
    ).first()
    return _check(session, inbound_id, src, done)


def _check(session: Session, inbound_id: int, src: InboundStatus,
           done: Any) -> InboundRecord:
    if done is None:
        now = get_inbound(session, inbound_id)  # NotFound if missing
        raise StoreError(f"inbound message {inbound_id} is {now.status.value}, not {src.value}")
    return to_record(done)


def mark_processed(session: Session, inbound_id: int, *, now: datetime) -> InboundRecord:
    """The message's effects are in this transaction: it will not be processed again."""
    done = session.execute(_PROCESSED, {"inbound_id": inbound_id, "now": now}).first()
    return _check(session, inbound_id, InboundStatus.NEW, done)


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


def mark_held(session: Session, inbound_id: int, reason: str, *, now: datetime,
              src: InboundStatus = InboundStatus.NEW) -> InboundRecord:
    """The message is over its sender's rate limit: keep it, unprocessed, with the reason
    (`src`: its status now, PROCESSED when `receive_inbound` stored it as such just before)."""
    return _transition(session, inbound_id, src, status=InboundStatus.HELD, error=reason,
                       processed_at=now)


def requeue_inbound(session: Session, inbound_id: int) -> InboundRecord:
    """Replay a shunted or held message: it becomes new again (its last error or reason is
    kept until then)."""
    src = get_inbound(session, inbound_id).status
    if src is not InboundStatus.HELD:
        src = InboundStatus.SHUNTED  # anything else is refused as "not shunted"
    return _transition(session, inbound_id, src, status=InboundStatus.NEW, processed_at=None)
