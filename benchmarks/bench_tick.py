"""Tick benchmark: N standard games due in the same minute (every power's Spring 1901 orders
in), one `tick` adjudicates them all, renders each game's reports (text, HTML, the map
pictures as SVG) and queues them; on SQLite and on PostgreSQL. Goal: at most 20 ms per game.
Then the sender drains the queue into a Maildir, drawing each picture's PNG once for all the
reports that carry it (gm.service.sender.draw_pictures): "send" columns, apart from the tick's.

    .venv/bin/python benchmarks/bench_tick.py                  # 1,000 games, SQLite and
                                                               # PostgreSQL (throwaway cluster)
    .venv/bin/python benchmarks/bench_tick.py --games 200 --sqlite-only
    .venv/bin/python benchmarks/bench_tick.py --pg-url URL     # an existing server
    .venv/bin/python benchmarks/bench_tick.py --runs 3         # best of three fresh databases

    .venv/bin/python benchmarks/bench_tick.py --no-send        # the tick alone
    .venv/bin/python benchmarks/bench_tick.py --distinct-boards

The games are alike: by default every one of them draws the same board (the same owners of
the same centres), which gm.pictures.paint paints once and keeps. In a real deadline each
game has its own: with --distinct-boards one neutral centre of each game is owned by one
of its powers, a different pair in each of 84 games one after the other (more than the
boards kept), so each game's board is painted anew, as in a real deadline.

ms/game is wall-clock time; "cpu ms" is the tick process's own CPU time per game in the best
run (the database server's, for PostgreSQL, is not in it): on a busy machine the wall-clock
figure grows with the load, the CPU figure much less. "SQL/game": statements the tick sent
per game (one multi-row INSERT or one executemany counts once). On PostgreSQL the tick runs
two batches at once (gm.service.tick.WORKERS). "peak MiB": the benchmark process's peak
resident memory (Linux's ru_maxrss; the best run's backend and every run before it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import event, func, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.config import Config, MaildirConfig  # noqa: E402
from gm.engine.errors import OrderError  # noqa: E402
from gm.engine.orders import AnyOrder  # noqa: E402
from gm.mail.connect import make_sink  # noqa: E402
from gm.notation import parse_order  # noqa: E402
from gm.service.clock import FixedClock  # noqa: E402
from gm.service.sender import drain_outbox  # noqa: E402
from gm.service.tick import tick  # noqa: E402
from gm.store import games, migrate, phases, powers  # noqa: E402
from gm.store import submissions as orders  # noqa: E402
from gm.store.db import Database, open_database  # noqa: E402
from gm.store.models import OutboundMessage  # noqa: E402
from gm.store.rows import OrderLine  # noqa: E402
from gm.store.statuses import GameStatus  # noqa: E402
from gm.variants import get_variant  # noqa: E402
from tests.support.fixtures.databases import postgres_url, sqlite_url  # noqa: E402
from tests.support.service_support import SPRING_1901  # noqa: E402

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DUE = T0 + timedelta(hours=72)


def setup(db: Database, count: int, say: bool, distinct: bool = False) -> None:
    """`count` active standard games, each with a player per power, Spring 1901 open and due,
    every power's orders in; with `distinct`, each game's board its own (see above)."""
    variant = get_variant("standard")
    start = variant.start_state()
    neutral = sorted(set(variant.map.centres) - set(start.owners))
    boards = [replace(start, owners={**start.owners, centre: power})
              for power in variant.power_names for centre in neutral]
    read: dict[str, AnyOrder] = {}
    for text in (t for lines in SPRING_1901.values() for t in lines):
        order = parse_order(text, variant.map, start.phase.type)
        assert not isinstance(order, OrderError), order
        read[text] = order
    batch = 100
    for first in range(0, count, batch):
        with db.transaction() as s:
            for i in range(first, min(count, first + batch)):
                game = games.create_game(s, name=f"bench{i}", variant="standard",
                                         gm_address=f"gm{i}@example.org", gm_password_hash="h",
                                         now=T0, status=GameStatus.ACTIVE)
                for power in variant.power_names:
                    powers.add_power(s, game.id, power, now=T0,
                                     addresses=[f"{power.lower()}{i}@example.org"])
                state = boards[i % len(boards)] if distinct else start
                phase = phases.open_phase(s, game.id, state, now=T0, deadline_at=DUE)
                for power, lines in SPRING_1901.items():
                    orders.submit_orders(s, phase.id, power, [  # as read on arrival
                        OrderLine.taken(t, read[t]) for t in lines], now=T0)
        if say:
            print(f"  set up {min(count, first + batch)}/{count} games", file=sys.stderr)


def run(url: str, count: int, say: bool, send: bool,
        distinct: bool = False) -> dict[str, float]:
    migrate.upgrade(url)
    db = open_database(url)
    try:
        setup(db, count, say, distinct)
        with tempfile.TemporaryDirectory() as d:
            config = Config(data_dir=Path(d), address="judge@example.org", display_name="gm",
                            maildir=MaildirConfig(inbox=Path(d) / "in", outbox=Path(d) / "out"))
            sent = itertools.count()  # SQL statements the tick sends (next() is thread-safe)
            event.listen(db.engine, "before_cursor_execute", lambda *_: next(sent))
            started, cpu = time.perf_counter(), time.process_time()
            summary = tick(db, config=config, clock=FixedClock(DUE),
                           progress=(lambda n, total: print(f"  ticked {n}/{total}",
                                                            file=sys.stderr)
                                     if say and n % 200 == 0 else None))
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - cpu
            statements = next(sent)
            with db.read() as s:
                queued = s.scalar(select(func.count()).select_from(OutboundMessage)) or 0
            assert len(summary.adjudicated) == count, summary.failed[:3]
            send_s = send_cpu = 0.0
            if send:
                if say:
                    print(f"  sending {queued} reports", file=sys.stderr)
                send_s, send_cpu = time.perf_counter(), time.process_time()
                done = asyncio.run(drain_outbox(db, make_sink(config), config=config,
                                                clock=FixedClock(DUE), batch=50))
                send_s, send_cpu = time.perf_counter() - send_s, time.process_time() - send_cpu
                assert done == queued, (done, queued)
        return {"games": count, "seconds": elapsed, "ms_per_game": elapsed * 1000 / count,
                "cpu_ms_per_game": cpu * 1000 / count, "reports": queued,
                "statements_per_game": statements / count, "send_seconds": send_s,
                "send_cpu_ms_per_game": send_cpu * 1000 / count, "peak_mib": _peak_mib()}
    finally:
        db.dispose()


def _peak_mib() -> float:
    """This process's peak resident memory so far, in MiB (ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games due at once (1000)")
    parser.add_argument("--pg-url", help="PostgreSQL server (maintenance database URL)")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    parser.add_argument("--no-send", action="store_true",
                        help="do not drain the queued reports (no PNG drawn)")
    parser.add_argument("--distinct-boards", action="store_true",
                        help="each game's board its own (default: every game's the same)")
    parser.add_argument("--runs", type=int, default=1,
                        help="runs per backend, each on a fresh database; the best is shown (1)")
    args = parser.parse_args()
    backends: list[tuple[str, Callable[[], contextlib.AbstractContextManager[str]]]] = [
        ("SQLite", sqlite_url)]
    stack = contextlib.ExitStack()
    if not args.sqlite_only:
        admin = args.pg_url
        if admin is None:  # one throwaway server for every run
            from tests.support.fixtures.postgres import postgres_server
            admin = stack.enter_context(postgres_server())
        backends.append(("PostgreSQL", lambda: postgres_url(admin)))
    print(f"{'backend':12}{'games':>8}{'tick (s)':>10}{'ms/game':>10}{'reports':>9}"
          f"{'runs':>6}{'worst':>8}{'cpu ms':>8}{'SQL/game':>10}{'send (s)':>10}"
          f"{'send cpu ms':>13}{'peak MiB':>10}")
    for name, manager in backends:
        results = []
        for n in range(max(1, args.runs)):
            with manager() as url:
                if not args.quiet:
                    print(f"{name} (run {n + 1}):", file=sys.stderr)
                results.append(run(url, args.games, not args.quiet, not args.no_send,
                                   args.distinct_boards))
        r = min(results, key=lambda x: x["seconds"])
        worst = max(x["ms_per_game"] for x in results)
        print(f"{name:12}{r['games']:>8.0f}{r['seconds']:>10.2f}{r['ms_per_game']:>10.1f}"
              f"{r['reports']:>9.0f}{len(results):>6}{worst:>8.1f}"
              f"{r['cpu_ms_per_game']:>8.1f}{r['statements_per_game']:>10.2f}"
              f"{r['send_seconds']:>10.2f}{r['send_cpu_ms_per_game']:>13.1f}"
              f"{r['peak_mib']:>10.0f}", flush=True)
    stack.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
