"""Migration 0008: outbound messages gain the name of the process holding their claim; queued
messages are kept both ways, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy import inspect

from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import make_engine, open_database
from gm.store.holders import this_process
from gm.store.statuses import OutboundStatus
from gm.store.types import JSONDocument, UTCDateTime

NOW = datetime(2026, 11, 28, 22, 0, tzinfo=UTC)


def _columns(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {c["name"] for c in inspect(conn).get_columns("outbound_messages")}
    finally:
        engine.dispose()


def _queue_at_0006(url: str) -> None:
    messages = sa.Table(
        "outbound_messages", sa.MetaData(),
        sa.Column("id", sa.Integer, primary_key=True), sa.Column("message_id", sa.String),
        sa.Column("recipients", JSONDocument), sa.Column("headers", JSONDocument),
        sa.Column("parts", JSONDocument), sa.Column("status", sa.String),
        sa.Column("attempts", sa.Integer), sa.Column("next_attempt_at", UTCDateTime),
        sa.Column("created_at", UTCDateTime))
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(messages.insert().values(
                id=1, message_id="<m1@example.org>", recipients=["p@example.org"],
                headers=[["Subject", "reply"]], parts=[{"content_type": "text/plain",
                                                        "text": "body"}],
                status="queued", attempts=0, next_attempt_at=NOW, created_at=NOW))
    finally:
        engine.dispose()


def test_0008_adds_the_claims_holder_and_removes_it_going_back(db_url: str) -> None:
    migrate.upgrade(db_url, "0006")
    _queue_at_0006(db_url)
    assert "claimed_by" not in _columns(db_url)
    migrate.upgrade(db_url, "0008")
    assert "claimed_by" in _columns(db_url)
    migrate.upgrade(db_url, "head")  # gm opens only a database at the newest schema
    db = open_database(db_url)
    try:
        with db.transaction() as s:  # the message queued before is claimed, naming its holder
            (claimed,) = outbound_repo.claim_due_outbound(s, NOW, holder=this_process().key)
            assert claimed.id == 1
        with db.read() as s:
            assert s.scalar(sa.text("SELECT claimed_by FROM outbound_messages")) == (
                this_process().key)
    finally:
        db.dispose()
    migrate.downgrade(db_url, "0006")
    assert "claimed_by" not in _columns(db_url)
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT id, status, attempts FROM outbound_messages"))
            assert [tuple(r) for r in rows] == [(1, OutboundStatus.QUEUED.value, 1)]
    finally:
        engine.dispose()
