"""Connecting to the database: engines, sessions, transactions and the schema-version check.

SQLite (the default, one file in the data directory) runs in WAL mode with foreign keys on, and
every writing transaction starts with BEGIN IMMEDIATE so concurrent writers, in one process or
several, are serialised by SQLite's lock instead of failing half-way. Commits are not synced
one by one (synchronous=NORMAL: a killed process loses nothing that committed, a power cut may
lose the last commits); `Database.make_durable` syncs everything committed so far, and the
service calls it before it tells the mail server that messages were processed. PostgreSQL
(psycopg 3) runs at READ COMMITTED; claims there use row locks (see gm.store.claims).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from gm.store import revisions
from gm.store.errors import SchemaError
from gm.store.pg_ping import ping_when_idle

DEFAULT_DATA_DIR = Path("var")
SQLITE_FILE = "gm.sqlite3"
SQLITE_BEGIN = "gm_sqlite_begin"  # execution option: "IMMEDIATE" (default) or "DEFERRED"
SQLITE_PROMPT = "gm_sqlite_prompt"  # execution option: wait for the write lock by polling
BUSY_TIMEOUT_S = 30
_PROMPT_PAUSE_S = (0.0001, 0.001)  # the first and the longest pause between two tries


def default_url(data_dir: Path | str = DEFAULT_DATA_DIR) -> str:
    """The embedded default: `sqlite:///<data dir>/gm.sqlite3` (absolute path)."""
    return f"sqlite:///{Path(data_dir).resolve() / SQLITE_FILE}"


def display_url(url: str | URL) -> str:
    """The URL with any password hidden, for messages."""
    return make_url(url).render_as_string(hide_password=True)


def _json_dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def make_engine(url: str | URL, *, echo: bool = False) -> Engine:
    """An engine for `sqlite:///PATH` or `postgresql+psycopg://...` (plain `postgresql://` too)."""
    u = make_url(url)
    backend = u.get_backend_name()
    if backend == "sqlite":
        if u.database and u.database != ":memory:" and not u.database.startswith("file:"):
            Path(u.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(
            u,
            echo=echo,
            json_serializer=_json_dumps,
            connect_args={"timeout": BUSY_TIMEOUT_S},
        )
        _configure_sqlite(engine)
        return engine
    if backend == "postgresql":
        if u.drivername == "postgresql":
            u = u.set(drivername="postgresql+psycopg")
        engine = create_engine(u, echo=echo, json_serializer=_json_dumps)
        ping_when_idle(engine)  # not before every transaction (pool_pre_ping): gm.store.pg_ping
        return engine
    raise ValueError(
        f"unsupported database URL {display_url(u)!r}: "
        "use sqlite:///PATH or postgresql+psycopg://USER@HOST/DB"
    )


def _configure_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver must not open transactions itself: _on_begin does, with the right mode.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_S * 1000}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        mode = options.get(SQLITE_BEGIN, "IMMEDIATE")
        if mode == "IMMEDIATE" and options.get(SQLITE_PROMPT):
            _begin_promptly(connection.connection.dbapi_connection)
        else:  # on the driver's connection: SQLAlchemy's execution path costs more than it
            connection.connection.dbapi_connection.execute(f"BEGIN {mode}")  # type: ignore[union-attr]


def _begin_promptly(dbapi_connection: Any) -> None:
    """BEGIN IMMEDIATE, trying again every fraction of a millisecond while another writer holds
    the lock (up to the busy timeout). SQLite's own busy handler sleeps ever longer (1, 2, 5,
    10, ... ms): a process whose short transactions meet another's long ones waits most of the
    time; this takes the lock about as soon as it is free."""
    dbapi_connection.execute("PRAGMA busy_timeout=0")
    try:
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        pause, longest = _PROMPT_PAUSE_S
        while True:
            try:
                dbapi_connection.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, longest)
    finally:
        dbapi_connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_S * 1000}")


def make_sessions(engine: Engine) -> sessionmaker[Session]:
    """Sessions for work that writes (and for claims). On SQLite each takes the write lock."""
    return sessionmaker(engine, expire_on_commit=False)


def make_read_sessions(engine: Engine) -> sessionmaker[Session]:
    """Sessions for reading only: on SQLite they do not take the write lock."""
    return sessionmaker(
        engine.execution_options(**{SQLITE_BEGIN: "DEFERRED"}), expire_on_commit=False
    )


def plain(session: Session) -> Connection:
    """The session's connection, for plain statements that skip the ORM's loading (cheaper on
    hot paths); changes still pending in the session are flushed first, as the ORM would."""
    if session.new or session.dirty or session.deleted:
        session.flush()
    return session.connection()


def is_serialising(session: Session) -> bool:
    """Whether this session's transaction serialises writers (false for SQLite read sessions)."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        return True
    return bool(conn.get_execution_options().get(SQLITE_BEGIN, "IMMEDIATE") != "DEFERRED")


@dataclass(frozen=True)
class Database:
    """An opened database: its engine and session factories."""

    url: str
    engine: Engine
    sessions: sessionmaker[Session]
    read_sessions: sessionmaker[Session]

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction, committed at the end (rolled back on an exception)."""
        with self.sessions.begin() as session:
            yield session

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading; its transaction is rolled back at the end."""
        with self.read_sessions() as session:
            yield session

    def take_lock_promptly(self) -> None:
        """On SQLite, wait for the write lock by trying often rather than by SQLite's growing
        sleeps (for a process of short transactions beside a busy writer: the sender worker)."""
        if self.dialect == "sqlite":
            self.engine.update_execution_options(**{SQLITE_PROMPT: True})

    def make_durable(self) -> None:
        """Make every transaction committed so far survive a power cut. On SQLite: a full
        checkpoint (waits for writers, copies the log into the database file and syncs it);
        PostgreSQL commits durably already."""
        if self.dialect != "sqlite":
            return
        conn = self.engine.raw_connection()  # outside any transaction, as a checkpoint must be
        try:
            cursor = conn.cursor()
            busy, _log, _done = cursor.execute("PRAGMA wal_checkpoint(FULL)").fetchone()
            if busy:  # a writer held on past the busy timeout: sync what the log holds
                cursor.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            cursor.close()
        finally:
            conn.close()

    def dispose(self) -> None:
        self.engine.dispose()


def open_database(url: str, *, check: bool = True) -> Database:
    """Connect to `url`; with `check`, refuse a schema this gm does not know (SchemaError)."""
    engine = make_engine(url)
    try:
        if check:
            check_schema(engine)
    except BaseException:
        engine.dispose()
        raise
    return Database(url, engine, make_sessions(engine), make_read_sessions(engine))


def check_schema(engine: Engine) -> str:
    """Return the schema revision if it is the one this gm needs, else raise SchemaError.

    The common case, a database at the head revision, costs one query and no Alembic import
    (gm.store.revisions reads the head from the scripts); anything else is Alembic's to say."""
    head = revisions.head_revision()
    if head is not None and _current_revision(engine) == head:
        return head
    from gm.store import migrate

    head = migrate.head_revision()
    with engine.connect() as conn:
        current = migrate.current_revision(conn)
    if current == head:
        return head
    where = display_url(engine.url)
    if current is None:
        raise SchemaError(f"no schema in {where}: run `gm db upgrade`")
    if current in migrate.known_revisions():
        raise SchemaError(
            f"database schema is at {current}, this gm needs {head}: run `gm db upgrade` ({where})"
        )
    raise SchemaError(
        f"database schema is at {current}, which this gm does not know (it needs {head}): "
        f"a newer gm upgraded {where}; run that gm, or its `gm db downgrade {head}`"
    )


def _current_revision(engine: Engine) -> str | None:
    """The revision in the version table when it holds exactly one, else None (no table, no
    row or several: Alembic then says what that means)."""
    try:
        with engine.connect() as conn:  # reading only: on SQLite without the write lock
            rows = conn.execution_options(**{SQLITE_BEGIN: "DEFERRED"}).exec_driver_sql(
                f"SELECT version_num FROM {revisions.VERSION_TABLE}").fetchall()
    except DBAPIError:
        return None
    return str(rows[0][0]) if len(rows) == 1 else None


def resolve_url(database_url: str | None, data_dir: Path | str = DEFAULT_DATA_DIR) -> str:
    """The configured URL, or the SQLite default in the data directory."""
    return database_url or default_url(data_dir)
