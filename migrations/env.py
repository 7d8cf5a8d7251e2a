"""Alembic environment: migrates the database given by `gm db` (or GM_DATABASE_URL)."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import Connection

from gm.store.db import default_url, make_engine
from gm.store.models import Base

config = context.config
target_metadata = Base.metadata


def _url() -> str:
    url = config.attributes.get("url") or config.get_main_option("sqlalchemy.url")
    return str(url or os.environ.get("GM_DATABASE_URL") or default_url())


def run_offline() -> None:
    context.configure(
        url=_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        compare_type=True,
        render_as_batch=_url().startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _migrate(connection)
        return
    engine = make_engine(_url())
    try:
        with engine.connect() as conn:
            _migrate(conn)
    finally:
        engine.dispose()


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        # SQLite alters tables by copying them: batch mode does that for later revisions.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
