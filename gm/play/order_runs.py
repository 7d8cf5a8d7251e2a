"""A message's orders for a power, as a use case: its runs of order lines and CLEARs taken for
the phase open when it arrived, and ORDERS (`OrderRun`, one per message).

Each order line is read by the order parser for the phase once, on arrival, and judged
(gm.play.order_taking: what the power may order, legality on the board, the variant's own
judgement); the orders accepted in a run of lines are stored at its end over the power's earlier
ones, as values, without the game's lock until the message's commit (gm.store.commit_locks:
a phase adjudicated meanwhile has the message handled again).
The outcomes are typed: a line read (`LineRead`, each order `Accepted`,
`NotTaken` with its typed reason, `FollowsOn` a refused first order of its line; the line
`Unreadable` or for `WrongPower`), the phase not taking the message's orders (`Closed`), the
run's end (`Stored`: the orders that stand, as a `Summary`, the notes on orders given twice or
beyond the counts, the picture); refused lines keep the power from being ready (`NotReady`,
njudge `data/deadlines`). The reply's words are gm.commands.handlers.order_wording's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.engine.errors import OrderError
from gm.engine.game import build_sites
from gm.engine.order_check import check_order
from gm.engine.orders import AnyOrder, Build, Order, Waive
from gm.engine.phase import PhaseType
from gm.engine.reasons import Reason
from gm.engine.units import Unit
from gm.notation import parse_orders
from gm.play.deadlines import grace_end
from gm.play.order_picture_memo import orders_picture
from gm.play.order_pictures import ReplyPicture, reply_picture
from gm.play.order_taking import (
    VARIANT_UNIT_ORDERS,
    Dropped,
    OrderView,
    Refused,
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
from gm.policies import LatePolicy
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.errors import PhaseClosed
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.rows import OrderLine as StoredLine
from gm.store.statuses import GameStatus

# `A disembarks Por` alone on a line: the A/F is named only on the line of its move.
_LONE_LANDING = re.compile(r"\s*a(?:rmy)?\s+disembarks?\b", re.IGNORECASE)


@dataclass(frozen=True)
class Orderer:
    """Who gives the orders: the `power` of `game` (as the sign-on read it; `fresh`: no command
    has run since), or the game's GM standing in for it (`master`, BECOME)."""

    game: GameRecord
    power: str
    master: bool = False
    fresh: bool = False


def orders_closed(game: GameRecord, phase: PhaseRecord, now: datetime) -> bool:
    """Whether orders for `phase` come too late: its deadline and grace period have passed,
    unless the game waits for late powers (SET LATE WAIT), whose orders stay welcome until
    the phase is processed."""
    if phase.deadline_at is None or game.settings.late is LatePolicy.WAIT:
        return False
    return now > grace_end(game.settings, phase.id, phase.deadline_at)


def was_open(session: Session, game: GameRecord, phase: PhaseRecord,
             arrived: datetime) -> PhaseRecord | None:
    """The adjudicated phase before `phase` that was open when a message arrived, if any."""
    earlier = [p for p in phases_repo.history(session, game.id)
               if p.index < phase.index and p.opened_at.replace(microsecond=0) <= arrived]
    return earlier[-1] if earlier and earlier[-1].adjudicated else None


class Shut(StrEnum):
    """Why the game takes no orders from the message (the first refusal of a message that came
    too early or too late says why at length, later ones say it shortly)."""

    NOT_ACTIVE = "not active"
    NO_PHASE = "no phase open"
    ARRIVED_EARLY = "arrived before the open phase"  # first: the GM is told
    EARLIER_PHASE = "written for an earlier phase"  # said again
    PAST_DEADLINE = "the deadline has passed"  # first
    TOO_LATE = "too late"  # said again


@dataclass(frozen=True)
class Closed:
    """The game takes no orders from the message now: `why`, with the `view` of its open phase
    (`grace`: PAST_DEADLINE, the deadline had a grace period after it)."""

    why: Shut
    view: OrderView
    grace: bool = False


@dataclass(frozen=True)
class Accepted:
    """An order taken: `given` as written, `order` as read for the unit that is there."""

    text: str
    given: AnyOrder
    order: AnyOrder


@dataclass(frozen=True)
class SiteRefusal:
    """The variant's refusal of a build at a site that builds only armies or only fleets, in
    its own words (Variant.build_refusal)."""

    words: str


# Why an order read is refused: the power may not give it now (`Refused`), it could never be
# carried out (gm.engine.legality's OrderError), the site builds no such unit, or adjudication
# would find it illegal (a typed Reason).
Why = Refused | OrderError | SiteRefusal | Reason


@dataclass(frozen=True)
class NotTaken:
    """An order read but refused, with `why`."""

    text: str
    order: AnyOrder
    why: Why


@dataclass(frozen=True)
class FollowsOn:
    """An order refused with the first order of its line, `head`, which it follows on from
    (gm.play.order_taking.chained)."""

    text: str
    head: AnyOrder


@dataclass(frozen=True)
class Unreadable:
    """A line (`written`: without its power's name) that is no order; `landing`: a landing
    alone on its line, which the A/F rules write with the A/F's move."""

    text: str
    written: str
    error: OrderError
    landing: bool


@dataclass(frozen=True)
class WrongPower:
    """A line headed with another power's name than the one signed on as, `power`."""

    text: str
    power: str


LineOutcome = Accepted | NotTaken | FollowsOn | Unreadable | WrongPower
LineRefusal = NotTaken | FollowsOn | Unreadable | WrongPower


@dataclass(frozen=True)
class LineRead:
    """A line read for `view`'s phase: its outcomes (one per order; `several`: the line gave
    several). `kept_late`: said once, the orders are kept for the adjudicated `view.phase`,
    not taken for this phase, open now."""

    view: OrderView
    several: bool
    outcomes: tuple[LineOutcome, ...]
    kept_late: PhaseRecord | None = None


@dataclass(frozen=True)
class Summary:
    """The orders of `power` that stand for `view`'s phase, with what is left: in an adjustment
    phase the `builds` and `removals` ordered of those due, else the units `without` orders
    (None: the power has nothing to order)."""

    power: str
    view: OrderView
    orders: tuple[AnyOrder, ...]
    builds: tuple[int, int] | None = None
    removals: tuple[int, int] | None = None
    without: tuple[Unit, ...] | None = None


@dataclass(frozen=True)
class Stored:
    """The orders of a run (or a CLEAR, or ORDERS) as they stand: the `summary`, the notes on
    two orders of the message for one thing (`twice`: earlier, later) and on builds or removals
    beyond the counts (`dropped`), the `picture` for the reply, and whether the power's player
    is told (`tell_player`: the GM standing in stored them)."""

    summary: Summary
    picture: ReplyPicture | None = None
    twice: tuple[tuple[AnyOrder, AnyOrder], ...] = ()
    dropped: tuple[Dropped, ...] = ()
    tell_player: bool = False
    # CLEAR of orders kept for the adjudicated `summary.view.phase`: said once, with the phase
    # open now
    kept_late: PhaseRecord | None = None


@dataclass(frozen=True)
class NotReady:
    """`power` sent `count` refused order lines: not ready until a clean message."""

    power: str
    count: int


class OrderRun:
    """The orders of one message, arrived at `arrived`, stored at `now` (from the inbound mail
    `inbound_id`). A run of order lines ends where another command starts and where the
    message ends (`end`); what a run reads (the game's open phase, the power's stored orders,
    each read once) is dropped at its end: the next command may change the game."""

    def __init__(self, session: Session, now: datetime, arrived: datetime,
                 inbound_id: int | None) -> None:
        self.session, self.now, self.arrived, self.inbound_id = session, now, arrived, inbound_id
        # games whose passed deadline the message has been told of (said once a message)
        self.told_late: set[int] = set()
        self._views: dict[int, OrderView] = {}  # by game: the open phase as the run sees it
        self._stored: dict[tuple[int, str], Taken] = {}  # by phase and power: stored orders
        self._pending: list[tuple[str, AnyOrder]] = []  # accepted in the run, not yet stored
        # order lines were read for the open phase in the run: its end shows the power's
        # orders, even when every line was refused
        self._ordered = False
        # orders read in the run but refused: drawn void on the picture
        self._refused: list[AnyOrder] = []
        # the message's refused order lines, by the game, phase and power they were for
        self._flawed: dict[tuple[int, int, str], list[tuple[LineRefusal, OrderView]]] = {}

    # -- the commands ---------------------------------------------------------------------------
    def line(self, who: Orderer, text: str) -> LineRead | Closed:
        """An order line (`TURKEY : Erode Mos` names its power, as Geophysical rule 3 writes
        orders), read and judged; the orders accepted wait for the run's end."""
        gate = self._open(who)
        if isinstance(gate, Closed):
            return gate
        view, kept = gate
        assert view.phase is not None
        self._ordered = True
        phase, variant, gmap = view.phase, view.variant, view.gmap
        written = text
        prefix, colon, rest = written.partition(":")
        named = variant.power(prefix) if colon and rest.strip() else None
        if named is not None:
            if named.name != who.power:
                wrong = WrongPower(text, who.power)
                self._flaw(who, view, wrong)
                return LineRead(view, False, (wrong,), kept)
            written = rest.strip()
        parsed = parse_orders(written, gmap, phase.phase.type, variant.order_kinds)
        if isinstance(parsed, OrderError):
            unread = Unreadable(text, written, parsed,
                                bool(_LONE_LANDING.match(text)) and variant.army_fleet)
            self._flaw(who, view, unread)
            return LineRead(view, False, (unread,), kept)
        needed = view.needed.get(who.power)
        sites = {who.power: build_sites(variant, phase.state, who.power)} \
            if phase.phase.type is PhaseType.ADJUSTMENT else None
        several = len(parsed) > 1
        head: AnyOrder | None = None  # a line's first order, when it was refused
        outcomes: list[LineOutcome] = []
        for n, order in enumerate(parsed):
            shown = str(order) if several else text
            if head is not None and chained(head, order):
                follows = FollowsOn(shown, head)
                self._flaw(who, view, follows)
                outcomes.append(follows)
                continue
            given = order  # as written: the reply says when it named the other kind of unit
            why: Why | None = refusal(needed, order, phase, who.power)
            if why is None and isinstance(order, Order | Waive) \
                    and not isinstance(order, VARIANT_UNIT_ORDERS):
                # Abstraction2 rule 3 / Deluge II rule 8: the A/F rules' checks where they apply.
                checked = check_order(gmap, phase.state, who.power, order, sites,
                                      army_fleet=variant.army_fleet)
                if isinstance(checked, OrderError):
                    why = checked
                else:
                    order = checked
            if why is None:  # a site that builds only armies, or only fleets
                words = variant.build_refusal(order)
                why = None if words is None else SiteRefusal(words)
            if why is None and judged_by_variant(order):
                why = self._verdict(who, view, order)
            if why is not None:
                refused = NotTaken(shown, order, why)
                self._flaw(who, view, refused)
                self._refused.append(order)
                outcomes.append(refused)
                if n == 0:
                    head = order
                continue
            self._pending.append((shown, order))
            outcomes.append(Accepted(shown, given, order))
        return LineRead(view, several, tuple(outcomes), kept)

    def clear(self, who: Orderer, reader: str) -> Stored | Closed:
        """CLEAR: the power's orders for the phase withdrawn (the run's so far too); the empty
        set stands, drawn for `reader` as they chose (SET PICTURES)."""
        gate = self._open(who)
        if isinstance(gate, Closed):
            return gate
        view, kept = gate
        assert view.phase is not None
        self._pending.clear()
        self._refused.clear()
        orders_repo.submit_orders(self.session, view.phase.id, who.power, [], now=self.now,
                                  inbound_id=self.inbound_id, game_id=view.game.id,
                                  late=view.late, at_commit=True, read_open=True)
        self._stored[view.phase.id, who.power] = {}
        return Stored(self._summary(who.power, view, []),
                      self._picture(who.power, view, [], reader=reader),
                      tell_player=self._tells_player(who, view), kept_late=kept)

    def listing(self, who: Orderer, reader: str) -> Stored | Closed:
        """ORDERS: the power's orders as they stand, nothing changed (Closed NO_PHASE: the game
        has no phase open for orders)."""
        view = self._view(who)
        if view.game.status is not GameStatus.ACTIVE or view.phase is None:
            return Closed(Shut.NO_PHASE, view)
        orders = [o for _, o in self._stored_orders(view, who.power).values()]
        return Stored(self._summary(who.power, view, orders),
                      self._picture(who.power, view, orders, reader=reader))

    # -- the run's end --------------------------------------------------------------------------
    def end(self, who: Orderer | None, reader: str) -> Stored | None:
        """The run's end: its accepted orders stored over the power's earlier ones, and the
        whole set as it stands (None: the run read no order line for `who`); what the run read
        is dropped."""
        try:
            return self._store(who, reader)
        finally:
            self._views.clear()
            self._stored.clear()
            self._pending = []
            self._ordered = False
            self._refused = []

    def keep_refusals(self, words: Callable[[LineRefusal, OrderView], str]) -> list[NotReady]:
        """At the message's end: for each power a refused line was for, keep the refused lines
        (each with its reason in `words`, for the view of its phase) as a submission that is
        not valid, after its orders. The orders it has stand (the latest valid ones), but it
        is not ready for early processing until a message whose order lines are all accepted
        (njudge `data/deadlines`: "An error free set of orders will be required to set the
        'has submitted orders' status")."""
        flawed, self._flawed = self._flawed, {}
        kept: list[NotReady] = []
        for (game_id, phase_id, power), refusals in flawed.items():
            lines = [StoredLine(text=refused.text, canonical=None, error=words(refused, view))
                     for refused, view in refusals]
            try:
                orders_repo.submit_orders(self.session, phase_id, power, lines, now=self.now,
                                          inbound_id=self.inbound_id, game_id=game_id,
                                          at_commit=True)
            except PhaseClosed:  # pragma: no cover - adjudicated since the run read it
                continue
            kept.append(NotReady(power, len(lines)))
        return kept

    def _store(self, who: Orderer | None, reader: str) -> Stored | None:
        if who is None or not (self._pending or self._ordered):
            return None
        view = self._view(who)
        phase = view.phase
        if phase is None:
            return None
        if not self._pending:  # every line refused: the orders that stand, as after any orders
            # (no picture: the message changed nothing, and the reply is about its errors)
            return Stored(self._summary(who.power, view, [
                o for _, o in self._stored_orders(view, who.power).values()]))
        merged = dict(self._stored_orders(view, who.power))
        sent: dict[str, AnyOrder] = {}  # this run's orders by what they are for
        twice: list[tuple[AnyOrder, AnyOrder]] = []
        for text, order in self._pending:
            key = order_key(order, len(merged))
            earlier = sent.get(key)
            if earlier is not None and earlier != order:
                twice.append((earlier, order))
            sent[key] = order
            merged[key] = (text, order)
        dropped = within_counts(merged, view.needed.get(who.power)) \
            if phase.phase.type is PhaseType.ADJUSTMENT else []
        lines = [StoredLine.taken(text, order) for text, order in merged.values()]
        orders_repo.submit_orders(self.session, phase.id, who.power, lines, now=self.now,
                                  inbound_id=self.inbound_id, game_id=view.game.id,
                                  late=view.late, at_commit=True, read_open=True)
        orders = [order for _, order in merged.values()]
        return Stored(self._summary(who.power, view, orders),
                      self._picture(who.power, view, orders, self._refused, reader=reader),
                      tuple(twice), tuple(dropped), self._tells_player(who, view))

    # -- refused lines --------------------------------------------------------------------------
    def _flaw(self, who: Orderer, view: OrderView, refused: LineRefusal) -> None:
        """Note a refused order line of the message, for the power and phase it was for."""
        assert view.phase is not None
        self._flawed.setdefault((view.game.id, view.phase.id, who.power), []).append(
            (refused, view))

    # -- what the run reads -------------------------------------------------------------------
    def _view(self, who: Orderer) -> OrderView:
        """The game's OrderView, loaded now unless this run has it."""
        view = self._views.get(who.game.id)
        if view is None:
            game = who.game if who.fresh else games_repo.get_game(self.session, who.game.id)
            phase = phases_repo.current_phase(self.session, game.id)
            view = order_view(game, None if phase is None or phase.adjudicated else phase)
            self._views[game.id] = view
        return view

    def _open(self, who: Orderer) -> tuple[OrderView, PhaseRecord | None] | Closed:
        """The view of a phase taking the message's orders now (and the open phase, when the
        orders are kept for an adjudicated one and that is to be said), or why none is."""
        view = self._view(who)
        game = view.game
        if game.status is not GameStatus.ACTIVE:
            return Closed(Shut.NOT_ACTIVE, view)
        phase = view.phase
        if phase is None:
            return Closed(Shut.NO_PHASE, view)
        # (to the second: IMAP's INTERNALDATE and a Received line are whole seconds, and a
        # message of the second the phase opened in is taken as after its opening)
        if self.arrived < phase.opened_at.replace(microsecond=0):
            # Written while an earlier phase was open and read only after it was adjudicated:
            # they are not that phase's orders any more, nor this one's (said once a message);
            # kept aside for it when they were in time for it (the GM may REPROCESS it)
            late = self._late_view(view)
            if late is not None:
                return late
            if game.id not in self.told_late:
                self.told_late.add(game.id)
                return Closed(Shut.ARRIVED_EARLY, view)
            return Closed(Shut.EARLIER_PHASE, view)
        # by arrival, however late it is read; the GM standing in (BECOME) may order late
        if not who.master and orders_closed(game, phase, self.arrived):
            if game.id in self.told_late:  # the deadline is said once a message
                return Closed(Shut.TOO_LATE, view)
            self.told_late.add(game.id)
            assert phase.deadline_at is not None  # orders_closed says so
            grace = grace_end(game.settings, phase.id, phase.deadline_at) > phase.deadline_at
            return Closed(Shut.PAST_DEADLINE, view, grace)
        return view, None

    def _late_view(self, view: OrderView) -> tuple[OrderView, PhaseRecord | None] | None:
        """The view of the adjudicated phase that was open when the message arrived, when the
        message was in time for it (with the phase open now, the first time: said once)."""
        game = view.game
        key = -game.id  # the late view is kept beside the open phase's
        known = self._views.get(key)
        if known is not None:
            return known, None
        assert view.phase is not None
        was = was_open(self.session, game, view.phase, self.arrived)
        if was is None or orders_closed(game, was, self.arrived):
            return None
        late = order_view(game, was, late=True)
        self._views[key] = late
        self._views[game.id] = late  # the run's lines go to it
        if game.id in self.told_late:
            return late, None
        self.told_late.add(game.id)
        return late, view.phase

    def _stored_orders(self, view: OrderView, power: str) -> Taken:
        """The power's stored orders for the open phase, read once a run (callers copy it)."""
        assert view.phase is not None
        taken = self._stored.get((view.phase.id, power))
        if taken is None:
            taken = stored_orders(self.session, view.phase, view.variant, view.gmap, power)
            self._stored[view.phase.id, power] = taken
        return taken

    def _verdict(self, who: Orderer, view: OrderView, order: AnyOrder) -> Reason | None:
        """Why adjudication would find `order` illegal (gm.play.order_taking.verdict), with
        the power's other orders (stored, and accepted so far in this run), or None."""
        assert view.phase is not None
        merged = dict(self._stored_orders(view, who.power))
        for _, earlier in self._pending:
            merged[order_key(earlier, len(merged))] = ("", earlier)
        merged.pop(order_key(order, len(merged)), None)
        return verdict(view.variant, view.phase.state, who.power, order,
                       [other for _, other in merged.values()])

    # -- what is shown --------------------------------------------------------------------------
    def _tells_player(self, who: Orderer, view: OrderView) -> bool:
        """The GM standing in for the power (BECOME) stored its orders: its player is told."""
        return who.master and powers_repo.get_power(self.session, view.game.id,
                                                    who.power) is not None

    def _picture(self, power: str, view: OrderView, orders: list[AnyOrder],
                 refused: list[AnyOrder] | None = None, *, reader: str) -> ReplyPicture | None:
        """The power's orders as they stand drawn on the board, as `reader` chose (SET
        PICTURES): its units still without orders marked, the message's refused orders drawn
        void (those read: an unreadable line draws nothing)."""
        assert view.phase is not None
        mode = mode_for(view.game, reader)
        if mode == "none":
            return None
        needed = view.needed.get(power)
        picture = orders_picture(
            view.variant, view.phase.state, view.game.name, power, orders,
            refused=list(refused or ()),
            unordered=() if needed is None or view.phase.phase.type is PhaseType.ADJUSTMENT
            else unordered(needed, orders))
        return reply_picture(picture, mode)

    @staticmethod
    def _summary(power: str, view: OrderView, orders: list[AnyOrder]) -> Summary:
        assert view.phase is not None
        phase = view.phase
        needed = view.needed.get(power)
        if needed is None:
            return Summary(power, view, tuple(orders))
        if phase.phase.type is PhaseType.ADJUSTMENT:
            builds = (sum(isinstance(o, Build | Waive) for o in orders), needed.builds) \
                if needed.builds else None
            removals = (min(sum(removal_weight(phase, o) for o in orders), needed.removals),
                        needed.removals) if needed.removals else None
            return Summary(power, view, tuple(orders), builds, removals)
        return Summary(power, view, tuple(orders), without=tuple(unordered(needed, orders)))
