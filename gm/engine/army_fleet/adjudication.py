"""Adjudication under the A/F rules (Abstraction2 rule 3, Deluge II rule 8): boarding before
movement, movement with landings and Fast Ferries, retreats onto fleets, adjustments counting an
A/F as two units. The package docstring (gm.engine.army_fleet) says how a variant uses them.
"""
from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace

from gm.engine.adjustments import adjustment_deltas, resolve_adjustments
from gm.engine.army_fleet.legality import (
    check_disembark,
    check_embark,
    check_movement_order_af,
    check_retreat_order_af,
    retreat_places_af,
)
from gm.engine.civil_disorder import FAR, disorder_removals
from gm.engine.errors import OrderError
from gm.engine.geo import Location
from gm.engine.legality import Board, Entry, error_reason, spec_of, submitted_orders
from gm.engine.map import GameMap
from gm.engine.movement import CONVOY, MOVE, SUPPORT_MOVE, Explainer, FrozenDecisions
from gm.engine.orders import (
    AnyOrder,
    Convoy,
    Disband,
    Disembark,
    Embark,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
)
from gm.engine.phase import PhaseType
from gm.engine.reasons import REPLACED, Fate, Reason, Void
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.retreats import resolve_retreats
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.engine.variant import HookStep, Variant

# the reasons given most often, made once
_CIRCULAR = Reason(Fate.CIRCULAR_STAND)
_STAYS_ABOARD = Reason(Fate.ARMY_STAYS_ABOARD)

__all__ = [
    "AFDecisions",
    "af_before_phase",
    "af_retreat_options",
    "embark",
    "resolve_adjustments_af",
    "resolve_movement_af",
    "resolve_retreats_af",
    "unit_count",
]


# -- boarding --------------------------------------------------------------------------------------
def embark(
    gmap: GameMap,
    state: GameState,
    submitted: Sequence[Submitted],
    *,
    hold_only: frozenset[str] = frozenset(),
) -> tuple[HookStep, list[Submitted]]:
    """Board every legal Embark order before movement (Abstraction2 rule 3: a legal embarkation
    can never fail). Returns the position with the A/Fs formed, a result per Embark order and
    per order made void by a later Embark, and the submissions left for the movement resolver.

    The last order given for an army counts: an Embark followed by another order for the same
    army is void, and earlier orders of a boarding army are void.
    """
    board = Board.of(gmap, state)
    results: dict[int, OrderResult] = {}
    legal: dict[int, Embark] = {}
    for n, sub in enumerate(submitted):
        if isinstance(sub.order, Embark):
            checked = check_embark(board, sub.power, sub.order, hold_only)
            if isinstance(checked, OrderError):
                results[n] = OrderResult(sub.power, sub.order, sub.text, Outcome.ILLEGAL,
                                         error_reason(checked))
            else:
                legal[n] = checked
    last: dict[tuple[str, str], int] = {}  # (power, province) -> last legal order there
    for n, sub in enumerate(submitted):
        if n in legal or (
            isinstance(sub.order, Order) and not isinstance(sub.order, (Disembark, Embark))
            and not isinstance(check_movement_order_af(gmap, state, sub.power, sub.order, board,
                                                       hold_only), OrderError)
        ):
            assert isinstance(sub.order, Order)
            last[(sub.power, sub.order.unit.province)] = n
    onto: dict[str, list[int]] = {}
    for n, order in legal.items():
        sub = submitted[n]
        if last[(sub.power, order.unit.province)] != n:
            results[n] = OrderResult(sub.power, order, sub.text, Outcome.ILLEGAL,
                                     REPLACED)
        else:
            onto.setdefault(order.fleet.province, []).append(n)
    boarding: dict[str, tuple[int, str]] = {}  # army province -> (submission, sea)
    for sea, ns in onto.items():
        if len(ns) > 1:
            armies = Reason(Fate.BOARD_CLASH, names=tuple(str(legal[n].unit) for n in ns),
                            province=sea)
            for n in ns:
                sub = submitted[n]
                results[n] = OrderResult(sub.power, legal[n], sub.text, Outcome.ILLEGAL,
                                         armies)
        else:
            boarding[legal[ns[0]].unit.province] = (ns[0], sea)
    seas = {sea for _, sea in boarding.values()}
    for n, order in legal.items():
        if n not in results:
            sub = submitted[n]
            results[n] = OrderResult(sub.power, order, sub.text, Outcome.SUCCEEDS,
                                     Reason(Fate.BOARDS, province=str(order.fleet)))
    remaining: list[Submitted] = []
    for n, sub in enumerate(submitted):
        if n in results:
            continue
        given = sub.order
        if isinstance(given, Order) and not isinstance(given, Disembark) \
                and given.unit.province in boarding \
                and board.units[given.unit.province].power == sub.power:
            results[n] = OrderResult(sub.power, given, sub.text, Outcome.ILLEGAL,
                                     REPLACED)
            continue
        remaining.append(sub)
    units = tuple(
        Unit(u.power, UnitType.ARMY_FLEET, u.location) if u.province in seas else u
        for u in state.units
        if u.province not in boarding
    )
    step = HookStep(state.evolve(units=units) if boarding else state,
                    tuple(results[n] for n in sorted(results)))
    return step, remaining


def af_before_phase(
    variant: Variant, state: GameState, submitted: Sequence[Submitted]
) -> tuple[HookStep, Sequence[Submitted]]:
    """`Hooks.before_phase` for the A/F rules: board the armies in a movement phase."""
    if state.phase.type is not PhaseType.MOVEMENT:
        return HookStep(state), submitted
    return embark(variant.map_for(state), state, submitted)


# -- movement ------------------------------------------------------------------------------------
class AFDecisions(FrozenDecisions):
    """Movement decisions under the A/F rules.

    The first `n_real` units are the units on the board; after them come the armies landing from
    A/Fs, one per Disembark order (`carrier[d]` is the A/F that carries army d), each ordered to
    move from the sea it lands from. A landing is a convoy-like move (no head to head); an A/F
    whose army lands from where it stands moves only if the landing succeeds; an army landing
    after its A/F's move (`after_move`) has a path only if that move succeeds. An army Fast
    Ferried by a fleet of its own power has left its province once the ferry is not disrupted.
    Circles with no single answer make every order in them fail (all stand).
    """

    def __init__(
        self,
        gmap: GameMap,
        units: Sequence[Unit],
        orders: Sequence[Order | None],
        undislodgeable: frozenset[str],
        n_real: int,
        carrier: Mapping[int, int],
        after_move: frozenset[int],
    ):
        self.n_real = n_real
        self.carrier = carrier
        self.after_move = after_move
        self.landing: dict[int, int] = {}  # A/F -> its army landing from where the A/F stands
        self.disembark_of: dict[int, int] = {}  # A/F -> its landing army (either kind)
        self.stood = [False] * len(units)  # failed by the "all units stand" rule
        super().__init__(gmap, units, orders, undislodgeable)

    def _read_orders(self, orders: Sequence[Order | None]) -> None:
        self.at = {p: i for i, p in enumerate(self.prov[: self.n_real])}
        self._read_kinds(orders)
        for d, af in self.carrier.items():
            if self.kind[d] == MOVE:
                self.disembark_of[af] = d
                if d not in self.after_move:
                    self.landing[af] = d
        for i in range(self.n_real):
            if self.kind[i] == SUPPORT_MOVE:
                d = self.disembark_of.get(self.target[i], -1)
                if d >= 0 and self.dest[d] == self.dest[i]:
                    self.target[i] = d  # a support of the A/F's army landing
        self._match()

    def path(self, i: int) -> bool:
        if i >= self.n_real:
            return i not in self.after_move or self.resolve(self.carrier[i])
        return not self.convoyed[i] or self._route(i, dynamic=True)

    def boards(self, j: int) -> int:
        """The fleet of its own power that Fast Ferries army j (so j left its province), or -1."""
        if j >= self.n_real or not self.convoyed[j]:
            return -1
        for f in self.fleets[j].values():
            if self.power[f] == self.power[j] and self.resolve(f):
                return f
        return -1

    def left(self, j: int) -> bool:
        return self.resolve(j) or self.boards(j) >= 0

    def move_succeeds(self, i: int) -> bool:
        if not super().move_succeeds(i):
            return False
        d = self.landing.get(i, -1)
        return d < 0 or self.resolve(d)  # the fleet may not leave its army behind to drown

    def fleet_move_possible(self, i: int) -> bool:
        """Would A/F i's move succeed if its army's landing did not hold it back?"""
        return FrozenDecisions.move_succeeds(self, i)

    def _backup_rule(self, orders: Sequence[int]) -> None:
        if self.two_solutions and {self.kind[j] for j in orders} == {MOVE}:
            for j in orders:  # units following each other round: the regular rules (DATC 6.C)
                self.circular[j] = True
                self.res[j] = True
                self.done[j] = True
            return
        involved = list(orders)
        for c in orders:  # a convoy's attackers are judged inside its decision (DATC 5.D)
            if self.kind[c] == CONVOY:
                involved.extend(m for m in self.attackers.get(self.prov[c], ())
                                if not self.done[m])
        for j in involved:  # Abstraction2 rule 3: all units involved stand
            self.stood[j] = True
            self.res[j] = False
            self.done[j] = True


class _AFExplainer(Explainer):
    """Reasons in words for the A/F rules' results."""

    def __init__(self, dec: AFDecisions, moved: list[bool], dislodged_by: list[int],
                 boarded: Mapping[int, int]):
        super().__init__(dec, moved, dislodged_by)
        self.af = dec  # self.dec, typed as the A/F decisions
        self.boarded = boarded

    def name(self, i: int) -> str:
        if i >= self.af.n_real:
            return f"the army of {self.af.units[self.af.carrier[i]]}"
        return super().name(i)

    def dislodged_reason(self, i: int) -> Reason:
        m = self.dislodged_by[i]
        if m >= self.af.n_real:
            return Reason(Fate.DISLODGED_BY_LANDING, unit=self.name(m), province=self.af.prov[m])
        return super().dislodged_reason(i)

    def move(self, i: int, details: list[str]) -> tuple[bool, Reason]:
        dec = self.af
        if dec.stood[i]:
            return False, _CIRCULAR
        if i in dec.landing and not self.moved[i] and dec.fleet_move_possible(i):
            return False, Reason(Fate.AF_STAYS, province=dec.dest[dec.landing[i]])
        ok, reason = super().move(i, details)
        f = self.boarded.get(i, -1)
        if f >= 0:
            reason = reason.then(Reason(Fate.STAYS_ABOARD, province=dec.prov[f]))
        return ok, reason

    def landing(self, d: int, details: list[str]) -> tuple[bool, Reason]:
        dec = self.af
        where = dec.dest[d]
        if self.moved[d]:
            j = dec.at.get(where, -1)
            if j >= 0 and self.dislodged_by[j] == d:
                return True, Reason(Fate.LANDS_DISLODGING, province=where, unit=self.name(j))
            return True, Reason(Fate.LANDS, province=where)
        if dec.stood[d]:
            return False, _CIRCULAR.then(_STAYS_ABOARD)
        if not dec.path(d):
            return False, Reason(Fate.CARRIER_DID_NOT_REACH, unit=self.name(dec.carrier[d]),
                                 province=dec.prov[d]).then(_STAYS_ABOARD)
        ok, reason = Explainer.move(self, d, details)
        return ok, replace(reason, convoy=False).then(_STAYS_ABOARD)

    def no_path(self, i: int) -> Reason:
        if any(self.af.stood[f] for f in self.af.fleets[i].values()):
            return _CIRCULAR
        return super().no_path(i)

    def support(self, s: int) -> tuple[bool, Reason]:
        if self.af.stood[s]:
            return False, _CIRCULAR
        return super().support(s)

    def convoy(self, c: int) -> tuple[bool, Reason]:
        dec = self.af
        if dec.stood[c]:
            return False, _CIRCULAR
        a = dec.target[c]
        if dec.matched[c] and self.boarded.get(a, -1) == c:
            return True, Reason(Fate.CARRIES_ABOARD, unit=self.name(a), province=dec.dest[c],
                                other=dec.prov[c])
        return super().convoy(c)


def resolve_movement_af(
    gmap: GameMap,
    state: GameState,
    submitted: Sequence[Submitted],
    *,
    undislodgeable: frozenset[str] = frozenset(),
    hold_only: frozenset[str] = frozenset(),
) -> PhaseOutcome:
    """Adjudicate a movement phase under the A/F rules (Abstraction2 rule 3).

    Embark orders still in `submitted` are boarded first. Each A/F has its fleet's order (any
    movement order) and may have a Disembark order beside it (the last legal one counts).
    `undislodgeable` and `hold_only` are as for `gm.engine.movement.resolve_movement`.
    """
    pre: tuple[OrderResult, ...] = ()
    if any(isinstance(s.order, Embark) for s in submitted):
        step, rest = embark(gmap, state, submitted, hold_only=hold_only)
        state, pre, submitted = step.state, step.results, rest
    units = state.units
    n = len(units)
    index = {u.province: (i, u.power) for i, u in enumerate(units)}
    board = Board.of(gmap, state)
    submitted = _as_written_for_af(board, submitted)

    def check(power: str, order: AnyOrder) -> AnyOrder | OrderError:
        return check_movement_order_af(gmap, state, power, order, board, hold_only)

    others = [s for s in submitted if not isinstance(s.order, Disembark)]
    entries, follows, tried = submitted_orders(others, check, index)
    orders: list[Order | None] = [None] * n
    for u, e in follows.items():
        order = entries[e].order
        assert isinstance(order, Order)
        orders[u] = order
    # Landings: the last legal Disembark of each A/F counts.
    landings: dict[int, tuple[Entry, Disembark, str]] = {}  # A/F -> (entry, order, from sea)
    dis_entries: list[Entry] = []
    for sub in submitted:
        if not isinstance(sub.order, Disembark):
            continue
        entry = Entry(sub.power, sub.text, sub.order)
        dis_entries.append(entry)
        u, owner = index.get(sub.order.unit.province, (-1, ""))
        if owner != sub.power:
            u = _af_moving_to(units, orders, sub.power, sub.order.unit.province, u)
            if u >= 0:
                owner = sub.power
                entry.order = Disembark(spec_of(units[u]), sub.order.dest)
        fleet_order = orders[u] if u >= 0 and owner == sub.power else None
        moves_to = fleet_order.dest.province if isinstance(fleet_order, Move) else None
        assert isinstance(entry.order, Disembark)
        checked = check_disembark(board, sub.power, entry.order, moves_to, hold_only)
        if isinstance(checked, OrderError):
            entry.outcome, entry.why = Outcome.ILLEGAL, error_reason(checked)
            continue
        entry.order = checked[0]
        old = landings.get(u)
        if old is not None:
            old[0].outcome, old[0].why = Outcome.ILLEGAL, REPLACED
        landings[u] = (entry, checked[0], checked[1])
    all_units = list(units)
    carrier: dict[int, int] = {}
    after_move: set[int] = set()
    landing_orders: dict[int, Move] = {}
    for af, (_, order, sea) in sorted(landings.items()):
        d = len(all_units)
        army = Unit(units[af].power, UnitType.ARMY, Location(sea))
        all_units.append(army)
        carrier[d] = af
        landing_orders[d] = Move(spec_of(army), order.dest)
        if sea != units[af].province:
            after_move.add(d)
    needed = 100 + 12 * len(all_units)
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)

    def decide(active: set[int]) -> AFDecisions:
        full = orders + [landing_orders[d] if d in active else None for d in sorted(carrier)]
        dec = AFDecisions(gmap, all_units, full, undislodgeable, n, carrier,
                          frozenset(after_move))
        dec.resolve_all()
        return dec

    # Abstraction2 rule 3, Exception: a landing after its A/F's move may not affect that move.
    active = set(carrier)
    excepted: set[int] = set()
    while True:
        dec = decide(active)
        culprit = next(
            (d for d in sorted(active & after_move)
             if _affects_own_move(dec, d, decide(active - {d}))),
            -1,
        )
        if culprit < 0:
            break
        active.discard(culprit)
        excepted.add(culprit)
    return _outcome(dec, state, pre, submitted, entries, follows, tried, landings, carrier,
                    excepted, dis_entries)


def _as_written_for_af(board: Board, submitted: Sequence[Submitted]) -> list[Submitted]:
    """The orders as the A/F rules read two shorthands (Abstraction2 rule 3):

    - `A ENG - Bre` where ENG holds an A/F of the power: its army lands (`A/F ENG disembarks
      Bre`, as the seed writes `A/F(ENG) disembarks A(ENG)-Bre`);
    - `F ENG FF A Lon - Bre` by a fleet of the army's power, the army having no order of its
      own: the army goes by that Fast Ferry (`A Lon - Bre` is added).
    """
    ordered = {(s.power, s.order.unit.province) for s in submitted if isinstance(s.order, Order)}
    out: list[Submitted] = []
    added: list[Submitted] = []
    for sub in submitted:
        order = sub.order
        unit = board.units.get(order.unit.province) if isinstance(order, Order) else None
        if unit is None or unit.power != sub.power:
            out.append(sub)
            continue
        if type(order) is Move and order.unit.type is UnitType.ARMY \
                and unit.type is UnitType.ARMY_FLEET and order.dest.province in board.facts.land:
            out.append(Submitted(sub.power, sub.text, Disembark(spec_of(unit), order.dest)))
            continue
        out.append(sub)
        if isinstance(order, Convoy) and unit.type is UnitType.FLEET:
            army = board.units.get(order.target.province)
            key = (sub.power, order.target.province)
            if army is not None and army.type is UnitType.ARMY and army.power == sub.power \
                    and key not in ordered:
                ordered.add(key)
                move = Move(spec_of(army), order.dest, via_convoy=True)
                added.append(Submitted(sub.power, f"{move} (by the Fast Ferry of {unit})", move))
    return out + added


def _af_moving_to(
    units: Sequence[Unit], orders: Sequence[Order | None], power: str, sea: str, default: int
) -> int:
    """`A/F MAO disembarks Por` where `power` has no unit in MAO: the A/F of `power` ordered to
    move to MAO this phase (the army lands after the move, Abstraction2 rule 3), if there is
    exactly one; else `default`."""
    found = []
    for i, unit in enumerate(units):
        order = orders[i]
        if unit.power == power and unit.type is UnitType.ARMY_FLEET \
                and isinstance(order, Move) and order.dest.province == sea:
            found.append(i)
    return found[0] if len(found) == 1 else default


def _affects_own_move(dec: AFDecisions, d: int, without: AFDecisions) -> bool:
    """Does landing d (after its A/F's move) affect that move (Abstraction2 rule 3, Exception)?
    It does if the move's result differs without it, or if the move or the landing was only
    settled by a rule for circular reasoning."""
    af = dec.carrier[d]
    return (dec.res[af] != without.res[af] or dec.stood[af] or dec.stood[d]
            or dec.circular[af] or dec.circular[d])


def _outcome(
    dec: AFDecisions,
    state: GameState,
    pre: tuple[OrderResult, ...],
    submitted: Sequence[Submitted],
    entries: list[Entry],
    follows: dict[int, int],
    tried: dict[int, int],
    landings: Mapping[int, tuple[Entry, Disembark, str]],
    carrier: Mapping[int, int],
    excepted: set[int],
    dis_entries: list[Entry],
) -> PhaseOutcome:
    n, total = dec.n_real, len(dec.units)
    units = dec.units
    moved = [dec.kind[i] == MOVE and dec.res[i] for i in range(total)]
    boarded: dict[int, int] = {}  # Fast Ferried army that stays aboard -> its fleet
    for j in range(n):
        if dec.kind[j] == MOVE and not moved[j]:
            f = dec.boards(j)
            if f >= 0:
                boarded[j] = f
    landed = {carrier[d]: d for d in carrier if moved[d]}
    dislodged_by = [-1] * total
    for i in range(total):
        if moved[i]:
            j = dec.at.get(dec.dest[i], -1)
            if j >= 0 and not moved[j] and j not in boarded:
                dislodged_by[j] = i
    ferrying = {f for f in boarded.values()}
    new_units: list[Unit] = []
    dislodged: list[Dislodged] = []
    occupied: set[str] = set()
    for i in range(n):
        unit = units[i]
        if i in boarded:
            continue
        if unit.type is UnitType.ARMY_FLEET and i in landed:
            d = landed[i]
            new_units.append(Unit(unit.power, UnitType.ARMY, Location(dec.dest[d])))
            occupied.add(dec.dest[d])
            unit = Unit(unit.power, UnitType.FLEET, unit.location)
        elif i in ferrying:
            unit = Unit(unit.power, UnitType.ARMY_FLEET, unit.location)
        if moved[i]:
            loc = dec.dest_loc[i]
            assert loc is not None
            new_units.append(unit.moved_to(loc))
            occupied.add(loc.province)
        elif dislodged_by[i] >= 0:
            m = dislodged_by[i]
            came = None if dec.convoyed[m] else dec.prov[m]
            dislodged.append(Dislodged(unit, came))
        else:
            new_units.append(unit)
            occupied.add(unit.province)
    contested = frozenset(
        province
        for province, movers in dec.attackers.items()
        if province not in occupied
        and any(not moved[k] and dec.prevent_strength(k) > 0 for k in movers)
    )
    explained = _AFExplainer(dec, moved, dislodged_by, boarded)
    ordered = {e: u for u, e in follows.items()}
    held = {e: u for u, e in tried.items() if u not in follows}
    by_entry: dict[int, OrderResult] = {}
    for e, entry in enumerate(entries):
        u = ordered.get(e, -1)
        if u >= 0:
            assert isinstance(entry.order, Order)
            by_entry[id(entry)] = explained.result(u, entry.power, entry.text, entry.order)
            continue
        reason = entry.why
        by = None
        u = held.get(e, -1)
        if u >= 0:
            reason = reason.then(explained.fate_of_holder(u))
            by = explained.attacker_name(u)
        by_entry[id(entry)] = OrderResult(entry.power, entry.order, entry.text,
                                          entry.outcome or Outcome.ILLEGAL, reason, by)
    counted = {id(landings[af][0]): d for d, af in carrier.items()}
    for entry in dis_entries:
        d = counted.get(id(entry), -1)
        if d < 0:
            by_entry[id(entry)] = OrderResult(entry.power, entry.order, entry.text,
                                              entry.outcome or Outcome.ILLEGAL, entry.why)
            continue
        details: list[str] = []
        if d in excepted:
            ok, reason = False, Reason(Fate.LANDING_EXCEPTED).then(_STAYS_ABOARD)
        else:
            ok, reason = explained.landing(d, details)
        by_entry[id(entry)] = OrderResult(entry.power, entry.order, entry.text,
                                          Outcome.SUCCEEDS if ok else Outcome.FAILS, reason,
                                          None, tuple(details))
    # Results in the order given: the rest of `submitted` maps onto entries and dis_entries.
    results = list(pre)
    plain, landing_list = iter(entries), iter(dis_entries)
    for sub in submitted:
        entry = next(landing_list) if isinstance(sub.order, Disembark) else next(plain)
        results.append(by_entry[id(entry)])
    extra = []
    for i in range(n):
        if i not in follows and i not in tried:
            hold = Hold(spec_of(units[i]))
            extra.append(explained.result(i, units[i].power, str(hold), hold, no_order=True))
    extra.sort(key=lambda r: (r.power, r.text))
    return PhaseOutcome(
        state=state.evolve(units=tuple(new_units), dislodged=tuple(dislodged),
                           contested=contested),
        results=tuple(results) + tuple(extra),
    )


# -- retreats and adjustments ---------------------------------------------------------------------
def af_retreat_options(
    gmap: GameMap, state: GameState, dislodged: Dislodged
) -> tuple[Location, ...]:
    """Where a dislodged unit may retreat under the A/F rules (also onto a fleet)."""
    return retreat_places_af(gmap, state, dislodged)


def resolve_retreats_af(
    gmap: GameMap, state: GameState, submitted: Sequence[Submitted]
) -> PhaseOutcome:
    """`Hooks.resolve_retreats` for the A/F rules (Abstraction2 rule 3, Retreats): an A/F
    retreats as a fleet, and if it retreats to a coastal space it becomes a fleet and its army
    is disbanded; an army may retreat onto an adjacent fleet of its own power in a sea space,
    forming an A/F there (two armies retreating onto one fleet are both disbanded, like two
    units retreating to one province)."""
    boarded: set[str] = set()  # the seas whose fleet an army retreated onto

    def carry_out(gmap: GameMap, unit: Unit, order: Retreat, placed: list[Unit]) -> Reason:
        dest = order.dest
        if unit.type is UnitType.ARMY and gmap.is_water(dest.province):
            boarded.add(dest.province)
            return Reason(Fate.RETREATS_ABOARD, province=dest.province)
        if unit.type is UnitType.ARMY_FLEET and not gmap.is_water(dest.province):
            placed.append(Unit(unit.power, UnitType.FLEET, dest))
            return Reason(Fate.RETREATS_AS_FLEET, province=str(dest))
        placed.append(unit.moved_to(dest))
        return Reason(Fate.RETREATS, province=str(dest))

    outcome = resolve_retreats(gmap, state, submitted, check=check_retreat_order_af,
                               places=retreat_places_af, carry_out=carry_out)
    if not boarded:
        return outcome
    units = tuple(
        Unit(u.power, UnitType.ARMY_FLEET, u.location) if u.province in boarded else u
        for u in outcome.state.units
    )
    return PhaseOutcome(outcome.state.evolve(units=units), outcome.results, outcome.events)


def unit_count(state: GameState, power: str) -> int:
    """`power`'s units for supply, an A/F counting as two (its army and its fleet)."""
    return sum(2 if u.type is UnitType.ARMY_FLEET else 1 for u in state.units if u.power == power)


def resolve_adjustments_af(
    gmap: GameMap,
    state: GameState,
    submitted: Sequence[Submitted],
    build_sites: Mapping[str, frozenset[str]],
) -> PhaseOutcome:
    """`Hooks.resolve_adjustments` for the A/F rules: an A/F is two units for supply.

    `Remove A ENG` removes the army of A/F ENG (F ENG stays); `Remove A/F ENG` (or `F ENG`)
    removes both, or only the army when one removal is left to make. The other orders go to
    the standard resolver, which counts an A/F as two (`adjustment_delta`). Civil disorder
    removes the units farthest from home first, an A/F whole when two or more removals are
    still due, only its army when one is (`_disorder_af`).
    """
    deltas = adjustment_deltas(state, gmap.centres)
    used: dict[str, int] = {}
    units = {u.province: u for u in state.units}
    done: set[str] = set()
    results: dict[int, OrderResult] = {}
    rest: list[Submitted] = []
    for n, sub in enumerate(submitted):
        order = sub.order
        unit = units.get(order.unit.province) if isinstance(order, (Remove, Disband)) else None
        if unit is None or unit.type is not UnitType.ARMY_FLEET or unit.power != sub.power \
                or deltas.get(sub.power, 0) >= 0:
            rest.append(sub)
            continue
        assert isinstance(order, (Remove, Disband))
        left = -deltas[sub.power] - used.get(sub.power, 0)
        if unit.province in done:
            outcome, reason = Outcome.ILLEGAL, Reason(Void.ALREADY_REMOVED, unit=str(unit))
        elif left <= 0:
            outcome, reason = Outcome.ILLEGAL, Reason(Void.REMOVE_ONLY, power=sub.power,
                                                      count=-deltas[sub.power])
        elif order.unit.type is UnitType.ARMY or left == 1:
            fleet = Unit(unit.power, UnitType.FLEET, unit.location)
            units[unit.province] = fleet
            used[sub.power] = used.get(sub.power, 0) + 1
            outcome, reason = Outcome.SUCCEEDS, Reason(Fate.AF_ARMY_REMOVED, unit=str(unit),
                                                       names=(str(fleet),))
        else:
            del units[unit.province]
            used[sub.power] = used.get(sub.power, 0) + 2
            outcome, reason = Outcome.SUCCEEDS, Reason(Fate.AF_REMOVED, unit=str(unit))
        done.add(unit.province)
        results[n] = OrderResult(sub.power, Remove(spec_of(unit)), sub.text, outcome, reason)
    before = state.evolve(units=tuple(units.values())) if done else state
    standard = resolve_adjustments(gmap, before, rest, build_sites)
    given = iter(standard.results[: len(rest)])
    ordered = [results[n] if n in results else next(given) for n in range(len(submitted))]
    after, extra = _disorder_af(gmap, before, standard.state, standard.results[len(rest):])
    return PhaseOutcome(after, tuple(ordered) + tuple(extra), standard.events)


def _disorder_af(
    gmap: GameMap, before: GameState, after: GameState, extra: Sequence[OrderResult]
) -> tuple[GameState, list[OrderResult]]:
    """The removals by civil disorder with each A/F counted as two units (Abstraction2 rule 3).

    The standard resolver removes whole units, farthest from home first. A power with an A/F
    among its units has its civil disorder made again here, in the same order of distance: an
    A/F goes whole (its army and its fleet) when two or more removals are still due, only its
    army when one is."""
    removed: dict[str, list[Unit]] = {}
    for r in extra:
        if isinstance(r.order, Remove) and r.why.kind is Fate.NO_ORDER \
                and any(part.kind is Fate.DISORDER for part in r.why.parts):
            unit = before.unit_in(r.order.unit.province)
            if unit is not None:
                removed.setdefault(r.power, []).append(unit)
    redo = {p for p in removed
            if any(u.type is UnitType.ARMY_FLEET for u in before.units_of(p))}
    if not redo:
        return after, list(extra)
    kept = [r for r in extra if r.power not in redo or not isinstance(r.order, Remove)]
    units = list(after.units) + [u for p in sorted(redo) for u in removed[p]]
    for power in sorted(redo):
        left = [u for u in units if u.power == power]
        restored = after.evolve(units=tuple(units))
        due = -adjustment_deltas(restored, gmap.centres).get(power, 0)
        homes = before.homes.get(power) or before.centres_of(power)
        for unit, distance in disorder_removals(gmap, left, homes, len(left)):
            if due <= 0:
                break
            count, where = (-1, "a home centre") if distance >= FAR else (distance, "home")
            units.remove(unit)
            if unit.type is UnitType.ARMY_FLEET and due == 1:
                fleet = Unit(unit.power, UnitType.FLEET, unit.location)
                units.append(fleet)
                due -= 1
                reason = Reason(Fate.AF_DISORDER_ARMY, unit=str(unit), names=(str(fleet),),
                                count=count, other=where)
            else:
                due -= 2 if unit.type is UnitType.ARMY_FLEET else 1
                reason = Reason(Fate.AF_DISORDER if unit.type is UnitType.ARMY_FLEET
                                else Fate.DISORDER, count=count, other=where)
            order = Remove(spec_of(unit))
            kept.append(OrderResult(power, order, str(order), Outcome.SUCCEEDS,
                                    Reason(Fate.NO_ORDER).then(reason)))
    return after.evolve(units=tuple(units)), kept
