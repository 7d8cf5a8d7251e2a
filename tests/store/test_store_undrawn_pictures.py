"""A map picture's PNG is queued undrawn (its SVG kept) and drawn by the sender once, for every
message carrying it; migration 0006 adds the SVG column and, going back, draws what is undrawn.
On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import func, select

from gm.mail.connect import make_sink
from gm.pictures.files import undrawn_png
from gm.service.clock import FixedClock
from gm.service.sender import drain_outbox
from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import Database, make_engine, open_database
from gm.store.models import OutboundFile
from gm.store.rows import Attachment, BodyPart
from tests.support.service_support import mail_by_recipient, maildir_config

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SVG = (b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">'
       b'<rect width="40" height="30" fill="#a8c8e6"/></svg>')
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _queue(url: str, count: int) -> None:
    db = open_database(url)
    try:
        with db.transaction() as s:
            outbound_repo.enqueue_many(s, [
                outbound_repo.NewMessage(
                    f"<r{n}@example.org>", [f"p{n}@example.org"], [("Subject", "results")],
                    [BodyPart("text/plain", "report")],
                    [undrawn_png("board.png", SVG), Attachment("board.svg", "image/svg+xml", SVG)])
                for n in range(count)], now=NOW)
    finally:
        db.dispose()


async def test_the_sender_draws_a_shared_picture_once_and_keeps_it(migrated_url: str,
                                                                   tmp_path: Path) -> None:
    _queue(migrated_url, 5)
    db = open_database(migrated_url)
    try:
        with db.read() as s:
            [undrawn] = s.scalars(select(OutboundFile).where(OutboundFile.svg.is_not(None)))
            assert undrawn.data == b"" and undrawn.svg == SVG  # one row for the five messages
        config = maildir_config(tmp_path)
        assert await drain_outbox(db, make_sink(config), config=config, clock=FixedClock(NOW)) == 5
        with db.read() as s:
            assert s.scalar(select(func.count()).select_from(OutboundFile)
                            .where(OutboundFile.svg.is_not(None))) == 0
            drawn = s.scalar(select(OutboundFile.data).where(
                OutboundFile.digest == outbound_repo.file_digest(undrawn_png("x", SVG))))
            assert drawn is not None and drawn.startswith(PNG_SIGNATURE)
            # every message now reads the drawn PNG; queueing the picture again reuses it
            assert all(r.attachments[0] == Attachment("board.png", "image/png", drawn)
                       for r in outbound_repo.list_outbound(s))
        _queue_one_more(db)
        with db.read() as s:
            assert s.scalar(select(func.count()).select_from(OutboundFile)) == 2
    finally:
        db.dispose()
    mails = mail_by_recipient(config.maildir.outbox)
    assert len(mails) == 5
    for [mail] in mails.values():
        png, svg = list(mail.iter_attachments())  # type: ignore[attr-defined]
        assert png.get_filename() == "board.png" and png.get_content() == drawn
        assert svg.get_content() == SVG


def _queue_one_more(db: Database) -> None:
    with db.transaction() as s:
        outbound_repo.enqueue_outbound(
            s, message_id="<late@example.org>", recipients=["gm@example.org"],
            headers=[("Subject", "results")], parts=[BodyPart("text/plain", "report")],
            attachments=[undrawn_png("board.png", SVG)], now=NOW)


def test_downgrade_draws_the_pictures_still_undrawn(db_url: str) -> None:
    migrate.upgrade(db_url, "head")
    _queue(db_url, 2)
    migrate.downgrade(db_url, "0005")
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            columns = {c["name"] for c in sa.inspect(conn).get_columns("outbound_files")}
            data = sorted(bytes(d) for (d,) in conn.execute(
                sa.text("SELECT data FROM outbound_files")))
    finally:
        engine.dispose()
    assert "svg" not in columns
    assert data[0] == SVG and data[1].startswith(PNG_SIGNATURE)
