"""`gm tick [--config FILE]`: adjudicate the games that are due, once, and exit (for cron)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "tick",
        help="adjudicate every game whose phase is due (run from cron or a timer)",
        description=(
            "Look at every active game once: adjudicate each phase that is due (deadline and "
            "grace period passed, every power has ordered, or nobody has a choice), queue the "
            "reports, remind late powers and apply the late-order policy. Safe to run every "
            "minute, twice at once or after a crash: a phase is adjudicated once. The reports "
            "are sent by `gm serve`, or at once with --send."),
    )
    p.add_argument("--config", type=Path, metavar="FILE", help="service configuration file")
    p.add_argument("--send", action="store_true",
                   help="also send the queued mail before exiting (when no `gm serve` runs)")
    p.add_argument("--quiet", action="store_true", help="print nothing unless something failed")
    p.add_argument("--progress", action="store_true",
                   help="print progress while going through the games")
    p.add_argument("--no-mail-wait", action="store_true",
                   help="adjudicate at the deadline even if the configured mail source has not "
                   "been read up to it (use when mail comes only by `gm ingest` and the source "
                   "a service once read is read no more)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from gm.cli.service_setup import open_service
    from gm.service.clock import SystemClock
    from gm.service.sender_wake import wake_sender
    from gm.service.tick import tick

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s")
    opened = open_service("tick", args.config)
    if opened is None:
        return 2
    config, db = opened

    def progress(done: int, total: int) -> None:
        if done == total or done % 100 == 0:
            print(f"gm tick: {done}/{total} games", file=sys.stderr)

    try:
        summary = tick(db, config=config, clock=SystemClock(),
                       progress=progress if args.progress else None,
                       wait_for_mail=not args.no_mail_wait)
        from gm.service.archive_writer import write_archive

        write_archive(db, config)  # the web archive, where one is kept ([web] archive_dir)
        if args.send:
            from gm.mail.connect import make_sink
            from gm.service.sender import drain_outbox

            asyncio.run(drain_outbox(db, make_sink(config), config=config, clock=SystemClock()))
    finally:
        db.dispose()
    if summary.adjudicated or summary.reminders or summary.notices:
        wake_sender(config)  # a running `gm serve` sends the reports now
    if not args.quiet:
        for game, phase, why in summary.adjudicated:
            print(f"{game}: {phase} adjudicated ({why})")
        for game, until in summary.waiting:
            print(f"{game}: waits until the mail that arrived by "
                  f"{until.isoformat(timespec='seconds')} is read (by `gm serve`)")
        print(f"gm tick: {summary.examined} game(s) looked at, {len(summary.adjudicated)} "
              f"phase(s) adjudicated, {summary.reminders} reminder(s), {summary.notices} "
              f"notice(s), {summary.busy} held by another worker")
    for game, error in summary.failed:
        print(f"gm tick: game {game} failed: {error}", file=sys.stderr)
    return 1 if summary.failed else 0
