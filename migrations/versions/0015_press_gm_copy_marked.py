"""Press between players stored before the GM's copy became a setting (SET ALL PRESS) was all
copied to the GM: each such row gains the mark "GM copy" among its recipients, so the GM's phase
reports still list it. The downgrade takes the mark away from every row.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GM_COPY = "GM copy"  # gm.store.press.GM_COPY as of this revision
_PRESS = sa.table("press_messages", sa.column("id", sa.Integer),
                  sa.column("from_power", sa.String), sa.column("to_powers", sa.Text),
                  sa.column("broadcast", sa.Boolean))


def _rows() -> list[tuple[int, str | None, list[str], bool]]:
    bind = op.get_bind()
    rows = bind.execute(sa.select(_PRESS.c.id, _PRESS.c.from_power,
                                  sa.cast(_PRESS.c.to_powers, sa.Text), _PRESS.c.broadcast))
    return [(r[0], r[1], json.loads(r[2]) if r[2] else [], bool(r[3])) for r in rows]


def _write(row_id: int, to: list[str]) -> None:
    bind = op.get_bind()
    value = "CAST(:to AS jsonb)" if bind.dialect.name == "postgresql" else ":to"
    bind.execute(sa.text(f"UPDATE press_messages SET to_powers = {value} WHERE id = :id"),
                 {"to": json.dumps(to), "id": row_id})


def upgrade() -> None:
    for row_id, sender, to, broadcast in _rows():
        partial = sender is not None and not broadcast and to and "GM" not in to
        if partial and GM_COPY not in to:
            _write(row_id, [*to, GM_COPY])


def downgrade() -> None:
    for row_id, _, to, _ in _rows():
        if GM_COPY in to:
            _write(row_id, [t for t in to if t != GM_COPY])
