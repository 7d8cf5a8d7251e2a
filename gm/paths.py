"""Where the project's non-Python resources live (grammars, templates, migrations, map data).

The folders grammars/, templates/ and migrations/ beside gm/ are installed as the packages
gm.grammars, gm.templates and gm.migrations (setup.py maps them); they are found here through
importlib.resources, so an installed wheel and an editable install read them the same way.
Each is a folder on disk (Alembic and Jinja2 read files by path): gm is never imported from a
zip archive.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _folder(package: str) -> Path:
    found = files(package)
    if not isinstance(found, Path):  # pragma: no cover - a zipped install
        raise RuntimeError(f"{package} is not a folder on disk: install gm unzipped")
    return found


PACKAGE = _folder("gm")
GRAMMARS = _folder("gm.grammars")
TEMPLATES = _folder("gm.templates")
MIGRATIONS = _folder("gm.migrations")
VARIANT_DATA = PACKAGE / "variants" / "data"
