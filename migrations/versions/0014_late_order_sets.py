"""Order sets read late: orders that arrived while a phase was open but were read only after it
was adjudicated (the mail server held them) are kept for that phase, marked `late`, out of
every count of its orders until the GM's REPROCESS takes them.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("order_sets") as batch:
        batch.add_column(sa.Column("late", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    op.create_index("ix_order_sets_late", "order_sets", ["late", "submitted_at"])


def downgrade() -> None:
    op.drop_index("ix_order_sets_late", table_name="order_sets")
    op.execute("DELETE FROM order_sets WHERE late")
    with op.batch_alter_table("order_sets") as batch:
        batch.drop_column("late")
