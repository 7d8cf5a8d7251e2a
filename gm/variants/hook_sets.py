"""Named hook sets: the special rules a variant file may name (`hooks = "chaos2"`).

A variant file chooses its rules by name; what no option of the file expresses is a set of
Python hooks registered under a name: here, or by an installed Python package through an entry
point of the group `gm.hook_sets` (`crowns = "marches_rules:rules"`: a HookSet, or a function
of no arguments returning one), so that a special rule needs no edit of gm. A file can name only
these: it never names a module to import. Each built-in variant's special rules are the hook set
of its name (its hooks and the orders of its own that they read); `standard` is the standard
game's (no hooks). A built-in name is never taken by an installed set.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from gm.engine.calendar import Calendar
from gm.engine.variant import Hooks, ScheduledEvent

# The built-in variants whose rules are hook sets, by name (each module's NAME).
_BUILT_IN = ("standard", "deluge2", "sahara", "abstraction2", "chaos2", "geophysical")
GROUP = "gm.hook_sets"  # the entry-point group of the hook sets installed packages bring


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
    """The names a variant file may give as `hooks`: the built-in sets, then the installed."""
    return (*_BUILT_IN, *sorted(_installed()))


@cache
def _installed() -> dict[str, EntryPoint]:
    """The hook sets installed packages declare (entry points of the group `gm.hook_sets`),
    by name; a built-in name is left to the built-in set."""
    return {ep.name: ep for ep in entry_points(group=GROUP) if ep.name not in _BUILT_IN}


def months_calendar() -> Calendar:
    """Abstraction2's calendar, a move a month from July 1914 (a file's `calendar = "months"`),
    without building that variant (its own file asks for this calendar)."""
    calendar: Calendar = importlib.import_module("gm.variants.abstraction2").calendar()
    return calendar


def hook_set(name: str) -> HookSet | None:
    """The hook set called `name` (exactly), or None (none is, or it does not load)."""
    found = load_hook_set(name)
    return found if isinstance(found, HookSet) else None


@cache
def load_hook_set(name: str) -> HookSet | str | None:
    """The hook set called `name` (exactly): the `rules()` of the built-in variant module of
    that name (each built-in variant is declared by a file that names its set), or the object
    an installed package's entry point gives; a sentence saying why an installed set does not
    load; None if no set is called so."""
    if name not in _BUILT_IN:
        return _load_installed(name)
    if name == "standard":
        return HookSet(Hooks())  # the standard game has no hooks
    module = importlib.import_module(f"gm.variants.{name}")  # fixed names only
    found: HookSet = module.rules()
    return found


def _load_installed(name: str) -> HookSet | str | None:
    """The installed hook set called `name`, or why it does not load (its package's own code
    runs here: anything it raises is reported, never raised)."""
    ep = _installed().get(name)
    if ep is None:
        return None
    where = f"the hook set {name!r} ({ep.value}, installed by " \
            f"{ep.dist.name if ep.dist is not None else 'a package'})"
    try:
        found = ep.load()
        if callable(found) and not isinstance(found, HookSet):
            found = found()
    except Exception as exc:  # a package's code: whatever it raises is its problem to report
        return f"{where} does not load: {type(exc).__name__}: {exc}"
    if not isinstance(found, HookSet):
        return (f"{where} gives {type(found).__name__}, not a HookSet "
                "(gm.variants.hook_sets.HookSet, or a function returning one)")
    return found
