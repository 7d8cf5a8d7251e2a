"""The environment benchmarks run `gm` in: from compiled bytecode, as an installed package does.

`pip install` compiles a package's modules to bytecode; an editable checkout run with
PYTHONDONTWRITEBYTECODE set compiles every module again on every start instead. The timed
processes get PYTHONPYCACHEPREFIX (a cache directory of their own), so the first run writes the
bytecode and the others read it, whatever PYTHONDONTWRITEBYTECODE says.
"""

from __future__ import annotations

import os


def cached_bytecode_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this environment) with bytecode written to and read from the cache."""
    env = dict(os.environ if base is None else base)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    env["PYTHONPYCACHEPREFIX"] = os.path.join(cache, "gm", "bench-bytecode")
    return env


def compile_package(root: str, env: dict[str, str]) -> None:
    """Compile the package under `root` into that cache beforehand, as `pip install` does, so
    even a single timed run reads bytecode."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(root, "gm")],
                   env=env, check=True, stdout=subprocess.DEVNULL)
