"""The bot's movement orders: a simple, sound heuristic on the engine's legal moves.

In order: units standing on a centre the power wants, or on its own centre while another
power's unit could move in, stay (they may support); a centre held by another power is
attacked where enough units reach it (one moves, the others support, one more than its
occupant and that power's units next to it); an empty wanted centre gets the nearest free unit
(and, when another power could move in too, a supporter); the other units step towards the
nearest wanted centre; what is left supports a move of its own power or holds a threatened
unit, else holds. Two units of the power never move to one place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from gm.bot.legal import checked, spec
from gm.bot.position import FAR, Position, distances
from gm.engine.geo import Location
from gm.engine.orders import AnyOrder, Hold, Move, SupportHold, SupportMove
from gm.engine.phase import PhaseType
from gm.engine.units import Unit, UnitType


def _deciding(pos: Position) -> bool:
    """Is this the year's last movement phase (centres change hands after it)?"""
    calendar = pos.variant.calendar
    phase = pos.state.phase
    later = calendar.next(phase)
    for _ in range(6):
        if later.year != phase.year:
            return True
        if later.type is PhaseType.MOVEMENT:
            return False
        later = calendar.next(later)
    return True


@dataclass(frozen=True)
class Style:
    """How boldly a plan is made: `guard` keeps units on own centres another power could
    enter in every season (not only the deciding one); `ties` attacks where the attack only
    ties the defence the target may have."""

    guard: bool = False
    ties: bool = True


STYLES = (Style(), Style(guard=True), Style(ties=False), Style(guard=True, ties=False))


class _Plan:
    """Orders being chosen for one power's units."""

    def __init__(self, pos: Position, style: Style = Style()) -> None:
        self.pos = pos
        self.style = style
        self.orders: dict[Unit, AnyOrder] = {}
        self.staying: set[Unit] = set()  # units that stay where they are (hold or support)
        self.guarding: set[Unit] = set()  # staying on an own centre in a season not deciding
        self.bound: set[str] = set()  # provinces a unit of the power moves to or stays in
        # the movement after which centres change hands (the year's last: Fall)
        self.deciding = _deciding(pos)

    def free(self) -> list[Unit]:
        return [u for u in self.pos.mine if u not in self.orders and u not in self.staying]

    def move(self, unit: Unit, province: str) -> None:
        self.orders[unit] = self.pos.moves[unit][province]
        self.bound.add(province)

    def can_enter(self, unit: Unit, province: str) -> bool:
        """May `unit` move to `province` without meeting a unit of its own power?"""
        if province not in self.pos.moves[unit] or province in self.bound:
            return False
        there = self.pos.occupant.get(province)
        if there is None or there.power != self.pos.power:
            return True
        # a unit of the power leaves it (a move given already)
        return isinstance(self.orders.get(there), Move)

    def support(self, helper: Unit, mover: Unit, province: str) -> bool:
        """`helper` supports `mover` into `province`, if the engine allows it."""
        order = checked(self.pos.variant, self.pos.gmap, self.pos.state, self.pos.power,
                        SupportMove(spec(helper), spec(mover), Location(province)))
        if order is None:
            return False
        self.orders[helper] = order
        return True

    def support_hold(self, helper: Unit, held: Unit) -> bool:
        order = checked(self.pos.variant, self.pos.gmap, self.pos.state, self.pos.power,
                        SupportHold(spec(helper), spec(held)))
        if order is None:
            return False
        self.orders[helper] = order
        return True

    def helpers(self, province: str, exclude: Unit) -> list[Unit]:
        """The power's units that could support a move into `province` (free or staying)."""
        return [u for u in self.pos.mine if u is not exclude and u not in self.orders
                and province in self.pos.moves[u]]


def _stay(plan: _Plan) -> None:
    """Units on a wanted centre stay (to take it), and on an own centre another power could
    enter (outside the season that decides who owns it they may still take an empty wanted
    centre: `guarding`)."""
    pos = plan.pos
    for unit in pos.mine:
        here = unit.province
        if (here in pos.wanted and here in pos.gmap.centres) or \
                (here in pos.owned and pos.threat.get(here, 0) > 0):
            plan.staying.add(unit)
            plan.bound.add(here)
            if here in pos.owned and not plan.deciding and not plan.style.guard:
                plan.guarding.add(unit)


def _guards(pos: Position, target: str, occupant: Unit) -> list[Unit]:
    """The units of `occupant`'s power that could support it where it stands."""
    return [u for u in pos.state.units if u.power == occupant.power and u is not occupant
            and target in pos.reach(u)]


def _attack(plan: _Plan) -> None:
    """Attack centres held by other powers: the attack must be stronger than the occupant and
    every supporter it may have that no unit of the power attacks (an attacked unit's support
    is cut)."""
    pos = plan.pos
    held = []
    for target in sorted(pos.wanted):
        occupant = pos.foreign(target)
        if occupant is not None:
            guards = _guards(pos, target, occupant)
            held.append((len(guards), pos.threat.get(target, 0), target, guards))
    held.sort(key=lambda h: h[:3])
    for _, _, target, guards in held:
        if target in plan.bound:
            continue
        movers = [u for u in plan.free() if target in pos.moves[u]]
        if not movers:
            continue
        mover = min(movers, key=lambda u: (u.province in pos.owned, u.province))
        helpers = plan.helpers(target, mover)
        cutters: list[tuple[Unit, str]] = []
        spare = [u for u in plan.free() if u is not mover and u not in helpers]
        for guard in guards:
            cutter = next((u for u in spare if plan.can_enter(u, guard.province)), None)
            if cutter is None:
                cutter = next((u for u in helpers if u not in plan.staying and len(helpers)
                               > len(guards) - len(cutters)
                               and plan.can_enter(u, guard.province)), None)
                if cutter is not None:
                    helpers.remove(cutter)
            if cutter is not None:
                spare = [u for u in spare if u is not cutter]
                cutters.append((cutter, guard.province))
        uncut = len(guards) - len(cutters)
        # a tie bounces at worst: nothing is lost (unless the style says not to)
        if len(helpers) < (max(1, uncut) if plan.style.ties else uncut + 1):
            continue
        plan.move(mover, target)
        for cutter, province in cutters:
            plan.move(cutter, province)
        given = 0
        for helper in helpers:
            if given > uncut:
                break
            if plan.support(helper, mover, target):
                given += 1


def _occupy(plan: _Plan) -> None:
    pos = plan.pos
    autumn = plan.deciding
    empty = [p for p in sorted(pos.wanted) if p not in pos.occupant]
    if autumn:  # an own centre another power could walk into
        empty += [p for p in sorted(pos.owned) if p not in pos.occupant
                  and pos.threat.get(p, 0) > 0]
    for target in empty:
        if target in plan.bound:
            continue
        movers = [u for u in [*plan.free(), *sorted(plan.guarding)]
                  if u not in plan.orders and plan.can_enter(u, target)
                  and (u not in plan.guarding or target in pos.wanted)]
        if not movers:
            continue
        mover = min(movers, key=lambda u: (u in plan.guarding, u.province))
        if mover in plan.guarding:
            plan.staying.discard(mover)
            plan.guarding.discard(mover)
            plan.bound.discard(mover.province)
        plan.move(mover, target)
        if pos.threat.get(target, 0) > 0:
            for helper in plan.helpers(target, mover):
                if helper in plan.staying and plan.support(helper, mover, target):
                    break


def _advance(plan: _Plan, empty_only: bool = False) -> None:
    """Free units step nearer a wanted centre (`empty_only`: one no unit holds, at most a few
    steps away), never into a unit of another power."""
    pos = plan.pos
    if empty_only:
        empty = [p for p in pos.wanted if p not in pos.occupant]
        army_d = distances(pos.gmap.army_adj, empty)
        fleet_d = distances(pos.gmap.fleet_adj,
                            [loc for loc in pos.gmap.fleet_adj if loc.province in empty])
    # seas a fleet of the power is in or may move to (each counted once a fleet): an army
    # goes to a shore of one, to be convoyed (gm.bot.variant_orders)
    seas: Counter[str] = Counter()
    for fleet in pos.mine:
        if fleet.type is not UnitType.ARMY:
            seas.update({p for p in {fleet.province, *pos.moves[fleet]} if pos.gmap.is_water(p)})
    for _ in range(2):  # a second pass: places left by the first pass's moves
        for unit in plan.free():
            if empty_only:
                now = (army_d.get(unit.province, FAR) if unit.type is UnitType.ARMY
                       else fleet_d.get(unit.location, FAR))
                if now > 4:
                    continue
            else:
                now = pos.far(unit.type, unit.location, sea=True)
            best: tuple[int, int, int, str] | None = None
            for province, move in pos.moves[unit].items():
                if not plan.can_enter(unit, province) or pos.foreign(province) is not None:
                    continue
                if not empty_only:
                    far = pos.far(unit.type, move.dest, sea=True)
                elif unit.type is UnitType.ARMY:
                    far = army_d.get(province, FAR)
                else:
                    far = fleet_d.get(move.dest, FAR)
                if far >= now or far >= FAR:
                    continue
                shore = sum(seas[p] for p in pos.fleet_graph.get(province, ())) \
                    if unit.type is UnitType.ARMY else 0
                key = (far, pos.threat.get(province, 0), -shore, province)
                if best is None or key < best:
                    best = key
            if best is not None:
                plan.move(unit, best[3])


def _gather(plan: _Plan) -> None:
    """Free units move towards a centre held by another power that too few of its units can
    attack yet (one more than the occupant's possible supporters, and one to move in): each
    steps nearer the places from which it could attack."""
    pos = plan.pos
    held = []
    for target in sorted(pos.wanted):
        occupant = pos.foreign(target)
        if occupant is not None and target not in plan.bound:
            held.append((len(_guards(pos, target, occupant)), target))
    held.sort()
    for guards, target in held:
        near = sum(1 for u in pos.mine if target in pos.moves[u])
        want = 2 + guards
        if near >= want:
            continue
        army_ring = [p for p, adj in pos.gmap.army_adj.items() if target in adj]
        fleet_ring = [loc for loc, adj in pos.gmap.fleet_adj.items()
                      if any(d.province == target for d in adj)]
        army_d = distances(pos.gmap.army_adj, army_ring)
        fleet_d = distances(pos.gmap.fleet_adj, fleet_ring)
        for unit in plan.free():
            if near >= want:
                break
            if target in pos.moves[unit]:
                continue
            now = (army_d.get(unit.province, FAR) if unit.type is UnitType.ARMY
                   else fleet_d.get(unit.location, FAR))
            if now > 4:
                continue
            best: tuple[int, str] | None = None
            for province, move in pos.moves[unit].items():
                if not plan.can_enter(unit, province) or province in pos.occupant:
                    continue
                d = (army_d.get(province, FAR) if unit.type is UnitType.ARMY
                     else fleet_d.get(move.dest, FAR))
                if d < now and (best is None or (d, province) < best):
                    best = (d, province)
            if best is not None:
                plan.move(unit, best[1])
                near += 1


def _help(plan: _Plan) -> None:
    pos = plan.pos
    moving = [(u, o) for u, o in plan.orders.items() if isinstance(o, Move)]
    moving.sort(key=lambda m: (pos.foreign(m[1].dest.province) is None, m[0].province))
    for unit in [*plan.free(), *sorted(plan.staying)]:
        if unit in plan.orders:
            continue
        for mover, move in moving:
            if move.dest.province in pos.moves[unit] and plan.support(unit, mover,
                                                                      move.dest.province):
                break
        else:
            threatened = [u for u in pos.mine if u in plan.staying and u is not unit
                          and pos.threat.get(u.province, 0) > 0
                          and u.province in pos.moves[unit]]
            for held in threatened:
                if plan.support_hold(unit, held):
                    break
            else:
                plan.orders[unit] = Hold(spec(unit))


def bot_movement(pos: Position, style: Style = Style()) -> list[AnyOrder]:
    """The bot's orders for every unit of `pos.power` in a movement phase, made in `style`."""
    plan = _Plan(pos, style)
    _stay(plan)
    _attack(plan)
    _occupy(plan)
    _advance(plan, empty_only=True)
    _gather(plan)
    _advance(plan)
    _help(plan)
    return [plan.orders.get(u, Hold(spec(u))) for u in pos.mine]
