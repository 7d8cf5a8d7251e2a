"""Arrival times: when the mail system received each inbound message, and how far each mail
source has been read.

inbound_messages.arrived_at: the time the mail system received the message (IMAP INTERNALDATE,
the Maildir delivery time, the LMTP hand-over or the local mail server's Received line), which
decides whether orders came before a deadline; messages stored before this revision take their
received_at. inbox_reads: for each mail source a service reads, the time up to which every
message that arrived has been read and handled, so that the tick adjudicates a phase only once
the mail that came before its deadline is in. Downgrading drops both.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.add_column("inbound_messages", sa.Column("arrived_at", TIME, nullable=True))
    messages = sa.table("inbound_messages", sa.column("arrived_at", TIME),
                        sa.column("received_at", TIME))
    op.execute(messages.update().values(arrived_at=messages.c.received_at))
    op.create_table(
        "inbox_reads",
        sa.Column("source", sa.String(512), nullable=False),
        sa.Column("read_until", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("source", name=op.f("pk_inbox_reads")),
    )


def downgrade() -> None:
    op.drop_table("inbox_reads")
    # in place (SQLite 3.35 and later drop a column so): copying the table would run the
    # ON DELETE SET NULL of every table referring to inbound_messages
    op.execute("ALTER TABLE inbound_messages DROP COLUMN arrived_at")
