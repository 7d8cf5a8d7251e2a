"""Build hooks: the project's resources travel with the package, and the engine's hot modules are
compiled with mypyc.

Resources (grammars, templates, migrations) live beside gm/ in the source tree; a built wheel
carries a copy of each in gm/_resources/, where gm.paths finds them once installed. An editable
install reads them where they are.

Compiled modules: the modules of COMPILED (adjudication, order reading, scenario running) are
compiled to C extension modules by mypyc (a `mypy` pinned in pyproject.toml's build
requirements); their classes become native classes. The package behaves the same either way:
with GM_PURE=1 in the environment the build compiles nothing (and an editable build removes the
extension modules an earlier build left beside the sources), and gm runs as plain Python.
Where mypyc or the C compiler fails (no gcc, say), the install goes on as plain Python and
says so (a warning on standard error).
GM_BUILD_JOBS sets how many C files the compiler builds at once (default: one per CPU).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.errors import BaseError, CCompilerError

RESOURCES = ("grammars", "templates", "migrations")
HERE = Path(__file__).resolve().parent

# The hot path of `gm scenario` and of adjudication (see benchmarks/bench_adjudicate.py) and the
# value classes it builds and reads. Left out, as native classes cannot do what they need: a
# class that a plain-Python module subclasses (Variant), an instance that is weakly referenced
# (GameMap: the per-map caches), whose __dict__ is used (GameState.evolve) or that keeps a
# functools.cached_property.
COMPILED = (
    "gm/engine/record.py",
    "gm/engine/geo.py",
    "gm/engine/units.py",
    "gm/engine/phase.py",
    "gm/engine/calendar.py",
    "gm/engine/topology.py",
    "gm/engine/orders.py",
    "gm/engine/errors.py",
    "gm/engine/results.py",
    "gm/engine/legality.py",
    "gm/engine/movement.py",
    "gm/engine/army_fleet.py",
    "gm/engine/game.py",
    "gm/engine/adjustments.py",
    "gm/engine/retreats.py",
    "gm/orders/fast.py",
    "gm/orders/lines.py",
    "gm/orders/checks.py",
    "gm/orders/parser.py",
    "gm/scenario/runner.py",
    "gm/scenario/format.py",
    "gm/variants/mapdata.py",
)
GROUP = "gm_native"  # the shared library of the compiled modules: gm_native__mypyc


class BuildWithResources(build_py):
    """build_py, then copy the resource folders into the built package."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for name in RESOURCES:
            target = Path(self.build_lib) / "gm" / "_resources" / name
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(HERE / name, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


class CompilingBuildExt(build_ext):
    """build_ext for the modules mypyc compiles, generated here (not each time setup.py runs:
    pip runs it for metadata too), compiling the C files of one extension several at once
    (mypyc puts the code of all compiled modules in one shared library, a C file per module)."""

    def finalize_options(self) -> None:
        if self.distribution.ext_modules and not pure():
            try:
                self.distribution.ext_modules = mypyc_extensions()
            except (Exception, SystemExit) as e:  # mypyc missing, or its type check failed
                self.distribution.ext_modules = []
                plain(f"mypyc could not translate it ({e!r})")
        super().finalize_options()

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, BaseError, OSError) as e:  # no C compiler, or it failed
            # nothing half built, nor built earlier beside the sources, is left to be imported
            for ext in self.extensions:
                built = Path(self.get_ext_fullpath(ext.name))
                if built.exists():
                    built.unlink()
            if self.editable_mode or self.inplace:
                remove_stale_extensions()
            plain(f"the C compiler failed ({e})")

    def build_extension(self, ext: Any) -> None:
        jobs = int(os.environ.get("GM_BUILD_JOBS") or os.cpu_count() or 1)
        serial = self.compiler.compile

        def compile(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if jobs < 2 or len(sources) < 2:
                return serial(sources, *args, **kwargs)
            # Largest first, so that the long ones do not start last.
            order = sorted(sources, key=lambda s: -os.path.getsize(s))
            with ThreadPoolExecutor(jobs) as pool:
                objects = pool.map(lambda s: serial([s], *args, **kwargs), order)
                done = dict(zip(order, objects, strict=True))
            return [obj for source in sources for obj in done[source]]

        self.compiler.compile = compile
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = serial


def plain(why: str) -> None:
    """Say that the engine is installed as plain Python, and why (the install goes on: gm
    behaves the same, adjudicating some 1.4 times slower)."""
    print(f"warning: gm's engine is installed as plain Python, not compiled: {why}. "
          "GM_PURE=1 skips the attempt.", file=sys.stderr)


def pure() -> bool:
    return os.environ.get("GM_PURE", "") not in ("", "0")


def remove_stale_extensions() -> None:
    """Extension modules an earlier compiled editable build left beside the sources (they
    would be imported instead of the .py files)."""
    for path in COMPILED:
        for found in (HERE / path).parent.glob(Path(path).stem + ".*.so"):
            found.unlink()
    for found in HERE.glob(f"{GROUP}__mypyc.*.so"):
        found.unlink()


def extensions() -> list[Extension]:
    """The extension modules (a placeholder for those mypyc generates), none with GM_PURE."""
    if pure():
        remove_stale_extensions()
        return []
    return [Extension(f"{GROUP}__mypyc", sources=[])]


def mypyc_extensions() -> list[Extension]:
    from mypyc.build import mypycify

    os.chdir(HERE)  # mypycify takes paths relative to the project
    # A fresh type-check cache each time: a stale one can make a wrong build.
    with tempfile.TemporaryDirectory(prefix="gm-mypyc-cache-") as cache:
        return mypycify(
            [f"--cache-dir={cache}", *COMPILED],
            opt_level=os.environ.get("GM_OPT_LEVEL", "3"),
            debug_level="0",
            multi_file=True,
            group_name=GROUP,
        )


setup(
    cmdclass={"build_py": BuildWithResources, "build_ext": CompilingBuildExt},
    ext_modules=extensions(),
)
