"""Order taking: a message's order lines, CLEARs and ORDERS for the signed-on power, worded
(`OrderTaking`).

What is decided and stored is the use case gm.play.order_runs (`OrderRun`: each line read
once for the phase, judged, the run's accepted orders stored at its end over the power's
earlier ones, refused lines keeping the power from being ready); this module says its typed
outcomes in the reply, in the words of gm.commands.handlers.order_wording, and tells the GM or
the player what the use case says is to be told.
"""

from __future__ import annotations

from gm.commands.handlers.common import as_player, shown_deadline
from gm.commands.handlers.context import Context, Signed
from gm.commands.handlers.order_arrival import arrived_too_early, kept_late
from gm.commands.handlers.order_wording import (
    after_deadline,
    not_taken,
    shown_order,
    stored_reason,
    twice,
    type_note,
    unreadable,
)
from gm.commands.handlers.standing_in import standing_in
from gm.commands.values import Clear, Command, CommandError, ListOrders, OrderLine
from gm.play.order_runs import (
    Accepted,
    Closed,
    FollowsOn,
    LineRead,
    NotTaken,
    Orderer,
    OrderRun,
    Shut,
    Stored,
    Summary,
    Unreadable,
)


def order_line(ctx: Context, command: OrderLine) -> None:
    """An order line: read, checked and kept for the run's end (OrderTaking.order_line)."""
    OrderTaking.of(ctx).order_line(command)


def _in_run(command: Command) -> bool:
    """Does `command` go on a run of order lines: an order line, a CLEAR, or an error on a line
    among the orders (not a SIGNON)?"""
    if isinstance(command, OrderLine | Clear):
        return True
    return isinstance(command, CommandError) and getattr(command, "keyword", "") != "SIGNON"


def _orderer(signed: Signed) -> Orderer:
    assert signed.power is not None
    return Orderer(signed.game, signed.power, signed.master, signed.fresh)


class OrderTaking:
    """The orders of one message, taken for the signed-on power: kept by the message's Context
    (gm.commands.handlers.context.Ongoing), begun by its first order line, CLEAR or ORDERS.
    A run of order lines ends where another command starts and where the message ends; the
    reply then shows the whole set (gm.play.order_runs.OrderRun.end)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.run = OrderRun(ctx.session, ctx.now, ctx.arrived, ctx.inbound_id)

    @staticmethod
    def of(ctx: Context) -> OrderTaking:
        """The message's order taking, begun now if this is its first order."""
        return ctx.keep(OrderTaking, OrderTaking)

    def command_starts(self, command: Command) -> None:
        if not _in_run(command):
            self._end_run()

    def message_ends(self) -> None:
        self._end_run()
        for ready in self.run.keep_refusals(stored_reason):
            count = ready.count
            self.ctx.results.blank()
            self.ctx.results.add(
                f"{ready.power} is not counted as ready: {count} order line"
                f"{'s' if count != 1 else ''} of this message {'were' if count != 1 else 'was'}"
                " not accepted. The orders shown stand, but the phase is not processed early on"
                " them: send your orders again with every line accepted (or CLEAR) to be"
                " counted as ready.")

    # -- the commands ---------------------------------------------------------------------------
    def order_line(self, command: OrderLine) -> None:
        ctx = self.ctx
        quoted = f'"{command.text}"'
        signed = as_player(ctx, quoted)
        if signed is None or signed.power is None:
            return
        at = f"line {command.line.number}: " if command.line.number else ""
        read = self.run.line(_orderer(signed), command.text)
        if isinstance(read, Closed):
            self._closed(read, f"  {at}{quoted}")
            return
        self._line_read(read, command, at, signed.power)

    def _line_read(self, read: LineRead, command: OrderLine, at: str, power: str) -> None:
        ctx, view = self.ctx, read.view
        if read.kept_late is not None:
            assert view.phase is not None
            ctx.results.add(*kept_late(ctx, view.variant, view.game, view.phase,
                                       read.kept_late))
        for outcome in read.outcomes:
            text = outcome.text
            # on a line of several orders, the line as sent, then which of its orders it is
            shown = f'"{command.sent or command.text}": {text}' if read.several else f'"{text}"'
            match outcome:
                case Accepted(given=given, order=order):
                    ctx.results.add(f"  {text}  ->  {shown_order(view.variant, view.gmap, order)}"
                                    + type_note(given, order))
                case NotTaken():
                    assert view.phase is not None
                    why = not_taken(outcome.why, outcome.order, view.phase, view.variant)
                    ctx.results.add(f"  {at}{shown}: refused, {why}.")
                case FollowsOn(head=head):
                    ctx.results.add(f"  {at}{shown}: refused with the first order of its line "
                                    f"({head}), which it follows on from.")
                case Unreadable(written=written, error=error, landing=landing):
                    ctx.results.add(f"  {at}{unreadable(command, written, error)}")
                    if landing:
                        ctx.results.add(
                            f'  {at}"{command.text}": say which A/F the army leaves, e.g. '
                            "`A/F MAO disembarks Por`, or give it on the line of the A/F's "
                            "move: `A/F(ENG)-MAO, A disembarks Por` (A/F rules).")
                case _:  # WrongPower
                    ctx.results.add(f'  {at}"{command.text}": refused, you are signed on as '
                                    f"{power}.")

    def clear(self, command: Clear) -> None:
        ctx = self.ctx
        signed = as_player(ctx, "CLEAR")
        if signed is None or signed.power is None:
            return
        cleared = self.run.clear(_orderer(signed), ctx.sender)
        if isinstance(cleared, Closed):
            self._closed(cleared, "CLEAR")
            return
        if cleared.kept_late is not None:
            view = cleared.summary.view
            assert view.phase is not None
            ctx.results.add(*kept_late(ctx, view.variant, view.game, view.phase,
                                       cleared.kept_late))
        ctx.results.add("Your orders for this phase are cleared.")
        self._stand(cleared)

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
        listed = self.run.listing(_orderer(signed), ctx.sender)
        if isinstance(listed, Closed):
            ctx.results.add(f"{what}: refused, {listed.view.game.name} has no phase open for "
                            "orders.")
            return
        self._stand(listed)

    # -- the outcomes ---------------------------------------------------------------------------
    def _closed(self, closed: Closed, what: str) -> None:
        """Why `what` is refused: the game takes no orders from the message now."""
        ctx, view = self.ctx, closed.view
        game, phase = view.game, view.phase
        match closed.why:
            case Shut.NOT_ACTIVE:
                ctx.results.add(f"{what}: refused, {game.name} is {game.status.value}, "
                                "not taking orders.")
            case Shut.NO_PHASE:
                ctx.results.add(f"{what}: refused, {game.name} has no phase open for orders.")
            case Shut.ARRIVED_EARLY:
                assert phase is not None
                ctx.results.add(*arrived_too_early(ctx, view.variant, game, phase))
            case Shut.EARLIER_PHASE:
                ctx.results.add(f"{what}: refused, written for an earlier phase.")
            case Shut.PAST_DEADLINE:
                assert phase is not None and phase.deadline_at is not None
                grace = " and its grace period" if closed.grace else ""
                ctx.results.add(f"{what}: refused, the deadline "
                                f"({shown_deadline(game, phase.deadline_at, seconds=True)})"
                                f"{grace} has passed.")
                ctx.results.add(after_deadline(view.variant, phase))
            case Shut.TOO_LATE:
                ctx.results.add(f"{what}: refused, too late.")

    def _end_run(self) -> None:
        """The run's end: its orders stored, and the whole set shown."""
        signed = self.ctx.signed
        stored = self.run.end(None if signed is None or signed.power is None
                              else _orderer(signed), self.ctx.sender)
        if stored is None:
            return
        view = stored.summary.view
        for earlier, later in stored.twice:
            self.ctx.results.add(twice(view.variant, view.gmap, earlier, later))
        for dropped in stored.dropped:
            allowed = dropped.allowed
            self.ctx.results.add(f"Only {allowed} {dropped.kind}{'s' if allowed != 1 else ''} "
                                 f"allowed: dropped the earlier {', '.join(dropped.orders)}.")
        self._stand(stored)

    def _stand(self, stored: Stored) -> None:
        """The orders that stand: in words, drawn, and told to the player when the GM stood
        in for the power."""
        self._summary(stored.summary)
        self.ctx.results.show(stored.picture)
        if stored.tell_player:
            self._tell_player(stored.summary)

    def _tell_player(self, summary: Summary) -> None:
        """The GM standing in for a power (BECOME) stored its orders: its player is told,
        with the orders that now stand (gm.commands.handlers.standing_in)."""
        view, power = summary.view, summary.power
        assert view.phase is not None
        name = view.variant.format_phase(view.phase.phase)
        shown = [f"  {shown_order(view.variant, view.gmap, o)}" for o in summary.orders] \
            or ["  (none)"]
        text = "\n".join([
            f"The GM of {view.game.name} has entered orders for {power} for {name}.",
            "Your orders now:", *shown, "",
            "You may change them as usual until the deadline "
            f"({shown_deadline(view.game, view.phase.deadline_at)})."])
        # told at the message's end, with the GM's other commands
        standing_in(self.ctx).orders(view.game, power, text)

    def _summary(self, summary: Summary) -> None:
        results, view = self.ctx.results, summary.view
        assert view.phase is not None
        variant, gmap = view.variant, view.gmap
        results.blank()
        results.add(f"Orders of {summary.power} for {variant.format_phase(view.phase.phase)}:")
        results.add(*(f"  {shown_order(variant, gmap, order)}" for order in summary.orders)
                    if summary.orders else ["  (none)"])
        if summary.builds is not None:
            results.add(f"Builds ordered: {summary.builds[0]} of {summary.builds[1]}.")
        if summary.removals is not None:
            results.add(f"Removals ordered: {summary.removals[0]} of {summary.removals[1]}.")
        if summary.without is not None:
            without = [str(u) for u in summary.without]
            results.add("Units without orders: " + (", ".join(without) if without else "none")
                        + ".")
