"""`gm ingest [--config FILE] < message`: process one message read on standard input."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import BinaryIO

CHUNK = 1 << 20  # bytes read at a time past what is kept of an oversized message


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "ingest",
        help="process one message read on standard input",
        description="Store one raw message from standard input, run its commands and queue "
        "the reply (`gm serve` sends it). The message arrived when this was called, or when "
        "the local mail server received it (its topmost Received line, when added by one of "
        "the trusted_received_hosts) if that was earlier: "
        "orders count if that was before the deadline.",
    )
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    called = datetime.now(UTC)
    from gm.cli.service_setup import open_service
    from gm.mail.arrival import handed_over
    from gm.service.clock import SystemClock
    from gm.service.ingest import Disposition, ingest
    from gm.service.sender_wake import wake_sender

    opened = open_service("ingest", args.config)
    if opened is None:
        return 2
    config, db = opened
    try:
        raw, size = read_bounded(sys.stdin.buffer, config.max_message_bytes)
        result = ingest(db, raw, config=config, clock=SystemClock(), size=size,
                        arrived_at=handed_over(raw, called, config.trusted_received_hosts))
    finally:
        db.dispose()
    wake_sender(config)  # a running `gm serve` sends the reply now
    print(f"message {result.inbound_id}: {result.outcome.value}")
    return 1 if result.outcome is Disposition.SHUNTED else 0


def read_bounded(stream: BinaryIO, max_bytes: int) -> tuple[bytes, int]:
    """A message from `stream` as the other sources keep one: at most `max_bytes` + 1 bytes of
    it (enough to know it is over the limit; gm.service.ingest keeps its headers and a
    prefix), the rest read and counted, not kept; and its whole size. A 100 MB message then
    costs no more memory than one at the limit."""
    kept = stream.read(max_bytes + 1)
    size = len(kept)
    while chunk := stream.read(CHUNK):
        size += len(chunk)
    return kept, size
