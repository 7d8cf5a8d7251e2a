"""Variants by name (any case): `standard`, `deluge2` or `Deluge II`, `sahara`, `abstraction2`,
`chaos2`, `geophysical`, and their other aliases.

Each variant module defines `NAME`, `ALIASES` and `build() -> Variant`; the map is only built
when the variant is first asked for.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

from gm.engine.variant import Variant

_MODULES = (
    "gm.variants.standard",
    "gm.variants.deluge2",
    "gm.variants.sahara",
    "gm.variants.abstraction2",
    "gm.variants.chaos2",
    "gm.variants.geophysical",
)


class UnknownVariant(LookupError):
    """A variant name that no variant answers to; the message lists the known ones."""

    def __init__(self, name: str) -> None:
        super().__init__(
            f"there is no variant called {name!r}; known variants: {', '.join(names())}"
        )
        self.name = name


def _key(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").split())


@cache
def _modules() -> dict[str, ModuleType]:
    modules = (importlib.import_module(m) for m in _MODULES)
    return {str(m.NAME): m for m in modules}


def _named(key: str) -> ModuleType | None:
    """The module of the variant whose canonical name is `key`, when the module is named after
    it (then only that module is imported: start-up time); None otherwise."""
    module = f"gm.variants.{key}"
    if module not in _MODULES:
        return None
    found = importlib.import_module(module)
    return found if key == found.NAME else None


def names() -> tuple[str, ...]:
    """The canonical names of all variants."""
    return tuple(_modules())


def canonical_name(name: str) -> str | None:
    """`Standard` -> `standard`; None if no variant has that name or alias."""
    key = _key(name)
    if _named(key) is not None:
        return key
    for canonical, module in _modules().items():
        if key == canonical or key in (_key(a) for a in module.ALIASES):
            return canonical
    return None


def get_variant(name: str) -> Variant:
    """The variant called `name` (canonical name or alias, any case); UnknownVariant if none."""
    canonical = canonical_name(name)
    if canonical is None:
        raise UnknownVariant(name)
    return _build(canonical)


@cache
def _build(canonical: str) -> Variant:
    variant: Variant = (_named(canonical) or _modules()[canonical]).build()
    return variant
