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

from collections.abc import Callable
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from gm.engine.calendar import Calendar
from gm.engine.variant import Hooks
from gm.variants.special_rules import HookSet

GROUP = "gm.hook_sets"  # the entry-point group of the hook sets installed packages bring


# Each built-in set is its variant module's `rules()`; the module is imported when the set is
# first asked for (a standard game's ingest never imports Chaos II's rules). Plain imports, so
# that the import graph (the import contracts, tests/packaging/test_import_cycles.py) sees them.
def _standard() -> HookSet:
    return HookSet(Hooks())  # the standard game has no hooks


def _deluge2() -> HookSet:
    from gm.variants import deluge2

    return deluge2.rules()


def _sahara() -> HookSet:
    from gm.variants import sahara

    return sahara.rules()


def _abstraction2() -> HookSet:
    from gm.variants import abstraction2

    return abstraction2.rules()


def _chaos2() -> HookSet:
    from gm.variants import chaos2

    return chaos2.rules()


def _geophysical() -> HookSet:
    from gm.variants import geophysical

    return geophysical.rules()


# The built-in hook sets by name: the one list of them (each built-in variant's file, in
# gm/variants/data, names its set).
_BUILT_IN: dict[str, Callable[[], HookSet]] = {
    "standard": _standard, "deluge2": _deluge2, "sahara": _sahara,
    "abstraction2": _abstraction2, "chaos2": _chaos2, "geophysical": _geophysical,
}

__all__ = ["GROUP", "HookSet", "hook_set", "hook_set_names", "load_hook_set", "months_calendar"]




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
    from gm.variants.abstraction2 import calendar

    return calendar()


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
    built_in = _BUILT_IN.get(name)
    return _load_installed(name) if built_in is None else built_in()


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
