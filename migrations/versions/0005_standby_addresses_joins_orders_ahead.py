"""Standby offers, address changes waiting for confirmation, joins with power preferences,
and orders sent ahead for a later phase.

standby_offers: players offering to take over an abandoned power, of one game or (no game) of
any. address_changes: a SET ADDRESS waiting for its confirmation from the new address.
join_requests: players who joined a forming game with preferences (JOIN ... PREFER), seated
when the game starts. orders_ahead: orders for the next phase of a kind (AHEAD), checked when
it opens. Four new tables; downgrading drops them.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Types as they are at this revision (migrations do not import the models, which move on).
JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
TIME = sa.DateTime(timezone=True)
ADDRESS = 320


def upgrade() -> None:
    op.create_table(
        "standby_offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("address", sa.String(ADDRESS), nullable=False),
        sa.Column("address_key", sa.String(ADDRESS), nullable=False),
        sa.Column("offered_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_standby_offers_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_standby_offers")),
    )
    op.create_index("ix_standby_offers_address", "standby_offers", ["address_key"])
    op.create_table(
        "address_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("old_address", sa.String(ADDRESS), nullable=False),
        sa.Column("new_address", sa.String(ADDRESS), nullable=False),
        sa.Column("new_key", sa.String(ADDRESS), nullable=False),
        sa.Column("code", sa.String(32), nullable=False),
        sa.Column("asked_at", TIME, nullable=False),
        sa.Column("expires_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_address_changes")),
    )
    op.create_index("ix_address_changes_new_key", "address_changes", ["new_key"])
    op.create_table(
        "join_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(ADDRESS), nullable=False),
        sa.Column("address_key", sa.String(ADDRESS), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("preferences", JSON, nullable=False),
        sa.Column("joined_at", TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_join_requests_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_join_requests")),
        sa.UniqueConstraint("game_id", "address_key",
                            name=op.f("uq_join_requests_game_id_address_key")),
    )
    op.create_table(
        "orders_ahead",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("power", sa.String(40), nullable=False),
        sa.Column("phase_type", sa.String(20), nullable=False),
        sa.Column("after_index", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("submitted_at", TIME, nullable=False),
        sa.CheckConstraint("phase_type IN ('Movement', 'Retreat', 'Adjustment')",
                           name=op.f("ck_orders_ahead_phase_type")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_orders_ahead_game_id_games"),
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_orders_ahead")),
    )
    op.create_index("ix_orders_ahead_game", "orders_ahead", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_orders_ahead_game", table_name="orders_ahead")
    op.drop_table("orders_ahead")
    op.drop_table("join_requests")
    op.drop_index("ix_address_changes_new_key", table_name="address_changes")
    op.drop_table("address_changes")
    op.drop_index("ix_standby_offers_address", table_name="standby_offers")
    op.drop_table("standby_offers")
