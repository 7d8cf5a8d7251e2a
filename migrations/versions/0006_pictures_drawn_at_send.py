"""A picture's PNG is queued undrawn: outbound_files.svg holds the picture until the sender draws
the PNG (once, for every message that carries it) and clears it.

Drawing PNGs took most of a tick's time (two pictures a phase, about 60 ms each); the tick now
queues the SVG and the sender, a process of its own, draws each PNG when the first message
carrying it is sent. Upgrading adds the nullable column (every stored file is drawn already).
Downgrading draws the PNGs still undrawn, so no queued message loses its picture.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The table as this revision sees it (migrations do not import the models, which move on).
_files = sa.Table(
    "outbound_files", sa.MetaData(),
    sa.Column("id", sa.Integer(), primary_key=True),
    sa.Column("data", sa.LargeBinary()),
    sa.Column("svg", sa.LargeBinary()),
)


def upgrade() -> None:
    with op.batch_alter_table("outbound_files") as batch:
        batch.add_column(sa.Column("svg", sa.LargeBinary(), nullable=True))


def downgrade() -> None:
    from gm.pictures.png import svg_to_png

    conn = op.get_bind()
    undrawn = conn.execute(sa.select(_files.c.id, _files.c.svg)
                           .where(_files.c.svg.is_not(None))).all()
    for file_id, svg in undrawn:
        conn.execute(sa.update(_files).where(_files.c.id == file_id)
                     .values(data=svg_to_png(bytes(svg).decode("utf-8")), svg=None))
    # a plain DROP COLUMN (SQLite 3.35 and later have it): a batch would copy the table,
    # which the attachments' foreign key forbids
    op.drop_column("outbound_files", "svg")
