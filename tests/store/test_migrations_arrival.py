"""Migration 0007: inbound messages get their arrival (messages stored before it take the time
they were stored), and each mail source how far it has been read; the rows and every reference
to them survive the upgrade and the downgrade; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from gm.store import migrate
from gm.store.db import make_engine

NOW = datetime(2026, 11, 28, 21, 37, 58, tzinfo=UTC)


def _rows(url: str, columns: str) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(sa.text(
                f"SELECT {columns} FROM inbound_messages ORDER BY id")).all()]
    finally:
        engine.dispose()


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return set(sa.inspect(conn).get_table_names())
    finally:
        engine.dispose()


def test_arrival_backfilled_and_dropped_keeping_the_messages(db_url: str) -> None:
    migrate.upgrade(db_url, "0006")
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(
                "INSERT INTO inbound_messages (id, dedup_key, sender, raw, received_at, status,"
                " attempts) VALUES (1, '<m1@example.org>', 'france@example.org', :raw, :at,"
                " 'processed', 1)"), {"raw": b"A Par-Bur", "at": NOW.replace(tzinfo=None)})
            conn.execute(sa.text(
                "INSERT INTO outbound_messages (message_id, recipients, headers, parts, status,"
                " attempts, created_at, inbound_id) VALUES ('<r1@example.org>', '[]', '[]',"
                " '[]', 'queued', 0, :at, 1)"), {"at": NOW.replace(tzinfo=None)})
    finally:
        engine.dispose()
    migrate.upgrade(db_url, "0007")
    ((received, arrived),) = _rows(db_url, "received_at, arrived_at")
    assert arrived == received
    assert "inbox_reads" in _tables(db_url)
    migrate.downgrade(db_url, "0006")
    assert _rows(db_url, "id, dedup_key") == [(1, "<m1@example.org>")]
    assert "inbox_reads" not in _tables(db_url)
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            refs = conn.execute(sa.text("SELECT inbound_id FROM outbound_messages")).all()
    finally:
        engine.dispose()
    assert [r[0] for r in refs] == [1]  # the reply still names its message
