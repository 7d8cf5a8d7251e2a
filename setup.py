"""The package's layout, and its engine's hot modules compiled with mypyc.

Resources: the folders grammars/, templates/ and migrations/ beside gm/ are the packages
gm.grammars, gm.templates and gm.migrations (package_dir maps them), so a wheel carries them and
gm.paths reads them with importlib.resources, installed or editable alike.

Compiled modules: a wheel (`pip install .`, `python -m build`) compiles the modules of COMPILED
(adjudication, order reading, scenario running) to C extension modules with mypyc (a `mypy`
pinned in pyproject.toml's build requirements); their classes become native classes. The
package behaves the same either way. An editable install (`pip install -e .`) compiles nothing
and removes the extension modules an earlier build left beside the sources, so an edited source
always takes effect. With GM_PURE=1 in the environment no build compiles anything. Where mypyc
or the C compiler fails (no gcc, say), the install goes on as plain Python and says so (a
warning on standard error).
GM_BUILD_JOBS sets how many C files the compiler builds at once (default: one per CPU).
"""

from __future__ import annotations

import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError, CCompilerError

HERE = Path(__file__).resolve().parent
# The resource folders beside gm/, each shipped as a package of gm, with the files it carries.
RESOURCES = {
    "grammars": ["*.lark"],
    "templates": ["*/*.j2"],
    "migrations": ["*.py", "*.mako", "*.ini", "versions/*.py"],
}

# The hot path of `gm scenario` and of adjudication (see benchmarks/bench_adjudicate.py) and the
# value classes it builds and reads. Left out, as native classes cannot do what they need: a
# class that a plain-Python module subclasses (Variant), an instance that is weakly referenced
# (GameMap: the per-map caches), whose __dict__ is used (GameState.evolve) or that keeps a
# functools.cached_property.
COMPILED = (
    "gm/engine/frozen.py",
    "gm/engine/geo.py",
    "gm/engine/units.py",
    "gm/engine/phase.py",
    "gm/engine/calendar.py",
    "gm/engine/topology.py",
    "gm/engine/orders.py",
    "gm/engine/errors.py",
    "gm/engine/results.py",
    "gm/engine/legality.py",
    "gm/engine/army_fleet/legality.py",
    "gm/engine/order_check.py",
    "gm/engine/movement.py",
    "gm/engine/army_fleet/adjudication.py",
    "gm/engine/game.py",
    "gm/engine/adjustments.py",
    "gm/engine/retreats.py",
    "gm/notation/fast.py",
    "gm/notation/lines.py",
    "gm/notation/checks.py",
    "gm/notation/parser.py",
    "gm/scenario/runner.py",
    "gm/scenario/format.py",
    "gm/variants/mapdata.py",
)
GROUP = "gm_native"  # the shared library of the compiled modules: gm_native__mypyc


class CompilingBuildExt(build_ext):
    """build_ext for the modules mypyc compiles, generated here (not each time setup.py runs:
    pip runs it for metadata too), compiling the C files of one extension several at once
    (mypyc puts the code of all compiled modules in one shared library, a C file per module)."""

    def finalize_options(self) -> None:
        if self.editable_mode or self.inplace:  # sources are imported as they are
            self.distribution.ext_modules = []
            remove_stale_extensions()
        elif self.distribution.ext_modules and not pure() and building(self.distribution):
            broken = c_compiler_problem()
            if broken is not None:  # found before mypyc spends a minute translating
                self.distribution.ext_modules = []
                plain(f"the C compiler failed ({broken})")
                super().finalize_options()
                return
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


def building(dist: Any) -> bool:
    """Does this run build the modules? A run that only writes the metadata (egg_info,
    dist_info, sdist: pip and `python -m build` start one or two before the build) finalizes
    build_ext too, and is left the placeholder: translating there would triple the build's
    time."""
    return bool(set(dist.commands) - {"egg_info", "dist_info", "sdist"})


def plain(why: str) -> None:
    """Say that the engine is installed as plain Python, and why (the install goes on: gm
    behaves the same, adjudicating some 1.4 times slower)."""
    print(f"warning: gm's engine is installed as plain Python, not compiled: {why}. "
          "GM_PURE=1 skips the attempt.", file=sys.stderr)


def c_compiler_problem() -> str | None:
    """Why the C compiler cannot build an extension module (a file including Python.h), or
    None when it can."""
    import sysconfig
    from distutils.ccompiler import new_compiler
    from distutils.errors import DistutilsError
    from distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory(prefix="gm-cc-") as folder:
        probe = Path(folder) / "probe.c"
        probe.write_text("#include <Python.h>\nint gm_probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=folder,
                             include_dirs=[sysconfig.get_paths()["include"]])
        except (DistutilsError, CCompilerError, OSError) as e:
            return str(e) or type(e).__name__
    return None


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
    packages=[*find_packages(include=["gm", "gm.*"]), *(f"gm.{name}" for name in RESOURCES)],
    package_dir={f"gm.{name}": name for name in RESOURCES},
    package_data={
        "gm": ["py.typed"],
        "gm.variants": ["data/*"],
        "gm.scenario": ["FORMAT.md"],
        **{f"gm.{name}": files for name, files in RESOURCES.items()},
    },
    cmdclass={"build_ext": CompilingBuildExt},
    ext_modules=extensions(),
)
