"""`gm ingest [--config FILE] < message`: process one message read on standard input."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "ingest",
        help="process one message read on standard input",
        description="Store one raw message from standard input, run its commands and queue "
        "the reply (`gm serve` sends it).",
    )
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gm.mail.config import ConfigError, load_config
    from gm.service.clock import SystemClock
    from gm.service.ingest import Outcome, ingest
    from gm.store.db import open_database, resolve_url
    from gm.store.errors import SchemaError

    try:
        config = load_config(args.config, os.environ)
        db = open_database(resolve_url(config.database_url, config.data_dir))
    except (ConfigError, SchemaError) as exc:
        print(f"gm ingest: {exc}", file=sys.stderr)
        return 2
    try:
        result = ingest(db, sys.stdin.buffer.read(), config=config, clock=SystemClock())
    finally:
        db.dispose()
    print(f"message {result.inbound_id}: {result.outcome.value}")
    return 1 if result.outcome is Outcome.SHUNTED else 0
