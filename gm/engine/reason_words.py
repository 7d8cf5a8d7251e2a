"""The words of the reasons why orders are void (gm.engine.reasons): the one place they are
written, for the reports (`words`) and for the reply that refuses an order on arrival
(`refusal`). The wording is the rules' own (DATC, the variants' rule texts, as cited)."""

from __future__ import annotations

from gm.engine.reasons import Reason, Void

# what each kind says, its fields filled in (str.format: {power} {unit} {province} {other}
# {count} {names})
_SAYS: dict[Void, str] = {
    Void.REPLACED: "replaced by a later order",
    Void.ALREADY_REMOVED: "{unit} is already removed",
    Void.REMOVE_ONLY: "{power} needs to remove only {count}",
    Void.BUILD_ONLY: "{power} may build only {count}",
    Void.ALREADY_BUILT: "a unit is already built in {province}",
    Void.SUPPORT_DID_NOT_HOLD: "{unit} did not hold (it moved to {province})",
    Void.SUPPORT_MOVED_ELSEWHERE: "{unit} moved to {province}, not to {other}",
    Void.SUPPORT_DID_NOT_MOVE: "{unit} did not move to {province}",
    Void.CONVOY_MOVED_ELSEWHERE: "{unit} moved to {province}, not {other}",
    Void.CONVOY_DID_NOT_MOVE: "{unit} did not move to {province}",
    Void.EVENT_REPLACED: "replaced by a later event order (one event per movement phase, "
                         "rule 1a)",
    Void.DECLARATION_REPLACED: "replaced by a later declaration",
    Void.ALLIANCE_NOT_IN_WINTER: "alliance declarations are made in a Winter (Chaos II rule 6)",
    Void.NO_SUCH_POWER: "no power called {names}",
    Void.HOME_NOT_IN_WINTER: "home designations are made in a Winter (Chaos II rule 4)",
    Void.NOT_A_CENTRE: "{province} is not a supply centre",
    Void.ALREADY_HOME: "{province} is already a home centre of {power}",
    Void.NOT_OWNED: "{power} does not own {province}",
    Void.NOT_OWNED_LAST_WINTER: "{power} did not own {province} at the end of the previous "
                                "Winter (Chaos II rule 4: two consecutive Winters)",
    Void.HOME_STATUS_LOST: "{province} lost its home status since the last Winter; it must be "
                           "owned during two new Winters (Chaos II rule 5)",
    Void.HOMES_USED: "{power} has used both of its home designations (Chaos II rules 4 and 5: a "
                     "lost one is not refunded)",
}

_SUPPORTS = frozenset({Void.SUPPORT_DID_NOT_HOLD, Void.SUPPORT_MOVED_ELSEWHERE,
                       Void.SUPPORT_DID_NOT_MOVE})
_CONVOYS = frozenset({Void.CONVOY_MOVED_ELSEWHERE, Void.CONVOY_DID_NOT_MOVE})


def head(reason: Reason) -> str:
    """What is void: "support void", "convoy void" (the order stands, its help does not), or
    "void" (the order is not carried out)."""
    if reason.kind in _SUPPORTS:
        return "support void"
    if reason.kind in _CONVOYS:
        return "convoy void"
    return "void"


def refusal(reason: Reason) -> str:
    """Why, without its head: how a reply refusing the order says it ("replaced by a later
    order")."""
    return _SAYS[reason.kind].format(
        power=reason.power, unit=reason.unit, province=reason.province, other=reason.other,
        count=reason.count, names=", ".join(reason.names))


def words(reason: Reason) -> str:
    """The reason as the reports give it: "void: replaced by a later order"."""
    return f"{head(reason)}: {refusal(reason)}"
