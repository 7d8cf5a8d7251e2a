"""Migration 0013: inbound messages are keyed by Message-ID, sender and body digest; the keys of
stored messages are made anew (so a copy read after the upgrade is still found as read), and
the downgrade gives back the Message-ID keys; on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from gm.store import inbound, migrate
from gm.store.db import make_engine, open_database

NOW = datetime(2026, 12, 4, 21, 0, tzinfo=UTC)
RAW = b"From: france@example.org\r\nMessage-ID: <m1@example.org>\r\n\r\nA Par-Bur\r\n"


def _keys(url: str) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(sa.text(
                "SELECT id, dedup_key FROM inbound_messages ORDER BY id")).all()]
    finally:
        engine.dispose()


def test_stored_messages_are_keyed_anew_and_back(db_url: str) -> None:
    migrate.upgrade(db_url, "0012")
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:
            for key, mid, raw in [("<m1@example.org>", "<m1@example.org>", RAW),
                                  ("sha256-raw:abc", None, b"no id")]:
                conn.execute(sa.text(
                    "INSERT INTO inbound_messages (dedup_key, message_id, sender, raw,"
                    " received_at, arrived_at, status, attempts) VALUES (:key, :mid,"
                    " 'france@example.org', :raw, :at, :at, 'processed', 1)"),
                    {"key": key, "mid": mid, "raw": raw,
                     "at": NOW.replace(tzinfo=None)})
    finally:
        engine.dispose()
    migrate.upgrade(db_url, "0013")
    new_key = inbound.inbound_key("<m1@example.org>", RAW, "france@example.org")
    assert _keys(db_url) == [(1, new_key), (2, "sha256-raw:abc")]
    migrate.upgrade(db_url)  # the later revisions, which gm's store needs
    db = open_database(db_url)
    try:
        # the same message read again after the upgrade is found as read, and counted
        with db.transaction() as s:
            again = inbound.receive_inbound(s, raw=RAW, sender="france@example.org", now=NOW,
                                            message_id="<m1@example.org>")
            assert (again.new, again.record.id) == (False, 1)
            assert inbound.count_duplicate(s, 1) == 0
            assert inbound.count_duplicate(s, 1) == 1
            # England reusing the Message-ID with other orders is a message of its own
            other = inbound.receive_inbound(
                s, raw=RAW.replace(b"A Par-Bur", b"F Lon-NTH"), sender="england@example.org",
                now=NOW, message_id="<m1@example.org>")
            assert other.new
    finally:
        db.dispose()
    migrate.downgrade(db_url, "0012")
    # the first of the copies sharing a Message-ID keeps it as its key
    keys = _keys(db_url)
    assert keys[:2] == [(1, "<m1@example.org>"), (2, "sha256-raw:abc")]
    assert len(keys) == 3 and str(keys[2][1]).startswith("sha256-row:")
