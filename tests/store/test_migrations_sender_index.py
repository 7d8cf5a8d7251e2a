"""Migration 0018_inbound_sender_id: the inbound messages are indexed by sender and id, so
that the mail guard's question (the replies to a sender's latest messages) reads only those,
however much the sender sent before; removed going back, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import make_engine

INDEX = "ix_inbound_messages_sender_id"
NOW = datetime(2026, 12, 7, 22, 0, tzinfo=UTC)


def _indexes(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {i["name"] or "" for i in sa.inspect(conn).get_indexes("inbound_messages")}
    finally:
        engine.dispose()


def test_0018_indexes_inbound_mail_by_sender_and_id_and_removes_it_going_back(
        db_url: str) -> None:
    migrate.upgrade(db_url, "0017")
    assert INDEX not in _indexes(db_url)
    migrate.upgrade(db_url, "head")
    assert INDEX in _indexes(db_url)
    migrate.downgrade(db_url, "0017")
    assert INDEX not in _indexes(db_url)


def test_a_senders_latest_replies_are_read_from_the_index_without_sorting_the_rest(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'gm.sqlite3'}"
    migrate.upgrade(url)
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            compiled = outbound_repo._REPLIES_TO.compile(
                dialect=engine.dialect, compile_kwargs={"render_postcompile": True})
            params = compiled.construct_params(
                {"sender": "anna@example.org", "since": NOW - timedelta(hours=1), "limit": 3})
            plan = " / ".join(row[-1] for row in conn.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {compiled}",
                tuple(params[name] for name in compiled.positiontup or ())))
    finally:
        engine.dispose()
    assert INDEX in plan
    assert "TEMP B-TREE" not in plan  # no sender's whole history read and sorted
