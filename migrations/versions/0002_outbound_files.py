"""Attachments stored once: outbound_files holds the bytes, outbound_attachments refers to them.

A phase's map picture (about 40 KB) went to every power, the GM and every observer, and each
queued report kept its own copy; now each report's attachment row names the one stored file.
Upgrading moves every queued attachment's bytes into outbound_files (one row per distinct
content); downgrading copies them back.

On PostgreSQL the large values a tick writes (the report bodies, the stored files, the phases'
states and results) are compressed with lz4 instead of the default pglz when the server has it
(PostgreSQL 14 or later built with lz4): about twice as fast for the bodies, ten times for a
picture.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHUNK = 500  # attachment rows moved per round trip
LZ4_COLUMNS = (("outbound_messages", "parts"), ("outbound_files", "data"),
               ("phases", "state"), ("phases", "results"))

# The tables as this revision sees them (migrations do not import the models, which move on).
_meta = sa.MetaData()
_files = sa.Table(
    "outbound_files", _meta,
    sa.Column("id", sa.Integer(), primary_key=True),
    sa.Column("digest", sa.String(64)),
    sa.Column("data", sa.LargeBinary()),
)
_attachments = sa.Table(
    "outbound_attachments", _meta,
    sa.Column("id", sa.Integer(), primary_key=True),
    sa.Column("file_id", sa.Integer()),
    sa.Column("data", sa.LargeBinary()),
)


def upgrade() -> None:
    op.create_table(
        "outbound_files",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbound_files")),
    )
    op.create_index("ix_outbound_files_digest", "outbound_files", ["digest"])
    with op.batch_alter_table("outbound_attachments") as batch:
        batch.add_column(sa.Column("file_id", sa.Integer(), nullable=True))
    _move_into_files()
    with op.batch_alter_table("outbound_attachments") as batch:
        batch.alter_column("file_id", existing_type=sa.Integer(), nullable=False)
        batch.create_foreign_key(
            op.f("fk_outbound_attachments_file_id_outbound_files"), "outbound_files",
            ["file_id"], ["id"])
        batch.create_index("ix_outbound_attachments_file_id", ["file_id"])
        batch.drop_column("data")
    _compression("lz4")


def _compression(method: str) -> None:
    """Compress LZ4_COLUMNS with `method` on PostgreSQL, if the server can (a savepoint keeps
    a refusal from spoiling the migration: the columns then keep the server's default)."""
    conn = op.get_bind()
    if conn.dialect.name != "postgresql" or conn.dialect.server_version_info < (14,):
        return
    for table, column in LZ4_COLUMNS:
        if method != "lz4" and table == "outbound_files":
            continue  # dropped by the downgrade
        try:
            with conn.begin_nested():
                conn.execute(sa.text(
                    f"ALTER TABLE {table} ALTER COLUMN {column} SET COMPRESSION {method}"))
        except sa.exc.DBAPIError:
            return  # this server has no lz4


def _move_into_files() -> None:
    """Each attachment's bytes into outbound_files, identical contents sharing one row."""
    conn = op.get_bind()
    known: dict[str, int] = {}
    last = 0
    while True:
        rows = conn.execute(
            sa.select(_attachments.c.id, _attachments.c.data)
            .where(_attachments.c.id > last).order_by(_attachments.c.id).limit(CHUNK)).all()
        if not rows:
            return
        for attachment_id, data in rows:
            digest = hashlib.sha256(data).hexdigest()
            if digest not in known:
                known[digest] = conn.execute(
                    sa.insert(_files).values(digest=digest, data=data)
                    .returning(_files.c.id)).scalar_one()
            conn.execute(sa.update(_attachments).where(_attachments.c.id == attachment_id)
                         .values(file_id=known[digest]))
        last = rows[-1][0]


def downgrade() -> None:
    _compression("default")
    with op.batch_alter_table("outbound_attachments") as batch:
        batch.add_column(sa.Column("data", sa.LargeBinary(), nullable=True))
    conn = op.get_bind()
    conn.execute(sa.update(_attachments).values(
        data=sa.select(_files.c.data).where(_files.c.id == _attachments.c.file_id)
        .scalar_subquery()))
    with op.batch_alter_table("outbound_attachments") as batch:
        batch.alter_column("data", existing_type=sa.LargeBinary(), nullable=False)
        batch.drop_index("ix_outbound_attachments_file_id")
        batch.drop_constraint(
            op.f("fk_outbound_attachments_file_id_outbound_files"), type_="foreignkey")
        batch.drop_column("file_id")
    op.drop_index("ix_outbound_files_digest", table_name="outbound_files")
    op.drop_table("outbound_files")
