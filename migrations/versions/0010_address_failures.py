"""Bouncing addresses: each outbound message carries a random token for its envelope sender
(outbound_messages.bounce_token, `judge+b.<token>@domain`), so a bounce names the message it
reports; an address the relay refused for good, or that bounced, is kept failing per game and
seat (address_failures) until a delivery to it is accepted.

Upgrading adds the nullable column (messages queued before are sent without a token, as
before) and the new table; downgrading drops both.

Revision ID: 0010
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    # a plain ADD COLUMN: a batch would copy the table, which the attachments' foreign key
    # forbids
    op.add_column("outbound_messages", sa.Column("bounce_token", sa.String(32), nullable=True))
    op.create_index("ix_outbound_messages_bounce_token", "outbound_messages", ["bounce_token"])
    op.create_table(
        "address_failures",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(40), nullable=True),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("address_key", sa.String(320), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("subject", sa.Text(), nullable=False),
        sa.Column("sent_at", TIME, nullable=True),
        sa.Column("since", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name="fk_address_failures_game_id_games", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_address_failures"),
        sa.UniqueConstraint("game_id", "address_key",
                            name="uq_address_failures_game_id_address_key"),
    )
    op.create_index("ix_address_failures_address_key", "address_failures", ["address_key"])


def downgrade() -> None:
    op.drop_index("ix_address_failures_address_key", table_name="address_failures")
    op.drop_table("address_failures")
    op.drop_index("ix_outbound_messages_bounce_token", table_name="outbound_messages")
    # in place (SQLite 3.35 and later drop a column so): copying the table would run the
    # ON DELETE SET NULL of every table referring to outbound_messages
    op.execute("ALTER TABLE outbound_messages DROP COLUMN bounce_token")
