"""Storage benchmark: a 34-power phase stored and reloaded, the size of a 20-year game, and the
time to load a game's whole history, on SQLite and on PostgreSQL.

    .venv/bin/python benchmarks/bench_store.py                 # SQLite, and PostgreSQL in a
                                                               # throwaway cluster
    .venv/bin/python benchmarks/bench_store.py --pg-url URL    # an existing server (a role
                                                               # that may CREATE DATABASE)
    .venv/bin/python benchmarks/bench_store.py --sqlite-only
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from sqlalchemy import text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.store import games, inbound, migrate, outbound, phases, powers  # noqa: E402
from gm.store import submissions as orders  # noqa: E402
from gm.store.db import Database, open_database  # noqa: E402
from gm.store.rows import BodyPart, OrderLine  # noqa: E402
from gm.store.statuses import GameStatus  # noqa: E402
from tests.support.fixtures.databases import postgres_url, sqlite_url  # noqa: E402
from tests.support.store_samples import (  # noqa: E402
    T0,
    phase_sequence,
    power_name,
    sample_results,
    sample_state,
)

REPEAT = 30
YEARS = 20
PHASES = 60  # 20 years x (spring, fall, winter); retreat phases are skipped as most games do
POWERS = 7
ORDERS_PER_PHASE = 34


def _median_ms(fn: Callable[[], object], repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def _new_game(db: Database, name: str, n_powers: int) -> int:
    with db.transaction() as s:
        gid = games.create_game(s, name=name, variant="standard", gm_address="gm@example.org",
                                gm_password_hash="h", now=T0, status=GameStatus.ACTIVE).id
        for i in range(n_powers):
            powers.add_power(s, gid, power_name(i), now=T0, addresses=[f"p{i}@example.org"])
        return gid


def bench_big_phase(db: Database) -> dict[str, float]:
    """A 34-power phase (102 units, 102 results): store it whole, and load it back."""
    state = sample_state(powers=34, units_per_power=3)
    results = sample_results(state)
    gid = _new_game(db, "big", 34)
    stored: list[int] = []

    def store() -> None:
        with db.transaction() as s:
            p = phases.open_phase(s, gid, state, now=T0)
            phases.record_results(s, p.id, results, now=T0)
            stored.append(p.id)

    def load() -> None:
        with db.read() as s:
            back = phases.get_phase(s, stored[-1])
        assert back.state == state and back.results is not None

    return {
        "units": len(state.units),
        "state_json_kb": len(state.dumps()) / 1024,
        "store_ms": _median_ms(store),
        "load_ms": _median_ms(load),
    }


def play_twenty_years(db: Database) -> int:
    """A 7-power, 20-year game as the service would store it: per phase, each power's order
    mail (inbound, ~1.5 kB), its order set, the results, and a results mail to every player."""
    gid = _new_game(db, "twenty", POWERS)
    per_power = ORDERS_PER_PHASE // POWERS + 1
    state = sample_state(powers=POWERS, units_per_power=per_power)
    body = "x" * 1200
    for i, ph in enumerate(phase_sequence(PHASES * 5 // 3)):
        if ph.type.value == "Retreat":
            continue
        now = T0 + timedelta(days=i)
        with db.transaction() as s:
            p = phases.open_phase(s, gid, state.evolve(phase=ph), now=now, deadline_at=now)
            for k in range(POWERS):
                mid = f"<g{gid}-{i}-{k}@example.org>"
                raw = f"Message-ID: {mid}\r\nFrom: p{k}@example.org\r\n\r\n{body}".encode()
                msg = inbound.receive_inbound(s, raw=raw, sender=f"p{k}@example.org",
                                              message_id=mid, now=now).record
                lines = [OrderLine(f"a p{k:02d}{u} - bur", f"A P{k:02d}{u} - Bur")
                         for u in range(per_power)]
                orders.submit_orders(s, p.id, power_name(k), lines, inbound_id=msg.id, now=now)
                inbound.mark_processed(s, msg.id, now=now)
            phases.record_results(s, p.id, sample_results(state)[:ORDERS_PER_PHASE], now=now,
                                  events=["Hol floods"])
            report = "\n".join(f"{r.power}: {r.text} ({r.outcome.value})"
                               for r in sample_results(state))
            outbound.enqueue_outbound(
                s, message_id=f"<report-{gid}-{i}@gm.example.org>",
                recipients=[f"p{k}@example.org" for k in range(POWERS)],
                headers=[("Subject", f"Diplomacy results twenty {ph}")],
                parts=[BodyPart("text/plain", report)], now=now)
    with db.read() as s:
        assert phases.phase_count(s, gid) == PHASES
    return gid


def database_size_kb(db: Database) -> float:
    if db.dialect == "sqlite":
        raw = db.engine.raw_connection()  # outside any transaction, as a checkpoint needs
        try:
            raw.cursor().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            raw.close()
        path = db.engine.url.database
        assert path is not None
        return Path(path).stat().st_size / 1024
    with db.engine.connect() as conn:
        total = conn.execute(text(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'"
        )).scalar()
        return float(total or 0) / 1024


def bench_history(db: Database, gid: int) -> dict[str, float]:
    def load() -> None:
        with db.read() as s:
            hist = phases.history(s, gid)
            sets = orders.order_sets_for_game(s, gid)
        assert len(hist) == PHASES and sum(len(v) for v in sets.values()) == PHASES * POWERS

    def states_only() -> None:
        with db.read() as s:
            assert len(phases.history(s, gid)) == PHASES

    return {"history_ms": _median_ms(states_only, 10), "history_with_orders_ms":
            _median_ms(load, 10)}


def run(db: Database) -> dict[str, float]:
    figures: dict[str, float] = {}
    figures.update(bench_big_phase(db))
    empty = database_size_kb(db)
    t = time.perf_counter()
    gid = play_twenty_years(db)
    figures["play_20_years_s"] = time.perf_counter() - t
    figures["size_20_years_kb"] = database_size_kb(db) - empty
    figures.update(bench_history(db, gid))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pg-url", help="PostgreSQL server (maintenance database URL)")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    backends: list[tuple[str, contextlib.AbstractContextManager[str]]] = [
        ("SQLite", sqlite_url())
    ]
    if not args.sqlite_only:
        backends.append(("PostgreSQL", postgres_url(args.pg_url)))
    results: dict[str, dict[str, float]] = {}
    for name, manager in backends:
        with manager as url:
            migrate.upgrade(url)
            db = open_database(url)
            try:
                results[name] = run(db)
            finally:
                db.dispose()
    rows = [
        ("34-power phase: units", "units", "{:.0f}"),
        ("34-power phase: state JSON (kB)", "state_json_kb", "{:.1f}"),
        ("34-power phase: store state + results (ms)", "store_ms", "{:.1f}"),
        ("34-power phase: reload (ms)", "load_ms", "{:.1f}"),
        (f"{YEARS}-year game ({PHASES} phases, {POWERS} powers): write all (s)",
         "play_20_years_s", "{:.2f}"),
        (f"{YEARS}-year game: database growth (kB)", "size_20_years_kb", "{:.0f}"),
        (f"{YEARS}-year game: load whole history (ms)", "history_ms", "{:.1f}"),
        (f"{YEARS}-year game: history with every order set (ms)", "history_with_orders_ms",
         "{:.1f}"),
    ]
    names = list(results)
    print(f"{'':62}" + "".join(f"{n:>12}" for n in names))
    for label, key, fmt in rows:
        print(f"{label:62}" + "".join(f"{fmt.format(results[n][key]):>12}" for n in names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
