"""Games record the variant they started with: for a variant read from a file
(gm.variants.varfile), the hash of the file (games.variant_digest); NULL for the built-in
variants and for the games created before.

Upgrading adds the nullable column; downgrading drops it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("variant_digest", sa.String(64), nullable=True))


def downgrade() -> None:
    # in place (SQLite 3.35 and later drop a column so): copying the games table would run the
    # ON DELETE CASCADE of every table referring to it
    op.execute("ALTER TABLE games DROP COLUMN variant_digest")
