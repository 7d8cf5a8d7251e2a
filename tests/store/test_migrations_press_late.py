"""Migrations 0014 and 0015, on SQLite and PostgreSQL: order sets gain `late` (false for the
sets stored before, which stay the phase's orders), and the players' partial press stored
before SET ALL PRESS keeps the GM's copy mark (the GM got all of it then), both ways."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa

from gm.store import migrate
from gm.store import press as press_repo
from gm.store import submissions as orders_repo
from gm.store.db import make_engine, open_database

NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def _run(url: str, sql: str, **values: object) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(sa.text(sql), values)
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()


def test_late_order_sets_and_the_gm_s_copy_of_press(db_url: str) -> None:
    migrate.upgrade(db_url, "0013")
    _run(db_url, "INSERT INTO games (id, name, name_key, variant, status, settings, gm_address,"
         " gm_password_hash, created_at, updated_at) VALUES (1, 'old', 'old', 'standard',"
         " 'active', '{}', 'gm@example.org', 'x', :now, :now)", now=NOW)
    _run(db_url, "INSERT INTO powers (id, game_id, name, status, draw_vote, wait, created_at,"
         " updated_at) VALUES (1, 1, 'France', 'playing', false, false, :now, :now)", now=NOW)
    _run(db_url, "INSERT INTO phases (id, game_id, phase_index, season, year, type, state,"
         " opened_at) VALUES (1, 1, 0, 'Spring', 1901, 'Movement', '{}', :now)", now=NOW)
    _run(db_url, "INSERT INTO order_sets (id, phase_id, power_id, submitted_at, valid) VALUES"
         " (1, 1, 1, :now, true)", now=NOW)
    for n, (to, broadcast) in enumerate([(["Germany"], False), (["GM"], False), ([], True)]):
        _run(db_url, "INSERT INTO press_messages (id, game_id, from_power, from_address,"
             " to_powers, broadcast, anonymous, body, sent_at) VALUES (:id, 1, 'France',"
             " 'f@example.org', :to, :broadcast, false, 'text', :now)",
             id=n + 1, to=json.dumps(to), broadcast=broadcast, now=NOW)
    migrate.upgrade(db_url, "head")
    db = open_database(db_url)
    try:
        with db.read() as s:
            assert set(orders_repo.latest_valid_orders(s, 1)) == {"France"}
            assert orders_repo.late_sets(s, 1) == []
            assert [p.to_powers for p in press_repo.list_press(s, 1)] == [
                ("Germany", press_repo.GM_COPY), ("GM",), ()]
    finally:
        db.dispose()
    migrate.downgrade(db_url, "0013")
    rows = _run(db_url, "SELECT to_powers FROM press_messages ORDER BY id")
    assert [json.loads(r[0]) if isinstance(r[0], str) else r[0] for r in rows] == [
        ["Germany"], ["GM"], []]
    columns = {c["name"] for c in sa.inspect(make_engine(db_url)).get_columns("order_sets")}
    assert "late" not in columns
