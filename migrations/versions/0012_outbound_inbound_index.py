"""An index on outbound_messages.inbound_id: the loop guard reads the replies to a sender's
messages on every message without a command (gm.store.outbound.replies_to), which without it
read the whole table; deleting an inbound message (ON DELETE SET NULL) finds its replies by it too.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_outbound_messages_inbound", "outbound_messages", ["inbound_id"])


def downgrade() -> None:
    op.drop_index("ix_outbound_messages_inbound", table_name="outbound_messages")
