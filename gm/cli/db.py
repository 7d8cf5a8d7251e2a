"""`gm db upgrade|current|downgrade`: create, inspect and migrate the database schema."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

# The store (SQLAlchemy, Alembic) is imported inside the handlers: `gm` starts fast for the
# subcommands that do not touch the database.


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "db",
        help="create or migrate the database",
        description=(
            "Manage the database schema. The database is --url, else the configuration file's "
            "database_url (--config), else GM_DATABASE_URL, else SQLite in the data directory "
            "(--data-dir, GM_DATA_DIR, default ./var)."
        ),
    )
    actions = p.add_subparsers(dest="db_command", metavar="ACTION")
    actions.required = True

    up = actions.add_parser(
        "upgrade", help="create a fresh database or upgrade an old one to this gm's schema"
    )
    up.add_argument("revision", nargs="?", default="head", help="target revision (default: head)")
    up.set_defaults(func=upgrade)

    cur = actions.add_parser(
        "current", help="show the schema revision (exit status 1 if it is not this gm's)"
    )
    cur.set_defaults(func=current)

    down = actions.add_parser("downgrade", help="migrate the schema down to REV ('base': empty)")
    down.add_argument("revision", metavar="REV")
    down.set_defaults(func=downgrade)

    for sub in (up, cur, down):
        sub.add_argument("--url", help="database URL (sqlite:///PATH, postgresql+psycopg://...)")
        sub.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
        sub.add_argument("--data-dir", type=Path, metavar="DIR", help="data directory")


def database_url(args: argparse.Namespace) -> str:
    from gm.store.db import DEFAULT_DATA_DIR, resolve_url

    if args.url:
        return str(args.url)
    if args.config is not None:
        from gm.config import load_config

        config = load_config(args.config, os.environ)
        return resolve_url(config.database_url, config.data_dir)
    data_dir = args.data_dir or Path(os.environ.get("GM_DATA_DIR") or DEFAULT_DATA_DIR)
    return resolve_url(os.environ.get("GM_DATABASE_URL"), data_dir)


def _current(url: str) -> str | None:
    from gm.store import migrate
    from gm.store.db import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return migrate.current_revision(conn)
    finally:
        engine.dispose()


def _run(args: argparse.Namespace, action: str) -> int:
    from gm.store import migrate
    from gm.store.db import display_url

    try:
        url = database_url(args)
        where = display_url(url)
        head = migrate.head_revision()
        if action == "upgrade":
            before = _current(url)
            migrate.upgrade(url, args.revision)
            after = _current(url)
            if before == after:
                print(f"{where}: already at {after}")
            else:
                print(f"{where}: upgraded from {before or 'no schema'} to {after}")
        elif action == "downgrade":
            migrate.downgrade(url, args.revision)
            print(f"{where}: now at {_current(url) or 'no schema (base)'}")
        else:
            rev = _current(url)
            if rev == head:
                print(f"{where}: at {rev} (this gm's schema)")
                return 0
            state = f"at {rev}" if rev else "no schema"
            print(f"{where}: {state}; this gm needs {head}: run `gm db upgrade`")
            return 1
        return 0
    except Exception as exc:  # no connection, a bad URL or revision, a bad configuration file
        print(f"error: {_message(exc)}", file=sys.stderr)
        return 2


def _message(exc: Exception) -> str:
    from sqlalchemy.exc import DBAPIError

    if isinstance(exc, DBAPIError) and exc.orig is not None:
        return str(exc.orig).strip()  # the driver's words, without SQLAlchemy's decoration
    return str(exc)


def upgrade(args: argparse.Namespace) -> int:
    return _run(args, "upgrade")


def current(args: argparse.Namespace) -> int:
    return _run(args, "current")


def downgrade(args: argparse.Namespace) -> int:
    return _run(args, "downgrade")
