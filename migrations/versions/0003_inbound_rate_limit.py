"""The per-sender rate limit: inbound messages counted by sender and arrival, and kept as held.

An index on inbound_messages (sender, received_at) lets every process (`gm serve`, `gm ingest`)
count a sender's messages of the last window from the database, and the status CHECK allows
"held" (a message over the limit: kept whole, not processed, until `gm shunt replay`).

Senders are stored lower case (gm.mail.decode), so the index serves the look-up as it is.
Downgrading turns held messages into shunted ones, with the reason as their error, so the older
`gm shunt replay` can still release them: nothing is lost.

On SQLite the CHECK constraint is rewritten in place (SQLite's documented procedure for changing
a CHECK constraint: edit the stored CREATE TABLE with writable_schema, bump schema_version)
rather than by copying the table: dropping the old copy would run the ON DELETE SET NULL of
every table referring to inbound_messages.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "inbound_messages"
CHECK = "ck_inbound_messages_inbound_status"
INDEX = "ix_inbound_messages_sender_received"
BEFORE = ("new", "processed", "shunted")
AFTER = (*BEFORE, "held")
DOWNGRADED_ERROR = "held by the rate limit (kept when the schema was downgraded)"


def _condition(values: Sequence[str]) -> str:
    return "status IN ({})".format(", ".join(f"'{v}'" for v in values))


def upgrade() -> None:
    op.create_index(INDEX, TABLE, ["sender", "received_at"])
    _set_check(BEFORE, AFTER)


def downgrade() -> None:
    _messages = sa.table(TABLE, sa.column("status", sa.String), sa.column("error", sa.Text))
    op.execute(_messages.update().where(_messages.c.status == "held")
               .values(status="shunted", error=DOWNGRADED_ERROR))
    _set_check(AFTER, BEFORE)
    op.drop_index(INDEX, table_name=TABLE)


def _set_check(old: Sequence[str], new: Sequence[str]) -> None:
    """Replace the status CHECK allowing `old` by one allowing `new`."""
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        op.drop_constraint(op.f(CHECK), TABLE, type_="check")
        op.create_check_constraint(op.f(CHECK), TABLE, _condition(new))
        return
    sql = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)).scalar_one()
    before, after = f"CHECK ({_condition(old)})", f"CHECK ({_condition(new)})"
    if sql.count(before) != 1:
        raise RuntimeError(f"{TABLE}: expected one {before!r} in its definition")
    version = conn.exec_driver_sql("PRAGMA schema_version").scalar_one()
    conn.exec_driver_sql("PRAGMA writable_schema = ON")
    try:
        conn.exec_driver_sql(
            "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
            (sql.replace(before, after), TABLE))
        conn.exec_driver_sql(f"PRAGMA schema_version = {int(version) + 1}")
    finally:
        conn.exec_driver_sql("PRAGMA writable_schema = OFF")
