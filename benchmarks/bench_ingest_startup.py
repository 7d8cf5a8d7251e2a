"""Start-up benchmark: `gm ingest` of one message, the one-shot path a mail server's pipe runs.

A seven-player standard game is set up (SQLite, the embedded default); then `gm ingest` is run
--runs times in its own process, from compiled bytecode (as an installed package runs), each
time with one message: France's Spring 1901 orders after its SIGNON. Printed: the median and
the best wall time of a whole run (interpreter start to exit), and, from `python -X importtime`,
the time spent importing modules and the share of it under gm.commands.

With --eager the process first imports every module that a function under gm/commands imports
inside its body (found by reading the sources), which is what moving those imports to the
modules' heads costs at start-up; comparing a run with and without it gives that cost.

    .venv/bin/python benchmarks/bench_ingest_startup.py
    .venv/bin/python benchmarks/bench_ingest_startup.py --eager
"""

from __future__ import annotations

import argparse
import ast
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bytecode import cached_bytecode_env, compile_package  # noqa: E402
from benchmarks.serve_support import SETUP, password  # noqa: E402
from gm.store import migrate  # noqa: E402

GM_ADDRESS = "gm@example.org"
FRANCE_ADDRESS = "france@example.org"


def imported_in_bodies(package: Path) -> list[str]:
    """The absolute modules that functions under `package` import inside their bodies."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.ImportFrom) and inner.level == 0 and inner.module:
                        found.add(inner.module)
                    elif isinstance(inner, ast.Import):
                        found.update(alias.name for alias in inner.names)
    return sorted(found)


def message(sender: str, body: str, number: int) -> bytes:
    """A plain-text mail from `sender` to the judge."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = "judge@example.org"
    mail["Subject"] = "orders"
    mail["Message-ID"] = f"<bench-{number}@example.org>"
    mail.set_content(body)
    return bytes(mail)


def run_ingest(config: Path, raw: bytes, env: dict[str, str], prelude: str,
               importtime: bool = False) -> tuple[float, float, str]:
    """One `gm ingest` process fed `raw`: its wall time, its CPU time and its stderr."""
    code = f"{prelude}\nimport sys\nfrom gm.cli import main\nsys.exit(main())"
    argv = [sys.executable] + (["-X", "importtime"] if importtime else [])
    argv += ["-c", code, "ingest", "--config", str(config)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=raw, env=env, capture_output=True, check=False, cwd=ROOT)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"gm ingest failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return elapsed, cpu, done.stderr.decode()


def import_times(stderr: str) -> tuple[int, float, float]:
    """From -X importtime output: the modules imported, the total import time and the part
    under gm.commands (ms)."""
    total = commands = 0.0
    count = 0
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        self_us, _cumulative, name = (part.strip() for part in line[12:].split("|"))
        total += int(self_us) / 1000
        count += 1
        if name.startswith("gm.commands"):
            commands += int(self_us) / 1000
    return count, total, commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--eager", action="store_true",
                        help="import what gm/commands imports in function bodies first")
    args = parser.parse_args()
    env = cached_bytecode_env()
    env = {k: v for k, v in env.items() if not k.startswith("GM_")}
    compile_package(str(ROOT), env)
    modules = imported_in_bodies(ROOT / "gm" / "commands")
    prelude = "\n".join(f"import {m}" for m in modules) if args.eager else ""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        url = f"sqlite:///{root / 'gm.sqlite3'}"
        migrate.upgrade(url)
        config = root / "gm.toml"
        config.write_text(f'database_url = "{url}"\naddress = "judge@example.org"\n')
        run_ingest(config, message(GM_ADDRESS, SETUP, 0), env, "")
        orders = f"SIGNON F bench {password('France')}\nA Par-Bur\nA Mar-Spa\nF Bre-MAO\n"
        runs = [run_ingest(config, message(FRANCE_ADDRESS, orders, n), env, prelude)[:2]
                for n in range(1, args.runs + 1)]
        _, _, stderr = run_ingest(config, message(FRANCE_ADDRESS, orders, 999), env, prelude,
                               importtime=True)
    count, total, commands = import_times(stderr)
    label = "eager (function-body imports of gm/commands done first)" if args.eager else "as is"
    print(f"gm ingest of one order message, {label}, {args.runs} runs")
    walls, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
    print(f"  wall: median {statistics.median(walls) * 1000:.0f} ms, "
          f"best {min(walls) * 1000:.0f} ms")
    print(f"  CPU: median {statistics.median(cpus) * 1000:.0f} ms, "
          f"best {min(cpus) * 1000:.0f} ms (steadier than wall time on a busy machine)")
    print(f"  imports: {count} modules, {total:.0f} ms in all, {commands:.0f} ms of it gm.commands "
          f"({len(modules)} modules imported in function bodies)")


if __name__ == "__main__":
    main()
