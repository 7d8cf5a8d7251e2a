"""Order taking: a message's order lines and CLEARs, read for the current phase, and the
power's order set kept (`OrderTaking`).

Each order line is read by the real order parser for the phase, checked against what the
power may order (its units; in an adjustment phase its build sites and units) and for legality
on the board (gm.engine.legality: an order that could never be carried out is refused).
Accepted orders wait until the run of order lines ends (another command starts, or the message
ends), then replace the stored orders for the same units and are stored as the power's new
complete set. How refusals and notes read is gm.commands.handlers.order_wording.

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
from gm.commands.handlers.order_arrival import arrived_too_early, kept_late, was_open
from gm.commands.handlers.order_wording import (
    after_deadline,
    illegal,
    shown_order,
    twice,
    type_note,
    unreadable,
)
from gm.commands.handlers.standing_in import standing_in
from gm.commands.values import Clear, Command, CommandError, ListOrders, OrderLine
from gm.engine.errors import OrderError
from gm.engine.game import Needed, build_sites, orders_needed, phase_results
from gm.engine.map import GameMap
from gm.engine.order_check import check_order
from gm.engine.orders import (
    Alliance,
    AnyOrder,
    Build,
    CreateCentre,
    DesignateHome,
    Disband,
    Disembark,
    Embark,
    Exchange,
    GeoEvent,
    KeepFleet,
    Order,
    Remove,
    SupportEvent,
    Transform,
    Waive,
)
from gm.engine.phase import PhaseType
from gm.engine.reason_words import unheaded
from gm.engine.results import Outcome, Submitted
from gm.engine.units import Unit, UnitType
from gm.notation import parse_orders, stored_order
from gm.play.deadlines import grace_end
from gm.play.order_pictures import power_orders_picture, reply_picture
from gm.play.picture_choice import mode_for
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.errors import PhaseClosed
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.rows import OrderLine as StoredLine
from gm.store.statuses import GameStatus
from gm.variants import Variant

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


# A power's orders for a phase by what each is for (`_key`): the text as written, the order.
Taken = dict[str, tuple[str, AnyOrder]]


@dataclass(frozen=True)
class OrderView:
    """A game's open phase as a run of order lines sees it: the game, its phase (None when none
    is open), variant, map and what each power has to order. Loaded once per run of order
    lines and dropped at its end, so a command that changes the game is always followed by a
    fresh one."""

    game: GameRecord
    phase: PhaseRecord | None
    variant: Variant
    gmap: GameMap
    needed: Mapping[str, Needed]
    # the phase the message arrived in time for, adjudicated before the message could be read:
    # its orders are kept aside for it (the GM may REPROCESS it with them)
    late: bool = False


def order_line(ctx: Context, command: OrderLine) -> None:
    """An order line: read, checked and kept for the run's end (OrderTaking.order_line)."""
    OrderTaking.of(ctx).order_line(command)


def _in_run(command: Command) -> bool:
    """Does `command` go on a run of order lines: an order line, a CLEAR, or an error on a line
    among the orders (not a SIGNON)?"""
    if isinstance(command, OrderLine | Clear):
        return True
    return isinstance(command, CommandError) and getattr(command, "keyword", "") != "SIGNON"


class OrderTaking:
    """The orders of one message, taken for the signed-on power: kept by the message's Context
    (gm.commands.handlers.context.Ongoing), begun by its first order line or CLEAR.

    A run of order lines ends where another command starts and where the message ends: the
    orders accepted in it are then stored over the power's earlier ones, and the reply shows
    the whole set (`_end_run`). What a run reads (the game's open phase, the power's stored
    orders, each read once) is dropped at its end: the next command may change the game.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        # games whose passed deadline this reply has told of (said once a message)
        self.told_late: set[int] = set()
        self._views: dict[int, OrderView] = {}  # by game: the open phase as the run sees it
        self._stored: dict[tuple[int, str], Taken] = {}  # by phase and power: stored orders
        self._pending: list[tuple[str, AnyOrder]] = []  # accepted in the run, not yet stored
        # order lines were read for the open phase in the run: the reply shows the power's
        # orders at its end, even when every line was refused
        self._ordered = False
        # orders read in the run but refused: drawn void on the acknowledgement's picture
        self._refused: list[AnyOrder] = []
        # the message's refused order lines, by the game, phase and power they were for:
        # kept at the message's end as a submission that is not valid, so that the power is
        # not ready until a clean message (`_keep_refusals`)
        self._flawed: dict[tuple[int, int, str], list[StoredLine]] = {}

    @staticmethod
    def of(ctx: Context) -> OrderTaking:
        """The message's order taking, begun now if this is its first order."""
        return ctx.keep(OrderTaking, OrderTaking)

    def command_starts(self, command: Command) -> None:
        if not _in_run(command):
            self._end_run()

    def message_ends(self) -> None:
        self._end_run()
        self._keep_refusals()

    # -- the commands ---------------------------------------------------------------------------
    def order_line(self, command: OrderLine) -> None:
        ctx = self.ctx
        quoted = f'"{command.text}"'
        signed = as_player(ctx, quoted)
        if signed is None or signed.power is None:
            return
        at = f"line {command.line.number}: " if command.line.number else ""
        view = self._current_phase(signed, f"  {at}{quoted}")
        if view is None or view.phase is None:
            return
        self._ordered = True
        phase, variant, gmap = view.phase, view.variant, view.gmap
        written = command.text
        prefix, colon, rest = written.partition(":")
        named = variant.power(prefix) if colon and rest.strip() else None
        if named is not None:  # `TURKEY : Erode Mos`, as Geophysical rule 3 writes orders
            if named.name != signed.power:
                ctx.results.add(f"  {at}{quoted}: refused, you are signed on as {signed.power}.")
                self._flaw(signed, view, command.text, f"signed on as {signed.power}")
                return
            written = rest.strip()
        parsed = parse_orders(written, gmap, phase.phase.type, variant.order_kinds)
        if isinstance(parsed, OrderError):
            ctx.results.add(f"  {at}{unreadable(command, written, parsed)}")
            self._flaw(signed, view, command.text, str(parsed))
            if _LONE_LANDING.match(command.text) and variant.army_fleet:
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
                self._flaw(signed, view, text, f"follows on from {head}")
                continue
            given = order  # as written: the note below says when it named the other kind of unit
            why = _refusal(needed, order, phase, signed.power)
            if why is None and isinstance(order, Order | Waive) \
                    and not isinstance(order, _VARIANT_UNIT_ORDERS):
                # Abstraction2 rule 3 / Deluge II rule 8: the A/F rules' checks where they apply.
                checked = check_order(gmap, phase.state, signed.power, order, sites,
                                      army_fleet=variant.army_fleet)
                if isinstance(checked, OrderError):
                    why = illegal(checked, order, phase, variant)
                else:
                    order = checked
            if why is None:  # a site that builds only armies, or only fleets
                why = variant.build_refusal(order)
            if why is None and _judged_by_variant(order):
                why = self._verdict(signed, view, order)
            if why is not None:
                ctx.results.add(f"  {at}{shown}: refused, {why}.")
                self._flaw(signed, view, text, why)
                self._refused.append(order)
                if n == 0:
                    head = order
                continue
            self._pending.append((text, order))
            ctx.results.add(f"  {text}  ->  {shown_order(variant, gmap, order)}"
                            + type_note(given, order))

    def clear(self, command: Clear) -> None:
        ctx = self.ctx
        signed = as_player(ctx, "CLEAR")
        if signed is None or signed.power is None:
            return
        view = self._current_phase(signed, "CLEAR")
        if view is None or view.phase is None:
            return
        self._pending.clear()
        self._refused.clear()
        orders_repo.submit_orders(ctx.session, view.phase.id, signed.power, [], now=ctx.now,
                                  inbound_id=ctx.inbound_id, game_id=view.game.id,
                                  late=view.late)
        self._stored[view.phase.id, signed.power] = {}
        ctx.results.add("Your orders for this phase are cleared.")
        self._summary(signed, view, [])
        self._picture(signed, view, [])
        if signed.master:
            self._tell_player(signed, view, [])

    # -- refused lines: the power is not ready -------------------------------------------------
    def _flaw(self, signed: Signed, view: OrderView, text: str, why: str) -> None:
        """Note a refused order line of the message, for the power and phase it was for."""
        assert signed.power is not None and view.phase is not None
        self._flawed.setdefault((view.game.id, view.phase.id, signed.power), []).append(
            StoredLine(text=text, canonical=None, error=why))

    def _keep_refusals(self) -> None:
        """At the message's end: for each power a refused line was for, keep the refused
        lines as a submission that is not valid, after its orders. The orders it has stand
        (the latest valid ones), but it is not ready for early processing until a message
        whose order lines are all accepted (njudge `data/deadlines`: "An error free set of
        orders will be required to set the 'has submitted orders' status"); the reply says
        so."""
        ctx = self.ctx
        flawed, self._flawed = self._flawed, {}
        for (game_id, phase_id, power), lines in flawed.items():
            try:
                orders_repo.submit_orders(ctx.session, phase_id, power, lines, now=ctx.now,
                                          inbound_id=ctx.inbound_id, game_id=game_id)
            except PhaseClosed:  # pragma: no cover - the game lock is held; said already
                continue
            count = len(lines)
            ctx.results.blank()
            ctx.results.add(
                f"{power} is not counted as ready: {count} order line"
                f"{'s' if count != 1 else ''} of this message {'were' if count != 1 else 'was'}"
                " not accepted. The orders shown stand, but the phase is not processed early on"
                " them: send your orders again with every line accepted (or CLEAR) to be"
                " counted as ready.")

    # -- what the run reads -------------------------------------------------------------------
    def _view(self, signed: Signed) -> OrderView:
        """The signed-on game's OrderView, loaded now unless this run has it."""
        view = self._views.get(signed.game.id)
        if view is None:
            ctx = self.ctx
            game = signed.game if signed.fresh else refresh(ctx, signed.game)
            variant = variant_of(game)
            phase = open_phase_of(ctx, game)
            if phase is None:
                view = OrderView(game, None, variant, variant.map, {})
            else:
                needed = orders_needed(variant, phase.state) \
                    if game.status is GameStatus.ACTIVE else {}
                view = OrderView(game, phase, variant, variant.map_for(phase.state), needed)
            self._views[game.id] = view
        return view

    def _current_phase(self, signed: Signed, what: str) -> OrderView | None:
        """The view of a phase taking orders now, or None after saying why `what` is refused."""
        ctx = self.ctx
        view = self._view(signed)
        game = view.game
        if game.status is not GameStatus.ACTIVE:
            ctx.results.add(f"{what}: refused, {game.name} is {game.status.value}, "
                            "not taking orders.")
            return None
        phase = view.phase
        if phase is None:
            ctx.results.add(f"{what}: refused, {game.name} has no phase open for orders.")
            return None
        # (to the second: IMAP's INTERNALDATE and a Received line are whole seconds, and a
        # message of the second the phase opened in is taken as after its opening)
        if ctx.arrived < phase.opened_at.replace(microsecond=0):
            # Written while an earlier phase was open and read only after it was adjudicated:
            # they are not that phase's orders any more, nor this one's (said once a message);
            # kept aside for it when they were in time for it (the GM may REPROCESS it)
            late = self._late_view(signed, view)
            if late is not None:
                return late
            if game.id not in self.told_late:
                self.told_late.add(game.id)
                for line in arrived_too_early(ctx, view.variant, game, phase):
                    ctx.results.add(line)
            else:
                ctx.results.add(f"{what}: refused, written for an earlier phase.")
            return None
        # by arrival, however late it is read; the GM standing in (BECOME) may order late
        if not signed.master and orders_closed(game, phase, ctx.arrived):
            if game.id in self.told_late:  # the deadline is said once a message, at its first
                ctx.results.add(f"{what}: refused, too late.")  # refusal
                return None
            self.told_late.add(game.id)
            assert phase.deadline_at is not None  # orders_closed says so
            grace = (" and its grace period" if grace_end(game.settings, phase.id,
                                                          phase.deadline_at) > phase.deadline_at
                     else "")
            ctx.results.add(f"{what}: refused, the deadline "
                            f"({shown_deadline(game, phase.deadline_at, seconds=True)}){grace} has "
                            "passed.")
            ctx.results.add(after_deadline(view.variant, phase))
            return None
        return view

    def _late_view(self, signed: Signed, view: OrderView) -> OrderView | None:
        """The view of the adjudicated phase that was open when the message arrived, when the
        message was in time for it (the reply says once what is done with its orders)."""
        ctx, game = self.ctx, view.game
        key = -game.id  # the late view is kept beside the open phase's
        known = self._views.get(key)
        if known is not None:
            return known
        assert view.phase is not None
        was = was_open(ctx.session, game, view.phase, ctx.arrived)
        if was is None or orders_closed(game, was, ctx.arrived):
            return None
        variant = view.variant
        late = OrderView(game, was, variant, variant.map_for(was.state),
                         orders_needed(variant, was.state), late=True)
        self._views[key] = late
        self._views[game.id] = late  # the run's lines go to it
        if game.id not in self.told_late:
            self.told_late.add(game.id)
            ctx.results.add(*kept_late(ctx, variant, game, was, view.phase))
        return late

    def _stored_orders(self, view: OrderView, power: str) -> Taken:
        """The power's stored orders for the open phase, read once a run (callers copy it)."""
        assert view.phase is not None
        phase, variant, gmap = view.phase, view.variant, view.gmap
        taken = self._stored.get((phase.id, power))
        if taken is None:
            taken = {}
            stored = orders_repo.latest_valid_orders_of(self.ctx.session, phase.id, power)
            for line in () if stored is None else stored.lines:
                if line.canonical is None:
                    continue
                order = stored_order(line.order, line.canonical, lambda: gmap,
                                     phase.phase.type, variant.order_kinds)
                if not isinstance(order, OrderError):
                    taken[_key(order, len(taken))] = (line.text, order)
            self._stored[phase.id, power] = taken
        return taken

    def _verdict(self, signed: Signed, view: OrderView, order: AnyOrder) -> str | None:
        """Why adjudication would find `order` illegal, with the position as it stands and the
        power's other orders (stored, and accepted so far in this run), or None: the phase is
        adjudicated with them, every other unit holding, and the order's result read."""
        assert view.phase is not None and signed.power is not None
        # the variant's own judgement first (Abstraction2's exchanges: all but what the moves
        # decide; Geophysical's events: on the map as it is)
        on_arrival = view.variant.hooks.on_arrival
        judged = None if on_arrival is None else on_arrival(view.variant, view.phase.state,
                                                            signed.power, order)
        if judged is not None:
            return None if judged.why is None else unheaded(judged.why)
        merged = dict(self._stored_orders(view, signed.power))
        for _, earlier in self._pending:
            merged[_key(earlier, len(merged))] = ("", earlier)
        merged.pop(_key(order, len(merged)), None)
        mine = "#this order"
        submitted = [Submitted(signed.power, f"#{n}", other)
                     for n, (_, other) in enumerate(merged.values())]
        submitted.append(Submitted(signed.power, mine, order))
        for result in phase_results(view.variant, view.phase.state, submitted):
            if result.text == mine and result.outcome is Outcome.ILLEGAL:
                return unheaded(result.why)
        return None

    # -- the run's end --------------------------------------------------------------------------
    def _end_run(self) -> None:
        """Store the run's accepted orders over the power's earlier ones and show the whole
        set; what the run read is dropped."""
        try:
            self._store()
        finally:
            self._views.clear()
            self._stored.clear()
            self._pending = []
            self._ordered = False
            self._refused = []

    def _store(self) -> None:
        ctx = self.ctx
        signed = ctx.signed
        if signed is None or signed.power is None or not (self._pending or self._ordered):
            return
        view = self._view(signed)
        phase = view.phase
        if phase is None:
            return
        if not self._pending:  # every line refused: the orders that stand, as after any orders
            # (no picture: the message changed nothing, and the reply is about its errors)
            self._summary(signed, view, [o for _, o in
                                         self._stored_orders(view, signed.power).values()])
            return
        variant, gmap = view.variant, view.gmap
        merged = dict(self._stored_orders(view, signed.power))
        sent: dict[str, AnyOrder] = {}  # this run's orders by what they are for
        for text, order in self._pending:
            key = _key(order, len(merged))
            earlier = sent.get(key)
            if earlier is not None and earlier != order:
                ctx.results.add(twice(variant, gmap, earlier, order))
            sent[key] = order
            merged[key] = (text, order)
        if phase.phase.type is PhaseType.ADJUSTMENT:
            self._keep_within_counts(merged, view.needed.get(signed.power))
        lines = [StoredLine.taken(text, order) for text, order in merged.values()]
        orders_repo.submit_orders(ctx.session, phase.id, signed.power, lines, now=ctx.now,
                                  inbound_id=ctx.inbound_id, game_id=view.game.id,
                                  late=view.late)
        self._summary(signed, view, [order for _, order in merged.values()])
        self._picture(signed, view, [order for _, order in merged.values()], self._refused)
        if signed.master:
            self._tell_player(signed, view, [order for _, order in merged.values()])

    def _tell_player(self, signed: Signed, view: OrderView, orders: list[AnyOrder]) -> None:
        """The GM standing in for a power (BECOME) stored its orders: its player is told,
        with the orders that now stand (gm.commands.handlers.standing_in)."""
        assert signed.power is not None and view.phase is not None
        power = powers_repo.get_power(self.ctx.session, view.game.id, signed.power)
        name = view.variant.format_phase(view.phase.phase)
        shown = [f"  {shown_order(view.variant, view.gmap, o)}" for o in orders] or ["  (none)"]
        text = "\n".join([
            f"The GM of {view.game.name} has entered orders for {signed.power} for {name}.",
            "Your orders now:", *shown, "",
            "You may change them as usual until the deadline "
            f"({shown_deadline(view.game, view.phase.deadline_at)})."])
        if power is not None:  # told at the message's end, with the GM's other commands
            standing_in(self.ctx).orders(view.game, signed.power, text)

    def _keep_within_counts(self, merged: Taken, needed: Needed | None) -> None:
        """A power builds (or removes) no more than its count: the latest orders are kept."""
        if needed is None:
            return
        for kinds, allowed, word in (((Build, Waive), needed.builds, "build"),
                                     ((Remove, Disband), needed.removals, "removal")):
            keys = [k for k, (_, order) in merged.items() if isinstance(order, kinds)]
            excess = len(keys) - allowed
            if excess > 0:
                dropped = [str(merged.pop(k)[1]) for k in keys[:excess]]
                self.ctx.results.add(f"Only {allowed} {word}{'s' if allowed != 1 else ''} "
                                     f"allowed: dropped the earlier {', '.join(dropped)}.")

    def listing(self, command: ListOrders) -> None:
        """ORDERS: the power's orders as they stand, in words and drawn, nothing changed."""
        ctx = self.ctx
        what = command.line.text.strip() or "ORDERS"
        if ctx.signed is not None and ctx.signed.power is None:
            ctx.results.add(f"{what}: refused, ORDERS lists a power's orders: as the GM, "
                            "PREVIEW shows every power's orders and what processing now would "
                            "give (BECOME <power> to act for one).")
            return
        signed = as_player(ctx, what)
        if signed is None or signed.power is None:
            return
        view = self._view(signed)
        if view.game.status is not GameStatus.ACTIVE or view.phase is None:
            ctx.results.add(f"{what}: refused, {view.game.name} has no phase open for orders.")
            return
        orders = [o for _, o in self._stored_orders(view, signed.power).values()]
        self._summary(signed, view, orders)
        self._picture(signed, view, orders)

    def _picture(self, signed: Signed, view: OrderView, orders: list[AnyOrder],
                 refused: list[AnyOrder] | None = None) -> None:
        """The power's orders as they stand drawn on the board, for the reply's HTML part as
        the reader chose (SET PICTURES): its units still without orders marked, the orders of
        the message that were refused drawn void (those read: an unreadable line draws
        nothing)."""
        assert signed.power is not None and view.phase is not None
        mode = mode_for(view.game, self.ctx.sender)
        if mode == "none":
            return
        needed = view.needed.get(signed.power)
        picture = power_orders_picture(
            view.variant, view.phase.state, view.game.name, signed.power, orders,
            refused=list(refused or ()),
            unordered=() if needed is None or view.phase.phase.type is PhaseType.ADJUSTMENT
            else _unordered(needed, orders))
        self.ctx.results.show(reply_picture(picture, mode))

    def _summary(self, signed: Signed, view: OrderView, orders: list[AnyOrder]) -> None:
        assert signed.power is not None and view.phase is not None
        results = self.ctx.results
        phase, variant, gmap = view.phase, view.variant, view.gmap
        results.blank()
        results.add(f"Orders of {signed.power} for {variant.format_phase(phase.phase)}:")
        results.add(*(f"  {shown_order(variant, gmap, order)}" for order in orders)
                    if orders else ["  (none)"])
        needed = view.needed.get(signed.power)
        if needed is None:
            return
        if phase.phase.type is PhaseType.ADJUSTMENT:
            if needed.builds:
                given = sum(isinstance(o, Build | Waive) for o in orders)
                results.add(f"Builds ordered: {given} of {needed.builds}.")
            if needed.removals:
                given = sum(_removal_weight(phase, o) for o in orders)
                results.add(f"Removals ordered: {min(given, needed.removals)} of "
                            f"{needed.removals}.")
            return
        without = [str(u) for u in _unordered(needed, orders)]
        results.add("Units without orders: " + (", ".join(without) if without else "none")
                    + ".")


def _unordered(needed: Needed, orders: list[AnyOrder]) -> list[Unit]:
    """The units among those `needed` (movement: all; retreats: the dislodged) that none of
    `orders` orders."""
    ordered = {o.unit.province for o in orders if isinstance(o, Order)}
    return [u for u in needed.units if u.location.province not in ordered]


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


def _removal_weight(phase: PhaseRecord, order: AnyOrder) -> int:
    """How many units a removal order takes: an A/F is two (its army and its fleet; the A/F
    rules, gm.engine.army_fleet), unless only its army is named (`Remove A ENG`)."""
    if not isinstance(order, Remove | Disband):
        return 0
    unit = phase.state.unit_in(order.unit.province)
    whole = order.unit.type is not UnitType.ARMY
    return 2 if unit is not None and unit.type is UnitType.ARMY_FLEET and whole else 1
