"""Variants: a module per variant plus map data; `get_variant(name)` finds one by name or alias."""

from gm.engine.variant import Hooks, HookStep, Power, ScheduledEvent, Variant, Verdict
from gm.variants.registry import UnknownVariant, canonical_name, get_variant, names

__all__ = [
    "HookStep",
    "Hooks",
    "Power",
    "ScheduledEvent",
    "UnknownVariant",
    "Variant",
    "Verdict",
    "canonical_name",
    "get_variant",
    "names",
]
