"""Initial schema: games, powers, phases, orders, inbound and outbound mail, press, audit log.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Types as they were at this revision (migrations do not import the models, which move on).
JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
TIME = sa.DateTime(timezone=True)
ADDRESS = sa.String(length=320)


def _status(
    table: str, column: str, name: str, values: Sequence[str]
) -> tuple[sa.Column[str], sa.CheckConstraint]:
    """A VARCHAR column holding one of `values`, and the CHECK constraint that says so."""
    allowed = ", ".join(f"'{v}'" for v in values)
    return (
        sa.Column(column, sa.String(20), nullable=False),
        sa.CheckConstraint(f"{column} IN ({allowed})", name=op.f(f"ck_{table}_{name}")),
    )


def _fk(table: str, column: str, target: str, ondelete: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"), ondelete=ondelete
    )


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        *_status("games", "status", "game_status", ("forming", "active", "paused", "finished")),
        sa.Column("settings", JSON, nullable=False),
        sa.Column("gm_address", ADDRESS, nullable=False),
        sa.Column("gm_password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("name_key", name=op.f("uq_games_name_key")),
    )
    op.create_table(
        "inbound_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dedup_key", sa.String(255), nullable=False),
        sa.Column("message_id", sa.Text(), nullable=True),
        sa.Column("mailbox", sa.String(255), nullable=True),
        sa.Column("uidvalidity", sa.BigInteger(), nullable=True),
        sa.Column("uid", sa.BigInteger(), nullable=True),
        sa.Column("sender", ADDRESS, nullable=False),
        sa.Column("subject", sa.Text(), nullable=True),
        sa.Column("raw", sa.LargeBinary(), nullable=False),
        sa.Column("received_at", TIME, nullable=False),
        *_status("inbound_messages", "status", "inbound_status", ("new", "processed", "shunted")),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("processed_at", TIME, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound_messages")),
        sa.UniqueConstraint("dedup_key", name=op.f("uq_inbound_messages_dedup_key")),
    )
    op.create_index("ix_inbound_messages_status", "inbound_messages", ["status", "id"])
    op.create_index(
        "ix_inbound_messages_mailbox_uid", "inbound_messages", ["mailbox", "uidvalidity", "uid"]
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("game_name", sa.String(64), nullable=True),
        sa.Column("actor", ADDRESS, nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("details", JSON, nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("at", TIME, nullable=False),
        _fk("audit_log", "game_id", "games", "SET NULL"),
        _fk("audit_log", "inbound_id", "inbound_messages", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index("ix_audit_log_game", "audit_log", ["game_id", "id"])
    op.create_table(
        "outbound_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.String(255), nullable=False),
        sa.Column("recipients", JSON, nullable=False),
        sa.Column("headers", JSON, nullable=False),
        sa.Column("parts", JSON, nullable=False),
        *_status("outbound_messages", "status", "outbound_status", ("queued", "sent", "failed")),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", TIME, nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("sent_at", TIME, nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        _fk("outbound_messages", "game_id", "games", "SET NULL"),
        _fk("outbound_messages", "inbound_id", "inbound_messages", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbound_messages")),
        sa.UniqueConstraint("message_id", name=op.f("uq_outbound_messages_message_id")),
    )
    op.create_index("ix_outbound_messages_due", "outbound_messages", ["status", "next_attempt_at"])
    op.create_table(
        "phases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_index", sa.Integer(), nullable=False),
        sa.Column("season", sa.String(20), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        *_status("phases", "type", "phase_type", ("Movement", "Retreat", "Adjustment")),
        sa.Column("state", JSON, nullable=False),
        sa.Column("results", JSON, nullable=True),
        sa.Column("events", JSON, nullable=True),
        sa.Column("opened_at", TIME, nullable=False),
        sa.Column("deadline_at", TIME, nullable=True),
        sa.Column("adjudicated_at", TIME, nullable=True),
        _fk("phases", "game_id", "games", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_phases")),
        sa.UniqueConstraint("game_id", "phase_index", name=op.f("uq_phases_game_id_phase_index")),
    )
    op.create_index("ix_phases_open_deadline", "phases", ["adjudicated_at", "deadline_at"])
    op.create_table(
        "powers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        *_status(
            "powers",
            "status",
            "power_status",
            ("playing", "civil_disorder", "eliminated", "resigned"),
        ),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("draw_vote", sa.Boolean(), nullable=False),
        sa.Column("wait", sa.Boolean(), nullable=False),
        sa.Column("created_at", TIME, nullable=False),
        sa.Column("updated_at", TIME, nullable=False),
        _fk("powers", "game_id", "games", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_powers")),
        sa.UniqueConstraint("game_id", "name", name=op.f("uq_powers_game_id_name")),
    )
    op.create_table(
        "order_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=False),
        sa.Column("power_id", sa.Integer(), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("submitted_at", TIME, nullable=False),
        sa.Column("valid", sa.Boolean(), nullable=False),
        _fk("order_sets", "inbound_id", "inbound_messages", "SET NULL"),
        _fk("order_sets", "phase_id", "phases", "CASCADE"),
        _fk("order_sets", "power_id", "powers", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_order_sets")),
    )
    op.create_index("ix_order_sets_phase_power", "order_sets", ["phase_id", "power_id", "id"])
    op.create_table(
        "outbound_attachments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("outbound_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("filename", sa.String(255), nullable=False),
        sa.Column("content_type", sa.String(127), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        _fk("outbound_attachments", "outbound_id", "outbound_messages", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbound_attachments")),
        sa.UniqueConstraint(
            "outbound_id", "position", name=op.f("uq_outbound_attachments_outbound_id_position")
        ),
    )
    op.create_table(
        "power_addresses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("power_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("address", ADDRESS, nullable=False),
        sa.Column("address_key", ADDRESS, nullable=False),
        _fk("power_addresses", "power_id", "powers", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_power_addresses")),
        sa.UniqueConstraint(
            "power_id", "address_key", name=op.f("uq_power_addresses_power_id_address_key")
        ),
    )
    op.create_index("ix_power_addresses_address_key", "power_addresses", ["address_key"])
    op.create_table(
        "press_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("phase_id", sa.Integer(), nullable=True),
        sa.Column("from_power", sa.String(40), nullable=True),
        sa.Column("from_address", ADDRESS, nullable=False),
        sa.Column("to_powers", JSON, nullable=False),
        sa.Column("broadcast", sa.Boolean(), nullable=False),
        sa.Column("anonymous", sa.Boolean(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("inbound_id", sa.Integer(), nullable=True),
        sa.Column("sent_at", TIME, nullable=False),
        _fk("press_messages", "game_id", "games", "CASCADE"),
        _fk("press_messages", "inbound_id", "inbound_messages", "SET NULL"),
        _fk("press_messages", "phase_id", "phases", "SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_press_messages")),
    )
    op.create_index("ix_press_messages_game", "press_messages", ["game_id", "id"])
    op.create_table(
        "order_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("set_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("canonical", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        _fk("order_lines", "set_id", "order_sets", "CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_order_lines")),
        sa.UniqueConstraint("set_id", "position", name=op.f("uq_order_lines_set_id_position")),
    )


def downgrade() -> None:
    for table in (
        "order_lines",
        "press_messages",
        "power_addresses",
        "outbound_attachments",
        "order_sets",
        "powers",
        "phases",
        "outbound_messages",
        "audit_log",
        "inbound_messages",
        "games",
    ):
        op.drop_table(table)  # a table's indexes go with it
