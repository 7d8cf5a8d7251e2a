"""What gm's PostgreSQL connections wait for during a benchmark run (bench_mail.py --waits).

A thread looks at pg_stat_activity every 10 ms (one connection of its own) and counts, for
each wait seen in an active statement of the benchmark's database, the statement's start: a
lock wait on `SELECT games.id ... FOR UPDATE` is a process waiting for another's game row lock.
"""

from __future__ import annotations

import threading
from collections import Counter
from types import TracebackType

import psycopg

from tests.support.fixtures.postgres import libpq_url

_ACTIVE = ("SELECT wait_event_type, wait_event, left(regexp_replace(query, '\\s+', ' ', 'g'), 60)"
           " FROM pg_stat_activity WHERE datname = current_database()"
           " AND pid <> pg_backend_pid() AND state = 'active'")


class Waits:
    """Samples of the active statements' waits while the `with` block runs."""

    def __init__(self, url: str, every: float = 0.01) -> None:
        self.url, self.every = url, every
        self.samples = 0
        self.seen: Counter[tuple[str, str, str]] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Waits:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        with psycopg.connect(libpq_url(self.url), autocommit=True) as conn:
            while not self._stop.wait(self.every):
                for kind, event, query in conn.execute(_ACTIVE):
                    if kind is not None and kind != "Client":  # waiting on the server's side
                        self.seen[kind, event, query] += 1
                self.samples += 1

    def report(self, top: int = 5) -> str:
        """The most frequent waits, each with the share of the samples it was seen in."""
        lines = [f"waits in {self.samples} samples of pg_stat_activity (every "
                 f"{self.every * 1000:.0f} ms):"]
        lines += [f"  {n} ({n / max(1, self.samples):.1%}) {kind}/{event}: {query}"
                  for (kind, event, query), n in self.seen.most_common(top)]
        return "\n".join(lines)
