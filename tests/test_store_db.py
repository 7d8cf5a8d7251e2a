"""Connections: SQLite pragmas and transactions, UTC times, JSON, URLs, on both databases."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from sqlalchemy import text

from gm.store import audit
from gm.store.db import Database, default_url, make_engine, open_database, resolve_url
from gm.store.errors import StoreError
from gm.store.inbound import claim_next_inbound


def test_default_url_is_a_sqlite_file_in_the_data_dir(tmp_path: Path) -> None:
    assert default_url(tmp_path / "data") == f"sqlite:///{tmp_path / 'data' / 'gm.sqlite3'}"
    assert resolve_url(None, tmp_path) == default_url(tmp_path)
    assert resolve_url("postgresql+psycopg://x/y", tmp_path) == "postgresql+psycopg://x/y"


def test_sqlite_file_is_created_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    engine = make_engine(default_url(tmp_path / "new" / "dir"))
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
    finally:
        engine.dispose()
    assert (tmp_path / "new" / "dir" / "gm.sqlite3").exists()


def test_unsupported_url_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported database URL 'mysql://u:\\*\\*\\*@h/d'"):
        make_engine("mysql://u:secret@h/d")


def test_foreign_keys_are_enforced(database: Database) -> None:
    from sqlalchemy.exc import IntegrityError

    with pytest.raises(IntegrityError), database.transaction() as s:
        s.execute(
            text(
                "INSERT INTO powers (game_id, name, status, draw_vote, wait, created_at,"
                " updated_at) VALUES (4242, 'England', 'playing', false, false,"
                " '2030-01-01', '2030-01-01')"
            )
        )


def test_times_come_back_utc_aware(database: Database) -> None:
    paris = timezone(timedelta(hours=2))
    local = datetime(2030, 6, 1, 14, 30, tzinfo=paris)
    with database.transaction() as s:
        entry = audit.record_action(s, actor="gm@example.org", action="x", now=local)
    with database.read() as s:
        (back,) = audit.audit_log(s)
    assert back.id == entry.id
    assert back.at == datetime(2030, 6, 1, 12, 30, tzinfo=UTC)
    assert back.at.tzinfo is not None and back.at.utcoffset() == timedelta(0)


def test_naive_times_are_refused(database: Database) -> None:
    with pytest.raises(Exception, match="naive datetime"), database.transaction() as s:
        audit.record_action(s, actor="gm@example.org", action="x", now=datetime(2030, 1, 1))


def test_json_keeps_unicode_and_nesting(database: Database) -> None:
    details = {"text": "Œuvre – “quoted”", "nested": {"list": [1, 2.5, None, True]}}
    with database.transaction() as s:
        audit.record_action(
            s, actor="gm@example.org", action="x", details=details, now=datetime.now(UTC)
        )
    with database.read() as s:
        assert audit.audit_log(s)[0].details == details


def test_a_failed_transaction_leaves_nothing(database: Database) -> None:
    with pytest.raises(RuntimeError), database.transaction() as s:
        audit.record_action(s, actor="a@example.org", action="x", now=datetime.now(UTC))
        raise RuntimeError("processing failed")
    with database.read() as s:
        assert audit.audit_log(s) == []


def test_claims_refuse_a_read_session(database: Database) -> None:
    with database.read() as s:
        if database.dialect == "sqlite":
            with pytest.raises(StoreError, match="needs a writing session"):
                claim_next_inbound(s)
        else:  # PostgreSQL's row locks work in any transaction
            assert claim_next_inbound(s) is None


def test_sqlite_writers_wait_for_each_other_and_readers_do_not(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: a second writing transaction starts only when the first has committed,
    so even its first read sees the first one's writes (read-then-write claims are serialised
    whole); a reader (WAL) reads the last committed state meanwhile."""
    from gm.store import migrate

    url = default_url(tmp_path)
    migrate.upgrade(url)
    db = open_database(url)
    other = open_database(url)
    events: list[str] = []
    try:
        first_in = threading.Event()

        def second_writer() -> None:
            first_in.wait()
            with other.transaction() as s:
                seen = [e.action for e in audit.audit_log(s)]
                events.append(f"second writer read {seen}")
                audit.record_action(s, actor="b", action="second", now=datetime.now(UTC))

        thread = threading.Thread(target=second_writer)
        thread.start()
        with db.transaction() as s:
            audit.record_action(s, actor="a", action="first", now=datetime.now(UTC))
            first_in.set()
            time.sleep(0.5)
            with other.read() as r:
                assert audit.audit_log(r) == []  # not committed yet, and the reader got in
            events.append("first writer commits")
        thread.join(10)
        assert events == ["first writer commits", "second writer read ['first']"]
        with db.read() as r:
            assert [e.action for e in audit.audit_log(r)] == ["first", "second"]
    finally:
        db.dispose()
        other.dispose()
