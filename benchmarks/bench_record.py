"""How long the game's files take to write, and how large they are: the record (MILA saved-game
JSON), the one-file HTML history, the animation, and the web archive after a phase, for a
standard game at its tenth year and a Chaos II game (34 powers) at its tenth.

The standard game is played through the tick with orders the `diplomacy` package draws
(tests/export/mila_play.py: the `bench` or `test` extra); the Chaos II game with random moves,
supports and holds read by gm's own parser (benchmarks/bench_chaos2.py's orders), builds in
free home centres, removals and retreats left to the civil-disorder rules. Each figure is the
CPU time of the first run in this process (after the tick that played the game drew its
reports' pictures), and in brackets the best of `--repeat` - 1 more.

Run: .venv/bin/python benchmarks/bench_record.py [--years 10] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_chaos2 import orders as chaos_orders  # noqa: E402
from gm.engine.phase import PhaseType  # noqa: E402
from gm.play.animation import animation_webp  # noqa: E402
from gm.play.archive import update_archive  # noqa: E402
from gm.play.history_html import history_html  # noqa: E402
from gm.play.mila import Reader, record_bytes  # noqa: E402
from gm.play.played_game import played_game  # noqa: E402
from gm.service.clock import FixedClock  # noqa: E402
from gm.service.tick import tick  # noqa: E402
from gm.store import migrate  # noqa: E402
from gm.store import phases as phases_repo  # noqa: E402
from gm.store.db import Database, open_database  # noqa: E402
from gm.variants import get_variant  # noqa: E402
from tests.export.mila_play import play as play_standard  # noqa: E402
from tests.support.service_support import maildir_config  # noqa: E402
from tests.support.tick_support import new_game, submit  # noqa: E402

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def play_chaos(db: Database, folder: Path, years: int, seed: int = 34) -> int:
    """A Chaos II game played through the tick for `years` years."""
    variant = get_variant("chaos2")
    game = new_game(db, "chaos", opened=T0, deadline=T0 + timedelta(hours=1), variant="chaos2")
    config = maildir_config(folder)
    now, rng = T0, random.Random(seed)
    last = variant.start_phase.year + years
    while True:
        with db.read() as s:
            phase = phases_repo.current_phase(s, game)
            assert phase is not None
        state = phase.state
        if state.phase.year >= last or state.finished:
            return game
        given: dict[str, list[str]] = {}
        if state.phase.type is PhaseType.MOVEMENT:
            for s in chaos_orders(variant, state, rng.randrange(10**6)):
                given.setdefault(s.power, []).append(s.text)
        elif state.phase.type is PhaseType.ADJUSTMENT:
            taken = {u.province for u in state.units}
            for power in variant.power_names:
                free = [h for h in state.homes.get(power, ()) if state.owners.get(h) == power
                        and h not in taken]
                room = len(state.centres_of(power)) - len(state.units_of(power))
                if room > 0 and free:
                    given[power] = [f"Build A {h}" for h in free[:room]]
        if given:
            submit(db, game, given, now)
        now += timedelta(days=3)
        tick(db, config=config, clock=FixedClock(now))


def best(repeat: int, work: Callable[[], object]) -> tuple[float, object]:
    """The first run's CPU time (the pictures not yet drawn in this process, as in a tick
    that processes one game's phase) and what it made; `repeat` more runs are reported as
    their best, where `repeat` > 1 (what a process that drew them before spends)."""
    start = time.process_time()
    result = work()
    first = time.process_time() - start
    again = []
    for _ in range(repeat - 1):
        start = time.process_time()
        work()
        again.append(time.process_time() - start)
    AGAIN.append(min(again) if again else first)
    return first, result


AGAIN: list[float] = []  # the best of each figure's later runs, in the order measured


def _again() -> str:
    return f"  (again {AGAIN.pop(0) * 1000:.0f} ms)" if AGAIN else ""


def measure(db: Database, game: int, label: str, folder: Path, repeat: int) -> None:
    read, played = best(repeat, lambda: _read(db, game))
    gm_copy = Reader("gm")
    t_record, record = best(repeat, lambda: record_bytes(played, gm_copy))  # type: ignore[arg-type]
    t_html, page = best(repeat, lambda: history_html(played, gm_copy))  # type: ignore[arg-type]
    t_anim, anim = best(1, lambda: animation_webp(played))  # type: ignore[arg-type]
    site = folder / f"site-{label}"
    t_full, _ = best(1, lambda: _archive(db, site, force=True))
    t_none, _ = best(repeat, lambda: _archive(db, site, force=False))
    phases = len(played.phases)  # type: ignore[attr-defined]
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    print(f"{label}: {phases} phases")
    print(f"  read the history          {read * 1000:7.0f} ms{_again()}")
    print(f"  record (JSON)             {t_record * 1000:7.0f} ms  "
          f"{len(record) / 1000:7.0f} kB{_again()}")  # type: ignore[arg-type]
    print(f"  history (HTML)            {t_html * 1000:7.0f} ms  "
          f"{len(page.encode()) / 1000:7.0f} kB{_again()}")  # type: ignore[union-attr]
    print(f"  animation (WebP)          {t_anim * 1000:7.0f} ms  "
          f"{len(anim) / 1000:7.0f} kB{_again()}")  # type: ignore[arg-type]
    print(f"  archive after a phase     {t_full * 1000:7.0f} ms  "
          f"{size / 1000:7.0f} kB in all{_again()}")
    print(f"  archive, nothing changed  {t_none * 1000:7.0f} ms{_again()}")


def _read(db: Database, game: int) -> object:
    with db.read() as s:
        return played_game(s, game)


def _archive(db: Database, site: Path, *, force: bool) -> object:
    with db.read() as s:
        return update_archive(s, site, force=force)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for label, make in (
                ("standard", lambda db: play_standard(db, folder, "decade",
                                                      last_year=1900 + args.years, seed=46)),
                ("chaos2", lambda db: play_chaos(db, folder, args.years))):
            url = f"sqlite:///{folder / label}.sqlite3"
            migrate.upgrade(url)
            db = open_database(url)
            start = time.monotonic()
            game = make(db)
            print(f"({label}: played in {time.monotonic() - start:.0f} s)")
            measure(db, game, label, folder, args.repeat)
            db.dispose()


if __name__ == "__main__":
    main()
