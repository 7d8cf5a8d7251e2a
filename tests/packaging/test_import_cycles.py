"""No import circle anywhere in gm: between packages, between the modules of one package, and
between a package's __init__ and its own modules (or an ancestor's __init__), lazy imports
(inside functions) and imports by name (`importlib.import_module`) counted. The import
contracts (.importlinter, acyclic_siblings) see neither the third kind nor the last. The graph
is built afresh each time (no grimp cache in the checkout)."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

import gm


def _source(root: Path, module: str) -> Path:
    """The file of `module` of the package at `root` (found without importing anything)."""
    path = root.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _imported_by_name(graph: grimp.ImportGraph, root: Path, module: str) -> set[str] | str:
    """The modules `module` imports by name (`import_module(...)` calls): a string names one;
    an f-string starting with a package (`f"{__name__}.{x}"`, `f"gm.cli.{x}"`) any module of
    it; a variable any module named by a string in the module. A sentence when a call is none
    of these (then no one can tell what it imports)."""
    tree = ast.parse(_source(root, module).read_text(encoding="utf-8"))
    strings = {n.value for n in ast.walk(tree)
               if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    found: set[str] = set()
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and call.args and (
                getattr(call.func, "attr", None) == "import_module"
                or getattr(call.func, "id", None) == "import_module")):
            continue
        arg = call.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.add(arg.value)
        elif isinstance(arg, ast.JoinedStr) and arg.values:
            first = arg.values[0]
            prefix = (module if isinstance(first, ast.FormattedValue)
                      and getattr(first.value, "id", None) == "__name__"
                      else first.value if isinstance(first, ast.Constant) else None)
            if not isinstance(prefix, str):
                return f"{module}:{call.lineno}: an import by a name the test cannot follow"
            package = prefix.rstrip(".")
            found |= {m for m in graph.modules if m.startswith(f"{package}.")}
        elif isinstance(arg, ast.Name):
            found |= strings & set(graph.modules)
        else:
            return f"{module}:{call.lineno}: an import by a name the test cannot follow"
    return found


def _circles(package: str, root: Path) -> list[tuple[str, str]]:
    graph = grimp.build_graph(package, include_external_packages=False, cache_dir=None)
    for module in sorted(graph.modules):
        by_name = _imported_by_name(graph, root, module)
        assert not isinstance(by_name, str), by_name
        for imported in by_name:
            graph.add_import(importer=module, imported=imported)
    return sorted((importer, imported)
                  for importer in graph.modules
                  for imported in graph.find_modules_directly_imported_by(importer)
                  if graph.chain_exists(importer=imported, imported=importer))


def test_gm_has_no_import_circle() -> None:
    assert _circles("gm", Path(gm.__file__).parent) == []


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
    pytest.param("", "import importlib\nimportlib.import_module('circled.inner.part')\n",
                 "from circled.inner import f\nX = 1\n", INNER, id="import-module-string"),
    pytest.param("", "import importlib\n\n\ndef f(n):\n"
                 "    return importlib.import_module(f'{__name__}.{n}')\n",
                 "from circled.inner import f\nX = 1\n", INNER, id="import-module-package"),
    pytest.param("", "from importlib import import_module\nNAMES = ('circled.inner.part',)\n"
                 "\n\ndef f():\n    for n in NAMES:\n        import_module(n)\n",
                 "from circled.inner import f\nX = 1\n", INNER, id="import-module-variable"),
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
    assert _circles("circled", root) == expected
