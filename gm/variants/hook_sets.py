"""Named hook sets: the special rules a variant file may name (`hooks = "chaos2"`).

A variant file chooses its rules by name; what no option of the file expresses is a set of
Python hooks registered here, under a name. A file can name only these: it never names a module
to import. Each built-in variant's special rules are the hook set of its name (its hooks and the
orders of its own that they read); `standard` is the standard game's (no hooks).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

from gm.engine.variant import Hooks, Variant

# The built-in variants whose rules are hook sets, by name (each module's NAME).
_BUILT_IN = ("standard", "deluge2", "sahara", "abstraction2", "chaos2", "geophysical")


@dataclass(frozen=True)
class HookSet:
    """Hooks and the orders of its own a variant needs for them (OrderKind values)."""

    hooks: Hooks
    order_kinds: frozenset[str] = frozenset()


def hook_set_names() -> tuple[str, ...]:
    """The names a variant file may give as `hooks`."""
    return _BUILT_IN


@cache
def built_in(name: str) -> Variant:
    """The built-in variant `name` (one of `hook_set_names()`), whose parts a file may use."""
    if name not in _BUILT_IN:
        raise LookupError(f"no built-in variant {name!r}")
    # a fixed module of this package, never one named by a file
    variant: Variant = importlib.import_module(f"gm.variants.{name}").build()
    return variant


def hook_set(name: str) -> HookSet | None:
    """The hook set called `name` (exactly), or None."""
    if name not in _BUILT_IN:
        return None
    if name == "standard":
        return HookSet(Hooks())  # the standard game has no hooks
    variant = built_in(name)
    return HookSet(variant.hooks, variant.order_kinds)
