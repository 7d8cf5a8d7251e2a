"""Outbound mail: the queue the sender drains, written in the transaction that caused it.

Each message carries a Message-ID fixed when it is queued, so queueing it again does nothing and
a resend after a crash is recognisable as the same mail. The sender claims due messages with a
lease (`claim_due_outbound`: attempts + 1, next attempt pushed to now + lease, SKIP LOCKED on
PostgreSQL), sends them outside any transaction, then marks each sent, or failed with the time
of the next attempt. Each claim names the process holding it (gm.store.holders), which renews
its lease while it sends (`renew_claims`); a sender that dies mid-send leaves its claims to the
next sender, which takes them back at once when it can tell the holder is gone
(`release_abandoned`), else when the lease runs out; the mail is then sent again.

Messages queued together (`enqueue_many`) that carry the same body parts, as a phase's report
to every power does, share one stored body (outbound_bodies), and the same attachment bytes
one stored file (outbound_files); a message reads as if it had its own (`to_record`). A map
picture's PNG is queued undrawn (its SVG kept instead) and drawn by the sender when the first
message carrying it goes out (`record_drawn`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from gm.store.claims import claiming, require_writer
from gm.store.db import plain
from gm.store.errors import NotFound, StoreError
from gm.store.holders import is_alive, is_gone
from gm.store.models import (
    InboundMessage,
    OutboundAttachment,
    OutboundBody,
    OutboundFile,
    OutboundMessage,
)
from gm.store.rows import Attachment, BodyPart, OutboundRecord
from gm.store.statuses import OutboundStatus

DEFAULT_LEASE = timedelta(minutes=10)


def to_record(row: OutboundMessage) -> OutboundRecord:
    return OutboundRecord(
        id=row.id,
        message_id=row.message_id,
        recipients=tuple(row.recipients),
        headers=tuple((str(h[0]), str(h[1])) for h in row.headers),
        parts=tuple(BodyPart(p["content_type"], p["text"])
                    for p in (row.parts if row.body is None else row.body.parts)),
        attachments=tuple(
            Attachment(a.filename, a.content_type, a.file.data, a.file.svg)
            for a in row.attachments
        ),
        status=row.status,
        attempts=row.attempts,
        next_attempt_at=row.next_attempt_at,
        last_error=row.last_error,
        created_at=row.created_at,
        sent_at=row.sent_at,
        game_id=row.game_id,
        inbound_id=row.inbound_id,
        bounce_token=row.bounce_token,
    )


def new_bounce_token() -> str:
    """A random, unguessable token for a message's envelope sender (80 bits, lower-case hex:
    some relays lower-case the local part)."""
    return secrets.token_hex(10)


def find_by_bounce_token(session: Session, token: str) -> OutboundRecord | None:
    """The sent message whose envelope sender carries `token`, if any."""
    row = session.scalar(select(OutboundMessage).where(OutboundMessage.bounce_token == token))
    return None if row is None else to_record(row)


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
        bounce_token=new_bounce_token(),
        attachments=[
            OutboundAttachment(
                position=i, filename=a.filename, content_type=a.content_type,
                file=_stored_file(session, a)
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
    """Queue many new messages at once (one multi-row INSERT of the bodies several of them
    share, stored once, one of the messages, one of their attachments' distinct contents,
    stored once, and one of the attachments), e.g. the reports of many games. Their
    Message-IDs must be new (`new_message_id`)."""
    if not messages:
        return
    if any(not m.recipients for m in messages):
        raise StoreError("an outbound message has no recipients")
    bodies = _store_bodies(session, [tuple(m.parts) for m in messages])
    conn = plain(session)  # plain statements: the ORM's insert path costs more than they do
    ids: dict[str, int] = dict(conn.execute(  # one multi-row INSERT, each row named
        _INSERT_MESSAGES,
        [{"message_id": m.message_id, "recipients": list(m.recipients),
          "headers": [[n, v] for n, v in m.headers],
          "parts": [] if body is not None else _parts_document(m.parts), "body_id": body,
          "status": OutboundStatus.QUEUED, "attempts": 0, "next_attempt_at": now,
          "created_at": now, "game_id": game_id if m.game_id is None else m.game_id,
          "inbound_id": inbound_id, "bounce_token": new_bounce_token()}
         for m in messages for body in (bodies.get(tuple(m.parts)),)]).tuples().all())
    with_files = [m for m in messages if m.attachments]
    files = _store_files(conn, [a for m in with_files for a in m.attachments])
    rows = [{"outbound_id": ids[m.message_id], "position": i, "filename": a.filename,
             "content_type": a.content_type, "file_id": files[_content(a)]}
            for m in with_files for i, a in enumerate(m.attachments)]
    if rows:  # RETURNING makes it one multi-row INSERT on PostgreSQL too, not one per row
        conn.execute(_INSERT_ATTACHMENTS, rows)


# the statements of queueing, built once (each call then only binds its values)
_INSERT_MESSAGES = insert(OutboundMessage.__table__).returning(  # type: ignore[arg-type]
    OutboundMessage.__table__.c.message_id, OutboundMessage.__table__.c.id)
_INSERT_ATTACHMENTS = insert(OutboundAttachment.__table__).returning(  # type: ignore[arg-type]
    OutboundAttachment.__table__.c.id)
_INSERT_FILES = insert(OutboundFile.__table__).returning(  # type: ignore[arg-type]
    OutboundFile.__table__.c.digest, OutboundFile.__table__.c.id)
_FILES_BY_DIGEST = (select(OutboundFile.digest, OutboundFile.id)
                    .where(OutboundFile.digest.in_(bindparam("digests", expanding=True)))
                    .order_by(OutboundFile.id))


def _parts_document(parts: Sequence[BodyPart]) -> list[dict[str, str]]:
    return [{"content_type": p.content_type, "text": p.text} for p in parts]


def _store_bodies(session: Session,
                  bodies: Sequence[tuple[BodyPart, ...]]) -> dict[tuple[BodyPart, ...], int]:
    """Store once each body of `bodies` that occurs more than once (a phase's report to every
    power); the stored body's id by body. A body that occurs once is not stored here."""
    shared = [b for b, n in Counter(bodies).items() if n > 1 and b]
    if not shared:
        return {}
    digests = {b: _body_digest(b) for b in shared}
    ids = dict(session.execute(  # one multi-row INSERT; each row named by its digest
        insert(OutboundBody).returning(OutboundBody.digest, OutboundBody.id),
        [{"digest": digests[b], "parts": _parts_document(b)} for b in shared]).tuples().all())
    return {b: ids[digests[b]] for b in shared}


def _body_digest(parts: Sequence[BodyPart]) -> str:
    """SHA-256 of body parts, hex: equal for equal parts."""
    digest = hashlib.sha256()
    for p in parts:
        for value in (p.content_type, p.text):
            data = value.encode("utf-8")
            digest.update(len(data).to_bytes(8, "big"))
            digest.update(data)
    return digest.hexdigest()


def file_digest(attachment: Attachment) -> str:
    """The stored file's name for `attachment`'s content, hex: SHA-256 of its bytes; of a PNG
    still to be drawn, `_png_digest` of its SVG."""
    if attachment.svg is None:
        return hashlib.sha256(attachment.data).hexdigest()
    return _png_digest(attachment.svg)


def _png_digest(svg: bytes) -> str:
    """The name of the PNG drawn from `svg`: SHA-256 of the SVG marked as such (the same
    picture, the same name, before and after it is drawn)."""
    return hashlib.sha256(b"PNG of SVG\0" + svg).hexdigest()


def _content(attachment: Attachment) -> tuple[bytes, bytes | None]:
    return attachment.data, attachment.svg


def _stored_file(session: Session, attachment: Attachment) -> OutboundFile:
    """The stored file holding `attachment`'s content: one stored before (same digest), or a
    new one."""
    digest = file_digest(attachment)
    found = session.scalars(
        select(OutboundFile).where(OutboundFile.digest == digest).limit(1)).first()
    if found is not None:
        return found
    return OutboundFile(digest=digest, data=attachment.data, svg=attachment.svg)


def _store_files(session: Session | Connection,
                 attachments: Sequence[Attachment]) -> dict[tuple[bytes, bytes | None], int]:
    """Store each distinct content of `attachments` once (a phase's picture, attached to every
    report of the phase, is one row; a picture stored before, as the same orders drawn again
    are, is that row, drawn already if it was: `record_drawn` draws every row of a picture);
    the stored file's id by content (`_content`)."""
    distinct = {_content(a): a for a in attachments}
    if not distinct:
        return {}
    digests = {key: file_digest(a) for key, a in distinct.items()}
    ids: dict[str, int] = {}
    for digest, file_id in session.execute(  # the first stored (drawn with the others)
            _FILES_BY_DIGEST, {"digests": sorted(set(digests.values()))}).tuples():
        ids.setdefault(digest, file_id)
    new = [{"digest": digests[key], "data": a.data, "svg": a.svg}
           for key, a in distinct.items() if digests[key] not in ids]
    if new:  # one multi-row INSERT; each row named by its digest
        ids.update(session.execute(_INSERT_FILES, new).tuples().all())
    return {key: ids[digests[key]] for key in distinct}


def record_drawn(session: Session | Connection, svg: bytes, png: bytes) -> None:
    """The PNG of the picture `svg` (queued undrawn) is drawn: every stored file waiting for it
    holds it now, so the other messages carrying it are sent without drawing it again."""
    session.execute(_RECORD_DRAWN, {"of_svg": _png_digest(svg), "png": png})


_RECORD_DRAWN = (  # built once: the sender records every picture it draws
    update(OutboundFile.__table__)  # type: ignore[arg-type]
    .where(OutboundFile.__table__.c.digest == bindparam("of_svg"),
           OutboundFile.__table__.c.svg.is_not(None))
    .values(data=bindparam("png"), svg=None))


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


def count_unsent(session: Session) -> int:
    """How many messages are still queued to be sent."""
    return session.scalar(select(func.count()).select_from(OutboundMessage)
                          .where(OutboundMessage.status == OutboundStatus.QUEUED)) or 0


def accepted_for(session: Session, address: str, *, created_after: datetime | None,
                 sent_before: datetime) -> bool:
    """Whether a message to `address` created after `created_after` (None: any) was accepted by
    the relay before `sent_before`."""
    stmt = (select(OutboundMessage.recipients)
            .where(OutboundMessage.status == OutboundStatus.SENT,
                   OutboundMessage.sent_at < sent_before)
            .order_by(OutboundMessage.id.desc()))
    if created_after is not None:
        stmt = stmt.where(OutboundMessage.created_at > created_after)
    key = address.strip().lower()
    return any(key in {r.strip().lower() for r in recipients}
               for recipients in session.scalars(stmt))


@dataclass(frozen=True)
class SentText:
    """Whom a message of ours went to and its text/plain part (None: it had none)."""

    recipients: tuple[str, ...]
    text: str | None


# built once (each call then only binds its values): the mail guard asks it of every message
_REPLIES_TO = (
    select(OutboundMessage.recipients, OutboundMessage.parts, OutboundBody.parts)
    .join(InboundMessage, OutboundMessage.inbound_id == InboundMessage.id)
    .outerjoin(OutboundBody, OutboundMessage.body_id == OutboundBody.id)
    .where(InboundMessage.sender == bindparam("sender"),
           OutboundMessage.created_at >= bindparam("since"))
    # by the inbound message's id (the same as the reply's inbound_id): the index on (sender,
    # id) then gives the latest first and the reading stops at `limit`
    .order_by(InboundMessage.id.desc(), OutboundMessage.id)
    .limit(bindparam("limit")))


def replies_to(session: Session, sender: str, *, since: datetime,
               limit: int = 3) -> list[SentText]:
    """The mail queued at or after `since` in answer to messages from `sender` (an inbound
    message's sender, as stored): the latest message's first, each message's in the order
    queued (its reply first, then the notices it caused). Only recipients and text are read:
    the attachments (pictures) are left in the database."""
    rows = plain(session).execute(  # a plain statement: no ORM entities are loaded
        _REPLIES_TO, {"sender": sender, "since": since, "limit": limit})
    return [SentText(tuple(recipients),
                     next((p["text"] for p in (shared if shared is not None else own)
                           if p["content_type"] == "text/plain"), None))
            for recipients, own, shared in rows]


_MESSAGES = OutboundMessage.__table__
_CLAIMED = (  # a claim's rows as plain tuples (no ORM entities: built once, bound per claim)
    select(*(_MESSAGES.c[name] for name in (
        "id", "message_id", "recipients", "headers", "parts", "status", "attempts",
        "last_error", "created_at", "sent_at", "game_id", "inbound_id", "bounce_token",
        "body_id", "claimed_by")))
    .where(_MESSAGES.c.status == OutboundStatus.QUEUED,
           _MESSAGES.c.next_attempt_at <= bindparam("now"))
    .order_by(_MESSAGES.c.next_attempt_at, _MESSAGES.c.id)
    .limit(bindparam("limit")))
_TAKE = (  # each claimed message: one more attempt, leased to its holder
    update(_MESSAGES)  # type: ignore[arg-type]
    .where(_MESSAGES.c.id.in_(bindparam("rows", expanding=True)))
    .values(attempts=_MESSAGES.c.attempts + 1,
            next_attempt_at=bindparam("until"), claimed_by=bindparam("holder")))
_BODIES = (select(OutboundBody.id, OutboundBody.parts)
           .where(OutboundBody.id.in_(bindparam("ids", expanding=True))))
_ATTACHED = (select(OutboundAttachment.outbound_id, OutboundAttachment.filename,
                    OutboundAttachment.content_type, OutboundAttachment.file_id)
             .where(OutboundAttachment.outbound_id.in_(bindparam("ids", expanding=True)))
             .order_by(OutboundAttachment.outbound_id, OutboundAttachment.position))
_FILES = (select(OutboundFile.id, OutboundFile.data, OutboundFile.svg)
          .where(OutboundFile.id.in_(bindparam("ids", expanding=True))))


def claim_due_outbound(
    session: Session, now: datetime, *, limit: int = 10, lease: timedelta = DEFAULT_LEASE,
    holder: str | None = None, alive: Callable[[str], bool] = is_alive,
) -> list[OutboundRecord]:
    """Claim queued messages due by `now` (oldest first) for sending: each gets one more
    attempt, is not due again until `now + lease` and names `holder` (the claiming process,
    `gm.store.holders`) as its holder. A message whose lease ran out but whose holder is
    `alive` (provably, `gm.store.holders.is_alive`) is left to it. Commit before sending.
    Plain statements, a few a claim: the rows, one UPDATE for them all, and the shared
    bodies, attachments and files (a phase's report and pictures, carried by each of its
    messages), each read once."""
    require_writer(session)
    conn = plain(session)
    rows = list(conn.execute(claiming(_CLAIMED, skip_locked=True, of=_MESSAGES),
                             {"now": now, "limit": limit}))
    held: dict[str, bool] = {}  # by another holder's name: whether it is alive
    for row in list(rows):
        if (key := row.claimed_by) is not None and key != holder:
            if key not in held:
                held[key] = alive(key)
            if held[key]:
                rows.remove(row)
    if not rows:
        return []
    ids = [row.id for row in rows]
    until = now + lease
    conn.execute(_TAKE, {"rows": ids, "until": until, "holder": holder})
    bodies = dict(conn.execute(_BODIES, {"ids": sorted(
        {row.body_id for row in rows if row.body_id is not None})}).tuples().all())
    attached = conn.execute(_ATTACHED, {"ids": ids}).all()
    files = {file_id: (data, svg) for file_id, data, svg in conn.execute(
        _FILES, {"ids": sorted({a.file_id for a in attached})}).tuples()}
    attachments: dict[int, list[Attachment]] = {}
    for a in attached:
        data, svg = files[a.file_id]
        attachments.setdefault(a.outbound_id, []).append(
            Attachment(a.filename, a.content_type, data, svg))
    return [OutboundRecord(
        id=row.id, message_id=row.message_id, recipients=tuple(row.recipients),
        headers=tuple((str(h[0]), str(h[1])) for h in row.headers),
        parts=tuple(BodyPart(p["content_type"], p["text"]) for p in (
            row.parts if row.body_id is None else bodies[row.body_id])),
        attachments=tuple(attachments.get(row.id, ())), status=row.status,
        attempts=row.attempts + 1, next_attempt_at=until, last_error=row.last_error,
        created_at=row.created_at, sent_at=row.sent_at, game_id=row.game_id,
        inbound_id=row.inbound_id, bounce_token=row.bounce_token) for row in rows]


def release_abandoned(
    session: Session, *, holder: str,
    gone: Callable[[str], bool] = is_gone,
) -> dict[str, int]:
    """Make due again, in the order they were queued, the messages claimed by a holder other
    than `holder` that is `gone` (default: provably gone, `gm.store.holders.is_gone`), so they
    are sent first, without waiting out their lease; how many were released, by holder. A
    live holder's claims are left alone."""
    require_writer(session)
    table = OutboundMessage.__table__
    holders = session.scalars(
        select(OutboundMessage.claimed_by).distinct().where(
            OutboundMessage.status == OutboundStatus.QUEUED,
            OutboundMessage.claimed_by.is_not(None),
            OutboundMessage.claimed_by != holder)).all()
    released: dict[str, int] = {}
    for key in holders:
        if key is None or not gone(key):
            continue
        done = session.execute(
            update(table)  # type: ignore[arg-type]
            .where(table.c.claimed_by == key, table.c.status == OutboundStatus.QUEUED)
            .values(next_attempt_at=table.c.created_at, claimed_by=None))
        if count := done.rowcount:  # type: ignore[attr-defined]
            released[key] = count
    return released


def renew_claims(session: Session | Connection, now: datetime, *, holder: str,
                 lease: timedelta) -> None:
    """`holder` is alive and still sending: its claims last until `now + lease` (a sender that
    stops renewing them, wherever it ran, loses them when the lease runs out)."""
    table = OutboundMessage.__table__
    session.execute(
        update(table)  # type: ignore[arg-type]
        .where(table.c.claimed_by == holder, table.c.status == OutboundStatus.QUEUED)
        .values(next_attempt_at=now + lease))


def mark_sent(session: Session, outbound_id: int, *, now: datetime) -> OutboundRecord:
    """The SMTP server accepted the message."""
    row = _row(session, outbound_id)
    row.status = OutboundStatus.SENT
    row.sent_at = now
    row.next_attempt_at = None
    row.claimed_by = None
    session.flush()
    return to_record(row)


def record_sent(session: Session | Connection, outbound_id: int, *, now: datetime) -> None:
    """`mark_sent` in one plain UPDATE, returning nothing (what the sender needs; a plain
    Connection in a transaction will do)."""
    done = session.execute(_MARK_SENT, {"row": outbound_id, "now": now})
    if done.rowcount != 1:  # type: ignore[attr-defined]
        raise NotFound(f"no outbound message with id {outbound_id}")


def record_all_sent(session: Session | Connection, outbound_ids: Sequence[int], *,
                    now: datetime) -> None:
    """`record_sent` for several messages, in one UPDATE."""
    done = session.execute(_MARK_ALL_SENT, {"rows": list(outbound_ids), "now": now})
    if done.rowcount != len(set(outbound_ids)):  # type: ignore[attr-defined]
        raise NotFound(f"not every outbound message of {sorted(outbound_ids)} is stored")


_MARK_ALL_SENT = (
    update(OutboundMessage.__table__)  # type: ignore[arg-type]
    .where(OutboundMessage.__table__.c.id.in_(bindparam("rows", expanding=True)))
    .values(status=OutboundStatus.SENT, sent_at=bindparam("now"), next_attempt_at=None,
            claimed_by=None))
_MARK_SENT = (  # built once: the sender marks every message it sends
    update(OutboundMessage.__table__)  # type: ignore[arg-type]
    .where(OutboundMessage.__table__.c.id == bindparam("row"))
    .values(status=OutboundStatus.SENT, sent_at=bindparam("now"), next_attempt_at=None,
            claimed_by=None))


def mark_send_failed(
    session: Session, outbound_id: int, error: str, *, retry_at: datetime | None
) -> OutboundRecord:
    """Sending failed: try again at `retry_at`, or give up (status failed) when it is None."""
    row = _row(session, outbound_id)
    if row.status is OutboundStatus.SENT:
        raise StoreError(f"outbound message {outbound_id} was sent already")
    row.last_error = error
    row.next_attempt_at = retry_at
    row.claimed_by = None
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
