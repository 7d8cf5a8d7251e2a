"""Build hook: the project's resources (grammars, templates, migrations) travel with the package.

They live beside gm/ in the source tree; a built wheel carries a copy of each in
gm/_resources/, where gm.paths finds them once installed. An editable install reads them
where they are.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

RESOURCES = ("grammars", "templates", "migrations")
HERE = Path(__file__).resolve().parent


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


setup(cmdclass={"build_py": BuildWithResources})
