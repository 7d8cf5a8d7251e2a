"""Migration 0003: inbound messages may be held (the per-sender rate limit) and are indexed by
sender and arrival; the rows and every reference to them survive the upgrade; downgrading turns
held messages into shunted ones (nothing lost); on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from gm.store import migrate
from gm.store.db import make_engine

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
INDEX = "ix_inbound_messages_sender_received"


def _insert(conn: sa.Connection, n: int, status: str) -> None:
    conn.execute(sa.text(
        "INSERT INTO inbound_messages (id, dedup_key, sender, raw, received_at, status, attempts)"
        " VALUES (:id, :key, 'france@example.org', :raw, :at, :status, 0)"),
        {"id": n, "key": f"<m{n}@example.org>", "raw": b"From: france@example.org\r\n\r\nLIST",
         "at": NOW.replace(tzinfo=None), "status": status})


def _refuses(url: str, n: int, status: str) -> bool:
    """Whether the database refuses an inbound message with this status."""
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            _insert(conn, n, status)
    except sa.exc.IntegrityError:
        return True
    finally:
        engine.dispose()
    return False


def _state(url: str) -> tuple[list[tuple[int, str, str | None]], list[int | None], set[str]]:
    """The inbound rows (id, status, error), the outbound rows' inbound ids, and the inbound
    table's indexes."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT id, status, error FROM inbound_messages ORDER BY id")).all()
            refs = conn.execute(sa.text(
                "SELECT inbound_id FROM outbound_messages ORDER BY id")).scalars().all()
            indexes = {i["name"] or "" for i in sa.inspect(conn).get_indexes("inbound_messages")}
    finally:
        engine.dispose()
    return [(r[0], r[1], r[2]) for r in rows], list(refs), indexes


def test_held_allowed_indexed_and_downgraded_to_shunted(db_url: str) -> None:
    migrate.upgrade(db_url, "0002")
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            _insert(conn, 1, "processed")
            conn.execute(sa.text(
                "INSERT INTO outbound_messages (message_id, recipients, headers, parts, status,"
                " attempts, created_at, inbound_id) VALUES ('<r1@example.org>', '[]', '[]',"
                " '[]', 'queued', 0, :at, 1)"), {"at": NOW.replace(tzinfo=None)})
    finally:
        engine.dispose()
    assert _refuses(db_url, 2, "held")

    migrate.upgrade(db_url, "0003")
    assert not _refuses(db_url, 2, "held")
    assert _refuses(db_url, 3, "bogus")  # the CHECK is still there
    rows, refs, indexes = _state(db_url)
    assert rows == [(1, "processed", None), (2, "held", None)]
    assert refs == [1]  # the reply still names its message
    assert INDEX in indexes

    migrate.downgrade(db_url, "0002")
    rows, refs, indexes = _state(db_url)
    assert rows[0] == (1, "processed", None)
    assert rows[1][:2] == (2, "shunted") and "held by the rate limit" in (rows[1][2] or "")
    assert refs == [1]
    assert INDEX not in indexes
    assert _refuses(db_url, 4, "held")


@pytest.mark.parametrize("backend", ["sqlite"])
def test_sqlite_keeps_a_sound_database(db_url: str) -> None:
    migrate.upgrade(db_url, "head")
    migrate.downgrade(db_url, "0002")
    migrate.upgrade(db_url, "head")
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
    finally:
        engine.dispose()
