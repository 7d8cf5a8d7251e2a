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

# kind -> examples of every form the order reader takes (grammars/orders.lark), as the variant
# rule texts phrase them: a refused special order lists them.
KIND_FORMS: dict[str, tuple[str, ...]] = {
    "af": ("A Lon boards F ENG", "A Lon embarks on to F ENG", "A/F ENG - MAO",
           "A/F ENG disembarks Bre", "A/F ENG disembarks A(ENG)-Bre S by F(ENG)",
           "F ENG FF A Lon - Bre"),
    "transform": ("A Bre transforms", "A Bre turns into a fleet", "A Bre transforms into a fleet",
                  "A Spa T F Spa/sc"),
    "keep fleet": ("F EMS no change", "F EMS will not change into an army", "F EMS won't change",
                   "F EMS remains a fleet"),
    "exchange": ("Exchange Bel Den for Hol Kie with Germany",
                 "Exchange ownership of Bel for Hol with Germany"),
    "home": ("Home Bel", "Designate Bel as home centre", "Erect Bel into a home supply centre"),
    "alliance": ("Alliance Paris Berlin", "Declaration of alliance Paris, Berlin"),
    "geo": ("Uplift NTH", "Erode Mos", "Orogenesis Bur", "Earthquake along Mun-Ber",
            "Ice advance NWG", "Ice retreat NWG", "Support Turkish Erode Mos",
            "Supports Turkey's Erode Mos", "Create new s.c. in Bur", "Stabilize Mos",
            "2 Stabilize Mos", "Stabilize Mos twice", "Stabilize Mun-Ber"),
}
# kind -> the word starts that mark a text as meant for an order of that kind.
_KIND_WORDS: dict[str, tuple[str, ...]] = {
    "af": ("board", "embark", "disembark", "ff", "ferr", "a/f"),
    "transform": ("transform", "turn", "become"),
    "keep fleet": ("change", "remain", "stay", "won't"),
    "exchange": ("exchang",),
    "home": ("home", "designat", "erect"),
    "alliance": ("allian", "ally", "declar"),
    "geo": ("uplift", "erod", "erosion", "orogen", "earthquake", "stabil", "create"),
}


def with_forms(error: OrderError, kinds: frozenset[str]) -> OrderError:
    """`error` for a text that uses a word of a special order the game allows (`kinds`) and
    cannot be read, with the forms that order is accepted in; any other error (an unknown
    province among them) unchanged."""
    words = [w.strip(".,;:!()") for w in error.text.casefold().split()]
    meant = [k for k in KIND_FORMS if k in kinds
             and any(w.startswith(_KIND_WORDS[k]) for w in words)]
    if not meant or error.kind is ErrorKind.UNKNOWN_PROVINCE or error.field("forms"):
        return error
    return error.with_fields(forms="; ".join(f for k in meant for f in KIND_FORMS[k]))


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
        f'"{text.strip()}": {what} are given only in {when}, not in '
        f"{_a(phase_type.value.lower())} phase.",
    )


def _a(word: str) -> str:
    """`word` with its indefinite article ("an adjustment", "a retreat")."""
    return f"an {word}" if word[:1] in "aeiou" else f"a {word}"
