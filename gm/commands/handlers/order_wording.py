"""How the reply to order lines words an order refused: from the error's code and fields
(gm.engine.errors), with what a player needs besides (the order's own word, what the phase
takes, the column in the line as sent, the word meant), and the notes on orders taken.
"""

from __future__ import annotations

import difflib  # only for a line that is not an order

from gm.commands.values import OrderLine
from gm.engine.errors import ErrorCode, OrderError
from gm.engine.map import GameMap
from gm.engine.orders import (
    PHASE_ORDERS,
    AnyOrder,
    Build,
    Order,
    Remove,
    Waive,
    order_word,
)
from gm.engine.phase import PhaseType
from gm.engine.reason_words import unheaded
from gm.engine.units import UnitType
from gm.notation.lines import split_orders
from gm.play.order_runs import (
    FollowsOn,
    LineRefusal,
    NotTaken,
    SiteRefusal,
    Unreadable,
    Why,
    WrongPower,
)
from gm.play.order_taking import OrderView, Refusal, Refused
from gm.store.rows import PhaseRecord
from gm.variants import Variant

# What each phase takes, in words, for an order of another phase (the orders themselves:
# gm.engine.orders.PHASE_ORDERS). The retreat phase's refusal says it itself: "a dislodged
# unit retreats or disbands".
_PHASE_TAKES = {
    PhaseType.MOVEMENT: "moves (A Par - Bur), holds (H), supports (S) and convoys (C)",
    PhaseType.ADJUSTMENT: "builds (Build A Par), removals (Remove A Par) and Waive",
}


def illegal(error: OrderError, order: AnyOrder, phase: PhaseRecord, variant: Variant) -> str:
    """Why gm.engine.legality refuses `order`, as a reply says it (no full stop): an order of
    another phase named by its word, with what this phase takes (for an adjustment order,
    when the next adjustment phase is)."""
    if error.code is ErrorCode.NOT_IN_PHASE:
        # gm.engine.legality names an order of another phase by its class ("supportmove"); a
        # player reads the order kind's own word (gm.engine.orders.order_word: "support")
        word = error.field("order")
        message = error.worded(
            order=order_word(order) if word == type(order).__name__.lower() else word)
    else:
        message = error.message
    message = message.rstrip(".")
    words = _PHASE_TAKES.get(phase.phase.type)
    if words is not None and not isinstance(order, PHASE_ORDERS[phase.phase.type]):
        message += f"; this phase takes {words}"
        if isinstance(order, Build | Remove | Waive):
            message += f". {_next_adjustment(variant, phase)}"
    return message


def _next_adjustment(variant: Variant, phase: PhaseRecord) -> str:
    """`Builds and removals are ordered in the adjustment phase (next: Winter 1901)`."""
    upcoming = phase.phase
    for _ in range(24):
        upcoming = variant.calendar.next(upcoming)
        if upcoming.type is PhaseType.ADJUSTMENT:
            return ("Builds and removals are ordered in the adjustment phase (next: "
                    f"{variant.format_phase(upcoming).split(',')[0]})")
    return "Builds and removals are ordered in the adjustment phase"


# The words an order opens with (Rulebook: builds, removals, waivers); a line opening with a
# misspelling of one is "not an order", and the reply names the word meant.
_OPENING_WORDS = ("build", "remove", "disband", "waive")


def unreadable(command: OrderLine, written: str, error: OrderError) -> str:
    """The parser's error for an order of the line, quoting the line as the player sent it and
    the column there (the parser counts within the one order it read); a line that is no order
    with the opening word it may have meant."""
    sent = command.sent or command.text
    if error.code is ErrorCode.CANNOT_READ_AT and error.field("line") == "1":
        offset = len(command.text) - len(written) + max(written.find(error.text), 0)
        pos = offset + int(error.field("column")) - 1
        return error.worded(quoted=sent, line="", column=str(_column(sent, pos)))
    if len(split_orders(written)) > 1:
        # an order of a line of several (`Unknown province "Xyz" in "A Mar-Xyz"`): the whole
        # line as sent, none of whose orders is taken
        return f'"{sent}": {error.message} (nothing on this line was taken)'
    if error.code is ErrorCode.NOT_AN_ORDER:
        return error.worded(hint=_meant(error.field("written")))
    return error.message


def _column(sent: str, pos: int) -> int:
    """The column (from 1) in the line `sent` of place `pos` in it as read (white space
    collapsed)."""
    read = 0
    for index, char in enumerate(sent):
        if char.isspace() and index and sent[index - 1].isspace():
            continue
        if read == pos:
            return index + 1
        read += 1
    return len(sent) + 1


def _meant(written: str) -> str:
    """` (did you mean 'Build'?)` for a line opening with a misspelt opening word, or "". The
    word is taken as the reply quotes it: a line of one word with its closing quote and stop."""
    first = f'{written}".'.split()[0]
    close = difflib.get_close_matches(first.casefold(), _OPENING_WORDS, n=1, cutoff=0.75)
    return f" (did you mean '{close[0].capitalize()}'?)" if close else ""


# What the late-order policy does to missing orders, by phase (gm.service.tick, Rulebook).
_MISSING = {PhaseType.MOVEMENT: "units without orders hold",
            PhaseType.RETREAT: "dislodged units without orders disband",
            PhaseType.ADJUSTMENT: "missing builds are waived and missing removals are chosen "
                                  "by the rules"}


def after_deadline(variant: Variant, phase: PhaseRecord) -> str:
    """What happens now to a phase whose deadline has passed, for a late order's refusal."""
    name = variant.format_phase(phase.phase)
    return (f"  {name} is processed shortly with the orders that were in by the deadline "
            f"({_MISSING[phase.phase.type]}); until then the GM can still let late "
            "orders in (SET GRACE).")


def shown_order(variant: Variant, gmap: GameMap, order: AnyOrder) -> str:
    """The order as the variant writes it (Geophysical rule 9: seas in capitals, `GAS`)."""
    names = variant.hooks.display_names
    return str(order) if names is None else names(gmap, str(order))


_TYPE_WORDS = {UnitType.ARMY: "an army", UnitType.FLEET: "a fleet",
               UnitType.ARMY_FLEET: "an A/F"}


def type_note(given: AnyOrder, taken: AnyOrder) -> str:
    """`  (the unit in Mar is an army)` when the order named the other kind of unit: it is read
    for the unit that is there (as most judges do), and the player is told."""
    if not isinstance(given, Order) or not isinstance(taken, Order):
        return ""
    if isinstance(taken, Build) or given.unit.type is None \
            or given.unit.type is taken.unit.type:
        return ""
    word = None if taken.unit.type is None else _TYPE_WORDS.get(taken.unit.type)
    return "" if word is None else f"  (the unit in {taken.unit.province} is {word})"


def twice(variant: Variant, gmap: GameMap, earlier: AnyOrder, later: AnyOrder) -> str:
    """The note on two orders of one message for the same unit (or build, or event): the
    later one counts, as a later message's would."""
    what = str(later.unit) if isinstance(later, Order) else "the same thing"
    return (f"Two orders for {what} in this message: kept the later, "
            f"{shown_order(variant, gmap, later)} (not {shown_order(variant, gmap, earlier)}).")


def refusal_words(refused: Refused) -> str:
    """Why the power may not give the order now (gm.play.order_taking.refusal), as the reply
    says it (no full stop)."""
    power, province = refused.power, refused.province
    match refused.why:
        case Refusal.NOTHING_TO_ORDER:
            return f"{power} has nothing to order this phase"
        case Refusal.NO_BUILDS:
            return f"{power} has no builds this phase"
        case Refusal.NOT_A_BUILD_SITE:
            sites = ", ".join(refused.sites) or "none"
            return f"{power} cannot build in {province} now (its vacant build sites: {sites})"
        case Refusal.NO_REMOVALS:
            return f"{power} has no units to remove this phase"
        case Refusal.NO_UNIT_TO_REMOVE:
            return f"{power} has no unit in {province}"
        case Refusal.WAIVER_NOT_NOW:
            return "a waiver is an adjustment order"
        case Refusal.OTHERS_UNIT:
            return (f"{power} has no unit to order in {province}: {refused.unit} is "
                    f"{refused.owner}'s")
        case Refusal.NO_UNIT_TO_ORDER:
            return f"{power} has no unit to order in {province}" + (
                " (only dislodged units retreat)" if refused.retreat else "")


def not_taken(why: Why, order: AnyOrder, phase: PhaseRecord, variant: Variant) -> str:
    """Why an order read is refused (gm.play.order_runs.NotTaken), as the reply says it (no
    full stop)."""
    match why:
        case Refused():
            return refusal_words(why)
        case OrderError():
            return illegal(why, order, phase, variant)
        case SiteRefusal(words=words):
            return words
        case _:
            return unheaded(why)


def stored_reason(refused: LineRefusal, view: OrderView) -> str:
    """A refused order line's reason as kept with the line (gm.play.order_runs
    .OrderRun.keep_refusals), for `view`'s phase."""
    match refused:
        case NotTaken(order=order, why=why):
            assert view.phase is not None
            return not_taken(why, order, view.phase, view.variant)
        case FollowsOn(head=head):
            return f"follows on from {head}"
        case Unreadable(error=error):
            return str(error)
        case WrongPower(power=power):
            return f"signed on as {power}"
