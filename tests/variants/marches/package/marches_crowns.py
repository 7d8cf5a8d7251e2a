"""The Crowns of the Marches: a special rule that no option of a variant file expresses, in a
package of its own that declares it as the hook set `crowns` (entry point group
`gm.hook_sets`). A power that owns the Isthmus, Holm and Fellhaven after an ownership update
wins alone, whatever its centre count; otherwise the centre count decides as usual."""

from __future__ import annotations

from gm.engine.phase import Phase
from gm.engine.state import GameState
from gm.engine.variant import Hooks, Variant, Verdict
from gm.engine.victory import centre_victory
from gm.variants.hook_sets import HookSet

CROWNS = ("Fel", "Hol", "Ist")


def crowns_victory(variant: Variant, state: GameState, phase: Phase,
                   ownership_updated: bool) -> Verdict | None:
    """The power owning all three crowns wins; else the standard centre count."""
    winner = state.owners.get(CROWNS[0])
    if ownership_updated and winner is not None and all(
            state.owners.get(c) == winner for c in CROWNS):
        return Verdict((winner,))
    return centre_victory(variant, state, phase, ownership_updated)


def rules() -> HookSet:
    """The hook set the entry point names."""
    return HookSet(Hooks(victory=crowns_victory),
                   help="The Crowns: a power owning the Isthmus, Holm and Fellhaven wins.")
