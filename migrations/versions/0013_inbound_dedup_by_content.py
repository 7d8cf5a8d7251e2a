"""Inbound messages are keyed by Message-ID, sender and a digest of the body (a message that
reuses another's Message-ID is a message of its own), and count the copies that came again
(their sender is told once that it was already read). The keys of the stored messages are made
anew from their rows, so a message read again after the upgrade is still found; the downgrade
gives back the Message-ID keys (of the copies that share one, the first keeps it).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BODY_START = re.compile(rb"\r?\n\r?\n")
_LINE_ENDS = re.compile(rb"[ \t]*\r?\n")
_TABLE = sa.table("inbound_messages", sa.column("id", sa.Integer),
                  sa.column("dedup_key", sa.String), sa.column("message_id", sa.Text),
                  sa.column("sender", sa.String), sa.column("raw", sa.LargeBinary))


def _key(message_id: str, sender: str, raw: bytes) -> str:
    """gm.store.inbound.inbound_key as of this revision (kept here: a migration must not
    change when the code does)."""
    start = _BODY_START.search(raw)
    body = b"" if start is None else raw[start.end():]
    digest = hashlib.sha256(_LINE_ENDS.sub(b"\n", body).rstrip()).hexdigest()
    same = "\0".join((message_id, sender, digest))
    return "mail:" + hashlib.sha256(same.encode("utf-8", "surrogateescape")).hexdigest()


def _old_key(message_id: str) -> str:
    if len(message_id) > 255:
        return "sha256-id:" + hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()
    return message_id


def _rekey(make: object) -> None:
    conn = op.get_bind()
    rows = conn.execute(sa.select(_TABLE.c.id, _TABLE.c.message_id, _TABLE.c.sender,
                                  _TABLE.c.raw)
                        .where(_TABLE.c.message_id.is_not(None))
                        .where(sa.func.trim(_TABLE.c.message_id) != "")
                        .order_by(_TABLE.c.id)).all()
    seen: set[str] = set()
    for row in rows:
        mid = row.message_id.strip()
        key = _key(mid, row.sender, bytes(row.raw)) if make == "new" else _old_key(mid)
        if key in seen:  # downgrade: a later message with the same Message-ID
            key = "sha256-row:" + hashlib.sha256(f"{row.id}".encode()).hexdigest()
        seen.add(key)
        conn.execute(sa.update(_TABLE).where(_TABLE.c.id == row.id).values(dedup_key=key))


def upgrade() -> None:
    with op.batch_alter_table("inbound_messages") as batch:
        batch.add_column(sa.Column("duplicates", sa.Integer, nullable=False,
                                   server_default="0"))
    _rekey("new")


def downgrade() -> None:
    _rekey("old")
    with op.batch_alter_table("inbound_messages") as batch:
        batch.drop_column("duplicates")
