"""Migration 0016, on SQLite and PostgreSQL: order lines gain their order as a value and
stored results their "order", filled by reading the canonical text once on the phase's map; a
line that no longer reads (or of a variant not known) keeps none and is read from its text as
before; both ways."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import sqlalchemy as sa

from gm.engine.geo import Location
from gm.engine.orders import Move, UnitSpec
from gm.engine.units import UnitType
from gm.play.adjudicate import submissions
from gm.store import migrate
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import make_engine, open_database
from gm.variants import get_variant

NOW = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
TO_BUR = Move(UnitSpec(UnitType.ARMY, Location("Par")), Location("Bur"))
TO_BUR_JSON = {"kind": "Move", "unit": {"type": "A", "at": "Par"}, "to": "Bur"}


def _run(url: str, sql: str, **values: object) -> list[tuple[object, ...]]:
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(sa.text(sql), values)
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()


def _json(value: object) -> object:
    return json.loads(value) if isinstance(value, str) else value


def _old_rows(url: str) -> None:
    """At 0015: a standard game (an adjudicated phase with results, an open one with orders)
    and a game of a variant gm does not know."""
    state = json.dumps(get_variant("standard").start_state().to_json())
    results = json.dumps([{"power": "France", "text": "a par-bur", "canonical": "A Par - Bur",
                           "outcome": "succeeds", "reason": "", "dislodged_by": None,
                           "details": []}])
    for gid, variant in ((1, "standard"), (2, "lost")):
        _run(url, "INSERT INTO games (id, name, name_key, variant, status, settings,"
             " gm_address, gm_password_hash, created_at, updated_at) VALUES (:id, :name,"
             " :name, :variant, 'active', '{}', 'gm@example.org', 'x', :now, :now)",
             id=gid, name=f"g{gid}", variant=variant, now=NOW)
        _run(url, "INSERT INTO powers (id, game_id, name, status, draw_vote, wait, created_at,"
             " updated_at) VALUES (:id, :id, 'France', 'playing', false, false, :now, :now)",
             id=gid, now=NOW)
    phases = [(1, 1, 0, results), (2, 1, 1, None), (3, 2, 0, None)]
    for pid, gid, index, stored in phases:
        _run(url, "INSERT INTO phases (id, game_id, phase_index, season, year, type, state,"
             " results, opened_at) VALUES (:id, :gid, :index, 'Spring', 1901, 'Movement',"
             " :state, :results, :now)",
             id=pid, gid=gid, index=index, state=state, results=stored, now=NOW)
        _run(url, "INSERT INTO order_sets (id, phase_id, power_id, submitted_at, valid) VALUES"
             " (:id, :id, :gid, :now, true)", id=pid, gid=gid, now=NOW)
    lines = [(1, 2, 0, "a par-bur", "A Par - Bur"), (2, 2, 1, "a mar - xyz", "A Mar - Xyz"),
             (3, 2, 2, "bad", None), (4, 3, 0, "a par-bur", "A Par - Bur")]
    for lid, set_id, position, text, canonical in lines:
        _run(url, "INSERT INTO order_lines (id, set_id, position, text, canonical) VALUES"
             " (:id, :set_id, :position, :text, :canonical)",
             id=lid, set_id=set_id, position=position, text=text, canonical=canonical)


def test_0016_fills_the_values_once_and_takes_them_away_going_back(db_url: str) -> None:
    migrate.upgrade(db_url, "0015")
    _old_rows(db_url)
    migrate.upgrade(db_url, "head")
    values = _run(db_url, "SELECT id, value FROM order_lines ORDER BY id")
    assert [(lid, _json(v)) for lid, v in values] == [
        (1, TO_BUR_JSON), (2, None), (3, None), (4, None)]
    db = open_database(db_url)
    try:
        with db.read() as s:
            (result,) = phases_repo.get_phase(s, 1).results or ()
            assert result.order == TO_BUR
            lines = orders_repo.latest_valid_orders(s, 2)["France"].lines
            assert [ln.order for ln in lines] == [TO_BUR, None, None]
            # the line with no value is read from its text, as before
            read = submissions(s, get_variant("standard"), phases_repo.get_phase(s, 2))
            assert read[0].order == TO_BUR and read[1].order is None
    finally:
        db.dispose()
    migrate.downgrade(db_url, "0015")
    columns = {c["name"] for c in sa.inspect(make_engine(db_url)).get_columns("order_lines")}
    assert "value" not in columns
    (stored,) = _run(db_url, "SELECT results FROM phases WHERE id = 1")
    assert [sorted(r) for r in _json(stored[0])] == [  # type: ignore[union-attr]
        ["canonical", "details", "dislodged_by", "outcome", "power", "reason", "text"]]
