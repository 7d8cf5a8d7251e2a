"""Taking orders: what a power may order now, and how an order read on arrival is judged and
kept among the power's others (the message's run of order lines is gm.commands.handlers
.order_taking, which words the outcomes).

- `refusal`: why the power may not give an order now (its units; in an adjustment phase its
  build sites and counts), a typed `Refused`;
- `verdict`: why adjudication would find an order illegal, judged when it arrives with the
  power's other orders (the variant's own judgement first: its `on_arrival` hook), a typed
  Reason;
- `order_key`: what an order is for, so that a later order replaces an earlier one for the
  same unit (a unit has one main order, plus a Disembark, its A/F army's, and a KeepFleet,
  Sahara rule 2, beside it; a power's own orders add up, except that it has one geophysical
  event, Geophysical rules 2, 3, 7);
- `stored_orders`: the power's stored orders, read as values (no order text is read again);
- `within_counts`: a power builds (or removes) no more than its count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.engine.errors import OrderError
from gm.engine.game import Needed, orders_needed, phase_results
from gm.engine.map import GameMap
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
from gm.engine.reasons import Reason
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from gm.notation import stored_order
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.store.statuses import GameStatus
from gm.variants import Variant, get_variant

# Unit orders the variants judge when they resolve (their hooks), not gm.engine.legality:
# checked when adjudicated, against the phase's other orders (a landing after its A/F's move);
# an Embark is checked on receipt: its fleet must be in the adjacent sea now (Abstraction2 rule 3)
VARIANT_UNIT_ORDERS = (Disembark, Transform, KeepFleet)

# A power's orders for a phase by what each is for (`order_key`): the text as written, the order.
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


def order_view(game: GameRecord, phase: PhaseRecord | None, *, late: bool = False) -> OrderView:
    """The view of `game`'s `phase` open for orders (None: none is): the map as the position
    makes it and what each power has to order (nothing in a game not active, unless `late`:
    the phase the message was in time for)."""
    variant = get_variant(game.variant)
    if phase is None:
        return OrderView(game, None, variant, variant.map, {})
    needed = orders_needed(variant, phase.state) \
        if late or game.status is GameStatus.ACTIVE else {}
    return OrderView(game, phase, variant, variant.map_for(phase.state), needed, late)


def order_key(order: AnyOrder, index: int) -> str:
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


class Refusal(StrEnum):
    """Why a power may not give an order now (the fields of `Refused` each uses)."""

    NOTHING_TO_ORDER = "nothing to order"  # power
    NO_BUILDS = "no builds"  # power
    NOT_A_BUILD_SITE = "not a build site"  # power, province, sites
    NO_REMOVALS = "no removals"  # power
    NO_UNIT_TO_REMOVE = "no unit to remove"  # power, province
    WAIVER_NOT_NOW = "a waiver outside adjustments"
    OTHERS_UNIT = "another power's unit"  # power, province, unit, owner
    NO_UNIT_TO_ORDER = "no unit to order"  # power, province, retreat


@dataclass(frozen=True)
class Refused:
    """A refusal of an order on arrival, with its fields: the `power`, the `province` ordered,
    the vacant build `sites`, the `unit` there and its `owner`; `retreat`: a retreat phase
    (only dislodged units retreat)."""

    why: Refusal
    power: str = ""
    province: str = ""
    sites: tuple[str, ...] = ()
    unit: str = ""
    owner: str = ""
    retreat: bool = False


def refusal(needed: Needed | None, order: AnyOrder, phase: PhaseRecord,
            power: str) -> Refused | None:
    """Why `power` may not give `order` now, or None."""
    if not isinstance(order, Order | Waive):
        # A power's own order (Exchange, Home, Alliance, geophysical): its variant judges it.
        return None
    if needed is None:
        return Refused(Refusal.NOTHING_TO_ORDER, power)
    if phase.phase.type is PhaseType.ADJUSTMENT:
        if isinstance(order, Build | Waive):
            if needed.builds <= 0:
                return Refused(Refusal.NO_BUILDS, power)
            if isinstance(order, Build) and order.unit.province not in needed.build_sites:
                return Refused(Refusal.NOT_A_BUILD_SITE, power, order.unit.province,
                               tuple(needed.build_sites))
            return None
        if isinstance(order, Remove | Disband):
            if needed.removals <= 0:
                return Refused(Refusal.NO_REMOVALS, power)
            owned = {u.location.province for u in phase.state.units_of(power)}
            if order.unit.province not in owned:
                return Refused(Refusal.NO_UNIT_TO_REMOVE, power, order.unit.province)
        return None
    if isinstance(order, Waive):
        return Refused(Refusal.WAIVER_NOT_NOW)
    if isinstance(order, Build | Remove):
        return None  # gm.engine.legality refuses it, naming the phase that takes it
    units = {u.location.province for u in needed.units}
    if order.unit.province not in units:
        there = phase.state.unit_in(order.unit.province)
        if there is not None and there.power != power:
            return Refused(Refusal.OTHERS_UNIT, power, order.unit.province, unit=str(there),
                           owner=there.power)
        return Refused(Refusal.NO_UNIT_TO_ORDER, power, order.unit.province,
                       retreat=phase.phase.type is PhaseType.RETREAT)
    return None


def judged_by_variant(order: AnyOrder) -> bool:
    """An order whose legality the variant's adjudication judges (its hooks), not
    gm.engine.legality: a variant's unit orders and a power's own orders."""
    return isinstance(order, VARIANT_UNIT_ORDERS) or not isinstance(order, Order | Waive)


def verdict(variant: Variant, state: GameState, power: str, order: AnyOrder,
            others: list[AnyOrder]) -> Reason | None:
    """Why adjudication would find `order` illegal, with the position as it stands and the
    power's `others` orders (every other unit holding), or None. The variant's own judgement
    of its orders comes first (its `on_arrival` hook: Abstraction2's exchanges, all but what
    the moves decide; Geophysical's events, on the map as it is); else the phase is
    adjudicated with them and the order's result read."""
    on_arrival = variant.hooks.on_arrival
    judged = None if on_arrival is None else on_arrival(variant, state, power, order)
    if judged is not None:
        return judged.why
    mine = "#this order"
    submitted = [Submitted(power, f"#{n}", other) for n, other in enumerate(others)]
    submitted.append(Submitted(power, mine, order))
    for result in phase_results(variant, state, submitted):
        if result.text == mine and result.outcome is Outcome.ILLEGAL:
            return result.why
    return None


def stored_orders(session: Session, phase: PhaseRecord, variant: Variant, gmap: GameMap,
                  power: str) -> Taken:
    """The power's latest valid orders for `phase`, as the values stored (the map is read
    only for an order stored before orders were kept as values)."""
    taken: Taken = {}
    stored = orders_repo.latest_valid_orders_of(session, phase.id, power)
    for line in () if stored is None else stored.lines:
        if line.canonical is None:
            continue
        order = stored_order(line.order, line.canonical, lambda: gmap, phase.phase.type,
                             variant.order_kinds)
        if not isinstance(order, OrderError):
            taken[order_key(order, len(taken))] = (line.text, order)
    return taken


@dataclass(frozen=True)
class Dropped:
    """Orders beyond a power's count, dropped (the earliest first): `allowed` of the `kind`
    ("build" or "removal"), the `orders` dropped."""

    kind: str
    allowed: int
    orders: tuple[str, ...]


def within_counts(merged: Taken, needed: Needed | None) -> list[Dropped]:
    """A power builds (or removes) no more than its count: the latest orders are kept in
    `merged`; what was dropped."""
    if needed is None:
        return []
    dropped: list[Dropped] = []
    for kinds, allowed, word in (((Build, Waive), needed.builds, "build"),
                                 ((Remove, Disband), needed.removals, "removal")):
        keys = [k for k, (_, order) in merged.items() if isinstance(order, kinds)]
        excess = len(keys) - allowed
        if excess > 0:
            dropped.append(Dropped(word, allowed,
                                   tuple(str(merged.pop(k)[1]) for k in keys[:excess])))
    return dropped


def unordered(needed: Needed, orders: list[AnyOrder]) -> list[Unit]:
    """The units among those `needed` (movement: all; retreats: the dislodged) that none of
    `orders` orders."""
    ordered = {o.unit.province for o in orders if isinstance(o, Order)}
    return [u for u in needed.units if u.location.province not in ordered]


def chained(head: AnyOrder, order: AnyOrder) -> bool:
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


def removal_weight(phase: PhaseRecord, order: AnyOrder) -> int:
    """How many units a removal order takes: an A/F is two (its army and its fleet; the A/F
    rules, gm.engine.army_fleet), unless only its army is named (`Remove A ENG`)."""
    if not isinstance(order, Remove | Disband):
        return 0
    unit = phase.state.unit_in(order.unit.province)
    whole = order.unit.type is not UnitType.ARMY
    return 2 if unit is not None and unit.type is UnitType.ARMY_FLEET and whole else 1
