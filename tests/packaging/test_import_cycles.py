"""No import circle anywhere in gm: between packages, between the modules of one package, and
between a package's __init__ and its own modules (or an ancestor's __init__), lazy imports
(inside functions) counted. The import contracts (.importlinter, acyclic_siblings) do not see
the last kind. The graph is built afresh each time (no grimp cache in the checkout)."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest


def _circles(package: str) -> list[tuple[str, str]]:
    graph = grimp.build_graph(package, include_external_packages=False, cache_dir=None)
    return sorted((importer, imported)
                  for importer in graph.modules
                  for imported in graph.find_modules_directly_imported_by(importer)
                  if graph.chain_exists(importer=imported, imported=importer))


def test_gm_has_no_import_circle() -> None:
    assert _circles("gm") == []


INNER = [("circled.inner", "circled.inner.part"), ("circled.inner.part", "circled.inner")]


@pytest.mark.parametrize(("top", "init", "part", "expected"), [
    pytest.param("", "def f():\n    from circled.inner.part import X\n",
                 "from circled.inner import f\nX = 1\n", INNER, id="lazy-in-init"),
    pytest.param("", "from .part import X\n\n\ndef f() -> None: ...\n",
                 "from . import f\nX = 1\n", INNER, id="relative"),
    pytest.param("", "from circled.inner.part import X\n",
                 "import circled.inner\nX = 1\n", INNER, id="module-import"),
    pytest.param("from circled.inner.part import X\n\n\ndef g() -> None: ...\n", "",
                 "def h():\n    from .. import g\nX = 1\n",
                 [("circled", "circled.inner.part"), ("circled.inner.part", "circled")],
                 id="ancestor-init"),
    pytest.param("", "from .part import X\n", "import json\nX = 1\n", [], id="no-circle"),
])
def test_a_circle_through_a_packages_init_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top: str, init: str, part: str,
        expected: list[tuple[str, str]]) -> None:
    root = tmp_path / "circled"
    (root / "inner").mkdir(parents=True)
    (root / "__init__.py").write_text(top)
    (root / "inner" / "__init__.py").write_text(init)
    (root / "inner" / "part.py").write_text(part)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _circles("circled") == expected
