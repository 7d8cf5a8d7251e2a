"""`gm demo`: watch a short standard game being adjudicated, phase by phase.

The orders are a scripted 1901 opening read by the real order parser; every phase goes through
the real game flow (movement, retreats, ownership, builds).
"""

from __future__ import annotations

import argparse
import time

# Each phase's orders as players would email them, power by power.
SCRIPT: tuple[dict[str, tuple[str, ...]], ...] = (
    {  # Spring 1901
        "Austria": ("A Vie-Gal", "A Bud-Ser", "F Tri-Alb"),
        "England": ("F Lon-NTH", "F Edi-NWG", "A Lvp-Yor"),
        "France": ("A Par-Bur", "A Mar S A Par-Bur", "F Bre-MAO"),
        "Germany": ("A Mun-Bur", "A Ber-Kie", "F Kie-Den"),
        "Italy": ("A Ven-Tyr", "A Rom-Ven", "F Nap-ION"),
        "Russia": ("A War-Gal", "A Mos-Ukr", "F Sev-BLA", "F StP/sc-BOT"),
        "Turkey": ("A Con-Bul", "A Smy-Con", "F Ank-BLA"),
    },
    {  # Fall 1901
        "Austria": ("A Ser-Gre", "F Alb S A Ser-Gre", "A Vie H"),
        "England": ("F NTH C A Yor-Nwy", "A Yor-Nwy", "F NWG S A Yor-Nwy"),
        "France": ("F MAO-Por", "A Mar-Spa", "A Bur H"),
        "Germany": ("F Den H", "A Kie-Hol", "A Mun H"),
        "Italy": ("F ION-Tun", "A Ven H", "A Tyr H"),
        "Russia": ("F BOT-Swe", "A Ukr-Rum", "A War H", "F Sev H"),
        "Turkey": ("A Bul H", "A Con S A Bul", "F Ank-BLA"),
    },
    {  # Winter 1901
        "Austria": ("Build A Bud",),
        "England": ("Build F Edi",),
        "France": ("Build F Bre", "Build A Mar"),
        "Germany": ("Build F Kie", "Build A Ber"),
        "Italy": ("Build F Nap",),
        "Russia": ("Build F StP/nc", "Build A Mos"),
        "Turkey": ("Build F Smy",),
    },
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "demo",
        help="watch a short standard game being adjudicated",
        description="Play a scripted 1901 of standard Diplomacy through the real order parser "
        "and adjudicator, printing every order's outcome and the position after each phase.",
    )
    p.add_argument("--pause", type=float, default=0.0, metavar="SECONDS",
                   help="wait this long between phases (default: no wait)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from gm.engine.errors import OrderError
    from gm.engine.game import advance, start_state
    from gm.engine.results import Submitted
    from gm.orders import parse_order
    from gm.variants import get_variant

    variant = get_variant("standard")
    state = start_state(variant)
    for script in SCRIPT:
        gmap = variant.map_for(state)
        submitted: list[Submitted] = []
        for power, lines in script.items():
            for line in lines:
                parsed = parse_order(line, gmap, state.phase.type)
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
