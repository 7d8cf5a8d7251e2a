"""Each claim of outbound mail names the sender process holding it (outbound_messages
.claimed_by), so a sender started after a crash takes back at once what a dead sender had
claimed instead of waiting out the lease.

Upgrading adds the nullable column (claims made before name no holder and keep their lease);
downgrading drops it.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # a plain ADD COLUMN: a batch would copy the table, which the attachments' foreign key
    # forbids
    op.add_column("outbound_messages", sa.Column("claimed_by", sa.String(255), nullable=True))


def downgrade() -> None:
    op.drop_column("outbound_messages", "claimed_by")
