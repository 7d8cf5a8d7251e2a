"""Mailbox claims: processes sharing one IMAP folder claim each message (by UIDVALIDITY and
UID) before fetching its body, so that no message is read and handled by two of them.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "mailbox_claims",
        sa.Column("source", sa.String(512), nullable=False),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=False),
        sa.Column("uid", sa.BigInteger(), nullable=False),
        sa.Column("holder", sa.String(255), nullable=False),
        sa.Column("leased_until", TIME, nullable=False),
        sa.PrimaryKeyConstraint("source", "uidvalidity", "uid", name="pk_mailbox_claims"),
    )
    op.create_index("ix_mailbox_claims_leased_until", "mailbox_claims", ["leased_until"])


def downgrade() -> None:
    op.drop_index("ix_mailbox_claims_leased_until", table_name="mailbox_claims")
    op.drop_table("mailbox_claims")
