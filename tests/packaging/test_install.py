"""gm as an ordinary wheel: built from the source tree (`python -m build`), installed into a fresh
virtualenv outside the checkout, it carries its grammars, templates, migrations and map data and
runs from any folder: the database is made, a message is taken in and answered, every scenario
file of the project passes, the demo plays and a tick runs. The built wheel runs the engine
compiled (mypyc); one built where the C compiler fails runs it as plain Python."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from gm.store import revisions
from tests.packaging.test_compiled import compiled_paths

pytestmark = pytest.mark.slow  # a wheel build and a virtualenv each

ROOT = Path(__file__).resolve().parent.parent.parent
SKIP = shutil.ignore_patterns(".venv", "build", "dist", "var", "__pycache__", "*.egg-info", ".git",
                              "*.so", ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis")

CREATE = """\
From: gm@example.org
To: judge@example.org
Subject: a new game
Message-ID: <create-1@example.org>

CREATE wheel1 standard gm-password
"""


def _run(*args: str | Path, cwd: Path, timeout: int = 900,
         env: dict[str, str] | None = None, stdin: str | None = None) -> str:
    out = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                         timeout=timeout, env=env, input=stdin)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


def _install(wheel: Path, where: Path) -> Path:
    """A fresh virtualenv at `where` with the wheel and its dependencies; its bin folder. The
    suite's own pip installs into it (`--python`), without byte-compiling what it installs: a
    pip of its own and tens of packages compiled ahead were a third of the test's time, and
    neither is what the test checks."""
    _run(sys.executable, "-m", "venv", "--without-pip", where, cwd=where.parent)
    _run(sys.executable, "-m", "pip", "--python", where / "bin" / "python", "install", "-q",
         "--no-compile", "--disable-pip-version-check", wheel, cwd=where.parent)
    return where / "bin"


@pytest.fixture
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source tree, without what a checkout accumulates (venv, builds): one for
    each test, since a build leaves its compiled modules in the tree it built (a wheel built
    after it from the same tree would carry them, C compiler or not)."""
    path = tmp_path_factory.mktemp("install") / "source"
    shutil.copytree(ROOT, path, ignore=SKIP)
    return path


def test_the_built_wheel_serves_mail_and_runs_every_scenario_compiled(
        source: Path, tmp_path: Path) -> None:
    # compiled as users get it but for the C compiler's optimisation (GM_OPT_LEVEL, 3 when
    # unset): -O0 takes a fraction of -O3's time, and what the test checks (the modules are
    # compiled, carried and behave as the sources do) does not depend on it; the compiled
    # engine's speed is measured from an ordinary install (benchmarks/bench_adjudicate.py)
    env = {**{k: v for k, v in os.environ.items() if k != "GM_PURE"}, "GM_OPT_LEVEL": "0"}
    _run(sys.executable, "-m", "build", "--wheel", "--outdir", tmp_path / "wheels", source,
         cwd=tmp_path, env=env)
    [wheel] = (tmp_path / "wheels").glob("gm-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for resource in ("gm/grammars/orders.lark", "gm/templates/report/phase-body.txt.j2",
                     "gm/migrations/env.py", "gm/migrations/alembic.ini",
                     "gm/migrations/versions/0001_initial_schema.py",
                     "gm/variants/data/standard.map", "gm/scenario/FORMAT.md"):
        assert resource in names, resource
    assert [n for n in names if n.endswith(".so")], "the wheel carries no compiled module"
    bin_ = _install(wheel, tmp_path / "venv")
    work = tmp_path / "elsewhere"  # not the checkout: nothing may be read from beside gm/
    work.mkdir()
    modules = [p.removesuffix(".py").replace("/", ".") for p in compiled_paths()]
    found = _run(bin_ / "python", "-c",
                 "import importlib, sys\nimport gm.paths as p\nprint(p.TEMPLATES)\n"
                 "for m in sys.argv[1:]: print(importlib.import_module(m).__file__)",
                 *modules, cwd=work).split()
    assert found[0].endswith("site-packages/gm/templates")
    assert all(".cpython-" in f and f.endswith(".so") for f in found[1:]), found

    env = {**os.environ, "GM_DATA_DIR": str(work / "data")}
    env.pop("GM_CONFIG", None)
    head = revisions.head_revision()
    assert head is not None
    assert head in _run(bin_ / "gm", "db", "upgrade", cwd=work, env=env) + _run(
        bin_ / "gm", "db", "current", cwd=work, env=env)
    _run(bin_ / "gm", "ingest", cwd=work, env=env, stdin=CREATE)
    _run(bin_ / "gm", "serve", "--once", "--tick-every", "0", cwd=work, env=env)
    [reply] = (work / "data" / "mail" / "outbox" / "new").iterdir()
    text = reply.read_text(encoding="utf-8")
    assert "To: gm@example.org" in text and "wheel1" in text

    files = sorted((source / "tests" / "scenarios").rglob("*.txt"))
    files += sorted((source / "tests" / "data").rglob("*.txt"))
    files = [f for f in files if "CASE" in f.read_text(encoding="utf-8")]
    shutil.copytree(source / "tests", work / "cases")  # read from outside the checkout
    out = _run(bin_ / "gm", "scenario", *(work / "cases" / f.relative_to(source / "tests")
                                          for f in files), cwd=work)
    assert out.rstrip().splitlines()[-1].endswith(" 0 failed"), out[-2000:]
    assert int(out.rstrip().splitlines()[-1].split()[0]) > 1600
    # the format the cases are written in, as installed
    assert _run(bin_ / "gm", "scenario", "--format", cwd=work).startswith(
        "# Scenario files: the adjudication test format")


def test_a_wheel_built_without_a_c_compiler_runs_as_plain_python(
        source: Path, tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    env = {k: v for k, v in os.environ.items() if k != "GM_PURE"}
    # built with the suite's own setuptools (no isolated build environment to install first):
    # what the test checks is what the build does without a C compiler
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                          "--no-build-isolation", "-w", str(wheels), str(source)],
                         cwd=tmp_path, capture_output=True,
                         text=True, timeout=900, env={**env, "CC": "false"})
    assert out.returncode == 0, out.stderr[-3000:]
    [wheel] = wheels.glob("gm-*.whl")
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".so")]
    bin_ = _install(wheel, tmp_path / "venv")
    work = tmp_path / "elsewhere"
    work.mkdir()
    case = work / "case.txt"
    shutil.copy(ROOT / "tests" / "scenarios" / "datc" / "6a_basic_checks.txt", case)
    assert "0 failed" in _run(bin_ / "gm", "scenario", case, cwd=work)
    demo = _run(bin_ / "gm", "demo", "--exit", "--pause", "0", "--data-dir", work / "demo",
                cwd=work)
    assert "Winter 1901, Adjustment of demo processed" in demo
    env_tick = _run("env", f"GM_DATA_DIR={work / 'demo'}", bin_ / "gm", "tick", cwd=work)
    assert "1 game(s) looked at, 0 phase(s) adjudicated" in env_tick
    helps = _run(bin_ / "gm", "--help", cwd=work)
    for command in ("demo", "scenario", "db", "serve", "ingest", "shunt", "tick", "export"):
        assert command in helps


def test_reading_the_metadata_translates_nothing(source: Path, tmp_path: Path) -> None:
    """pip and `python -m build` read the metadata (egg_info, dist_info) in runs of their own
    before the build; those runs finalize build_ext too, and must not translate the engine
    with mypyc (each translation is the better part of a build's time): only the build does."""
    env = {k: v for k, v in os.environ.items() if k != "GM_PURE"}
    for command in (["egg_info", "--egg-base", str(tmp_path)],
                    ["dist_info", "--output-dir", str(tmp_path)]):
        done = subprocess.run([sys.executable, "setup.py", "-q", *command], cwd=source,
                              capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        assert not list((source / "build").rglob("*.c")), command
        assert "generator comprehension" not in done.stderr  # mypyc's notes on the engine
    assert list(tmp_path.glob("gm-*.dist-info/METADATA"))
