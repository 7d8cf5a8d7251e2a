"""Adjudication speed: this engine against the MILA `diplomacy` package on one scenario file.

Whole process against whole process: `gm scenario FILE` in a subprocess, against a subprocess
that runs the same phases through the `diplomacy` package's public API (Game.set_units,
set_centers, set_current_phase, set_orders, process). Both read the file with the project's
scenario reader. Needs the `bench` extra (`.venv/bin/pip install -e '.[bench]'`).

    .venv/bin/python benchmarks/bench_adjudicate.py [FILE] [--repeat N]

FILE defaults to the differential corpus, tests/data/differential/random_games.txt (random games
adjudicated by that package; its README says how it is made).

Each side runs once untimed first (warm caches), then N timed runs; by default both run from
compiled bytecode (`--bytecode as-is` keeps the environment as it is, e.g. with
PYTHONDONTWRITEBYTECODE set the project's modules are compiled on every run while the
installed package's are not).

Says whether gm's engine is compiled (see setup.py) and prints each side's wall-clock and CPU
time (best and median of N runs), the ratios, and what each side reported (a check that both did
the same work: gm's pass count, and how many cases the MILA engine reproduced).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.scenario.format import Line

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.bytecode import cached_bytecode_env  # noqa: E402

DEFAULT_FILE = ROOT / "tests" / "data" / "differential" / "random_games.txt"


def gm_command(path: Path) -> list[str]:
    return [sys.executable, "-m", "gm", "scenario", str(path)]


def mila_command(path: Path) -> list[str]:
    return [sys.executable, str(Path(__file__).resolve()), "--mila", str(path)]


@dataclass
class Timing:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)  # user + system time of the process
    last_line: str = ""


def bytecode_env(mode: str) -> dict[str, str]:
    """The environment of the timed processes. `cached` (the default): both sides run from
    compiled bytecode, as installed packages do (benchmarks/bytecode.py; a warm-up run writes
    it); `as-is`: this environment unchanged."""
    return cached_bytecode_env() if mode == "cached" else dict(os.environ)


def timed(command: list[str], repeat: int, env: dict[str, str]) -> Timing:
    """Wall-clock and CPU time of `repeat` runs after one untimed warm-up run (which fills
    the caches: the file system's, the bytecode, gm's order table), and the last line the
    command printed."""
    timing = Timing()
    subprocess.run(command, cwd=ROOT, capture_output=True, env=env, check=False)
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, env=env, check=False
        )
        timing.wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        timing.cpu.append(
            after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        )
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
        lines = done.stdout.strip().splitlines()
        timing.last_line = lines[-1] if lines else ""
    return timing


# -- the MILA side (runs in its own process) ----------------------------------------------------
def _mila_unit(text: str) -> str:
    """`A Bud` / `F StP/sc` -> the package's `A BUD` / `F STP/SC`."""
    return text.strip().upper()


def _mila_order(text: str) -> str:
    """The corpus's build and removal wording -> the package's order syntax."""
    m = re.fullmatch(r"(?i)build\s+([AF]\s+\S+)", text.strip())
    if m:
        return f"{_mila_unit(m.group(1))} B"
    m = re.fullmatch(r"(?i)(?:remove|disband)\s+([AF]\s+\S+)", text.strip())
    if m:
        return f"{_mila_unit(m.group(1))} D"
    return text.strip().upper()


def run_mila(path: Path) -> int:
    from diplomacy import Game

    from gm.scenario.format import read_file

    cases = read_file(path)
    agree = 0
    for case in cases:
        game = Game(map_name="standard")
        game.clear_units()
        game.clear_centers()
        if case.setphase is not None:
            game.set_current_phase(_short_phase(case.setphase.text))
        units: dict[str, list[str]] = {}
        for item in case.block("PRESTATE") or ():
            power, unit = item.text.split(":", 1)
            units.setdefault(power.strip().upper(), []).append(_mila_unit(unit))
        for item in case.block("PRESTATE_DISLODGED") or ():  # `*A MUN`: dislodged
            power, unit = item.text.split(":", 1)
            units.setdefault(power.strip().upper(), []).append(f"*{_mila_unit(unit)}")
        for power, items in units.items():
            game.set_units(power, items, reset=True)
        if case.block("PRESTATE_DISLODGED"):
            _limit_retreats(game, case.block("PRESTATE_RESULTS") or [])
        centres: dict[str, list[str]] = {}
        for item in case.block("PRESTATE_SUPPLYCENTER_OWNERS") or ():
            power, centre = item.text.split(":", 1)
            centres.setdefault(power.strip().upper(), []).append(centre.split()[-1].upper())
        for power, items in centres.items():
            game.set_centers(power, items, reset=True)
        orders: dict[str, list[str]] = {}
        for item in case.block("ORDERS") or ():
            power, order = item.text.split(":", 1)
            orders.setdefault(power.strip().upper(), []).append(_mila_order(order))
        for power, items in orders.items():
            game.set_orders(power, items)
        game.process()
        after = {
            f"{power} {unit}"
            for power, items in game.get_units().items()
            for unit in items
            if not unit.startswith("*")
        }
        expected = {
            f"{p.strip().upper()} {_mila_unit(u)}"
            for p, u in (i.text.split(":", 1) for i in case.block("POSTSTATE") or ())
        }
        agree += after == expected
    print(f"{agree} of {len(cases)} cases reproduced")
    return 0


def _limit_retreats(game: Any, results: Sequence[Line]) -> None:
    """The package's set_units lets a dislodged unit retreat to any empty neighbour; the
    previous movement's results (PRESTATE_RESULTS) rule out where its attacker came from
    (unless by convoy) and the provinces left empty by a standoff (two or more failed moves
    into a province nobody stands in), as gm's scenario runner reads them."""
    came_from: dict[str, str] = {}
    failed_into: dict[str, int] = {}
    for item in results:
        word, _, rest = item.text.partition(":")
        order = rest.partition(":")[2].split()
        if len(order) < 4 or order[2] != "-":
            continue
        src, dest = order[1][:3].upper(), order[3][:3].upper()
        if word.strip().upper() == "SUCCESS":
            if order[-1].upper() != "VIA":
                came_from[dest] = src
        else:
            failed_into[dest] = failed_into.get(dest, 0) + 1
    occupied = {u.split()[-1][:3] for p in game.powers.values() for u in p.units}
    standoffs = {p for p, n in failed_into.items() if n >= 2 and p not in occupied}
    for power in game.powers.values():
        for unit, places in power.retreats.items():
            barred = standoffs | {came_from.get(unit.split()[-1][:3], "")}
            power.retreats[unit] = [p for p in places if p[:3] not in barred]


def _short_phase(text: str) -> str:
    m = re.fullmatch(r"(?i)\s*(\w+)\s+(\d+),?\s*(\w)\w*\s*", text)
    if not m:
        return text.strip().upper()
    season = {"autumn": "F"}.get(m.group(1).lower(), m.group(1)[0].upper())
    return f"{season}{m.group(2)}{m.group(3).upper()}"


def engine_build() -> str:
    """Whether the installed gm runs its hot modules compiled (setup.py, mypyc) or as plain
    Python (a GM_PURE=1 build)."""
    spec = importlib.util.find_spec("gm.engine.movement")
    origin = spec.origin if spec is not None else None
    compiled = origin is not None and origin.endswith(tuple(EXTENSION_SUFFIXES))
    return "compiled (mypyc)" if compiled else "plain Python"


# -- main -----------------------------------------------------------------------------------------
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument("--repeat", type=int, default=3, help="runs per side (best is kept)")
    parser.add_argument(
        "--bytecode",
        choices=("cached", "as-is"),
        default="cached",
        help="cached: both sides run from compiled bytecode (default); as-is: this "
        "environment unchanged (with PYTHONDONTWRITEBYTECODE set, gm is compiled every run)",
    )
    parser.add_argument("--mila", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mila:
        return run_mila(args.file)
    env = bytecode_env(args.bytecode)
    gm = timed(gm_command(args.file), args.repeat, env)
    mila = timed(mila_command(args.file), args.repeat, env)
    print(
        f"file: {args.file}, best of {args.repeat} runs per side (median in brackets), "
        f"after a warm-up run; bytecode: {args.bytecode}; gm's engine: {engine_build()}"
    )
    print(f"{'':18}{'wall':>16}{'cpu':>16}")
    for name, t in (("gm scenario", gm), ("diplomacy 1.1.2", mila)):
        wall = f"{min(t.wall):.3f}s ({statistics.median(t.wall):.3f})"
        cpu = f"{min(t.cpu):.3f}s ({statistics.median(t.cpu):.3f})"
        print(f"{name:18}{wall:>16}{cpu:>16}   {t.last_line}")
    print(
        f"ratio diplomacy / gm: wall {min(mila.wall) / min(gm.wall):.2f}, "
        f"cpu {min(mila.cpu) / min(gm.cpu):.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
