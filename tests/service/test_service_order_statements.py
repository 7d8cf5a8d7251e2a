"""The statements a message of orders runs to store them: the power's stored set read once
(with its lines), the new set written in one INSERT that reads the power's id, its lines in
one more; the phase and power the sign-on and the run read already are not read again (on
PostgreSQL the phase is checked again at the commit: gm.store.commit_locks)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import event

from gm.store.db import Database
from tests.service.test_service_replies import _game, _orders


def _statements(database: Database, tmp_path: Path, power: str,
                *lines: str) -> tuple[str, list[str]]:
    seen: list[str] = []

    def note(conn: object, cursor: object, statement: str, *rest: object) -> None:
        seen.append(" ".join(statement.split()))

    event.listen(database.engine, "before_cursor_execute", note)
    try:
        reply = _orders(database, tmp_path, power, *lines)
    finally:
        event.remove(database.engine, "before_cursor_execute", note)
    return reply, seen


@pytest.mark.postgresql_too
def test_a_message_of_orders_stores_its_set_in_two_inserts_after_one_read(
        database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _orders(database, tmp_path, "France", "A Par - Bur")
    reply, seen = _statements(database, tmp_path, "France", "A Mar H", "F Bre - MAO")
    assert "Orders of France for Spring 1901, Movement:\n  A Par - Bur\n  A Mar H\n" \
           "  F Bre - MAO\n" in reply, reply
    touching = [s for s in seen if "order_sets" in s or "order_lines" in s]
    assert [s.split(" (")[0] for s in touching] == [
        "SELECT order_sets.id, order_sets.phase_id, order_sets.inbound_id, "
        "order_sets.submitted_at, order_sets.valid, order_lines.text, order_lines.canonical, "
        "order_lines.error, order_lines.value, order_lines.position FROM order_sets LEFT OUTER "
        "JOIN order_lines ON order_lines.set_id = order_sets.id WHERE order_sets.id =",
        "INSERT INTO order_sets", "INSERT INTO order_lines"], touching
    assert "SELECT powers.id FROM powers WHERE powers.game_id = " in touching[1]
    # the phase's game and adjudication are not read again with the power's id
    assert not [s for s in seen if "FROM phases LEFT OUTER JOIN powers" in s], seen


@pytest.mark.postgresql_too
def test_clear_stores_the_empty_set_in_one_insert(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _orders(database, tmp_path, "France", "A Par - Bur")
    reply, seen = _statements(database, tmp_path, "France", "CLEAR")
    assert "Orders of France for Spring 1901, Movement:\n" in reply, reply
    assert "A Par - Bur" not in reply.split("Orders of France")[1], reply
    assert [s.split(" (")[0] for s in seen if "order_" in s] == ["INSERT INTO order_sets"], seen
    assert not [s for s in seen if "FROM phases LEFT OUTER JOIN powers" in s], seen
