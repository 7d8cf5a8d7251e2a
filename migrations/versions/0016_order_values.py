"""Orders kept as values: each order line gains `value`, the order as gm.engine.order_json
writes it (read back without the order grammar or the map), and each stored result of a phase
its "order". Existing rows are filled by reading their canonical text once, on the map of
their phase; a row that does not read (a variant no longer known, a map that changed) keeps
NULL, and gm reads its canonical text as before. The downgrade drops them.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
_LINES = sa.table("order_lines", sa.column("id", sa.Integer), sa.column("set_id", sa.Integer),
                  sa.column("canonical", sa.Text), sa.column("value", JSON))
_SETS = sa.table("order_sets", sa.column("id", sa.Integer), sa.column("phase_id", sa.Integer))
_PHASES = sa.table("phases", sa.column("id", sa.Integer), sa.column("game_id", sa.Integer),
                   sa.column("state", JSON), sa.column("results", JSON))
_GAMES = sa.table("games", sa.column("id", sa.Integer), sa.column("variant", sa.String))


def _document(value: Any) -> Any:
    """A JSON column's value as read (SQLite may give the text)."""
    return json.loads(value) if isinstance(value, str) else value


def _reader(variant_name: str, state_json: Any) -> Any:
    """A function reading an order's canonical text on the phase's map as its value (None when
    it does not read), or None when the phase's variant or position cannot be read now."""
    from gm.engine.errors import OrderError
    from gm.engine.order_json import encode
    from gm.engine.state import GameState
    from gm.notation import parse_order
    from gm.variants import get_variant

    try:
        variant = get_variant(variant_name)
        state = GameState.from_json(_document(state_json))
        gmap = variant.map_for(state)
    except Exception:  # a file variant not loaded here, a position of another form: NULL
        return None

    def read(text: str) -> dict[str, Any] | None:
        order = parse_order(text, gmap, state.phase.type, variant.order_kinds)
        if isinstance(order, OrderError):
            return None
        try:
            return encode(order)
        except TypeError:
            return None

    return read


def upgrade() -> None:
    with op.batch_alter_table("order_lines") as batch:
        batch.add_column(sa.Column("value", JSON, nullable=True))
    bind = op.get_bind()
    phases = bind.execute(
        sa.select(_PHASES.c.id, _PHASES.c.state, _PHASES.c.results, _GAMES.c.variant)
        .join(_GAMES, _GAMES.c.id == _PHASES.c.game_id).order_by(_PHASES.c.id)).all()
    for phase_id, state, results, variant in phases:
        read = _reader(variant, state)
        if read is None:
            continue
        lines = bind.execute(
            sa.select(_LINES.c.id, _LINES.c.canonical)
            .join(_SETS, _SETS.c.id == _LINES.c.set_id)
            .where(_SETS.c.phase_id == phase_id, _LINES.c.canonical.is_not(None))).all()
        values = [{"line": line_id, "v": value} for line_id, canonical in lines
                  if (value := read(canonical)) is not None]
        if values:
            bind.execute(sa.update(_LINES).where(_LINES.c.id == sa.bindparam("line"))
                         .values(value=sa.bindparam("v", type_=JSON)), values)
        stored = _document(results)
        if isinstance(stored, list):
            changed = False
            for result in stored:
                canonical = result.get("canonical") if isinstance(result, dict) else None
                if isinstance(canonical, str) and "order" not in result:
                    value = read(canonical)
                    if value is not None:
                        result["order"] = value
                        changed = True
            if changed:
                bind.execute(sa.update(_PHASES).where(_PHASES.c.id == phase_id)
                             .values(results=stored))


def downgrade() -> None:
    bind = op.get_bind()
    for phase_id, results in bind.execute(sa.select(_PHASES.c.id, _PHASES.c.results)).all():
        stored = _document(results)
        if isinstance(stored, list) and any(isinstance(r, dict) and "order" in r
                                            for r in stored):
            kept = [{k: v for k, v in r.items() if k != "order"} if isinstance(r, dict) else r
                    for r in stored]
            bind.execute(sa.update(_PHASES).where(_PHASES.c.id == phase_id)
                         .values(results=kept))
    with op.batch_alter_table("order_lines") as batch:
        batch.drop_column("value")
