"""Migration 0010: outbound messages gain their envelope sender's token, and failing addresses
their table; messages queued before keep going out (without a token), both ways, on SQLite and
PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import inspect

from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import make_engine, open_database
from gm.store.holders import this_process
from gm.store.statuses import OutboundStatus
from tests.store.test_migrations_claim_holders import NOW, _queue_at_0006


def _schema(url: str) -> tuple[set[str], set[str]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            found = inspect(conn)
            return ({c["name"] for c in found.get_columns("outbound_messages")},
                    set(found.get_table_names()))
    finally:
        engine.dispose()


def test_0010_adds_the_tokens_and_the_failures_and_removes_them_going_back(
        db_url: str) -> None:
    migrate.upgrade(db_url, "0006")
    _queue_at_0006(db_url)
    migrate.upgrade(db_url, "0008")
    columns, tables = _schema(db_url)
    assert "bounce_token" not in columns and "address_failures" not in tables
    migrate.upgrade(db_url, "0010")
    columns, tables = _schema(db_url)
    assert "bounce_token" in columns and "address_failures" in tables
    migrate.upgrade(db_url, "head")  # gm opens only a database at the newest schema
    db = open_database(db_url)
    try:
        with db.transaction() as s:  # the message queued before: claimed, with no token
            (claimed,) = outbound_repo.claim_due_outbound(s, NOW, holder=this_process().key)
            assert claimed.id == 1 and claimed.bounce_token is None
    finally:
        db.dispose()
    migrate.downgrade(db_url, "0008")
    columns, tables = _schema(db_url)
    assert "bounce_token" not in columns and "address_failures" not in tables
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT id, status, attempts FROM outbound_messages"))
            assert [tuple(r) for r in rows] == [(1, OutboundStatus.QUEUED.value, 1)]
    finally:
        engine.dispose()
