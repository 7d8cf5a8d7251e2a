"""Connections: SQLite pragmas and transactions, UTC times, JSON, URLs, on both databases."""

from __future__ import annotations

import subprocess
import sys
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


def test_commits_are_synced_in_batches_and_make_durable_syncs_them(
        database: Database) -> None:
    # SQLite syncs the log only at checkpoints (synchronous=NORMAL, WAL); make_durable is one:
    # afterwards the database file itself holds every commit (a power cut loses nothing)
    with database.transaction() as s:
        audit.record_action(s, actor="gm@example.org", action="durable", now=datetime.now(UTC))
    database.make_durable()
    if database.dialect != "sqlite":
        return  # PostgreSQL commits durably; make_durable has nothing to do
    with database.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    raw = database.engine.raw_connection()
    try:
        # nothing is left in the log to copy: (busy, frames in the log, frames checkpointed)
        busy, logged, done = raw.cursor().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert (busy, logged - done) == (0, 0)
    finally:
        raw.close()
    reopened = open_database(database.url)
    try:
        with reopened.read() as s:
            assert [e.action for e in audit.audit_log(s)] == ["durable"]
    finally:
        reopened.dispose()


def test_a_prompt_writer_waits_for_the_lock_and_then_writes(tmp_path: Path) -> None:
    # the sender worker's way of taking the SQLite write lock: tries again until it is free
    import sqlite3

    path = tmp_path / "gm.sqlite3"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("CREATE TABLE marks (name TEXT)")
    db = open_database(f"sqlite:///{path}", check=False)
    db.take_lock_promptly()
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO marks VALUES ('held')")
    released = threading.Event()

    def release() -> None:
        time.sleep(0.3)
        released.set()
        holder.execute("COMMIT")

    thread = threading.Thread(target=release)
    thread.start()
    try:
        with db.transaction() as session:
            session.execute(text("INSERT INTO marks VALUES ('next')"))
            assert released.is_set()  # it could only begin once the other writer committed
        with db.read() as session:
            names = list(session.execute(text("SELECT name FROM marks")).scalars())
        assert names == ["held", "next"]
    finally:
        thread.join()
        holder.close()
        db.dispose()


def test_sqlite_needs_neither_alembic_nor_the_postgresql_dialect(tmp_path: Path) -> None:
    """Start-up time: a service on SQLite (the default) opens its database, checks the schema
    and writes JSON documents without loading Alembic or SQLAlchemy's PostgreSQL dialect."""
    url = f"sqlite:///{tmp_path / 'gm.sqlite3'}"
    from gm.store import migrate

    migrate.upgrade(url)
    code = (
        "import sys\n"
        "from datetime import UTC, datetime\n"
        "from gm.store import audit\n"
        "from gm.store.db import open_database\n"
        f"db = open_database({url!r})\n"
        "details = {'nested': [1, None, 'x']}\n"
        "with db.transaction() as s:\n"
        "    audit.record_action(s, actor='test', action='test', now=datetime.now(UTC),\n"
        "                        details=details)\n"
        "with db.read() as s:\n"
        "    assert [e.details for e in audit.audit_log(s)] == [details]\n"
        "db.dispose()\n"
        "print(sorted(m for m in sys.modules if m.startswith(('alembic', "
        "'sqlalchemy.dialects.postgresql'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
