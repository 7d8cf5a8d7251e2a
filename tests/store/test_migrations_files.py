"""Migration 0002: queued attachments move into outbound_files (identical contents share one
row) and back on downgrade, with every message still carrying its own attachments; new reports
store a phase's picture once, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy import func, select

from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import make_engine, open_database
from gm.store.models import OutboundAttachment, OutboundFile
from gm.store.rows import Attachment, BodyPart
from gm.store.types import JSONDocument, UTCDateTime
from tests.support.fixtures.postgres import create_database, drop_database

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
MAP = b"<svg>map of spring 1901</svg>" * 1000
OTHER = bytes(range(256)) * 8

# What three queued messages carry at revision 0001: the same map twice, then two files.
QUEUED = {
    1: [("map.svg", "image/svg+xml", MAP)],
    2: [("map.svg", "image/svg+xml", MAP)],
    3: [("notes.txt", "text/plain", b"hello"), ("map.png", "image/png", OTHER)],
}


def _queue_at_0001(url: str) -> None:
    """Messages and attachments written as revision 0001 stored them (bytes in each row)."""
    meta = sa.MetaData()
    messages = sa.Table("outbound_messages", meta, *_message_columns())
    attachments = sa.Table(
        "outbound_attachments", meta,
        sa.Column("id", sa.Integer, primary_key=True), sa.Column("outbound_id", sa.Integer),
        sa.Column("position", sa.Integer), sa.Column("filename", sa.String),
        sa.Column("content_type", sa.String), sa.Column("data", sa.LargeBinary))
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            for n, files in QUEUED.items():
                conn.execute(messages.insert().values(
                    id=n, message_id=f"<m{n}@example.org>", recipients=[f"p{n}@example.org"],
                    headers=[["Subject", f"report {n}"]],
                    parts=[{"content_type": "text/plain", "text": "body"}], status="queued",
                    attempts=0, next_attempt_at=NOW, created_at=NOW))
                for i, (name, kind, data) in enumerate(files):
                    conn.execute(attachments.insert().values(
                        outbound_id=n, position=i, filename=name, content_type=kind, data=data))
    finally:
        engine.dispose()


def _message_columns() -> list[sa.Column[object]]:
    return [sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("message_id", sa.String), sa.Column("recipients", JSONDocument),
            sa.Column("headers", JSONDocument), sa.Column("parts", JSONDocument),
            sa.Column("status", sa.String), sa.Column("attempts", sa.Integer),
            sa.Column("next_attempt_at", UTCDateTime), sa.Column("created_at", UTCDateTime)]


def _attachments_at_0001(url: str) -> dict[int, list[tuple[str, str, bytes]]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT outbound_id, filename, content_type, data FROM outbound_attachments"
                " ORDER BY outbound_id, position")).all()
    finally:
        engine.dispose()
    found: dict[int, list[tuple[str, str, bytes]]] = {}
    for outbound_id, name, kind, data in rows:
        found.setdefault(outbound_id, []).append((name, kind, bytes(data)))
    return found


def test_upgrade_moves_attachments_into_shared_files_and_downgrade_restores_them(
        db_url: str) -> None:
    migrate.upgrade(db_url, "0001")
    _queue_at_0001(db_url)
    migrate.upgrade(db_url, "head")
    db = open_database(db_url)
    try:
        with db.read() as s:
            # the two copies of the map became one stored file: three files for four rows
            assert s.scalar(select(func.count()).select_from(OutboundFile)) == 3
            assert s.scalar(select(func.count()).select_from(OutboundAttachment)) == 4
            for n, files in QUEUED.items():
                record = outbound_repo.get_outbound(s, n)
                assert record.attachments == tuple(Attachment(*f) for f in files)
    finally:
        db.dispose()
    migrate.downgrade(db_url, "0001")
    assert _attachments_at_0001(db_url) == QUEUED


def test_messages_queued_together_store_a_shared_attachment_once(migrated_url: str) -> None:
    picture = Attachment("demo-fall-1901.svg", "image/svg+xml", MAP)
    db = open_database(migrated_url)
    try:
        with db.transaction() as s:
            outbound_repo.enqueue_many(s, [
                outbound_repo.NewMessage(f"<r{n}@example.org>", [f"p{n}@example.org"],
                                         [("Subject", "results")],
                                         [BodyPart("text/plain", "report")], [picture])
                for n in range(9)], now=NOW)
            # queued alone, the same picture is found and not stored again; another is new
            outbound_repo.enqueue_outbound(
                s, message_id="<late@example.org>", recipients=["gm@example.org"],
                headers=[("Subject", "results")], parts=[BodyPart("text/plain", "report")],
                attachments=[picture, Attachment("x.png", "image/png", OTHER)], now=NOW)
        with db.read() as s:
            assert s.scalar(select(func.count()).select_from(OutboundFile)) == 2
            records = outbound_repo.list_outbound(s)
    finally:
        db.dispose()
    assert len(records) == 10
    assert all(r.attachments[0] == picture for r in records)
    assert records[-1].attachments[1] == Attachment("x.png", "image/png", OTHER)


def _compressions(url: str) -> dict[str, str]:
    """Each large column's compression method on PostgreSQL ('' for the server's default)."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT c.relname || '.' || a.attname, a.attcompression FROM pg_attribute a"
                " JOIN pg_class c ON c.oid = a.attrelid WHERE (c.relname, a.attname) IN"
                " (('outbound_messages', 'parts'), ('outbound_files', 'data'),"
                " ('phases', 'state'), ('phases', 'results'), ('phases', 'events'))")).all()
    finally:
        engine.dispose()
    return {name: str(method) for name, method in rows}


def test_large_columns_use_lz4_on_postgresql_and_go_back_on_downgrade(pg_admin_url: str) -> None:
    url = create_database(pg_admin_url)
    try:
        migrate.upgrade(url, "head")
        # 'l': lz4; the events column (short texts) keeps the default
        assert _compressions(url) == {"outbound_messages.parts": "l", "outbound_files.data": "l",
                                      "phases.state": "l", "phases.results": "l",
                                      "phases.events": ""}
        migrate.downgrade(url, "0001")
        assert _compressions(url) == {"outbound_messages.parts": "", "phases.state": "",
                                      "phases.results": "", "phases.events": ""}
    finally:
        drop_database(pg_admin_url, url)
