"""A non-editable install: the wheel built from the source tree carries the grammars, templates,
migrations and map data, so an installed `gm` runs scenarios, the demo and a tick from any
directory (a fresh virtualenv, `pip install` of the wheel with its dependencies)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = shutil.ignore_patterns(".venv", "build", "var", "__pycache__", "*.egg-info", ".git", "*.so",
                              ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis")


def _run(*args: str | Path, cwd: Path, timeout: int = 600,
         env: dict[str, str] | None = None) -> str:
    out = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                         timeout=timeout, env=env)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


def test_an_installed_wheel_runs_scenarios_the_demo_and_a_tick(tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=SKIP)
    wheels = tmp_path / "wheels"
    # Built where the C compiler fails (CC=false): the install still succeeds, as plain Python
    # (setup.py). The compiled modules are what the rest of the suite runs
    # (tests/test_compiled.py); compiling them again here would add a minute to every run.
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, source,
         cwd=tmp_path, env={**os.environ, "CC": "false"})
    [wheel] = wheels.glob("gm-*.whl")
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".so")]
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    _run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp_path)
    work = tmp_path / "elsewhere"  # not the checkout: nothing may be read from beside gm/
    work.mkdir()
    gm = venv / "bin" / "gm"
    where = _run(venv / "bin" / "python", "-c", "import gm.paths as p; print(p.TEMPLATES)",
                 cwd=work)
    assert where.strip().endswith("site-packages/gm/_resources/templates")
    case = work / "case.txt"
    shutil.copy(ROOT / "tests" / "scenarios" / "datc" / "6a_basic_checks.txt", case)
    assert "0 failed" in _run(gm, "scenario", case, cwd=work)
    demo = _run(gm, "demo", "--exit", "--pause", "0", "--data-dir", work / "demo", cwd=work)
    assert "Winter 1901, Adjustment of demo processed" in demo
    assert ".svg" in demo  # the reports name their map picture
    env_tick = _run("env", f"GM_DATA_DIR={work / 'demo'}", gm, "tick", cwd=work)
    assert "1 game(s) looked at, 0 phase(s) adjudicated" in env_tick
    helps = _run(gm, "--help", cwd=work)
    for command in ("demo", "scenario", "db", "serve", "ingest", "shunt", "tick", "export"):
        assert command in helps
