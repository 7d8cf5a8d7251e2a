"""Where the project's non-Python resources live (grammars, templates, migrations).

In a checkout (and an editable install) they are the folders beside gm/; an installed wheel
carries a copy in gm/_resources/ (setup.py's build step), which is used when present.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
PACKAGED = PACKAGE / "_resources"


def _resource(name: str) -> Path:
    packaged = PACKAGED / name
    return packaged if packaged.is_dir() else ROOT / name


GRAMMARS = _resource("grammars")
TEMPLATES = _resource("templates")
MIGRATIONS = _resource("migrations")
VARIANT_DATA = PACKAGE / "variants" / "data"
