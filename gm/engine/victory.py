"""Centre counts and the standard victory condition (rulebook: 18 of 34 centres)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from gm.engine.phase import Phase
from gm.engine.state import GameState
from gm.engine.variant import Variant, Verdict


def centre_counts(owners: Mapping[str, str], centres: Iterable[str]) -> Counter[str]:
    """How many of the map's current `centres` each power owns."""
    current = frozenset(centres)
    return Counter(p for c, p in owners.items() if c in current)


def solo_winners(owners: Mapping[str, str], centres: Iterable[str], needed: int) -> tuple[str, ...]:
    """The powers owning at least `needed` centres (on the standard map at most one)."""
    counts = centre_counts(owners, centres)
    return tuple(sorted(p for p, n in counts.items() if n >= needed))


def centre_victory(
    variant: Variant, state: GameState, phase: Phase, ownership_updated: bool
) -> Verdict | None:
    """The standard rule: a power owning `variant.solo_centres` centres after an ownership
    update wins alone. A variant's own victory hook may call it and add its own conditions."""
    if not ownership_updated or variant.solo_centres is None:
        return None
    winners = solo_winners(state.owners, variant.map_for(state).centres, variant.solo_centres)
    return Verdict(winners) if winners else None
