"""The bot's alliance declarations (Chaos II rule 6): "If no more than one third of the
remaining powers (including those in civil disorder) own more than 17 centers, they may send a
formal declaration of alliance to the GM during a Winter season", every member naming all the
others; if the lists tally, they share the victory (RULINGS: Chaos II).

The bot cannot ask the others, so it declares the one alliance every bot works out alike from
the board: the fewest of the strongest powers (by centres owned, then by name) that together
own 18 centres and number at most a third of the powers left. It declares only if its power is
one of them; each member is then needed (without any one of them the others own fewer than 18),
and a player in the alliance may declare it too, or not (then it fails, and nothing is lost).
"""

from __future__ import annotations

from collections import Counter

from gm.engine.game import alive_powers
from gm.engine.orders import Alliance
from gm.engine.phase import PhaseType
from gm.engine.state import GameState
from gm.engine.variant import OrderKind, Variant
from gm.variants.chaos2 import ALLIANCE_CENTRES
from gm.variants.designated import canonical_state


def strongest_alliance(variant: Variant, state: GameState) -> tuple[str, ...]:
    """The fewest strongest powers that may win together by rule 6 (see the module's
    docstring), strongest first; () if none may."""
    state = canonical_state(variant, state)
    alive = alive_powers(state)
    centres = variant.map_for(state).centres
    counts = Counter(p for c, p in state.owners.items() if c in centres and p in alive)
    ranked = sorted(counts, key=lambda p: (-counts[p], p))[: len(alive) // 3]
    total = 0
    for k, power in enumerate(ranked, 1):
        total += counts[power]
        if total >= ALLIANCE_CENTRES:
            return tuple(ranked[:k]) if k >= 2 else ()
    return ()


def alliance_orders(variant: Variant, state: GameState, power: str) -> list[Alliance]:
    """In a Winter of a variant with alliance declarations, `power`'s declaration of the
    strongest alliance when it is a member (naming the others), else none."""
    if OrderKind.ALLIANCE not in variant.order_kinds \
            or state.phase.type is not PhaseType.ADJUSTMENT:
        return []
    members = strongest_alliance(variant, state)
    if power not in members:
        return []
    return [Alliance(tuple(m for m in members if m != power))]
