"""`gm ingest [--config FILE] < message`: process one message read on standard input."""

from __future__ import annotations

import argparse
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
    from gm.cli.service_setup import open_service
    from gm.service.clock import SystemClock
    from gm.service.ingest import Disposition, ingest
    from gm.service.sender_wake import wake_sender

    opened = open_service("ingest", args.config)
    if opened is None:
        return 2
    config, db = opened
    try:
        result = ingest(db, sys.stdin.buffer.read(), config=config, clock=SystemClock())
    finally:
        db.dispose()
    wake_sender(config)  # a running `gm serve` sends the reply now
    print(f"message {result.inbound_id}: {result.outcome.value}")
    return 1 if result.outcome is Disposition.SHUNTED else 0
