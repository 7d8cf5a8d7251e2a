"""Migration 0011: games gain the hash of their variant's file (games.variant_digest); games
created before keep going (NULL: a built-in variant), both ways, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy import inspect

from gm.store import games as games_repo
from gm.store import migrate
from gm.store.db import make_engine, open_database

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def _columns(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {c["name"] for c in inspect(conn).get_columns("games")}
    finally:
        engine.dispose()


def test_0011_adds_the_variant_digest_and_removes_it_going_back(db_url: str) -> None:
    migrate.upgrade(db_url, "0010")
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:  # a game created before 0011
            conn.execute(sa.text(
                "INSERT INTO games (name, name_key, variant, status, settings, gm_address, "
                "gm_password_hash, created_at, updated_at) VALUES ('Old', 'old', 'standard', "
                "'active', '{}', 'gm@example.org', 'x', :now, :now)"), {"now": NOW})
    finally:
        engine.dispose()
    assert "variant_digest" not in _columns(db_url)
    migrate.upgrade(db_url, "0011")
    assert "variant_digest" in _columns(db_url)
    migrate.upgrade(db_url, "head")
    db = open_database(db_url)
    try:
        with db.transaction() as s:
            old = games_repo.find_game(s, "old")
            assert old is not None and old.variant_digest is None
            new = games_repo.create_game(s, name="New", variant="isthmia", gm_address="g@x.org",
                                         gm_password_hash="x", now=NOW, variant_digest="ab" * 32)
            games_repo.set_variant_digest(s, new.id, "cd" * 32, now=NOW)
        with db.read() as s:
            found = games_repo.find_game(s, "new")
            assert found is not None and found.variant_digest == "cd" * 32
    finally:
        db.dispose()
    migrate.downgrade(db_url, "0010")
    assert "variant_digest" not in _columns(db_url)
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            names = [r[0] for r in conn.execute(sa.text("SELECT name FROM games ORDER BY id"))]
            assert names == ["Old", "New"]
    finally:
        engine.dispose()
