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

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if args.sender_worker:
        return _run_worker(args)
    return asyncio.run(_run_service(args))


async def _run_service(args: argparse.Namespace) -> int:
    """Start the sender worker first, so it loads and connects on the other core while this
    process loads the service; then check the configuration and database, and serve."""
    import logging

    from gm.service.worker_handle import WorkerHandle

    worker = None if args.once or args.send_here else WorkerHandle(_worker_command(args))
    if worker is not None:
        try:
            await worker.start()
        except OSError:
            logging.getLogger(__name__).exception(
                "the sender worker could not be started; sending from here")
            worker = None
    served = False
    try:
        from gm.cli.service_setup import open_service
        from gm.service.clock import SystemClock

        opened = open_service("serve", args.config)
        if opened is None:
            return 2
        config, db = opened
        try:
            import gc

            from gm.service.serve import serve

            # what is loaded by now lives as long as the service: collections skip it from here
            # (a full one walked it all, some 70 ms every few hundred messages)
            gc.freeze()
            served = True
            await serve(db, config, clock=SystemClock(), once=args.once,
                        tick_every=args.tick_every or None, worker=worker)
        finally:
            db.dispose()
    finally:
        if worker is not None:  # the service stopped it already, unless it did not start
            await worker.stop(quiet=not served)
    return 0


def _run_worker(args: argparse.Namespace) -> int:
    """The sender worker: it sends only, so the commands, engine and parsers stay unloaded."""
    import asyncio
    import os

    from gm.config import ConfigError, load_config
    from gm.service.clock import SystemClock
    from gm.service.send_worker import run_worker
    from gm.store.db import open_database, resolve_url
    from gm.store.errors import SchemaError

    try:
        config = load_config(args.config, os.environ)
        db = open_database(resolve_url(config.database_url, config.data_dir))
    except (ConfigError, SchemaError):
        return 2  # the service that started this worker checks the same, and says what is wrong
    try:
        asyncio.run(run_worker(db, config, clock=SystemClock()))
    finally:
        db.dispose()
    return 0
