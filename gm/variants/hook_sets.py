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

from gm.engine.calendar import Calendar
from gm.engine.variant import Hooks, ScheduledEvent

# The built-in variants whose rules are hook sets, by name (each module's NAME).
_BUILT_IN = ("standard", "deluge2", "sahara", "abstraction2", "chaos2", "geophysical")


@dataclass(frozen=True)
class HookSet:
    """Hooks and the orders of its own a variant needs for them (OrderKind values), with the
    dated changes its hooks play (`scheduled`, e.g. Deluge II's tables) and the rules text for
    HELP (`help`), when the set has them."""

    hooks: Hooks
    order_kinds: frozenset[str] = frozenset()
    scheduled: tuple[ScheduledEvent, ...] = ()
    help: str = ""


def hook_set_names() -> tuple[str, ...]:
    """The names a variant file may give as `hooks`."""
    return _BUILT_IN


def months_calendar() -> Calendar:
    """Abstraction2's calendar, a move a month from July 1914 (a file's `calendar = "months"`),
    without building that variant (its own file asks for this calendar)."""
    calendar: Calendar = importlib.import_module("gm.variants.abstraction2").calendar()
    return calendar


@cache
def hook_set(name: str) -> HookSet | None:
    """The hook set called `name` (exactly), or None: the `rules()` of the variant module of
    that name (each built-in variant is declared by a file that names its set)."""
    if name not in _BUILT_IN:
        return None
    if name == "standard":
        return HookSet(Hooks())  # the standard game has no hooks
    module = importlib.import_module(f"gm.variants.{name}")  # fixed names only
    found: HookSet = module.rules()
    return found
