"""Where the project's non-Python resources live (grammars, templates, migrations)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRAMMARS = ROOT / "grammars"
TEMPLATES = ROOT / "templates"
MIGRATIONS = ROOT / "migrations"
VARIANT_DATA = Path(__file__).resolve().parent / "variants" / "data"
