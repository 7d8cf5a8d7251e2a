"""`gm serve [--config FILE] [--once]`: run the mail service."""

from __future__ import annotations

import argparse
from pathlib import Path

# The service (store, mail, engine) is imported inside the handler: `gm` starts fast for the
# subcommands that do not need it.


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run the mail service",
        description="Read the inbox, run each message's commands, send the replies and reports.",
    )
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.add_argument("--once", action="store_true",
                   help="process the mail that is there, send the replies and exit")
    p.add_argument("--tick-every", type=float, default=60.0, metavar="SECONDS",
                   help="adjudicate due games every SECONDS while running, as `gm tick` does "
                        "(default 60; 0 leaves it to cron)")
    p.add_argument("--send-here", action="store_true",
                   help="send the replies from the service's own process (by default a sender "
                        "worker process started with the service sends them, on another core)")
    p.add_argument("--sender-worker", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def _worker_command(args: argparse.Namespace) -> list[str]:
    """How the service starts its sender worker: this command, same configuration."""
    import sys

    command = [sys.executable, "-m", "gm", "serve", "--sender-worker"]
    if args.config is not None:
        command += ["--config", str(args.config)]
    return command


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from gm.cli.service_setup import open_service
    from gm.service.clock import SystemClock

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    opened = open_service("serve", args.config)
    if opened is None:
        return 2
    config, db = opened
    try:
        if args.sender_worker:  # it sends only: the commands, engine and parsers stay unloaded
            from gm.service.send_worker import run_worker

            asyncio.run(run_worker(db, config, clock=SystemClock()))
            return 0
        from gm.service.serve import serve

        worker = None if args.once or args.send_here else _worker_command(args)
        asyncio.run(serve(db, config, clock=SystemClock(), once=args.once,
                          tick_every=args.tick_every or None, sender_command=worker))
    finally:
        db.dispose()
    return 0
