"""`gm demo`: watch a standard game being played by mail through the real service.

With --engine, the same scripted 1901 is adjudicated directly, phase by phase.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "demo",
        help="watch a standard game being played by mail through the service",
        description="Start the service on the embedded default (SQLite, Maildir inbox and "
        "outbox) in a demo data directory and feed it a scripted 1901 by mail: the GM creates "
        "a game, seven players order, the GM processes each phase. Every reply and report the "
        "service sends is printed; afterwards the service keeps running for your own mail.",
    )
    p.add_argument("--data-dir", type=Path, default=Path("var/demo"), metavar="DIR",
                   help="where the demo keeps its database and mail folders (default: var/demo; "
                   "emptied first)")
    p.add_argument("--pause", type=float, default=1.0, metavar="SECONDS",
                   help="wait this long between steps (default: 1)")
    p.add_argument("--exit", action="store_true",
                   help="stop the service after the scripted game instead of leaving it running")
    p.add_argument("--engine", action="store_true",
                   help="no service: adjudicate the scripted phases directly and print results")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.engine:
        return run_engine(args)
    import asyncio

    from gm.service.demo import run_demo

    try:
        return asyncio.run(run_demo(args.data_dir, pause=args.pause,
                                    keep_running=not args.exit, say=print))
    except KeyboardInterrupt:
        return 0


def run_engine(args: argparse.Namespace) -> int:
    """Adjudicate the demo script phase by phase without the mail service."""
    from gm.engine.errors import OrderError
    from gm.engine.game import advance, start_state
    from gm.engine.results import Submitted
    from gm.notation import parse_order
    from gm.service.demo import SCRIPT
    from gm.variants import get_variant

    variant = get_variant("standard")
    state = start_state(variant)
    for _season, script in SCRIPT:
        gmap = variant.map_for(state)
        submitted: list[Submitted] = []
        for power, lines in script.items():
            for line in lines:
                parsed = parse_order(line, gmap, state.phase.type, variant.order_kinds)
                if isinstance(parsed, OrderError):
                    submitted.append(Submitted(power, line, None, parsed))
                else:
                    submitted.append(Submitted(power, line, parsed))
        step = advance(variant, state, submitted)
        for report in step.reports:
            if not report.played:
                continue
            print(f"== {report.phase}")
            for result in report.results:
                reason = f": {result.reason}" if result.reason else ""
                print(f"  {result.power:8} {result.text:24} {result.outcome.value}{reason}")
            for event in report.events:
                print(f"  * {event}")
        state = step.state
        print(f"-- now {state.phase}; centres: " + ", ".join(
            f"{p} {len(state.centres_of(p))}" for p in sorted(state.homes)))
        print()
        if args.pause:
            time.sleep(args.pause)
    return 0
