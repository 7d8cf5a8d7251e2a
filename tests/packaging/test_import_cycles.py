"""No import circle anywhere in gm: between packages, between the modules of one package, and
between a package's __init__ and its own modules, lazy imports (inside functions) counted.
The import contracts (.importlinter, acyclic_siblings) do not see the last kind."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest


def _circles(package: str) -> list[tuple[str, str]]:
    graph = grimp.build_graph(package, include_external_packages=False)
    return sorted((importer, imported)
                  for importer in graph.modules
                  for imported in graph.find_modules_directly_imported_by(importer)
                  if graph.chain_exists(importer=imported, imported=importer))


def test_gm_has_no_import_circle() -> None:
    assert _circles("gm") == []


def test_a_circle_through_a_packages_init_is_found(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "circled"
    (root / "inner").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "inner" / "__init__.py").write_text("def f():\n    from circled.inner.part import X\n")
    (root / "inner" / "part.py").write_text("from circled.inner import f\nX = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _circles("circled") == [("circled.inner", "circled.inner.part"),
                                   ("circled.inner.part", "circled.inner")]
