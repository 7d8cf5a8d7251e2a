"""Which variant orders a game allows (Variant.order_kinds) and in which phase they are given.

The kinds are the contract's names: "af" (Embark, Disembark, FF), "transform", "keep fleet",
"exchange", "home", "alliance", "geo". A standard game allows none of them.
"""

from __future__ import annotations

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.phase import PhaseType

# kind -> (what the orders are called, the variants that have them)
KIND_NAMES: dict[str, tuple[str, tuple[str, ...]]] = {
    "af": ("Boarding, disembarking and fast ferry (FF) orders", ("Abstraction2", "Deluge II")),
    "transform": ("Transform orders", ("Deluge II",)),
    "keep fleet": ("Keep-fleet (no change) orders", ("Sahara",)),
    "exchange": ("Exchange orders", ("Abstraction2",)),
    "home": ("Home orders", ("Chaos II",)),
    "alliance": ("Alliance orders", ("Chaos II",)),
    "geo": ("Geophysical orders", ("Geophysical",)),
}

# Chaos II rules 4-6: homes and alliances are declared with the adjustments; every other
# variant order goes with the movement orders.
ADJUSTMENT_KINDS = frozenset({"home", "alliance"})
# Sahara rule 2: `no change` is part of the owner's orders "for that season": with the moves
# or with the retreats (a fleet retreating onto a sea that dries that season).
RETREAT_TOO_KINDS = frozenset({"keep fleet"})


def kind_error(kind: str, kinds: frozenset[str], text: str) -> OrderError | None:
    """ILLEGAL when the game's variant does not allow `kind`, else None."""
    if kind in kinds:
        return None
    what, variants = KIND_NAMES.get(kind, (f"{kind.capitalize()} orders", ()))
    where = " and ".join(variants) if variants else "other variants"
    return OrderError(
        ErrorKind.ILLEGAL,
        text,
        f'"{text.strip()}": {what} exist only in {where}, not in this game.',
    )


def kind_phase_error(kind: str, phase_type: PhaseType | None, text: str) -> OrderError | None:
    """ILLEGAL when an order of `kind` is given in the wrong phase type (None: any phase)."""
    if phase_type is None:
        return None
    wanted = PhaseType.ADJUSTMENT if kind in ADJUSTMENT_KINDS else PhaseType.MOVEMENT
    if phase_type is wanted:
        return None
    if phase_type is PhaseType.RETREAT and kind in RETREAT_TOO_KINDS:
        return None
    what = KIND_NAMES.get(kind, (f"{kind.capitalize()} orders", ()))[0]
    when = (
        "an adjustment phase (with the builds)"
        if wanted is PhaseType.ADJUSTMENT
        else "a movement phase"
    )
    return OrderError(
        ErrorKind.ILLEGAL,
        text,
        f'"{text.strip()}": {what} are given only in {when}, not in a '
        f"{phase_type.value.lower()} phase.",
    )
