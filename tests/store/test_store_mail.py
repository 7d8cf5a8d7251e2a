"""Inbound and outbound mail: processed once, kept when failing, sent until accepted."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.store import inbound, outbound
from gm.store.db import Database
from gm.store.errors import StoreError
from gm.store.rows import Attachment, BodyPart
from gm.store.statuses import InboundStatus, OutboundStatus
from tests.support.store_samples import T0

MIN = timedelta(minutes=1)
RAW = b"From: a@example.org\r\nMessage-ID: <m1@example.org>\r\n\r\nSIGNON Fg pw\r\n\xff\x00"


def _store(db: Database, raw: bytes = RAW, mid: str | None = "<m1@example.org>", uid: int = 7
           ) -> tuple[int, bool]:
    with db.transaction() as s:
        received = inbound.receive_inbound(
            s, raw=raw, sender="a@example.org", message_id=mid, subject="orders",
            mailbox="INBOX", uidvalidity=1, uid=uid, now=T0,
        )
        return received.record.id, received.new


def test_a_message_is_stored_once_per_message_id_sender_and_body(database: Database) -> None:
    first, new = _store(database)
    assert new
    # the same mail again, with a Received line more and CRLF made LF (another copy of it)
    copy = b"Received: by mx.example.org; Sun, 1 Mar 2026 12:00:00 +0000\n" + RAW.replace(
        b"\r\n", b"\n")
    again, new = _store(database, raw=copy, uid=8)
    assert (again, new) == (first, False)
    # the same Message-ID on other text, or from another sender, is another message
    other, new = _store(database, raw=RAW + b" other orders", uid=9)
    assert new and other != first
    with database.transaction() as s:
        received = inbound.receive_inbound(s, raw=RAW, sender="b@example.org",
                                           message_id="<m1@example.org>", now=T0)
        rec, new = received.record, received.new
    assert new and rec.id not in (first, other)
    with database.read() as s:
        rec = inbound.get_inbound(s, first)
        assert rec.raw == RAW  # bytes exactly, the first copy
        assert (rec.sender, rec.subject, rec.mailbox, rec.uid) == (
            "a@example.org", "orders", "INBOX", 7)
        assert (rec.status, rec.attempts, rec.received_at) == (InboundStatus.NEW, 0, T0)
        assert inbound.last_uid(s, "INBOX", 1) == 9  # the other message
        assert inbound.last_uid(s, "INBOX", 2) is None


def test_without_message_id_the_bytes_are_the_key(database: Database) -> None:
    a, new_a = _store(database, raw=b"one", mid=None)
    b, new_b = _store(database, raw=b"two", mid=None)
    c, new_c = _store(database, raw=b"one", mid="  ")
    assert new_a and new_b and not new_c
    assert a != b and c == a
    long_id = "<" + "x" * 400 + "@example.org>"
    assert len(inbound.inbound_key(long_id, b"")) < 255
    d, new_d = _store(database, raw=b"three", mid=long_id)
    e, new_e = _store(database, raw=b"three", mid=long_id)
    assert new_d and not new_e and d == e


def test_claim_process_shunt_and_replay(database: Database) -> None:
    one, _ = _store(database, mid="<1@x>")
    two, _ = _store(database, mid="<2@x>")
    with database.transaction() as s:
        claimed = inbound.claim_next_inbound(s)
        assert claimed is not None and claimed.id == one
        inbound.mark_processed(s, one, now=T0 + MIN)
    # processing of the second fails: its transaction rolls back, then it is shunted
    with pytest.raises(RuntimeError), database.transaction() as s:
        claimed = inbound.claim_next_inbound(s)
        assert claimed is not None and claimed.id == two
        raise RuntimeError("boom")
    with database.transaction() as s:
        inbound.mark_shunted(s, two, "RuntimeError: boom", now=T0 + 2 * MIN)
    with database.transaction() as s:
        assert inbound.claim_next_inbound(s) is None  # nothing new
        assert inbound.claim_inbound(s, one) is None  # processed: never again
    with database.read() as s:
        p = inbound.get_inbound(s, one)
        assert (p.status, p.processed_at, p.attempts) == (InboundStatus.PROCESSED, T0 + MIN, 1)
        f = inbound.get_inbound(s, two)
        assert (f.status, f.error, f.attempts) == (InboundStatus.SHUNTED, "RuntimeError: boom", 1)
        assert [m.id for m in inbound.list_inbound(s, status=InboundStatus.SHUNTED)] == [two]
    with database.transaction() as s:
        inbound.requeue_inbound(s, two)
    with database.transaction() as s:
        claimed = inbound.claim_inbound(s, two)
        assert claimed is not None
        done = inbound.mark_processed(s, two, now=T0 + 3 * MIN)
    assert (done.status, done.attempts) == (InboundStatus.PROCESSED, 2)
    with pytest.raises(StoreError, match="is processed, not new"), database.transaction() as s:
        inbound.mark_processed(s, two, now=T0)
    with pytest.raises(StoreError, match="not shunted"), database.transaction() as s:
        inbound.requeue_inbound(s, one)


def _enqueue(db: Database, mid: str = "<out1@gm.example.org>") -> int:
    with db.transaction() as s:
        rec, new = outbound.enqueue_outbound(
            s,
            message_id=mid,
            recipients=["a@example.org", "b@example.org"],
            headers=[("Subject", "Diplomacy results g S1901M"), ("X-Game", "g")],
            parts=[BodyPart("text/plain", "Orders:\n  F Lon - NTH\n")],
            attachments=[Attachment("map.png", "image/png", bytes(range(256)) * 4)],
            now=T0,
        )
        assert new
        return rec.id


def test_outbound_messages_are_stored_whole_and_queued_once(database: Database) -> None:
    oid = _enqueue(database)
    with database.transaction() as s:
        again, new = outbound.enqueue_outbound(
            s, message_id="<out1@gm.example.org>", recipients=["z@example.org"], headers=[],
            parts=[], now=T0 + MIN)
        assert (again.id, new) == (oid, False)
    with database.read() as s:
        rec = outbound.get_outbound(s, oid)
    assert rec.recipients == ("a@example.org", "b@example.org")
    assert rec.headers == (("Subject", "Diplomacy results g S1901M"), ("X-Game", "g"))
    assert rec.parts == (BodyPart("text/plain", "Orders:\n  F Lon - NTH\n"),)
    assert rec.attachments == (Attachment("map.png", "image/png", bytes(range(256)) * 4),)
    assert (rec.status, rec.attempts, rec.next_attempt_at) == (OutboundStatus.QUEUED, 0, T0)


def test_sending_claims_with_a_lease_and_retries_until_accepted(database: Database) -> None:
    oid = _enqueue(database)
    lease = timedelta(minutes=10)
    with database.transaction() as s:
        (claimed,) = outbound.claim_due_outbound(s, T0, lease=lease)
        assert (claimed.id, claimed.attempts, claimed.next_attempt_at) == (oid, 1, T0 + lease)
    with database.transaction() as s:
        assert outbound.claim_due_outbound(s, T0 + MIN) == []  # leased to the first sender
    with database.transaction() as s:
        outbound.mark_send_failed(s, oid, "421 try later", retry_at=T0 + 2 * MIN)
    with database.transaction() as s:
        assert outbound.claim_due_outbound(s, T0 + MIN) == []
        (again,) = outbound.claim_due_outbound(s, T0 + 2 * MIN)
        assert (again.attempts, again.last_error) == (2, "421 try later")
    with database.transaction() as s:
        sent = outbound.mark_sent(s, oid, now=T0 + 3 * MIN)
    assert (sent.status, sent.sent_at, sent.next_attempt_at) == (
        OutboundStatus.SENT, T0 + 3 * MIN, None)
    with database.transaction() as s:
        assert outbound.claim_due_outbound(s, T0 + timedelta(days=1)) == []
    with pytest.raises(StoreError, match="sent already"), database.transaction() as s:
        outbound.mark_send_failed(s, oid, "late error", retry_at=None)


def test_a_message_given_up_on_can_be_requeued(database: Database) -> None:
    oid = _enqueue(database)
    with database.transaction() as s:
        outbound.claim_due_outbound(s, T0)
        failed = outbound.mark_send_failed(s, oid, "550 no such user", retry_at=None)
    assert (failed.status, failed.next_attempt_at) == (OutboundStatus.FAILED, None)
    with database.transaction() as s:
        assert outbound.claim_due_outbound(s, T0 + timedelta(days=1)) == []
        outbound.requeue_outbound(s, oid, now=T0 + timedelta(days=1))
        (again,) = outbound.claim_due_outbound(s, T0 + timedelta(days=1))
    assert again.id == oid and again.attempts == 2
    with database.read() as s:
        assert [m.id for m in outbound.list_outbound(s, status=OutboundStatus.QUEUED)] == [oid]


def test_due_messages_are_claimed_oldest_first_up_to_the_limit(database: Database) -> None:
    ids = [_enqueue(database, f"<o{i}@x>") for i in range(5)]
    with database.transaction() as s:
        first = outbound.claim_due_outbound(s, T0, limit=3)
        rest = outbound.claim_due_outbound(s, T0, limit=3)
    assert [m.id for m in first] == ids[:3]
    assert [m.id for m in rest] == ids[3:]
