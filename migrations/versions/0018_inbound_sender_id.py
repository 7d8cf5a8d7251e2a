"""The inbound messages by sender, newest first: the mail guard asks for the replies to a
sender's latest messages with each message, and found them by reading all that sender's mail
(some 4 ms a message once a sender had sent 1,500; with this index a few microseconds).

Revision ID: 0018_inbound_sender_id
Revises: 0017
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0018_inbound_sender_id"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_inbound_messages_sender_id", "inbound_messages", ["sender", "id"])


def downgrade() -> None:
    op.drop_index("ix_inbound_messages_sender_id", table_name="inbound_messages")
