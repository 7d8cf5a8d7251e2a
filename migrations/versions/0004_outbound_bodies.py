"""Bodies stored once: outbound_bodies holds body parts that several queued messages share.

A phase's report went to every power with the same text and HTML, and each queued message kept
its own copy; now the messages of a batch that carry the same body parts name one stored body
(outbound_messages.body_id, their own `parts` left empty), and a message whose body is its own
keeps it in `parts` as before. Upgrading leaves every queued message as it is (each has its own
body); downgrading copies each shared body back into the messages that name it.

On SQLite the column is added and dropped in place (ALTER TABLE ADD/DROP COLUMN), not by copying
the table: dropping the old copy of outbound_messages would run the ON DELETE CASCADE of its
attachments. On PostgreSQL the shared bodies are compressed with lz4, as 0002 did for `parts`,
when the server can.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "outbound_messages"
COLUMN = "body_id"
FK = "fk_outbound_messages_body_id_outbound_bodies"
JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")

# The tables as this revision sees them (migrations do not import the models, which move on).
_meta = sa.MetaData()
_bodies = sa.Table(
    "outbound_bodies", _meta,
    sa.Column("id", sa.Integer(), primary_key=True),
    sa.Column("parts", JSON),
)
_messages = sa.Table(
    TABLE, _meta,
    sa.Column("id", sa.Integer(), primary_key=True),
    sa.Column("parts", JSON),
    sa.Column(COLUMN, sa.Integer()),
)


def upgrade() -> None:
    op.create_table(
        "outbound_bodies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("parts", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbound_bodies")),
    )
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(
            f"ALTER TABLE {TABLE} ADD COLUMN {COLUMN} INTEGER"
            f" CONSTRAINT {FK} REFERENCES outbound_bodies (id)")
        return
    op.add_column(TABLE, sa.Column(COLUMN, sa.Integer(), nullable=True))
    op.create_foreign_key(FK, TABLE, "outbound_bodies", [COLUMN], ["id"])
    if conn.dialect.server_version_info >= (14,):
        try:
            with conn.begin_nested():
                conn.execute(sa.text(
                    "ALTER TABLE outbound_bodies ALTER COLUMN parts SET COMPRESSION lz4"))
        except sa.exc.DBAPIError:
            pass  # this server has no lz4: the default compression


def downgrade() -> None:
    conn = op.get_bind()
    conn.execute(
        sa.update(_messages).where(_messages.c.body_id.is_not(None)).values(
            parts=sa.select(_bodies.c.parts).where(_bodies.c.id == _messages.c.body_id)
            .scalar_subquery()))
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"ALTER TABLE {TABLE} DROP COLUMN {COLUMN}")
    else:
        op.drop_constraint(FK, TABLE, type_="foreignkey")
        op.drop_column(TABLE, COLUMN)
    op.drop_table("outbound_bodies")
