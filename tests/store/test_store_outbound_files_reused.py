"""A picture queued again is its stored file (gm.store.outbound): the same SVG queued by another
transaction names the row stored before (undrawn, or drawn already: then the new message
carries the PNG and nothing is drawn again); another picture is a row of its own. Each message
reads its attachments as its own, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from gm.pictures.files import undrawn_png
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.models import OutboundFile, OutboundMessage
from gm.store.rows import Attachment, BodyPart

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SVG = b"<svg>France's orders</svg>"


def _queue(database: Database, message_id: str, *pictures: Attachment) -> int:
    with database.transaction() as s:
        outbound_repo.enqueue_many(s, [outbound_repo.NewMessage(
            message_id, ["france@example.org"], [("Subject", "orders")],
            [BodyPart("text/plain", "Orders of France.\n")], list(pictures))], now=NOW)
        return int(s.scalar(select(OutboundMessage.id)
                            .where(OutboundMessage.message_id == message_id)) or 0)


def _files(database: Database) -> int:
    with database.read() as s:
        return int(s.scalar(select(func.count()).select_from(OutboundFile)) or 0)


def _attachments(database: Database, outbound_id: int) -> tuple[Attachment, ...]:
    with database.read() as s:
        return outbound_repo.get_outbound(s, outbound_id).attachments


def test_the_same_picture_queued_again_is_the_file_stored_before(database: Database) -> None:
    picture = undrawn_png("orders.png", SVG)
    first = _queue(database, "<a@example.org>", picture)
    second = _queue(database, "<b@example.org>", picture)
    assert _files(database) == 1
    assert _attachments(database, first) == _attachments(database, second) == (picture,)
    with database.transaction() as s:  # the sender drew it for the first message
        outbound_repo.record_drawn(s, SVG, b"PNG of France's orders")
    third = _queue(database, "<c@example.org>", picture)
    assert _files(database) == 1
    drawn = Attachment("orders.png", "image/png", b"PNG of France's orders")
    assert [_attachments(database, i) for i in (first, second, third)] == [(drawn,)] * 3


def test_another_picture_is_a_file_of_its_own(database: Database) -> None:
    one = _queue(database, "<a@example.org>", undrawn_png("orders.png", SVG))
    other = _queue(database, "<b@example.org>", undrawn_png("orders.png", b"<svg>other</svg>"),
                   Attachment("notes.txt", "text/plain", b"notes"))
    assert _files(database) == 3
    assert [a.svg for a in _attachments(database, one)] == [SVG]
    assert [(a.svg, a.data) for a in _attachments(database, other)] == [
        (b"<svg>other</svg>", b""), (None, b"notes")]
