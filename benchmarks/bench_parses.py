"""Order parses per processed phase: a standard game played by mail through the real service
(the scripted 1901 of `gm demo`: Spring, Fall and Winter), counting every call of the order
grammar's entry (gm.notation.parser.parse_order, which gm.notation.parse_orders calls once per
order of a line).

Each phase: every power mails the first half of its orders, a tick runs (not due: it reads who
has ordered), every power mails the rest (a later message, added to its stored orders), a
power asks for its ORDERS, the GM's PREVIEW, another tick, and the GM's PROCESS (Fall: the
tick once the early delay is over, every power being ready). A parse is
counted as "on arrival" when it reads an order line of a message (the use case
gm.play.order_runs, OrderRun.line), as a "re-read" otherwise: the stored orders read again
(by later messages, ticks, PREVIEW, adjudication or pictures). Goal: no re-read.

    .venv/bin/python benchmarks/bench_parses.py
"""

from __future__ import annotations

import asyncio
import functools
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gm.notation.parser as parser_module  # noqa: E402
from gm.service.demo import SCRIPT  # noqa: E402
from gm.service.tick import tick  # noqa: E402
from gm.store import migrate  # noqa: E402
from gm.store.db import open_database  # noqa: E402
from tests.support.fixtures.databases import sqlite_url  # noqa: E402
from tests.support.mail_table import seven_powers  # noqa: E402

EARLY = timedelta(minutes=10)  # the early delay: a phase every power is ready in waits for it
BY_TICK = {"Fall 1901"}  # processed by the tick (the others by the GM's PROCESS)
ARRIVAL = {("line", "gm.play.order_runs")}


class Counting:
    """Counts the outermost calls of the order grammar's entry, by who called it."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.by_caller: Counter[str] = Counter()
        self._depth = 0

    def wrap(self, parse: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(parse)
        def counted(*args: Any, **kwargs: Any) -> Any:
            if self._depth == 0:
                self._count(sys._getframe(1))
            self._depth += 1
            try:
                return parse(*args, **kwargs)
            finally:
                self._depth -= 1
        return counted

    def _count(self, frame: FrameType | None) -> None:
        callers = list(_frames(frame))
        arrival = any((f.f_code.co_name, f.f_globals.get("__name__")) in ARRIVAL
                      for f in callers)
        self.counts["arrival" if arrival else "re-read"] += 1
        if not arrival:
            first = next((f for f in callers if str(f.f_globals.get("__name__", ""))
                          .startswith("gm.") and not str(f.f_globals["__name__"])
                          .startswith("gm.notation")), None)
            if first is not None:
                self.by_caller[f"{first.f_globals['__name__']}.{first.f_code.co_name}"] += 1

    def take(self) -> tuple[Counter[str], Counter[str]]:
        counts, callers = self.counts, self.by_caller
        self.counts, self.by_caller = Counter(), Counter()
        return counts, callers


def _frames(frame: FrameType | None) -> Iterator[FrameType]:
    while frame is not None:
        yield frame
        frame = frame.f_back


def install(counting: Counting) -> None:
    """Every module's name for the grammar's entry (imported by name) replaced by the counter."""
    original = parser_module.parse_order
    counted = counting.wrap(original)
    for module in list(sys.modules.values()):
        if module is not None and getattr(module, "parse_order", None) is original:
            module.parse_order = counted  # type: ignore[attr-defined]


async def play(folder: Path, url: str, counting: Counting) -> list[tuple[str, Counter[str],
                                                                          Counter[str]]]:
    migrate.upgrade(url)
    db = open_database(url)
    table = seven_powers(db, folder, "bench")
    table.config = replace(table.config, early_delay=EARLY.total_seconds())
    await table.start("standard")
    # every module the game's mail loads is loaded now: the counter replaces their names
    await table.orders({p: list(lines[:1]) for p, lines in SCRIPT[0][1].items()})
    await table.orders({p: ["CLEAR"] for p in SCRIPT[0][1]})
    tick(db, config=table.config, clock=table.clock)
    await table.gm("SIGNON GM bench gmpass\nPREVIEW")
    install(counting)
    counting.take()
    out = []
    for season, orders in SCRIPT:
        half = {p: list(lines[: max(1, len(lines) // 2)]) for p, lines in orders.items()}
        rest = {p: list(lines[len(half[p]):]) for p, lines in orders.items()}
        await table.orders(half)
        table.clock.advance(timedelta(minutes=1))
        tick(db, config=table.config, clock=table.clock)
        await table.orders({p: lines for p, lines in rest.items() if lines})
        await table.answer("England", "ORDERS")
        await table.gm("SIGNON GM bench gmpass\nPREVIEW")
        tick(db, config=table.config, clock=table.clock)
        if season in BY_TICK:  # every power ready: processed once the early delay is over
            table.clock.advance(EARLY + timedelta(minutes=1))
            assert tick(db, config=table.config, clock=table.clock).adjudicated
        else:
            await table.process()
        table.clock.advance(timedelta(minutes=1))
        out.append((season, *counting.take()))
    db.dispose()
    return out


def main() -> int:
    counting = Counting()
    with tempfile.TemporaryDirectory() as d, sqlite_url() as url:
        phases = asyncio.run(play(Path(d), url, counting))
    print(f"{'phase':14}{'lines':>7}{'on arrival':>12}{'re-read':>9}   re-read by")
    total: Counter[str] = Counter()
    for (season, counts, callers), (_, orders) in zip(phases, SCRIPT, strict=True):
        lines = sum(len(v) for v in orders.values())
        total.update(counts)
        who = ", ".join(f"{k} {v}" for k, v in callers.most_common()) or "-"
        print(f"{season:14}{lines:>7}{counts['arrival']:>12}{counts['re-read']:>9}   {who}")
    n = len(phases)
    print(f"per processed phase: {total['arrival'] / n:.1f} on arrival, "
          f"{total['re-read'] / n:.1f} re-read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
