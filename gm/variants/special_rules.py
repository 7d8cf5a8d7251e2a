"""The type of a variant's special rules (a hook set): its hooks, the orders of its own they
read, its dated changes and its rules text.

It sits below the variant modules that define hook sets (gm.variants.deluge2, ...) and below
gm.variants.hook_sets, which finds a set by the name a variant file gives: the variant modules
import only this, so nothing they import leads back to the loader or to the variant files.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.engine.variant import Hooks, ScheduledEvent


@dataclass(frozen=True)
class HookSet:
    """Hooks and the orders of its own a variant needs for them (OrderKind values), with the
    dated changes its hooks play (`scheduled`, e.g. Deluge II's tables) and the rules text for
    HELP (`help`), when the set has them."""

    hooks: Hooks
    order_kinds: frozenset[str] = frozenset()
    scheduled: tuple[ScheduledEvent, ...] = ()
    help: str = ""
