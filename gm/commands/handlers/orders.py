"""Order lines and CLEAR: read each order for the current phase, keep the power's order set.

Each order line is read by the real order parser for the phase, checked against what the
power may order (its units; in an adjustment phase its build sites and units) and for legality
on the board (gm.engine.legality: an order that could never be carried out is refused).
Accepted orders wait in the sign-on until the message's orders end (`flush_orders`), then
replace the stored orders for the same units and are stored as the power's new complete set.

One line may give several orders (gm.notation.lines), and a variant's own orders are read when
its Variant.order_kinds allow them. A unit has one main order, plus a Disembark (its A/F army)
and a KeepFleet (Sahara rule 2) kept beside it; a power's own orders (gm.engine.orders
PowerOrder) add up, except that it has one geophysical event (an event, a support of one, or
a centre creation replace each other; Geophysical rules 2, 3, 7) while Stabilize orders add up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from gm.commands.handlers.common import (
    as_player,
    open_phase_of,
    orders_closed,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.context import Context, Signed
from gm.commands.values import Clear, OrderLine
from gm.engine.errors import OrderError
from gm.engine.game import Needed, build_sites, orders_needed, phase_results
from gm.engine.map import GameMap
from gm.engine.order_check import check_order
from gm.engine.orders import (
    Alliance,
    AnyOrder,
    Build,
    Convoy,
    CreateCentre,
    DesignateHome,
    Disband,
    Disembark,
    Embark,
    Exchange,
    GeoEvent,
    Hold,
    KeepFleet,
    Move,
    Order,
    Remove,
    SupportEvent,
    SupportHold,
    SupportMove,
    Transform,
    Waive,
)
from gm.engine.phase import PhaseType
from gm.engine.results import Outcome, Submitted
from gm.engine.units import UnitType
from gm.notation import parse_order, parse_orders
from gm.notation.lines import split_orders
from gm.notation.messages import placed
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.rows import OrderLine as StoredLine
from gm.store.statuses import GameStatus
from gm.variants import Variant
from gm.variants.geo_events import check_event

# `A disembarks Por` alone on a line: the A/F is named only on the line of its move.
_LONE_LANDING = re.compile(r"\s*a(?:rmy)?\s+disembarks?\b", re.IGNORECASE)

# Unit orders the variants judge when they resolve (their hooks), not gm.engine.legality.
# checked when adjudicated, against the phase's other orders (a landing after its A/F's move);
# an Embark is checked on receipt: its fleet must be in the adjacent sea now (Abstraction2 rule 3)
_VARIANT_UNIT_ORDERS = (Disembark, Transform, KeepFleet)


def _key(order: AnyOrder, index: int) -> str:
    """What an order is for: its unit's (or build's) province, with a unit's Disembark and
    KeepFleet beside its main order; each waiver stands alone; a power's own orders as the
    module docstring says."""
    if isinstance(order, Waive):
        return f"waive#{index}"
    if isinstance(order, Disembark):
        return f"disembark {order.unit.province}"
    if isinstance(order, KeepFleet):
        return f"keep fleet {order.unit.province}"
    if isinstance(order, Order):
        return order.unit.province
    if isinstance(order, GeoEvent | SupportEvent | CreateCentre):
        return "geophysical event"
    if isinstance(order, DesignateHome):
        return f"home {order.province}"
    if isinstance(order, Exchange):  # the last one with a partner counts (Abstraction2 rule 6)
        return f"exchange with {order.partner.lower()}"
    if isinstance(order, Alliance):
        return str(order)
    return f"{type(order).__name__}#{index}"


def _refusal(needed: Needed | None, order: AnyOrder, phase: PhaseRecord, power: str) -> str | None:
    """Why `power` may not give `order` now, or None."""
    if not isinstance(order, Order | Waive):
        # A power's own order (Exchange, Home, Alliance, geophysical): its variant judges it.
        return None
    if needed is None:
        return f"{power} has nothing to order this phase"
    if phase.phase.type is PhaseType.ADJUSTMENT:
        if isinstance(order, Build | Waive):
            if needed.builds <= 0:
                return f"{power} has no builds this phase"
            if isinstance(order, Build) and order.unit.province not in needed.build_sites:
                sites = ", ".join(needed.build_sites) or "none"
                return f"{power} cannot build in {order.unit.province} now " \
                       f"(its vacant build sites: {sites})"
            return None
        if isinstance(order, Remove | Disband):
            if needed.removals <= 0:
                return f"{power} has no units to remove this phase"
            owned = {u.location.province for u in phase.state.units_of(power)}
            if order.unit.province not in owned:
                return f"{power} has no unit in {order.unit.province}"
        return None
    if isinstance(order, Waive):
        return "a waiver is an adjustment order"
    if isinstance(order, Build | Remove):
        return None  # gm.engine.legality refuses it, naming the phase that takes it
    units = {u.location.province for u in needed.units}
    if order.unit.province not in units:
        there = phase.state.unit_in(order.unit.province)
        if there is not None and there.power != power:
            return f"{power} has no unit to order in {order.unit.province}: " \
                   f"{there} is {there.power}'s"
        return f"{power} has no unit to order in {order.unit.province}" + (
            " (only dislodged units retreat)" if phase.phase.type is PhaseType.RETREAT else "")
    return None


@dataclass(frozen=True)
class OrderView:
    """A game's open phase as a run of order lines sees it: the game, its phase (None when none
    is open), variant, map and what each power has to order. Loaded once per run of order
    lines (`Context.views`); `flush_orders`, which ends every run, drops it, so a command that
    changes the game is always followed by a fresh one."""

    game: GameRecord
    phase: PhaseRecord | None
    variant: Variant
    gmap: GameMap
    needed: Mapping[str, Needed]


def _view(ctx: Context, signed: Signed) -> OrderView:
    """The signed-on game's OrderView, loaded now unless this run of order lines has it."""
    view = ctx.views.get(signed.game.id)
    if view is None:
        game = signed.game if signed.fresh else refresh(ctx, signed.game)
        variant = variant_of(game)
        phase = open_phase_of(ctx, game)
        if phase is None:
            view = OrderView(game, None, variant, variant.map, {})
        else:
            needed = orders_needed(variant, phase.state) \
                if game.status is GameStatus.ACTIVE else {}
            view = OrderView(game, phase, variant, variant.map_for(phase.state), needed)
        ctx.views[game.id] = view
    return view


def _current_phase(ctx: Context, signed: Signed, what: str) -> OrderView | None:
    view = _view(ctx, signed)
    game = view.game
    if game.status is not GameStatus.ACTIVE:
        ctx.results.add(f"{what}: refused, {game.name} is {game.status.value}, "
                        "not taking orders.")
        return None
    phase = view.phase
    if phase is None:
        ctx.results.add(f"{what}: refused, {game.name} has no phase open for orders.")
        return None
    if orders_closed(game, phase, ctx.now):
        if game.id in ctx.told_late:  # the deadline is said once a message, at its first refusal
            ctx.results.add(f"{what}: refused, too late.")
            return None
        ctx.told_late.add(game.id)
        grace = " and its grace period" if game.settings.grace else ""
        ctx.results.add(f"{what}: refused, the deadline ({shown_deadline(game, phase.deadline_at)})"
                        f"{grace} has passed.")
        ctx.results.add(_after_deadline(view))
        return None
    return view


# What the late-order policy does to missing orders, by phase (gm.service.tick, Rulebook).
_MISSING = {PhaseType.MOVEMENT: "units without orders hold",
            PhaseType.RETREAT: "dislodged units without orders disband",
            PhaseType.ADJUSTMENT: "missing builds are waived and missing removals are chosen "
                                  "by the rules"}


def _after_deadline(view: OrderView) -> str:
    """What happens now to a phase whose deadline has passed, for a late order's refusal."""
    assert view.phase is not None
    name = view.variant.format_phase(view.phase.phase)
    return (f"  {name} is processed shortly with the orders that were in by the deadline "
            f"({_MISSING[view.phase.phase.type]}); until then the GM can still let late "
            "orders in (SET GRACE).")


def order_line(ctx: Context, command: OrderLine) -> None:
    quoted = f'"{command.text}"'
    signed = as_player(ctx, quoted)
    if signed is None or signed.power is None:
        return
    at = f"line {command.line.number}: " if command.line.number else ""
    view = _current_phase(ctx, signed, f"  {at}{quoted}")
    if view is None or view.phase is None:
        return
    signed.ordered = True
    phase, variant, gmap = view.phase, view.variant, view.gmap
    written = command.text
    prefix, colon, rest = written.partition(":")
    named = variant.power(prefix) if colon and rest.strip() else None
    if named is not None:  # `TURKEY : Erode Mos`, as Geophysical rule 3 writes orders
        if named.name != signed.power:
            ctx.results.add(f"  {at}{quoted}: refused, you are signed on as {signed.power}.")
            return
        written = rest.strip()
    parsed = parse_orders(written, gmap, phase.phase.type, variant.order_kinds)
    if isinstance(parsed, OrderError):
        ctx.results.add(f"  {at}{_with_opening_hint(_unreadable(command, written, parsed))}")
        if _LONE_LANDING.match(command.text) and "af" in variant.order_kinds:
            ctx.results.add(f"  {at}{quoted}: say which A/F the army leaves, e.g. `A/F MAO "
                            "disembarks Por`, or give it on the line of the A/F's move: "
                            "`A/F(ENG)-MAO, A disembarks Por` (A/F rules).")
        return
    needed = view.needed.get(signed.power)
    sites = {signed.power: build_sites(variant, phase.state, signed.power)} \
        if phase.phase.type is PhaseType.ADJUSTMENT else None
    several = len(parsed) > 1
    head: AnyOrder | None = None  # a line's first order, when it was refused
    for n, order in enumerate(parsed):
        text = str(order) if several else command.text
        # on a line of several orders, the line as sent, then which of its orders is refused
        shown = f'"{command.sent or command.text}": {text}' if several else f'"{text}"'
        if head is not None and _chained(head, order):
            ctx.results.add(f"  {at}{shown}: refused with the first order of its line "
                            f"({head}), which it follows on from.")
            continue
        given = order  # as written: the note below says when it named the other kind of unit
        why = _refusal(needed, order, phase, signed.power)
        if why is None and isinstance(order, GeoEvent):
            why = check_event(gmap, order)  # Geophysical rule 2: judged on the map as it is
        if why is None and isinstance(order, Order | Waive) \
                and not isinstance(order, _VARIANT_UNIT_ORDERS):
            # Abstraction2 rule 3 / Deluge II rule 8: the A/F rules' checks where they apply.
            checked = check_order(gmap, phase.state, signed.power, order, sites,
                                  army_fleet="af" in variant.order_kinds)
            if isinstance(checked, OrderError):
                why = _with_phase_hint(checked.message, order, phase, variant).rstrip(".")
            else:
                order = checked
        if why is None and _judged_by_variant(order):
            why = _verdict(ctx, signed, view, order)
        if why is not None:
            ctx.results.add(f"  {at}{shown}: refused, {why}.")
            if n == 0:
                head = order
            continue
        signed.pending.append((text, order))
        ctx.results.add(f"  {text}  ->  {_shown_order(variant, gmap, order)}"
                        + _type_note(given, order))


_TYPE_WORDS = {UnitType.ARMY: "an army", UnitType.FLEET: "a fleet",
               UnitType.ARMY_FLEET: "an A/F"}


def _type_note(given: AnyOrder, taken: AnyOrder) -> str:
    """`  (the unit in Mar is an army)` when the order named the other kind of unit: it is read
    for the unit that is there (as most judges do), and the player is told."""
    if not isinstance(given, Order) or not isinstance(taken, Order):
        return ""
    if isinstance(taken, Build) or given.unit.type is None \
            or given.unit.type is taken.unit.type:
        return ""
    word = None if taken.unit.type is None else _TYPE_WORDS.get(taken.unit.type)
    return "" if word is None else f"  (the unit in {taken.unit.province} is {word})"


def _chained(head: AnyOrder, order: AnyOrder) -> bool:
    """Does `order`, later on the line of `head`, follow on from it: an order of the unit
    `head` orders or makes (the A/F a boarding forms), or the landing of a boarding's army?
    A chain whose first order is refused is refused whole (Abstraction2 rule 3's
    `A(Par) boards F(Bre), A/F(Bre)-MAO, A disembarks Por`)."""
    if not isinstance(head, Order) or not isinstance(order, Order):
        return False
    places = {head.unit.province}
    if isinstance(head, Embark):
        if isinstance(order, Disembark):
            return True
        places.add(head.fleet.province)
    return order.unit.province in places


def _judged_by_variant(order: AnyOrder) -> bool:
    """An order whose legality the variant's adjudication judges (its hooks), not
    gm.engine.legality: a variant's unit orders and a power's own orders."""
    return isinstance(order, _VARIANT_UNIT_ORDERS) or not isinstance(order, Order | Waive)


def _verdict(ctx: Context, signed: Signed, view: OrderView, order: AnyOrder) -> str | None:
    """Why adjudication would find `order` illegal, with the position as it stands and the
    power's other orders (stored, and accepted so far in this message), or None: the phase is
    adjudicated with them, every other unit holding, and the order's result read."""
    assert view.phase is not None and signed.power is not None
    if isinstance(order, Exchange):  # judged after the moves: all but that is known now
        from gm.variants.abstraction2 import exchange_problem_now

        return exchange_problem_now(view.variant, view.phase.state, signed.power, order)
    merged = _stored_orders(ctx, view, signed.power)
    for _, earlier in signed.pending:
        merged[_key(earlier, len(merged))] = ("", earlier)
    merged.pop(_key(order, len(merged)), None)
    mine = "#this order"
    submitted = [Submitted(signed.power, f"#{n}", other)
                 for n, (_, other) in enumerate(merged.values())]
    submitted.append(Submitted(signed.power, mine, order))
    for result in phase_results(view.variant, view.phase.state, submitted):
        if result.text == mine and result.outcome is Outcome.ILLEGAL:
            return result.reason.removeprefix("void: ")
    return None


def _stored_orders(ctx: Context, view: OrderView, power: str) -> dict[str, tuple[str, AnyOrder]]:
    """The power's stored orders for the open phase, by what each is for (`_key`)."""
    assert view.phase is not None
    phase, variant, gmap = view.phase, view.variant, view.gmap
    merged: dict[str, tuple[str, AnyOrder]] = {}
    stored = orders_repo.latest_valid_orders_of(ctx.session, phase.id, power)
    for line in () if stored is None else stored.lines:
        if line.canonical is None:
            continue
        order = parse_order(line.canonical, gmap, phase.phase.type, variant.order_kinds)
        if not isinstance(order, OrderError):
            merged[_key(order, len(merged))] = (line.text, order)
    return merged


# What each phase takes, for an order of another phase (Rulebook: orders by phase).
# (The retreat phase's refusal says it itself: "a dislodged unit retreats or disbands".)
_PHASE_TAKES: dict[PhaseType, tuple[tuple[type, ...], str]] = {
    PhaseType.MOVEMENT: ((Hold, Move, SupportHold, SupportMove, Convoy, Embark),
                         "moves (A Par - Bur), holds (H), supports (S) and convoys (C)"),
    PhaseType.RETREAT: ((Order,), ""),
    PhaseType.ADJUSTMENT: ((Build, Remove, Disband, Waive),
                           "builds (Build A Par), removals (Remove A Par) and Waive"),
}


# gm.engine.legality names an order of another phase by its class ("a supportmove order"); a
# player reads the order's own word.
_ORDER_WORDS = {"supportmove": "support", "supporthold": "support", "keepfleet": "keep fleet",
                "supportevent": "support of an event", "geoevent": "geophysical event",
                "createcentre": "centre creation", "designatehome": "home",
                "remove": "removal"}
_CLASS_WORD = re.compile(r"\ba (\w+) order is not possible")


def _with_phase_hint(message: str, order: AnyOrder, phase: PhaseRecord,
                     variant: Variant | None = None) -> str:
    """A refusal as a sentence; for an order of another phase, what this phase takes (for an
    adjustment order, when the next adjustment phase is)."""
    message = _CLASS_WORD.sub(
        lambda m: f"a {_ORDER_WORDS.get(m.group(1), m.group(1))} order is not possible",
        message.rstrip("."))
    kinds, words = _PHASE_TAKES[phase.phase.type]
    if not isinstance(order, kinds):
        message += f"; this phase takes {words}"
        if variant is not None and isinstance(order, Build | Remove | Waive):
            message += f". {_next_adjustment(variant, phase)}"
    return message + "."


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
_NOT_AN_ORDER = re.compile(r'Not an order: "(\S+)')


def _with_opening_hint(message: str) -> str:
    """`Not an order: "Bulid A Lon". ...`, with `(did you mean 'Build'?)` after the quote."""
    found = _NOT_AN_ORDER.match(message)
    if found is None:
        return message
    import difflib  # only for a line that is not an order

    close = difflib.get_close_matches(found.group(1).casefold(), _OPENING_WORDS, n=1,
                                      cutoff=0.75)
    if not close:
        return message
    end = message.index('". ') + 1
    return f"{message[:end]} (did you mean '{close[0].capitalize()}'?){message[end:]}"


def _unreadable(command: OrderLine, written: str, error: OrderError) -> str:
    """The parser's message for an order of the line, quoting the line as the player sent it
    and the column there (the parser counts within the one order it read)."""
    sent = command.sent or command.text
    offset = len(command.text) - len(written) + max(written.find(error.text), 0)

    def column(pos: int) -> int:  # `pos` in the line as read (white space collapsed)
        read = 0
        for index, char in enumerate(sent):
            if char.isspace() and index and sent[index - 1].isspace():
                continue
            if read == pos:
                return index + 1
            read += 1
        return len(sent) + 1

    message = placed(error, offset, sent, column)
    if message == error.message and len(split_orders(written)) > 1:
        # an order of a line of several (`Unknown province "Xyz" in "A Mar-Xyz"`): the whole
        # line as sent, none of whose orders is taken
        return f'"{sent}": {message} (nothing on this line was taken)'
    return message


def clear(ctx: Context, command: Clear) -> None:
    signed = as_player(ctx, "CLEAR")
    if signed is None or signed.power is None:
        return
    view = _current_phase(ctx, signed, "CLEAR")
    if view is None or view.phase is None:
        return
    signed.pending.clear()
    orders_repo.submit_orders(ctx.session, view.phase.id, signed.power, [], now=ctx.now,
                              inbound_id=ctx.inbound_id, game_id=view.game.id)
    ctx.results.add("Your orders for this phase are cleared.")
    _summary(ctx, signed, view, [])


def flush_orders(ctx: Context) -> None:
    """Store the sign-on's accepted orders over its earlier ones, and show the whole set. It
    ends every run of order lines: the run's OrderViews are dropped."""
    try:
        _flush(ctx)
    finally:
        ctx.views.clear()
        if ctx.signed is not None:
            ctx.signed.fresh = False  # the next command may change the game


def _flush(ctx: Context) -> None:
    signed = ctx.signed
    if signed is None or signed.power is None:
        return
    ordered, signed.ordered = signed.ordered, False
    if not signed.pending:
        if ordered:  # every line refused: the orders that stand, as after any orders
            view = _view(ctx, signed)
            if view.phase is not None:
                _summary(ctx, signed, view, [o for _, o in
                                             _stored_orders(ctx, view, signed.power).values()])
        return
    pending, signed.pending = signed.pending, []
    view = _view(ctx, signed)
    phase = view.phase
    if phase is None:
        return
    variant, gmap = view.variant, view.gmap
    merged = _stored_orders(ctx, view, signed.power)
    sent: dict[str, AnyOrder] = {}  # this message's orders by what they are for
    for text, order in pending:
        key = _key(order, len(merged))
        earlier = sent.get(key)
        if earlier is not None and earlier != order:
            ctx.results.add(_twice(variant, gmap, earlier, order))
        sent[key] = order
        merged[key] = (text, order)
    if phase.phase.type is PhaseType.ADJUSTMENT:
        _keep_within_counts(ctx, merged, view.needed.get(signed.power))
    lines = [StoredLine(text=text, canonical=str(order)) for text, order in merged.values()]
    orders_repo.submit_orders(ctx.session, phase.id, signed.power, lines, now=ctx.now,
                              inbound_id=ctx.inbound_id, game_id=view.game.id)
    _summary(ctx, signed, view, [order for _, order in merged.values()])


def _twice(variant: Variant, gmap: GameMap, earlier: AnyOrder, later: AnyOrder) -> str:
    """The note on two orders of one message for the same unit (or build, or event): the
    later one counts, as a later message's would."""
    what = str(later.unit) if isinstance(later, Order) else "the same thing"
    return (f"Two orders for {what} in this message: kept the later, "
            f"{_shown_order(variant, gmap, later)} (not {_shown_order(variant, gmap, earlier)}).")


def _keep_within_counts(ctx: Context, merged: dict[str, tuple[str, AnyOrder]],
                        needed: Needed | None) -> None:
    """A power builds (or removes) no more than its count: the latest orders are kept."""
    if needed is None:
        return
    for kinds, allowed, word in (((Build, Waive), needed.builds, "build"),
                                 ((Remove, Disband), needed.removals, "removal")):
        keys = [k for k, (_, order) in merged.items() if isinstance(order, kinds)]
        excess = len(keys) - allowed
        if excess > 0:
            dropped = [str(merged.pop(k)[1]) for k in keys[:excess]]
            ctx.results.add(f"Only {allowed} {word}{'s' if allowed != 1 else ''} allowed: "
                            f"dropped the earlier {', '.join(dropped)}.")


def _summary(ctx: Context, signed: Signed, view: OrderView, orders: list[AnyOrder]) -> None:
    assert signed.power is not None and view.phase is not None
    phase, variant, gmap = view.phase, view.variant, view.gmap
    ctx.results.blank()
    ctx.results.add(f"Orders of {signed.power} for {variant.format_phase(phase.phase)}:")
    ctx.results.add(*(f"  {_shown_order(variant, gmap, order)}" for order in orders)
                    if orders else ["  (none)"])
    needed = view.needed.get(signed.power)
    if needed is None:
        return
    if phase.phase.type is PhaseType.ADJUSTMENT:
        if needed.builds:
            given = sum(isinstance(o, Build | Waive) for o in orders)
            ctx.results.add(f"Builds ordered: {given} of {needed.builds}.")
        if needed.removals:
            given = sum(_removal_weight(phase, o) for o in orders)
            ctx.results.add(f"Removals ordered: {min(given, needed.removals)} of "
                            f"{needed.removals}.")
        return
    ordered = {o.unit.province for o in orders if isinstance(o, Order)}
    without = [str(u) for u in needed.units if u.location.province not in ordered]
    ctx.results.add("Units without orders: " + (", ".join(without) if without else "none") + ".")


def _shown_order(variant: Variant, gmap: GameMap, order: AnyOrder) -> str:
    """The order as the variant writes it (Geophysical rule 9: seas in capitals, `GAS`)."""
    names = variant.hooks.display_names
    return str(order) if names is None else names(gmap, str(order))


def _removal_weight(phase: PhaseRecord, order: AnyOrder) -> int:
    """How many units a removal order takes: an A/F is two (its army and its fleet; the A/F
    rules, gm.engine.army_fleet), unless only its army is named (`Remove A ENG`)."""
    if not isinstance(order, Remove | Disband):
        return 0
    unit = phase.state.unit_in(order.unit.province)
    whole = order.unit.type is not UnitType.ARMY
    return 2 if unit is not None and unit.type is UnitType.ARMY_FLEET and whole else 1
