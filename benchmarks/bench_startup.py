"""Start-up benchmark: what `gm scenario`, `gm ingest` and `gm tick` cost as whole processes,
and what they import.

Each command runs --runs times in its own process, from compiled bytecode (as an installed
package runs): `gm scenario` on the DATC's basic checks (tests/scenarios/datc), `gm ingest` of
one order message into a seven-player game (SQLite), `gm tick` with nothing due on that
database. Printed per command: the median wall and CPU time of a whole run, and from
`python -X importtime` the modules it imported, the time importing took, and whether the map
drawing's libraries (numpy, Pillow, Skia: needed only to draw a PNG) were among them.

    .venv/bin/python benchmarks/bench_startup.py
    .venv/bin/python benchmarks/bench_startup.py --runs 5
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_ingest_startup import (  # noqa: E402
    FRANCE_ADDRESS,
    GM_ADDRESS,
    import_times,
    message,
)
from benchmarks.bytecode import cached_bytecode_env, compile_package  # noqa: E402
from benchmarks.serve_support import SETUP, password  # noqa: E402
from gm.store import migrate  # noqa: E402

SCENARIO = ROOT / "tests" / "scenarios" / "datc" / "6a_basic_checks.txt"
DRAWING = ("numpy", "PIL", "skia")


def run(argv: list[str], stdin: bytes = b"", *, env: dict[str, str],
        importtime: bool = False) -> tuple[float, float, str]:
    """One `gm` process: its wall time, its CPU time and its stderr."""
    code = "import sys\nfrom gm.cli import main\nsys.exit(main())"
    command = [sys.executable, *(["-X", "importtime"] if importtime else []), "-c", code, *argv]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, input=stdin, env=env, capture_output=True, check=False,
                          cwd=ROOT)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"gm {argv[0]} failed ({done.returncode}): "
                         f"{done.stderr.decode()[-2000:]}")
    return (elapsed, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime,
            done.stderr.decode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    env = {k: v for k, v in cached_bytecode_env().items() if not k.startswith("GM_")}
    compile_package(str(ROOT), env)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        url = f"sqlite:///{root / 'gm.sqlite3'}"
        migrate.upgrade(url)
        config = root / "gm.toml"
        config.write_text(f'database_url = "{url}"\naddress = "judge@example.org"\n'
                          f'data_dir = "{root}"\n')
        run(["ingest", "--config", str(config)], message(GM_ADDRESS, SETUP, 0), env=env)
        orders = f"SIGNON F bench {password('France')}\nA Par-Bur\nA Mar-Spa\nF Bre-MAO\n"
        numbers = iter(range(1, 10_000))
        commands = {
            "scenario": lambda: (["scenario", str(SCENARIO)], b""),
            "ingest": lambda: (["ingest", "--config", str(config)],
                               message(FRANCE_ADDRESS, orders, next(numbers))),
            "tick": lambda: (["tick", "--config", str(config), "--quiet",
                              "--no-mail-wait"], b""),
        }
        print(f"{'command':10}{'wall ms':>9}{'cpu ms':>8}{'modules':>9}{'import ms':>11}"
              "  drawing libraries")
        for name, make in commands.items():
            runs = [run(*make(), env=env)[:2] for _ in range(args.runs)]
            stderr = run(*make(), env=env, importtime=True)[2]
            count, total, _ = import_times(stderr)
            names = {line.rsplit("|", 1)[-1].strip() for line in stderr.splitlines()}
            loaded = [lib for lib in DRAWING if lib in names]
            print(f"{name:10}{statistics.median(w for w, _ in runs) * 1000:>9.0f}"
                  f"{statistics.median(c for _, c in runs) * 1000:>8.0f}{count:>9}"
                  f"{total:>11.0f}  {', '.join(loaded) or 'none'}", flush=True)


if __name__ == "__main__":
    main()
