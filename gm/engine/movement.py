"""Movement adjudication: every order's success or failure, with a reason a player understands.

The resolution follows Kruijswijk's decisions of DATC section 5: a move succeeds when its attack
strength beats the hold (or, head to head, the defend) strength of its destination and the prevent
strength of every other unit moving there; a support is cut by a move into the supporter's province
from anywhere but the province the support is directed at, or by dislodgement; a convoy fails when
its fleet is dislodged; a convoyed army needs an unbroken chain of convoying fleets (any one route
will do, DATC 4.A.1). Orders that depend on each other in a circle are resolved with the guess
algorithm of DATC 5.F: when both guesses give the same result it is taken; when they do not, the
backup rule decides: circular movement succeeds (DATC 6.C), a convoy paradox is broken by the
Szykman rule (the convoying fleets in the paradox do not convoy, DATC 4.A.2 and 6.F.14-6.F.24).

Rule choices (DATC v2.4 preferences, as the reference test cases assume):
- 4.A.3 (2000 rulebook): an army ordered to an adjacent province goes by convoy when a complete
  chain of fleets is ordered to convoy it and either the order says "via convoy" or one of those
  convoy orders is by a fleet of the army's own power; otherwise it goes over land (6.G.1-6.G.18).
  A game playing the 2023 rulebook (gm.engine.rulebook) reads it as DATC v3.0 does: "via
  convoy" with no convoy fails rather than going over land (6.G.8), and a convoy order that no
  route needs shows no intent (6.G.19).
- 4.A.4: a convoyed army cannot cut a support for an attack on its own province (6.G.13).
- 4.A.7: a dislodged unit keeps its effect on the province it moved to unless it lost a head-to-head
  battle (6.G.10, 6.G.14, 6.G.15).
- A unit never dislodges a unit of its own power, and supports of a power never help dislodge that
  power's units (6.D.10-6.D.14, 6.E.2-6.E.3).

For variants, `resolve_movement` takes provinces whose units cannot be dislodged (`undislodgeable`,
decided by FrozenDecisions) and whose units may only hold (`hold_only`): Abstraction2 rule 5.
The A/F rules (gm.engine.army_fleet) build on MovementDecisions: `_read_kinds`/`_match` split the
reading of orders, and `two_solutions` tells a backup rule whether the circle had two consistent
resolutions or none.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import partial

from gm.engine.errors import OrderError
from gm.engine.geo import Location
from gm.engine.legality import (
    Board,
    Entry,
    check_movement_order,
    check_on_board,
    hold_only_error,
    spec_of,
    submitted_orders,
    waters_touching,
)
from gm.engine.map import GameMap
from gm.engine.orders import AnyOrder, Convoy, Hold, Move, Order, SupportHold, SupportMove
from gm.engine.reasons import Fate, Reason, Void
from gm.engine.results import OrderResult, Outcome, PhaseOutcome, Submitted
from gm.engine.rulebook import plays_2023
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType

# the reasons given most often, made once
HOLDS = Reason(Fate.HOLDS)
NO_ORDER = Reason(Fate.NO_ORDER)
NO_CONVOY_ROUTE = Reason(Fate.NO_CONVOY_ROUTE)
SUPPORT_CUT = Reason(Fate.SUPPORT_CUT)
CONVOY_PARADOX = Reason(Fate.CONVOY_PARADOX)
CONVOY_DISRUPTED = Reason(Fate.CONVOY_DISRUPTED)

# Enum members as module constants (an enum class attribute costs a lookup each time).
_FAILS = Outcome.FAILS
_ILLEGAL = Outcome.ILLEGAL
_SUCCEEDS = Outcome.SUCCEEDS
_ARMY = UnitType.ARMY

__all__ = ["Explainer", "FrozenDecisions", "MovementDecisions", "resolve_movement"]

HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY = range(5)
# The longest convoy route searched when judging whether a convoy order is legal (2023 rulebook).
_MAX_ROUTE = 8
# Order class -> kind, looked up by the class itself (quicker than isinstance tests in turn).
_KIND_CLASSES: tuple[tuple[type, int], ...] = (
    (Move, MOVE), (SupportHold, SUPPORT_HOLD), (SupportMove, SUPPORT_MOVE), (Convoy, CONVOY),
    (Hold, HOLD),
)
_KIND_OF: dict[type, int] = dict(_KIND_CLASSES)


class MovementDecisions:
    """The decisions of one movement phase (DATC 5.B), resolved on demand (DATC 5.F).

    Units are numbered in the order of `state.units`; each unit has one order kind (hold, move,
    support, convoy). `resolve(i)` is the success of unit i's order: the move succeeds, the
    support is not cut, the convoy is not disrupted.
    """

    def __init__(
        self,
        gmap: GameMap,
        units: Sequence[Unit],
        orders: Sequence[Order | None],
        undislodgeable: frozenset[str] = frozenset(),
        rulebook_2023: bool = False,
    ):
        n = len(units)
        self.gmap = gmap
        # The 2023 rulebook (gm.engine.rulebook) as DATC v3.0 reads it: _goes_by_convoy_2023.
        self.rulebook_2023 = rulebook_2023
        self.undislodgeable = undislodgeable  # provinces whose units cannot be dislodged
        self.units = units
        self.prov = [u.location.province for u in units]
        self.power = [u.power for u in units]
        self.at = {p: i for i, p in enumerate(self.prov)}
        self.touching = waters_touching(gmap)  # convoy neighbours of each province
        self.kind = [HOLD] * n
        self.dest = [""] * n  # move: destination province; support/convoy: their destination
        self.dest_loc: list[Location | None] = [None] * n
        self.target = [-1] * n  # support/convoy: the unit supported or convoyed
        self.via = [False] * n
        self.convoyed = [False] * n
        self.matched = [False] * n  # support/convoy: the target's order matches
        self.move_supports: list[list[int]] = [[] for _ in range(n)]
        self.hold_supports: list[list[int]] = [[] for _ in range(n)]
        self.fleets: list[dict[str, int]] = [{} for _ in range(n)]  # convoyed move: water -> fleet
        self.attackers: dict[str, list[int]] = {}
        # resolution state
        self.res = [False] * n
        self.done = [False] * n
        self.visited = [False] * n
        self.in_cycle = [False] * n
        self.cycle: list[int] = []
        self.guess_based = False
        self.recursion_hits = 0
        self.paradox = [False] * n  # convoy failed by the Szykman rule
        self.circular = [False] * n  # move succeeded by the circular movement rule
        self.two_solutions = False  # at a backup rule: two consistent resolutions (else none)
        self._read_orders(orders)

    # -- set-up ----------------------------------------------------------------------------------
    def _read_orders(self, orders: Sequence[Order | None]) -> None:
        self._read_kinds(orders)
        self._match()

    def _read_kinds(self, orders: Sequence[Order | None]) -> None:
        """Each unit's order kind, destination and target (not yet checked against each other)."""
        at = self.at
        kinds, dest, dest_loc, target = self.kind, self.dest, self.dest_loc, self.target
        attackers = self.attackers
        for i, order in enumerate(orders):
            if order is None:
                continue
            k = _KIND_OF.get(order.__class__)
            if k is None:  # not one of the five classes themselves: a subclass, or no kind
                k = next((k for cls, k in _KIND_CLASSES if isinstance(order, cls)), HOLD)
            if k == HOLD:
                continue
            kinds[i] = k
            if k == MOVE:
                assert isinstance(order, Move)
                d = order.dest
                dest[i] = d.province
                dest_loc[i] = d
                self.via[i] = order.via_convoy
                attackers.setdefault(d.province, []).append(i)
            elif k == SUPPORT_HOLD:
                assert isinstance(order, SupportHold)
                province = order.target.location.province
                target[i] = at[province]
                dest[i] = province
            elif k == SUPPORT_MOVE:
                assert isinstance(order, SupportMove)
                target[i] = at[order.target.location.province]
                dest[i] = order.dest.province
                dest_loc[i] = order.dest
            else:
                assert isinstance(order, Convoy)
                target[i] = at[order.target.location.province]
                dest[i] = order.dest.province

    def _match(self) -> None:
        """Which supports and convoys match their target's order; which armies go by convoy."""
        kind, target, dest = self.kind, self.target, self.dest
        n = len(kind)
        for i in range(n):
            k = kind[i]
            if k == SUPPORT_HOLD:
                t = target[i]
                if kind[t] != MOVE:  # DATC 6.D.7: a moving unit cannot be supported to hold
                    self.matched[i] = True
                    self.hold_supports[t].append(i)
            elif k == SUPPORT_MOVE:
                t = target[i]
                if kind[t] == MOVE and dest[t] == dest[i]:
                    want = self.dest_loc[i]
                    got = self.dest_loc[t]
                    # DATC 6.B.9: a coast named in the support must be the coast moved to.
                    if want is None or want.coast is None or got is None or got.coast is None \
                            or want.coast == got.coast:
                        self.matched[i] = True
                        self.move_supports[t].append(i)
            elif k == CONVOY:
                t = target[i]
                if kind[t] == MOVE and dest[t] == dest[i]:
                    self.matched[i] = True
                    self.fleets[t][self.prov[i]] = i
        for i in range(n):
            if kind[i] == MOVE and self.units[i].type is _ARMY:
                self.convoyed[i] = self._goes_by_convoy(i)

    def _goes_by_convoy(self, i: int) -> bool:
        """DATC 4.A.3 (2000 rulebook): by convoy if the army cannot walk there, or if a complete
        convoy is ordered and the army's order or one of its power's fleets shows the intent."""
        src, dst = self.prov[i], self.dest[i]
        if not self.gmap.army_can_move(src, dst):
            return True
        if self.rulebook_2023:
            return self._goes_by_convoy_2023(i)
        fleets = self.fleets[i]
        if not fleets or not self._route(i, dynamic=False):
            return False  # DATC 6.G.8: "via convoy" with no convoy ordered goes over land
        return self.via[i] or any(self.power[f] == self.power[i] for f in fleets.values())

    def _goes_by_convoy_2023(self, i: int) -> bool:
        """DATC v3.0 4.A.3 for the 2023 rulebook (the army can walk there): an order "via
        convoy" goes by convoy only, with no fallback to the land route (6.G.8, 6.G.20);
        otherwise by convoy when a complete convoy is ordered and a fleet of the army's power
        shows the intent with a legal convoy order: one whose water lies on some route the
        map allows with no shortcut. A convoy order no such route passes through is illegal and
        ignored (6.G.7, 6.G.19); one on a route others should have completed is not (6.G.6)."""
        if self.via[i]:
            return True
        fleets = self.fleets[i]
        if not fleets or not self._route(i, dynamic=False):
            return False
        return any(self.power[f] == self.power[i] and self._on_a_route(i, w)
                   for w, f in fleets.items())

    def _on_a_route(self, i: int, water: str) -> bool:
        """Does `water` lie on a chain of the map's waters from army i's province to its
        destination in which no water touches a later one but the next, the province touches
        only the first and the destination only the last?"""
        touching = self.touching
        src, dst = self.prov[i], self.dest[i]
        near_src = touching.get(src, frozenset())
        goal = touching.get(dst, frozenset())
        path: list[str] = []

        def extend(w: str) -> bool:
            path.append(w)
            try:
                if w in goal:
                    return water in path
                if len(path) >= _MAX_ROUTE:
                    return False
                for nxt in sorted(touching.get(w, ())):
                    if nxt in path or nxt in near_src or not self.gmap.is_water(nxt):
                        continue
                    if any(nxt in touching.get(p, ()) for p in path[:-1]):
                        continue
                    if extend(nxt):
                        return True
                return False
            finally:
                path.pop()

        return any(extend(w) for w in sorted(near_src) if self.gmap.is_water(w))

    def _route(self, i: int, dynamic: bool) -> bool:
        """Is there a chain of convoying fleets from the army to its destination? With `dynamic`,
        only fleets whose convoy succeeds count."""
        fleets = self.fleets[i]
        if not fleets:
            return False
        touching = self.touching
        goal = touching.get(self.dest[i], frozenset())
        todo = [w for w in touching.get(self.prov[i], ()) if w in fleets]
        seen = set(todo)
        while todo:
            w = todo.pop()
            if dynamic and not self.resolve(fleets[w]):
                continue
            if w in goal:
                return True
            for nxt in touching.get(w, ()):
                if nxt in fleets and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    # -- resolution (DATC 5.F, the guess algorithm) ---------------------------------------------
    def resolve(self, i: int) -> bool:
        if self.done[i]:
            return self.res[i]
        if self.in_cycle[i]:
            self.guess_based = True
            return self.res[i]
        if self.visited[i]:
            # A cyclic dependency: answer with the current guess.
            self.cycle.append(i)
            self.in_cycle[i] = True
            self.guess_based = True
            self.recursion_hits += 1
            return self.res[i]
        self.visited[i] = True
        old_len = len(self.cycle)
        old_guess_based = self.guess_based
        old_hits = self.recursion_hits
        self.guess_based = False
        self.res[i] = False
        first = self.adjudicate(i)
        if not self.guess_based:
            self.guess_based = old_guess_based
            return self._settle(i, first)
        if self.in_cycle[i]:
            self.recursion_hits -= 1
        if self.recursion_hits == old_hits:
            # This order is the ancestor of the whole cycle: try the other guess.
            self._drop_cycle(old_len)
            self.res[i] = True
            second = self.adjudicate(i)
            self.recursion_hits = old_hits
            if first == second:
                self._drop_cycle(old_len)
                self.guess_based = old_guess_based
                return self._settle(i, first)
            self.two_solutions = not first  # guess False was consistent: so was guess True
            self._backup_rule(self.cycle[old_len:])
            self._drop_cycle(old_len)
            self.guess_based = old_guess_based
            self.visited[i] = False
            return self.resolve(i)
        # Part of a cycle whose ancestor is further up: keep the guess-based result for now.
        if not self.in_cycle[i]:
            self.cycle.append(i)
            self.in_cycle[i] = True
        self.res[i] = first
        self.visited[i] = False
        return first

    def _settle(self, i: int, value: bool) -> bool:
        self.res[i] = value
        self.done[i] = True
        self.visited[i] = False
        return value

    def _drop_cycle(self, length: int) -> None:
        for j in self.cycle[length:]:
            self.in_cycle[j] = False
        del self.cycle[length:]

    def _backup_rule(self, orders: Sequence[int]) -> None:
        """Zero or two consistent resolutions: DATC 5.B.9."""
        kinds = {self.kind[j] for j in orders}
        if CONVOY in kinds:
            # Szykman rule: the convoying fleets in the paradox do not convoy.
            for j in orders:
                if self.kind[j] == CONVOY:
                    self.paradox[j] = True
                    self.res[j] = False
                    self.done[j] = True
        elif kinds == {MOVE}:
            # Circular movement: every move in the circle succeeds.
            for j in orders:
                self.circular[j] = True
                self.res[j] = True
                self.done[j] = True
        else:
            for j in orders:  # anything else (variant rules): the orders in the cycle fail
                self.res[j] = False
                self.done[j] = True

    # -- the decisions (DATC 5.B) -------------------------------------------------------------
    def adjudicate(self, i: int) -> bool:
        k = self.kind[i]
        if k == MOVE:
            return self.move_succeeds(i)
        if k == CONVOY:
            # DATC 5.D: adjudicate (not resolve) the attacks on a convoying fleet, so that every
            # convoy paradox is one clean cycle.
            return not any(self.move_succeeds(m) for m in self.attackers.get(self.prov[i], ()))
        if k in (SUPPORT_HOLD, SUPPORT_MOVE):
            return self.cutter(i) < 0 and not self.support_dislodged(i)
        return True

    def head_to_head(self, i: int) -> int:
        """The unit moving from i's destination to i's province over land, if i also moves over
        land (a convoyed army meets no one head to head)."""
        j = self.at.get(self.dest[i], -1)
        if (j >= 0 and self.kind[j] == MOVE and self.dest[j] == self.prov[i]
                and not self.convoyed[i] and not self.convoyed[j]):
            return j
        return -1

    def path(self, i: int) -> bool:
        return not self.convoyed[i] or self._route(i, dynamic=True)

    def _count(self, supports: Sequence[int], exclude_power: str | None = None) -> int:
        n = 0
        for s in supports:
            if self.power[s] != exclude_power and self.resolve(s):
                n += 1
        return n

    def attack_strength(self, i: int) -> int:
        if not self.path(i):
            return 0
        j = self.at.get(self.dest[i], -1)
        if j < 0 or (self.kind[j] == MOVE and self.head_to_head(i) < 0 and self.left(j)):
            return 1 + self._count(self.move_supports[i])
        if self.power[j] == self.power[i]:
            return 0  # no dislodging one's own unit
        return 1 + self._count(self.move_supports[i], self.power[j])

    def left(self, j: int) -> bool:
        """Has unit j (ordered to move) left its province? Its move succeeded (the A/F rules
        add an army carried off by its fleet, gm.engine.army_fleet)."""
        return self.resolve(j)

    def hold_strength(self, province: str) -> int:
        j = self.at.get(province, -1)
        if j < 0:
            return 0
        if self.kind[j] == MOVE:
            return 0 if self.left(j) else 1
        return 1 + self._count(self.hold_supports[j])

    def defend_strength(self, j: int) -> int:
        return 1 + self._count(self.move_supports[j])

    def prevent_strength(self, k: int) -> int:
        if not self.path(k):
            return 0
        opponent = self.head_to_head(k)
        if opponent >= 0 and self.resolve(opponent):
            return 0
        return 1 + self._count(self.move_supports[k])

    def move_succeeds(self, i: int) -> bool:
        attack = self.attack_strength(i)
        if attack == 0:
            return False
        opponent = self.head_to_head(i)
        if opponent >= 0:
            if attack <= self.defend_strength(opponent):
                return False
        elif attack <= self.hold_strength(self.dest[i]):
            return False
        for k in self.attackers[self.dest[i]]:
            if k != i and attack <= self.prevent_strength(k):
                return False
        return True

    def cutter(self, s: int) -> int:
        """A unit that cuts support s by attacking it (DATC 5.B.2), or -1."""
        for m in self.attackers.get(self.prov[s], ()):
            if self.power[m] == self.power[s]:
                continue  # DATC 6.D.20: no cutting one's own support
            if self.kind[s] == SUPPORT_MOVE and self.prov[m] == self.dest[s]:
                continue  # the target of a support cannot cut it (6.D.15; by convoy 6.G.13)
            if self.path(m):
                return m
        return -1

    def support_dislodged(self, s: int) -> bool:
        """Is the supporting unit s dislodged (which cuts its support, DATC 5.B.2)?"""
        power = self.power[s]
        return any(self.power[m] != power and self.resolve(m)
                   for m in self.attackers.get(self.prov[s], ()))

    def resolve_all(self) -> None:
        for i in range(len(self.kind)):
            if self.kind[i] != HOLD:
                self.resolve(i)

    def shielded(self, i: int) -> bool:
        """Would move i dislodge a unit that cannot be dislodged (`undislodgeable`)?"""
        j = self.at.get(self.dest[i], -1)
        return j >= 0 and self.dest[i] in self.undislodgeable and not (
            self.kind[j] == MOVE and self.resolve(j))


class FrozenDecisions(MovementDecisions):
    """Movement where the units in some provinces cannot be dislodged (Abstraction2 rule 5:
    frozen fleets, and armies in frozen Lapland and Archangel): a move that would dislodge one
    fails, though it still stands off other moves there and cuts a support given from there."""

    def move_succeeds(self, i: int) -> bool:
        return super().move_succeeds(i) and not self.shielded(i)


# -- the phase ------------------------------------------------------------------------------------
def resolve_movement(
    gmap: GameMap,
    state: GameState,
    submitted: Sequence[Submitted],
    *,
    undislodgeable: frozenset[str] = frozenset(),
    hold_only: frozenset[str] = frozenset(),
) -> PhaseOutcome:
    """Adjudicate a movement phase.

    Returns the position after it (same phase; the caller advances the calendar) with units
    moved, dislodged units and their attackers' origins (None when convoyed, DATC 4.A.5) and the
    provinces left empty by a standoff; and one result per submitted order plus one per unit
    that had no order ("no order: holds"). Later legal orders for a unit replace earlier ones.

    For variants: units in `undislodgeable` provinces cannot be dislodged, and units in
    `hold_only` provinces may only hold (any other order is illegal, so they hold; Abstraction2
    rule 5, frozen regions).
    """
    units = state.units
    index = {u.location.province: (i, u.power) for i, u in enumerate(units)}
    board = Board.of(gmap, state)

    def check(power: str, order: AnyOrder) -> AnyOrder | OrderError:
        if hold_only:
            frozen = hold_only_error(board, power, order, hold_only)
            if frozen is not None:
                return frozen
        return check_movement_order(gmap, state, power, order, board)

    # check(power, order) without hold_only: the legality check itself, no extra frame.
    check_all = partial(check_on_board, board)
    entries, follows, tried = submitted_orders(submitted, check if hold_only else check_all, index)
    orders: list[Order | None] = [None] * len(units)
    for u, e in follows.items():
        order = entries[e].order
        assert isinstance(order, Order)
        orders[u] = order
    needed = 100 + 12 * len(units)
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)
    rulebook_2023 = plays_2023(state)
    if undislodgeable:
        dec: MovementDecisions = FrozenDecisions(gmap, units, orders, undislodgeable,
                                                 rulebook_2023)
    else:
        dec = MovementDecisions(gmap, units, orders, rulebook_2023=rulebook_2023)
    dec.resolve_all()
    return _outcome(dec, state, entries, follows, tried)


def _outcome(
    dec: MovementDecisions,
    state: GameState,
    entries: list[Entry],
    follows: dict[int, int],
    tried: dict[int, int],
) -> PhaseOutcome:
    units = dec.units
    n = len(units)
    moved = [k == MOVE and r for k, r in zip(dec.kind, dec.res, strict=True)]
    dislodged_by = [-1] * n
    at, dest = dec.at, dec.dest
    for i in range(n):
        if moved[i]:
            j = at.get(dest[i], -1)
            if j >= 0 and not moved[j]:
                dislodged_by[j] = i
    new_units: list[Unit] = []
    dislodged: list[Dislodged] = []
    occupied: set[str] = set()
    for i, unit in enumerate(units):
        if moved[i]:
            loc = dec.dest_loc[i]
            assert loc is not None
            new_units.append(Unit(unit.power, unit.type, loc))
            occupied.add(loc.province)
        elif dislodged_by[i] >= 0:
            m = dislodged_by[i]
            dislodged.append(Dislodged(unit, None if dec.convoyed[m] else dec.prov[m]))
        else:
            new_units.append(unit)
            occupied.add(unit.location.province)
    # Provinces left empty by a standoff: no retreat there (DATC 6.H.6). A move without a
    # convoy (6.F.7) or one that lost head to head (6.H.9) stands off with no one.
    contested = frozenset(
        province
        for province, movers in dec.attackers.items()
        if province not in occupied
        and any(not moved[k] and dec.prevent_strength(k) > 0 for k in movers)
    )
    explained = Explainer(dec, moved, dislodged_by)
    ordered = {e: u for u, e in follows.items()}
    held = {e: u for u, e in tried.items() if u not in follows}  # only illegal orders
    results: list[OrderResult] = []
    for e, entry in enumerate(entries):
        u = ordered.get(e, -1)
        if u >= 0:
            assert isinstance(entry.order, Order)
            results.append(explained.result(u, entry.power, entry.text, entry.order))
            continue
        why = entry.why
        by = None
        u = held.get(e, -1)
        if u >= 0:
            why = why.then(explained.fate_of_holder(u))
            by = explained.attacker_name(u)
        results.append(OrderResult(entry.power, entry.order, entry.text,
                                   entry.outcome or _ILLEGAL, why, by))
    extra = []
    for i, unit in enumerate(units):
        if i not in follows and i not in tried:
            hold = Hold(spec_of(unit))
            extra.append(explained.result(i, unit.power, str(hold), hold, no_order=True))
    extra.sort(key=lambda r: (r.power, r.text))
    final = tuple(results) + tuple(extra)
    return PhaseOutcome(
        state=state.evolve(units=tuple(new_units), dislodged=tuple(dislodged),
                           contested=contested),
        results=final,
    )


class Explainer:
    """Writes each order's result and its reason once everything is resolved."""

    def __init__(self, dec: MovementDecisions, moved: list[bool], dislodged_by: list[int]):
        self.dec = dec
        self.moved = moved
        self.dislodged_by = dislodged_by
        self.names: dict[int, str] = {}

    def name(self, i: int) -> str:
        name = self.names.get(i)
        if name is None:
            name = self.names[i] = str(self.dec.units[i])
        return name

    def attacker_name(self, i: int) -> str | None:
        m = self.dislodged_by[i]
        return None if m < 0 else self.name(m)

    def dislodged_reason(self, i: int) -> Reason:
        dec = self.dec
        m = self.dislodged_by[i]
        attacker = dec.units[m]
        # named as the players ordered it: by where it came from
        return Reason(Fate.DISLODGED, unit=f"{attacker.type.value} {dec.prov[m]}",
                      power=attacker.power, convoy=dec.convoyed[m])

    def fate_of_holder(self, i: int) -> Reason:
        """What became of a unit whose orders were all illegal: it held."""
        held = Reason(Fate.HOLDER_HOLDS, unit=self.name(i))
        if self.dislodged_by[i] >= 0:
            return held.then(self.dislodged_reason(i))
        return held

    def result(
        self, i: int, power: str, text: str, order: Order, no_order: bool = False
    ) -> OrderResult:
        dec = self.dec
        k = dec.kind[i]
        details: list[str] = []
        if k == MOVE:
            ok, reason = self.move(i, details)
        elif k in (SUPPORT_HOLD, SUPPORT_MOVE):
            ok, reason = self.support(i)
        elif k == CONVOY:
            ok, reason = self.convoy(i)
        else:
            ok, reason = True, HOLDS
        by = None
        if self.dislodged_by[i] >= 0:
            by = self.name(self.dislodged_by[i])
            ok = False
            lost = self.dislodged_reason(i)
            reason = lost if k == HOLD else reason.then(lost)
        outcome = _SUCCEEDS if ok else _FAILS
        if no_order:
            reason = NO_ORDER.then(reason)
        return OrderResult(power, order, text, outcome, reason, by, tuple(details))

    # -- moves --------------------------------------------------------------------------------
    def move(self, i: int, details: list[str]) -> tuple[bool, Reason]:
        dec = self.dec
        where = str(dec.dest_loc[i])
        via = dec.convoyed[i]
        if self.moved[i]:
            if dec.circular[i]:
                return True, Reason(Fate.MOVES_CIRCULAR, province=where, convoy=via)
            j = dec.at.get(dec.dest[i], -1)
            if j >= 0 and self.dislodged_by[j] == i:
                return True, Reason(Fate.MOVES_DISLODGING, province=where, convoy=via,
                                    unit=self.name(j))
            return True, Reason(Fate.MOVES, province=where, convoy=via)
        if not dec.path(i):
            return False, self.no_path(i)
        attack = dec.attack_strength(i)
        details.append(f"attack strength {attack}")
        j = dec.at.get(dec.dest[i], -1)
        if attack == 0 and j >= 0 and dec.power[j] == dec.power[i]:
            return False, Reason(Fate.OWN_UNIT, unit=self.name(j))
        # The strongest resistance: head to head, the holder, or a unit moving there too.
        against: list[tuple[int, str]] = []
        opponent = dec.head_to_head(i)
        if opponent >= 0:
            against.append((dec.defend_strength(opponent), self.name(opponent)))
        elif j >= 0 and not (dec.kind[j] == MOVE and self.moved[j]):
            against.append((dec.hold_strength(dec.dest[i]), self.name(j)))
        for k in dec.attackers[dec.dest[i]]:
            if k != i:
                against.append((dec.prevent_strength(k), self.name(k)))
        beaten = [(s, who) for s, who in against if s >= attack]
        if not beaten and j >= 0 and dec.shielded(i):
            return False, Reason(Fate.SHIELDED, unit=self.name(j))
        if not beaten:
            return False, Reason(Fate.FAILED_TO_MOVE, province=where)
        strength, who = max(beaten, key=lambda x: x[0])
        if strength == attack:
            return False, Reason(Fate.BOUNCED, unit=who, count=attack, against=strength)
        return False, Reason(Fate.OUTMATCHED, unit=who, count=strength, against=attack)

    def no_path(self, i: int) -> Reason:
        dec = self.dec
        fleets = dec.fleets[i]
        if not fleets or not dec._route(i, dynamic=False):
            return NO_CONVOY_ROUTE
        broken = [f for f in fleets.values() if not dec.res[f]]
        paradox = [f for f in broken if dec.paradox[f]]
        if paradox:
            return Reason(Fate.CONVOY_PARADOX_MOVE, names=tuple(self.name(f) for f in paradox))
        return Reason(Fate.CONVOY_FLEETS_DISLODGED, names=tuple(self.name(f) for f in broken))

    # -- supports -----------------------------------------------------------------------------
    def support(self, s: int) -> tuple[bool, Reason]:
        dec = self.dec
        t = dec.target[s]
        if not dec.matched[s]:
            if dec.kind[s] == SUPPORT_HOLD:
                return False, Reason(Void.SUPPORT_DID_NOT_HOLD, unit=self.name(t),
                                     province=str(dec.dest_loc[t]))
            if dec.kind[t] == MOVE:
                return False, Reason(Void.SUPPORT_MOVED_ELSEWHERE, unit=self.name(t),
                                     province=str(dec.dest_loc[t]),
                                     other=str(dec.dest_loc[s]))
            return False, Reason(Void.SUPPORT_DID_NOT_MOVE, unit=self.name(t),
                                 province=str(dec.dest_loc[s]))
        if dec.res[s]:
            if dec.kind[s] == SUPPORT_HOLD:
                return True, Reason(Fate.SUPPORTS, unit=self.name(t))
            return True, Reason(Fate.SUPPORTS_MOVE, unit=self.name(t),
                                province=str(dec.dest_loc[s]))
        m = dec.cutter(s)
        if m >= 0:
            return False, Reason(Fate.SUPPORT_CUT_BY, unit=self.name(m))
        return False, SUPPORT_CUT  # by dislodgement, which the caller adds

    # -- convoys ------------------------------------------------------------------------------
    def convoy(self, c: int) -> tuple[bool, Reason]:
        dec = self.dec
        a = dec.target[c]
        army = self.name(a)
        if not dec.matched[c]:
            if dec.kind[a] == MOVE:
                return False, Reason(Void.CONVOY_MOVED_ELSEWHERE, unit=army,
                                     province=str(dec.dest_loc[a]), other=str(dec.dest[c]))
            return False, Reason(Void.CONVOY_DID_NOT_MOVE, unit=army, province=str(dec.dest[c]))
        if dec.paradox[c]:
            return False, CONVOY_PARADOX
        if not dec.res[c]:
            return False, CONVOY_DISRUPTED
        if not dec.convoyed[a]:
            return False, Reason(Fate.CONVOY_NOT_USED, unit=army)
        if self.moved[a]:
            return True, Reason(Fate.CONVOYS, unit=army, province=dec.dest[c])
        return True, Reason(Fate.CONVOYS_IN_VAIN, unit=army, province=dec.dest[c])
