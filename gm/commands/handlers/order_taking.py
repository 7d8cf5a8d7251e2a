"""Order taking: a message's order lines and CLEARs, read for the current phase, and the
power's order set kept (`OrderTaking`).

Each order line is read by the real order parser for the phase, checked against what the
power may order (its units; in an adjustment phase its build sites and units) and for legality
on the board (gm.engine.legality: an order that could never be carried out is refused).
Accepted orders wait until the run of order lines ends (another command starts, or the message
ends), then replace the stored orders for the same units and are stored as the power's new
complete set. How an order is judged and kept among the power's others (what it may order,
the trial adjudication, which order replaces which) is gm.play.order_taking; how refusals and
notes read is gm.commands.handlers.order_wording.

One line may give several orders (gm.notation.lines), and a variant's own orders are read when
its Variant.order_kinds allow them.
"""

from __future__ import annotations

import re

from gm.commands.handlers.common import (
    as_player,
    open_phase_of,
    orders_closed,
    refresh,
    shown_deadline,
)
from gm.commands.handlers.context import Context, Signed
from gm.commands.handlers.order_arrival import arrived_too_early, kept_late, was_open
from gm.commands.handlers.order_wording import (
    after_deadline,
    illegal,
    refusal_words,
    shown_order,
    twice,
    type_note,
    unreadable,
)
from gm.commands.handlers.standing_in import standing_in
from gm.commands.values import Clear, Command, CommandError, ListOrders, OrderLine
from gm.engine.errors import OrderError
from gm.engine.game import Needed, build_sites
from gm.engine.order_check import check_order
from gm.engine.orders import (
    AnyOrder,
    Build,
    Order,
    Waive,
)
from gm.engine.phase import PhaseType
from gm.engine.reason_words import unheaded
from gm.notation import parse_orders
from gm.play.deadlines import grace_end
from gm.play.order_picture_memo import orders_picture
from gm.play.order_pictures import reply_picture
from gm.play.order_taking import (
    VARIANT_UNIT_ORDERS,
    OrderView,
    Taken,
    chained,
    judged_by_variant,
    order_key,
    order_view,
    refusal,
    removal_weight,
    stored_orders,
    unordered,
    verdict,
    within_counts,
)
from gm.play.picture_choice import mode_for
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.errors import PhaseClosed
from gm.store.rows import OrderLine as StoredLine
from gm.store.statuses import GameStatus

# `A disembarks Por` alone on a line: the A/F is named only on the line of its move.
_LONE_LANDING = re.compile(r"\s*a(?:rmy)?\s+disembarks?\b", re.IGNORECASE)

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
            if head is not None and chained(head, order):
                ctx.results.add(f"  {at}{shown}: refused with the first order of its line "
                                f"({head}), which it follows on from.")
                self._flaw(signed, view, text, f"follows on from {head}")
                continue
            given = order  # as written: the note below says when it named the other kind of unit
            refused = refusal(needed, order, phase, signed.power)
            why = None if refused is None else refusal_words(refused)
            if why is None and isinstance(order, Order | Waive) \
                    and not isinstance(order, VARIANT_UNIT_ORDERS):
                # Abstraction2 rule 3 / Deluge II rule 8: the A/F rules' checks where they apply.
                checked = check_order(gmap, phase.state, signed.power, order, sites,
                                      army_fleet=variant.army_fleet)
                if isinstance(checked, OrderError):
                    why = illegal(checked, order, phase, variant)
                else:
                    order = checked
            if why is None:  # a site that builds only armies, or only fleets
                why = variant.build_refusal(order)
            if why is None and judged_by_variant(order):
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
            game = signed.game if signed.fresh else refresh(self.ctx, signed.game)
            view = order_view(game, open_phase_of(self.ctx, game))
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
        late = order_view(game, was, late=True)
        self._views[key] = late
        self._views[game.id] = late  # the run's lines go to it
        if game.id not in self.told_late:
            self.told_late.add(game.id)
            ctx.results.add(*kept_late(ctx, variant, game, was, view.phase))
        return late

    def _stored_orders(self, view: OrderView, power: str) -> Taken:
        """The power's stored orders for the open phase, read once a run (callers copy it)."""
        assert view.phase is not None
        taken = self._stored.get((view.phase.id, power))
        if taken is None:
            taken = stored_orders(self.ctx.session, view.phase, view.variant, view.gmap, power)
            self._stored[view.phase.id, power] = taken
        return taken

    def _verdict(self, signed: Signed, view: OrderView, order: AnyOrder) -> str | None:
        """Why adjudication would find `order` illegal (gm.play.order_taking.verdict), with
        the power's other orders (stored, and accepted so far in this run), or None."""
        assert view.phase is not None and signed.power is not None
        merged = dict(self._stored_orders(view, signed.power))
        for _, earlier in self._pending:
            merged[order_key(earlier, len(merged))] = ("", earlier)
        merged.pop(order_key(order, len(merged)), None)
        why = verdict(view.variant, view.phase.state, signed.power, order,
                      [other for _, other in merged.values()])
        return None if why is None else unheaded(why)

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
            key = order_key(order, len(merged))
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
        for dropped in within_counts(merged, needed):
            allowed = dropped.allowed
            self.ctx.results.add(f"Only {allowed} {dropped.kind}{'s' if allowed != 1 else ''} "
                                 f"allowed: dropped the earlier {', '.join(dropped.orders)}.")

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
        picture = orders_picture(
            view.variant, view.phase.state, view.game.name, signed.power, orders,
            refused=list(refused or ()),
            unordered=() if needed is None or view.phase.phase.type is PhaseType.ADJUSTMENT
            else unordered(needed, orders))
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
                given = sum(removal_weight(phase, o) for o in orders)
                results.add(f"Removals ordered: {min(given, needed.removals)} of "
                            f"{needed.removals}.")
            return
        without = [str(u) for u in unordered(needed, orders)]
        results.add("Units without orders: " + (", ".join(without) if without else "none")
                    + ".")
